//! The desktop editor: a node graph (egui-snarl) beside a side panel, a problems list and the
//! live preview. `EditorApp` lays out panels and hands off; every change the user asks for is
//! a [`Command`] applied in one place (`command.rs`, `edit.rs`, `session.rs`). The graph
//! model, validation and file format are graph-runtime's.

mod arrange;
mod autosave;
mod canvas;
mod clipboard;
mod collapse;
mod command;
mod context;
mod dialogs;
mod document;
mod edit;
mod effect;
mod export;
mod field_files;
mod fields;
mod file_dialog;
mod files;
mod find;
mod fork_undo;
mod frame_stats;
mod framing;
mod help;
mod history;
mod inputs;
mod layout;
mod menus;
mod mirror;
mod on_disk;
mod panels;
mod placement;
mod preset_menu;
mod presets;
mod preview;
mod recovery;
mod replay_files;
mod replay_save;
mod scene_files;
mod search;
mod selection;
mod services;
mod session;
mod side_panel;
mod status;
mod stuck_fixes;
mod sweep;
mod time_left;
mod tune;
mod view_state;
mod viewer;
mod widgets;
mod window;
mod workspace;

use std::path::PathBuf;

use egui::Ui;
use graph_runtime::Graph;

pub use arrange::Arrange;
pub use autosave::{Autosave, Origin, Recovered, Session};
pub use canvas::Canvas;
pub use command::{Command, Then, Wire};
pub use context::Context;
pub use dialogs::Dialog;
pub use document::{Document, EditorNode, Refused};
pub use effect::Effect;
pub use export::{Export, Exported, export_for_game};
pub use field_files::field_file_name;
pub use fields::{NameList, Names};
pub use file_dialog::{Backend, FileDialogs, Purpose};
pub use files::Settings;
pub use history::{Doc, HISTORY_LIMIT, History};
pub use inputs::InputEdit;
pub use presets::{
    FAMILIES as PRESET_FAMILIES, GRAPHS as PRESET_GRAPHS, Preset, SCENES as PRESET_SCENES,
};
pub use preview::{
    AgentInstance, BlockedCells, Bundle, Event, EventKind, FixState, GpuSwitch, Guides, Host, Item,
    MAX_PREVIEW_AGENTS, OpenGraph, Pacing, Preview, ReplayStatus, SceneDocument, SceneEdit, TICK,
    Tool, View, agent_instances, agent_mesh, group_color, paint_guides, paint_world,
    reciprocal_label,
};
pub use replay_files::is_replay;
pub use scene_files::is_scene_path;
pub use search::NodeSearch;
pub use selection::Selection;
pub use services::Services;
pub use session::UNTITLED;
pub use status::{Status, plural};
pub use sweep::{Outcome, SweepForm, SweepJob, SweepPlot, SweepState, SweepWindow};
pub use tune::{ApplyTo, ParameterRow, TuneJob, TuneOutcome, TuneState, TuneWindow};
pub use view_state::ViewState;
pub use window::run;
pub use workspace::Workspace;

use layout::PanelSizes;

/// What the name pickers offer with `scene` open and `graph` being edited: the scene's
/// names, and the graph's own marked as missing from the scene.
pub fn picker_names(scene: &graph_runtime::Scene, graph: &Graph) -> Names {
    Names::from_scene(scene).with_graph(&graph.parameters, graph.nodes.values())
}

/// The editor application: the workspace (what undo and commands change), the view state,
/// the services, and the preview with its scene, with the commands queued this frame.
pub struct EditorApp {
    /// Persisted settings (recent files).
    pub settings: Settings,
    /// The open graph, its selection, context and undo order.
    pub workspace: Workspace,
    /// The panels, boxes and windows.
    pub view: ViewState,
    /// File dialogs, autosave, the watch on disk, the clock and frame statistics.
    pub services: Services,
    /// The live preview of the workspace's scene beside the graph.
    pub preview: Preview,
    /// The latest status message.
    pub status: Status,
    queue: Vec<Command>,
    /// What the command being applied asked of the clipboard or the window; `apply` hands
    /// them back.
    effects: Vec<Effect>,
    allow_close: bool,
}

