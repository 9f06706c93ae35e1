//! The file half of [`EditorApp::apply`]: new, open, save, export, the unsaved-changes
//! question and file dialogs (scene files: `scene_files.rs`, crash recovery: `recovery.rs`).

use std::path::Path;

use graph_runtime::{Graph, Link, Node};

use super::command::{Command, Then};
use super::document::Document;
use super::effect::Effect;
use super::file_dialog::{Purpose, Request};
use super::history::Doc;
use super::{Dialog, EditorApp, Selection, export, presets};

/// The name scene groups use for a graph that was never saved.
pub const UNTITLED: &str = "untitled.graph.ron";

impl EditorApp {
    /// Does `then`, first asking about unsaved changes (graph or scene) if there are any.
    pub fn guard(&mut self, then: Then) {
        self.record_changes();
        if self.workspace.context.is_open() && then != Then::Up {
            // Every graph on the stack gets its say: go up to the top first.
            self.workspace.after_up = Some(then);
            self.go_up(self.workspace.context.parents.len());
            return;
        }
        if self.asks_about(Doc::Graph, &then) || self.asks_about(Doc::Scene, &then) {
            self.view.dialog = Some(Dialog::Unsaved(then));
        } else {
            self.perform(then);
        }
    }

    fn perform(&mut self, then: Then) {
        match then {
            Then::New => self.new_graph(),
            Then::Open(Some(path)) => self.open(&path),
            Then::Open(None) => self.ask(Purpose::OpenGraph),
            Then::Preset(index) => self.open_preset(index),
            Then::PresetScene(index) => self.open_preset_scene(index),
            Then::Scene { path, .. } => self.open_scene_with_its_graph(&path),
            Then::Replay(path) => self.open_replay(&path),
            Then::GroupGraph(graph) => self.edit_group_graph(&graph),
            Then::Up => self.up_one_level(),
            Then::Close => {
                self.allow_close = true;
                self.services.autosave.clear();
                self.services.autosave.clear_scene();
                self.effects.push(Effect::CloseWindow);
            }
        }
    }

    /// Saves whatever is unsaved, asking for names where needed, then does `then`. Stops,
    /// keeping everything, if a save fails or a file dialog is cancelled.
    pub(super) fn save_all_then(&mut self, then: Then) {
        self.view.dialog = None;
        self.record_changes();
        if self.asks_about(Doc::Graph, &then) {
            self.save(Some(then));
        } else if self.asks_about(Doc::Scene, &then) {
            self.save_scene(Some(then));
        } else {
            self.perform(then);
        }
    }

    pub(super) fn discard_then(&mut self, then: Then) {
        self.view.dialog = None;
        self.services.autosave.clear();
        if then != Then::Up {
            self.services.autosave.clear_scene();
        }
        self.perform(then);
    }

    /// Asks for a path with the file dialogs; the answer comes back as [`Command::Picked`].
    pub(super) fn ask(&mut self, purpose: Purpose) {
        let (file_name, directory) = match &purpose {
            Purpose::SaveGraph { .. } | Purpose::Export => (
                self.workspace.open_graph_name(),
                self.workspace
                    .document
                    .path
                    .as_deref()
                    .and_then(Path::parent),
            ),
            Purpose::SaveScene { .. } | Purpose::OpenScene | Purpose::OpenReplay => (
                self.workspace.scene.name(),
                self.workspace.scene.path.as_deref().and_then(Path::parent),
            ),
            Purpose::SaveField(name) => (super::field_files::field_file_name(name), None),
            Purpose::SaveReplay => {
                let (name, folder) = self.replay_file_suggested();
                (name, folder)
            }
            Purpose::SaveSubgraph => (
                "subgraph.graph.ron".to_owned(),
                self.workspace
                    .document
                    .path
                    .as_deref()
                    .and_then(Path::parent),
            ),
            Purpose::OpenGraph | Purpose::LoadField(_) | Purpose::ChooseSubgraph(_) => (
                String::new(),
                self.workspace
                    .document
                    .path
                    .as_deref()
                    .and_then(Path::parent),
            ),
        };
        let request = Request {
            purpose: purpose.clone(),
            file_name,
            directory: directory.map(Path::to_path_buf),
        };
        if let Some(path) = self.services.files.ask(request) {
            self.picked(purpose, &path);
        }
    }

    pub(super) fn picked(&mut self, purpose: Purpose, path: &Path) {
        match purpose {
            Purpose::OpenGraph => self.open(path),
            Purpose::SaveGraph { then } => {
                if self.save_to(path)
                    && let Some(then) = then
                {
                    self.push(Command::SaveAllThen(then));
                }
            }
            Purpose::Export => {
                self.export_to(path);
            }
            Purpose::OpenScene => self.push(Command::OpenScenePath(path.to_path_buf())),
            Purpose::OpenReplay => self.push(Command::OpenReplayPath(path.to_path_buf())),
            Purpose::SaveReplay => self.save_run_to(path),
            Purpose::SaveScene { then } => {
                if self.save_scene_to(path)
                    && let Some(then) = then
                {
                    self.push(Command::SaveAllThen(then));
                }
            }
            Purpose::SaveField(name) => match self.workspace.scene.save_field_as(&name, path) {
                Ok(()) => self
                    .status
                    .set(format!("Saved flow field {}", path.display())),
                Err(error) => self.error("Could not save the flow field.", &error),
            },
            Purpose::LoadField(name) => match self.workspace.scene.load_field_from(&name, path) {
                Ok(()) => self.status.set(format!("Loaded {}", path.display())),
                Err(error) => self.error("Could not load the flow field.", &error),
            },
            Purpose::SaveSubgraph => self.collapse_into(path),
            Purpose::ChooseSubgraph(node) => self.choose_subgraph(node, path),
        }
    }

