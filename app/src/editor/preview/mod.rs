//! The live preview: the open graph drives agents in a scene beside the node editor, with
//! debug guides, an agent inspector, scene editing and live metrics.

mod plots;
mod view;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use egui::{Color32, Key, PointerButton, Rect, Sense, Ui};
use glam::Vec2;
use graph_runtime::{
    AgentGroup, Area, Brush, FlowField, FlowFieldSource, Graph, MetricsTracker, NodeId, Obstacle,
    Path as WorldPath, Program, Rect as WorldRect, Scene, SceneAssets, Simulation, Spawn,
    StrokeKind, Trace,
};

pub use view::{Guides, View, group_color, node_color};

use super::presets;

/// The preview's fixed tick (s).
pub const TICK: f32 = 1.0 / 60.0;
/// Most ticks run in one frame, so a slow frame cannot snowball.
const MAX_TICKS_PER_FRAME: u32 = 6;
/// Seconds of metrics kept for the plots.
pub const METRICS_SECONDS: f32 = 30.0;
/// Seconds between metric samples (overlap onsets are counted between samples).
const METRICS_PERIOD: f32 = 0.1;
/// Screen points within which a click picks an item.
const PICK_DISTANCE: f32 = 8.0;

/// The graph open in the editor, as the preview needs it.
pub struct OpenGraph<'a> {
    /// The file name scene groups use for it (`boids.graph.ron`).
    pub name: &'a str,
    /// The graph as it is now.
    pub graph: &'a Graph,
    /// Its compiled program, when it compiles.
    pub program: Option<Arc<Program>>,
    /// Changes whenever the graph is recompiled.
    pub revision: u64,
}

/// What the scene tools do on a click in the viewport.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Select agents and scene items, drag targets, obstacles and path points.
    #[default]
    Select,
    /// Click to add an obstacle.
    AddObstacle,
    /// Click to add points to the selected path (or a new one).
    DrawPath,
    /// Paint, erase or smooth the selected flow field with the brush.
    PaintField,
}

/// A selected or dragged scene item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A named target.
    Target(String),
    /// An obstacle by index.
    Obstacle(usize),
    /// A path (and one of its points).
    Path(String, Option<usize>),
}

/// What one undo step of the scene restores: the scene and the working copies of its fields.
#[derive(Clone, Debug, Default, PartialEq)]
struct Snapshot {
    scene: Scene,
    fields: BTreeMap<String, FlowField>,
}

/// Settings of the flow-field paint tool.
#[derive(Clone, Debug, PartialEq)]
pub struct PaintSettings {
    /// The brush.
    pub brush: Brush,
    /// Paint, erase or smooth.
    pub kind: StrokeKind,
    /// The field being edited.
    pub field: Option<String>,
    /// Cell size for new or resized fields (units).
    pub cell_size: f32,
    /// Direction of Fill (degrees, 0 = +x).
    pub fill_angle: f32,
    /// Target name for the "toward target" generator.
    pub target: String,
    /// Clearance around obstacles for the generator (units).
    pub clearance: f32,
    /// Range and strength of the "away from obstacles" generator.
    pub repulsion: (f32, f32),
}

impl Default for PaintSettings {
    fn default() -> Self {
        Self {
            brush: Brush {
                radius: 3.0,
                strength: 0.6,
                softness: 0.5,
            },
            kind: StrokeKind::Paint,
            field: None,
            cell_size: 1.0,
            fill_angle: 0.0,
            target: "cursor".to_owned(),
            clearance: 0.5,
            repulsion: (2.0, 0.5),
        }
    }
}

/// The live preview.
pub struct Preview {
    /// The scene being edited and run.
    pub scene: Scene,
    /// Where the scene is saved, if anywhere.
    pub scene_path: Option<PathBuf>,
    /// Shown when the scene has no path (a preset's file name, or "untitled").
    pub scene_label: String,
    /// The running simulation, when the scene builds.
    pub simulation: Option<Simulation>,
    /// Why the scene does not build (with places).
    pub problems: Vec<String>,
    /// Whether time runs.
    pub running: bool,
    /// Simulated seconds per real second.
    pub time_scale: f32,
    accumulator: f32,
    /// Simulated time since the last reset (s).
    pub time: f32,
    /// The camera.
    pub view: View,
    fit_pending: bool,
    /// The agent shown in the inspector.
    pub selected_agent: Option<usize>,
    /// The scene tool.
    pub tool: Tool,
    /// The selected scene item.
    pub selected_item: Option<Item>,
    dragging: Option<Item>,
    /// Guides to draw.
    pub guides: Guides,
    /// Color flow-field arrows by direction.
    pub color_arrows: bool,
    /// The selected agent's evaluation this frame.
    pub trace: Trace,
    trace_root: Option<NodeId>,
    metrics: MetricsTracker,
    /// Recent metric samples.
    pub samples: std::collections::VecDeque<graph_runtime::Sample>,
    /// Working copies of the scene's flow fields (painted live, saved with the scene).
    pub fields: BTreeMap<String, FlowField>,
    fields_revision: u64,
    applied_fields_revision: u64,
    /// The paint tool's settings.
    pub paint: PaintSettings,
    last_stroke: Option<Vec2>,
    committed: Snapshot,
    saved: Snapshot,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    applied_revision: Option<u64>,
    built: Option<(Scene, String)>,
    /// Milliseconds of the last frame's simulation ticks.
    pub tick_ms: f32,
    /// Ticks run in the last frame.
    pub ticks_last_frame: u32,
    cursor: Option<Vec2>,
}

