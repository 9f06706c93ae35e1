//! The autosave of unsaved work: the graph and the preview's scene written to the app's data
//! folder every few seconds, with where each came from (a file, a preset, or new), and offered
//! back after a crash as they were: the graph under its file name, the scene it ran in, the
//! scene's unsaved edits.

use std::path::{Path, PathBuf};

use graph_runtime::{Graph, Scene};
use serde::{Deserialize, Serialize};

use super::document::Document;
use super::preview::SceneDocument;

/// Seconds between autosaves of unsaved work.
pub const AUTOSAVE_SECONDS: f64 = 5.0;

/// Where an open document came from: what recovery opens again when its text was not
/// autosaved (it had no unsaved changes), and the name it goes by when it was.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// A file on disk.
    File(PathBuf),
    /// An embedded preset, by its file name (`boids.graph.ron`).
    Preset(String),
    /// Never saved: a new graph, or the small scene the preview makes for a graph.
    #[default]
    New,
}

/// What the editor had open when it autosaved.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// The open graph (the top graph when a subgraph is open in context).
    pub graph: Origin,
    /// The preview's scene.
    pub scene: Origin,
}

/// Unsaved work found at start-up: a graph, a scene, or both, and what was open.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered {
    /// The graph as last autosaved, if it had unsaved changes.
    pub graph: Option<Graph>,
    /// The preview's scene as last autosaved (its flow fields inline), if it had unsaved
    /// changes.
    pub scene: Option<Scene>,
    /// Where the graph and the scene came from.
    pub session: Session,
}

impl Recovered {
    /// The graph's file, if it had been saved before.
    pub fn graph_file(&self) -> Option<&Path> {
        match &self.session.graph {
            Origin::File(path) => Some(path),
            _ => None,
        }
    }
}

/// One autosaved document: its file in the data folder and the text last written (to skip
/// rewriting unchanged work).
#[derive(Debug)]
struct Entry {
    file: &'static str,
    last_text: String,
}

impl Entry {
    const fn new(file: &'static str) -> Self {
        Self {
            file,
            last_text: String::new(),
        }
    }
}

/// The file naming what was open (`Session`, RON).
const SESSION_FILE: &str = "autosave.session.ron";
/// Where an autosaved graph or scene came from, as versions before the session file wrote it
/// (one path, or nothing); read when there is no session file.
const LEGACY_ORIGINS: [&str; 2] = ["autosave.origin", "autosave.scene-origin"];

/// Writes unsaved work (the graph, and the preview's scene) to the app's data folder every
/// few seconds, with the session that says where they came from; removes it when the work is
/// saved or discarded, or the editor closes normally.
#[derive(Debug)]
pub struct Autosave {
    directory: Option<PathBuf>,
    last_write: f64,
    graph: Entry,
    scene: Entry,
    session: Entry,
}

impl Autosave {
    /// Autosaves into `directory` (`None`: autosave off).
    pub fn new(directory: Option<PathBuf>) -> Self {
        Self {
            directory,
            last_write: f64::NEG_INFINITY,
            graph: Entry::new("autosave.graph.ron"),
            scene: Entry::new("autosave.scene.ron"),
            session: Entry::new(SESSION_FILE),
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

    /// What was open, from the session file, else from the older origin files.
    fn read_session(&self) -> Session {
        let read = |name: &str| {
            self.file(name)
                .and_then(|f| std::fs::read_to_string(f).ok())
        };
        if let Some(session) = read(SESSION_FILE).and_then(|text| ron::from_str(&text).ok()) {
            return session;
        }
        let legacy = |name: &str| {
            read(name)
                .map(|text| text.trim().to_owned())
                .filter(|text| !text.is_empty())
                .map_or(Origin::New, |text| Origin::File(PathBuf::from(text)))
        };
        Session {
            graph: legacy(LEGACY_ORIGINS[0]),
            scene: legacy(LEGACY_ORIGINS[1]),
        }
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
            scene,
            session: self.read_session(),
        })
    }

    /// Writes `text` for `entry`, unless it is what was last written.
    fn write_entry(
        directory: Option<&Path>,
        entry: &mut Entry,
        text: String,
    ) -> Result<(), String> {
        let Some(directory) = directory else {
            return Ok(());
        };
        if text == entry.last_text {
            return Ok(());
        }
        std::fs::create_dir_all(directory)
            .map_err(|e| format!("autosave: cannot create {}: {e}", directory.display()))?;
        graph_runtime::write_atomically(&directory.join(entry.file), &text)
            .map_err(|e| format!("autosave: {e}"))?;
        entry.last_text = text;
        Ok(())
    }

