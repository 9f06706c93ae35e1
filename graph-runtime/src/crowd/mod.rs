//! Driving a game's own agents with a compiled graph, without scenes or the editor.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::Vec2;

mod agents;
mod step;
mod work;

pub use agents::CrowdAgent;

use crate::compile::{
    AgentState, BindError, Bindings, CompileError, ParamValues, Program, Scratch, TagMask,
    TagMembers, TagTable,
};
use crate::limits::{MAX_AGENTS, MAX_COORDINATE, MAX_PATH_POINTS, point_in_range};
use crate::tick::jumps::Jumps;
use crate::tick::neighbor_cell_size;
use crate::{OwnGoals, Path, SpatialGrid, Steering, World};

/// Why a [`Crowd`] could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum CrowdError {
    /// A parameter override does not fit the graph.
    #[error("{0}")]
    Parameters(CompileError),
    /// The graph names a path, field, target or tag the world does not have.
    #[error("{0}")]
    Bind(BindError),
    /// An own goal or route the game handed over cannot be used.
    #[error("agent {agent}'s own {what} \"{name}\": {problem}")]
    Own {
        /// The agent.
        agent: usize,
        /// `goal` or `route`.
        what: &'static str,
        /// Its name.
        name: String,
        /// What is wrong with it.
        problem: String,
    },
    /// An avoidance priority out of range, or an agent past the agent limit.
    #[error(
        "agent {agent}'s avoidance: priority {priority} (it must be within 1e-6 to 1e6, for an agent below the agent limit)"
    )]
    Avoidance {
        /// The agent.
        agent: usize,
        /// The priority asked for.
        priority: f32,
    },
}

/// The steering of a group of game agents by one graph.
///
/// The game keeps its own agent structs and its own loop; each tick it passes the agents'
/// [`Vehicle`](crate::Vehicle)s (in a stable order) and gets one force per agent, then integrates them with
/// [`World::step_vehicle`] (which stops steps at solid walls and slides them, as a
/// [`crate::Simulation`] does; [`Vehicle::step`](crate::Vehicle::step) alone ignores walls). Agent `i` draws random numbers from the stream of `(seed, i)`, exactly as in
/// a [`crate::Simulation`] of a scene with that seed, so a game reproduces the editor's motion.
///
/// A `Crowd` does not refuse work that grows as a product of inputs, as a scene's
/// [`crate::Simulation`] does ([`crate::TooMuchWork`]: agents × neighbors kept, × path
/// segments followed, × gap corners): the game passes its agents each call and owns their
/// number, so the tick's cost is the game's to budget by the same limits
/// ([`crate::limits`]).
///
/// # Examples
///
/// ```
/// use graph_runtime::{compile, Crowd, Graph, Vehicle, World};
///
/// let graph = Graph::from_ron(r#"(format: "steergraph.graph", version: 1,
///     nodes: {1: Wander(distance: 2.0, radius: 1.0, jitter: 90.0), 2: Output(input: 1)})"#,
///     "wander.graph.ron")?;
/// let program = compile(&graph).expect("valid");
/// let world = World::default();
/// let mut crowd = Crowd::new(program, &world, 7, &Default::default()).expect("binds");
///
/// // The game's own agents.
/// struct Bird { body: Vehicle, name: &'static str }
/// let mut birds: Vec<Bird> = (0..3)
///     .map(|i| Bird { body: Vehicle::new(glam::Vec2::new(i as f32, 0.0), glam::Vec2::X, crowd.vehicle_params()), name: "sparrow" })
///     .collect();
/// let mut bodies = Vec::new();
/// let mut forces = Vec::new();
/// for _ in 0..60 {
///     bodies.clear();
///     bodies.extend(birds.iter().map(|b| b.body));
///     crowd.steer(&world, &bodies, &[], 1.0 / 60.0, &mut forces);
///     for (bird, force) in birds.iter_mut().zip(&forces) {
///         world.step_vehicle(&mut bird.body, *force, 1.0 / 60.0);
///     }
/// }
/// assert!(birds.iter().all(|b| b.body.position.is_finite()));
/// # Ok::<(), graph_runtime::LoadError>(())
/// ```
#[derive(Debug)]
pub struct Crowd {
    /// The programs the agents run: group 0 is the one the crowd was made with, the others
    /// were added ([`Crowd::add_program`]).
    groups: Vec<CrowdProgram>,
    /// Each agent's group (agents not listed run group 0).
    group_of: Vec<u32>,
    grid: SpatialGrid,
    /// Where the agents stood at the grid's last rebuild: how far they moved since bounds
    /// Reciprocal's next queries (`spatial/bounds.rs`).
    rebuilt_at: crate::spatial::RebuiltAt,
    /// One per parallel task of the steering (`tick::steer_chunk`), kept from tick to tick.
    scratches: Vec<Scratch>,
    states: Vec<AgentState>,
    seed: u64,
    tags: TagTable,
    /// The steering of the last call, before the forces are handed out.
    steerings: Vec<Steering>,
    /// Each agent's stuck clock (s), kept by [`Crowd::step`].
    stuck_for: Vec<f32>,
    /// Jumps and falls: the flights the game flies ([`Crowd::steering`]) or the crowd flies
    /// ([`Crowd::step`]), the events of the last call.
    jumps: Jumps,
    /// Steps of [`Crowd::step`] that met a wall, since the start.
    wall_crossings: u64,
    /// The agents carrying each tag, and the tags they were listed from (the last call's):
    /// `NearestTagged` reads these instead of every agent.
    tag_members: Arc<TagMembers>,
    listed_tags: Vec<TagMask>,
    /// Agent indices `0..n`, for steering runs of one group.
    indices: Vec<u32>,
    /// Plans the routes Navigate nodes ask for, a bounded number a tick, on the navigation
    /// meshes of the world each call is given ([`World::build_navigation`]).
    planner: crate::tick::RoutePlanner,
    /// Each agent's avoidance priority and layers ([`Crowd::set_avoidance`]); agents past its
    /// end have the default, and it stays empty until a game sets one.
    avoidance: Vec<crate::Avoidance>,
    /// Why the last call refused its tick (over the work limits, [`Crowd::refusal`]).
    refused: Option<crate::TooMuchWork>,
    /// The points of every agent's own routes, together (held to the path work's limit).
    own_route_points: u64,
}

