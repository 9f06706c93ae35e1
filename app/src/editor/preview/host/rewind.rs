//! The host's recording of the run (issue 45): each tick is recorded just before it is
//! stepped, and the timeline sends the preview back to any recorded tick (paused there);
//! playing or stepping on from a past tick forks the run, dropping what came after.

use graph_runtime::MetricsTracker;
use graph_runtime::replay::Edits;
use graph_runtime::rewind::Recording;

use super::{Host, TICK};

/// Ticks a seek sees again before its tick, for the stalled agents: a little more than the
/// seconds an agent must make no progress to count as stalled.
pub const WATCH_TICKS: u64 = ((graph_runtime::STALLED_SECONDS + 0.5) / TICK) as u64;

/// The most agent-ticks a seek steps to see them again (about 0.1 s of ticks on the machines
/// `BENCHMARKS.md` measures): a crowd sees fewer ticks again; its agents stalled then count
/// on from the run's progress, which the host keeps (`host/history.rs`).
pub const WATCH_WORK: u64 = 1_000_000;

/// A mebibyte.
pub const MIB: usize = 1 << 20;

/// The recording budgets (MiB) a designer may set: from a few seconds of a large crowd to
/// minutes of one.
pub const BUDGET_MIB: std::ops::RangeInclusive<u32> = 8..=4_096;

impl Host {
    /// Starts recording the simulation afresh (a reset).
    pub(super) fn start_recording(&mut self) {
        let budget = self.recording_budget;
        self.recording = (self.simulation.as_ref()).map(|s| Recording::new(s, budget));
        self.events.clear();
        self.original = None;
        self.wall_crossings_seen =
            (self.simulation.as_ref()).map_or(0, graph_runtime::Simulation::wall_crossings);
    }

    /// Notes the tick the simulation is about to step (after a replay's change at that tick
    /// is put in): from a past tick, a fork, which drops what the run had after it (the
    /// first fork keeps it with the run as it was).
    pub(super) fn record_step(&mut self) {
        self.put_replay_edits();
        let tick = self
            .simulation
            .as_ref()
            .map(graph_runtime::Simulation::tick);
        let last = self.recording.as_ref().map(Recording::last);
        if let (Some(tick), Some(last)) = (tick, last)
            && tick < last
        {
            let later = self.cut_history(tick);
            self.note_fork(later);
        }
        if let (Some(recording), Some(simulation)) = (&mut self.recording, &self.simulation) {
            recording.record(simulation, self.tick_length);
        }
    }

    /// The edits of the run recorded from tick 0 to `upto` (stepped with `dt`), against
    /// `fresh`, the run's scene as it loads from disk, whose groups are `groups`: what a
    /// replay file keeps of them ([`Edits::of_recording`]); none without a recording.
    pub fn recorded_edits(
        &self,
        fresh: &graph_runtime::Simulation,
        groups: &[graph_runtime::AgentGroup],
        (upto, dt): (u64, f32),
    ) -> Result<Edits, String> {
        match &self.recording {
            Some(recording) => Edits::of_recording(recording, fresh, groups, (upto, dt)),
            None => Ok(Edits::default()),
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

    /// The bytes the recording may keep, as the designer set them ([`DEFAULT_BUDGET`] until
    /// then).
    ///
    /// [`DEFAULT_BUDGET`]: graph_runtime::rewind::DEFAULT_BUDGET
    pub fn recording_budget(&self) -> usize {
        self.recording_budget
    }

    /// Lets the recording keep `mib` MiB (within `BUDGET_MIB`): past them the keyframes
    /// thin out, then the oldest part of the run goes. A recording over a lower budget is
    /// thinned at once; recordings after a reset keep the budget.
    pub fn set_recording_budget(&mut self, mib: u32) {
        let mib = mib.clamp(*BUDGET_MIB.start(), *BUDGET_MIB.end());
        self.recording_budget = mib as usize * MIB;
        if let Some(recording) = &mut self.recording {
            recording.set_budget(self.recording_budget);
        }
    }

    /// The tick the simulation shows (none while a tick runs on the worker).
    pub fn tick(&self) -> Option<u64> {
        self.simulation
            .as_ref()
            .map(graph_runtime::Simulation::tick)
    }

    /// Sends the preview back (or forward) to recorded tick `tick`, paused there: the agents,
    /// the world, the selected agent's trace, the plots, the arrivals and the stalled agents
    /// as the run had them (the last `WATCH_TICKS` ticks seen again, fewer in a crowd: at
    /// most `WATCH_WORK` agent-ticks). Nothing happens while a tick runs on the worker or
    /// for a tick not recorded.
    pub fn seek(&mut self, tick: u64) {
        self.seek_watching(tick, true);
    }

    /// [`Host::seek`]; without `watch`, the ticks before are not seen again (playing
    /// backwards, a seek a frame): the stalled agents count again from the tick sought.
    pub fn seek_watching(&mut self, tick: u64, watch: bool) {
        if self.worker.is_some() {
            return;
        }
        let (Some(recording), Some(simulation)) = (&self.recording, &mut self.simulation) else {
            return;
        };
        // The stalled agents need the last seconds seen again: the tracker watches them, as
        // far back as a bounded amount of stepping allows.
        let agents = simulation.vehicles().len().max(1) as u64;
        let watched = if watch {
            (self.watch_work / agents).min(WATCH_TICKS)
        } else {
            0
        };
        let mut metrics = MetricsTracker::default();
        let dt = self.tick_length;
        let watching =
            recording.seek_watching(simulation, tick, tick.saturating_sub(watched), |s| {
                metrics.observe(s, s.tick() as f32 * dt);
            });
        if let Err(error) = watching {
            self.problems.push(format!("the timeline: {error}"));
            return;
        }
        self.running = false;
        self.accumulator = 0.0;
        self.time = tick as f32 * dt;
        self.wall_crossings_seen = simulation.wall_crossings();
        // The plots end at the tick shown ([`Host::shown_samples`]); the arrivals count from
        // the run's.
        self.resume_arrivals(&mut metrics);
        self.metrics = metrics;
        self.follow_ghosts();
        self.trace_selected();
    }
}