    /// Shows an error message.
    pub(super) fn error(&mut self, what: &str, why: &str) {
        self.view.dialog = Some(Dialog::Error(format!("{what}\n\n{why}")));
    }

    /// Saves where the graph is saved, else asks for a name; then continues with `then`.
    pub(super) fn save(&mut self, then: Option<Then>) {
        match self.workspace.document.path.clone() {
            Some(path) => {
                if self.save_to(&path)
                    && let Some(then) = then
                {
                    self.push(Command::SaveAllThen(then));
                }
            }
            None => self.ask(Purpose::SaveGraph { then }),
        }
    }

    /// Saves the graph at `path` atomically; the preview keeps running it under the new name.
    /// A failure keeps the file on disk as it was and says why.
    pub fn save_to(&mut self, path: &Path) -> bool {
        self.record_changes();
        if let Err(error) = self.workspace.document.to_graph().save(path) {
            self.error(
                "Could not save the graph; the file on disk is unchanged.",
                &error.to_string(),
            );
            return false;
        }
        self.workspace.document.mark_saved(path.to_path_buf());
        self.services.disk.saved(path);
        self.services.disk.answered(Doc::Graph);
        self.workspace.preset_name = None;
        if !self.workspace.context.is_open() {
            // A subgraph open in context is saved under its own name; the preview runs the
            // top graph still.
            let name = self.workspace.open_graph_name();
            self.preview.rebind(&mut self.workspace.scene, &name);
        }
        self.settings.remember(path);
        self.services.autosave.clear();
        self.status.set(format!("Saved {}", path.display()));
        true
    }

    /// Exports the graph for a game to `path`, with its subgraphs, flow fields and (when the
    /// preview's scene runs it) the scene, so the folder runs as it is.
    pub fn export_to(&mut self, path: &Path) -> bool {
        self.record_changes();
        let graph = self.workspace.document.to_graph();
        let bound = self.preview.bound.clone();
        let runs_it = !self.workspace.context.is_open()
            && self
                .workspace
                .scene
                .scene
                .groups
                .iter()
                .any(|g| g.graph == bound);
        let assets = self.with_open_graph(|app, open| app.workspace.scene.assets(open));
        let scene = if runs_it {
            match assets {
                Ok(assets) => Some((assets, bound.as_str())),
                Err(problems) => {
                    self.error(
                        "Could not export for the game: the scene does not load.",
                        &problems.join("\n"),
                    );
                    return false;
                }
            }
        } else {
            None
        };
        let keep = [
            self.workspace.document.path.clone(),
            self.workspace.scene.path.clone(),
        ]
        .into_iter()
        .flatten()
        .collect();
        let export = export::Export {
            graph: &graph,
            subgraphs: self.workspace.document.subgraphs(),
            fields: &self.workspace.scene.fields,
            scene,
            keep,
        };
        match export::export_for_game(&export, path) {
            Ok(exported) => {
                let count = super::plural(exported.files.len(), "file");
                let folder = path.parent().unwrap_or(Path::new("")).display();
                let message = match &exported.scene {
                    Some(scene) => format!(
                        "Exported {count} to {folder}: run it with steergraph simulate {}",
                        scene.display()
                    ),
                    None => format!(
                        "Exported {count} to {folder} (no scene: no group of the preview's scene runs this graph)"
                    ),
                };
                self.status.set(message);
                true
            }
            Err(error) => {
                self.error(
                    "Could not export for the game; nothing was written.",
                    &error,
                );
                false
            }
        }
    }

    fn replace_document(&mut self, document: Document, preset_name: Option<String>) {
        self.take_graph(document, preset_name);
        self.workspace.timeline = super::history::Timeline::default();
        let name = self.workspace.open_graph_name();
        let scene = super::preview::scene_for_graph(&name, self.workspace.document.path.as_deref());
        self.set_scene(scene, &name);
        self.services.autosave.clear_scene();
    }

    /// Makes `document` the open graph, keeping the preview's scene as it is (the caller
    /// binds or replaces it).
    pub(super) fn take_graph(&mut self, document: Document, preset_name: Option<String>) {
        self.workspace.document = document;
        self.workspace.preset_name = preset_name;
        self.workspace.selection = Selection::default();
        self.workspace.timeline.forget(Doc::Graph);
        self.view.canvas.new_document();
        self.services.autosave.clear();
    }

    /// Opens the graph at `path`; a problem opens an error dialog and keeps the current graph.
    pub fn open(&mut self, path: &Path) {
        match Graph::load(path) {
            Ok(graph) => {
                self.replace_document(Document::new(&graph, Some(path.to_path_buf())), None);
                self.settings.remember(path);
                self.status.set(format!("Opened {}", path.display()));
            }
            Err(error) => self.error("Could not open the graph.", &error.to_string()),
        }
    }

    /// Starts an empty graph (one Output node).
    pub fn new_graph(&mut self) {
        let mut graph = Graph::default();
        graph.add(Node::Output { input: Link::NONE });
        self.replace_document(Document::new(&graph, None), None);
        self.status.set("New graph");
    }

    /// Opens embedded preset `index`.
    pub fn open_preset(&mut self, index: usize) {
        let Some(preset) = presets::GRAPHS.get(index) else {
            return;
        };
        match Graph::from_ron(preset.text, preset.file) {
            Ok(graph) => {
                self.replace_document(Document::new(&graph, None), Some(preset.file.to_owned()));
                self.status.set(format!("Opened preset {}", preset.name));
            }
            Err(error) => self.error("Could not open the preset.", &error.to_string()),
        }
    }
}
