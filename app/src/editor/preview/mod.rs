//! The live preview: the open graph drives agents in a scene beside the node editor, with
//! debug guides, an agent inspector, scene editing and live metrics.
//!
//! Rooms: `scene_doc` (the scene as a document: fields, history, saving), `host` (the running
//! simulation: build, hot swap, clock, metrics, trace), `viewport` and `view` (camera, input,
//! painting), `tools/` (one file per tool) and `panels/` (toolbar, field, scene, group, agent).

mod fixes;
mod gpu_run;
mod host;
mod panels;
mod plots;
mod route_lines;
mod scene_doc;
mod scene_edit;
mod tools;
mod view;
pub(super) mod viewport;
mod worker;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{Rect, Ui};
use glam::Vec2;
use graph_runtime::{AgentGroup, Area, Graph, Program, Rect as WorldRect, Scene, Spawn};

pub use fixes::FixState;
pub use gpu_run::GpuSwitch;
pub use host::{Event, EventKind, Host, METRICS_SECONDS, MIB, Pacing, ReplayStatus, TICK};
pub use panels::MAX_PREVIEW_AGENTS;
pub use scene_doc::{Bundle, SceneDocument};
pub use scene_edit::SceneEdit;
use tools::Gestures;
pub use tools::{Item, PaintSettings, Tool};
pub use view::{
    AgentInstance, BlockedCells, Guides, View, agent_instances, agent_mesh, group_color,
    node_color, paint_guides, paint_world, reciprocal_label,
};
pub use viewport::viewport_wheel_zoom;

use super::command::Command;
use super::presets;

/// The graph open in the editor, as the preview needs it.
pub struct OpenGraph<'a> {
    /// The file name scene groups use for it (`boids.graph.ron`).
    pub name: &'a str,
    /// Where it is saved, if anywhere.
    pub path: Option<&'a Path>,
    /// The graph as it is now.
    pub graph: &'a Graph,
    /// Its compiled program, when it compiles.
    pub program: Option<Arc<Program>>,
    /// Changes whenever the graph is recompiled.
    pub revision: u64,
    /// Subgraph files open in the editor, as they are now (saved or not), by key: they
    /// stand in for the files on disk.
    pub subgraph_overrides: Option<&'a BTreeMap<String, Graph>>,
}

/// The live preview.
pub struct Preview {
    /// The running simulation and its clock.
    pub host: Host,
    /// The camera.
    pub view: View,
    fit_pending: bool,
    /// The scene tool.
    pub tool: Tool,
    /// The selected scene item.
    pub selected_item: Option<Item>,
    /// What the pointer is in the middle of: a drag, a wall, gap or link half drawn, a paint
    /// stroke, the viewport's context menu.
    gestures: Gestures,
    /// Guides to draw.
    pub guides: Guides,
    /// Color flow-field arrows by direction.
    pub color_arrows: bool,
    /// The agents' GPU drawing (a mesh where there is no GPU path).
    pub gpu_agents: view::GpuAgents,
    /// The "Run on GPU" switch, and the crowd on the GPU while it is on.
    pub gpu: GpuSwitch,
    /// The paint tool's settings.
    pub paint: PaintSettings,
    cursor: Option<Vec2>,
    /// The graph file name that stands for the open graph in this scene.
    pub bound: String,
    rect: Option<Rect>,
    edits: Vec<SceneEdit>,
    /// Flow-field cells the walls block, kept between frames.
    pub blocked: BlockedCells,
    /// The fixes proven for the stuck agents (the stuck panel's).
    pub fixes: FixState,
    /// The timeline's event filter and backwards play.
    pub timeline: panels::TimelineState,
}

