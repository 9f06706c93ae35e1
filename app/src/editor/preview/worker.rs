//! Ticks too slow for a frame run on a worker thread: the window keeps answering (Pause,
//! undo, menus) while a large crowd steps, and the viewport shows the last finished tick.

use std::ops::Range;
use std::thread::JoinHandle;
use std::time::Instant;

use graph_runtime::{MetricsTracker, Sample, Simulation, Vehicle, World};

use super::route_lines::{RouteLines, RouteSource};

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
    /// The agents in the air on a jump, ascending, with their height.
    pub airborne: Vec<(usize, f32)>,
    /// The agents that fell into a gap, ascending.
    pub fallen: Vec<usize>,
    /// Where every agent's planned routes are read from.
    pub routes: RouteSource<'a>,
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
    airborne: Vec<(usize, f32)>,
    fallen: Vec<usize>,
    routes: RouteLines,
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
            airborne: airborne(simulation),
            fallen: simulation.fallen().collect(),
            routes: RouteLines::of(simulation),
        }
    }

    /// How many agents it shows.
    pub fn vehicle_count(&self) -> usize {
        self.vehicles.len()
    }

    /// The view of the frozen state.
    pub fn view(&self) -> SceneView<'_> {
        SceneView {
            world: &self.world,
            vehicles: &self.vehicles,
            groups: self.groups.clone(),
            stuck: self.stuck.clone(),
            airborne: self.airborne.clone(),
            fallen: self.fallen.clone(),
            routes: RouteSource::Frozen(&self.routes),
        }
    }
}

/// The agents of `simulation` in the air, with their heights.
pub fn airborne(simulation: &Simulation) -> Vec<(usize, f32)> {
    simulation
        .airborne()
        .map(|(agent, flight)| (agent, flight.height()))
        .collect()
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
    running: Running,
    /// What the viewport shows meanwhile.
    pub frozen: Frozen,
}

/// The worker thread, or the tick done in place when no thread could be started.
enum Running {
    Thread(JoinHandle<Option<Stepped>>),
    Done(Box<Stepped>),
    /// Neither: the simulation is gone (as when a worker panics).
    Lost,
}

/// One tick of `simulation` (and its metric sample at `sample_at`, if set), timed.
fn step(
    mut simulation: Simulation,
    mut metrics: MetricsTracker,
    dt: f32,
    sample_at: Option<f32>,
) -> Stepped {
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
}

impl Worker {
    /// Steps `simulation` by `dt` on a thread of its own (`steergraph-preview-tick`), or in
    /// place when the system starts no thread; samples the metrics at `sample_at` if set.
    pub fn start(
        simulation: Simulation,
        metrics: MetricsTracker,
        dt: f32,
        sample_at: Option<f32>,
    ) -> Self {
        let frozen = Frozen::of(&simulation);
        // The simulation goes to the thread through a slot it can be taken back from when
        // the thread cannot start.
        let slot = std::sync::Arc::new(std::sync::Mutex::new(Some((simulation, metrics))));
        let handed = std::sync::Arc::clone(&slot);
        let spawned = std::thread::Builder::new()
            .name("steergraph-preview-tick".to_owned())
            .spawn(move || {
                let taken = handed.lock().ok().and_then(|mut slot| slot.take());
                taken.map(|(simulation, metrics)| step(simulation, metrics, dt, sample_at))
            });
        let running = match spawned {
            Ok(handle) => Running::Thread(handle),
            Err(_) => {
                let taken = slot.lock().ok().and_then(|mut slot| slot.take());
                taken.map_or(Running::Lost, |(simulation, metrics)| {
                    Running::Done(Box::new(step(simulation, metrics, dt, sample_at)))
                })
            }
        };
        Self { running, frozen }
    }

    /// Whether the tick is done.
    pub fn is_finished(&self) -> bool {
        match &self.running {
            Running::Thread(handle) => handle.is_finished(),
            Running::Done(_) | Running::Lost => true,
        }
    }

    /// The finished tick (waits if it is not done; `None` if the worker panicked).
    pub fn finish(self) -> Option<Stepped> {
        match self.running {
            Running::Thread(handle) => handle.join().ok().flatten(),
            Running::Done(stepped) => Some(*stepped),
            Running::Lost => None,
        }
    }
}
