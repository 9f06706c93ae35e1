//! A game's own loop driving its own agents with a Steergraph graph and flow field loaded from
//! disk: no scene, no editor, the same motion as the preview.
//!
//! Run with `cargo run -p graph-runtime --example game_loop`.

use std::collections::BTreeMap;
use std::error::Error;
use std::path::Path;

use glam::Vec2;
use graph_runtime::{Crowd, FlowField, Graph, Rect, Vehicle, World, compile};

/// The behavior graph, made in the editor.
const GRAPH_FILE: &str = "presets/river.graph.ron";
/// The flow field painted in the editor, and the name the graph knows it by.
const FIELD_FILE: &str = "presets/river.flow.ron";
const FIELD_NAME: &str = "river";
/// The level's playing area (units).
const LEVEL_MIN: Vec2 = Vec2::new(-60.0, -20.0);
const LEVEL_MAX: Vec2 = Vec2::new(60.0, 20.0);
/// Fixed tick (s) and how many to run.
const TICK: f32 = 1.0 / 60.0;
const TICKS: u32 = 600;
/// Seed of the agents' random numbers.
const SEED: u64 = 3;

/// The game's own agent: a body the graph steers, plus whatever else the game needs.
struct Fish {
    name: String,
    body: Vehicle,
    distance_swum: f32,
}

fn main() -> Result<(), Box<dyn Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let graph = Graph::load(&root.join(GRAPH_FILE))?;
    let program = compile(&graph).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let mut world = World::new(Rect::new(LEVEL_MIN, LEVEL_MAX));
    world.set_flow_field(FIELD_NAME, FlowField::load(&root.join(FIELD_FILE))?);

    let mut crowd = Crowd::new(program, &world, SEED, &BTreeMap::new()).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let mut school: Vec<Fish> = (0..8)
        .map(|i| Fish {
            name: format!("fish {i}"),
            body: Vehicle::new(
                Vec2::new(-55.0, -15.0 + i as f32 * 4.0),
                Vec2::ZERO,
                crowd.vehicle_params(),
            ),
            distance_swum: 0.0,
        })
        .collect();

    let mut bodies = Vec::with_capacity(school.len());
    let mut forces = Vec::with_capacity(school.len());
    for _ in 0..TICKS {
        bodies.clear();
        bodies.extend(school.iter().map(|fish| fish.body));
        crowd.steer(&world, &bodies, &[], TICK, &mut forces);
        for (fish, force) in school.iter_mut().zip(&forces) {
            let before = fish.body.position;
            fish.body.step(*force, TICK);
            fish.distance_swum += fish.body.position.distance(before);
        }
    }
    for fish in &school {
        println!(
            "{} is at ({:.1}, {:.1}) after swimming {:.1} units",
            fish.name, fish.body.position.x, fish.body.position.y, fish.distance_swum
        );
    }
    Ok(())
}
