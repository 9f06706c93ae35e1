//! What one Navigate node keeps in an agent's state between ticks: the route it follows, the
//! leg it is on, the goal the route was planned for, and whether it asks for a new plan. The
//! evaluation follows and asks (in parallel, agent by agent); the driver plans, a bounded
//! number a tick in agent order ([`crate::tick::plan_routes`]).

use glam::Vec2;

use crate::navigation::{Crowding, NavMesh, Reach, Route, RouteSearch};

/// How much fuller (in doors' widths of standing agents, [`Crowding`]) than when a route was
/// planned the doors ahead on it must be to make it jammed.
pub(crate) const JAMMED_BY: f32 = 2.0;

/// Where a Navigate node's route stands, for the inspector, the metrics and games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RouteStatus {
    /// No route yet: the agent waits for its first plan (it brakes meanwhile).
    #[default]
    Waiting,
    /// Following a route to the goal.
    Following,
    /// Following a route that was asked to be planned again (the goal moved, the agent
    /// strayed); the new one comes within the driver's planning budget.
    Replanning,
    /// No walk reaches the goal: following a route to the nearest point one does.
    Unreachable,
    /// The world has no navigation mesh for the agent's radius: the agent waits.
    NoNavigation,
}

/// One Navigate node's route in one agent's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RouteSlot {
    pub(crate) route: Route,
    /// The leg of the route the agent is on.
    pub(crate) leg: u32,
    /// The goal the last evaluation steered for.
    pub(crate) goal: Option<Vec2>,
    /// The goal the route was planned for.
    pub(crate) planned_for: Vec2,
    /// Whether the evaluation asks the driver for a new plan.
    pub(crate) wants_plan: bool,
    /// Whether the last planning found no mesh for the agent's radius.
    pub(crate) no_navigation: bool,
    /// How many routes were planned for it.
    pub(crate) plans: u32,
    /// The world's navigation revision the route was planned on.
    pub(crate) revision: u64,
    /// What a standing agent at a door costs the route (units; the node's `crowd_cost`).
    pub(crate) crowd_cost: f32,
    /// How full of standing agents the route's doors were when it was planned.
    pub(crate) crowd_planned: f32,
    /// How far along its corridor the agent was last found (an index into it).
    pub(crate) progress: u32,
    /// How long since the route was planned (s).
    pub(crate) since_plan: f32,
    /// How many look periods ([`crate::tick::JAM_CHECK_SECONDS`]) of its age it last looked
    /// for a jammed door at.
    pub(crate) looked: u32,
    /// How many ticks it has asked for a plan and been left for a later one.
    pub(crate) waited: u32,
}

impl RouteSlot {
    /// Where the route stands.
    pub fn status(&self) -> RouteStatus {
        if self.no_navigation {
            RouteStatus::NoNavigation
        } else if self.route.reach.is_none() {
            RouteStatus::Waiting
        } else if self.wants_plan {
            RouteStatus::Replanning
        } else if self.route.reach == Some(Reach::Nearest) {
            RouteStatus::Unreachable
        } else {
            RouteStatus::Following
        }
    }

    /// The route being followed (no points before the first plan).
    pub fn route(&self) -> &Route {
        &self.route
    }

    /// The leg of the route the agent is on (from corner `leg` to corner `leg + 1`).
    pub fn leg(&self) -> usize {
        self.leg as usize
    }

    /// How many routes were planned for it.
    pub fn plans(&self) -> u32 {
        self.plans
    }

    /// Whether the driver should plan it this tick (when its budget allows): it asked, or
    /// the world's meshes were rebuilt since its route was planned (a wall moved).
    pub(crate) fn wants_plan(&self, navigation_revision: u64) -> bool {
        self.goal.is_some()
            && (self.wants_plan
                || (self.route.reach.is_some() && self.revision != navigation_revision))
    }

