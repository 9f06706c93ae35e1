//! The desktop editor: a node graph (egui-snarl) beside a side panel, a problems list and
//! room for the live preview. `EditorApp` lays out panels and hands off to its parts; the
//! graph model, validation and file format are graph-runtime's.

mod clipboard;
mod document;
mod export;
mod fields;
mod files;
mod inputs;
mod panels;
mod presets;
mod preview;
mod search;
mod viewer;

use std::path::{Path, PathBuf};

use egui::{Event, Id, Key, Modifiers, Pos2, Ui};
use egui_snarl::NodeId as SnarlId;
use egui_snarl::ui::{SnarlStyle, SnarlWidget};
use graph_runtime::{Comment, Graph, Link, Node, NodeId};

pub use document::{Document, EditorNode};
pub use export::{export_for_game, field_file_name};
pub use files::{Autosave, Recovered, Settings};
pub use inputs::InputEdit;
pub use presets::{GRAPHS as PRESET_GRAPHS, Preset, SCENES as PRESET_SCENES};
pub use search::NodeSearch;

use fields::Names;
use panels::PanelAction;
pub use preview::{Item, OpenGraph, Preview, Tool};
use search::Fit;
use viewer::{GraphViewer, NodeAction};

/// Id of the node widget, so its selection can be read.
const GRAPH_WIDGET: &str = "steergraph-graph";
/// Offset of pasted and duplicated nodes from the originals (editor units).
const PASTE_OFFSET: egui::Vec2 = egui::vec2(40.0, 40.0);

/// Opens the editor window, on `file` or the default preset, and `scene` in the preview.
///
/// With `STEERGRAPH_FRAME_STATS=1` in the environment, a line of frame statistics goes to
/// stderr every few seconds (for measuring the preview's performance).
pub fn run(file: Option<PathBuf>, scene: Option<PathBuf>) -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Steergraph")
            .with_inner_size([1560.0, 960.0])
            .with_min_inner_size([800.0, 500.0])
            .with_drag_and_drop(true),
        renderer: eframe::Renderer::Glow,
        glow_options: eframe::egui_glow::GlowConfiguration {
            vsync: std::env::var_os("STEERGRAPH_NO_VSYNC").is_none(),
            ..Default::default()
        },
        ..Default::default()
    };
    eframe::run_native(
        "Steergraph",
        options,
        Box::new(move |cc| {
            let settings = cc
                .storage
                .and_then(|storage| eframe::get_value::<Settings>(storage, files::SETTINGS_KEY))
                .unwrap_or_default();
            let mut app = EditorApp::new(settings, Autosave::default_directory(), file);
            if let Some(scene) = scene {
                app.open_scene(&scene);
            }
            app.frame_stats =
                std::env::var_os("STEERGRAPH_FRAME_STATS").map(|_| FrameStats::default());
            Ok(Box::new(app))
        }),
    )
}

/// What to do once the user has dealt with unsaved changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Then {
    /// Start an empty graph.
    New,
    /// Open a file (`None`: ask with a dialog).
    Open(Option<PathBuf>),
    /// Open an embedded preset.
    Preset(usize),
    /// Close the window.
    Close,
}

/// A dialog that blocks the editor until answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    /// There are unsaved changes; then do this.
    Unsaved(Then),
    /// Unsaved work from a previous run was found.
    Recover(Box<Recovered>),
    /// Something went wrong; the message says what and where.
    Error(String),
}

/// The editor application.
pub struct EditorApp {
    /// The open graph.
    pub document: Document,
    /// Persisted settings (recent files).
    pub settings: Settings,
    autosave: Autosave,
    /// The node shown in the side panel.
    pub inspected: Option<NodeId>,
    /// The last status message (a refused connection, a save).
    pub status: Option<String>,
    /// The open dialog, if any.
    pub dialog: Option<Dialog>,
    /// The search popup (Shift+A or Space), at this screen position.
    pub search_popup: Option<Pos2>,
    popup_search: NodeSearch,
    menu_search: NodeSearch,
    frame_request: Option<Vec<SnarlId>>,
    last_transform: egui::emath::TSTransform,
    last_selection: Vec<SnarlId>,
    new_parameter: String,
    allow_close: bool,
    title: String,
    preset_name: Option<String>,
    /// Names the preset scenes define, offered by the pickers.
    scene_names: Names,
    /// The live preview beside the graph.
    pub preview: Preview,
    history: Vec<Edited>,
    redo_history: Vec<Edited>,
    preview_rect: Option<egui::Rect>,
    /// Milliseconds the last frame took (simulation, layout and painting commands).
    pub frame_ms: f32,
    frame_stats: Option<FrameStats>,
}

/// Frame timing gathered for `STEERGRAPH_FRAME_STATS`.
#[derive(Debug, Default)]
struct FrameStats {
    started: Option<f64>,
    frames: u32,
    cpu_ms: Vec<f32>,
    tick_ms: Vec<f32>,
}

impl FrameStats {
    /// Seconds per report.
    const PERIOD: f64 = 5.0;

