//! Ticks too slow for a frame run on a worker thread: the window keeps answering (Pause,
//! undo, menus) while a large crowd steps, and the viewport shows the last finished tick.

use std::ops::Range;
use std::thread::JoinHandle;
use std::time::Instant;

use graph_runtime::{MetricsTracker, Sample, Simulation, Vehicle, World};

/// What the viewport draws: the world, every agent, and which group each belongs to.
pub struct SceneView<'a> {
    /// The world.
    pub world: &'a World,
    /// Every agent.
    pub vehicles: &'a [Vehicle],
    /// The agents of each group, by group index.
    pub groups: Vec<Range<usize>>,
    /// The agents stuck now ([`Simulation::stuck_for`]), ascending.
    pub stuck: Vec<usize>,
}

impl SceneView<'_> {
    /// The group of `agent`.
    pub fn group_of(&self, agent: usize) -> usize {
        self.groups
            .iter()
            .position(|g| g.contains(&agent))
            .unwrap_or(0)
    }
}

/// The state shown while a tick runs elsewhere.
pub struct Frozen {
    world: World,
    vehicles: Vec<Vehicle>,
    groups: Vec<Range<usize>>,
    stuck: Vec<usize>,
}

impl Frozen {
    /// A copy of what `simulation` shows now.
    pub fn of(simulation: &Simulation) -> Self {
        Self {
            world: simulation.world().clone(),
            vehicles: simulation.vehicles().to_vec(),
            groups: simulation
                .groups()
                .iter()
                .map(|g| g.agents.clone())
                .collect(),
            stuck: simulation.stuck_agents().collect(),
        }
    }

    /// The view of the frozen state.
    pub fn view(&self) -> SceneView<'_> {
        SceneView {
            world: &self.world,
            vehicles: &self.vehicles,
            groups: self.groups.clone(),
            stuck: self.stuck.clone(),
        }
    }
}

/// A tick (and its metric sample, when due) finished on the worker.
pub struct Stepped {
    /// The simulation, one tick on.
    pub simulation: Simulation,
    /// The metrics tracker, having seen the tick if a sample was due.
    pub metrics: MetricsTracker,
    /// The sample taken, if one was due.
    pub sample: Option<Sample>,
    /// Milliseconds the tick took.
    pub tick_ms: f32,
}

/// A tick in progress on a worker thread.
pub struct Worker {
    handle: JoinHandle<Stepped>,
    /// What the viewport shows meanwhile.
    pub frozen: Frozen,
}

impl Worker {
    /// Steps `simulation` by `dt` on a new thread; samples the metrics at `sample_at` if set.
    pub fn start(
        simulation: Simulation,
        mut metrics: MetricsTracker,
        dt: f32,
        sample_at: Option<f32>,
    ) -> Self {
        let frozen = Frozen::of(&simulation);
        let handle = std::thread::spawn(move || {
            let mut simulation = simulation;
            let started = Instant::now();
            simulation.step(dt);
            let tick_ms = started.elapsed().as_secs_f32() * 1000.0;
            let sample = sample_at.map(|time| metrics.observe(&simulation, time));
            Stepped {
                simulation,
                metrics,
                sample,
                tick_ms,
            }
        });
        Self { handle, frozen }
    }

    /// Whether the tick is done.
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// The finished tick (waits if it is not done; `None` if the worker panicked).
    pub fn finish(self) -> Option<Stepped> {
        self.handle.join().ok()
    }
}
