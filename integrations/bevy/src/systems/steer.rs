//! One tick of every agent, as `graph_runtime::Simulation::step` does it.

use bevy_ecs::change_detection::DetectChanges as _;
use bevy_ecs::entity::Entity;
use bevy_ecs::system::{Local, Query, Res, ResMut};
use bevy_ecs::world::Ref;
use graph_runtime::tick::{Group, Tick, neighbor_cell_size};

use super::step_buffers::StepBuffers;
use crate::{AgentBrain, SteerAgent, SteerClock, SteerGoals, SteerSettings, SteerWorld};

/// Every agent, its program (once its graph has loaded) and its own goals (if it has any).
type Agents<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static mut SteerAgent,
        Option<&'static mut AgentBrain>,
        Option<Ref<'static, SteerGoals>>,
    ),
>;

/// Steps every agent by one tick of [`SteerSettings::dt`]: every force is computed from the
/// vehicles at the start of the tick, in stream order, then every vehicle is integrated with
/// `World::step_vehicle` (solid walls included). This is `Simulation::step` (same inputs, same order, same neighbor grid),
/// so a scene's agents move bit for bit as in `steergraph simulate`. Agents whose graph has
/// not loaded yet are seen by the others but do not move.
pub(crate) fn steer_agents(
    steer_world: Res<SteerWorld>,
    settings: Res<SteerSettings>,
    mut clock: ResMut<SteerClock>,
    mut buffers: Local<StepBuffers>,
    mut agents: Agents,
) {
    let dt = settings.dt;
    let SteerWorld { world, tags } = &*steer_world;
    if steer_world.is_changed() {
        buffers.rebind(world, tags);
    }

    buffers.order.clear();
    buffers.order.extend(
        agents
            .iter()
            .map(|(entity, agent, _, _)| (agent.stream, entity)),
    );
    buffers.order.sort_unstable();

    let mut uses_neighbors = false;
    let mut radius = 0.0_f32;
    let StepBuffers {
        order,
        vehicles,
        tags: tag_masks,
        ..
    } = &mut *buffers;
    vehicles.clear();
    tag_masks.clear();
    for (_, entity) in order.iter() {
        let Ok((_, agent, brain, _)) = agents.get(*entity) else {
            continue;
        };
        vehicles.push(agent.vehicle);
        tag_masks.push(agent.tags);
        if let Some(brain) = brain {
            uses_neighbors |= brain.program.uses_neighbors();
            radius = radius.max(brain.radius);
        }
    }
    if uses_neighbors {
        // The cell size `Simulation` uses: the largest neighborhood radius, or 4 units.
        buffers.grid.set_cell_size(neighbor_cell_size(radius));
        let StepBuffers { grid, vehicles, .. } = &mut *buffers;
        grid.rebuild(vehicles);
    }

    buffers.forces.clear();
    for slot in 0..buffers.order.len() {
        let Some(&(_, entity)) = buffers.order.get(slot) else {
            break;
        };
        let Ok((_, _, Some(mut brain), goals)) = agents.get_mut(entity) else {
            buffers.forces.push(None);
            continue;
        };
        let binding = buffers.bind(&brain.program, world, tags);
        let StepBuffers {
            vehicles,
            tags: tag_masks,
            grid,
            scratch,
            bindings,
            forces,
            ..
        } = &mut *buffers;
        let Some((_, bindings, _)) = bindings.get(binding) else {
            forces.push(None);
            continue;
        };
        let AgentBrain {
            program,
            params,
            state,
            ..
        } = &mut *brain;
        // The agent's own goals when the game changed them (a new brain got them when it was
        // made, in `adopt_programs`); an agent whose goals were taken away has none.
        match goals {
            Some(goals) if goals.is_changed() => state.own.clone_from(&goals.0),
            None if state.own != graph_runtime::OwnGoals::default() => {
                state.own = graph_runtime::OwnGoals::default();
            }
            _ => {}
        }
        let tick = Tick {
            world,
            vehicles,
            tags: tag_masks,
            grid,
            dt,
        };
        let group = Group {
            program,
            bindings,
            params,
        };
        forces.push(Some(tick.steer_one(group, slot, state, scratch)));
    }

    for (&(_, entity), force) in buffers.order.iter().zip(&buffers.forces) {
        let Some(force) = force else {
            continue;
        };
        if let Ok((_, mut agent, _, _)) = agents.get_mut(entity) {
            // As `Simulation::step`: solid walls stop the step and slide it (the world's
            // `passable_walls` leaves that to the game's own physics).
            world.step_vehicle(&mut agent.vehicle, *force, dt);
        }
    }
    // The plugin does not fly jumps (games that do use `graph_runtime::Crowd`, which reports
    // take-offs and landings): a Jump node's take-offs are dropped.
    buffers.scratch.clear_take_offs();
    buffers.forget_unused();
    clock.ticks += 1;
}
