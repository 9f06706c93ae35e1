//! What the editor asks of the machine: file dialogs, the autosave, the watch on the open
//! files, the preview's clock and the frame statistics.

use super::autosave::Autosave;
use super::file_dialog::{Backend, FileDialogs};
use super::frame_stats::FrameStats;
use super::on_disk::DiskWatch;
use super::preview::Pacing;
use super::replay_save::RunSave;

/// The editor's services.
pub struct Services {
    /// The file dialogs (native, or in-app where none can be shown).
    pub files: FileDialogs,
    /// How the preview's clock turns frames into ticks (the window's budget, or exactly, for
    /// tests).
    pub pacing: Pacing,
    /// Milliseconds the last frame took (simulation, layout and painting commands).
    pub frame_ms: f32,
    pub(super) autosave: Autosave,
    /// The open files, watched for changes by other programs.
    pub(super) disk: DiskWatch,
    pub(super) frame_stats: Option<FrameStats>,
    /// The preview's run being proven and saved as a replay file (`replay_save.rs`).
    pub(super) run_save: Option<RunSave>,
}

impl Services {
    /// In-app file dialogs and the autosave `autosave`.
    pub(super) fn new(autosave: Autosave) -> Self {
        Self {
            files: FileDialogs::new(Backend::InApp),
            pacing: Pacing::default(),
            frame_ms: 0.0,
            autosave,
            disk: DiskWatch::default(),
            frame_stats: None,
            run_save: None,
        }
    }
}
