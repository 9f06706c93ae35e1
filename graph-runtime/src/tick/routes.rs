//! Planning the routes Navigate nodes ask for, and those planned before the world's meshes
//! were last rebuilt (a wall moved): before each tick's steering, every driver plans at most
//! its budget of them, those that have waited longest first, then in agent order. The rest
//! keep what they follow (or wait) and are planned on a later tick; the choice and each route
//! are the same on any thread count.
//!
//! The driver also asks for plans the evaluation cannot see a reason for: an agent stuck
//! ([`crate::STUCK_SECONDS`]) on a route planned at least as long ago, and one whose route
//! crosses a door that jammed after it was planned (each route looks half a second apart, by
//! its own clock). When a route is planned or looks, the standing agents at each
//! mesh's doors are counted ([`Crowding`]: as if afresh, though only the agents that moved
//! are worked out again); routes pay for crossing them.
//!
//! Everything that carries over from tick to tick is in the agents' states (each route's age,
//! how long it has waited, whether the agent asks the planner for anything), none in the
//! planner but the mesh revision it last saw: a driver made again from nothing (as the Bevy
//! plugin makes its crowd when the world changes) reads every agent's routes on its first tick
//! and plans as the one before it would have.
//!
//! What the planner reads each tick is bounded by the agents that ask: those whose Navigate
//! evaluation asked ([`RouteSlot::needs_planner`](crate::RouteSlot): a plan, or a look for a
//! jammed door due) and stuck ones; every agent only on a tick whose meshes are new.

use std::cell::RefCell;

use rayon::prelude::*;

use crate::compile::{AgentState, RouteSlot};
use crate::navigation::{Crowding, Route, RouteSearch};
use crate::{Vehicle, World};

/// Standing: moving at under this fraction of its top speed (a queue at a door, a crowd that
/// waits, agents resting on their goals).
pub const STANDING_FRACTION: f32 = 0.25;

/// A route looks for doors jammed since it was planned this often (s), by its own clock: as
/// often as Detour's crowd looks for a better way along an agent's path (`OPT_TIME_THR` in
/// its `updateTopologyOptimization`). A door jams over seconds, and each look reads the
/// route's corridor in the planning phase (10,000 routes make 333 looks a tick at 60 ticks a
/// second; every quarter second made 667, about a tenth of a 0.5 ms phase, `BENCHMARKS.md`).
pub const JAM_CHECK_SECONDS: f32 = 0.5;

/// From this many routes a tick, they are planned in parallel (each on its thread's search).
const PARALLEL_FROM: usize = 8;

/// From this many agents, their routes are read in parallel, in chunks of [`SCAN_CHUNK`] (a
/// look for a jammed door reads a route's corridor, and thousands look each second).
const PARALLEL_SCAN_FROM: usize = 2_048;
const SCAN_CHUNK: usize = 1_024;

/// A route asking for a plan: (`u32::MAX` less the ticks it waited, agent index, the driver's
/// index of the agent, route slot), so that they sort longest waiting first.
type Wanted = (u32, u32, u32, u32);

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
    /// The routes asking for a plan, this tick's.
    wanting: Vec<Wanted>,
    /// The most routes planned per tick ([`ROUTE_BUDGET`] unless a game sets it).
    pub budget: usize,
    /// How many routes the last tick planned.
    pub planned: usize,
    /// How many asked and were left for a later tick.
    pub deferred: usize,
    /// The standing agents at each mesh's doors, by the world's meshes in order: counted on
    /// each tick that uses them, each agent's shares kept from count to count (a count is
    /// the same as one afresh: [`Crowding`]; one kept for another mesh starts afresh).
    crowds: Vec<Crowding>,
    /// The world's navigation revision the last tick planned on (`None` before the first):
    /// on another, every agent's routes are read (each route planned before it wants a plan).
    revision: Option<u64>,
    /// How many agents' routes the last tick read.
    pub read: usize,
    /// How many agents the last tick's count of the crowds at doors worked out, over all
    /// meshes (0 when nothing read the crowds).
    pub counted: usize,
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
            revision: None,
            read: 0,
            counted: 0,
        }
    }
}