impl EditorApp {
    /// An editor on `file`, or on the default preset, autosaving into `autosave_directory`.
    /// File dialogs are the in-app ones (for tests); the window uses the environment's.
    pub fn new(
        settings: Settings,
        autosave_directory: Option<PathBuf>,
        file: Option<PathBuf>,
    ) -> Self {
        let preset = presets::default_graph();
        let graph = Graph::from_ron(preset.text, preset.file).unwrap_or_default();
        let autosave = Autosave::new(autosave_directory);
        let recovered = autosave.recover();
        let scene = preview::scene_for_graph(preset.file, None);
        let preview = scene_files::new_preview(&scene, preset.file, &settings);
        let mut app = Self {
            settings,
            workspace: Workspace::new(
                Document::new(&graph, None),
                Some(preset.file.to_owned()),
                scene,
            ),
            view: ViewState {
                dialog: recovered.map(|r| Dialog::Recover(Box::new(r))),
                ..ViewState::default()
            },
            services: Services::new(autosave),
            preview,
            status: Status::default(),
            queue: Vec::new(),
            effects: Vec::new(),
            allow_close: false,
        };
        if let Some(file) = file {
            app.open(&file);
        }
        app
    }

    /// One frame of the whole editor (what eframe calls; tests call it through a harness).
    pub fn show(&mut self, ui: &mut Ui) {
        let frame_started = std::time::Instant::now();
        let ctx = ui.ctx().clone();
        let seconds = ctx.input(|i| i.stable_dt);
        let pacing = self.services.pacing;
        self.with_open_graph(|app, open| {
            (app.preview).update(&app.workspace.scene, open, seconds, pacing);
        });
        self.handle_window_events(&ctx);
        self.check_disk(&ctx);
        self.poll_run_save(&ctx);
        self.shortcuts(&ctx);
        let names = Names::from_scene(&self.workspace.scene.scene).with_graph(
            &self.workspace.document.parameters,
            self.workspace.document.snarl.nodes().map(|n| &n.node),
        );
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        if self.workspace.context.is_open() {
            egui::Panel::top("breadcrumb").show(ui, |ui| self.breadcrumb(ui));
        }
        if !self.services.disk.asking().is_empty() {
            egui::Panel::top("changed on disk").show(ui, |ui| self.changed_on_disk_bar(ui));
        }
        egui::Panel::bottom("status").show(ui, |ui| self.status_line(ui));
        self.panels(ui, &names);
        egui::CentralPanel::no_frame().show(ui, |ui| self.graph_canvas(ui, &names));
        self.search_popup(&ctx);
        self.find_popup(&ctx);
        self.shortcut_sheet(&ctx);
        self.dialogs(&ctx);
        self.sweep_window(&ctx);
        self.tune_window(&ctx);
        if let Some((purpose, path)) = self.services.files.show(&ctx) {
            self.push(Command::Picked(purpose, path));
        }
        let effects = self.apply_queued();
        self.reconcile_widget_selection();
        effect::carry_out(&ctx, effects);
        self.remember_recording_budget();
        self.end_frame(&ctx, frame_started);
    }

    /// Keeps the recording budget the designer set in the timeline's menu in the settings
    /// eframe saves, so the next run starts with it.
    fn remember_recording_budget(&mut self) {
        let budget = self.preview.host.recording_budget();
        if budget != graph_runtime::rewind::DEFAULT_BUDGET
            || self.settings.recording_budget_mib.is_some()
        {
            self.settings.recording_budget_mib = Some((budget / preview::MIB) as u32);
        }
    }

