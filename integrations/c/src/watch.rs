//! Hot reload: a graph file watched, polled once a frame, handing back the new program or why
//! the new file was refused (the last good program stays).

use std::ffi::c_char;
use std::sync::Arc;
use std::time::Duration;

use graph_runtime::{AssetWatcher, ReloadError};

use crate::handles::{insert, remove, with};
use crate::kinds::{SgProgram, SgWatcher};
use crate::ptr::{put, required};
use crate::status::{Failure, SgStatus, guard};

fn reload_failure(error: &ReloadError) -> Failure {
    let status = match error {
        ReloadError::Watch(_) => SgStatus::Watch,
        ReloadError::Load(_) => SgStatus::Load,
        _ => SgStatus::Compile,
    };
    Failure::new(status, error.to_string())
}

/// Loads and compiles the graph file at `path` (with its subgraph files) and starts watching
/// it and them.
///
/// # Safety
///
/// `path` is a NUL-terminated string; `watcher` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_watcher_create(
    path: *const c_char,
    watcher: *mut SgWatcher,
) -> SgStatus {
    guard(|| {
        required(watcher, "watcher")?;
        // SAFETY: the caller's pointer.
        let file = unsafe { crate::ptr::path(path, "path") }?;
        let made = AssetWatcher::new(&file).map_err(|e| reload_failure(&e))?;
        let id = insert(made)?;
        // SAFETY: checked above.
        unsafe { put(watcher, "watcher", SgWatcher { id }) }
    })
}

/// Sets how long a changed file must stay quiet before it is read (milliseconds; 100 by
/// default), so a save in progress is not read half-written.
#[unsafe(no_mangle)]
pub extern "C" fn sg_watcher_set_debounce(watcher: SgWatcher, milliseconds: u32) -> SgStatus {
    guard(|| {
        with::<AssetWatcher, _>(watcher.id, "watcher", |watcher| {
            watcher.set_debounce(Duration::from_millis(u64::from(milliseconds)));
            Ok(())
        })
    })
}

/// A new handle to the last program that compiled (free it with `sg_program_free`).
///
/// # Safety
///
/// `program` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_watcher_program(
    watcher: SgWatcher,
    program: *mut SgProgram,
) -> SgStatus {
    guard(|| {
        required(program, "program")?;
        let current =
            with::<AssetWatcher, _>(watcher.id, "watcher", |w| Ok(Arc::clone(w.program())))?;
        let id = insert(current)?;
        // SAFETY: checked above.
        unsafe { put(program, "program", SgProgram { id }) }
    })
}

/// Call once a frame; never blocks. When the files have not changed: `SG_STATUS_OK` and
/// `program->id == 0`. When they changed and compile: `SG_STATUS_OK` and a new program handle
/// (hand it to `sg_crowd_set_program`, then free it). When the new file does not load or
/// compile: its error status and message (`file:line:col: …`), `program->id == 0`, and the
/// last good program stays.
///
/// # Safety
///
/// `program` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_watcher_poll(watcher: SgWatcher, program: *mut SgProgram) -> SgStatus {
    guard(|| {
        required(program, "program")?;
        // SAFETY: checked above.
        unsafe { put(program, "program", SgProgram { id: 0 }) }?;
        let polled = with::<AssetWatcher, _>(watcher.id, "watcher", |w| Ok(w.poll()))?;
        match polled {
            None => Ok(()),
            Some(Ok(new)) => {
                let id = insert(new)?;
                // SAFETY: checked above.
                unsafe { put(program, "program", SgProgram { id }) }
            }
            Some(Err(error)) => Err(reload_failure(&error)),
        }
    })
}

/// Stops watching and frees the watcher. Zero is accepted and does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sg_watcher_free(watcher: SgWatcher) -> SgStatus {
    guard(|| remove::<AssetWatcher>(watcher.id, "watcher"))
}
