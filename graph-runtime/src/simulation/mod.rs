//! The synchronous, deterministic, parallel simulation of a scene.

mod agent_order;
mod build;
mod follow;
mod keyframe;
mod layout;
#[cfg(test)]
mod notes_tests;
mod phase;
mod read;
mod tick;
pub(crate) mod work;

pub use keyframe::{Keyframe, RestoreError};
pub use phase::TickPhase;
pub use work::{TooMuchWork, Work};

use std::sync::Arc;

use rayon::prelude::*;

use crate::compile::{
    AgentState, Bindings, ParamValues, Program, Scratch, TagMask, TagMembers, TagTable,
};
use crate::pool::Warm;
use crate::scene::SceneWarning;
use crate::spatial::{Body, Extent, SpatialGrid};
use crate::tick::jumps::{self, Jumps};
use crate::tick::steer_chunk_for;
use crate::{Steering, Vehicle, World};
use agent_order::AgentOrder;
use layout::Layout;

/// Below this many agents the simulation keeps them in agent order: their cells stay in the
/// cache anyway. At 16,000 flocking agents the cell order saves 4 % of a tick (issue 15); at
/// 4,000 it neither gains nor loses, and at 1,000 to 4,000 on 2 threads the re-sort and
/// write-back once cost about 10 %.
const CELL_ORDER_MIN_AGENTS: usize = 8_192;

/// The agents are re-sorted into cell order every this many ticks, not every tick. The grid is
/// rebuilt every tick (neighbors are always current); only the order in which the tick walks
/// the agents ages, and in 8 ticks an agent moves a fraction of a cell, so consecutive agents
/// stay neighbors. Re-sorting every tick cost 6 % of a 16,000-agent flocking tick (moving
/// every vehicle, state and clock); spread over 8 ticks that is under 1 % (6 % / 8, worked
/// out, not measured apart), and the tick itself is no slower (`BENCHMARKS.md`, issue 15).
/// The order never changes a result.
const RESORT_EVERY: u64 = 8;

/// One group of agents at run time.
#[derive(Clone, Debug)]
pub struct GroupRuntime {
    /// The group's name.
    pub name: String,
    /// The graph file the program came from.
    pub graph: String,
    /// The compiled graph.
    pub program: Arc<Program>,
    /// Its parameter values (defaults and the group's overrides).
    pub params: ParamValues,
    /// Its names bound to the world.
    pub bindings: Bindings,
    /// Indices of the group's agents.
    pub agents: std::ops::Range<usize>,
}

