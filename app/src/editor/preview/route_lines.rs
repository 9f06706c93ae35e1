//! Every agent's planned routes as the viewport draws them with the Guides menu's "every
//! agent's route" (issue 44): from each agent through the corners it has still to pass to the
//! end. Read from the simulation at the tick shown, or copied with the frozen state while a
//! tick runs on the worker.

use std::borrow::Cow;
use std::ops::Range;

use glam::Vec2;
use graph_runtime::{RouteSlot, RouteStatus, Simulation};

/// Routes drawn at most: past this many, the first ones in agent order (a crowd of tens of
/// thousands of lines is a grey sheet, and each is a shape to paint every frame).
pub const MOST_ROUTES: usize = 5_000;

/// One agent's route, its points in [`RouteLines::points`].
#[derive(Clone, Debug, PartialEq)]
pub struct RouteLine {
    /// The agent whose route it is.
    pub agent: usize,
    /// Its points: the agent's position, then the corners ahead to the end.
    pub points: Range<usize>,
    /// Whether the goal cannot be reached (the end is the nearest reachable point).
    pub unreachable: bool,
}

/// Every agent's routes with points ahead, group by group in agent order, at most
/// [`MOST_ROUTES`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RouteLines {
    /// The points of every line, one after another.
    pub points: Vec<Vec2>,
    /// The lines.
    pub lines: Vec<RouteLine>,
}

impl RouteLines {
    /// The routes of every agent of `simulation` as they stand (none, without looking at the
    /// agents, when no group's graph has a Navigate node: the worker copies them every tick).
    pub fn of(simulation: &Simulation) -> Self {
        let mut lines = Self::default();
        for group in simulation.groups() {
            if !group.program.navigates() {
                continue;
            }
            lines.push_group(simulation, group.agents.clone());
            if lines.lines.len() >= MOST_ROUTES {
                break;
            }
        }
        lines
    }

    /// Adds the routes of agents `agents` of `simulation`, up to [`MOST_ROUTES`] in all.
    fn push_group(&mut self, simulation: &Simulation, agents: Range<usize>) {
        let vehicles = simulation.vehicles();
        for agent in agents {
            let Some(vehicle) = vehicles.get(agent) else {
                return;
            };
            for slot in simulation.routes(agent) {
                if self.lines.len() >= MOST_ROUTES {
                    return;
                }
                self.push(agent, vehicle.position, slot);
            }
        }
    }

    /// Adds agent `agent`'s route `slot` from `from`, when it has corners left.
    fn push(&mut self, agent: usize, from: Vec2, slot: &RouteSlot) {
        let ahead = ahead(slot);
        if ahead.is_empty() {
            return;
        }
        let start = self.points.len();
        self.points.push(from);
        self.points.extend_from_slice(ahead);
        self.lines.push(RouteLine {
            agent,
            points: start..self.points.len(),
            unreachable: slot.status() == RouteStatus::Unreachable,
        });
    }

    /// Each line with its points.
    pub fn iter(&self) -> impl Iterator<Item = (&RouteLine, &[Vec2])> {
        (self.lines.iter()).map(|line| (line, self.points.get(line.points.clone()).unwrap_or(&[])))
    }
}

/// The corners of `slot`'s route still ahead of its agent, to the end (none while it has no
/// points: not planned yet, or no navigation for the agent's radius).
pub fn ahead(slot: &RouteSlot) -> &[Vec2] {
    let points = &slot.route().points;
    points.get(slot.leg() + 1..).unwrap_or_default()
}

/// Where the viewport reads the routes from.
#[derive(Clone, Copy)]
pub enum RouteSource<'a> {
    /// The simulation at the tick shown.
    Live(&'a Simulation),
    /// A copy taken when the tick running on the worker began.
    Frozen(&'a RouteLines),
}

impl RouteSource<'_> {
    /// The routes, read now from a live simulation.
    pub fn lines(&self) -> Cow<'_, RouteLines> {
        match *self {
            Self::Live(simulation) => Cow::Owned(RouteLines::of(simulation)),
            Self::Frozen(lines) => Cow::Borrowed(lines),
        }
    }
}
