//! The simulation host: builds the running `Simulation` from the scene document and the open
//! graph, hot-swaps the open graph's program, applies scene edits once per frame, runs a fixed
//! 60 Hz clock within a time budget, samples metrics and traces the selected agent.

use std::collections::VecDeque;
use std::time::Duration;

use glam::Vec2;
use graph_runtime::{
    FlowFieldSource, MetricsTracker, NodeId, OwnGoals, Sample, Scene, Simulation, Trace,
};

use super::OpenGraph;
use super::scene_doc::SceneDocument;
use super::worker::{SceneView, Worker};
#[cfg(feature = "gpu")]
pub use adopt::Motion;
use clock::crowd_growth;
pub use events::{Event, EventKind};
pub use replay::ReplayStatus;
pub use rewind::{BUDGET_MIB, MIB};

mod adopt;
mod clock;
mod diagnosis;
mod events;
mod follow;
mod ghosts;
mod history;
mod replay;
mod rewind;
mod subgraphs;

/// The preview's fixed tick (s).
pub const TICK: f32 = 1.0 / 60.0;
/// Most ticks run in one frame, so a slow frame cannot snowball.
pub(in crate::editor::preview) const MAX_TICKS_PER_FRAME: u32 = 6;
/// Most wall time spent stepping in one frame; at least one tick always runs, so the
/// window keeps answering (Pause, undo) however large the crowd.
const STEP_BUDGET: Duration = Duration::from_millis(20);
/// A tick slower than this (ms) runs on a worker thread, so the window keeps answering.
const SYNC_TICK_LIMIT_MS: f32 = 25.0;
/// A crowd larger than this, never measured, is assumed too slow for a frame.
const LARGE_UNMEASURED: usize = 5_000;
/// Seconds of metrics kept for the plots.
pub const METRICS_SECONDS: f32 = 30.0;
/// Seconds between metric samples (overlap onsets are counted between samples).
const METRICS_PERIOD: f32 = 0.1;

/// How the clock turns a frame's seconds into ticks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pacing {
    /// The window's: the ticks due, cut short once stepping has used the frame's time budget
    /// (at least one runs), and ticks too slow for a frame run on a worker thread, so the
    /// window keeps answering however large the crowd.
    #[default]
    Budgeted,
    /// Every tick due from the frames' seconds runs (at most six a frame), on this thread,
    /// however long it takes: how far the preview gets depends on the frames alone, never on
    /// how fast the machine is (the editor's tests run this way).
    Exact,
}

/// The running simulation and its clock.
pub struct Host {
    /// The running simulation, when the scene builds.
    pub simulation: Option<Simulation>,
    /// Why the scene does not build (with places).
    pub problems: Vec<String>,
    /// What may not do what the designer expects (a tag no agent carries yet).
    pub warnings: Vec<String>,
    /// Whether time runs.
    pub running: bool,
    /// Simulated seconds per real second.
    pub time_scale: f32,
    accumulator: f32,
    /// Simulated time since the last reset (s).
    pub time: f32,
    metrics: MetricsTracker,
    /// The run's metric samples, oldest first (`host/history.rs`; the plots show those up
    /// to the tick shown, [`Host::shown_samples`]).
    pub samples: VecDeque<Sample>,
    /// Each agent's first arrival at its goal in the run (s; `f32::INFINITY`: not yet), as
    /// the trackers that sampled it saw them (`host/history.rs`).
    arrivals: Vec<f32>,
    /// Each routed agent's arrival at the end of its first route in the run, with how far it
    /// walked there (`None`: not yet), as the trackers that sampled it saw them.
    route_arrivals: Vec<Option<graph_runtime::RouteArrival>>,
    /// Each stall of the run: the agent, its progress while stalled (constant), and the
    /// first sample it no longer was (`None`: still stalled), in the order they began.
    stalls: Vec<(usize, graph_runtime::StallProgress, Option<f32>)>,
    /// The stalls under way, by agent: their places in `stalls`.
    open_stalls: std::collections::BTreeMap<usize, usize>,
    /// The agent shown in the inspector and traced.
    pub selected_agent: Option<usize>,
    /// The selected agent's evaluation this frame.
    pub trace: Trace,
    /// What holds the selected agent, worked out this frame.
    pub diagnosis: Option<graph_runtime::diagnose::Diagnosis>,
    /// The root node of the selected agent's graph (its Output's input).
    pub trace_root: Option<NodeId>,
    /// The selected agent's own points and routes this frame.
    pub selected_own: OwnGoals,
    /// The selected agent's planned routes (its Navigate nodes') this frame.
    pub selected_routes: Vec<graph_runtime::RouteSlot>,
    /// Milliseconds per tick in the last frame that ticked.
    pub tick_ms: f32,
    /// Ticks run in the last frame.
    pub ticks_last_frame: u32,
    applied_revision: Option<u64>,
    applied_fields_revision: u64,
    built: Option<(Scene, String)>,
    worker: Option<Worker>,
    /// The subgraph files the scene's graphs used at the last reset, on disk.
    subgraph_files: Vec<std::path::PathBuf>,
    /// The run so far, to go back to ([`Host::seek`]).
    recording: Option<graph_runtime::rewind::Recording>,
    /// The bytes the recording may keep ([`Host::set_recording_budget`]).
    recording_budget: usize,
    /// The most agent-ticks a seek steps to see the seconds before its tick again
    /// (`host/rewind.rs`, `WATCH_WORK` unless a test sets fewer).
    pub watch_work: u64,
    /// The run's events, ascending by tick (`host/events.rs`).
    events: Vec<Event>,
    /// The simulation's wall crossings after the last tick noted.
    wall_crossings_seen: u64,
    /// The run a fork left, with its ghosts (`host/ghosts.rs`).
    original: Option<ghosts::Original>,
    /// The length of a tick (s): [`TICK`], or a replay's.
    tick_length: f32,
    /// The replay file being played, checked tick by tick (`host/replay.rs`).
    replay: Option<replay::Replaying>,
}