impl Preview {
    /// A preview of the scene `document` whose groups running `bound` run the open graph.
    pub fn new(document: &SceneDocument, bound: &str) -> Self {
        let paint = PaintSettings {
            field: document.fields.keys().next().cloned(),
            ..PaintSettings::default()
        };
        Self {
            host: Host::default(),
            view: View::default(),
            fit_pending: true,
            tool: Tool::Select,
            selected_item: None,
            gestures: Gestures::default(),
            guides: Guides::default(),
            color_arrows: false,
            gpu_agents: view::GpuAgents::default(),
            gpu: GpuSwitch::default(),
            paint,
            cursor: None,
            bound: bound.to_owned(),
            rect: None,
            edits: Vec::new(),
            blocked: BlockedCells::default(),
            fixes: FixState::default(),
            timeline: panels::TimelineState::default(),
        }
    }

    /// The open graph is now saved as `name`: the groups that ran it run it under that name.
    pub fn rebind(&mut self, document: &mut SceneDocument, name: &str) {
        if name == self.bound {
            return;
        }
        let old = std::mem::replace(&mut self.bound, name.to_owned());
        document.rename_graph(&old, name);
        self.host.rename_graph(&old, name);
    }

    /// The open graph is now the file `name`: the groups that run `name` run it (nothing is
    /// renamed; the host rebuilds what they run).
    pub fn bind(&mut self, name: &str) {
        name.clone_into(&mut self.bound);
    }

    /// Number of agents running.
    pub fn agent_count(&self) -> usize {
        self.host.agent_count()
    }

    /// The running simulation, when the scene builds.
    pub fn simulation(&self) -> Option<&graph_runtime::Simulation> {
        self.host.simulation.as_ref()
    }

    /// The selected agent's trace, when it runs the open graph (live values on the nodes).
    pub fn trace_of_open_graph(&self, document: &SceneDocument) -> Option<&graph_runtime::Trace> {
        self.host.trace_of_open_graph(&document.scene, &self.bound)
    }

    /// The nodes of the open graph that hold the selected agent (when it is stuck and runs the
    /// open graph), each with what it does there: the graph marks them.
    pub fn holding_of_open_graph(
        &self,
        document: &SceneDocument,
    ) -> BTreeMap<graph_runtime::NodeId, String> {
        let (Some(_), Some(diagnosis)) = (self.trace_of_open_graph(document), &self.host.diagnosis)
        else {
            return BTreeMap::new();
        };
        if !self.host.is_held(diagnosis.agent) {
            // A free agent's would-be cause is in the stuck panel, not marked on the graph.
            return BTreeMap::new();
        }
        let agent = diagnosis.agent;
        match &diagnosis.cause {
            graph_runtime::diagnose::Cause::ForcesCancel { forces } => (forces.iter())
                .map(|(node, _, force)| {
                    let text = format!(
                        "Holds agent {agent}: its force {:.2} cancels the others' ({})",
                        force.length(),
                        diagnosis.words()
                    );
                    (*node, text)
                })
                .collect(),
            cause => (cause.nodes().into_iter())
                .map(|node| (node, format!("Holds agent {agent}: {}", diagnosis.words())))
                .collect(),
        }
    }

    /// The viewport's screen rectangle at the last frame.
    pub fn rect(&self) -> Option<Rect> {
        self.rect
    }

    /// Per-frame work before drawing: follow the open graph and the scene, move the cursor
    /// target, run time (on the GPU while its switch is on).
    pub fn update(
        &mut self,
        document: &SceneDocument,
        open: &OpenGraph<'_>,
        frame_seconds: f32,
        pacing: Pacing,
    ) {
        let on_gpu = self.gpu.update(
            &mut self.host,
            document,
            open,
            frame_seconds,
            self.cursor,
            pacing,
        );
        if on_gpu {
            return;
        }
        self.host.follow(document, open);
        if let Some(cursor) = self.cursor {
            self.host.set_cursor(cursor);
        }
        self.host.run(frame_seconds, pacing);
    }

