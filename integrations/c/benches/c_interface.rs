//! Stepping 16,000 boids through the C interface against the Rust API, alternating one tick
//! of each in one process (both see the same machine load). Each tick is what a game does:
//! step, then read every agent's position and velocity into its own arrays
//! (`sg_simulation_step` + `sg_simulation_read` against `Simulation::step` + a copy loop).
//! Both run on the library's worker pool (all cores) and must end bit-identical.
//!
//! Run with `cargo bench -p steergraph-c --bench c_interface`.
#![expect(
    unsafe_code,
    reason = "calls the library's extern \"C\" functions exactly as a C program does"
)]

use std::ffi::CString;
use std::path::Path;
use std::time::{Duration, Instant};

use graph_runtime::{Area, SceneAssets, Simulation, Spawn};
use steergraph::{
    SgAgentArrays, SgScene, SgSimulation, SgStatus, sg_scene_free, sg_scene_from_bytes,
};
use steergraph::{
    sg_simulation_create, sg_simulation_free, sg_simulation_read, sg_simulation_step,
};

/// Boids in the comparison.
const AGENTS: u32 = 16_000;
/// Ticks before measuring, for the flock to form.
const WARM_UP_TICKS: usize = 30;
/// Measured ticks of each.
const MEASURED_TICKS: usize = 1_500;
const DT: f32 = 1.0 / 60.0;

fn main() {
    let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../presets");
    let assets = boids(&presets);
    let mut rust = Simulation::new(&assets).expect("runs");
    let c = through_c(&assets, &presets);

    let n = AGENTS as usize;
    let (mut c_position, mut c_velocity) = (vec![0.0_f32; 2 * n], vec![0.0_f32; 2 * n]);
    let (mut r_position, mut r_velocity) = (vec![0.0_f32; 2 * n], vec![0.0_f32; 2 * n]);
    let arrays = SgAgentArrays {
        capacity: n,
        position: c_position.as_mut_ptr(),
        velocity: c_velocity.as_mut_ptr(),
        angle: std::ptr::null_mut(),
        angular_velocity: std::ptr::null_mut(),
        height: std::ptr::null_mut(),
        airborne: std::ptr::null_mut(),
        tags: std::ptr::null_mut(),
        group: std::ptr::null_mut(),
    };
    let (mut c_times, mut rust_times) = alternate(
        &mut || {
            assert_eq!(sg_simulation_step(c, DT), SgStatus::Ok);
            // SAFETY: arrays with room for every agent.
            assert_eq!(
                unsafe { sg_simulation_read(c, &raw const arrays) },
                SgStatus::Ok
            );
        },
        &mut || {
            rust.step(DT);
            for (i, vehicle) in rust.vehicles().iter().enumerate() {
                r_position[2 * i] = vehicle.position.x;
                r_position[2 * i + 1] = vehicle.position.y;
                r_velocity[2 * i] = vehicle.velocity.x;
                r_velocity[2 * i + 1] = vehicle.velocity.y;
            }
        },
    );
    let same = c_position
        .iter()
        .zip(&r_position)
        .chain(c_velocity.iter().zip(&r_velocity))
        .all(|(a, b)| a.to_bits() == b.to_bits());
    assert!(
        same,
        "the C interface and the Rust API must end bit-identical"
    );
    assert_eq!(sg_simulation_free(c), SgStatus::Ok);
    report(&mut c_times, &mut rust_times);
}

/// The boids preset at `AGENTS` boids, its spawn disc and bounds widened to keep the preset's
/// density.
fn boids(presets: &Path) -> SceneAssets {
    let mut assets = SceneAssets::load(&presets.join("boids.scene.ron")).expect("preset loads");
    let widen = (AGENTS as f32 / 400.0).sqrt();
    let mut count = 0;
    for group in &mut assets.scene.groups {
        if let Spawn::Random {
            count: spawned,
            area,
            ..
        } = &mut group.spawn
        {
            count += *spawned;
            if let Area::Circle { radius, .. } = area {
                *radius *= widen;
            }
            *spawned = AGENTS;
        }
    }
    assert_eq!(count, 400, "the boids preset spawns 400 boids in one group");
    assets.scene.bounds.min *= widen;
    assets.scene.bounds.max *= widen;
    assets
}

/// The same scene handed to the C interface as a C program would: its RON text.
fn through_c(assets: &SceneAssets, presets: &Path) -> SgSimulation {
    let text = assets.scene.to_ron().expect("saves");
    let origin = CString::new("boids16k.scene.ron").expect("text");
    let folder = CString::new(presets.to_str().expect("UTF-8")).expect("text");
    let mut scene = SgScene::default();
    let mut simulation = SgSimulation::default();
    // SAFETY: valid text, strings and outputs.
    unsafe {
        let status = sg_scene_from_bytes(
            text.as_ptr(),
            text.len(),
            origin.as_ptr(),
            folder.as_ptr(),
            &raw mut scene,
        );
        assert_eq!(status, SgStatus::Ok);
        assert_eq!(
            sg_simulation_create(scene, std::ptr::null(), &raw mut simulation),
            SgStatus::Ok
        );
    }
    assert_eq!(sg_scene_free(scene), SgStatus::Ok);
    simulation
}

/// Times `WARM_UP_TICKS` then `MEASURED_TICKS` ticks of each, alternating which goes first so
/// neither always follows the other's cache state.
fn alternate(c: &mut dyn FnMut(), rust: &mut dyn FnMut()) -> (Vec<Duration>, Vec<Duration>) {
    for _ in 0..WARM_UP_TICKS {
        c();
        rust();
    }
    let time = |tick: &mut dyn FnMut()| {
        let start = Instant::now();
        tick();
        start.elapsed()
    };
    let (mut c_times, mut rust_times) = (Vec::new(), Vec::new());
    for round in 0..MEASURED_TICKS {
        if round % 2 == 0 {
            c_times.push(time(c));
            rust_times.push(time(rust));
        } else {
            rust_times.push(time(rust));
            c_times.push(time(c));
        }
    }
    (c_times, rust_times)
}

fn report(c_times: &mut [Duration], rust_times: &mut [Duration]) {
    let summary = |times: &mut [Duration]| {
        times.sort();
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        (times[0], times[times.len() / 2], mean)
    };
    let (c_min, c_median, c_mean) = summary(c_times);
    let (r_min, r_median, r_mean) = summary(rust_times);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{AGENTS} boids, {MEASURED_TICKS} ticks each, alternating, {} worker threads",
        rayon::current_num_threads()
    );
    println!(
        "             fastest   median     mean  (ms per tick: step + read positions and velocities)"
    );
    println!(
        "Rust API    {:8.3} {:8.3} {:8.3}",
        ms(r_min),
        ms(r_median),
        ms(r_mean)
    );
    println!(
        "C interface {:8.3} {:8.3} {:8.3}",
        ms(c_min),
        ms(c_median),
        ms(c_mean)
    );
    println!(
        "C / Rust     {:7.3}x {:7.3}x {:7.3}x  (bit-identical at the end)",
        ms(c_min) / ms(r_min),
        ms(c_median) / ms(r_median),
        ms(c_mean) / ms(r_mean)
    );
}
