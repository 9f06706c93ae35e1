//! Replay files in the editor (issue 45): File > Open replay…, a dropped `.sgrec` and
//! `steergraph RUN.sgrec` open the recorded scene with its graph as saved and play the run in
//! the preview at the recording's tick length, checked tick by tick against it
//! (`preview/host/replay.rs`): the editor reproduces a `steergraph record` run byte for byte,
//! as the CLI and the C interface do, or says at which tick it stops doing so.

use std::fmt::Write as _;
use std::path::Path;

use graph_runtime::replay::ReplayFile;
use graph_runtime::{FileAccess, Graph, Scene};

use super::EditorApp;
use super::document::Document;
use super::scene_files::{beside, graphs_run};

/// Whether `path` names a replay file (`.sgrec`): what the editor opens as one when it is
/// given on the command line or dropped on the window.
pub fn is_replay(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgrec"))
}

impl EditorApp {
    /// Opens the replay file at `path` given when the editor starts (`steergraph RUN.sgrec`):
    /// at once, or, while the crash-recovery question is open, once it is answered (Recover
    /// first brings the unsaved work back, and opening the replay then asks about it as any
    /// opening does).
    pub fn open_replay_on_start(&mut self, path: &Path) {
        if matches!(self.view.dialog, Some(super::Dialog::Recover(_))) {
            self.view.replay_after_recovery = Some(path.to_path_buf());
        } else {
            self.open_replay(path);
        }
    }

    /// The replay [`EditorApp::open_replay_on_start`] left for after the recovery question,
    /// asked for now that it is answered.
    pub(super) fn replay_left_for_recovery(&mut self) {
        if let Some(path) = self.view.replay_after_recovery.take() {
            self.push(super::Command::OpenReplayPath(path));
        }
    }

    /// Opens the replay file at `path`: its scene (seeded as recorded) in the preview, the
    /// graph its first group runs read from disk as the open graph, and the run playing from
    /// tick 0. A replay that cannot be played (unreadable, its scene changed or missing) is an
    /// error dialog, with nothing in the editor changed.
    pub fn open_replay(&mut self, path: &Path) {
        let refused = |error: &dyn std::fmt::Display| error.to_string();
        let opened = ReplayFile::load(path)
            .map_err(|e| refused(&e))
            .and_then(|file| {
                // The scene as it is now, checked against the recording (its digest, its
                // agents, tick 0) before anything in the editor changes.
                file.open(path, FileAccess::Anywhere)
                    .map_err(|e| refused(&e))?;
                let scene_path = file
                    .scene_path(path, FileAccess::Anywhere)
                    .map_err(|e| refused(&e))?;
                let scene = Scene::load(&scene_path).map_err(|e| refused(&e))?;
                Ok((file, scene_path, scene))
            });
        let (file, scene_path, scene) = match opened {
            Ok(opened) => opened,
            Err(why) => return self.error("Could not open the replay.", &why),
        };
        let mut note = String::new();
        // The run's graph as it was saved: unsaved edits (the unsaved-changes dialog came
        // first) would make another run.
        if let Some(first) = graphs_run(&scene).first() {
            let graph_file = beside(&scene_path, first);
            match Graph::load(&graph_file) {
                Ok(graph) => {
                    self.take_graph(Document::new(&graph, Some(graph_file.clone())), None);
                    self.settings.remember(&graph_file);
                }
                Err(error) => {
                    let _ = write!(note, "; its graph did not open in the editor ({error})");
                }
            }
        }
        let seed_in_file = scene.seed;
        self.show_scene(scene, &scene_path);
        if seed_in_file != file.seed {
            // Recorded with `--seed`: the run's seed, as a scene edit the designer may keep.
            self.workspace.scene.scene.seed = file.seed;
            self.workspace.scene.record();
            let _ = write!(
                note,
                "; the scene's seed is set to the run's {} (the file has {seed_in_file})",
                file.seed
            );
        }
        let name = path.display().to_string();
        let message = format!(
            "Playing replay {name}: ticks 0 to {} of {:.2} ms, checked against the recording as they run{note}",
            file.ticks(),
            file.dt * 1000.0,
        );
        self.preview.host.play_replay(file, name);
        self.status.set(message);
    }
}
