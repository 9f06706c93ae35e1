//! The host's clock: the fixed 60 Hz ticks within a frame's time budget, ticks too slow for a
//! frame on the worker thread, metric samples, the trace of the selected agent, and the
//! estimate of a tick's cost.

use std::time::Instant;

use super::super::worker::Worker;
use super::{Host, MAX_TICKS_PER_FRAME, METRICS_PERIOD, Pacing, STEP_BUDGET, SYNC_TICK_LIMIT_MS};

impl Host {
    /// Whether a metric sample is due at `time`.
    fn sample_due(&self, time: f32) -> bool {
        self.samples
            .back()
            .is_none_or(|s| time - s.time >= METRICS_PERIOD - 1e-4)
    }

    /// Advances exactly one tick and samples the metrics when due.
    pub fn step_once(&mut self) {
        self.record_step();
        let Some(simulation) = self.simulation.as_mut() else {
            return;
        };
        simulation.step(self.tick_length);
        // The tick's time, not a sum of tick lengths: the same as a seek to it gives.
        self.time = simulation.tick() as f32 * self.tick_length;
        let due = self
            .samples
            .back()
            .is_none_or(|s| self.time - s.time >= METRICS_PERIOD - 1e-4);
        let sample = due.then(|| self.metrics.observe(simulation, self.time));
        self.note_events(sample.as_ref());
        self.follow_ghosts();
        if let Some(sample) = sample {
            self.push_sample(sample);
        }
        self.check_replay();
    }

    /// Takes back a tick finished on the worker.
    pub(super) fn collect(&mut self) {
        if self.worker.as_ref().is_some_and(Worker::is_finished) {
            self.take_back();
        }
    }

    /// Waits for a tick running on the worker thread, if one is, and takes it back (before
    /// the GPU starts from the simulation: a large crowd's ticks run there one after another).
    pub fn settle(&mut self) {
        if self.worker.is_some() {
            self.take_back();
        }
    }

    /// Takes back the worker's tick, waiting for it if it is not done.
    fn take_back(&mut self) {
        let Some(stepped) = self.worker.take().and_then(Worker::finish) else {
            self.problems
                .push("the simulation stopped: a tick failed on its thread".to_owned());
            return;
        };
        self.time = stepped.simulation.tick() as f32 * self.tick_length;
        self.simulation = Some(stepped.simulation);
        self.metrics = stepped.metrics;
        self.tick_ms = stepped.tick_ms;
        self.note_events(stepped.sample.as_ref());
        self.follow_ghosts();
        if let Some(sample) = stepped.sample {
            self.push_sample(sample);
        }
        self.check_replay();
    }

    /// Starts the next tick on the worker thread.
    fn step_elsewhere(&mut self) {
        self.record_step();
        let Some(simulation) = self.simulation.take() else {
            return;
        };
        let time = (simulation.tick() + 1) as f32 * self.tick_length;
        let sample_at = self.sample_due(time).then_some(time);
        let metrics = std::mem::take(&mut self.metrics);
        self.worker = Some(Worker::start(
            simulation,
            metrics,
            self.tick_length,
            sample_at,
        ));
    }

    /// Runs the ticks due after `frame_seconds`, paced by `pacing`, then traces the selected
    /// agent. Paced by the budget, stepping stops when the frame's time budget is spent and
    /// ticks too slow for a frame run on a worker thread; paced exactly, every tick due runs
    /// here, however long it takes.
    pub fn run(&mut self, frame_seconds: f32, pacing: Pacing) {
        self.collect();
        let started = Instant::now();
        let budgeted = pacing == Pacing::Budgeted;
        let mut ticks = 0;
        if self.running
            && self.simulation.is_some()
            && budgeted
            && self.tick_ms > SYNC_TICK_LIMIT_MS
        {
            self.accumulator = 0.0;
            self.step_elsewhere();
        } else if self.running && self.simulation.is_some() {
            self.accumulator += frame_seconds.min(0.25) * self.time_scale;
            let over_budget = || budgeted && started.elapsed() >= STEP_BUDGET;
            // A replay pauses itself at its last tick or where it differs.
            let tick = self.tick_length;
            while self.running && self.accumulator >= tick && ticks < MAX_TICKS_PER_FRAME {
                self.step_once();
                self.accumulator -= tick;
                ticks += 1;
                if over_budget() {
                    break;
                }
            }
            if ticks == MAX_TICKS_PER_FRAME || over_budget() {
                // Behind real time: drop the backlog rather than chase it.
                self.accumulator = self.accumulator.min(tick);
            }
        }
        self.ticks_last_frame = ticks;
        if ticks > 0 {
            self.tick_ms = started.elapsed().as_secs_f32() * 1000.0 / ticks as f32;
        }
        self.trace_selected();
    }

    pub(super) fn trace_selected(&mut self) {
        if self.worker.is_some() {
            // Keep showing the last trace until the tick is back.
            return;
        }
        self.trace.entries.clear();
        let mut net = None;
        self.trace_root = None;
        self.selected_own = graph_runtime::OwnGoals::default();
        self.selected_routes.clear();
        if let (Some(agent), Some(simulation)) = (self.selected_agent, self.simulation.as_ref()) {
            net = simulation.trace(agent, self.tick_length, &mut self.trace);
            if let Some(own) = simulation.own(agent) {
                self.selected_own.clone_from(own);
            }
            self.selected_routes
                .extend_from_slice(simulation.routes(agent));
            self.trace_root = simulation
                .group_of(agent)
                .and_then(|g| simulation.groups().get(g))
                .and_then(|g| g.program.nodes().last().copied());
        }
        self.diagnose_selected(net);
    }

    /// Estimated milliseconds per tick for `agents` agents, from the last measured ticks.
    pub fn estimated_tick_ms(&self, agents: usize) -> Option<f32> {
        let running = self.agent_count();
        (running > 0 && self.tick_ms > 0.0).then(|| self.tick_ms * crowd_growth(running, agents))
    }
}

/// How much longer a tick takes when a crowd grows from `before` to `after` agents in the same
/// area: every agent has proportionally more neighbors, so the cost grows with the square of
/// the count (boids preset: 400 → 50,000 agents measured 1 ms → 8.5 s, estimated 15.6 s).
/// A shrinking crowd is estimated linearly, which errs on the slow side.
pub(super) fn crowd_growth(before: usize, after: usize) -> f32 {
    let ratio = after as f32 / before.max(1) as f32;
    if ratio > 1.0 { ratio * ratio } else { ratio }
}
