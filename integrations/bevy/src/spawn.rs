//! Spawning a scene's agents as entities.

use std::sync::Arc;

use bevy_ecs::entity::Entity;
use bevy_ecs::system::Commands;
use graph_runtime::TagTable;

use crate::{SteerAgent, SteerGoals, SteerScene, SteerWorld};

/// Sets [`SteerWorld`] to the scene's world and spawns one entity per agent, in agent order
/// (returned in that order), placed, seeded and tagged exactly as `steergraph simulate`
/// starts the scene. Each agent runs its group's graph asset with the group's parameter
/// overrides, vehicle limits and avoidance, and gets a [`SteerGoals`] with the own points its group's
/// `goals` give it; add your own components (meshes, sprites) to the entities.
pub fn spawn_scene(commands: &mut Commands, scene: &SteerScene) -> Vec<Entity> {
    let start = &scene.start;
    // The tag table `Simulation::new` builds: groups' tags registered in group order.
    let mut tags = TagTable::default();
    let masks: Vec<_> = scene
        .assets
        .scene
        .groups
        .iter()
        .map(|group| tags.mask(&group.tags).unwrap_or(0))
        .collect();
    let parameters: Vec<_> = scene
        .assets
        .scene
        .groups
        .iter()
        .map(|group| Arc::new(group.parameters.clone()))
        .collect();
    commands.insert_resource(SteerWorld {
        world: start.world().clone(),
        tags,
    });
    let mut entities = Vec::with_capacity(start.vehicles().len());
    for (index, vehicle) in start.vehicles().iter().enumerate() {
        let Some(group) = start.group_of(index) else {
            continue;
        };
        let Some(graph) = scene.group_graphs.get(group) else {
            continue;
        };
        let mut agent = SteerAgent::new(graph.clone(), *vehicle, start.seed(), index as u64);
        agent.tags = masks.get(group).copied().unwrap_or(0);
        agent.avoidance = start.avoidance(index);
        if let Some(parameters) = parameters.get(group) {
            agent.parameters = Arc::clone(parameters);
        }
        let mut entity = commands.spawn(agent);
        if let Some(own) = start
            .own(index)
            .filter(|own| *own != &graph_runtime::OwnGoals::default())
        {
            entity.insert(SteerGoals(own.clone()));
        }
        entities.push(entity.id());
    }
    entities
}