impl Default for Host {
    fn default() -> Self {
        Self {
            simulation: None,
            problems: Vec::new(),
            warnings: Vec::new(),
            running: true,
            time_scale: 1.0,
            accumulator: 0.0,
            time: 0.0,
            metrics: MetricsTracker::default(),
            samples: VecDeque::new(),
            arrivals: Vec::new(),
            route_arrivals: Vec::new(),
            stalls: Vec::new(),
            open_stalls: std::collections::BTreeMap::new(),
            selected_agent: None,
            trace: Trace::default(),
            diagnosis: None,
            trace_root: None,
            selected_own: OwnGoals::default(),
            selected_routes: Vec::new(),
            tick_ms: 0.0,
            ticks_last_frame: 0,
            applied_revision: None,
            applied_fields_revision: 0,
            built: None,
            worker: None,
            subgraph_files: Vec::new(),
            recording: None,
            recording_budget: graph_runtime::rewind::DEFAULT_BUDGET,
            watch_work: rewind::WATCH_WORK,
            events: Vec::new(),
            wall_crossings_seen: 0,
            original: None,
            tick_length: TICK,
            replay: None,
        }
    }
}

impl Host {
    /// Number of agents running.
    pub fn agent_count(&self) -> usize {
        // Counted without building the view (its rings, flights and falls).
        match (&self.worker, &self.simulation) {
            (Some(worker), _) => worker.frozen.vehicle_count(),
            (None, Some(simulation)) => simulation.vehicles().len(),
            (None, None) => 0,
        }
    }

