//! What the editor keeps between runs: recent files (eframe storage) and the autosave of
//! unsaved work, offered back after a crash.

use std::path::{Path, PathBuf};

use graph_runtime::{Graph, Scene};
use serde::{Deserialize, Serialize};

use super::document::Document;
use super::preview::SceneDocument;

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
    /// Recently opened or saved scenes, newest first.
    pub recent_scenes: Vec<PathBuf>,
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

/// One autosaved asset: its file in the data folder, the file naming where it came from,
/// and the text last written (to skip rewriting unchanged work).
#[derive(Debug)]
struct Entry {
    file: &'static str,
    origin: &'static str,
    last_text: String,
}

impl Entry {
    const fn new(file: &'static str, origin: &'static str) -> Self {
        Self {
            file,
            origin,
            last_text: String::new(),
        }
    }
}

/// Writes unsaved work (the graph, and the preview's scene) to the app's data folder every
/// few seconds; removes it when the work is saved or discarded, or the editor closes normally.
#[derive(Debug)]
pub struct Autosave {
    directory: Option<PathBuf>,
    last_write: f64,
    graph: Entry,
    scene: Entry,
}

impl Autosave {
    /// Autosaves into `directory` (`None`: autosave off).
    pub fn new(directory: Option<PathBuf>) -> Self {
        Self {
            directory,
            last_write: f64::NEG_INFINITY,
            graph: Entry::new("autosave.graph.ron", "autosave.origin"),
            scene: Entry::new("autosave.scene.ron", "autosave.scene-origin"),
        }
    }

    /// The platform's data folder for Steergraph.
    pub fn default_directory() -> Option<PathBuf> {
        directories::ProjectDirs::from("org", "Steergraph", "Steergraph")
            .map(|dirs| dirs.data_dir().to_path_buf())
    }

    fn file(&self, name: &str) -> Option<PathBuf> {
        self.directory.as_ref().map(|d| d.join(name))
    }

    fn read_origin(&self, entry: &Entry) -> Option<PathBuf> {
        self.file(entry.origin)
            .and_then(|f| std::fs::read_to_string(f).ok())
            .map(|text| text.trim().to_owned())
            .filter(|text| !text.is_empty())
            .map(PathBuf::from)
    }

    /// Unsaved work left by a previous run, if any (and readable).
    pub fn recover(&self) -> Option<Recovered> {
        let graph = self
            .file(self.graph.file)
            .and_then(|f| Graph::load(&f).ok());
        let scene = self
            .file(self.scene.file)
            .and_then(|f| Scene::load(&f).ok());
        if graph.is_none() && scene.is_none() {
            return None;
        }
        Some(Recovered {
            graph,
            original: self.read_origin(&self.graph),
            scene,
            scene_original: self.read_origin(&self.scene),
        })
    }

    /// Writes `text` (and where it came from) for `entry`, unless it is what was last written.
    fn write_entry(
        directory: Option<&Path>,
        entry: &mut Entry,
        text: String,
        original: Option<&Path>,
    ) -> Result<(), String> {
        let Some(directory) = directory else {
            return Ok(());
        };
        if text == entry.last_text {
            return Ok(());
        }
        std::fs::create_dir_all(directory)
            .map_err(|e| format!("autosave: cannot create {}: {e}", directory.display()))?;
        let original = original
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        graph_runtime::write_atomically(&directory.join(entry.origin), &original)
            .map_err(|e| format!("autosave: {e}"))?;
        graph_runtime::write_atomically(&directory.join(entry.file), &text)
            .map_err(|e| format!("autosave: {e}"))?;
        entry.last_text = text;
        Ok(())
    }

    fn clear_entry(directory: Option<&Path>, entry: &mut Entry) {
        if let Some(directory) = directory {
            for name in [entry.file, entry.origin] {
                // Absent is fine: there was nothing unsaved.
                let _ = std::fs::remove_file(directory.join(name));
            }
        }
        entry.last_text.clear();
    }

    /// Writes the document and the scene when they have unsaved changes and the interval has
    /// passed; removes the autosave of one that has none any more (it was undone back to what
    /// the file holds), so a crash never brings back a stale state. Returns an error message
    /// when writing failed.
    pub fn tick(&mut self, now: f64, document: &Document, scene: &SceneDocument) -> Option<String> {
        if !document.is_dirty() && !self.graph.last_text.is_empty() {
            self.clear();
        }
        if !scene.is_dirty() && !self.scene.last_text.is_empty() {
            self.clear_scene();
        }
        if !(document.is_dirty() || scene.is_dirty()) || now - self.last_write < AUTOSAVE_SECONDS {
            return None;
        }
        self.last_write = now;
        let graph = if document.is_dirty() {
            self.write(document).err()
        } else {
            None
        };
        let scene = if scene.is_dirty() {
            self.write_scene(scene).err()
        } else {
            None
        };
        graph.or(scene)
    }

    /// Writes the document now.
    pub fn write(&mut self, document: &Document) -> Result<(), String> {
        let text = document.to_graph().to_ron().map_err(|e| e.to_string())?;
        Self::write_entry(
            self.directory.as_deref(),
            &mut self.graph,
            text,
            document.path.as_deref(),
        )
    }

    /// Writes the preview's scene now, with its working flow fields inline.
    pub fn write_scene(&mut self, scene: &SceneDocument) -> Result<(), String> {
        let text = scene
            .with_fields_inline()
            .to_ron()
            .map_err(|e| e.to_string())?;
        Self::write_entry(
            self.directory.as_deref(),
            &mut self.scene,
            text,
            scene.path.as_deref(),
        )
    }

    /// Removes the graph's autosave (the work was saved or deliberately discarded).
    pub fn clear(&mut self) {
        Self::clear_entry(self.directory.as_deref(), &mut self.graph);
    }

    /// Removes the scene's autosave (it was saved or deliberately discarded).
    pub fn clear_scene(&mut self) {
        Self::clear_entry(self.directory.as_deref(), &mut self.scene);
    }
}
