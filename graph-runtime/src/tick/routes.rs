//! Planning the routes Navigate nodes ask for, and those planned before the world's meshes
//! were last rebuilt (a wall moved): before each tick's steering, every driver plans at most
//! its budget of them, in agent order, on the world's navigation mesh for each agent's radius.
//! The rest keep what they follow (or wait) and are planned on a later tick, first in line
//! (the turn goes round the agents, so none waits behind others that keep asking); the choice
//! and each route are the same on any thread count.
//!
//! The driver also asks for plans the evaluation cannot see a reason for: an agent stuck
//! ([`crate::STUCK_SECONDS`]) on a route planned at least as long ago, and one whose route
//! crosses a door that jammed after it was planned. A quarter of a second apart it counts the
//! standing agents at each mesh's doors ([`Crowding`]); routes pay for crossing them.

use std::cell::RefCell;

use rayon::prelude::*;

use crate::compile::AgentState;
use crate::navigation::{Crowding, NavMesh, Route, RouteSearch};
use crate::{Vehicle, World};

/// Standing: moving at under this fraction of its top speed (a queue at a door, a crowd that
/// waits, agents resting on their goals).
pub const STANDING_FRACTION: f32 = 0.25;

/// The standing agents at doors are counted every this many ticks (a quarter of a second at
/// 60 ticks a second), and routes checked for doors jammed since they were planned.
const CROWD_EVERY: u64 = 15;

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
    /// The standing agents at each mesh's doors, by the world's meshes in order.
    crowds: Vec<Crowding>,
    /// Ticks planned so far (the crowds are counted on some of them).
    ticks: u64,
    /// The agent whose turn to be planned comes first (the one after the last planned).
    turn: u32,
}

impl Default for RoutePlanner {
    fn default() -> Self {
        Self {
            search: RouteSearch::default(),
            wanting: Vec::new(),
            budget: ROUTE_BUDGET,
            planned: 0,
            deferred: 0,
            crowds: Vec::new(),
            ticks: 0,
            turn: 0,
        }
    }
}

impl RoutePlanner {
    /// Plans up to `budget` of the routes the agents' states ask for, in agent order from the
    /// one whose turn it is: `vehicles[i]`, `states[i]` and `stuck_for[i]` (its stuck clock,
    /// may be empty) are the driver's agent `i`, whose index among all agents is `agent(i)`.
    /// Each route starts at the agent's position and runs on the world's mesh for its radius
    /// ([`World::navigation`]).
    pub fn plan(
        &mut self,
        world: &World,
        vehicles: &[Vehicle],
        (states, stuck_for): (&mut [AgentState], &[f32]),
        agent: impl Fn(usize) -> usize,
    ) {
        let meshes = world.navigation_meshes().count();
        let recount = self.ticks.is_multiple_of(CROWD_EVERY)
            || self.crowds.len() != meshes
            || (world.navigation_meshes().zip(&self.crowds))
                .any(|(m, c)| !c.fits(m.triangle_count()));
        self.ticks += 1;
        if recount {
            self.count_crowds(world, vehicles);
        }
        self.wanting.clear();
        let revision = world.navigation_revision();
        for (holder, state) in states.iter_mut().enumerate() {
            let stuck = stuck_for.get(holder).copied().is_some_and(crate::is_stuck);
            let vehicle = vehicles.get(holder);
            for (slot, route) in state.routes_mut().iter_mut().enumerate() {
                if route.route.reach.is_some() && !route.wants_plan {
                    route.wants_plan = (stuck && route.since_plan >= crate::STUCK_SECONDS)
                        || (recount
                            && vehicle.is_some_and(|v| {
                                let Some((m, mesh)) = mesh_for(world, v.radius) else {
                                    return false;
                                };
                                let near = || mesh.triangle_near(v.position);
                                self.crowds
                                    .get(m)
                                    .is_some_and(|c| route.jammed_ahead(c, near))
                            }));
                }
                if route.wants_plan(revision) {
                    self.wanting
                        .push((agent(holder) as u32, holder as u32, slot as u32));
                }
            }
        }
        self.wanting.sort_unstable();
        // The turn goes round: those from the agent whose turn it is first, then the rest.
        let first = self.wanting.partition_point(|w| w.0 < self.turn);
        self.wanting.rotate_left(first);
        let take = self.wanting.len().min(self.budget);
        let chosen = &self.wanting[..take];
        if let Some(last) = chosen.last() {
            self.turn = last.0.wrapping_add(1);
        }
        let crowds = &self.crowds;
        // Each route depends only on the mesh, the crowd counted on it, the agent's position
        // and its goal: planned in any order, on any thread, it is the same route.
        let query = |search: &mut RouteSearch, &(_, holder, slot): &(u32, u32, u32)| {
            let (holder, slot) = (holder as usize, slot as usize);
            let vehicle = vehicles.get(holder)?;
            let route = states.get(holder)?.routes().get(slot)?;
            let on =
                mesh_for(world, vehicle.radius).and_then(|(m, mesh)| Some((mesh, crowds.get(m)?)));
            let planned = route.query(on, vehicle.position, search)?;
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
            let crowding = (vehicles.get(holder))
                .and_then(|v| mesh_for(world, v.radius))
                .and_then(|(m, _)| self.crowds.get(m));
            if let Some(slot) = states[holder].routes_mut().get_mut(slot) {
                slot.accept(route, revision, crowding);
            }
        }
        self.planned = take;
        self.deferred = self.wanting.len() - take;
    }

    /// Counts the standing agents of `vehicles` at the doors of each of the world's meshes.
    fn count_crowds(&mut self, world: &World, vehicles: &[Vehicle]) {
        self.crowds
            .resize_with(world.navigation_meshes().count(), Crowding::default);
        let standing = || {
            (vehicles.iter())
                .filter(|v| v.velocity.length() < STANDING_FRACTION * v.max_speed)
                .map(|v| (v.position, v.radius))
        };
        for (crowding, mesh) in self.crowds.iter_mut().zip(world.navigation_meshes()) {
            crowding.count(mesh, standing());
        }
    }
}

/// Which of the world's meshes (by ascending radius) agents of `radius` walk on, and where it
/// is among them: the same as [`World::navigation`].
fn mesh_for(world: &World, radius: f32) -> Option<(usize, &NavMesh)> {
    (world.navigation_meshes().enumerate()).find(|(_, mesh)| mesh.radius() >= radius)
}
