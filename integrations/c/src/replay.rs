//! Replay files (`*.sgrec`, issue 45): load one, open its scene as a simulation (checked to be
//! the scene recorded), and step it to any tick of the run, every tick checked against the
//! recording: a game plays back a recorded run byte for byte, or learns at which tick it stops
//! being the same.

use std::ffi::c_char;
use std::path::PathBuf;

use graph_runtime::FileAccess;
use graph_runtime::Simulation;
use graph_runtime::replay::{ReplayError, ReplayFile};

use crate::handles::{insert, remove, with};
use crate::kinds::{SgReplay, SgSimulation};
use crate::ptr::{put, required};
use crate::status::{Failure, SgStatus, guard};

/// A replay file as loaded, with where it lies (its scene is named from its folder).
pub(crate) struct LoadedReplay {
    file: ReplayFile,
    path: PathBuf,
}

/// The status a replay's failure answers with.
fn failure(error: &ReplayError) -> Failure {
    let status = match error {
        ReplayError::Load(_) | ReplayError::Scene { .. } | ReplayError::SceneChanged { .. } => {
            SgStatus::Load
        }
        ReplayError::Agents { .. } | ReplayError::Refused { .. } | ReplayError::Digest(_) => {
            SgStatus::Setup
        }
        ReplayError::Diverged { .. }
        | ReplayError::NotRecorded { .. }
        | ReplayError::Edit { .. } => SgStatus::Replay,
    };
    Failure::new(status, error.to_string())
}

/// Loads the replay file at `path` (a regular file of at most 64 MiB, every field checked:
/// `SG_STATUS_LOAD` naming the field otherwise).
///
/// # Safety
///
/// `path` is a NUL-terminated string; `replay` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_replay_load(path: *const c_char, replay: *mut SgReplay) -> SgStatus {
    guard(|| {
        required(replay, "replay")?;
        // SAFETY: the caller's pointer.
        let path = unsafe { crate::ptr::path(path, "path") }?;
        let file = ReplayFile::load(&path).map_err(|e| failure(&ReplayError::Load(e)))?;
        let id = insert(LoadedReplay { file, path })?;
        // SAFETY: checked above.
        unsafe { put(replay, "replay", SgReplay { id }) }
    })
}

/// The run's last tick (it has ticks 0 to this), and its tick length in seconds.
///
/// # Safety
///
/// `ticks` and `dt` are valid for writing one `uint64_t` and one `float`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_replay_run(
    replay: SgReplay,
    ticks: *mut u64,
    dt: *mut f32,
) -> SgStatus {
    guard(|| {
        let (last, step) =
            with::<LoadedReplay, _>(replay.id, "replay", |r| Ok((r.file.ticks(), r.file.dt)))?;
        // SAFETY: the caller's pointers.
        unsafe {
            put(ticks, "ticks", last)?;
            put(dt, "dt", step)
        }
    })
}

/// A simulation of the replay's scene at tick 0, checked: the scene (inside the replay's
/// folder, as a scene's own files must be) is the one recorded, with the run's seed and agent
/// count, and its start is the recorded one. Step it with `sg_replay_step_to` to follow the
/// run (stepping it yourself leaves the run).
///
/// # Safety
///
/// `simulation` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_replay_open(
    replay: SgReplay,
    simulation: *mut SgSimulation,
) -> SgStatus {
    guard(|| {
        required(simulation, "simulation")?;
        let opened = with::<LoadedReplay, _>(replay.id, "replay", |r| {
            r.file
                .open(&r.path, FileAccess::SceneFolder)
                .map_err(|e| failure(&e))
        })?;
        let id = insert(opened)?;
        // SAFETY: checked above.
        unsafe { put(simulation, "simulation", SgSimulation { id }) }
    })
}

/// Steps `simulation` (opened with `sg_replay_open`, at or before `tick`) on to tick `tick` of
/// the run, putting in the edits the run had (graphs swapped in, walls drawn, targets moved:
/// a version 2 file) before the steps that first saw them, and checking every tick's state
/// against the recording: `SG_STATUS_REPLAY` names the first tick that differs (the scene or
/// the library changed since), an edit that does not fit the scene, or a tick the run does
/// not have (the simulation then stays where it was).
#[unsafe(no_mangle)]
pub extern "C" fn sg_replay_step_to(
    replay: SgReplay,
    simulation: SgSimulation,
    tick: u64,
) -> SgStatus {
    guard(|| {
        with::<LoadedReplay, _>(replay.id, "replay", |r| {
            let origin = r.path.display().to_string();
            with::<Simulation, _>(simulation.id, "simulation", |s| {
                r.file.replay_to(s, tick, &origin).map_err(|e| failure(&e))
            })
        })
    })
}

/// Frees the replay (simulations opened from it stay).
#[unsafe(no_mangle)]
pub extern "C" fn sg_replay_free(replay: SgReplay) -> SgStatus {
    guard(|| remove::<LoadedReplay>(replay.id, "replay"))
}
