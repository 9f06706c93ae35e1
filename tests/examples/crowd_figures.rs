//! Prints the crowd figures of `BENCHMARKS.md` ("Crowds without overlaps"): the swap-circle
//! and four-way presets run for `--seconds` (default 60) with their Reciprocal graph and with
//! the separation / unaligned-collision-avoidance graph, checked every tick.
//! `cargo run --release -p tests --example crowd_figures -- --seconds 60`

use std::time::Instant;

use graph_runtime::{SceneAssets, Simulation};
use tests::{crowd_figures, presets_dir, use_graph};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut seconds = 60.0;
    while let Some(arg) = args.next() {
        if arg == "--seconds" {
            seconds = args.next().ok_or("--seconds needs a value")?.parse()?;
        }
    }
    println!(
        "| scene | graph | agents | most overlapping pairs after 1 s | deepest overlap | 95 % at goal | at goal after {seconds} s | most stuck | ms per tick |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for scene in ["swap_circle.scene.ron", "four_way.scene.ron"] {
        for graph in ["orca_crowd.graph.ron", "separation_crowd.graph.ron"] {
            let mut assets =
                SceneAssets::load(&presets_dir().join(scene)).map_err(|e| format!("{e:?}"))?;
            use_graph(&mut assets, graph);
            let mut simulation = Simulation::new(&assets).map_err(|e| format!("{e:?}"))?;
            let start = Instant::now();
            let figures = crowd_figures(&mut simulation, seconds);
            let per_tick = start.elapsed().as_secs_f64() * 1000.0 / f64::from(seconds * 60.0);
            let reach = figures
                .time_to_95_percent
                .map_or_else(|| "not reached".to_owned(), |t| format!("{t:.1} s"));
            println!(
                "| {scene} | {graph} | {} | {} | {:.3} | {reach} | {:.1} % | {} | {per_tick:.2} |",
                figures.agents,
                figures.most_overlapping_pairs,
                figures.deepest_overlap,
                figures.reached_at_end * 100.0,
                figures.most_stuck,
            );
        }
    }
    Ok(())
}