/// Agents of every group of a scene, stepped together.
///
/// Each tick computes every steering force from the state at the start of the tick, then
/// integrates every vehicle, so the result does not depend on agent order or thread count.
///
/// # Examples
///
/// ```
/// # use graph_runtime::*;
/// # let graph = Graph::from_ron(r#"(format: "steergraph.graph", version: 1,
/// #   nodes: {1: Seek(target: Named("goal")), 2: Output(input: 1)})"#, "seek.graph.ron").unwrap();
/// # let scene = Scene::from_ron(r#"(format: "steergraph.scene", version: 1,
/// #   bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)), targets: {"goal": (5.0, 0.0)},
/// #   groups: [(name: "a", graph: "seek.graph.ron",
/// #             spawn: Agents([(position: (0.0, 0.0))]))])"#, "demo.scene.ron").unwrap();
/// let assets = SceneAssets {
///     scene,
///     origin: "demo.scene.ron".into(),
///     graphs: [("seek.graph.ron".to_owned(), graph)].into(),
///     flow_fields: Default::default(),
/// };
/// let mut simulation = Simulation::new(&assets).expect("valid scene");
/// for _ in 0..60 {
///     simulation.step(1.0 / 60.0);
/// }
/// assert!(simulation.vehicles()[0].position.x > 1.0);
/// ```
#[derive(Clone, Debug)]
pub struct Simulation {
    world: World,
    tag_table: TagTable,
    groups: Vec<GroupRuntime>,
    tags: Vec<TagMask>,
    /// Each agent's avoidance priority and layers, in agent order; empty while every agent has
    /// the default (so the usual tick reads nothing more).
    avoidance: Vec<crate::Avoidance>,
    /// The agents carrying each tag (built from `tags`, which do not change), for the groups'
    /// bindings.
    tag_members: Arc<TagMembers>,
    group_of: Vec<u32>,
    /// Where each agent sits in the working layout (grid-cell order); the fields below marked
    /// "by slot" are in that order, the others in agent order.
    layout: Layout,
    /// By slot: the vehicles the tick works on; `agent_order` gets them back in agent order.
    working: Vec<Vehicle>,
    /// Agent order of `working` and `slot_forces`, written back when first read after a tick
    /// (`simulation/agent_order.rs`).
    agent_order: AgentOrder,
    /// Whether the agent-order vehicles were handed out mutably since `working` was last
    /// written: the next tick then starts from them.
    vehicles_changed: bool,
    /// By slot.
    states: Vec<AgentState>,
    /// By slot: the steering of the last tick.
    slot_forces: Vec<Steering>,
    scratches: Vec<Scratch>,
    grid: SpatialGrid,
    tick: u64,
    seed: u64,
    warnings: Vec<SceneWarning>,
    wall_crossings: u64,
    /// By slot: how long the agent has been stuck ([`crate::stuck_clock`]).
    stuck_for: Vec<f32>,
    /// Jumps and falls, by agent (nothing in a world without gaps or jump links).
    jumps: Jumps,
    /// The re-sort's list of old slots, kept for its room.
    resort_sources: Vec<u32>,
    /// The re-sort's copy of `states`, kept for its room (empty until a re-sort needs it).
    spare_states: Vec<AgentState>,
    /// The extent of `working` as the last tick's steps left it, folded while stepping, for
    /// the next grid rebuild; `None` when something moved the agents since (the API, jumps).
    extent: Option<Extent>,
    /// The farthest any agent moved in the last tick's steps, when they were measured
    /// (`steer_and_step`); valid with `extent`, and told to the grid with it.
    moved: Option<f32>,
    /// By slot: each agent's position and velocity as the last tick's steps left them,
    /// written with `extent` and valid with it, for the next grid rebuild to read instead of
    /// the vehicles.
    bodies: Vec<Body>,
    /// Plans the routes Navigate nodes ask for, a bounded number a tick.
    planner: crate::tick::RoutePlanner,
    /// How many times the world was handed out to be edited ([`Simulation::world_mut`]):
    /// a recording keeps a copy of the world each time it changes.
    world_edits: u64,
    /// How many times a group's program was swapped ([`Simulation::set_program`]): a
    /// recording keeps the programs each time.
    program_edits: u64,
    /// How many times the vehicles were handed out to be edited
    /// ([`Simulation::vehicles_mut`]): a recording keeps a keyframe each time.
    vehicle_edits: u64,
}

impl Simulation {
    /// Sizes the grid for the groups as they are now (the tick core's [`crate::tick::size_grid`]).
    fn update_cell_size(&mut self) {
        let groups = self.groups.iter().map(|g| (&*g.program, &g.params));
        crate::tick::size_grid(&mut self.grid, groups);
    }

    /// Advances every agent by one tick of `dt` seconds, in parallel on the current rayon
    /// pool. Bit-identical whatever the number of threads.
    pub fn step(&mut self, dt: f32) {
        self.step_observed(dt, |_| {});
    }