    /// The route from `position` to the goal the evaluation asked for, on `mesh` with the
    /// standing agents `crowding` counted on it this tick (`None`: the world has no mesh for
    /// the agent's radius: a route of no points; no crowding: the walk alone counts); `None`
    /// without a goal. Reads only.
    pub(crate) fn query(
        &self,
        mesh: Option<(&NavMesh, Option<&Crowding>)>,
        position: Vec2,
        search: &mut RouteSearch,
    ) -> Option<Route> {
        let goal = self.goal?;
        Some(mesh.map_or_else(Route::default, |(mesh, crowding)| {
            match crowding.filter(|_| self.crowd_cost > 0.0) {
                Some(crowding) => {
                    mesh.route_around((position, goal), (crowding, self.crowd_cost), search)
                }
                None => mesh.route(position, goal, search),
            }
        }))
    }

    /// Whether a look period ([`crate::tick::JAM_CHECK_SECONDS`]) of the route's age has
    /// passed since it last looked for a jammed door (then it looks now).
    pub(crate) fn time_to_look(&mut self) -> bool {
        let due = self.look_due();
        self.looked = self.looked.max(self.periods());
        due
    }

    /// Whether [`RouteSlot::time_to_look`] would say it is time, without looking.
    fn look_due(&self) -> bool {
        self.periods() > self.looked
    }

    /// How many look periods old the route is.
    fn periods(&self) -> u32 {
        (self.since_plan / crate::tick::JAM_CHECK_SECONDS) as u32
    }

    /// Whether the driver has something to do for this route on the next tick besides a stuck
    /// agent's re-plan: plan it ([`RouteSlot::wants_plan`]), or look for a jammed door ahead
    /// (a route that pays for crowds, with a look due). The evaluation tells the driver
    /// ([`AgentState`](super::AgentState)`::asks_planner`) so that it passes over the agents
    /// with nothing to do without reading their routes.
    pub(crate) fn needs_planner(&self, navigation_revision: u64) -> bool {
        self.wants_plan(navigation_revision) || self.may_look()
    }

    /// Whether the route looks for a jammed door ahead when the driver reads it next (unless
    /// its stuck agent's re-plan comes first): it pays for crowds, follows a route it does not
    /// ask to replace, and a look is due.
    pub(crate) fn may_look(&self) -> bool {
        self.crowd_cost > 0.0 && self.route.reach.is_some() && !self.wants_plan && self.look_due()
    }

    /// Whether a door on the route ahead of the agent (who stands in the triangle `triangle()`
    /// gives) is jammed:
    /// `crowding` finds the edges still to cross fuller of standing agents than all of them
    /// were when the route was planned, by [`JAMMED_BY`] or more. Moves the agent's place
    /// along its corridor on. Never for a route that ignores crowds (`crowd_cost` 0).
    pub(crate) fn jammed_ahead(
        &mut self,
        crowding: &Crowding,
        triangle: impl FnOnce() -> Option<u32>,
    ) -> bool {
        let corridor = &self.route.corridor;
        if self.crowd_cost <= 0.0 || crowding.along(corridor) < self.crowd_planned + JAMMED_BY {
            return false;
        }
        let from = (self.progress as usize).min(corridor.len());
        if let Some(triangle) = triangle()
            && let Some(at) = corridor[from..].iter().position(|&e| e / 3 == triangle)
        {
            self.progress = (from + at) as u32;
        }
        let ahead = &corridor[self.progress as usize..];
        crowding.along(ahead) >= self.crowd_planned + JAMMED_BY
    }

    /// Takes the route [`RouteSlot::query`] planned on the world's navigation `revision` (one
    /// of no points: no mesh to plan on), when `crowding` counted the standing agents it met.
    pub(crate) fn accept(&mut self, route: Route, revision: u64, crowding: Option<&Crowding>) {
        let Some(goal) = self.goal else {
            return;
        };
        self.revision = revision;
        self.wants_plan = false;
        self.planned_for = goal;
        self.leg = 0;
        self.plans = self.plans.saturating_add(1);
        self.crowd_planned = crowding.map_or(0.0, |c| c.along(&route.corridor));
        self.progress = 0;
        self.since_plan = 0.0;
        self.looked = 0;
        self.waited = 0;
        // No mesh, or an empty one: no point to start from.
        self.no_navigation = route.points.is_empty();
        self.route = route;
    }
}