    fn record(&mut self, now: f64, cpu_ms: f32, tick_ms: f32, agents: usize) {
        let started = *self.started.get_or_insert(now);
        self.frames += 1;
        self.cpu_ms.push(cpu_ms);
        self.tick_ms.push(tick_ms);
        if now - started >= Self::PERIOD {
            let fps = f64::from(self.frames) / (now - started);
            self.cpu_ms.sort_by(f32::total_cmp);
            let median = self
                .cpu_ms
                .get(self.cpu_ms.len() / 2)
                .copied()
                .unwrap_or(0.0);
            let p95 = self
                .cpu_ms
                .get(self.cpu_ms.len() * 95 / 100)
                .copied()
                .unwrap_or(0.0);
            let tick = self.tick_ms.iter().sum::<f32>() / self.tick_ms.len().max(1) as f32;
            eprintln!(
                "frame-stats: {agents} agents, {fps:.1} frames/s, editor CPU per frame median {median:.2} ms, p95 {p95:.2} ms, tick {tick:.2} ms"
            );
            *self = Self::default();
        }
    }
}

/// Which history an undo step belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edited {
    Graph,
    Scene,
}

impl EditorApp {
    /// An editor on `file`, or on the default preset, autosaving into `autosave_directory`.
    pub fn new(
        settings: Settings,
        autosave_directory: Option<PathBuf>,
        file: Option<PathBuf>,
    ) -> Self {
        let preset = presets::default_graph();
        let graph = Graph::from_ron(preset.text, preset.file).unwrap_or_default();
        let autosave = Autosave::new(autosave_directory);
        let recovered = autosave.recover();
        let mut app = Self {
            document: Document::new(&graph, None),
            settings,
            autosave,
            inspected: None,
            status: None,
            dialog: recovered.map(|r| Dialog::Recover(Box::new(r))),
            search_popup: None,
            popup_search: NodeSearch::default(),
            menu_search: NodeSearch::default(),
            frame_request: Some(Vec::new()),
            last_transform: egui::emath::TSTransform::IDENTITY,
            last_selection: Vec::new(),
            new_parameter: String::new(),
            allow_close: false,
            title: String::new(),
            preset_name: Some(preset.file.to_owned()),
            preview: Preview::for_graph(preset.file, None),
            history: Vec::new(),
            redo_history: Vec::new(),
            preview_rect: None,
            frame_ms: 0.0,
            frame_stats: None,
            scene_names: Names::from_scenes(
                presets::SCENES
                    .iter()
                    .filter_map(|p| graph_runtime::Scene::from_ron(p.text, p.file).ok())
                    .collect::<Vec<_>>()
                    .iter(),
            ),
        };
        if let Some(file) = file {
            app.open(&file);
        }
        app
    }

    /// The window title: the file name, with a dot when there are unsaved changes.
    pub fn window_title(&self) -> String {
        let name = match (&self.document.path, &self.preset_name) {
            (None, Some(preset)) => format!("{preset} (preset)"),
            _ => self.document.title(),
        };
        let dirty = if self.document.is_dirty() { " •" } else { "" };
        format!("{name}{dirty} — Steergraph")
    }

    fn replace_document(&mut self, document: Document, preset_name: Option<String>) {
        self.document = document;
        self.preset_name = preset_name;
        self.history.clear();
        self.redo_history.clear();
        let name = self.open_graph_name();
        self.preview = Preview::for_graph(&name, self.document.path.as_deref());
        self.inspected = None;
        self.frame_request = Some(Vec::new());
        self.autosave.clear();
    }

    /// The preview viewport's screen rectangle at the last frame.
    pub fn preview_rect(&self) -> Option<egui::Rect> {
        self.preview_rect
    }

    /// The file name scene groups use for the open graph.
    pub fn open_graph_name(&self) -> String {
        match (&self.document.path, &self.preset_name) {
            (Some(path), _) => path.file_name().map_or_else(
                || "untitled.graph.ron".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            ),
            (None, Some(preset)) => preset.clone(),
            (None, None) => "untitled.graph.ron".to_owned(),
        }
    }

    /// Opens the scene at `path` in the preview.
    pub fn open_scene(&mut self, path: &Path) {
        match graph_runtime::Scene::load(path) {
            Ok(scene) => {
                let label = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                self.preview = Preview::new(scene, Some(path.to_path_buf()), label);
                self.autosave.clear_scene();
                self.history.retain(|e| *e == Edited::Graph);
                self.status = Some(format!("Opened scene {}", path.display()));
            }
            Err(error) => {
                self.dialog = Some(Dialog::Error(format!(
                    "Could not open the scene.\n\n{error}"
                )));
            }
        }
    }

