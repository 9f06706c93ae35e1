//! Prints one hash per preset scene of every agent's position and velocity bits after each
//! tick of a run (default 20 s at 60 Hz), and one for the `versus_fast_loop` Flock workload
//! (4,096 agents, 200 ticks, big enough for cell order and parallel chunks): a change meant to
//! leave motion alone is checked by running this before and after it and comparing the lines.
//! `cargo run --release -p tests --example trajectory_hashes -- --seconds 20`

use std::hash::{DefaultHasher, Hash, Hasher};

use graph_runtime::{SceneAssets, Simulation};
use tests::presets_dir;

/// Tick length (s).
const DT: f32 = 1.0 / 60.0;

/// Adds every agent's position and velocity bits to `hasher`.
fn hash_state(simulation: &Simulation, hasher: &mut DefaultHasher) {
    for vehicle in simulation.vehicles() {
        for value in [vehicle.position, vehicle.velocity] {
            value.x.to_bits().hash(hasher);
            value.y.to_bits().hash(hasher);
        }
    }
}

/// The hash of `ticks` ticks of `simulation`, read after every tick.
fn run(mut simulation: Simulation, ticks: u32) -> u64 {
    let mut hasher = DefaultHasher::new();
    for _ in 0..ticks {
        simulation.step(DT);
        hash_state(&simulation, &mut hasher);
    }
    hasher.finish()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut seconds = 20.0_f32;
    while let Some(arg) = args.next() {
        if arg == "--seconds" {
            seconds = args.next().ok_or("--seconds needs a value")?.parse()?;
        }
    }
    let ticks = (seconds / DT).round() as u32;
    let mut scenes: Vec<_> = std::fs::read_dir(presets_dir())?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.to_string_lossy().ends_with(".scene.ron"))
        .collect();
    scenes.sort();
    for path in &scenes {
        let assets = SceneAssets::load(path).map_err(|e| format!("{e:?}"))?;
        let simulation = Simulation::new(&assets).map_err(|e| format!("{e:?}"))?;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        println!("{name} {:016x}", run(simulation, ticks));
    }
    let flock = Simulation::new(&flock(4_096)).map_err(|e| format!("{e:?}"))?;
    println!("flock-4096 {:016x}", run(flock, 200));
    Ok(())
}

/// The Flock workload of `versus_fast_loop` (`graph-runtime/benches/fast_loop.rs`):
/// `Blend[1.5 Separation, 1 Cohesion, 1 Alignment, 0.5 Wander]`, radius 5, a full circle, one
/// agent per 25 square units.
fn flock(agents: u32) -> SceneAssets {
    use graph_runtime::{
        AgentGroup, Area, Graph, Link, Node, Number, Rect, Scene, Spawn, VehicleParams,
        WeightedInput,
    };
    let mut graph = Graph::default();
    let (radius, fov, most): (Number, Number, Number) = (5.0.into(), 360.0.into(), 64.0.into());
    let separation = graph.add(Node::Separation {
        radius: radius.clone(),
        fov: fov.clone(),
        max_neighbors: most.clone(),
    });
    let cohesion = graph.add(Node::Cohesion {
        radius: radius.clone(),
        fov: fov.clone(),
        max_neighbors: most.clone(),
    });
    let alignment = graph.add(Node::Alignment {
        radius,
        fov,
        max_neighbors: most,
    });
    let wander = graph.add(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 90.0.into(),
        face: false,
    });
    let weighted = |node, weight: f32| WeightedInput {
        node: Link(Some(node)),
        weight: weight.into(),
    };
    let blend = graph.add(Node::Blend {
        inputs: vec![
            weighted(separation, 1.5),
            weighted(cohesion, 1.0),
            weighted(alignment, 1.0),
            weighted(wander, 0.5),
        ],
    });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    let half = (agents as f32 * 25.0).sqrt() * 0.5;
    let bounds = Rect::new(glam::Vec2::splat(-half), glam::Vec2::splat(half));
    let scene = Scene {
        bounds,
        seed: 42,
        groups: vec![AgentGroup {
            name: "flock".to_owned(),
            graph: "flock.graph.ron".to_owned(),
            spawn: Spawn::Random {
                count: agents,
                area: Area::Rect {
                    min: bounds.min,
                    max: bounds.max,
                },
                speed: 0.75,
            },
            vehicle: Some(VehicleParams {
                mass: 1.0,
                max_force: 3.0,
                max_speed: 1.5,
                radius: 0.5,
            }),
            tags: Vec::new(),
            parameters: std::collections::BTreeMap::new(),
            goals: std::collections::BTreeMap::new(),
            turning: None,
        }],
        ..Scene::default()
    };
    SceneAssets {
        scene,
        origin: "flock.scene.ron".to_owned(),
        graphs: [("flock.graph.ron".to_owned(), graph)].into(),
        flow_fields: std::collections::BTreeMap::new(),
    }
}
