//! The run's events, tick by tick, for the timeline to jump to (issue 45): an agent becoming
//! stuck or stalled, agents newly overlapping, a step into a wall, a jump and a fall. Noted
//! after each tick from the simulation (and the metric samples); a fork drops those of the
//! ticks it replaces, a reset all of them.

use graph_runtime::{JumpEventKind, STUCK_SECONDS, Sample};

use super::Host;

/// The most events kept; past it the oldest go.
pub const MAX_EVENTS: usize = 100_000;

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// An agent's stuck clock reached [`STUCK_SECONDS`].
    Stuck,
    /// An agent far from its goal had come no closer for
    /// [`STALLED_SECONDS`](graph_runtime::STALLED_SECONDS) (at a metric sample): stuck as a
    /// designer means it, whatever its graph asks for.
    Stalled,
    /// Agents began to overlap (at a metric sample).
    Overlap,
    /// A step met a wall (stopped and slid along it, or let through).
    Wall,
    /// An agent took off on a jump link.
    Jump,
    /// A walking agent fell into a gap.
    Fall,
}

impl EventKind {
    /// Every kind, in the order the timeline lists them.
    pub const ALL: [Self; 6] = [
        Self::Stuck,
        Self::Stalled,
        Self::Overlap,
        Self::Wall,
        Self::Jump,
        Self::Fall,
    ];

    /// The kind in the timeline's words.
    pub fn label(self) -> &'static str {
        match self {
            Self::Stuck => "stuck",
            Self::Stalled => "stalled",
            Self::Overlap => "overlap",
            Self::Wall => "wall contact",
            Self::Jump => "jump",
            Self::Fall => "fall",
        }
    }
}

/// One event: its tick, kind and agent (none for a count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// The tick it happened in (the simulation's tick after the step).
    pub tick: u64,
    /// What happened.
    pub kind: EventKind,
    /// To whom.
    pub agent: Option<usize>,
}

impl Host {
    /// Notes what the tick just stepped brought, with its metric `sample` if one was taken.
    pub(super) fn note_events(&mut self, sample: Option<&Sample>) {
        let Some(simulation) = self.simulation.as_ref() else {
            return;
        };
        let tick = simulation.tick();
        // A fork replaces the ticks from here on.
        let kept = self.events.partition_point(|event| event.tick < tick);
        self.events.truncate(kept);
        let mut noted = Vec::new();
        for event in simulation.jump_events() {
            let kind = match event.kind {
                JumpEventKind::TakeOff { .. } => EventKind::Jump,
                JumpEventKind::Fell => EventKind::Fall,
                JumpEventKind::Landed { .. } => continue,
            };
            noted.push((kind, Some(event.agent)));
        }
        for agent in 0..simulation.vehicles().len() {
            let clock = simulation.stuck_for(agent);
            if clock >= STUCK_SECONDS && clock - self.tick_length < STUCK_SECONDS {
                noted.push((EventKind::Stuck, Some(agent)));
            }
        }
        let crossings = simulation.wall_crossings();
        if crossings > self.wall_crossings_seen {
            noted.push((EventKind::Wall, None));
        }
        self.wall_crossings_seen = crossings;
        if sample.is_some() {
            noted.extend(
                (self.metrics.newly_stalled()).map(|agent| (EventKind::Stalled, Some(agent))),
            );
        }
        if sample.is_some_and(|s| s.new_agent_overlaps > 0) {
            noted.push((EventKind::Overlap, None));
        }
        self.events
            .extend((noted.into_iter()).map(|(kind, agent)| Event { tick, kind, agent }));
        if self.events.len() > MAX_EVENTS {
            let over = self.events.len() - MAX_EVENTS;
            self.events.drain(..over);
        }
    }

    /// The tick of the nearest event of `kind` (any kind with `None`) after tick `from`
    /// (`forward`) or before it, among the recorded ticks.
    pub fn event_tick(&self, from: u64, forward: bool, kind: Option<EventKind>) -> Option<u64> {
        let (first, last) = self.recorded()?;
        let wanted = |event: &&Event| {
            kind.is_none_or(|k| event.kind == k) && (first..=last).contains(&event.tick)
        };
        if forward {
            self.events
                .iter()
                .filter(wanted)
                .find(|e| e.tick > from)
                .map(|e| e.tick)
        } else {
            self.events
                .iter()
                .rev()
                .filter(wanted)
                .find(|e| e.tick < from)
                .map(|e| e.tick)
        }
    }

    /// The events of tick `tick`.
    pub fn events_at(&self, tick: u64) -> impl Iterator<Item = &Event> {
        let start = self.events.partition_point(|event| event.tick < tick);
        self.events[start..]
            .iter()
            .take_while(move |event| event.tick == tick)
    }
}