    /// [`Simulation::step`], calling `observe` as each of the tick's phases ends, in the
    /// order of [`TickPhase`]: a profiler times the phases with it (`benches/phases.rs`,
    /// issue 47). A phase with nothing to do this tick still ends (at once). The same bits as
    /// [`Simulation::step`].
    pub fn step_observed(&mut self, dt: f32, mut observe: impl FnMut(TickPhase)) {
        if self.vehicles_changed {
            if let Some(copy) = self.agent_order.current() {
                let (vehicles, layout) = (&copy.vehicles, &self.layout);
                for (slot, working) in self.working.iter_mut().enumerate() {
                    if let Some(vehicle) = vehicles.get(layout.agent(slot)) {
                        *working = *vehicle;
                    }
                }
            }
            self.vehicles_changed = false;
            self.extent = None;
        }
        // The steering's split, and the pool's other threads awake between the tick's passes
        // (`pool/warm.rs`) when it splits.
        let programs = self.groups.iter().map(|g| &*g.program);
        let chunk = steer_chunk_for(self.slot_forces.len(), programs);
        let warm = Warm::for_tasks_of(self.slot_forces.len(), chunk);
        let needs_grid = self.groups.iter().any(|g| g.program.uses_neighbors());
        if needs_grid {
            let layout = &self.layout;
            let agent = |slot| layout.agent(slot) as u32;
            self.grid.set_layers(&self.avoidance);
            let known = self.extent.take();
            let moved = known.and(self.moved.take());
            self.grid.rebuild_known(
                &self.working,
                agent,
                known.map(|extent| (extent, &self.bodies[..])),
                &warm,
            );
            // The grid was rebuilt last tick too (else its notes were forgotten below), and
            // the agents moved only in their steps since.
            if let Some(moved) = moved {
                self.grid.agents_moved_at_most(moved);
            }
            observe(TickPhase::Grid);
            self.resort();
            observe(TickPhase::Resort);
            self.grid.prepare_tree();
            observe(TickPhase::Tree);
        } else {
            // The agents move this tick with the grid not rebuilt: its notes of their nearest
            // say nothing of the next rebuild.
            self.grid.forget_neighbor_notes();
            observe(TickPhase::Grid);
            observe(TickPhase::Resort);
            observe(TickPhase::Tree);
        }
        // Programs that read other agents by index (targets, Unaligned collision avoidance,
        // Reciprocal) see them in agent order as the last tick left them; for the others
        // agent order waits until something reads it.
        let order = std::mem::take(&mut self.agent_order);
        let reads_agents = self.groups.iter().any(|g| g.program.reads_other_agents());
        let agent_vehicles: &[Vehicle] = if reads_agents {
            &order
                .get(&self.working, &self.slot_forces, &self.layout)
                .vehicles
        } else {
            &[]
        };
        observe(TickPhase::AgentOrder);
        self.place_tag_members(agent_vehicles);
        observe(TickPhase::Tags);
        if self.groups.iter().any(|g| g.program.navigates()) {
            let layout = &self.layout;
            let states = (&mut self.states[..], &self.stuck_for[..]);
            (self.planner).plan(&self.world, &self.working, states, |slot| {
                layout.agent(slot)
            });
        }
        observe(TickPhase::Routes);
        let (crossings, extent, moved) =
            self.steer_and_step(dt, agent_vehicles, reads_agents, (chunk, &warm));
        observe(TickPhase::Steer);
        self.tag_members.end_tick();
        self.agent_order = order;
        self.agent_order.outdate();
        self.wall_crossings += crossings;
        // Flights, landings and falls move agents after their steps.
        self.extent = (!self.jumps.active()).then_some(extent);
        self.moved = moved;
        self.end_jumps(dt);
        self.tick += 1;
        observe(TickPhase::Jumps);
    }

    /// Places in cells, at their positions in `vehicles` (agent order, the tick's), the
    /// members of each tag that enough agents read for `NearestTagged` to search them that
    /// way ([`TagMembers`]).
    fn place_tag_members(&mut self, vehicles: &[Vehicle]) {
        let mut readers = [0_usize; TagMask::BITS as usize];
        for group in &self.groups {
            TagMembers::add_readers(&mut readers, &group.bindings.tags, group.agents.len());
        }
        if readers.iter().all(|&count| count == 0) {
            return;
        }
        // The groups give their handles back so the members can be changed in place (a
        // clone of the simulation gets its own copy here).
        for group in &mut self.groups {
            group.bindings.members = None;
        }
        Arc::make_mut(&mut self.tag_members).place_in_cells(vehicles, &readers);
        for group in &mut self.groups {
            group.bindings.set_members(Arc::clone(&self.tag_members));
        }
    }

    /// Puts the agents in the order the tick will walk them. While the grid's k-d tree
    /// answers queries (a crowd too dense for the cells), every tick in the order of last
    /// tick's tree: it keeps neighbors together inside a crowded cell, so each agent's
    /// nearest-neighbor search reads the leaves the previous agent's just read (a crowd
    /// spreads fast, and a re-sort every 8 ticks left most ticks in a stale order: issue 28,
    /// `BENCHMARKS.md`). Otherwise every [`RESORT_EVERY`] ticks in the grid's cell order. The
    /// order never changes a result.
    fn resort(&mut self) {
        if self.working.len() < CELL_ORDER_MIN_AGENTS {
            return;
        }
        let layout = &self.layout;
        let sources = if let Some(agents) = self.grid.last_tree_order() {
            // Each agent's slot, on every thread (on one, 10-15 µs of a 10,000-agent tick).
            self.resort_sources.resize(agents.len(), 0);
            let every = (self.resort_sources.par_iter_mut().zip(agents))
                .with_min_len(layout::slots_per_task(agents.len()))
                .all(|(source, &agent)| {
                    let slot = layout.slot(agent as usize);
                    slot.inspect(|&slot| *source = slot as u32).is_some()
                });
            if !every {
                // An agent the layout has no slot for (none expected: the tree holds the
                // agents this tick's grid placed): the others' slots, in order, as before.
                self.resort_sources.clear();
                let slots = agents
                    .iter()
                    .filter_map(|&agent| layout.slot(agent as usize));
                self.resort_sources.extend(slots.map(|slot| slot as u32));
            }
            &self.resort_sources
        } else if self.tick.is_multiple_of(RESORT_EVERY) {
            // Read where the grid keeps it (a copy was 4 bytes an agent on one thread).
            self.grid.sources()
        } else {
            return;
        };
        self.layout.resort(
            sources,
            &mut self.working,
            &mut self.stuck_for,
            (&mut self.states, &mut self.spare_states),
        );
    }

