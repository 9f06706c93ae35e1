//! Prints one hash per preset scene of every agent's position and velocity bits after each
//! tick of a run (default 20 s at 60 Hz), and one for the `versus_fast_loop` Flock workload
//! (`graph-runtime/benches/fast_loop.rs`; 4,096 agents, 200 ticks, big enough for cell order
//! and parallel chunks): a change meant to
//! leave motion alone is checked by running this before and after it and comparing the lines.
//! `cargo run --release -p tests --example trajectory_hashes -- --seconds 20`

use std::hash::{DefaultHasher, Hash, Hasher};

#[path = "../../graph-runtime/benches/fast_loop.rs"]
#[expect(dead_code, reason = "only the Flock workload's simulation is run here")]
mod fast_loop;

use fast_loop::DT;
use graph_runtime::{SceneAssets, Simulation};
use tests::presets_dir;

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
    let flock = fast_loop::Workload::Flock.simulation(4_096);
    println!("flock-4096 {:016x}", run(flock, 200));
    Ok(())
}
