//! What the editor keeps between runs: recent files (eframe storage) and the autosave of
//! unsaved work, offered back after a crash.

use std::path::{Path, PathBuf};

use graph_runtime::{FlowFieldSource, Graph, Scene};
use serde::{Deserialize, Serialize};

use super::document::Document;
use super::preview::Preview;

/// Key of the settings in eframe's storage.
pub const SETTINGS_KEY: &str = "steergraph-settings";
/// Recent files remembered.
const RECENT_LIMIT: usize = 10;
/// The autosaved scene and the file it came from.
const SCENE_FILE: &str = "autosave.scene.ron";
const SCENE_ORIGIN_FILE: &str = "autosave.scene-origin";
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

/// Unsaved work found at start-up: a graph, a scene, or both.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered {
    /// The graph as last autosaved, if it had unsaved changes.
    pub graph: Option<Graph>,
    /// The file the graph belonged to, if it had been saved before.
    pub original: Option<PathBuf>,
    /// The preview's scene as last autosaved (its flow fields inline), if it had unsaved
    /// changes.
    pub scene: Option<Scene>,
    /// The file the scene belonged to, if any.
    pub scene_original: Option<PathBuf>,
}

/// Writes unsaved work to the app's data folder every few seconds; removes it when the work
/// is saved or discarded, or the editor closes normally.
#[derive(Debug)]
pub struct Autosave {
    directory: Option<PathBuf>,
    last_write: f64,
    last_text: String,
    last_scene_text: String,
}

impl Autosave {
    /// Autosaves into `directory` (`None`: autosave off).
    pub fn new(directory: Option<PathBuf>) -> Self {
        Self {
            directory,
            last_write: f64::NEG_INFINITY,
            last_text: String::new(),
            last_scene_text: String::new(),
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

    fn file(&self, name: &str) -> Option<PathBuf> {
        self.directory.as_ref().map(|d| d.join(name))
    }

    fn read_origin(&self, name: &str) -> Option<PathBuf> {
        self.file(name)
            .and_then(|f| std::fs::read_to_string(f).ok())
            .map(|text| text.trim().to_owned())
            .filter(|text| !text.is_empty())
            .map(PathBuf::from)
    }

    /// Unsaved work left by a previous run, if any (and readable).
    pub fn recover(&self) -> Option<Recovered> {
        let graph = self.graph_file().and_then(|f| Graph::load(&f).ok());
        let scene = self.file(SCENE_FILE).and_then(|f| Scene::load(&f).ok());
        if graph.is_none() && scene.is_none() {
            return None;
        }
        Some(Recovered {
            graph,
            original: self.read_origin("autosave.origin"),
            scene,
            scene_original: self.read_origin(SCENE_ORIGIN_FILE),
        })
    }

    /// Writes the preview's scene (with its working flow fields inline) if it has unsaved
    /// changes.
    pub fn write_scene(&mut self, preview: &Preview) -> Result<(), String> {
        let (Some(directory), Some(file), Some(origin)) = (
            self.directory.clone(),
            self.file(SCENE_FILE),
            self.file(SCENE_ORIGIN_FILE),
        ) else {
            return Ok(());
        };
        let mut scene = preview.scene.clone();
        for (name, field) in &preview.fields {
            scene
                .flow_fields
                .insert(name.clone(), FlowFieldSource::Inline(field.clone()));
        }
        let text = scene.to_ron().map_err(|e| e.to_string())?;
        if text == self.last_scene_text {
            return Ok(());
        }
        std::fs::create_dir_all(&directory)
            .map_err(|e| format!("autosave: cannot create {}: {e}", directory.display()))?;
        let original = preview
            .scene_path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        graph_runtime::write_atomically(&origin, &original)
            .map_err(|e| format!("autosave: {e}"))?;
        graph_runtime::write_atomically(&file, &text).map_err(|e| format!("autosave: {e}"))?;
        self.last_scene_text = text;
        Ok(())
    }

    /// Removes the scene's autosave (it was saved or deliberately discarded).
    pub fn clear_scene(&mut self) {
        for file in [self.file(SCENE_FILE), self.file(SCENE_ORIGIN_FILE)]
            .into_iter()
            .flatten()
        {
            // Absent is fine: there was nothing unsaved.
            let _ = std::fs::remove_file(file);
        }
        self.last_scene_text.clear();
    }

    /// Writes the document and the scene when they have unsaved changes and the interval has
    /// passed. Returns an error message when writing failed.
    pub fn tick(&mut self, now: f64, document: &Document, preview: &Preview) -> Option<String> {
        if !(document.is_dirty() || preview.is_dirty()) || now - self.last_write < AUTOSAVE_SECONDS
        {
            return None;
        }
        self.last_write = now;
        let graph = if document.is_dirty() {
            self.write(document).err()
        } else {
            None
        };
        let scene = if preview.is_dirty() {
            self.write_scene(preview).err()
        } else {
            None
        };
        graph.or(scene)
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