impl RoutePlanner {
    /// The world's navigation revision the last tick planned on (`None` before the first).
    pub(crate) fn planned_on(&self) -> Option<u64> {
        self.revision
    }

    /// Plans next as after a tick that planned on `revision` (a simulation put back to a
    /// keyframe): on another revision than the world's, every agent's routes are read.
    pub(crate) fn set_planned_on(&mut self, revision: Option<u64>) {
        self.revision = revision;
    }

    /// Plans up to `budget` of the routes the agents' states ask for, those that have waited
    /// longest first, then in agent order: `vehicles[i]`, `states[i]` and `stuck_for[i]` (its
    /// stuck clock, may be empty) are the driver's agent `i`, whose index among all agents is
    /// `agent(i)`. Each route starts at the agent's position and runs on the world's mesh for
    /// its radius ([`World::navigation`]).
    pub fn plan(
        &mut self,
        world: &World,
        vehicles: &[Vehicle],
        (states, stuck_for): (&mut [AgentState], &[f32]),
        agent: impl Fn(usize) -> usize + Sync,
    ) {
        let revision = world.navigation_revision();
        let everyone = self.revision != Some(revision);
        self.revision = Some(revision);
        let read = (&mut *states, stuck_for);
        let mut counted = self.read_routes(world, vehicles, read, (everyone, revision), &agent);
        let take = self.choose();
        let (chosen, left) = self.wanting.split_at(take);
        let pays_for_crowds = |&(_, _, holder, slot): &Wanted| {
            (states.get(holder as usize))
                .and_then(|state| state.routes().get(slot as usize))
                .is_some_and(|route| route.crowd_cost > 0.0)
        };
        if counted.is_none() && chosen.iter().any(pays_for_crowds) {
            counted = Some(count_crowds(&mut self.crowds, world, vehicles));
        }
        defer(states, left);
        let crowds = &self.crowds;
        // Each route depends only on the mesh, the crowd counted on it, the agent's position
        // and its goal: planned in any order, on any thread, it is the same route.
        let query = |search: &mut RouteSearch, &(_, _, holder, slot): &Wanted| {
            let (holder, slot) = (holder as usize, slot as usize);
            let vehicle = vehicles.get(holder)?;
            let route = states.get(holder)?.routes().get(slot)?;
            let on =
                (world.navigation_numbered(vehicle.radius)).map(|(m, mesh)| (mesh, crowds.get(m)));
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
                .and_then(|v| world.navigation_numbered(v.radius))
                .and_then(|(m, _)| self.crowds.get(m));
            if let Some(slot) = states[holder].routes_mut().get_mut(slot) {
                // Counted this tick for every route that pays for crowds.
                let crowding = crowding.filter(|_| slot.crowd_cost > 0.0);
                slot.accept(route, revision, crowding);
            }
        }
        self.planned = take;
        self.counted = counted.unwrap_or(0);
        self.deferred = self.wanting.len() - take;
    }

