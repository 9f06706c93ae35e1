//! The maze preset: a flow field generated toward the goal around obstacles brings agents
//! from anywhere reachable to the goal.

use glam::Vec2;
use graph_runtime::{AgentRng, AgentSpawn, FlowField, SceneAssets, Simulation, Spawn};

/// How `presets/maze.flow.ron` was made (the editor's "toward target" and "away from
/// obstacles" generators with these settings).
const CELL_SIZE: f32 = 1.0;
const CLEARANCE: f32 = 0.5;
const REPULSION_RANGE: f32 = 1.5;
const REPULSION_STRENGTH: f32 = 0.4;
/// Agents placed at random reachable cells.
const AGENTS: usize = 100;
/// Simulated time allowed (s).
const SECONDS: usize = 60;

fn maze() -> SceneAssets {
    SceneAssets::load(&tests::presets_dir().join("maze.scene.ron")).expect("maze preset loads")
}

#[test]
fn the_preset_field_is_what_the_generators_produce() {
    let assets = maze();
    let scene = &assets.scene;
    let mut field = FlowField::covering(scene.bounds, CELL_SIZE);
    field.generate_toward(scene.targets["goal"], &scene.obstacles, CLEARANCE);
    field.add_repulsion(&scene.obstacles, REPULSION_RANGE, REPULSION_STRENGTH);
    assert_eq!(assets.flow_fields["to goal"], field);
}

#[test]
fn a_generated_field_brings_100_agents_from_random_reachable_cells_to_the_goal() {
    let mut assets = maze();
    let field = assets.flow_fields["to goal"].clone();
    let goal = assets.scene.targets["goal"];
    let reachable: Vec<Vec2> = (0..field.height)
        .flat_map(|row| (0..field.width).map(move |column| (column, row)))
        .filter(|&(column, row)| {
            !field.is_blocked(column, row, &assets.scene.obstacles, CLEARANCE)
                && field.cell(column, row).is_some_and(|v| v.length() > 0.0)
        })
        .map(|(column, row)| field.cell_center(column, row))
        .collect();
    assert!(reachable.len() > 1000);
    let mut rng = AgentRng::new(2024, 0);
    let starts: Vec<AgentSpawn> = (0..AGENTS)
        .map(|_| {
            let index = ((rng.unit() * reachable.len() as f32) as usize).min(reachable.len() - 1);
            AgentSpawn {
                position: reachable[index],
                velocity: Vec2::ZERO,
            }
        })
        .collect();
    // Some start behind both walls, so the test is about going around them.
    assert!(starts.iter().filter(|s| s.position.x < -12.0).count() > 10);
    assets.scene.groups[0].spawn = Spawn::Agents(starts);
    let mut simulation = Simulation::new(&assets).expect("runs");
    for _ in 0..SECONDS * 60 {
        simulation.step(1.0 / 60.0);
    }
    for (agent, vehicle) in simulation.vehicles().iter().enumerate() {
        let distance = vehicle.position.distance(goal);
        assert!(
            distance < 1.5,
            "agent {agent} ended {distance:.2} from the goal at {}",
            vehicle.position
        );
        for obstacle in &assets.scene.obstacles {
            assert!(
                vehicle.position.distance(obstacle.center) >= obstacle.radius,
                "agent {agent} inside a rock"
            );
        }
    }
}
