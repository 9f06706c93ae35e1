//! Scene files from the editor: a preset's scene, a scene opened (with or without its graph),
//! and saving the preview's scene with the graphs and fields it names.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use graph_runtime::Scene;

use super::command::{Command, Then};
use super::file_dialog::Purpose;
use super::history::Doc;
use super::preview::Preview;
use super::{EditorApp, presets};

impl EditorApp {
    /// Opens embedded preset scene `index` in the preview with the preset graph its first
    /// group runs as the open graph.
    pub fn open_preset_scene(&mut self, index: usize) {
        let Some(preset) = presets::SCENES.get(index) else {
            return;
        };
        let scene = match Scene::from_ron(preset.text, preset.file) {
            Ok(scene) => scene,
            Err(error) => {
                return self.error("Could not open the preset scene.", &error.to_string());
            }
        };
        if let Some(graph) = scene
            .groups
            .first()
            .and_then(|g| presets::GRAPHS.iter().position(|p| p.file == g.graph))
        {
            self.open_preset(graph);
        }
        let bound = self.open_graph_name();
        let document = super::preview::SceneDocument::new(scene, None, preset.file.to_owned());
        self.preview = Preview::new(document, &bound);
        self.timeline.forget(Doc::Scene);
        self.autosave.clear_scene();
        self.status
            .set(format!("Opened preset scene {}", preset.name));
    }

    /// Opens the scene at `path` in the preview; groups running the open graph's file name
    /// run the open graph.
    pub fn open_scene(&mut self, path: &Path) {
        match Scene::load(path) {
            Ok(scene) => {
                let bound = self.open_graph_name();
                let runs_open = scene.groups.iter().any(|g| g.graph == bound);
                self.preview = Preview::open(scene, path.to_path_buf(), &bound);
                self.timeline.forget(Doc::Scene);
                self.autosave.clear_scene();
                let note = if runs_open {
                    String::new()
                } else {
                    format!(" (no group runs the open graph {bound})")
                };
                self.settings.remember_scene(path);
                self.status
                    .set(format!("Opened scene {}{note}", path.display()));
            }
            Err(error) => self.error("Could not open the scene.", &error.to_string()),
        }
    }

    /// Opens the scene at `path` together with the graph its first group runs, which becomes
    /// the open graph (`steergraph --scene FILE`).
    pub fn open_scene_with_its_graph(&mut self, path: &Path) {
        let graph_file = Scene::load(path).ok().and_then(|scene| {
            let name = scene.groups.first()?.graph.clone();
            Some(path.parent().unwrap_or(Path::new("")).join(name))
        });
        if let Some(graph_file) = graph_file.filter(|f| f.is_file()) {
            self.open(&graph_file);
        }
        self.open_scene(path);
    }

    /// Saves the scene where it is saved, else asks for a name; then continues with `then`.
    pub(super) fn save_scene(&mut self, then: Option<Then>) {
        match self.preview.document.path.clone() {
            Some(path) => {
                if self.save_scene_to(&path)
                    && let Some(then) = then
                {
                    self.push(Command::SaveAllThen(then));
                }
            }
            None => self.ask(Purpose::SaveScene { then }),
        }
    }

    /// Saves the scene at `path` with every file it names (flow fields, and graphs not yet
    /// beside it), so it runs outside the editor; refuses, writing nothing, if a graph it
    /// names cannot be found.
    pub fn save_scene_to(&mut self, path: &Path) -> bool {
        self.record_changes();
        let bundle = self.with_open_graph(|app, open| app.preview.document.bundle(path, open));
        let bundle = match bundle {
            Ok(bundle) => bundle,
            Err(error) => {
                self.error("Could not save the scene; nothing was written.", &error);
                return false;
            }
        };
        if let Err(error) = write_bundle(&bundle.files) {
            self.error("Could not save the scene.", &error);
            return false;
        }
        self.preview.document.mark_saved(path.to_path_buf());
        self.settings.remember_scene(path);
        for (file, _) in &bundle.files {
            self.disk.saved(file);
        }
        self.disk.answered(Doc::Scene);
        self.autosave.clear_scene();
        let mut message = format!("Saved scene {}", path.display());
        if let Some(graph_path) = bundle.open_graph {
            if self.document.path.is_none() {
                self.document.mark_saved(graph_path.clone());
                self.preset_name = None;
                self.autosave.clear();
            }
            let _ = write!(message, " and its graph {}", graph_path.display());
        } else if self.document.is_dirty() {
            let _ = write!(
                message,
                "; {} has unsaved changes the scene file does not see yet",
                self.document.title()
            );
        }
        self.status.set(message);
        true
    }
}

/// Writes every file of a scene save: all or none are replaced (the scene last).
fn write_bundle(files: &[(PathBuf, String)]) -> Result<(), String> {
    graph_runtime::write_all_atomically(files).map_err(|e| e.to_string())
}