    /// The tick's end in a world with gaps or jump links: flights move on, take-offs leave
    /// the ground, walkers in gaps fall (`jumps.rs`). Take-offs asked for in a world without
    /// are forgotten.
    fn end_jumps(&mut self, dt: f32) {
        let (take_offs, falls) = Scratch::drain_jumps(&mut self.scratches);
        if !self.jumps.active() {
            return;
        }
        let layout = &self.layout;
        self.jumps.end_tick(
            &self.world,
            dt,
            jumps::Asked { take_offs, falls },
            &mut self.working,
            &mut self.states,
            |agent| layout.slot(agent),
        );
    }

    /// Re-resolves every group's names against the world; returns what did not resolve
    /// ([`BindError::is_warning`](crate::BindError::is_warning) tells a tag no agent carries from a missing name).
    pub fn rebind(&mut self) -> Vec<(String, crate::BindError)> {
        let mut errors = Vec::new();
        for group in &mut self.groups {
            let (bindings, bind_errors) =
                Bindings::new(&group.program, &self.world, &self.tag_table);
            group.bindings = bindings;
            group.bindings.set_members(Arc::clone(&self.tag_members));
            errors.extend(bind_errors.into_iter().map(|e| (group.name.clone(), e)));
        }
        errors
    }

    /// Replaces the program of group `group` (hot swap after an edit) without touching agent
    /// positions; agent states are fitted to the new program. Returns the names the program
    /// reads that the world lacks. Refused, with the old program kept, when the agents would
    /// then keep more neighbors a tick than
    /// [`MAX_NEIGHBOR_WORK`](crate::limits::MAX_NEIGHBOR_WORK) or project themselves onto
    /// more path segments than [`MAX_PATH_WORK`](crate::limits::MAX_PATH_WORK), as
    /// [`Simulation::new`] refuses such a scene.
    pub fn set_program(
        &mut self,
        group: usize,
        program: Arc<Program>,
        params: ParamValues,
    ) -> Result<Vec<crate::BindError>, TooMuchWork> {
        work::check(&self.groups, &self.world, Some((group, &program, &params)))?;
        let Some(runtime) = self.groups.get_mut(group) else {
            return Ok(Vec::new());
        };
        let (mut bindings, errors) = Bindings::new(&program, &self.world, &self.tag_table);
        bindings.set_members(Arc::clone(&self.tag_members));
        for agent in runtime.agents.clone() {
            if let Some(state) = self
                .layout
                .slot(agent)
                .and_then(|slot| self.states.get_mut(slot))
            {
                state.fit(&program);
            }
        }
        runtime.program = program;
        runtime.params = params;
        runtime.bindings = bindings;
        self.update_cell_size();
        self.program_edits += 1;
        Ok(errors)
    }

    /// How many times a group's program was swapped ([`Simulation::set_program`]).
    pub fn program_edits(&self) -> u64 {
        self.program_edits
    }

    /// [`Simulation::set_program`] without counting an edit (a recording putting back the
    /// programs a past step ran).
    pub(crate) fn put_program(&mut self, group: usize, program: Arc<Program>, params: ParamValues) {
        let edits = self.program_edits;
        // The programs were run with this world and these agents: within the limits.
        let _ = self.set_program(group, program, params);
        self.program_edits = edits;
    }
}

/// Every agent's position and velocity as bits, in agent order: what the tests that compare
/// two runs bit for bit compare.
#[cfg(test)]
fn vehicle_bits(vehicles: &[Vehicle]) -> Vec<[u32; 4]> {
    (vehicles.iter())
        .map(|v| {
            let [px, py] = v.position.to_array();
            let [vx, vy] = v.velocity.to_array();
            [px, py, vx, vy].map(f32::to_bits)
        })
        .collect()
}
