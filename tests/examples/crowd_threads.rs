//! A game's `Crowd` stepping a preset's agents on pools of 1 and 2 threads (or
//! `STEERGRAPH_THREADS`, comma-separated), each pool in turn, with the `Simulation` of the same
//! scene on the same pools in the same rounds: ms per tick of each. One thread is what a crowd
//! did before its steering was split into parallel tasks (`BENCHMARKS.md`, issue 47, "A game's
//! crowd on every core").
//!
//! `cargo run --release -p tests --example crowd_threads -- [SCENE [AGENTS [TICKS [ROUNDS]]]]`
//! (defaults `boids.scene.ron`, the scene's own count, 200 ticks, 3 rounds). AGENTS sets the
//! first group's count when it spawns at random.

use std::time::Instant;

use graph_runtime::{SceneAssets, Simulation, Spawn};
use tests::drivers::{DT, crowd_of};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scene = args.first().map_or("boids.scene.ron", String::as_str);
    let agents: Option<u32> = args.get(1).and_then(|a| a.parse().ok());
    let ticks: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(200);
    let rounds: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(3);
    let threads: Vec<usize> = std::env::var("STEERGRAPH_THREADS").map_or_else(
        |_| vec![1, 2],
        |v| v.split(',').filter_map(|t| t.trim().parse().ok()).collect(),
    );
    let mut assets =
        SceneAssets::load(&tests::presets_dir().join(scene)).expect("the preset loads");
    if let (Some(agents), Some(group)) = (agents, assets.scene.groups.first_mut())
        && let Spawn::Random { count, .. } = &mut group.spawn
    {
        *count = agents;
    }
    let start = Simulation::new(&assets).expect("the preset runs");
    let tags = start.tags().to_vec();
    println!(
        "{scene}: {} agents, {ticks} ticks a run, ms per tick",
        start.vehicles().len()
    );
    for round in 1..=rounds {
        for &count in &threads {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(count)
                .build()
                .expect("a pool");
            let (mut crowd, world, mut vehicles) = crowd_of(&assets, &start);
            let mut simulation = start.clone();
            let (crowd_ms, simulation_ms) = pool.install(|| {
                let began = Instant::now();
                for _ in 0..ticks {
                    crowd.step(&world, &mut vehicles, &tags, DT);
                }
                let crowd_ms = began.elapsed().as_secs_f64() * 1e3 / ticks as f64;
                let began = Instant::now();
                for _ in 0..ticks {
                    simulation.step(DT);
                }
                (crowd_ms, began.elapsed().as_secs_f64() * 1e3 / ticks as f64)
            });
            println!(
                "round {round}, {count} thread(s): Crowd {crowd_ms:.4}, Simulation {simulation_ms:.4}"
            );
        }
    }
}
