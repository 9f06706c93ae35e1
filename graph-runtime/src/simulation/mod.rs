//! The synchronous, deterministic, parallel simulation of a scene.

mod agent_order;
mod jumps;
mod layout;
mod tick;

use std::sync::Arc;

use glam::Vec2;

use crate::compile::BindError;
use crate::compile::{
    AgentState, Bindings, Context, ParamValues, Program, Scratch, TagMask, TagMembers, TagTable,
    Trace,
};
use crate::rng::AgentRng;
use crate::scene::{OwnPoints, SceneAssets, SceneError, SceneWarning, Spawn};
use crate::spatial::{Body, Extent, SpatialGrid};
use crate::{Flight, JumpEvent, Motion, OwnGoals, Steering, Turning, Vehicle, World};
use agent_order::AgentOrder;
use jumps::Jumps;
use layout::Layout;

/// Salt separating the spawn RNG streams from the agents' own streams.
const SPAWN_SALT: u64 = 0x5EED_5A17_0000_0000;
/// Mixed into the scene seed for the groups' random own points, so that they draw from a
/// stream of their own and spawn places stay what they were before own points existed.
const GOAL_SALT: u64 = 0x60A1_5A17_0000_0000;

/// Agents are evaluated in at most this many parallel chunks (of at least
/// `MIN_AGENTS_PER_TASK` agents), each with its own long-lived scratch buffers, so a warm tick
/// allocates nothing. The chunking never changes results.
const MAX_CHUNKS: usize = 64;

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

/// Integration and writing back hand rayon at least this many agents per task: a task of a
/// few agents costs more to hand over than to run.
const MIN_AGENTS_PER_TASK: usize = 128;

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
    /// By slot: each agent's position and velocity as the last tick's steps left them,
    /// written with `extent` and valid with it, for the next grid rebuild to read instead of
    /// the vehicles.
    bodies: Vec<Body>,
}