    /// Saves the preview's scene at `path` atomically.
    pub fn save_scene_to(&mut self, path: &Path) -> bool {
        if let Err(error) = self.preview.write_fields(path) {
            self.dialog = Some(Dialog::Error(format!(
                "Could not save a flow field of the scene.\n\n{error}"
            )));
            return false;
        }
        self.preview.commit();
        match self.preview.scene.save(path) {
            Ok(()) => {
                self.preview.mark_saved(path.to_path_buf());
                self.autosave.clear_scene();
                self.status = Some(format!("Saved scene {}", path.display()));
                true
            }
            Err(error) => {
                self.dialog = Some(Dialog::Error(format!(
                    "Could not save the scene; the file on disk is unchanged.\n\n{error}"
                )));
                false
            }
        }
    }

    fn save_scene(&mut self) -> bool {
        match self.preview.scene_path.clone() {
            Some(path) => self.save_scene_to(&path),
            None => {
                let picked = rfd::FileDialog::new()
                    .add_filter("Steergraph scene", &["ron"])
                    .set_file_name(self.preview.scene_label.clone())
                    .save_file();
                picked.is_some_and(|path| self.save_scene_to(&path))
            }
        }
    }

    /// Restores autosaved work: the graph (its scene paired as usual), then the scene if it
    /// was autosaved too. Both stay marked unsaved.
    fn recover(&mut self, recovered: &Recovered) {
        if let Some(graph) = &recovered.graph {
            let mut document = Document::new(graph, recovered.original.clone());
            document.mark_unsaved();
            self.document = document;
            self.preset_name = None;
            self.frame_request = Some(Vec::new());
            let name = self.open_graph_name();
            self.preview = Preview::for_graph(&name, self.document.path.as_deref());
        }
        if let Some(scene) = &recovered.scene {
            let label = recovered
                .scene_original
                .as_ref()
                .and_then(|p| p.file_name())
                .map_or_else(
                    || "recovered.scene.ron".to_owned(),
                    |n| n.to_string_lossy().into_owned(),
                );
            let mut preview = Preview::new(scene.clone(), recovered.scene_original.clone(), label);
            preview.mark_unsaved();
            self.preview = preview;
        }
    }

    /// Exports the graph for a game to `path` (and its flow fields beside it).
    pub fn export_to(&mut self, path: &Path) -> bool {
        match export_for_game(&self.document.to_graph(), &self.preview.fields, path) {
            Ok(files) => {
                self.status = Some(format!("Exported {} files for the game", files.len()));
                true
            }
            Err(error) => {
                self.dialog = Some(Dialog::Error(format!(
                    "Could not export for the game.\n\n{error}"
                )));
                false
            }
        }
    }

    fn export_dialog(&mut self) {
        let name = self.open_graph_name();
        if let Some(path) = rfd::FileDialog::new()
            .add_filter("Steergraph graph", &["ron"])
            .set_file_name(name)
            .save_file()
        {
            self.export_to(&path);
        }
    }

    /// Opens the graph at `path`; a problem opens an error dialog and keeps the current graph.
    pub fn open(&mut self, path: &Path) {
        match Graph::load(path) {
            Ok(graph) => {
                self.replace_document(Document::new(&graph, Some(path.to_path_buf())), None);
                self.settings.remember(path);
                self.status = Some(format!("Opened {}", path.display()));
            }
            Err(error) => {
                self.dialog = Some(Dialog::Error(format!(
                    "Could not open the graph.\n\n{error}"
                )));
            }
        }
    }

    /// Starts an empty graph (one Output node).
    pub fn new_graph(&mut self) {
        let mut graph = Graph::default();
        graph.add(Node::Output { input: Link::NONE });
        self.replace_document(Document::new(&graph, None), None);
        self.status = Some("New graph".to_owned());
    }

    /// Opens embedded preset `index`.
    pub fn open_preset(&mut self, index: usize) {
        let Some(preset) = presets::GRAPHS.get(index) else {
            return;
        };
        match Graph::from_ron(preset.text, preset.file) {
            Ok(graph) => {
                self.replace_document(Document::new(&graph, None), Some(preset.file.to_owned()));
                self.status = Some(format!("Opened preset {}", preset.name));
            }
            Err(error) => self.dialog = Some(Dialog::Error(error.to_string())),
        }
    }

    /// Saves to `path` atomically. A failure keeps the file on disk as it was and says why.
    pub fn save_to(&mut self, path: &Path) -> bool {
        self.record_commits();
        match self.document.to_graph().save(path) {
            Ok(()) => {
                self.document.mark_saved(path.to_path_buf());
                self.preset_name = None;
                self.settings.remember(path);
                self.autosave.clear();
                self.status = Some(format!("Saved {}", path.display()));
                true
            }
            Err(error) => {
                self.dialog = Some(Dialog::Error(format!(
                    "Could not save the graph; the file on disk is unchanged.\n\n{error}"
                )));
                false
            }
        }
    }

    fn save(&mut self) -> bool {
        match self.document.path.clone() {
            Some(path) => self.save_to(&path),
            None => self.save_as(),
        }
    }

    fn save_as(&mut self) -> bool {
        let name = self
            .preset_name
            .clone()
            .unwrap_or_else(|| "untitled.graph.ron".to_owned());
        let picked = rfd::FileDialog::new()
            .add_filter("Steergraph graph", &["ron"])
            .set_file_name(name)
            .save_file();
        match picked {
            Some(path) => self.save_to(&path),
            None => false,
        }
    }