/// One program of a crowd, with its parameter values and its names bound to the world: what
/// the agents of one group run ([`Crowd::add_group`]).
#[derive(Debug, Clone)]
pub struct CrowdProgram {
    program: Arc<Program>,
    params: ParamValues,
    bindings: Bindings,
}

impl Crowd {
    /// A crowd running `program` in `world`, with parameter `overrides` and random `seed`. Tags
    /// the graph looks for must be registered in `tags` (see [`Crowd::with_tags`]).
    pub fn new(
        program: impl Into<Arc<Program>>,
        world: &World,
        seed: u64,
        overrides: &BTreeMap<String, f32>,
    ) -> Result<Self, Vec<CrowdError>> {
        Self::with_tags(program, world, &TagTable::default(), seed, overrides)
    }

    /// Like [`Crowd::new`], resolving `NearestTagged` targets against `tags`.
    pub fn with_tags(
        program: impl Into<Arc<Program>>,
        world: &World,
        tags: &TagTable,
        seed: u64,
        overrides: &BTreeMap<String, f32>,
    ) -> Result<Self, Vec<CrowdError>> {
        let group = CrowdProgram::new(program.into(), world, tags, overrides)?;
        Ok(Self::from_program(group, tags, seed))
    }

    /// A crowd whose group 0 runs `first`, resolving `NearestTagged` targets against `tags`;
    /// agents the crowd makes itself draw random numbers from the streams of `(seed, i)`.
    /// For a game that binds its programs itself ([`CrowdProgram::from_parts`]), as the Bevy
    /// plugin does.
    pub fn from_program(first: CrowdProgram, tags: &TagTable, seed: u64) -> Self {
        let group = first;
        let radius = group.program.neighborhood_radius(&group.params);
        Self {
            grid: SpatialGrid::new(neighbor_cell_size(radius)),
            rebuilt_at: crate::spatial::RebuiltAt::default(),
            groups: vec![group],
            group_of: Vec::new(),
            scratches: vec![Scratch::default()],
            states: Vec::new(),
            seed,
            tags: tags.clone(),
            steerings: Vec::new(),
            stuck_for: Vec::new(),
            jumps: Jumps::default(),
            wall_crossings: 0,
            tag_members: Arc::default(),
            listed_tags: Vec::new(),
            indices: Vec::new(),
            planner: crate::tick::RoutePlanner::default(),
            avoidance: Vec::new(),
            refused: None,
            own_route_points: 0,
        }
    }