    /// Reads the routes of the agents that ask the planner (all of them when `everyone`: the
    /// world's navigation `revision` is new; and stuck ones), into `wanting` those that want
    /// a plan: each marks whether it does (a stuck agent's route old enough, a door ahead
    /// jammed since it was planned). The crowds are counted first when a look for a jammed
    /// door is due: how many agents that count worked out, `None` when it did not run.
    fn read_routes(
        &mut self,
        world: &World,
        vehicles: &[Vehicle],
        (states, stuck_for): (&mut [AgentState], &[f32]),
        (everyone, revision): (bool, u64),
        agent: &(impl Fn(usize) -> usize + Sync),
    ) -> Option<usize> {
        let stuck = |holder: usize| stuck_for.get(holder).copied().is_some_and(crate::is_stuck);
        let reads =
            |holder: usize, state: &AgentState| everyone || stuck(holder) || state.asks_planner;
        // The crowds, counted once if anything this tick reads them: first if a route looks
        // for a jammed door (the looks then read them in parallel).
        let mut counted = None;
        let looks = (states.iter().enumerate())
            .any(|(h, state)| reads(h, state) && state.routes().iter().any(RouteSlot::may_look));
        if looks {
            counted = Some(count_crowds(&mut self.crowds, world, vehicles));
        }
        let crowds = &self.crowds;
        // Each agent's routes are read and marked by themselves: in chunks, on any thread.
        let scan = |first: usize, chunk: &mut [AgentState], wanting: &mut Vec<Wanted>| {
            let mut read = 0;
            for (holder, state) in (first..).zip(chunk.iter_mut()) {
                if !reads(holder, state) {
                    continue;
                }
                let stuck = stuck(holder);
                // Asks again if a route is left for a later tick.
                state.asks_planner = false;
                read += 1;
                let vehicle = vehicles.get(holder);
                for (slot, route) in state.routes_mut().iter_mut().enumerate() {
                    if route.route.reach.is_some() && !route.wants_plan {
                        route.wants_plan = (stuck && route.since_plan >= crate::STUCK_SECONDS)
                            || (route.may_look()
                                && route.time_to_look()
                                && vehicle.is_some_and(|v| {
                                    let Some((m, mesh)) = world.navigation_numbered(v.radius)
                                    else {
                                        return false;
                                    };
                                    let near = || mesh.triangle_near(v.position);
                                    crowds.get(m).is_some_and(|c| route.jammed_ahead(c, near))
                                }));
                    }
                    if route.wants_plan(revision) {
                        wanting.push((
                            u32::MAX - route.waited,
                            agent(holder) as u32,
                            holder as u32,
                            slot as u32,
                        ));
                    }
                }
            }
            read
        };
        self.wanting.clear();
        self.read = if states.len() < PARALLEL_SCAN_FROM {
            scan(0, states, &mut self.wanting)
        } else {
            let chunks: Vec<(Vec<Wanted>, usize)> = (states.par_chunks_mut(SCAN_CHUNK))
                .enumerate()
                .map(|(c, chunk)| {
                    let mut wanting = Vec::new();
                    let read = scan(c * SCAN_CHUNK, chunk, &mut wanting);
                    (wanting, read)
                })
                .collect();
            let mut read = 0;
            for (wanting, chunk_read) in chunks {
                self.wanting.extend_from_slice(&wanting);
                read += chunk_read;
            }
            read
        };
        counted
    }

    /// How many of the routes wanting a plan are planned this tick (at most the budget), put
    /// first in `wanting`, longest waiting first, then in agent order: chosen without sorting
    /// the rest (after a jam thousands may wait; no two keys are equal, so the choice is a
    /// full sort's).
    fn choose(&mut self) -> usize {
        let take = self.wanting.len().min(self.budget);
        if take < self.wanting.len() {
            self.wanting.select_nth_unstable(take);
        }
        self.wanting[..take].sort_unstable();
        take
    }
}

/// Leaves the routes `left` for a later tick: each has waited one more, and its agent asks
/// again.
fn defer(states: &mut [AgentState], left: &[Wanted]) {
    for &(_, _, holder, slot) in left {
        let state = &mut states[holder as usize];
        state.asks_planner = true;
        if let Some(route) = state.routes_mut().get_mut(slot as usize) {
            route.waited = route.waited.saturating_add(1);
        }
    }
}

/// Counts the standing agents of `vehicles` at the doors of each of the world's meshes into
/// `crowds`; how many agents it worked out, over all meshes.
fn count_crowds(crowds: &mut Vec<Crowding>, world: &World, vehicles: &[Vehicle]) -> usize {
    crowds.resize_with(world.navigation_meshes().count(), Crowding::default);
    let standing = |i: usize| {
        let v = &vehicles[i];
        (v.velocity.length() < STANDING_FRACTION * v.max_speed).then_some((v.position, v.radius))
    };
    let mut worked = 0;
    for (crowding, mesh) in crowds.iter_mut().zip(world.navigation_meshes()) {
        crowding.count_agents(mesh, vehicles.len(), standing);
        worked += crowding.worked();
    }
    worked
}
