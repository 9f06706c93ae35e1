//! A run edited while it ran, saved as a replay file (version 2, issue 45), played back
//! through the C interface as a C program plays it: the live run's positions at every tick
//! checked, bit for bit, before and after the edit (the CLI's `replay` and the editor are
//! held to the same file in `app/tests`).
#![expect(
    unsafe_code,
    reason = "calls the library's extern \"C\" functions exactly as a C program does"
)]

use std::ffi::CString;

use steergraph::{
    SgAgentArrays, SgReplay, SgSimulation, SgStatus, sg_replay_free, sg_replay_load,
    sg_replay_open, sg_replay_step_to, sg_simulation_agent_count, sg_simulation_free,
    sg_simulation_read,
};
use tests::edited_runs::{EDIT_TICK, RIVER_TICKS, edited_river};

/// Every agent's position through C, as bits.
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
    assert_eq!(
        unsafe { sg_simulation_read(simulation, &raw const arrays) },
        SgStatus::Ok
    );
    position.iter().map(|p| p.to_bits()).collect()
}

#[test]
fn a_run_edited_while_it_ran_plays_back_through_c_as_it_ran() {
    let folder = tempfile::tempdir().expect("a folder");
    let (path, live) = edited_river(folder.path());
    let path = CString::new(path.display().to_string()).expect("a path");
    let (mut replay, mut simulation, mut count) = (SgReplay::default(), SgSimulation::default(), 0);
    // SAFETY: valid strings and outputs.
    unsafe {
        assert_eq!(sg_replay_load(path.as_ptr(), &raw mut replay), SgStatus::Ok);
        assert_eq!(sg_replay_open(replay, &raw mut simulation), SgStatus::Ok);
        assert_eq!(
            sg_simulation_agent_count(simulation, &raw mut count),
            SgStatus::Ok
        );
    }
    for tick in 1..=RIVER_TICKS {
        assert_eq!(
            sg_replay_step_to(replay, simulation, tick),
            SgStatus::Ok,
            "tick {tick}"
        );
        assert_eq!(
            positions(simulation, count),
            live[tick as usize],
            "tick {tick}"
        );
    }
    // The edit changed the run: the river as it loads, unedited, goes elsewhere.
    let assets =
        graph_runtime::SceneAssets::load(&folder.path().join("river.scene.ron")).expect("loads");
    let mut straight = graph_runtime::Simulation::new(&assets).expect("runs");
    for _ in 0..RIVER_TICKS {
        straight.step(1.0 / 60.0);
    }
    let unedited = tests::edited_runs::position_bits(&straight);
    assert_ne!(
        unedited, live[RIVER_TICKS as usize],
        "edited at tick {EDIT_TICK}"
    );
    assert_eq!(sg_simulation_free(simulation), SgStatus::Ok);
    assert_eq!(sg_replay_free(replay), SgStatus::Ok);
}