    /// Does `then`, first asking about unsaved changes if there are any.
    pub fn guard(&mut self, then: Then) {
        self.record_commits();
        if self.document.is_dirty() {
            self.dialog = Some(Dialog::Unsaved(then));
        } else {
            self.perform(then, None);
        }
    }

    fn perform(&mut self, then: Then, ctx: Option<&egui::Context>) {
        match then {
            Then::New => self.new_graph(),
            Then::Open(Some(path)) => self.open(&path),
            Then::Open(None) => {
                if let Some(path) = rfd::FileDialog::new()
                    .add_filter("Steergraph graph", &["ron"])
                    .pick_file()
                {
                    self.open(&path);
                }
            }
            Then::Preset(index) => self.open_preset(index),
            Then::Close => {
                self.allow_close = true;
                self.autosave.clear();
                self.autosave.clear_scene();
                if let Some(ctx) = ctx {
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            }
        }
    }

    fn record_commits(&mut self) {
        if self.document.commit() {
            self.history.push(Edited::Graph);
            self.redo_history.clear();
        }
        if self.preview.commit() {
            self.history.push(Edited::Scene);
            self.redo_history.clear();
        }
    }

    /// Undoes the last change, to the graph or to the scene.
    pub fn undo(&mut self) {
        self.record_commits();
        match self.history.pop() {
            Some(Edited::Graph) => {
                self.document.undo();
                self.redo_history.push(Edited::Graph);
            }
            Some(Edited::Scene) => {
                self.preview.undo();
                self.redo_history.push(Edited::Scene);
            }
            None => {}
        }
    }

    /// Redoes the last undone change.
    pub fn redo(&mut self) {
        self.record_commits();
        match self.redo_history.pop() {
            Some(Edited::Graph) => {
                self.document.redo();
                self.history.push(Edited::Graph);
            }
            Some(Edited::Scene) => {
                self.preview.redo();
                self.history.push(Edited::Scene);
            }
            None => {}
        }
    }

    /// Nodes the user selected on the canvas, or the inspected node.
    pub fn selection(&self) -> Vec<SnarlId> {
        if self.last_selection.is_empty() {
            self.inspected
                .and_then(|id| self.document.snarl_id(id))
                .into_iter()
                .collect()
        } else {
            self.last_selection.clone()
        }
    }

    /// Copies `nodes` as RON text; returns it.
    pub fn copy(&self, nodes: &[SnarlId]) -> Option<String> {
        clipboard::copy(&self.document, nodes)
    }

    /// Pastes RON text near `at` (graph space); returns the new nodes.
    pub fn paste(&mut self, text: &str, at: Pos2) -> Vec<SnarlId> {
        match clipboard::paste(&mut self.document, text, at) {
            Ok(added) => {
                self.status = Some(format!("Pasted {} nodes", added.len()));
                added
            }
            Err(error) => {
                self.status = Some(format!("The clipboard holds no Steergraph nodes: {error}"));
                Vec::new()
            }
        }
    }

    fn duplicate(&mut self, nodes: &[SnarlId]) {
        let Some(text) = self.copy(nodes) else { return };
        let at = self.document.bounds_of(nodes).map_or(Pos2::ZERO, |r| r.min) + PASTE_OFFSET;
        self.paste(&text, at);
    }

    /// Deletes `nodes`.
    pub fn delete(&mut self, nodes: &[SnarlId]) {
        self.document.remove_nodes(nodes);
        self.last_selection.clear();
    }

    /// Adds a node of `kind` at `at` (graph space) and inspects it.
    pub fn add_node(&mut self, kind: graph_runtime::NodeKind, at: Pos2) -> SnarlId {
        let snarl_id = self.document.add_node(kind.instantiate(), at);
        self.inspected = self.document.snarl.get_node(snarl_id).map(|n| n.id);
        snarl_id
    }

    /// Applies a list edit to the node `id`.
    pub fn edit_inputs(&mut self, node: SnarlId, edit: InputEdit) {
        if let Some(data) = self.document.snarl.get_node_mut(node)
            && inputs::apply(&mut data.node, edit)
        {
            self.document.rebuild_wires(node);
        }
    }

    /// Connects the output of `from` to input `input` of `to` if the types fit; otherwise
    /// explains in the status line. The same rule as dragging a wire.
    pub fn connect(&mut self, from: SnarlId, to: SnarlId, input: usize) -> bool {
        let mut message = None;
        let names = Names::default();
        let errors = std::collections::BTreeMap::new();
        let mut search = NodeSearch::default();
        let (mut edits, mut actions) = (Vec::new(), Vec::new());
        let mut viewer = GraphViewer {
            names: &names,
            errors: &errors,
            inspected: None,
            message: &mut message,
            search: &mut search,
            input_edits: &mut edits,
            actions: &mut actions,
            frame: None,
            changed: false,
            transform: None,
            live: None,
        };
        let connected = viewer.try_connect_pins(from, to, input, &mut self.document.snarl);
        if message.is_some() {
            self.status = message;
        }
        connected
    }

    fn screen_to_graph(&self, screen: Pos2) -> Pos2 {
        self.last_transform.inverse() * screen
    }

    fn comment_around_selection(&mut self) {
        let nodes = self.selection();
        let Some(rect) = self.document.bounds_of(&nodes) else {
            self.status = Some("Select nodes to put a comment around them.".to_owned());
            return;
        };
        let rect = rect.expand(24.0);
        self.document.comments.push(Comment {
            text: "Comment".to_owned(),
            position: glam::Vec2::new(rect.min.x, rect.min.y - 24.0),
            size: glam::Vec2::new(rect.width(), rect.height() + 24.0),
        });
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() || self.dialog.is_some() {
            return;
        }
        let command_shift = Modifiers::COMMAND | Modifiers::SHIFT;
        let pressed = |modifiers, key| ctx.input_mut(|i| i.consume_key(modifiers, key));
        if pressed(command_shift, Key::Z) || pressed(Modifiers::COMMAND, Key::Y) {
            self.redo();
        } else if pressed(Modifiers::COMMAND, Key::Z) {
            self.undo();
        }
        if pressed(command_shift, Key::S) {
            self.save_as();
        } else if pressed(Modifiers::COMMAND, Key::S) {
            self.save();
        }
        if pressed(Modifiers::COMMAND, Key::O) {
            self.guard(Then::Open(None));
        }
        if pressed(Modifiers::COMMAND, Key::N) {
            self.guard(Then::New);
        }
        if pressed(Modifiers::COMMAND, Key::D) {
            let nodes = self.selection();
            self.duplicate(&nodes);
        }
        let over_preview = ctx
            .pointer_latest_pos()
            .zip(self.preview_rect)
            .is_some_and(|(p, rect)| rect.contains(p));
        if over_preview {
            // The preview handles Delete and Space (pan) itself.
        } else if pressed(Modifiers::NONE, Key::Delete) || pressed(Modifiers::NONE, Key::Backspace)
        {
            let nodes = self.selection();
            self.delete(&nodes);
        }
        if pressed(Modifiers::NONE, Key::F) {
            self.frame_request = Some(Vec::new());
        }
        if !over_preview
            && (pressed(Modifiers::SHIFT, Key::A) || pressed(Modifiers::NONE, Key::Space))
        {
            let at = ctx
                .pointer_latest_pos()
                .unwrap_or_else(|| ctx.content_rect().center());
            self.search_popup = Some(at);
            self.popup_search = NodeSearch::default();
        }
        let events = ctx.input(|i| i.events.clone());
        for event in events {
            match event {
                Event::Copy | Event::Cut => {
                    let nodes = self.selection();
                    if let Some(text) = self.copy(&nodes) {
                        ctx.copy_text(text);
                        self.status = Some(format!("Copied {} nodes", nodes.len()));
                        if matches!(event, Event::Cut) {
                            self.delete(&nodes);
                        }
                    }
                }
                Event::Paste(text) => {
                    let at = ctx
                        .pointer_latest_pos()
                        .map_or(Pos2::ZERO, |p| self.screen_to_graph(p));
                    self.paste(&text, at);
                }
                _ => {}
            }
        }
    }

    fn menu_bar(&mut self, ui: &mut Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("New  (Ctrl+N)").clicked() {
                    self.guard(Then::New);
                }
                if ui.button("Open…  (Ctrl+O)").clicked() {
                    self.guard(Then::Open(None));
                }
                ui.menu_button("Open recent", |ui| {
                    if self.settings.recent.is_empty() {
                        ui.weak("Nothing yet");
                    }
                    for path in self.settings.recent.clone() {
                        if ui.button(path.display().to_string()).clicked() {
                            self.guard(Then::Open(Some(path)));
                        }
                    }
                });
                ui.menu_button("Presets", |ui| {
                    for (index, preset) in presets::GRAPHS.iter().enumerate() {
                        if ui.button(preset.name).clicked() {
                            self.guard(Then::Preset(index));
                        }
                    }
                });
                ui.separator();
                if ui.button("Save  (Ctrl+S)").clicked() {
                    self.save();
                }
                if ui.button("Save as…  (Ctrl+Shift+S)").clicked() {
                    self.save_as();
                }
                ui.separator();
                if ui
                    .button("Export for game…")
                    .on_hover_text(
                        "The graph without its editor layout, and the flow fields it follows",
                    )
                    .clicked()
                {
                    self.export_dialog();
                }
                ui.separator();
                if ui.button("Open scene…").clicked()
                    && let Some(path) = rfd::FileDialog::new()
                        .add_filter("Steergraph scene", &["ron"])
                        .pick_file()
                {
                    self.open_scene(&path);
                }
                if ui.button("Save scene").clicked() {
                    self.save_scene();
                }
                if ui.button("Save scene as…").clicked() {
                    self.preview.scene_path = None;
                    self.save_scene();
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui
                    .add_enabled(
                        self.document.can_undo(),
                        egui::Button::new("Undo  (Ctrl+Z)"),
                    )
                    .clicked()
                {
                    self.undo();
                }
                if ui
                    .add_enabled(
                        self.document.can_redo(),
                        egui::Button::new("Redo  (Ctrl+Shift+Z, Ctrl+Y)"),
                    )
                    .clicked()
                {
                    self.redo();
                }
                ui.separator();
                if ui.button("Duplicate  (Ctrl+D)").clicked() {
                    let nodes = self.selection();
                    self.duplicate(&nodes);
                }
                if ui.button("Delete  (Del)").clicked() {
                    let nodes = self.selection();
                    self.delete(&nodes);
                }
                if ui.button("Comment around selection").clicked() {
                    self.comment_around_selection();
                }
                ui.separator();
                if ui.button("Frame all  (F)").clicked() {
                    self.frame_request = Some(Vec::new());
                }
            });
            ui.menu_button("Add", |ui| {
                ui.label("Add node  (Shift+A, Space)");
                if let Some(kind) = self.menu_search.ui(ui, Fit::Any) {
                    let centre = self.screen_to_graph(ui.ctx().content_rect().center());
                    self.add_node(kind, centre);
                    self.menu_search = NodeSearch::default();
                    ui.close();
                }
            });
        });
    }

    fn side_panel(&mut self, ui: &mut Ui, names: &Names) {
        let mut actions = Vec::new();
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::CollapsingHeader::new("Node")
                .default_open(true)
                .show(ui, |ui| {
                    panels::inspector(ui, &mut self.document, self.inspected, names, &mut actions);
                });
            egui::CollapsingHeader::new("Agent")
                .default_open(true)
                .show(ui, |ui| {
                    self.preview.agent_inspector(ui);
                });
            egui::CollapsingHeader::new("Graph parameters")
                .default_open(true)
                .show(ui, |ui| {
                    panels::parameters(ui, &mut self.document, &mut self.new_parameter);
                });
            egui::CollapsingHeader::new("Vehicle")
                .default_open(false)
                .show(ui, |ui| {
                    panels::vehicle(ui, &mut self.document, names);
                });
            egui::CollapsingHeader::new("Scene")
                .default_open(false)
                .show(ui, |ui| {
                    self.preview.scene_panel(ui);
                });
            egui::CollapsingHeader::new("Description and comments")
                .default_open(false)
                .show(ui, |ui| {
                    ui.add(
                        egui::TextEdit::multiline(&mut self.document.description).desired_rows(2),
                    );
                    panels::comments(ui, &mut self.document.comments);
                });
        });
        for action in actions {
            match action {
                PanelAction::EditInputs(id, edit) => {
                    if let Some(node) = self.document.snarl_id(id) {
                        self.edit_inputs(node, edit);
                    }
                }
                PanelAction::Frame(id) => {
                    self.frame_request = self.document.snarl_id(id).map(|n| vec![n]);
                }
            }
        }
    }

    fn graph_canvas(&mut self, ui: &mut Ui, names: &Names) {
        let errors = panels::errors_by_node(self.document.problems());
        let live = self
            .preview
            .trace_for_open_graph(&self.open_graph_name())
            .cloned();
        let widget_rect = ui.available_rect_before_wrap();
        let frame = self.frame_request.take().and_then(|nodes| {
            self.document
                .bounds_of(&nodes)
                .map(|rect| (rect.expand(40.0), widget_rect))
        });
        let mut message = None;
        let (mut input_edits, mut actions) = (Vec::new(), Vec::new());
        let mut viewer = GraphViewer {
            names,
            errors: &errors,
            inspected: self.inspected,
            message: &mut message,
            search: &mut self.menu_search,
            input_edits: &mut input_edits,
            actions: &mut actions,
            frame,
            changed: false,
            transform: None,
            live: live.as_ref(),
        };
        let style = SnarlStyle {
            collapsible: Some(false),
            ..SnarlStyle::new()
        };
        let widget = SnarlWidget::new().id(Id::new(GRAPH_WIDGET)).style(style);
        let comments = self.document.comments.clone();
        let response = widget.show(&mut self.document.snarl, &mut viewer, ui);
        if let Some(transform) = viewer.take_transform() {
            self.last_transform = transform;
        }
        draw_comments(ui, &comments, self.last_transform, response.rect);
        if message.is_some() {
            self.status = message;
        }
        for (node, edit) in input_edits {
            self.edit_inputs(node, edit);
        }
        for action in actions {
            match action {
                NodeAction::Delete(node) => self.delete(&[node]),
                NodeAction::Duplicate(node) => self.duplicate(&[node]),
                NodeAction::Inspect(id) => self.inspected = Some(id),
            }
        }
        let selection = egui_snarl::ui::get_selected_nodes(Id::new(GRAPH_WIDGET), ui.ctx());
        if selection != self.last_selection {
            if let Some(last) = selection.last() {
                self.inspected = self.document.snarl.get_node(*last).map(|n| n.id);
            }
            self.last_selection = selection;
        }
    }

    /// Runs the preview for this frame against the open graph.
    fn update_preview(&mut self, ctx: &egui::Context) {
        let name = self.open_graph_name();
        let graph = self.document.to_graph();
        let open = OpenGraph {
            name: &name,
            graph: &graph,
            program: self.document.program(),
            revision: self.document.revision(),
        };
        let seconds = ctx.input(|i| i.stable_dt);
        self.preview.update(&open, seconds);
    }

    fn preview_panel(&mut self, ui: &mut Ui) {
        let name = self.open_graph_name();
        let graph = self.document.to_graph();
        let open = OpenGraph {
            name: &name,
            graph: &graph,
            program: self.document.program(),
            revision: self.document.revision(),
        };
        ui.horizontal(|ui| {
            ui.strong("Preview");
            let dirty = if self.preview.is_dirty() { " •" } else { "" };
            let scene = self
                .preview
                .scene_path
                .as_ref()
                .and_then(|p| p.file_name())
                .map_or_else(
                    || self.preview.scene_label.clone(),
                    |n| n.to_string_lossy().into_owned(),
                );
            ui.weak(format!("{scene}{dirty}"));
        });
        self.preview.toolbar(ui, &open);
        for problem in &self.preview.problems {
            ui.colored_label(
                egui::Color32::from_rgb(235, 110, 90),
                format!("⚠ {problem}"),
            );
        }
        if self.preview.tool == Tool::PaintField {
            self.preview.field_panel(ui);
        }
        egui::Panel::bottom("metrics")
            .resizable(true)
            .default_size(170.0)
            .show(ui, |ui| {
                self.preview.metrics_panel(ui);
            });
        self.preview_rect = Some(ui.available_rect_before_wrap());
        self.preview.viewport(ui);
    }

    fn search_popup(&mut self, ctx: &egui::Context) {
        let Some(at) = self.search_popup else { return };
        let mut picked = None;
        let area = egui::Area::new(Id::new("node-search-popup"))
            .fixed_pos(at)
            .order(egui::Order::Foreground)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label("Add node");
                    picked = self.popup_search.ui(ui, Fit::Any);
                });
            });
        if let Some(kind) = picked {
            let graph_position = self.screen_to_graph(at);
            self.add_node(kind, graph_position);
            self.search_popup = None;
        } else if ctx.input(|i| i.key_pressed(Key::Escape))
            || (ctx.input(|i| i.pointer.any_pressed()) && !area.response.contains_pointer())
        {
            self.search_popup = None;
        }
    }

    fn dialogs(&mut self, ctx: &egui::Context) {
        let Some(dialog) = self.dialog.clone() else {
            return;
        };
        let mut close = false;
        egui::Modal::new(Id::new("steergraph-dialog")).show(ctx, |ui| {
            ui.set_max_width(460.0);
            match &dialog {
                Dialog::Unsaved(then) => {
                    ui.heading("Unsaved changes");
                    ui.label(format!(
                        "{} has changes that are not saved.",
                        self.document.title()
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked()
                            && (!self.document.is_dirty() || self.save())
                            && (!self.preview.is_dirty() || self.save_scene())
                        {
                            close = true;
                            self.perform(then.clone(), Some(ctx));
                        }
                        if ui.button("Discard changes").clicked() {
                            close = true;
                            self.autosave.clear();
                            self.autosave.clear_scene();
                            self.perform(then.clone(), Some(ctx));
                        }
                        if ui.button("Cancel").clicked() {
                            close = true;
                        }
                    });
                }
                Dialog::Recover(recovered) => {
                    ui.heading("Recover unsaved work?");
                    let describe = |path: &Option<PathBuf>, what: &str| {
                        path.as_ref().map_or_else(
                            || format!("an unsaved {what}"),
                            |p| p.display().to_string(),
                        )
                    };
                    if recovered.graph.is_some() {
                        ui.label(format!(
                            "Steergraph closed with unsaved changes to {}.",
                            describe(&recovered.original, "graph")
                        ));
                    }
                    if recovered.scene.is_some() {
                        ui.label(format!(
                            "The preview's scene had unsaved changes ({}).",
                            describe(&recovered.scene_original, "scene")
                        ));
                    }
                    ui.horizontal(|ui| {
                        if ui.button("Recover").clicked() {
                            self.recover(recovered);
                            close = true;
                        }
                        if ui.button("Discard").clicked() {
                            self.autosave.clear();
                            self.autosave.clear_scene();
                            close = true;
                        }
                    });
                }
                Dialog::Error(message) => {
                    ui.heading("Problem");
                    ui.label(message);
                    if ui.button("OK").clicked() {
                        close = true;
                    }
                }
            }
        });
        if close && self.dialog.as_ref() == Some(&dialog) {
            self.dialog = None;
        }
    }

    fn handle_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|file| file.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        if let Some(path) = dropped
            .into_iter()
            .find(|p| p.extension().is_some_and(|e| e == "ron"))
        {
            self.guard(Then::Open(Some(path)));
        }
    }

    fn handle_close_request(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested()) && !self.allow_close {
            self.record_commits();
            if self.document.is_dirty() || self.preview.is_dirty() {
                ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
                self.dialog = Some(Dialog::Unsaved(Then::Close));
            } else {
                self.autosave.clear();
                self.autosave.clear_scene();
            }
        }
    }

    /// One frame of the whole editor (what eframe calls; tests call it through a harness).
    pub fn show(&mut self, ui: &mut Ui) {
        let frame_started = std::time::Instant::now();
        let ctx = ui.ctx().clone();
        self.update_preview(&ctx);
        self.handle_dropped_files(&ctx);
        self.handle_close_request(&ctx);
        self.shortcuts(&ctx);
        let names = self.scene_names.with_graph(
            &self.document.parameters,
            self.document.snarl.nodes().map(|n| &n.node),
        );

        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                let problems = self.document.problems().len();
                if problems == 0 {
                    ui.colored_label(egui::Color32::from_rgb(110, 190, 110), "✔ compiles");
                } else {
                    ui.colored_label(
                        egui::Color32::from_rgb(235, 110, 90),
                        format!("⚠ {problems} problems"),
                    );
                }
                ui.separator();
                ui.label(format!(
                    "frame {:.1} ms · tick {:.2} ms · {} agents",
                    self.frame_ms,
                    self.preview.tick_ms,
                    self.preview.agent_count()
                ));
                ui.separator();
                ui.label(
                    self.status
                        .as_deref()
                        .unwrap_or("Right-click or Shift+A to add nodes; drag from a pin to wire."),
                );
            });
        });
        egui::Panel::bottom("problems")
            .resizable(true)
            .default_size(110.0)
            .show(ui, |ui| {
                ui.strong("Problems");
                if let Some(node) = panels::problems(ui, self.document.problems()) {
                    self.inspected = Some(node);
                    self.frame_request = self.document.snarl_id(node).map(|n| vec![n]);
                }
            });
        egui::Panel::left("side")
            .resizable(true)
            .default_size(320.0)
            .min_size(260.0)
            .show(ui, |ui| {
                self.side_panel(ui, &names);
            });
        egui::Panel::right("preview")
            .resizable(true)
            .default_size(560.0)
            .min_size(280.0)
            .show(ui, |ui| self.preview_panel(ui));
        egui::CentralPanel::no_frame().show(ui, |ui| self.graph_canvas(ui, &names));
        self.search_popup(&ctx);
        self.dialogs(&ctx);

        if ctx.input(|i| i.pointer.any_down()) {
            self.document.revalidate_live();
        } else {
            self.record_commits();
        }
        if self.preview.running {
            ctx.request_repaint();
        }
        self.frame_ms = frame_started.elapsed().as_secs_f32() * 1000.0;
        if let Some(stats) = &mut self.frame_stats {
            stats.record(
                ctx.input(|i| i.time),
                self.frame_ms,
                self.preview.tick_ms,
                self.preview.agent_count(),
            );
        }
        let title = self.window_title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        let now = ctx.input(|i| i.time);
        if let Some(error) = self.autosave.tick(now, &self.document, &self.preview) {
            self.status = Some(error);
        }
        if self.document.is_dirty() || self.preview.is_dirty() {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(files::AUTOSAVE_SECONDS));
        }
    }
}