impl Simulation {
    /// Builds the world, compiles every group's graph, binds names and spawns the agents.
    ///
    /// The scene is validated first ([`crate::Scene::validate`]: finite numbers in range, at
    /// most [`crate::limits::MAX_AGENTS`] agents), before anything is allocated for it. A tag
    /// that no agent carries is not an error but a warning ([`Simulation::warnings`]).
    #[expect(
        clippy::too_many_lines,
        reason = "builds every group in order: validate, bind, spawn, index"
    )]
    pub fn new(assets: &SceneAssets) -> Result<Self, Vec<SceneError>> {
        let scene = &assets.scene;
        let origin = &assets.origin;
        let problems = scene.validate();
        if !problems.is_empty() {
            return Err(problems
                .into_iter()
                .map(|message| SceneError::Invalid {
                    origin: origin.clone(),
                    message,
                })
                .collect());
        }
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        let world = World::from_scene(scene, &assets.flow_fields);

        let mut tag_table = TagTable::default();
        let mut group_masks = Vec::new();
        for group in &scene.groups {
            if let Some(mask) = tag_table.mask(&group.tags) {
                group_masks.push(mask);
            } else {
                errors.push(SceneError::TooManyTags {
                    origin: origin.clone(),
                });
                group_masks.push(0);
            }
        }

        let mut simulation = Self {
            world,
            tag_table,
            groups: Vec::new(),
            tags: Vec::new(),
            tag_members: Arc::default(),
            group_of: Vec::new(),
            layout: Layout::default(),
            working: Vec::new(),
            agent_order: AgentOrder::default(),
            vehicles_changed: false,
            states: Vec::new(),
            slot_forces: Vec::new(),
            scratches: Vec::new(),
            grid: SpatialGrid::new(1.0),
            tick: 0,
            seed: scene.seed,
            wall_crossings: 0,
            stuck_for: Vec::new(),
            warnings: Vec::new(),
            jumps: Jumps::default(),
            resort_sources: Vec::new(),
            spare_states: Vec::new(),
            extent: None,
            bodies: Vec::new(),
        };
        let mut programs = std::collections::BTreeMap::new();
        for (group_index, group) in scene.groups.iter().enumerate() {
            let program = match programs.get(&group.graph) {
                Some(program) => Arc::clone(program),
                None => {
                    let Some(graph) = assets.graphs.get(&group.graph) else {
                        errors.push(SceneError::Invalid {
                            origin: origin.clone(),
                            message: format!(
                                "groups[{group_index}]: graph \"{}\" is not loaded",
                                group.graph
                            ),
                        });
                        continue;
                    };
                    match crate::compile_with(graph, &group.graph, &assets.graphs) {
                        Ok(program) => {
                            let program = Arc::new(program);
                            programs.insert(group.graph.clone(), Arc::clone(&program));
                            program
                        }
                        Err(compile_errors) => {
                            errors.extend(compile_errors.into_iter().map(|error| {
                                SceneError::Compile {
                                    graph: group.graph.clone(),
                                    error,
                                }
                            }));
                            continue;
                        }
                    }
                }
            };
            let params = match program.parameters(&group.parameters) {
                Ok(params) => params,
                Err(parameter_errors) => {
                    errors.extend(parameter_errors.into_iter().map(|error| {
                        SceneError::Parameters {
                            origin: origin.clone(),
                            group: group.name.clone(),
                            error,
                        }
                    }));
                    continue;
                }
            };
            let (bindings, bind_errors) =
                Bindings::new(&program, &simulation.world, &simulation.tag_table);
            for error in bind_errors {
                if let BindError::UnknownTag(tag) = error {
                    warnings.push(SceneWarning::TagNotCarried {
                        origin: origin.clone(),
                        group: group.name.clone(),
                        graph: group.graph.clone(),
                        tag,
                    });
                } else {
                    errors.push(SceneError::Bind {
                        origin: origin.clone(),
                        group: group.name.clone(),
                        graph: group.graph.clone(),
                        error,
                    });
                }
            }
            let vehicle_params = group.vehicle.unwrap_or_else(|| program.vehicle(&params));
            let turning = Turning::from(group.turning.unwrap_or_else(|| program.turning(&params)));
            if program.leaves_facing_unturned(&turning) {
                warnings.push(SceneWarning::FacingNeverTurns {
                    origin: origin.clone(),
                    group: group.name.clone(),
                    graph: group.graph.clone(),
                });
            }
            let start = simulation.working.len();
            let mut spawn_rng = AgentRng::new(scene.seed ^ SPAWN_SALT, group_index as u64);
            let spawned: Vec<(Vec2, Vec2)> = match &group.spawn {
                Spawn::Agents(agents) => agents.iter().map(|a| (a.position, a.velocity)).collect(),
                Spawn::Random { count, area, speed } => (0..*count)
                    .map(|_| {
                        let position = area.random_point(&mut spawn_rng);
                        let heading = Vec2::from_angle(spawn_rng.unit() * std::f32::consts::TAU);
                        (position, heading * *speed)
                    })
                    .collect(),
            };
            let mut goal_rng = AgentRng::new(scene.seed ^ GOAL_SALT, group_index as u64);
            // Each name once for the whole group, shared by its agents' tables.
            let goals: Vec<(std::sync::Arc<str>, &OwnPoints)> = group
                .goals
                .iter()
                .map(|(name, points)| (std::sync::Arc::from(name.as_str()), points))
                .collect();
            for (in_group, (position, velocity)) in spawned.into_iter().enumerate() {
                let index = simulation.working.len() as u64;
                let mut state = AgentState::new(&program, scene.seed, index);
                for (name, points) in &goals {
                    let point = match points {
                        OwnPoints::Each(list) => {
                            match list.get(in_group.checked_rem(list.len()).unwrap_or(0)) {
                                Some(point) => *point,
                                None => continue,
                            }
                        }
                        OwnPoints::Random(area) => area.random_point(&mut goal_rng),
                    };
                    state.own.set_goal_shared(name, point);
                }
                // Slot `s` is agent `s` until the first re-sort.
                simulation
                    .working
                    .push(Vehicle::new(position, velocity, vehicle_params).with_turning(turning));
                simulation
                    .tags
                    .push(group_masks.get(group_index).copied().unwrap_or(0));
                simulation.group_of.push(simulation.groups.len() as u32);
                simulation.states.push(state);
            }
            simulation.groups.push(GroupRuntime {
                name: group.name.clone(),
                graph: group.graph.clone(),
                program,
                params,
                bindings,
                agents: start..simulation.working.len(),
            });
        }
        simulation.tag_members = Arc::new(TagMembers::new(&simulation.tags));
        for group in &mut simulation.groups {
            group
                .bindings
                .set_members(Arc::clone(&simulation.tag_members));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        simulation.warnings = warnings;
        simulation.slot_forces = vec![Steering::ZERO; simulation.working.len()];
        simulation.jumps = Jumps::new(&simulation.world, simulation.working.len());
        simulation.layout = Layout::identity(simulation.working.len());
        simulation.agent_order = AgentOrder::new(simulation.working.clone());
        simulation.stuck_for = vec![0.0; simulation.working.len()];
        simulation.update_cell_size();
        Ok(simulation)
    }

    fn update_cell_size(&mut self) {
        let radius = self
            .groups
            .iter()
            .map(|g| g.program.neighborhood_radius(&g.params))
            .fold(0.0, f32::max);
        self.grid
            .set_cell_size(crate::tick::neighbor_cell_size(radius));
        let summed = self
            .groups
            .iter()
            .map(|g| g.program.summed_neighbors(&g.params));
        self.grid.expect_neighbors(summed.max().unwrap_or(0));
    }

    /// Advances every agent by one tick of `dt` seconds, in parallel on the current rayon
    /// pool. Bit-identical whatever the number of threads.
    pub fn step(&mut self, dt: f32) {
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
        let needs_grid = self.groups.iter().any(|g| g.program.uses_neighbors());
        if needs_grid {
            let layout = &self.layout;
            let agent = |slot| layout.agent(slot) as u32;
            self.grid.rebuild_known(
                &self.working,
                agent,
                self.extent.take().map(|extent| (extent, &self.bodies[..])),
            );
            self.resort();
            self.grid.prepare_tree();
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
        self.place_tag_members(agent_vehicles);
        let (crossings, extent) = self.steer_and_step(dt, agent_vehicles);
        self.tag_members.end_tick();
        self.agent_order = order;
        self.agent_order.outdate();
        self.wall_crossings += crossings;
        // Flights, landings and falls move agents after their steps.
        self.extent = (!self.jumps.active()).then_some(extent);
        self.end_jumps(dt);
        self.tick += 1;
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
        if let Some(agents) = self.grid.last_tree_order() {
            self.resort_sources.clear();
            let slots = agents
                .iter()
                .filter_map(|&agent| layout.slot(agent as usize));
            self.resort_sources.extend(slots.map(|slot| slot as u32));
        } else if self.tick.is_multiple_of(RESORT_EVERY) {
            self.resort_sources.clear();
            self.resort_sources.extend_from_slice(self.grid.sources());
        } else {
            return;
        }
        self.layout.resort(
            &self.resort_sources,
            &mut self.working,
            &mut self.stuck_for,
            (
                &mut self.states,
                &mut self.spare_states,
                AgentState::is_plain,
            ),
        );
    }

    /// The tick's end in a world with gaps or jump links: flights move on, take-offs leave
    /// the ground, walkers in gaps fall (`jumps.rs`). Take-offs asked for in a world without
    /// are forgotten.
    fn end_jumps(&mut self, dt: f32) {
        let mut take_offs = Vec::new();
        let mut falls = Vec::new();
        for scratch in &mut self.scratches {
            take_offs.append(&mut scratch.take_offs);
            falls.append(&mut scratch.falls);
        }
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

    /// The steering force agent `agent` would get now, with every evaluated node recorded in
    /// `trace`. Does not change the simulation's RNG or wander state (it works on a copy).
    pub fn trace(&self, agent: usize, dt: f32, trace: &mut Trace) -> Option<Vec2> {
        self.trace_steering(agent, dt, trace)
            .map(|steering| steering.force)
    }

    /// Like [`Simulation::trace`], with the angular part.
    pub fn trace_steering(&self, agent: usize, dt: f32, trace: &mut Trace) -> Option<Steering> {
        let group = self.groups.get(*self.group_of.get(agent)? as usize)?;
        let mut state = self.states.get(self.layout.slot(agent)?)?.clone();
        let vehicles = self.vehicles();
        let mut grid = self.grid.clone();
        grid.rebuild(vehicles);
        let context = Context {
            world: &self.world,
            vehicles,
            tags: &self.tags,
            grid: &grid,
            bindings: &group.bindings,
            params: &group.params,
            dt,
        };
        Some(group.program.steering_traced(
            &context,
            agent,
            &mut state,
            &mut Scratch::default(),
            trace,
        ))
    }

    /// What [`Simulation::new`] found that runs but is probably not meant (a tag no agent
    /// carries yet), for `steergraph check` and the editor to show.
    pub fn warnings(&self) -> &[SceneWarning] {
        &self.warnings
    }

    /// Every agent's vehicle, in agent order.
    ///
    /// Written back from the simulation's working order on the first call after a tick (a
    /// pass over every agent), then read as it is.
    pub fn vehicles(&self) -> &[Vehicle] {
        &self
            .agent_order
            .get(&self.working, &self.slot_forces, &self.layout)
            .vehicles
    }

    /// Mutable vehicles (to place or drag agents).
    pub fn vehicles_mut(&mut self) -> &mut [Vehicle] {
        self.vehicles_changed = true;
        let copy = self
            .agent_order
            .get_mut(&self.working, &self.slot_forces, &self.layout);
        copy.map_or(&mut [], |copy| copy.vehicles.as_mut_slice())
    }

    /// Steering forces applied in the last tick, in agent order.
    pub fn forces(&self) -> &[Vec2] {
        &self
            .agent_order
            .get(&self.working, &self.slot_forces, &self.layout)
            .forces
    }

    /// The groups.
    pub fn groups(&self) -> &[GroupRuntime] {
        &self.groups
    }

    /// Every agent's tags, in agent order: bit `b` set means the agent carries the tag
    /// [`Simulation::tag_names`]`()[b]`.
    pub fn tags(&self) -> &[TagMask] {
        &self.tags
    }

    /// The scene's tag names, by bit.
    pub fn tag_names(&self) -> &[String] {
        self.tag_table.names()
    }

    /// The group index of agent `agent`.
    pub fn group_of(&self, agent: usize) -> Option<usize> {
        self.group_of.get(agent).map(|&g| g as usize)
    }

    /// The world (obstacles, paths, fields, targets).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Mutable world: move targets (the cursor), edit obstacles, paint fields. Renaming or
    /// adding paths, fields or targets needs [`Simulation::rebind`].
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Re-resolves every group's names against the world; returns what did not resolve
    /// ([`BindError::is_warning`] tells a tag no agent carries from a missing name).
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
    /// positions; agent states are fitted to the new program.
    pub fn set_program(
        &mut self,
        group: usize,
        program: Arc<Program>,
        params: ParamValues,
    ) -> Vec<crate::BindError> {
        let Some(runtime) = self.groups.get_mut(group) else {
            return Vec::new();
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
        errors
    }

    /// Ticks stepped since the start.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The scene seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Agent `agent`'s own points and routes (from its group's `goals`, or set since).
    pub fn own(&self, agent: usize) -> Option<&OwnGoals> {
        let slot = self.layout.slot(agent)?;
        self.states.get(slot).map(|state| &state.own)
    }

    /// Agent `agent`'s own points and routes, to change them (as a game does with
    /// [`crate::Crowd::set_goal`]). Points should be finite: the `Crowd` setters check that.
    pub fn own_mut(&mut self, agent: usize) -> Option<&mut OwnGoals> {
        let slot = self.layout.slot(agent)?;
        self.states.get_mut(slot).map(|state| &mut state.own)
    }

    /// Whether the scene uses the angular layer or jumps: an agent with independent facing or
    /// a turn-rate limit, a graph with angular nodes, or a world with gaps or jump links. A
    /// scene that uses none moves exactly as before they existed (and `steergraph simulate`
    /// writes its trajectories as before).
    pub fn uses_facing_or_jumps(&self) -> bool {
        self.jumps.active()
            || self.groups.iter().any(|group| group.program.turns())
            || self
                .working
                .iter()
                .any(|vehicle| vehicle.turning != Turning::DEFAULT)
    }

    /// How agent `agent` moves now: walking, in the air on a jump, or fallen into a gap.
    pub fn motion(&self, agent: usize) -> Motion {
        self.jumps.motion(agent)
    }

    /// Agent `agent`'s jump, while it is in the air.
    pub fn flight(&self, agent: usize) -> Option<&Flight> {
        self.jumps.flight(agent)
    }

    /// The agents in the air now, ascending, with their flights.
    pub fn airborne(&self) -> impl Iterator<Item = (usize, &Flight)> {
        self.jumps.flights()
    }

    /// The agents that have fallen into a gap, ascending.
    pub fn fallen(&self) -> impl Iterator<Item = usize> + '_ {
        self.jumps.fallen()
    }

    /// What happened to jumps in the last tick: take-offs, landings and falls, in agent order
    /// within each kind (take-offs, then landings, then falls are not interleaved by time:
    /// they all happened during the tick).
    pub fn jump_events(&self) -> &[JumpEvent] {
        self.jumps.events()
    }

    /// Walking agents that entered a gap since the start (each falls once and stays).
    pub fn falls(&self) -> u64 {
        self.jumps.falls()
    }

    /// Wall crossings since the start: steps whose segment, from an agent's position before
    /// the step to its position after, meets a wall (see `BEHAVIORS.md`, "Walls", for the
    /// ray cast). A step that ends exactly on a wall counts; the step that then leaves it
    /// (a ray from a wall hits it at distance 0) does not count again.
    pub fn wall_crossings(&self) -> u64 {
        self.wall_crossings
    }

    /// How long agent `agent` has been stuck (s): wanting to move, per its preferred velocity,
    /// but moving at under 5 % of it (see [`crate::stuck_clock`]). The preferred velocity is
    /// the one its graph's Reciprocal node preferred, or, without one, the velocity its
    /// steering force asks for. `0` for an unknown agent.
    pub fn stuck_for(&self, agent: usize) -> f32 {
        self.layout
            .slot(agent)
            .and_then(|slot| self.stuck_for.get(slot))
            .copied()
            .unwrap_or(0.0)
    }

    /// The agents stuck now (stuck for at least [`crate::STUCK_SECONDS`]), ascending.
    pub fn stuck_agents(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.working.len()).filter(|&agent| crate::is_stuck(self.stuck_for(agent)))
    }

    /// How many agents are stuck now (stuck for at least [`crate::STUCK_SECONDS`]).
    pub fn stuck_count(&self) -> usize {
        self.stuck_for
            .iter()
            .filter(|&&clock| crate::is_stuck(clock))
            .count()
    }
}
