//! The host's recording of the run (issue 45): each tick is recorded just before it is
//! stepped, and the timeline sends the preview back to any recorded tick (paused there);
//! playing or stepping on from a past tick forks the run, dropping what came after.

use graph_runtime::MetricsTracker;
use graph_runtime::rewind::{DEFAULT_BUDGET, Recording};

use super::{Host, TICK};

impl Host {
    /// Starts recording the simulation afresh (a reset).
    pub(super) fn start_recording(&mut self) {
        self.recording = (self.simulation.as_ref()).map(|s| Recording::new(s, DEFAULT_BUDGET));
    }

    /// Notes the tick the simulation is about to step.
    pub(super) fn record_step(&mut self) {
        if let (Some(recording), Some(simulation)) = (&mut self.recording, &self.simulation) {
            recording.record(simulation, TICK);
        }
    }

    /// The recorded ticks (first, last), while the simulation runs here.
    pub fn recorded(&self) -> Option<(u64, u64)> {
        let recording = self.recording.as_ref()?;
        Some((recording.first(), recording.last()))
    }

    /// The bytes the recording keeps, and its budget.
    pub fn recording_bytes(&self) -> Option<(usize, usize)> {
        let recording = self.recording.as_ref()?;
        Some((recording.bytes(), recording.budget()))
    }

    /// The tick the simulation shows (none while a tick runs on the worker).
    pub fn tick(&self) -> Option<u64> {
        self.simulation
            .as_ref()
            .map(graph_runtime::Simulation::tick)
    }

    /// Sends the preview back (or forward) to recorded tick `tick`, paused there: the agents,
    /// the world and the selected agent's trace as the run had them. Nothing happens while a
    /// tick runs on the worker or for a tick not recorded.
    pub fn seek(&mut self, tick: u64) {
        if self.worker.is_some() {
            return;
        }
        let (Some(recording), Some(simulation)) = (&self.recording, &mut self.simulation) else {
            return;
        };
        if let Err(error) = recording.seek(simulation, tick) {
            self.problems.push(format!("the timeline: {error}"));
            return;
        }
        self.running = false;
        self.accumulator = 0.0;
        self.time = tick as f32 * TICK;
        // The plots end at the tick shown; the tracker starts again from it.
        let time = self.time;
        self.samples.retain(|sample| sample.time <= time + 1e-4);
        self.metrics = MetricsTracker::default();
        self.trace_selected();
    }
}