/// Draws comment frames behind nothing in particular: a translucent box with its text, in
/// graph space mapped through the canvas transform.
fn draw_comments(
    ui: &Ui,
    comments: &[Comment],
    to_screen: egui::emath::TSTransform,
    clip: egui::Rect,
) {
    let painter = ui
        .painter()
        .with_clip_rect(clip)
        .with_layer_id(egui::LayerId::background());
    for comment in comments {
        let rect = egui::Rect::from_min_size(
            Pos2::new(comment.position.x, comment.position.y),
            egui::vec2(comment.size.x, comment.size.y),
        );
        let screen = to_screen * rect;
        painter.rect(
            screen,
            6.0,
            egui::Color32::from_rgba_unmultiplied(90, 120, 160, 30),
            egui::Stroke::new(1.0, egui::Color32::from_rgb(110, 140, 180)),
            egui::StrokeKind::Inside,
        );
        painter.text(
            screen.min + egui::vec2(8.0, 6.0),
            egui::Align2::LEFT_TOP,
            &comment.text,
            egui::FontId::proportional(14.0 * to_screen.scaling),
            egui::Color32::from_rgb(170, 195, 230),
        );
    }
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, files::SETTINGS_KEY, &self.settings);
        // Also on eframe's periodic save: one more chance to keep unsaved work.
        if self.document.is_dirty() {
            let _ = self.autosave.write(&self.document);
        }
        if self.preview.is_dirty() {
            let _ = self.autosave.write_scene(&self.preview);
        }
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        if !self.document.is_dirty() || self.allow_close {
            self.autosave.clear();
        }
        if !self.preview.is_dirty() || self.allow_close {
            self.autosave.clear_scene();
        }
    }
}
