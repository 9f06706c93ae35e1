//! A game's own loop driving its own agents with a Steergraph graph and flow field loaded from
//! disk: no scene, no editor, the same motion as the preview.
//!
//! Run with `cargo run -p graph-runtime --example game_loop`.
//!
//! With hot reload:
//!
//! ```sh
//! cargo run -p graph-runtime --example game_loop --features watch [-- FILE [SECONDS]]
//! ```
//!
//! runs in real time for two minutes (or SECONDS) on the river graph (or FILE, a copy to edit,
//! say): save the graph in the editor or a text editor and the loop swaps in the new program
//! without moving the fish; a save that does not load or compile is reported, and the fish keep
//! swimming with the last good graph.

use std::collections::BTreeMap;
use std::error::Error;
use std::path::{Path, PathBuf};

use glam::Vec2;
#[cfg(not(feature = "watch"))]
use graph_runtime::Graph;
use graph_runtime::{Crowd, FlowField, Rect, Vehicle, World};

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
#[cfg(not(feature = "watch"))]
const TICKS: u32 = 600;
/// Seed of the agents' random numbers.
const SEED: u64 = 3;
/// With hot reload: how long the loop runs unless told (seconds, in real time), and how often
/// it reports where the school is (ticks).
#[cfg(feature = "watch")]
const LIVE_SECONDS: u32 = 120;
#[cfg(feature = "watch")]
const REPORT_EVERY: u32 = 60;

/// The game's own agent: a body the graph steers, plus whatever else the game needs.
struct Fish {
    name: String,
    body: Vehicle,
    distance_swum: f32,
}

fn main() -> Result<(), Box<dyn Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let graph_file = std::env::args_os()
        .nth(1)
        .map_or_else(|| root.join(GRAPH_FILE), PathBuf::from);
    #[cfg(feature = "watch")]
    let mut watcher = graph_runtime::AssetWatcher::new(&graph_file)?;
    #[cfg(feature = "watch")]
    let program = watcher.program().clone();
    #[cfg(not(feature = "watch"))]
    let program = {
        let graph = Graph::load(&graph_file)?;
        // The subgraph files the graph uses, from its folder (none for the river preset).
        let subgraphs = graph_runtime::Subgraphs::load(&graph, &graph_file);
        subgraphs.compile(&graph).map_err(|errors| lines(&errors))?
    };
    let mut world = World::new(Rect::new(LEVEL_MIN, LEVEL_MAX));
    world.set_flow_field(FIELD_NAME, FlowField::load(&root.join(FIELD_FILE))?);

    let mut crowd =
        Crowd::new(program, &world, SEED, &BTreeMap::new()).map_err(|errors| lines(&errors))?;
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
    #[cfg(not(feature = "watch"))]
    for _ in 0..TICKS {
        swim(&mut crowd, &world, &mut school, &mut bodies, &mut forces);
    }
    #[cfg(feature = "watch")]
    let live_seconds: u32 = match std::env::args().nth(2) {
        Some(seconds) => seconds.parse()?,
        None => LIVE_SECONDS,
    };
    #[cfg(feature = "watch")]
    for tick in 1..=live_seconds * 60 {
        let started = std::time::Instant::now();
        match watcher.poll() {
            Some(Ok(program)) => match crowd.set_program(program, &world, &BTreeMap::new()) {
                Ok(()) => println!("reloaded {}", graph_file.display()),
                Err(errors) => eprintln!("kept the last graph:\n{}", lines(&errors)),
            },
            Some(Err(error)) => eprintln!("kept the last graph: {error}"),
            None => {}
        }
        swim(&mut crowd, &world, &mut school, &mut bodies, &mut forces);
        if tick % REPORT_EVERY == 0 {
            let centre = school.iter().map(|f| f.body.position).sum::<Vec2>() / school.len() as f32;
            println!(
                "{:>5.1} s: school at ({:.1}, {:.1})",
                f64::from(tick) * f64::from(TICK),
                centre.x,
                centre.y
            );
        }
        std::thread::sleep(
            std::time::Duration::from_secs_f32(TICK).saturating_sub(started.elapsed()),
        );
    }
    for fish in &school {
        println!(
            "{} is at ({:.1}, {:.1}) after swimming {:.1} units",
            fish.name, fish.body.position.x, fish.body.position.y, fish.distance_swum
        );
    }
    Ok(())
}

/// One tick of the game: the graph steers every fish, the game moves them.
fn swim(
    crowd: &mut Crowd,
    world: &World,
    school: &mut [Fish],
    bodies: &mut Vec<Vehicle>,
    forces: &mut Vec<Vec2>,
) {
    bodies.clear();
    bodies.extend(school.iter().map(|fish| fish.body));
    crowd.steer(world, bodies, &[], TICK, forces);
    for (fish, force) in school.iter_mut().zip(forces.iter()) {
        let before = fish.body.position;
        // Through the world, so solid walls stop the fish as they stop the editor's agents.
        world.step_vehicle(&mut fish.body, *force, TICK);
        fish.distance_swum += fish.body.position.distance(before);
    }
}

/// Errors one per line.
fn lines(errors: &[impl ToString]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}
