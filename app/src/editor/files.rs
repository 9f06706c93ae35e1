//! What the editor keeps between runs in eframe's storage: the recent files (the autosave of
//! unsaved work is `autosave.rs`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Key of the settings in eframe's storage.
pub const SETTINGS_KEY: &str = "steergraph-settings";
/// Recent files remembered.
const RECENT_LIMIT: usize = 10;

/// Editor settings persisted by eframe. Old settings files keep loading (`serde(default)`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Recently opened or saved graphs, newest first.
    pub recent: Vec<PathBuf>,
    /// Recently opened or saved scenes, newest first.
    pub recent_scenes: Vec<PathBuf>,
    /// The memory (MiB) the preview's recording may keep, once the designer set it (`None`:
    /// the runtime's default, 64).
    pub recording_budget_mib: Option<u32>,
}

impl Settings {
    /// Puts graph `path` first in the recent files.
    pub fn remember(&mut self, path: &Path) {
        put_first(&mut self.recent, path);
    }

    /// Puts scene `path` first in the recent scenes.
    pub fn remember_scene(&mut self, path: &Path) {
        put_first(&mut self.recent_scenes, path);
    }
}

fn put_first(list: &mut Vec<PathBuf>, path: &Path) {
    list.retain(|p| p != path);
    list.insert(0, path.to_path_buf());
    list.truncate(RECENT_LIMIT);
}