    /// The preview panel: title, toolbar, problems, field panel, metrics and viewport. Returns
    /// what it asks of the editor: a file dialog, a refused edit's reason for the status line.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        document: &mut SceneDocument,
        open: &OpenGraph<'_>,
    ) -> Vec<Command> {
        let mut commands = Vec::new();
        // The selection names only what is there (an undo may have taken it away).
        if self
            .selected_item
            .as_ref()
            .is_some_and(|item| !item.is_in(&document.scene))
        {
            self.selected_item = None;
        }
        ui.horizontal(|ui| {
            ui.strong("Preview");
            let dirty = if document.is_dirty() { " •" } else { "" };
            ui.weak(format!("{}{dirty}", document.name()));
        });
        self.toolbar(document, ui, open);
        self.selected_item_bar(document, ui);
        for problem in &self.host.problems {
            ui.colored_label(
                egui::Color32::from_rgb(235, 110, 90),
                format!("• {problem}"),
            );
        }
        for warning in &self.host.warnings {
            ui.colored_label(
                egui::Color32::from_rgb(235, 190, 90),
                format!("• {warning}"),
            );
        }
        if self.tool == Tool::PaintField {
            commands.extend(self.field_panel(document, ui));
        }
        egui::Panel::bottom("metrics")
            .resizable(true)
            .default_size(170.0)
            .show(ui, |ui| {
                plots::show(ui, self.host.shown_samples(), self.host.time);
            });
        // Under the viewport, above the plots: the run so far, to go back to.
        egui::Panel::bottom("timeline")
            .resizable(false)
            .show(ui, |ui| self.timeline(ui));
        self.viewport(document, ui);
        commands.extend(self.apply_edits(document).into_iter().map(Command::Notice));
        commands
    }
}

/// The scene that goes with the graph file `graph_name`: `<stem>.scene.ron` beside
/// `graph_path`, else the embedded preset scene that uses it, else a small scene of 30 agents
/// running it.
pub fn scene_for_graph(graph_name: &str, graph_path: Option<&Path>) -> SceneDocument {
    let stem = graph_name.strip_suffix(".graph.ron").unwrap_or(graph_name);
    let scene_name = format!("{stem}.scene.ron");
    if let Some(path) = graph_path
        .and_then(Path::parent)
        .map(|d| d.join(&scene_name))
        && let Ok(scene) = Scene::load(&path)
        && scene.groups.iter().any(|g| g.graph == graph_name)
    {
        return SceneDocument::new(scene, Some(path), scene_name);
    }
    let preset = presets::SCENES.iter().find_map(|p| {
        Scene::from_ron(p.text, p.file)
            .ok()
            .filter(|s| s.groups.iter().any(|g| g.graph == graph_name))
            .map(|scene| (scene, p.file))
    });
    if let Some((scene, file)) = preset {
        return SceneDocument::from_preset(scene, file);
    }
    SceneDocument::new(default_scene(graph_name), None, scene_name)
}

/// The scene `scene`, opened from `path`.
pub fn scene_at(scene: Scene, path: PathBuf) -> SceneDocument {
    let label = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    SceneDocument::new(scene, Some(path), label)
}

/// A scene for a graph without one: 30 agents in a 80 × 60 world around the cursor.
fn default_scene(graph_name: &str) -> Scene {
    Scene {
        bounds: WorldRect::new(Vec2::new(-40.0, -30.0), Vec2::new(40.0, 30.0)),
        seed: 1,
        targets: [("cursor".to_owned(), Vec2::new(10.0, 5.0))].into(),
        groups: vec![AgentGroup {
            goals: BTreeMap::new(),
            name: "agents".to_owned(),
            graph: graph_name.to_owned(),
            spawn: Spawn::Random {
                count: 30,
                area: Area::Circle {
                    center: Vec2::ZERO,
                    radius: 25.0,
                },
                speed: 1.0,
            },
            vehicle: None,
            turning: None,
            tags: vec!["agent".to_owned()],
            avoidance: None,
            parameters: BTreeMap::new(),
        }],
        ..Scene::default()
    }
}