    /// The problems list, the side panel and the preview around the canvas, sized from the
    /// window (`layout.rs`); the side panel and the preview collapse to a strip.
    fn panels(&mut self, ui: &mut Ui, names: &Names) {
        let sizes = PanelSizes::for_window(ui.ctx().content_rect().size());
        egui::Panel::bottom("problems")
            .resizable(true)
            .default_size(sizes.problems.0)
            .size_range(sizes.problems.1)
            .show(ui, |ui| self.problems_panel(ui));
        let mut open = self.view.layout.side;
        egui::Panel::show_switched(
            ui,
            &mut open,
            egui::Panel::left("side collapsed")
                .resizable(false)
                .exact_size(layout::strip_width()),
            egui::Panel::left("side")
                .resizable(true)
                .default_size(sizes.side.0)
                .size_range(sizes.side.1),
            |ui, expanded| {
                if expanded {
                    self.side_panel(ui, names);
                } else if layout::strip(ui, "›", "Show the side panel (N)") {
                    self.push(Command::ToggleSidePanel);
                }
            },
        );
        self.view.layout.side = open;
        let mut open = self.view.layout.preview;
        egui::Panel::show_switched(
            ui,
            &mut open,
            egui::Panel::right("preview collapsed")
                .resizable(false)
                .exact_size(layout::strip_width()),
            egui::Panel::right("preview")
                .resizable(true)
                .default_size(sizes.preview.0)
                .size_range(sizes.preview.1),
            |ui, expanded| {
                if expanded {
                    self.preview_panel(ui);
                } else if layout::strip(ui, "‹", "Show the preview (P)") {
                    self.push(Command::TogglePreview);
                }
            },
        );
        self.view.layout.preview = open;
    }

    /// Drag-and-drop and the window's close button.
    fn handle_window_events(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|file| file.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .find(|p| p.extension().is_some_and(|e| e == "ron" || e == "sgrec"))
        });
        if let Some(path) = dropped {
            self.push(if is_replay(&path) {
                Command::OpenReplayPath(path)
            } else if is_scene_path(&path) {
                Command::OpenScenePath(path)
            } else {
                Command::OpenPath(path)
            });
        }
        if ctx.input(|i| i.viewport().close_requested()) && !self.allow_close {
            self.record_changes();
            if self.workspace.document.is_dirty() || self.workspace.scene.is_dirty() {
                ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
                self.view.dialog = Some(Dialog::Unsaved(Then::Close));
            } else {
                self.services.autosave.clear();
                self.services.autosave.clear_scene();
            }
        }
    }

    /// After the commands and their effects: undo steps, repaint, title, autosave, statistics.
    fn end_frame(&mut self, ctx: &egui::Context, frame_started: std::time::Instant) {
        // A drag or a field being typed in is one gesture: it becomes one undo step when the
        // pointer is released or the field is left (Enter, a click elsewhere).
        if ctx.input(|i| i.pointer.any_down()) || ctx.egui_wants_keyboard_input() {
            self.workspace.document.revalidate_live();
        } else {
            self.record_changes();
        }
        self.follow_fork();
        if self.preview.host.running {
            ctx.request_repaint();
        }
        self.services.frame_ms = frame_started.elapsed().as_secs_f32() * 1000.0;
        if let Some(stats) = &mut self.services.frame_stats {
            let host = &self.preview.host;
            stats.record(
                ctx.input(|i| i.time),
                self.services.frame_ms,
                host.tick_ms,
                host.agent_count(),
                self.preview.gpu_agents.last_draw_ms(),
            );
        }
        let title = self.workspace.title();
        if title != self.view.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.view.title = title;
        }
        let now = ctx.input(|i| i.time);
        let session = self.session();
        if let Some(error) = self.services.autosave.tick(
            now,
            &self.workspace.document,
            &self.workspace.scene,
            &session,
        ) {
            self.status.set(error);
        }
        if self.workspace.document.is_dirty() || self.workspace.scene.is_dirty() {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(
                autosave::AUTOSAVE_SECONDS,
            ));
        }
    }
}