    fn clear_entry(directory: Option<&Path>, entry: &mut Entry) {
        if let Some(directory) = directory {
            // Absent is fine: there was nothing unsaved.
            let _ = std::fs::remove_file(directory.join(entry.file));
        }
        entry.last_text.clear();
    }

    /// Removes the session file once neither document is autosaved.
    fn clear_session_if_done(&mut self) {
        if self.graph.last_text.is_empty() && self.scene.last_text.is_empty() {
            Self::clear_entry(self.directory.as_deref(), &mut self.session);
            if let Some(directory) = &self.directory {
                for name in LEGACY_ORIGINS {
                    let _ = std::fs::remove_file(directory.join(name));
                }
            }
        }
    }

    /// Writes the document and the scene when they have unsaved changes and the interval has
    /// passed, with `session`; removes the autosave of one that has none any more (it was
    /// undone back to what the file holds), so a crash never brings back a stale state.
    /// Returns an error message when writing failed.
    pub fn tick(
        &mut self,
        now: f64,
        document: &Document,
        scene: &SceneDocument,
        session: &Session,
    ) -> Option<String> {
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
        self.write_all(document, scene, session).err()
    }

    /// Writes now what has unsaved changes, with `session`.
    pub fn write_all(
        &mut self,
        document: &Document,
        scene: &SceneDocument,
        session: &Session,
    ) -> Result<(), String> {
        let graph = if document.is_dirty() {
            self.write(document)
        } else {
            Ok(())
        };
        let scene = if scene.is_dirty() {
            self.write_scene(scene)
        } else {
            Ok(())
        };
        let text = ron::ser::to_string_pretty(session, ron::ser::PrettyConfig::default())
            .map_err(|e| format!("autosave: {e}"))?;
        let session = Self::write_entry(self.directory.as_deref(), &mut self.session, text);
        graph.and(scene).and(session)
    }

    /// Writes the document now.
    fn write(&mut self, document: &Document) -> Result<(), String> {
        let text = document.to_graph().to_ron().map_err(|e| e.to_string())?;
        Self::write_entry(self.directory.as_deref(), &mut self.graph, text)
    }

    /// Writes the preview's scene now, with its working flow fields inline.
    fn write_scene(&mut self, scene: &SceneDocument) -> Result<(), String> {
        let text = scene
            .with_fields_inline()
            .to_ron()
            .map_err(|e| e.to_string())?;
        Self::write_entry(self.directory.as_deref(), &mut self.scene, text)
    }

    /// Removes the graph's autosave (the work was saved or deliberately discarded).
    pub fn clear(&mut self) {
        Self::clear_entry(self.directory.as_deref(), &mut self.graph);
        self.clear_session_if_done();
    }

    /// Removes the scene's autosave (it was saved or deliberately discarded).
    pub fn clear_scene(&mut self) {
        Self::clear_entry(self.directory.as_deref(), &mut self.scene);
        self.clear_session_if_done();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_older_autosave_names_its_files_with_one_path_each() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("autosave.origin"), "/levels/a.graph.ron\n").expect("w");
        let autosave = Autosave::new(Some(dir.path().to_path_buf()));
        assert_eq!(
            autosave.read_session(),
            Session {
                graph: Origin::File(PathBuf::from("/levels/a.graph.ron")),
                scene: Origin::New,
            }
        );
    }

    #[test]
    fn the_session_round_trips_through_its_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let session = Session {
            graph: Origin::Preset("boids.graph.ron".to_owned()),
            scene: Origin::File(PathBuf::from("/levels/chasm.scene.ron")),
        };
        let mut autosave = Autosave::new(Some(dir.path().to_path_buf()));
        let text = ron::ser::to_string_pretty(&session, ron::ser::PrettyConfig::default())
            .expect("serializable");
        Autosave::write_entry(Some(dir.path()), &mut autosave.session, text).expect("written");
        assert_eq!(autosave.read_session(), session);
        // Neither document autosaved: clearing one removes the session too.
        autosave.clear();
        assert!(!dir.path().join(SESSION_FILE).exists());
    }
}
