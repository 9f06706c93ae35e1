//! Scene files from the editor: a preset's scene, a scene opened (with or without its graph),
//! and saving the preview's scene with the graphs and fields it names.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use graph_runtime::{Graph, Scene};

use super::command::{Command, Then};
use super::document::Document;
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
        let bound = self.workspace.open_graph_name();
        self.set_scene(
            super::preview::SceneDocument::from_preset(scene, preset.file),
            &bound,
        );
        self.workspace.timeline.forget(Doc::Scene);
        self.services.autosave.clear_scene();
        self.status
            .set(format!("Opened preset scene {}", preset.name));
    }

    /// Opens the scene at `path` in the preview, keeping the open graph; groups running the
    /// open graph's file name run the open graph.
    pub fn open_scene(&mut self, path: &Path) {
        match Scene::load(path) {
            Ok(scene) => {
                let bound = self.workspace.open_graph_name();
                let runs_open = scene.groups.iter().any(|g| g.graph == bound);
                self.show_scene(scene, path);
                let note = if runs_open {
                    String::new()
                } else {
                    format!(" (no group runs the open graph {bound})")
                };
                self.status
                    .set(format!("Opened scene {}{note}", path.display()));
            }
            Err(error) => self.error("Could not open the scene.", &error.to_string()),
        }
    }

    /// Makes `scene` the workspace's scene, in a new preview whose groups running `bound`
    /// run the open graph.
    pub(super) fn set_scene(&mut self, scene: super::preview::SceneDocument, bound: &str) {
        self.preview = new_preview(&scene, bound, &self.settings);
        self.workspace.scene = scene;
    }

    /// The scene in the preview, its groups running the open graph's name running the open
    /// graph; remembered in the recent scenes.
    pub(super) fn show_scene(&mut self, scene: Scene, path: &Path) {
        let bound = self.workspace.open_graph_name();
        self.set_scene(super::preview::scene_at(scene, path.to_path_buf()), &bound);
        self.workspace.timeline.forget(Doc::Scene);
        self.services.autosave.clear_scene();
        self.settings.remember_scene(path);
    }

    /// Opens the scene at `path` with the graph its first group runs as the open graph
    /// (unless that file is open already with unsaved edits, which are kept), as File > Open scene, Open recent and
    /// `steergraph --scene FILE` do. When its groups run several graphs, the status line
    /// names the others; each group's Edit button in the Scene panel opens its graph.
    pub fn open_scene_with_its_graph(&mut self, path: &Path) {
        let scene = match Scene::load(path) {
            Ok(scene) => scene,
            Err(error) => return self.error("Could not open the scene.", &error.to_string()),
        };
        let graphs = graphs_run(&scene);
        let mut note = String::new();
        if let Some(first) = graphs.first().filter(|name| !name.trim().is_empty()) {
            let file = beside(path, first);
            if !self.keeps_open_graph(&file) {
                match Graph::load(&file) {
                    Ok(graph) => {
                        self.take_graph(Document::new(&graph, Some(file.clone())), None);
                        self.settings.remember(&file);
                    }
                    Err(error) => {
                        let _ = write!(
                            note,
                            "; its graph did not open, the editor keeps {} ({error})",
                            self.workspace.open_graph_name()
                        );
                    }
                }
            }
        }
        self.show_scene(scene, path);
        let mut message = format!("Opened scene {}", path.display());
        match graphs.first() {
            Some(first) if first.trim().is_empty() => {
                let _ = write!(
                    message,
                    "; its first group names no graph file, the editor keeps {}",
                    self.workspace.open_graph_name()
                );
            }
            Some(first) if note.is_empty() => {
                let _ = write!(message, " with its graph {first}");
            }
            _ => {}
        }
        message.push_str(&note);
        if graphs.len() > 1 {
            let _ = write!(
                message,
                "; it also runs {} (Scene panel: the group's Edit button)",
                graphs[1..].join(", ")
            );
        }
        self.status.set(message);
    }

    /// Whether opening the scene at `path` would replace the open graph: its first group runs
    /// another file. An unreadable scene replaces nothing (opening it says why).
    pub(super) fn scene_replaces_graph(&self, path: &Path) -> bool {
        Scene::load(path).ok().is_some_and(|scene| {
            graphs_run(&scene)
                .first()
                .is_some_and(|first| !self.keeps_open_graph(&beside(path, first)))
        })
    }

    /// Whether opening a scene that runs `file` keeps the open graph as it is: it is that file,
    /// and either has edits not yet saved (they are kept) or matches the file on disk. A clean
    /// graph whose file changed on disk since it was opened is read again.
    fn keeps_open_graph(&self, file: &Path) -> bool {
        self.workspace.is_open_graph(file)
            && (self.workspace.document.is_dirty()
                || Graph::load(file)
                    .map_or(true, |graph| graph == self.workspace.document.to_graph()))
    }

    /// Makes the graph `name` (a file beside the preview's scene, or for a preset scene, the
    /// preset graph of that name) the open graph, keeping the scene running.
    pub(super) fn edit_group_graph(&mut self, name: &str) {
        let loaded = match &self.workspace.scene.path {
            Some(scene) => {
                let file = beside(scene, name);
                Graph::load(&file)
                    .map(|graph| (Document::new(&graph, Some(file.clone())), None))
                    .map_err(|error| error.to_string())
            }
            None => presets::GRAPHS
                .iter()
                .find(|p| p.file == name)
                .ok_or_else(|| format!("{name} is not beside the scene (save the scene first)"))
                .and_then(|preset| {
                    Graph::from_ron(preset.text, preset.file)
                        .map(|graph| (Document::new(&graph, None), Some(name.to_owned())))
                        .map_err(|error| error.to_string())
                }),
        };
        match loaded {
            Ok((document, preset)) => {
                if let Some(path) = &document.path {
                    self.settings.remember(path);
                }
                self.take_graph(document, preset);
                self.preview.bind(name);
                self.status.set(format!(
                    "Editing {name}, which the scene's groups running it now run as you edit"
                ));
            }
            Err(error) => self.error(&format!("Could not open the graph {name}."), &error),
        }
    }

    /// Saves the scene where it is saved, else asks for a name; then continues with `then`.
    pub(super) fn save_scene(&mut self, then: Option<Then>) {
        match self.workspace.scene.path.clone() {
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
        let bundle = self.with_open_graph(|app, open| app.workspace.scene.bundle(path, open));
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
        self.workspace
            .scene
            .fields_saved_as_files(&bundle.field_files);
        self.preview.host.fields_saved_as_files(&bundle.field_files);
        self.workspace.scene.mark_saved(path.to_path_buf());
        self.settings.remember_scene(path);
        for (file, _) in &bundle.files {
            self.services.disk.saved(file);
        }
        self.services.disk.answered(Doc::Scene);
        self.services.autosave.clear_scene();
        let mut message = format!("Saved scene {}", path.display());
        if !bundle.field_files.is_empty() {
            let files: Vec<&str> = bundle.field_files.values().map(String::as_str).collect();
            let _ = write!(
                message,
                " with its flow fields beside it ({})",
                files.join(", ")
            );
        }
        if let Some(graph_path) = bundle.open_graph {
            if self.workspace.document.path.is_none() {
                self.workspace.document.mark_saved(graph_path.clone());
                self.workspace.preset_name = None;
                self.services.autosave.clear();
            }
            let _ = write!(message, " and its graph {}", graph_path.display());
        } else if self.workspace.document.is_dirty() {
            let _ = write!(
                message,
                "; {} has unsaved changes the scene file does not see yet",
                self.workspace.document.title()
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

/// Whether `path` names a scene file (`….scene.ron`): what the editor opens in the preview
/// when it is given on the command line or dropped on the window.
pub fn is_scene_path(path: &Path) -> bool {
    path.to_string_lossy().ends_with(".scene.ron")
}

/// The graph files a scene's groups run, each once, in group order.
pub(super) fn graphs_run(scene: &Scene) -> Vec<String> {
    let mut graphs: Vec<String> = Vec::new();
    for group in &scene.groups {
        if !graphs.contains(&group.graph) {
            graphs.push(group.graph.clone());
        }
    }
    graphs
}

/// `name` (a graph file a scene names) beside the scene at `scene`.
pub(super) fn beside(scene: &Path, name: &str) -> PathBuf {
    scene.parent().unwrap_or(Path::new("")).join(name)
}

/// A preview of `scene` whose groups running `bound` run the open graph, with what the
/// settings keep for every preview (the recording's memory budget, once set).
pub(super) fn new_preview(
    scene: &super::preview::SceneDocument,
    bound: &str,
    settings: &super::Settings,
) -> Preview {
    let mut preview = Preview::new(scene, bound);
    if let Some(mib) = settings.recording_budget_mib {
        preview.host.set_recording_budget(mib);
    }
    preview
}
