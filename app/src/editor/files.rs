//! What the editor keeps between runs: recent files (eframe storage) and the autosave of
//! unsaved work, offered back after a crash.

use std::path::{Path, PathBuf};

use graph_runtime::Graph;
use serde::{Deserialize, Serialize};

use super::document::Document;

/// Key of the settings in eframe's storage.
pub const SETTINGS_KEY: &str = "steergraph-settings";
/// Recent files remembered.
const RECENT_LIMIT: usize = 10;
/// Seconds between autosaves of unsaved work.
pub const AUTOSAVE_SECONDS: f64 = 5.0;

/// Editor settings persisted by eframe. Old settings files keep loading (`serde(default)`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Recently opened or saved graphs, newest first.
    pub recent: Vec<PathBuf>,
}

impl Settings {
    /// Puts `path` first in the recent files.
    pub fn remember(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(RECENT_LIMIT);
    }
}

/// Unsaved work found at start-up.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered {
    /// The graph as last autosaved.
    pub graph: Graph,
    /// The file it belonged to, if it had been saved before.
    pub original: Option<PathBuf>,
}

/// Writes unsaved work to the app's data folder every few seconds; removes it when the work
/// is saved or discarded, or the editor closes normally.
#[derive(Debug)]
pub struct Autosave {
    directory: Option<PathBuf>,
    last_write: f64,
    last_text: String,
}

impl Autosave {
    /// Autosaves into `directory` (`None`: autosave off).
    pub fn new(directory: Option<PathBuf>) -> Self {
        Self {
            directory,
            last_write: f64::NEG_INFINITY,
            last_text: String::new(),
        }
    }

    /// The platform's data folder for Steergraph.
    pub fn default_directory() -> Option<PathBuf> {
        directories::ProjectDirs::from("org", "Steergraph", "Steergraph")
            .map(|dirs| dirs.data_dir().to_path_buf())
    }

    fn graph_file(&self) -> Option<PathBuf> {
        self.directory
            .as_ref()
            .map(|d| d.join("autosave.graph.ron"))
    }

    fn origin_file(&self) -> Option<PathBuf> {
        self.directory.as_ref().map(|d| d.join("autosave.origin"))
    }

    /// Unsaved work left by a previous run, if any (and readable).
    pub fn recover(&self) -> Option<Recovered> {
        let file = self.graph_file()?;
        let graph = Graph::load(&file).ok()?;
        let original = self
            .origin_file()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .map(|text| text.trim().to_owned())
            .filter(|text| !text.is_empty())
            .map(PathBuf::from);
        Some(Recovered { graph, original })
    }

    /// Writes the document if it has unsaved changes and the interval has passed. Returns an
    /// error message when writing failed.
    pub fn tick(&mut self, now: f64, document: &Document) -> Option<String> {
        if !document.is_dirty() || now - self.last_write < AUTOSAVE_SECONDS {
            return None;
        }
        self.last_write = now;
        self.write(document).err()
    }

    /// Writes the document now.
    pub fn write(&mut self, document: &Document) -> Result<(), String> {
        let (Some(directory), Some(file), Some(origin)) = (
            self.directory.clone(),
            self.graph_file(),
            self.origin_file(),
        ) else {
            return Ok(());
        };
        let text = document.to_graph().to_ron().map_err(|e| e.to_string())?;
        if text == self.last_text {
            return Ok(());
        }
        std::fs::create_dir_all(&directory)
            .map_err(|e| format!("autosave: cannot create {}: {e}", directory.display()))?;
        let original = document
            .path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        graph_runtime::write_atomically(&origin, &original)
            .map_err(|e| format!("autosave: {e}"))?;
        graph_runtime::write_atomically(&file, &text).map_err(|e| format!("autosave: {e}"))?;
        self.last_text = text;
        Ok(())
    }

    /// Removes the autosave (the work was saved or deliberately discarded).
    pub fn clear(&mut self) {
        for file in [self.graph_file(), self.origin_file()]
            .into_iter()
            .flatten()
        {
            // Absent is fine: there was nothing unsaved.
            let _ = std::fs::remove_file(file);
        }
        self.last_text.clear();
    }
}