impl Preview {
    /// A preview of `scene`, saved at `path` (or labelled `label`).
    pub fn new(scene: Scene, path: Option<PathBuf>, label: String) -> Self {
        let mut preview = Self {
            fields: BTreeMap::new(),
            fields_revision: 1,
            applied_fields_revision: 0,
            paint: PaintSettings::default(),
            last_stroke: None,
            committed: Snapshot::default(),
            saved: Snapshot::default(),
            scene,
            scene_path: path,
            scene_label: label,
            simulation: None,
            problems: Vec::new(),
            running: true,
            time_scale: 1.0,
            accumulator: 0.0,
            time: 0.0,
            view: View::default(),
            fit_pending: true,
            selected_agent: None,
            tool: Tool::Select,
            selected_item: None,
            dragging: None,
            guides: Guides::default(),
            color_arrows: false,
            trace: Trace::default(),
            trace_root: None,
            metrics: MetricsTracker::default(),
            samples: std::collections::VecDeque::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            applied_revision: None,
            built: None,
            tick_ms: 0.0,
            ticks_last_frame: 0,
            cursor: None,
        };
        preview.load_fields();
        preview.committed = preview.snapshot();
        preview.saved = preview.committed.clone();
        preview
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            scene: self.scene.clone(),
            fields: self.fields.clone(),
        }
    }

    /// Loads every flow field of the scene into the working copies.
    fn load_fields(&mut self) {
        self.fields.clear();
        let sources = self.scene.flow_fields.clone();
        for (name, source) in sources {
            match source {
                FlowFieldSource::Inline(field) => {
                    self.fields.insert(name, field);
                }
                FlowFieldSource::File(file) => match self.load_field(&file) {
                    Ok(field) => {
                        self.fields.insert(name, field);
                    }
                    Err(problem) => self
                        .problems
                        .push(format!("flow field \"{name}\": {problem}")),
                },
            }
        }
        self.paint.field = self.fields.keys().next().cloned();
        self.fields_revision += 1;
    }

    /// Writes painted fields back: inline ones into the scene, file ones beside it (each as
    /// its own `.flow.ron`, atomically). Call before saving the scene at `path`.
    pub fn write_fields(&mut self, path: &Path) -> Result<(), String> {
        let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for (name, source) in &mut self.scene.flow_fields {
            let Some(field) = self.fields.get(name) else {
                continue;
            };
            match source {
                FlowFieldSource::Inline(stored) => stored.clone_from(field),
                FlowFieldSource::File(file) => {
                    if self.saved.fields.get(name) != Some(field)
                        || !directory.join(&*file).exists()
                    {
                        field
                            .save(&directory.join(&*file))
                            .map_err(|e| format!("flow field \"{name}\": {e}"))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The scene that goes with graph file `graph_name`: `<stem>.scene.ron` beside `graph_path`,
    /// else the embedded preset scene that uses it, else a small scene of 30 agents running it.
    pub fn for_graph(graph_name: &str, graph_path: Option<&Path>) -> Self {
        let stem = graph_name.strip_suffix(".graph.ron").unwrap_or(graph_name);
        let scene_name = format!("{stem}.scene.ron");
        if let Some(path) = graph_path
            .and_then(Path::parent)
            .map(|d| d.join(&scene_name))
            && let Ok(scene) = Scene::load(&path)
        {
            return Self::new(scene, Some(path), scene_name);
        }
        if let Some(preset) = presets::SCENES.iter().find(|p| {
            Scene::from_ron(p.text, p.file)
                .is_ok_and(|s| s.groups.iter().any(|g| g.graph == graph_name))
        }) && let Ok(scene) = Scene::from_ron(preset.text, preset.file)
        {
            return Self::new(scene, None, preset.file.to_owned());
        }
        Self::new(default_scene(graph_name), None, scene_name)
    }

    /// Whether the scene differs from what was opened or saved.
    pub fn is_dirty(&self) -> bool {
        self.committed != self.saved
    }

    /// Marks the scene as saved at `path`.
    pub fn mark_saved(&mut self, path: PathBuf) {
        self.scene_path = Some(path);
        self.saved = self.committed.clone();
    }

    /// Marks the scene as differing from disk whatever it holds (recovered work).
    pub fn mark_unsaved(&mut self) {
        self.saved = Snapshot::default();
    }

    /// Restores a snapshot as the live state.
    fn restore(&mut self) {
        self.scene = self.committed.scene.clone();
        self.fields = self.committed.fields.clone();
        self.fields_revision += 1;
    }

    /// Records a scene change as one undo step (when not dragging).
    pub fn commit(&mut self) -> bool {
        if self.scene == self.committed.scene && self.fields == self.committed.fields {
            return false;
        }
        let snapshot = self.snapshot();
        let previous = std::mem::replace(&mut self.committed, snapshot);
        self.undo.push(previous);
        self.redo.clear();
        true
    }

    /// Undoes the last scene change.
    pub fn undo(&mut self) {
        if let Some(previous) = self.undo.pop() {
            self.redo
                .push(std::mem::replace(&mut self.committed, previous));
            self.restore();
        }
    }

    /// Redoes the last undone scene change.
    pub fn redo(&mut self) {
        if let Some(next) = self.redo.pop() {
            self.undo.push(std::mem::replace(&mut self.committed, next));
            self.restore();
        }
    }

    fn directory(&self) -> Option<PathBuf> {
        self.scene_path
            .as_ref()
            .and_then(|p| p.parent())
            .map(Path::to_path_buf)
    }

    /// Loads the graph file `name` of another group: beside the scene, else an embedded preset.
    fn load_graph(&self, name: &str) -> Result<Graph, String> {
        if let Some(directory) = self.directory() {
            let path = directory.join(name);
            if path.exists() {
                return Graph::load(&path).map_err(|e| e.to_string());
            }
        }
        presets::GRAPHS.iter().find(|p| p.file == name).map_or_else(
            || Err(format!("graph file \"{name}\" not found beside the scene")),
            |p| Graph::from_ron(p.text, p.file).map_err(|e| e.to_string()),
        )
    }

    fn load_field(&self, file: &str) -> Result<FlowField, String> {
        if let Some(directory) = self.directory() {
            let path = directory.join(file);
            if path.exists() {
                return FlowField::load(&path).map_err(|e| e.to_string());
            }
        }
        presets::SCENES.iter().find(|p| p.file == file).map_or_else(
            || {
                Err(format!(
                    "flow field file \"{file}\" not found beside the scene"
                ))
            },
            |p| FlowField::from_ron(p.text, p.file).map_err(|e| e.to_string()),
        )
    }

    /// Rebuilds the simulation from the scene (agents go back to their spawn places).
    pub fn reset(&mut self, open: &OpenGraph<'_>) {
        self.problems.clear();
        self.simulation = None;
        self.time = 0.0;
        self.accumulator = 0.0;
        self.samples.clear();
        self.metrics = MetricsTracker::default();
        let mut scene = self.scene.clone();
        scene
            .targets
            .entry("cursor".to_owned())
            .or_insert(Vec2::ZERO);
        let mut graphs = BTreeMap::new();
        for group in &scene.groups {
            if graphs.contains_key(&group.graph) {
                continue;
            }
            let graph = if group.graph == open.name {
                Ok(open.graph.clone())
            } else {
                self.load_graph(&group.graph)
            };
            match graph {
                Ok(graph) => {
                    graphs.insert(group.graph.clone(), graph);
                }
                Err(problem) => self
                    .problems
                    .push(format!("group \"{}\": {problem}", group.name)),
            }
        }
        let flow_fields = self.fields.clone();
        self.applied_fields_revision = self.fields_revision;
        if !self.problems.is_empty() {
            return;
        }
        let origin = self
            .scene_path
            .as_ref()
            .map_or_else(|| self.scene_label.clone(), |p| p.display().to_string());
        let assets = SceneAssets {
            scene,
            origin,
            graphs,
            flow_fields,
        };
        match Simulation::new(&assets) {
            Ok(simulation) => {
                self.simulation = Some(simulation);
                self.applied_revision = Some(open.revision);
                if self.selected_agent.is_some_and(|a| a >= self.agent_count()) {
                    self.selected_agent = None;
                }
            }
            Err(errors) => self.problems = errors.iter().map(ToString::to_string).collect(),
        }
        self.built = Some((self.scene.clone(), open.name.to_owned()));
    }

    /// Number of agents running.
    pub fn agent_count(&self) -> usize {
        self.simulation.as_ref().map_or(0, |s| s.vehicles().len())
    }

    /// Swaps the open graph's new program into its groups, keeping agent positions.
    fn hot_swap(&mut self, open: &OpenGraph<'_>) {
        if self.applied_revision == Some(open.revision) {
            return;
        }
        let Some(program) = open.program.clone() else {
            // Keep running the last program that compiled; the problems list says why.
            self.applied_revision = Some(open.revision);
            return;
        };
        let Some(simulation) = self.simulation.as_mut() else {
            self.applied_revision = Some(open.revision);
            return;
        };
        for (index, group) in self.scene.groups.iter().enumerate() {
            if group.graph != open.name {
                continue;
            }
            match program.parameters(&group.parameters) {
                Ok(params) => {
                    let vehicle = group.vehicle.unwrap_or_else(|| program.vehicle(&params));
                    let errors = simulation.set_program(index, Arc::clone(&program), params);
                    if let Some(agents) = simulation.groups().get(index).map(|g| g.agents.clone()) {
                        for agent in simulation
                            .vehicles_mut()
                            .get_mut(agents)
                            .into_iter()
                            .flatten()
                        {
                            agent.mass = vehicle.mass;
                            agent.max_force = vehicle.max_force;
                            agent.max_speed = vehicle.max_speed;
                            agent.radius = vehicle.radius;
                        }
                    }
                    for error in errors {
                        self.problems
                            .push(format!("group \"{}\": {error}", group.name));
                    }
                }
                Err(errors) => {
                    for error in errors {
                        self.problems
                            .push(format!("group \"{}\": {error}", group.name));
                    }
                }
            }
        }
        self.applied_revision = Some(open.revision);
    }

    /// Applies scene edits that need no reset (obstacles, targets, paths, bounds) to the
    /// running world; edits to groups or the seed reset the simulation.
    fn apply_scene(&mut self, open: &OpenGraph<'_>) {
        let needs_reset = match &self.built {
            Some((scene, name)) => {
                scene.groups != self.scene.groups
                    || scene.seed != self.scene.seed
                    || field_sources(scene) != field_sources(&self.scene)
                    || name != open.name
                    || scene.paths.keys().ne(self.scene.paths.keys())
                    || scene.targets.keys().filter(|k| *k != "cursor").ne(self
                        .scene
                        .targets
                        .keys()
                        .filter(|k| *k != "cursor"))
            }
            None => true,
        };
        if needs_reset {
            self.reset(open);
            return;
        }
        let Some(simulation) = self.simulation.as_mut() else {
            return;
        };
        let world = simulation.world_mut();
        if self.applied_fields_revision != self.fields_revision {
            for (name, field) in &self.fields {
                if let Some(live) = world.flow_field_mut(name) {
                    live.clone_from(field);
                }
            }
            self.applied_fields_revision = self.fields_revision;
        }
        world.bounds = self.scene.bounds;
        world.obstacles.clone_from(&self.scene.obstacles);
        for (name, path) in &self.scene.paths {
            world.set_path(name, path.clone());
        }
        for (name, position) in &self.scene.targets {
            if name != "cursor" {
                world.set_target(name, *position);
            }
        }
        if let Some((scene, _)) = self.built.as_mut() {
            scene.clone_from(&self.scene);
        }
    }

    /// Advances exactly one tick.
    pub fn step_once(&mut self) {
        if let Some(simulation) = self.simulation.as_mut() {
            simulation.step(TICK);
            self.time += TICK;
            if self
                .samples
                .back()
                .is_some_and(|s| self.time - s.time < METRICS_PERIOD - 1e-4)
            {
                return;
            }
            let sample = self.metrics.observe(simulation, self.time);
            self.samples.push_back(sample);
            while self
                .samples
                .front()
                .is_some_and(|s| s.time < self.time - METRICS_SECONDS)
            {
                self.samples.pop_front();
            }
        }
    }

    /// Per-frame work before drawing: follow the open graph, apply scene edits, run time.
    pub fn update(&mut self, open: &OpenGraph<'_>, frame_seconds: f32) {
        self.apply_scene(open);
        self.hot_swap(open);
        if let (Some(cursor), Some(simulation)) = (self.cursor, self.simulation.as_mut()) {
            simulation.world_mut().set_target("cursor", cursor);
        }
        let started = Instant::now();
        let mut ticks = 0;
        if self.running {
            self.accumulator += frame_seconds.min(0.25) * self.time_scale;
            while self.accumulator >= TICK && ticks < MAX_TICKS_PER_FRAME {
                self.step_once();
                self.accumulator -= TICK;
                ticks += 1;
            }
            if ticks == MAX_TICKS_PER_FRAME {
                self.accumulator = 0.0;
            }
        }
        self.ticks_last_frame = ticks;
        if ticks > 0 {
            self.tick_ms = started.elapsed().as_secs_f32() * 1000.0 / ticks as f32;
        }
        self.trace.entries.clear();
        self.trace_root = None;
        if let (Some(agent), Some(simulation)) = (self.selected_agent, self.simulation.as_ref()) {
            simulation.trace(agent, TICK, &mut self.trace);
            self.trace_root = simulation
                .group_of(agent)
                .and_then(|g| simulation.groups().get(g))
                .and_then(|g| g.program.nodes().last().copied());
        }
    }

    /// Whether the selected agent runs the open graph (its trace belongs to the node editor).
    pub fn trace_for_open_graph(&self, open_name: &str) -> Option<&Trace> {
        let agent = self.selected_agent?;
        let simulation = self.simulation.as_ref()?;
        let group = simulation.groups().get(simulation.group_of(agent)?)?;
        (group.graph == open_name && !self.trace.entries.is_empty()).then_some(&self.trace)
    }

    fn pick_item(&self, screen: Rect, at: egui::Pos2) -> Option<Item> {
        let world = self.view.to_world(screen, at);
        let near = |p: Vec2| self.view.to_screen(screen, p).distance(at) <= PICK_DISTANCE;
        if let Some((name, _)) = self
            .scene
            .targets
            .iter()
            .find(|(name, p)| *name != "cursor" && near(**p))
        {
            return Some(Item::Target(name.clone()));
        }
        for (name, path) in &self.scene.paths {
            if let Some(index) = path.points.iter().position(|p| near(*p)) {
                return Some(Item::Path(name.clone(), Some(index)));
            }
        }
        self.scene
            .obstacles
            .iter()
            .position(|o| o.center.distance(world) <= o.radius.max(PICK_DISTANCE / self.view.zoom))
            .map(Item::Obstacle)
    }

    fn pick_agent(&self, screen: Rect, at: egui::Pos2) -> Option<usize> {
        let simulation = self.simulation.as_ref()?;
        simulation
            .vehicles()
            .iter()
            .enumerate()
            .map(|(i, v)| {
                (
                    i,
                    self.view.to_screen(screen, v.position).distance(at),
                    v.radius * self.view.zoom,
                )
            })
            .filter(|(_, distance, radius)| *distance <= radius.max(4.0) + 4.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _, _)| i)
    }

    /// Moves `item` to world point `to`.
    fn move_item(&mut self, item: &Item, to: Vec2) {
        match item {
            Item::Target(name) => {
                if let Some(p) = self.scene.targets.get_mut(name) {
                    *p = to;
                }
            }
            Item::Obstacle(index) => {
                if let Some(o) = self.scene.obstacles.get_mut(*index) {
                    o.center = to;
                }
            }
            Item::Path(name, Some(point)) => {
                if let Some(p) = self
                    .scene
                    .paths
                    .get_mut(name)
                    .and_then(|p| p.points.get_mut(*point))
                {
                    *p = to;
                }
            }
            Item::Path(_, None) => {}
        }
    }

    /// Deletes the selected item (an obstacle, a path point, a target).
    pub fn delete_selected(&mut self) {
        match self.selected_item.take() {
            Some(Item::Obstacle(index)) if index < self.scene.obstacles.len() => {
                self.scene.obstacles.remove(index);
            }
            Some(Item::Path(name, Some(point))) => {
                if let Some(path) = self.scene.paths.get_mut(&name) {
                    if point < path.points.len() {
                        path.points.remove(point);
                    }
                    if path.points.is_empty() {
                        self.scene.paths.remove(&name);
                    }
                }
            }
            Some(Item::Path(name, None)) => {
                self.scene.paths.remove(&name);
            }
            Some(Item::Target(name)) => {
                self.scene.targets.remove(&name);
            }
            _ => {}
        }
    }

    /// A click of the current tool at world point `at`.
    pub fn click_tool(&mut self, at: Vec2) {
        match self.tool {
            Tool::AddObstacle => {
                self.scene.obstacles.push(Obstacle {
                    center: at,
                    radius: 3.0,
                });
                self.selected_item = Some(Item::Obstacle(self.scene.obstacles.len() - 1));
            }
            Tool::DrawPath => {
                let name = match &self.selected_item {
                    Some(Item::Path(name, _)) if self.scene.paths.contains_key(name) => {
                        name.clone()
                    }
                    _ => {
                        let name = (1..=self.scene.paths.len() + 1)
                            .map(|i| format!("path {i}"))
                            .find(|n| !self.scene.paths.contains_key(n))
                            .unwrap_or_default();
                        self.scene.paths.insert(
                            name.clone(),
                            WorldPath {
                                points: Vec::new(),
                                radius: 2.0,
                                closed: false,
                            },
                        );
                        name
                    }
                };
                if let Some(path) = self.scene.paths.get_mut(&name) {
                    path.points.push(at);
                    self.selected_item = Some(Item::Path(name, Some(path.points.len() - 1)));
                }
            }
            Tool::Select | Tool::PaintField => {}
        }
    }

    /// The viewport: paints the scene and handles pan, zoom, picking and the tools.
    pub fn viewport(&mut self, ui: &mut Ui) {
        let (screen, response) =
            ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        if self.fit_pending || ui.input(|i| i.key_pressed(Key::Home)) && response.hovered() {
            self.view = View::fit(self.scene.bounds, screen);
            self.fit_pending = false;
        }
        // Pan with the middle button, or Space + drag.
        let space = ui.input(|i| i.key_down(Key::Space));
        if response.dragged_by(PointerButton::Middle)
            || (space && response.dragged_by(PointerButton::Primary))
        {
            self.view.pan(response.drag_delta());
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0
                && let Some(anchor) = response.hover_pos()
            {
                self.view
                    .zoom_around(screen, anchor, (scroll * 0.002).exp());
            }
        }
        self.cursor = response
            .hover_pos()
            .map(|p| self.view.to_world(screen, p))
            .or(self.cursor);
        if !space && self.tool == Tool::PaintField {
            let at = response
                .interact_pointer_pos()
                .map(|p| self.view.to_world(screen, p));
            if response.drag_started_by(PointerButton::Primary) {
                self.last_stroke = at;
            } else if response.dragged_by(PointerButton::Primary)
                && let (Some(from), Some(to)) = (self.last_stroke, at)
            {
                self.stroke(from, to);
                self.last_stroke = Some(to);
            }
            if response.drag_stopped() {
                self.last_stroke = None;
            }
        } else if !space {
            if response.drag_started_by(PointerButton::Primary) && self.tool == Tool::Select {
                self.dragging = response
                    .interact_pointer_pos()
                    .and_then(|p| self.pick_item(screen, p));
                if self.dragging.is_some() {
                    self.selected_item.clone_from(&self.dragging);
                }
            }
            if let (Some(item), Some(p)) = (self.dragging.clone(), response.interact_pointer_pos())
                && response.dragged_by(PointerButton::Primary)
            {
                self.move_item(&item, self.view.to_world(screen, p));
            }
            if response.drag_stopped() {
                self.dragging = None;
            }
            if response.clicked()
                && let Some(p) = response.interact_pointer_pos()
            {
                match self.tool {
                    Tool::Select => {
                        if let Some(agent) = self.pick_agent(screen, p) {
                            self.selected_agent = Some(agent);
                        } else if let Some(item) = self.pick_item(screen, p) {
                            self.selected_item = Some(item);
                        } else {
                            self.selected_agent = None;
                            self.selected_item = None;
                        }
                    }
                    _ => self.click_tool(self.view.to_world(screen, p)),
                }
            }
        }
        if response.hovered()
            && !ui.ctx().egui_wants_keyboard_input()
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Delete))
        {
            self.delete_selected();
        }

        let painter = ui.painter_at(screen);
        painter.rect_filled(screen, 0.0, Color32::from_rgb(18, 20, 24));
        match &self.simulation {
            Some(simulation) => {
                view::paint_world(
                    &painter,
                    screen,
                    &self.view,
                    simulation.world(),
                    self.color_arrows,
                );
                view::paint_agents(
                    &painter,
                    screen,
                    &self.view,
                    simulation.vehicles(),
                    |agent| simulation.group_of(agent).unwrap_or(0),
                    self.selected_agent,
                );
                if let Some(vehicle) = self
                    .selected_agent
                    .and_then(|a| simulation.vehicles().get(a))
                {
                    view::paint_guides(
                        &painter,
                        screen,
                        &self.view,
                        vehicle,
                        &self.trace,
                        self.trace_root,
                        &self.guides,
                    );
                }
            }
            None => {
                painter.text(
                    screen.center(),
                    egui::Align2::CENTER_CENTER,
                    "The scene does not run: see its problems",
                    egui::FontId::proportional(15.0),
                    Color32::from_rgb(235, 110, 90),
                );
            }
        }
        self.paint_selection(&painter, screen);
        if self.tool == Tool::PaintField
            && let Some(hover) = response.hover_pos()
        {
            painter.circle_stroke(
                hover,
                self.paint.brush.radius * self.view.zoom,
                egui::Stroke::new(1.0, Color32::from_rgb(240, 240, 240)),
            );
        }
    }

    /// One segment of a brush stroke on the selected field (and live in the running world).
    pub fn stroke(&mut self, from: Vec2, to: Vec2) {
        let Some(name) = self.paint.field.clone() else {
            return;
        };
        let (kind, brush) = (self.paint.kind, self.paint.brush);
        if let Some(field) = self.fields.get_mut(&name)
            && field.stroke(kind, from, to, &brush)
        {
            self.fields_revision += 1;
        }
    }

    /// The flow-field panel: pick, create, resize, fill, clear, generate; brush settings.
    pub fn field_panel(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label("field");
            let selected = self
                .paint
                .field
                .clone()
                .unwrap_or_else(|| "none".to_owned());
            egui::ComboBox::from_id_salt("paint-field")
                .selected_text(selected)
                .show_ui(ui, |ui| {
                    for name in self.fields.keys() {
                        ui.selectable_value(&mut self.paint.field, Some(name.clone()), name);
                    }
                });
            ui.add(
                egui::DragValue::new(&mut self.paint.cell_size)
                    .range(0.1..=100.0)
                    .speed(0.05)
                    .prefix("cell ")
                    .suffix(" u"),
            );
            if ui.button("New over bounds").clicked() {
                let name = (1..=self.fields.len() + 1)
                    .map(|i| format!("field {i}"))
                    .find(|n| !self.fields.contains_key(n))
                    .unwrap_or_default();
                let field = FlowField::covering(self.scene.bounds, self.paint.cell_size);
                self.scene
                    .flow_fields
                    .insert(name.clone(), FlowFieldSource::Inline(field.clone()));
                self.fields.insert(name.clone(), field);
                self.paint.field = Some(name);
                self.fields_revision += 1;
            }
        });
        let Some(name) = self.paint.field.clone() else {
            ui.weak("No flow field: create one over the scene's bounds.");
            return;
        };
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.paint.kind, StrokeKind::Paint, "Paint");
            ui.selectable_value(&mut self.paint.kind, StrokeKind::Erase, "Erase");
            ui.selectable_value(&mut self.paint.kind, StrokeKind::Smooth, "Smooth");
            let brush = &mut self.paint.brush;
            ui.add(
                egui::DragValue::new(&mut brush.radius)
                    .range(0.1..=200.0)
                    .speed(0.05)
                    .prefix("radius ")
                    .suffix(" u"),
            );
            ui.add(
                egui::DragValue::new(&mut brush.strength)
                    .range(0.0..=1.0)
                    .speed(0.01)
                    .prefix("strength "),
            );
            ui.add(
                egui::DragValue::new(&mut brush.softness)
                    .range(0.0..=1.0)
                    .speed(0.01)
                    .prefix("soft "),
            );
        });
        let directory = self.directory();
        let Some(field) = self.fields.get_mut(&name) else {
            return;
        };
        let mut changed = false;
        ui.horizontal(|ui| {
            if ui
                .button("Resize")
                .on_hover_text("Resample to the cell size above")
                .clicked()
            {
                *field = field.resampled(self.paint.cell_size);
                changed = true;
            }
            ui.add(
                egui::DragValue::new(&mut self.paint.fill_angle)
                    .range(-360.0..=360.0)
                    .suffix("°"),
            );
            if ui.button("Fill").clicked() {
                field.fill(Vec2::from_angle(self.paint.fill_angle.to_radians()));
                changed = true;
            }
            if ui.button("Clear").clicked() {
                field.clear();
                changed = true;
            }
        });
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("generate-target")
                .selected_text(self.paint.target.clone())
                .show_ui(ui, |ui| {
                    for target in self.scene.targets.keys() {
                        ui.selectable_value(&mut self.paint.target, target.clone(), target);
                    }
                });
            ui.add(
                egui::DragValue::new(&mut self.paint.clearance)
                    .range(0.0..=50.0)
                    .speed(0.05)
                    .prefix("clearance "),
            );
            if ui
                .button("Toward target")
                .on_hover_text("Lead every reachable cell to the target around obstacles")
                .clicked()
            {
                let target = self
                    .scene
                    .targets
                    .get(&self.paint.target)
                    .copied()
                    .or(self.cursor)
                    .unwrap_or_default();
                field.generate_toward(target, &self.scene.obstacles, self.paint.clearance);
                changed = true;
            }
        });
        ui.horizontal(|ui| {
            let (range, strength) = &mut self.paint.repulsion;
            ui.add(
                egui::DragValue::new(range)
                    .range(0.1..=100.0)
                    .speed(0.05)
                    .prefix("range "),
            );
            ui.add(
                egui::DragValue::new(strength)
                    .range(0.0..=1.0)
                    .speed(0.01)
                    .prefix("strength "),
            );
            if ui.button("Away from obstacles").clicked() {
                field.add_repulsion(&self.scene.obstacles, *range, *strength);
                changed = true;
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Save field as…").clicked()
                && let Some(path) = rfd::FileDialog::new()
                    .add_filter("Steergraph flow field", &["ron"])
                    .set_file_name(format!("{name}.flow.ron"))
                    .save_file()
            {
                match field.save(&path) {
                    Ok(()) => {
                        let file = match &directory {
                            Some(dir) => path.strip_prefix(dir).map_or_else(
                                |_| path.display().to_string(),
                                |p| p.display().to_string(),
                            ),
                            None => path.display().to_string(),
                        };
                        self.scene
                            .flow_fields
                            .insert(name.clone(), FlowFieldSource::File(file));
                    }
                    Err(error) => self.problems.push(error.to_string()),
                }
            }
            if ui.button("Load field…").clicked()
                && let Some(path) = rfd::FileDialog::new()
                    .add_filter("Steergraph flow field", &["ron"])
                    .pick_file()
            {
                match FlowField::load(&path) {
                    Ok(loaded) => {
                        *field = loaded;
                        changed = true;
                    }
                    Err(error) => self.problems.push(error.to_string()),
                }
            }
            ui.weak(format!("{} × {} cells", field.width, field.height));
        });
        if changed {
            self.fields_revision += 1;
        }
    }

    fn paint_selection(&self, painter: &egui::Painter, screen: Rect) {
        let highlight = egui::Stroke::new(2.0, Color32::from_rgb(255, 230, 120));
        match &self.selected_item {
            Some(Item::Obstacle(index)) => {
                if let Some(o) = self.scene.obstacles.get(*index) {
                    painter.circle_stroke(
                        self.view.to_screen(screen, o.center),
                        o.radius * self.view.zoom + 3.0,
                        highlight,
                    );
                }
            }
            Some(Item::Path(name, point)) => {
                if let Some(path) = self.scene.paths.get(name) {
                    for (index, p) in path.points.iter().enumerate() {
                        let radius = if Some(index) == *point { 6.0 } else { 4.0 };
                        painter.circle_stroke(self.view.to_screen(screen, *p), radius, highlight);
                    }
                }
            }
            Some(Item::Target(name)) => {
                if let Some(p) = self.scene.targets.get(name) {
                    painter.circle_stroke(self.view.to_screen(screen, *p), 9.0, highlight);
                }
            }
            None => {}
        }
    }

    /// Play/pause, step, reset, time scale, tools and guides.
    pub fn toolbar(&mut self, ui: &mut Ui, open: &OpenGraph<'_>) {
        ui.horizontal_wrapped(|ui| {
            let play = if self.running {
                "⏸ Pause"
            } else {
                "▶ Play"
            };
            if ui.button(play).clicked() {
                self.running = !self.running;
            }
            if ui
                .button("Step")
                .on_hover_text("Advance exactly one tick")
                .clicked()
            {
                self.running = false;
                self.step_once();
            }
            if ui.button("Reset").clicked() {
                self.reset(open);
            }
            ui.add(
                egui::DragValue::new(&mut self.time_scale)
                    .range(0.0..=8.0)
                    .speed(0.01)
                    .prefix("×"),
            )
            .on_hover_text("Time scale");
            ui.label(format!("t = {:.1} s", self.time));
            if ui
                .button("Fit")
                .on_hover_text("Fit the scene (Home)")
                .clicked()
            {
                self.fit_pending = true;
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.tool, Tool::Select, "Select");
            ui.selectable_value(&mut self.tool, Tool::AddObstacle, "Add obstacle");
            ui.selectable_value(&mut self.tool, Tool::DrawPath, "Draw path");
            ui.selectable_value(&mut self.tool, Tool::PaintField, "Paint field");
            if ui
                .add_enabled(self.selected_item.is_some(), egui::Button::new("Delete"))
                .clicked()
            {
                self.delete_selected();
            }
            ui.menu_button("Guides", |ui| {
                let g = &mut self.guides;
                ui.checkbox(&mut g.velocity, "velocity");
                ui.checkbox(&mut g.steering, "final steering force");
                ui.checkbox(&mut g.node_forces, "each node's force");
                ui.checkbox(&mut g.neighborhood, "neighborhood and field of view");
                ui.checkbox(&mut g.corridor, "avoidance corridor");
                ui.checkbox(&mut g.wander, "wander circle and aim");
                ui.checkbox(&mut g.path, "path projection and aim");
                ui.checkbox(&mut g.flow, "flow-field sample");
                ui.checkbox(&mut g.aims, "aim points");
                ui.separator();
                ui.checkbox(&mut self.color_arrows, "color flow arrows by direction");
            });
        });
    }

    /// The inspector of the selected agent, for the side panel.
    pub fn agent_inspector(&mut self, ui: &mut Ui) {
        let Some(simulation) = self.simulation.as_ref() else {
            return;
        };
        let Some(agent) = self.selected_agent else {
            ui.weak("Click an agent in the preview to inspect it.");
            return;
        };
        let Some(vehicle) = simulation.vehicles().get(agent) else {
            return;
        };
        let group = simulation
            .group_of(agent)
            .and_then(|g| simulation.groups().get(g));
        ui.label(format!(
            "Agent {agent} of group \"{}\"",
            group.map_or("?", |g| g.name.as_str())
        ));
        egui::Grid::new("agent").num_columns(2).show(ui, |ui| {
            ui.label("position");
            ui.label(format!(
                "({:.2}, {:.2})",
                vehicle.position.x, vehicle.position.y
            ));
            ui.end_row();
            ui.label("velocity");
            ui.label(format!(
                "({:.2}, {:.2})",
                vehicle.velocity.x, vehicle.velocity.y
            ));
            ui.end_row();
            ui.label("speed");
            ui.label(format!(
                "{:.2} / {:.2} u/s",
                vehicle.velocity.length(),
                vehicle.max_speed
            ));
            ui.end_row();
            ui.label("heading");
            ui.label(format!(
                "{:.0}°",
                vehicle.forward.y.atan2(vehicle.forward.x).to_degrees()
            ));
            ui.end_row();
            let force = simulation.forces().get(agent).copied().unwrap_or_default();
            ui.label("steering");
            ui.label(format!("{:.2} / {:.2}", force.length(), vehicle.max_force));
            ui.end_row();
            ui.label("mass, radius");
            ui.label(format!("{:.2}, {:.2}", vehicle.mass, vehicle.radius));
            ui.end_row();
        });
        if ui.small_button("Deselect").clicked() {
            self.selected_agent = None;
        }
    }

    /// Scene settings for the side panel: bounds, seed, groups and the selected item.
    pub fn scene_panel(&mut self, ui: &mut Ui) {
        let scene = &mut self.scene;
        ui.horizontal(|ui| {
            ui.label("seed");
            ui.add(egui::DragValue::new(&mut scene.seed));
        });
        ui.horizontal(|ui| {
            ui.label("bounds");
            for value in [
                &mut scene.bounds.min.x,
                &mut scene.bounds.min.y,
                &mut scene.bounds.max.x,
                &mut scene.bounds.max.y,
            ] {
                ui.add(egui::DragValue::new(value).speed(0.5));
            }
        });
        match self.selected_item.clone() {
            Some(Item::Obstacle(index)) => {
                if let Some(obstacle) = scene.obstacles.get_mut(index) {
                    ui.horizontal(|ui| {
                        ui.label(format!("obstacle {index} radius"));
                        ui.add(
                            egui::DragValue::new(&mut obstacle.radius)
                                .range(0.1..=1000.0)
                                .speed(0.05)
                                .suffix(" u"),
                        );
                    });
                }
            }
            Some(Item::Path(name, _)) => {
                if let Some(path) = scene.paths.get_mut(&name) {
                    ui.horizontal(|ui| {
                        ui.label(format!("{name}: radius"));
                        ui.add(
                            egui::DragValue::new(&mut path.radius)
                                .range(0.0..=1000.0)
                                .speed(0.05)
                                .suffix(" u"),
                        );
                        ui.checkbox(&mut path.closed, "closed");
                    });
                }
            }
            _ => {}
        }
        ui.separator();
        let mut remove = None;
        for (index, group) in scene.groups.iter_mut().enumerate() {
            ui.push_id(index, |ui| group_editor(ui, index, group, &mut remove));
        }
        if let Some(index) = remove {
            scene.groups.remove(index);
        }
        if ui.button("+ group").clicked() {
            let graph = scene
                .groups
                .first()
                .map(|g| g.graph.clone())
                .unwrap_or_default();
            scene.groups.push(AgentGroup {
                name: format!("group {}", scene.groups.len() + 1),
                graph,
                spawn: Spawn::Random {
                    count: 20,
                    area: Area::Rect {
                        min: scene.bounds.min,
                        max: scene.bounds.max,
                    },
                    speed: 0.0,
                },
                vehicle: None,
                tags: Vec::new(),
                parameters: BTreeMap::new(),
            });
        }
    }

    /// The metrics plots.
    pub fn metrics_panel(&self, ui: &mut Ui) {
        plots::show(ui, &self.samples, self.time);
    }
}

