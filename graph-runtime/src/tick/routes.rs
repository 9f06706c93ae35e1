//! Planning the routes Navigate nodes ask for, and those planned before the world's meshes
//! were last rebuilt (a wall moved): before each tick's steering, every driver plans at most
//! its budget of them, in agent order, on the world's navigation mesh for each agent's radius.
//! The rest keep what they follow (or wait) and are planned on a later tick, first in line;
//! the choice and each route are the same on any thread count.

use crate::compile::AgentState;
use crate::navigation::RouteSearch;
use crate::{Vehicle, World};

/// The most routes a driver plans in one tick, as Detour's crowd bounds its path requests: a
/// query on a level of rooms takes tens of microseconds, so 64 keep planning within a
/// millisecond of a tick on one core.
pub const ROUTE_BUDGET: usize = 64;

/// What a driver keeps for planning routes from tick to tick.
#[derive(Clone, Debug)]
pub struct RoutePlanner {
    search: RouteSearch,
    /// The routes asking for a plan: (agent index, the driver's index of the agent, route slot).
    wanting: Vec<(u32, u32, u32)>,
    /// The most routes planned per tick ([`ROUTE_BUDGET`] unless a game sets it).
    pub budget: usize,
    /// How many routes the last tick planned.
    pub planned: usize,
    /// How many asked and were left for a later tick.
    pub deferred: usize,
}

impl Default for RoutePlanner {
    fn default() -> Self {
        Self {
            search: RouteSearch::default(),
            wanting: Vec::new(),
            budget: ROUTE_BUDGET,
            planned: 0,
            deferred: 0,
        }
    }
}

impl RoutePlanner {
    /// Plans up to `budget` of the routes the agents' states ask for, lowest agent index
    /// first: `vehicles[i]` and `states[i]` are the driver's agent `i`, whose index among all
    /// agents is `agent(i)`. Each route starts at the agent's position and runs on the
    /// world's mesh for its radius ([`World::navigation`]).
    pub fn plan(
        &mut self,
        world: &World,
        vehicles: &[Vehicle],
        states: &mut [AgentState],
        agent: impl Fn(usize) -> usize,
    ) {
        self.wanting.clear();
        let revision = world.navigation_revision();
        for (holder, state) in states.iter().enumerate() {
            for (slot, route) in state.routes().iter().enumerate() {
                if route.wants_plan(revision) {
                    self.wanting
                        .push((agent(holder) as u32, holder as u32, slot as u32));
                }
            }
        }
        self.wanting.sort_unstable();
        let take = self.wanting.len().min(self.budget);
        for &(_, holder, slot) in &self.wanting[..take] {
            let (holder, slot) = (holder as usize, slot as usize);
            let Some(vehicle) = vehicles.get(holder) else {
                continue;
            };
            let mesh = world.navigation(vehicle.radius);
            if let Some(route) = states[holder].routes_mut().get_mut(slot) {
                route.plan(mesh, revision, vehicle.position, &mut self.search);
            }
        }
        self.planned = take;
        self.deferred = self.wanting.len() - take;
    }
}