    /// Agent `agent`'s routes, one per Navigate node of its group's graph, each with its
    /// points and status ([`crate::RouteSlot`]); none before the agent's first step.
    pub fn routes(&self, agent: usize) -> &[crate::RouteSlot] {
        self.states.get(agent).map_or(&[], |state| state.routes())
    }

    /// The most routes planned per call ([`crate::tick::ROUTE_BUDGET`] unless set).
    pub fn set_route_budget(&mut self, budget: usize) {
        self.planner.budget = budget;
    }

    /// Sets agent `agent`'s avoidance priority and layers (`BEHAVIORS.md`, "Avoidance priority
    /// and layers"): whom it avoids and counts as a neighbor (agents on a layer of its mask),
    /// and its share of each avoidance. Refused when the priority is not within
    /// [`crate::MAX_PRIORITY`]'s inverse to [`crate::MAX_PRIORITY`].
    pub fn set_avoidance(
        &mut self,
        agent: usize,
        avoidance: crate::Avoidance,
    ) -> Result<(), CrowdError> {
        if !crate::Avoidance::is_priority(avoidance.priority) || agent >= crate::limits::MAX_AGENTS
        {
            return Err(CrowdError::Avoidance {
                agent,
                priority: avoidance.priority,
            });
        }
        if self.avoidance.len() <= agent {
            self.avoidance
                .resize(agent + 1, crate::Avoidance::default());
        }
        self.avoidance[agent] = avoidance;
        Ok(())
    }

    /// Agent `agent`'s avoidance priority and layers (the default unless set).
    pub fn avoidance(&self, agent: usize) -> crate::Avoidance {
        self.avoidance.get(agent).copied().unwrap_or_default()
    }

    /// How many routes the last step planned, and how many that asked were left for a later
    /// one (the budget was spent).
    pub fn routes_planned(&self) -> (usize, usize) {
        (self.planner.planned, self.planner.deferred)
    }

    /// How many agents' routes the last planning read: those whose Navigate nodes asked (a
    /// plan, or a look for a jammed door due) and stuck ones; every agent on the first tick and
    /// on one whose meshes are new. The work a tick spends on routes is bounded by it and
    /// by the routes planned.
    pub fn routes_read(&self) -> usize {
        self.planner.read
    }

    /// How many agents the last planning worked out when it counted the standing agents at
    /// the doors (only on a tick that plans or looks for jams with crowd costs): those whose
    /// cell of the counting grid, radius or standing changed since the count before, on each
    /// mesh (`BEHAVIORS.md`, "`Navigate`").
    pub fn agents_counted(&self) -> usize {
        self.planner.counted
    }

    /// Runs `program` from now on, for the same agents: they keep their positions (the game's
    /// own), their random streams and the state the new graph shares with the old (a Wander
    /// node's heading, say). `overrides` are applied to the new program's parameters, and tags
    /// resolve against the table the crowd was made with. On an error nothing changes: the crowd
    /// keeps running its old program. Hot reload hands programs to this
    /// (`AssetWatcher`, with the `watch` feature).
    pub fn set_program(
        &mut self,
        program: impl Into<Arc<Program>>,
        world: &World,
        overrides: &BTreeMap<String, f32>,
    ) -> Result<(), Vec<CrowdError>> {
        self.set_group_program(0, program, world, overrides)
    }

