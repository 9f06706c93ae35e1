//! Agents stuck as a designer means it (issue 45): far from their goal and no closer for a
//! while, whatever their graph asks for. The stuck clock ([`crate::stuck_clock`]) flags an
//! agent that asks to move and cannot; one whose forces cancel asks for nothing and sits still
//! far from its goal unflagged. `BEHAVIORS.md`, "Stuck agents", says the thresholds.

use glam::Vec2;

use super::ARRIVAL_RADII;

/// An agent far from its goal is stalled after this long (s) without getting closer.
pub const STALLED_SECONDS: f32 = 5.0;

/// Getting closer: by at least this many of the agent's radii (a jitter is no progress); a
/// goal that moves this far starts the count again.
pub const CLOSER_RADII: f32 = 1.0;

/// How one agent has been doing toward its goal: while it is stalled, this stays as it was
/// when it last came closer (a timeline keeps it to take over a run part-way).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StallProgress {
    /// The goal, as it was when the count started.
    pub goal: Vec2,
    /// The nearest the agent has come to it since.
    pub nearest: f32,
    /// When (s) the agent last came closer (or the count started).
    pub since: f32,
}

/// Each agent's progress toward its goal, sample by sample.
#[derive(Debug, Default)]
pub(super) struct Stalls {
    agents: Vec<Option<StallProgress>>,
}

impl Stalls {
    /// Notes agent `agent` at `position` (radius `radius`) at `time`, with `goal`; whether it
    /// is stalled: more than [`ARRIVAL_RADII`] radii from the goal and not [`CLOSER_RADII`]
    /// closer than its nearest for [`STALLED_SECONDS`].
    pub(super) fn observe(
        &mut self,
        agent: usize,
        (position, radius): (Vec2, f32),
        goal: Option<Vec2>,
        time: f32,
    ) -> bool {
        if agent >= self.agents.len() {
            self.agents.resize(agent + 1, None);
        }
        let Some(goal) = goal else {
            self.agents[agent] = None;
            return false;
        };
        let distance = position.distance(goal);
        let step = CLOSER_RADII * radius;
        let progress = self.agents[agent].get_or_insert(StallProgress {
            goal,
            nearest: distance,
            since: time,
        });
        // Arrived, come closer, or a goal moved on: the count starts again.
        let moved = progress.goal.distance(goal) > step;
        if distance <= ARRIVAL_RADII * radius || distance < progress.nearest - step || moved {
            *progress = StallProgress {
                goal,
                nearest: distance,
                since: time,
            };
        }
        time - progress.since >= STALLED_SECONDS
    }

    /// Agent `agent`'s progress (`None`: no goal, or not seen).
    pub(super) fn progress(&self, agent: usize) -> Option<StallProgress> {
        self.agents.get(agent).copied().flatten()
    }

    /// Sets agent `agent`'s progress, as a run had it.
    pub(super) fn resume(&mut self, agent: usize, progress: StallProgress) {
        if agent >= self.agents.len() {
            self.agents.resize(agent + 1, None);
        }
        self.agents[agent] = Some(progress);
    }

    /// The agents stalled at `time`, ascending.
    pub(super) fn stalled(&self, time: f32) -> impl Iterator<Item = usize> + '_ {
        (0..self.agents.len()).filter(move |&agent| self.stalled_for(agent, time).is_some())
    }

    /// How long (s) agent `agent` has been no closer to its goal at `time`, once that counts
    /// as stalled; `None` otherwise.
    pub(super) fn stalled_for(&self, agent: usize, time: f32) -> Option<f32> {
        let progress = self.agents.get(agent).copied().flatten()?;
        let for_ = time - progress.since;
        (for_ >= STALLED_SECONDS).then_some(for_)
    }
}
