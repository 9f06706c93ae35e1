//! Planning the routes Navigate nodes ask for, and those planned before the world's meshes
//! were last rebuilt (a wall moved): before each tick's steering, every driver plans at most
//! its budget of them, in agent order, on the world's navigation mesh for each agent's radius.
//! The rest keep what they follow (or wait) and are planned on a later tick, first in line;
//! the choice and each route are the same on any thread count.

use std::cell::RefCell;

use rayon::prelude::*;

use crate::compile::AgentState;
use crate::navigation::{Route, RouteSearch};
use crate::{Vehicle, World};

/// From this many routes a tick, they are planned in parallel (each on its thread's search).
const PARALLEL_FROM: usize = 8;

thread_local! {
    /// Each worker thread's search, reused from tick to tick.
    static SEARCH: RefCell<RouteSearch> = RefCell::new(RouteSearch::default());
}

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
        let chosen = &self.wanting[..take];
        // Each route depends only on the mesh, the agent's position and its goal: planned in
        // any order, on any thread, it is the same route.
        let query = |search: &mut RouteSearch, &(_, holder, slot): &(u32, u32, u32)| {
            let (holder, slot) = (holder as usize, slot as usize);
            let vehicle = vehicles.get(holder)?;
            let route = states.get(holder)?.routes().get(slot)?;
            let planned =
                route.query(world.navigation(vehicle.radius), vehicle.position, search)?;
            Some((holder, slot, planned))
        };
        let planned: Vec<(usize, usize, Route)> = if take >= PARALLEL_FROM {
            chosen
                .par_iter()
                .filter_map(|wanted| SEARCH.with_borrow_mut(|search| query(search, wanted)))
                .collect()
        } else {
            let search = &mut self.search;
            chosen
                .iter()
                .filter_map(|wanted| query(search, wanted))
                .collect()
        };
        for (holder, slot, route) in planned {
            if let Some(slot) = states[holder].routes_mut().get_mut(slot) {
                slot.accept(route, revision);
            }
        }
        self.planned = take;
        self.deferred = self.wanting.len() - take;
    }
}