    /// Binds each group's names to `world` again where they do not hold there
    /// ([`Bindings::hold_in`]): a crowd made for one world and steered in another, or in a
    /// world that gained a name since. Every target, path, flow field and jump link a graph
    /// names is then the one of that name in `world`. Returns whether any group was bound
    /// again. Refused, with nothing changed, when `world` lacks a name a graph uses: steering
    /// on would follow whatever stood at that name's place in the world the crowd was made
    /// for. A check of a few names by name each call, nothing more, when they hold.
    pub fn bind_to(&mut self, world: &World) -> Result<bool, Vec<CrowdError>> {
        let mut errors = Vec::new();
        let mut rebound = Vec::new();
        for (index, group) in self.groups.iter().enumerate() {
            if group.bindings.hold_in(&group.program, world) {
                continue;
            }
            let (mut bindings, missing) = Bindings::new(&group.program, world, &self.tags);
            errors.extend(missing.into_iter().map(CrowdError::Bind));
            bindings.members.clone_from(&group.bindings.members);
            rebound.push((index, bindings));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let any = !rebound.is_empty();
        for (index, bindings) in rebound {
            if let Some(group) = self.groups.get_mut(index) {
                group.bindings = bindings;
            }
        }
        Ok(any)
    }

    /// Adds a program some agents run ([`Crowd::set_group`]), with parameter `overrides`;
    /// returns its group number. Agents of every group see each other as neighbors; each is
    /// steered by its own group's program, as the groups of a scene are.
    pub fn add_program(
        &mut self,
        program: impl Into<Arc<Program>>,
        world: &World,
        overrides: &BTreeMap<String, f32>,
    ) -> Result<usize, Vec<CrowdError>> {
        let group = CrowdProgram::new(program.into(), world, &self.tags, overrides)?;
        Ok(self.add_group(group))
    }

    /// Adds a group running `program` (made by [`CrowdProgram::new`] or
    /// [`CrowdProgram::from_parts`]); returns its number, for [`Crowd::set_group`].
    pub fn add_group(&mut self, program: CrowdProgram) -> usize {
        self.groups.push(program);
        self.groups.len() - 1
    }

    /// Runs `program` for group `group` from now on (hot reload of one of the programs); like
    /// [`Crowd::set_program`], which does it for group 0. An unknown group changes nothing.
    pub fn set_group_program(
        &mut self,
        group: usize,
        program: impl Into<Arc<Program>>,
        world: &World,
        overrides: &BTreeMap<String, f32>,
    ) -> Result<(), Vec<CrowdError>> {
        if group >= self.groups.len() {
            return Ok(());
        }
        let replacement = CrowdProgram::new(program.into(), world, &self.tags, overrides)?;
        for (agent, state) in self.states.iter_mut().enumerate() {
            if self.group_of.get(agent).map_or(0, |&g| g as usize) == group {
                state.fit(&replacement.program);
            }
        }
        self.groups[group] = replacement;
        Ok(())
    }

    /// Makes agent `agent` run group `group`'s program from now on (its state is fitted to
    /// it, as after a hot reload). Refused (`false`, nothing changes) for an unknown group or
    /// an agent index not below [`MAX_AGENTS`].
    pub fn set_group(&mut self, agent: usize, group: usize) -> bool {
        let (Some(target), true) = (self.groups.get(group), agent < MAX_AGENTS) else {
            return false;
        };
        let program = Arc::clone(&target.program);
        if self.group_of.len() <= agent {
            self.group_of.resize(agent + 1, 0);
        }
        self.group_of[agent] = group as u32;
        if let Some(state) = self.states.get_mut(agent) {
            state.fit(&program);
        }
        true
    }

    /// The group agent `agent` runs (0 unless [`Crowd::set_group`] said otherwise; beyond
    /// every group, `u32::MAX`, while [`Crowd::hold`] keeps it still).
    pub fn group_of(&self, agent: usize) -> usize {
        self.group_of.get(agent).map_or(0, |&g| g as usize)
    }

    /// The vehicle limits the graph asks for (with the overrides applied).
    pub fn vehicle_params(&self) -> crate::VehicleParams {
        self.first().program.vehicle(&self.first().params)
    }

    /// How the graph's vehicles turn (with the overrides applied): give the game's vehicles
    /// this with [`Vehicle::with_turning`](crate::Vehicle::with_turning) when the graph uses facing nodes.
    pub fn turning(&self) -> crate::Turning {
        crate::Turning::from(self.first().program.turning(&self.first().params))
    }

    /// The vehicle limits and turning agent `agent`'s group's program asks for now (with its
    /// overrides): after a hot reload ([`Crowd::set_program`]) that changed them, give them to
    /// the game's existing vehicles, whose limits are the game's to keep.
    pub fn limits_of(&self, agent: usize) -> (crate::VehicleParams, crate::Turning) {
        let group = self
            .groups
            .get(self.group_of(agent))
            .unwrap_or(self.first());
        let turning = crate::Turning::from(group.program.turning(&group.params));
        (group.program.vehicle(&group.params), turning)
    }

    /// Agent `agent`'s own goals and routes, if it has steered or been given one.
    pub fn own(&self, agent: usize) -> Option<&OwnGoals> {
        self.states.get(agent).map(|state| &state.own)
    }

    /// Gives agent `agent` its own point `name` (for nodes whose target is `Own(name)`),
    /// replacing an earlier one; say, the next waypoint the game's pathfinder chose. Refused
    /// when a coordinate is not finite or beyond [`MAX_COORDINATE`], when none of the crowd's
    /// graphs reads `name` (a misspelling would be kept and never used; set a goal a new graph
    /// adds after [`Crowd::set_program`]), or `agent` is not below [`MAX_AGENTS`].
    pub fn set_goal(&mut self, agent: usize, name: &str, point: Vec2) -> Result<(), CrowdError> {
        let refuse = |problem: String| CrowdError::Own {
            agent,
            what: "goal",
            name: name.to_owned(),
            problem,
        };
        if !point_in_range(point) {
            return Err(refuse(format!(
                "{point} is not a finite point within ±{MAX_COORDINATE}"
            )));
        }
        if let Some(problem) = self.unread(name) {
            return Err(refuse(problem));
        }
        // Kept under the agent's program's own string when it reads the name, so that its
        // lookups compare pointers (`own/points.rs`); under a copy of `name` otherwise.
        let group = self.group_of.get(agent).map_or(0, |&group| group as usize);
        let shared = (self.groups.get(group))
            .and_then(|group| group.program.own_string(name))
            .cloned();
        let state = self.state_of(agent).ok_or_else(|| refuse(too_many()))?;
        match shared {
            Some(shared) => state.own.set_goal_shared(&shared, point),
            None => state.own.set_goal(name, point),
        }
        Ok(())
    }

    /// Why an own goal or route `name` would never be used: none of the crowd's graphs reads it
    /// (a misspelling, say), listing the names they read; `None` when one does.
    fn unread(&self, name: &str) -> Option<String> {
        // Asked on every goal a game sets: a look through each graph's names, no list made.
        let read_by = |group: &CrowdProgram| group.program.own_names().iter().any(|n| n == name);
        if self.groups.iter().any(read_by) {
            return None;
        }
        let names = self.own_names();
        let read = if names.is_empty() {
            "none".to_owned()
        } else {
            let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
            quoted.join(", ")
        };
        Some(format!(
            "no graph of this crowd reads it (they read: {read}); a graph that reads it must run first"
        ))
    }

    /// The own point and route names the crowd's graphs read (`Own` targets and `own` paths),
    /// every group's, sorted and each once: a name outside them is one no node reads.
    pub fn own_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = (self.groups.iter())
            .flat_map(|group| group.program.own_names().iter().map(String::as_str))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Whether one of the crowd's graphs reads the agents' tags (`NearestTagged` targets):
    /// then each call must be given every agent's tags.
    pub fn reads_tags(&self) -> bool {
        (self.groups.iter()).any(|group| !group.program.tag_names().is_empty())
    }

    /// Takes agent `agent`'s own point `name` away: its `Own(name)` nodes give zero again.
    pub fn clear_goal(&mut self, agent: usize, name: &str) {
        if let Some(state) = self.states.get_mut(agent) {
            state.own.clear_goal(name);
        }
    }

    /// Gives agent `agent` its own route `name` (for `PathFollowing` nodes marked `own`): an
    /// open path through `points` of half-width `radius`, replacing an earlier one; say, the
    /// route the game's pathfinder found. Refused when there is no point, too many, a number
    /// that is not finite or out of range, or when none of the crowd's graphs reads `name`.
    pub fn set_route(
        &mut self,
        agent: usize,
        name: &str,
        points: Vec<Vec2>,
        radius: f32,
    ) -> Result<(), CrowdError> {
        let problem = if points.is_empty() {
            Some("a route needs a point".to_owned())
        } else if points.len() > MAX_PATH_POINTS {
            Some(format!(
                "{} points, more than {MAX_PATH_POINTS}",
                points.len()
            ))
        } else if let Some(bad) = points.iter().find(|p| !point_in_range(**p)) {
            Some(format!(
                "{bad} is not a finite point within ±{MAX_COORDINATE}"
            ))
        } else if !(0.0..=MAX_COORDINATE).contains(&radius) {
            Some(format!(
                "radius {radius} is not within 0..={MAX_COORDINATE}"
            ))
        } else if agent >= MAX_AGENTS {
            Some(too_many())
        } else {
            self.unread(name)
        };
        if let Some(problem) = problem {
            return Err(CrowdError::Own {
                agent,
                what: "route",
                name: name.to_owned(),
                problem,
            });
        }
        let route = Path {
            points,
            radius,
            closed: false,
        };
        if let Some(state) = self.state_of(agent) {
            let before = state.own.route_points();
            state.own.set_route(name, route);
            let after = state.own.route_points();
            self.own_route_points =
                (self.own_route_points.saturating_sub(before)).saturating_add(after);
        }
        Ok(())
    }

    /// Takes agent `agent`'s own route `name` away.
    pub fn clear_route(&mut self, agent: usize, name: &str) {
        if let Some(state) = self.states.get_mut(agent) {
            let before = state.own.route_points();
            state.own.clear_route(name);
            let after = state.own.route_points();
            self.own_route_points =
                (self.own_route_points.saturating_sub(before)).saturating_add(after);
        }
    }

    /// Agent `agent`'s state, made (with those of the agents before it) if it has none yet;
    /// `None` for an index not below [`MAX_AGENTS`].
    fn state_of(&mut self, agent: usize) -> Option<&mut AgentState> {
        if agent >= MAX_AGENTS {
            return None;
        }
        self.grow_states(agent + 1);
        self.states.get_mut(agent)
    }

    fn grow_states(&mut self, count: usize) {
        // Every agent has a group (0 unless set), as the tick core's runs read it.
        if self.group_of.len() < count {
            self.group_of.resize(count, 0);
        }
        while self.states.len() < count {
            let index = self.states.len();
            let group = self.group_of.get(index).map_or(0, |&g| g as usize);
            let program = &self.groups.get(group).unwrap_or(self.first()).program;
            self.states
                .push(AgentState::new(program, self.seed, index as u64));
        }
    }

    /// Group 0, the program the crowd was made with.
    fn first(&self) -> &CrowdProgram {
        // A crowd is made with one group and never loses it.
        &self.groups[0]
    }
}

fn too_many() -> String {
    format!("agent indices go up to {}", MAX_AGENTS - 1)
}

impl CrowdProgram {
    /// `program` with `overrides`, its names bound to `world` and `tags`; refused when an
    /// override does not fit or a name is missing (a tag no agent carries included).
    pub fn new(
        program: Arc<Program>,
        world: &World,
        tags: &TagTable,
        overrides: &BTreeMap<String, f32>,
    ) -> Result<Self, Vec<CrowdError>> {
        let params = program.parameters(overrides).map_err(|errors| {
            errors
                .into_iter()
                .map(CrowdError::Parameters)
                .collect::<Vec<_>>()
        })?;
        let (bindings, errors) = Bindings::new(&program, world, tags);
        if !errors.is_empty() {
            return Err(errors.into_iter().map(CrowdError::Bind).collect());
        }
        Ok(Self::from_parts(program, params, bindings))
    }

    /// `program` with parameter values and bindings the game made itself: say, bindings
    /// whose problems ([`Bindings::new`]'s errors) it logged and runs with anyway, the
    /// unbound names giving nothing, as the Bevy plugin does.
    pub fn from_parts(program: Arc<Program>, params: ParamValues, bindings: Bindings) -> Self {
        Self {
            program,
            params,
            bindings,
        }
    }

    /// The program.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// Its parameter values.
    pub fn params(&self) -> &ParamValues {
        &self.params
    }
}

#[cfg(test)]
impl Crowd {
    /// The neighbor grid, for the tests of its notes (`simulation/notes_tests.rs`).
    pub(crate) fn grid_mut(&mut self) -> &mut SpatialGrid {
        &mut self.grid
    }
}
