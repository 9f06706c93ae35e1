//! Replay files through the C interface (issue 45): a run recorded by the runtime, loaded,
//! opened and stepped to a tick through C, is the straight run's bit for bit (a run edited
//! while it ran: `tests/tests/edited_replays.rs`); a tampered digest is named at its tick
//! with `SG_STATUS_REPLAY`; a tick the run lacks is refused.
#![expect(
    unsafe_code,
    reason = "calls the library's extern \"C\" functions exactly as a C program does"
)]

mod common;

use common::{c_path, last_error, ok, presets};
use graph_runtime::replay::ReplayFile;
use graph_runtime::{SceneAssets, Simulation};
use steergraph::*;

/// The river preset copied into `dir` and 90 ticks of it recorded there as `run.sgrec`.
fn recorded(dir: &std::path::Path) -> (ReplayFile, std::path::PathBuf) {
    for file in ["river.scene.ron", "river.graph.ron"] {
        std::fs::copy(presets().join(file), dir.join(file)).expect("copies");
    }
    let flow = std::fs::read_dir(presets()).expect("presets").flatten();
    for entry in flow.filter(|e| e.file_name().to_string_lossy().starts_with("river")) {
        std::fs::copy(entry.path(), dir.join(entry.file_name())).expect("copies");
    }
    let assets = SceneAssets::load(&dir.join("river.scene.ron")).expect("loads");
    let replay = ReplayFile::record(&assets, "river.scene.ron".into(), 90, 1.0 / 60.0, |_| {})
        .expect("records");
    let path = dir.join("run.sgrec");
    replay.save(&path).expect("saves");
    (replay, path)
}

/// Every agent's position through C.
fn positions(simulation: SgSimulation, count: usize) -> Vec<u32> {
    let mut position = vec![0.0_f32; 2 * count];
    let arrays = SgAgentArrays {
        capacity: count,
        position: position.as_mut_ptr(),
        velocity: std::ptr::null_mut(),
        angle: std::ptr::null_mut(),
        angular_velocity: std::ptr::null_mut(),
        height: std::ptr::null_mut(),
        airborne: std::ptr::null_mut(),
        tags: std::ptr::null_mut(),
        group: std::ptr::null_mut(),
    };
    // SAFETY: arrays with room for `count` agents.
    ok(unsafe { sg_simulation_read(simulation, &raw const arrays) });
    position.iter().map(|p| p.to_bits()).collect()
}

#[test]
fn a_replay_played_back_through_c_is_the_recorded_run() {
    let dir = tempfile::tempdir().expect("a folder");
    let (_, path) = recorded(dir.path());
    let (mut replay, mut simulation) = (SgReplay::default(), SgSimulation::default());
    let (mut ticks, mut dt, mut count) = (0_u64, 0.0_f32, 0_usize);
    // SAFETY: valid strings and outputs.
    unsafe {
        ok(sg_replay_load(c_path(&path).as_ptr(), &raw mut replay));
        ok(sg_replay_run(replay, &raw mut ticks, &raw mut dt));
        ok(sg_replay_open(replay, &raw mut simulation));
        ok(sg_simulation_agent_count(simulation, &raw mut count));
    }
    assert_eq!((ticks, dt, count), (90, 1.0 / 60.0, 60));
    let assets = SceneAssets::load(&dir.path().join("river.scene.ron")).expect("loads");
    let mut rust = Simulation::new(&assets).expect("runs");
    for tick in [1_u64, 30, 90] {
        ok(sg_replay_step_to(replay, simulation, tick));
        while rust.tick() < tick {
            rust.step(dt);
        }
        let straight: Vec<u32> = (rust.vehicles().iter())
            .flat_map(|v| [v.position.x.to_bits(), v.position.y.to_bits()])
            .collect();
        assert_eq!(positions(simulation, count), straight, "tick {tick}");
    }
    // Past the end: refused, the simulation where it was.
    assert_eq!(sg_replay_step_to(replay, simulation, 91), SgStatus::Replay);
    assert!(
        last_error().contains("tick 91 is not in the run, which has ticks 0 to 90"),
        "{}",
        last_error()
    );
    ok(sg_simulation_free(simulation));
    ok(sg_replay_free(replay));
}

#[test]
fn a_run_that_differs_is_named_at_its_tick_through_c() {
    let dir = tempfile::tempdir().expect("a folder");
    let (replay_file, path) = recorded(dir.path());
    let text = std::fs::read_to_string(&path).expect("reads");
    let digest = format!("{:016x}", replay_file.digest(40).expect("recorded"));
    std::fs::write(&path, text.replacen(&digest, "00000000deadbeef", 1)).expect("writes");
    let (mut replay, mut simulation) = (SgReplay::default(), SgSimulation::default());
    // SAFETY: valid strings and outputs.
    unsafe {
        ok(sg_replay_load(c_path(&path).as_ptr(), &raw mut replay));
        ok(sg_replay_open(replay, &raw mut simulation));
    }
    assert_eq!(sg_replay_step_to(replay, simulation, 90), SgStatus::Replay);
    assert!(
        last_error().contains("differs from the recorded run at tick 40"),
        "{}",
        last_error()
    );
    // The scene edited (its bounds 100 units wider): refused on opening, naming the scene.
    let scene = dir.path().join("river.scene.ron");
    let text = std::fs::read_to_string(&scene).expect("reads");
    let bounds = text.find("max: (").expect("bounds") + "max: (".len();
    let edited = format!("{}1{}", &text[..bounds], &text[bounds..]);
    std::fs::write(&scene, edited).expect("writes");
    let mut other = SgSimulation::default();
    // SAFETY: a valid output.
    assert_eq!(
        unsafe { sg_replay_open(replay, &raw mut other) },
        SgStatus::Load
    );
    assert!(
        last_error().contains("is not the one recorded"),
        "{}",
        last_error()
    );
    ok(sg_simulation_free(simulation));
    ok(sg_replay_free(replay));
    // A file that is no replay.
    let mut none = SgReplay::default();
    // SAFETY: valid strings and outputs.
    let status = unsafe { sg_replay_load(c_path(&scene).as_ptr(), &raw mut none) };
    assert_eq!(status, SgStatus::Load);
    assert!(
        last_error().contains("expected a replay file"),
        "{}",
        last_error()
    );
}