fn group_editor(ui: &mut Ui, index: usize, group: &mut AgentGroup, remove: &mut Option<usize>) {
    ui.horizontal(|ui| {
        ui.colored_label(group_color(index), "■");
        ui.add(egui::TextEdit::singleline(&mut group.name).desired_width(90.0));
        if let Spawn::Random { count, .. } = &mut group.spawn {
            ui.add(
                egui::DragValue::new(count)
                    .range(0..=100_000)
                    .suffix(" agents"),
            );
        } else {
            ui.label(format!("{} agents", group.spawn.count()));
        }
        if ui
            .small_button("×")
            .on_hover_text("Remove the group")
            .clicked()
        {
            *remove = Some(index);
        }
    });
    ui.horizontal(|ui| {
        ui.label("graph");
        ui.add(egui::TextEdit::singleline(&mut group.graph).desired_width(150.0));
    });
    ui.horizontal(|ui| {
        ui.label("tags");
        let mut tags = group.tags.join(", ");
        if ui
            .add(egui::TextEdit::singleline(&mut tags).desired_width(150.0))
            .changed()
        {
            group.tags = tags
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect();
        }
    });
    let mut custom = group.vehicle.is_some();
    if ui.checkbox(&mut custom, "own vehicle limits").changed() {
        group.vehicle = custom.then(graph_runtime::VehicleParams::default);
    }
    if let Some(vehicle) = &mut group.vehicle {
        ui.horizontal(|ui| {
            ui.add(
                egui::DragValue::new(&mut vehicle.mass)
                    .range(0.01..=1000.0)
                    .speed(0.01)
                    .prefix("mass "),
            );
            ui.add(
                egui::DragValue::new(&mut vehicle.max_speed)
                    .range(0.0..=1000.0)
                    .speed(0.05)
                    .prefix("speed "),
            );
            ui.add(
                egui::DragValue::new(&mut vehicle.max_force)
                    .range(0.0..=10000.0)
                    .speed(0.05)
                    .prefix("force "),
            );
            ui.add(
                egui::DragValue::new(&mut vehicle.radius)
                    .range(0.0..=100.0)
                    .speed(0.01)
                    .prefix("radius "),
            );
        });
    }
    ui.label("parameter overrides");
    let mut remove_override = None;
    for (name, value) in &mut group.parameters {
        ui.horizontal(|ui| {
            ui.label(name.as_str());
            ui.add(egui::DragValue::new(value).speed(0.05));
            if ui.small_button("×").clicked() {
                remove_override = Some(name.clone());
            }
        });
    }
    if let Some(name) = remove_override {
        group.parameters.remove(&name);
    }
    let id = ui.id().with("new-override");
    let mut new_name: String = ui.data_mut(|d| d.get_temp(id).unwrap_or_default());
    ui.horizontal(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut new_name)
                .hint_text("parameter")
                .desired_width(100.0),
        );
        if ui
            .add_enabled(!new_name.trim().is_empty(), egui::Button::new("override"))
            .clicked()
        {
            group.parameters.insert(new_name.trim().to_owned(), 1.0);
            new_name.clear();
        }
    });
    ui.data_mut(|d| d.insert_temp(id, new_name));
    ui.separator();
}

/// The names of a scene's flow fields and where each comes from (its data aside).
fn field_sources(scene: &Scene) -> Vec<(&String, Option<&String>)> {
    scene
        .flow_fields
        .iter()
        .map(|(name, source)| match source {
            FlowFieldSource::File(file) => (name, Some(file)),
            FlowFieldSource::Inline(_) => (name, None),
        })
        .collect()
}

/// A scene for a graph without one: 30 agents in a 80 × 60 world around the cursor.
fn default_scene(graph_name: &str) -> Scene {
    Scene {
        bounds: WorldRect::new(Vec2::new(-40.0, -30.0), Vec2::new(40.0, 30.0)),
        seed: 1,
        targets: [("cursor".to_owned(), Vec2::new(10.0, 5.0))].into(),
        groups: vec![AgentGroup {
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
            tags: vec!["agent".to_owned()],
            parameters: BTreeMap::new(),
        }],
        ..Scene::default()
    }
}