    /// What the viewport draws: the simulation, or while a tick runs on the worker, the
    /// last finished tick.
    pub fn view(&self) -> Option<SceneView<'_>> {
        if let Some(worker) = &self.worker {
            return Some(worker.frozen.view());
        }
        let simulation = self.simulation.as_ref()?;
        Some(SceneView {
            world: simulation.world(),
            vehicles: simulation.vehicles(),
            groups: simulation
                .groups()
                .iter()
                .map(|g| g.agents.clone())
                .collect(),
            stuck: self.stuck_or_stalled(simulation),
            airborne: super::worker::airborne(simulation),
            fallen: simulation.fallen().collect(),
            routes: super::route_lines::RouteSource::Live(simulation),
        })
    }

    /// The agents stuck now or stalled at the last sample, ascending.
    fn stuck_or_stalled(&self, simulation: &Simulation) -> Vec<usize> {
        let mut agents: Vec<usize> = simulation.stuck_agents().collect();
        agents.extend(self.metrics.stalled_agents());
        agents.sort_unstable();
        agents.dedup();
        agents
    }

    /// How long (s) agent `agent` had come no closer to its goal at the last sample, once that
    /// counts as stalled.
    pub fn stalled_for(&self, agent: usize) -> Option<f32> {
        self.metrics.stalled_for(agent)
    }

    /// The length of the preview's tick (s): [`TICK`], or the replay's being played.
    pub fn tick_length(&self) -> f32 {
        self.tick_length
    }

    /// Whether a tick is running on the worker thread.
    pub fn is_stepping(&self) -> bool {
        self.worker.is_some()
    }

    /// Rebuilds the simulation from the scene (agents go back to their spawn places).
    pub fn reset(&mut self, document: &SceneDocument, open: &OpenGraph<'_>) {
        // A tick still running elsewhere belongs to the old scene: let it finish unseen.
        let before = self.agent_count();
        self.worker = None;
        self.problems.clone_from(&document.problems);
        self.simulation = None;
        self.recording = None;
        self.restart_replay();
        self.time = 0.0;
        self.accumulator = 0.0;
        self.samples.clear();
        self.arrivals.clear();
        self.route_arrivals.clear();
        self.stalls.clear();
        self.open_stalls.clear();
        self.metrics = MetricsTracker::default();
        self.built = Some((document.scene.clone(), open.name.to_owned()));
        self.applied_revision = Some(open.revision);
        self.applied_fields_revision = document.fields_revision();
        let assets = match document.assets(open) {
            Ok(assets) => assets,
            Err(problems) => {
                self.problems.extend(problems);
                return;
            }
        };
        self.subgraph_files = subgraphs::files(&assets, document, open);
        if !self.problems.is_empty() {
            return;
        }
        match Simulation::new(&assets) {
            Ok(simulation) => {
                // Expect the per-agent cost measured so far (or a slow tick for a large crowd
                // never measured), so a much larger crowd starts on the worker thread.
                let after = simulation.vehicles().len();
                self.tick_ms = if after == before {
                    self.tick_ms
                } else if after > before && before > 0 && self.tick_ms > 0.0 {
                    self.tick_ms * crowd_growth(before, after)
                } else if after > LARGE_UNMEASURED {
                    SYNC_TICK_LIMIT_MS * 2.0
                } else {
                    // Fewer agents: the next tick measures itself.
                    0.0
                };
                self.warnings = simulation
                    .warnings()
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                if self
                    .selected_agent
                    .is_some_and(|a| a >= simulation.vehicles().len())
                {
                    self.selected_agent = None;
                }
                self.simulation = Some(simulation);
                self.start_recording();
                self.check_replay();
            }
            Err(errors) => self.problems = errors.iter().map(ToString::to_string).collect(),
        }
    }

    /// The open graph was renamed from `old` to `new`: follow it without a rebuild.
    pub fn rename_graph(&mut self, old: &str, new: &str) {
        let Some((scene, name)) = self.built.as_mut() else {
            return;
        };
        if name == old {
            new.clone_into(name);
        }
        for group in &mut scene.groups {
            if group.graph == old {
                new.clone_into(&mut group.graph);
            }
        }
    }

    /// The scene's fields in `files` (name, file) were inline and are now those files, with
    /// the same data: the running scene names them so too, so nothing restarts.
    pub fn fields_saved_as_files(&mut self, files: &std::collections::BTreeMap<String, String>) {
        let Some((scene, _)) = self.built.as_mut() else {
            return;
        };
        for (name, file) in files {
            if let Some(source) = scene.flow_fields.get_mut(name) {
                *source = FlowFieldSource::File(file.clone());
            }
        }
    }

    /// Moves the "cursor" target (a recording keeps its positions, not copies of the world).
    /// A replay being checked keeps the cursor where its recording had it.
    pub fn set_cursor(&mut self, cursor: Vec2) {
        if self.replaying() {
            return;
        }
        if let Some(simulation) = self.simulation.as_mut()
            && !simulation.move_target("cursor", cursor)
        {
            simulation.world_mut().set_target("cursor", cursor);
        }
    }

    /// The selected agent's trace, when its group (in `scene`) runs the open graph `open_name`.
    pub fn trace_of_open_graph(&self, scene: &Scene, open_name: &str) -> Option<&Trace> {
        let agent = self.selected_agent?;
        let group = scene
            .groups
            .get(self.simulation.as_ref()?.group_of(agent)?)?;
        (group.graph == open_name && !self.trace.entries.is_empty()).then_some(&self.trace)
    }
}
