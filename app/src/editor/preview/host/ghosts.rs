//! Forks shown against the run they left (issue 45): when the preview steps from a past tick
//! (after an edit there, or without one), the run as it was is kept and a second simulation
//! follows it tick by tick beside the fork, so the viewport draws the original agents as
//! ghosts and the inspector says how far each agent is from its ghost. **Original run** puts
//! the run as it was back on the timeline.

use graph_runtime::Simulation;
use graph_runtime::Vehicle;
use graph_runtime::rewind::{Cursor, Recording};

use super::Host;
use super::history::Later;

/// Crowds larger than this show no ghosts (the second simulation would step on the window's
/// thread, doubling every tick); the original run is still kept to go back to.
pub const MAX_GHOST_AGENTS: usize = 5_000;

/// The run a fork left: its recording, and its agents at the tick shown.
pub(super) struct Original {
    recording: Recording,
    /// The original run at the fork's tick (none for a crowd over [`MAX_GHOST_AGENTS`]).
    ghost: Option<(Simulation, Cursor)>,
    /// The tick the fork left it at.
    pub(super) from: u64,
    /// What it had after that tick: samples, events and arrivals.
    later: Later,
}

impl Host {
    /// Before a step from tick `tick` of a recording that goes further: a fork. The first
    /// fork keeps the run as it was, with what it had after the tick (`later`); a fork of a
    /// fork keeps the same original.
    pub(super) fn note_fork(&mut self, later: Later) {
        let (Some(recording), Some(simulation)) = (&self.recording, &self.simulation) else {
            return;
        };
        let tick = simulation.tick();
        if tick >= recording.last() || self.original.is_some() {
            return;
        }
        let ghost = (simulation.vehicles().len() <= MAX_GHOST_AGENTS).then(|| {
            let mut ghost = simulation.clone();
            // The run as it was at this tick: its own world and programs, not the edit's.
            recording
                .seek(&mut ghost, tick)
                .ok()
                .map(|()| (ghost, Cursor::default()))
        });
        self.original = Some(Original {
            recording: recording.clone(),
            ghost: ghost.flatten(),
            from: tick,
            later,
        });
    }

    /// Takes the ghosts to the tick shown: on along the original run (and on as it would
    /// have gone past its end), or back to a tick of it.
    pub(super) fn follow_ghosts(&mut self) {
        let Some(now) = self.simulation.as_ref().map(Simulation::tick) else {
            return;
        };
        let Some(original) = self.original.as_mut() else {
            return;
        };
        let recording = &original.recording;
        let Some((ghost, cursor)) = original.ghost.as_mut() else {
            return;
        };
        if ghost.tick() > now || now.saturating_sub(ghost.tick()) > 600 {
            // Back, or far on: sought afresh (within the original run).
            let at = now.min(recording.last());
            if recording.seek(ghost, at).is_err() {
                original.ghost = None;
                return;
            }
            *cursor = Cursor::default();
        }
        while ghost.tick() < now {
            if ghost.tick() < recording.last() {
                if recording.advance(ghost, cursor).is_err() {
                    original.ghost = None;
                    return;
                }
            } else {
                ghost.step(self.tick_length);
            }
        }
    }

    /// The original run's agents at the tick shown, while a fork shows ghosts.
    pub fn ghosts(&self) -> Option<&[Vehicle]> {
        let (ghost, _) = self.original.as_ref()?.ghost.as_ref()?;
        let shown = self.simulation.as_ref()?.tick();
        (ghost.tick() == shown).then(|| ghost.vehicles())
    }

    /// The tick the fork left the original run at.
    pub fn forked_at(&self) -> Option<u64> {
        self.original.as_ref().map(|original| original.from)
    }

    /// How far agent `agent` is from its ghost (units).
    pub fn ghost_distance(&self, agent: usize) -> Option<f32> {
        let ghost = self.ghosts()?.get(agent)?;
        let vehicle = self.simulation.as_ref()?.vehicles().get(agent)?;
        Some(vehicle.position.distance(ghost.position))
    }

    /// How many agents are more than a hundredth of their radius from their ghost.
    pub fn agents_off_their_ghosts(&self) -> Option<usize> {
        let ghosts = self.ghosts()?;
        let vehicles = self.simulation.as_ref()?.vehicles();
        let off = (vehicles.iter().zip(ghosts))
            .filter(|(v, g)| v.position.distance(g.position) > 0.01 * v.radius)
            .count();
        Some(off)
    }

    /// Puts the run the fork left back on the timeline, at the tick shown (paused): its
    /// later ticks can be gone through again. The documents keep the edit, so the host
    /// applies the open graph again (playing on forks again; undo the edit first to run as
    /// before).
    pub fn back_to_original(&mut self) {
        let Some(original) = self.original.take() else {
            return;
        };
        let now = self.simulation.as_ref().map_or(0, Simulation::tick);
        self.recording = Some(original.recording);
        self.restore_history(original.from, original.later);
        self.seek(now.min(self.recorded().map_or(0, |(_, last)| last)));
        // What runs from here is what the documents say.
        self.applied_revision = None;
    }
}
