//! Driving a game's own agents with a compiled graph, without scenes or the editor.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::Vec2;

use crate::compile::{
    AgentState, BindError, Bindings, CompileError, ParamValues, Program, Scratch, TagMask,
    TagMembers, TagTable,
};
use crate::limits::{MAX_AGENTS, MAX_COORDINATE, MAX_PATH_POINTS, point_in_range};
use crate::tick::{Group, Tick, neighbor_cell_size, prepare_grid};
use crate::{JumpEvent, JumpEventKind, OwnGoals, Path, SpatialGrid, Steering, Vehicle, World};

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
}

/// The steering of a group of game agents by one graph.
///
/// The game keeps its own agent structs and its own loop; each tick it passes the agents'
/// [`Vehicle`]s (in a stable order) and gets one force per agent, then integrates them with
/// [`World::step_vehicle`] (which stops steps at solid walls and slides them, as a
/// [`crate::Simulation`] does; [`Vehicle::step`] alone ignores walls). Agent `i` draws random numbers from the stream of `(seed, i)`, exactly as in
/// a [`crate::Simulation`] of a scene with that seed, so a game reproduces the editor's motion.
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
    program: Arc<Program>,
    params: ParamValues,
    bindings: Bindings,
    grid: SpatialGrid,
    scratch: Scratch,
    states: Vec<AgentState>,
    seed: u64,
    tags: TagTable,
    /// The steering of the last call, before the forces are handed out.
    steerings: Vec<Steering>,
    /// Agents in the air on a jump the game is flying: `(link, flight time, time so far)`.
    flights: BTreeMap<usize, (usize, f32, f32)>,
    /// What happened to jumps in the last call.
    events: Vec<JumpEvent>,
    /// The agents carrying each tag, and the tags they were listed from (the last call's):
    /// `NearestTagged` reads these instead of every agent.
    tag_members: Arc<TagMembers>,
    listed_tags: Vec<TagMask>,
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
        let program = program.into();
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
        let radius = program.neighborhood_radius(&params);
        Ok(Self {
            grid: SpatialGrid::new(neighbor_cell_size(radius)),
            program,
            params,
            bindings,
            scratch: Scratch::default(),
            states: Vec::new(),
            seed,
            tags: tags.clone(),
            steerings: Vec::new(),
            flights: BTreeMap::new(),
            events: Vec::new(),
            tag_members: Arc::default(),
            listed_tags: Vec::new(),
        })
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
        let replacement = Self::with_tags(program, world, &self.tags, self.seed, overrides)?;
        for state in &mut self.states {
            state.fit(&replacement.program);
        }
        self.grid = replacement.grid;
        self.program = replacement.program;
        self.params = replacement.params;
        self.bindings = replacement.bindings;
        Ok(())
    }

    /// The vehicle limits the graph asks for (with the overrides applied).
    pub fn vehicle_params(&self) -> crate::VehicleParams {
        self.program.vehicle(&self.params)
    }

    /// How the graph's vehicles turn (with the overrides applied): give the game's vehicles
    /// this with [`Vehicle::with_turning`] when the graph uses facing nodes.
    pub fn turning(&self) -> crate::Turning {
        crate::Turning::from(self.program.turning(&self.params))
    }

    /// Agent `agent`'s own goals and routes, if it has steered or been given one.
    pub fn own(&self, agent: usize) -> Option<&OwnGoals> {
        self.states.get(agent).map(|state| &state.own)
    }

    /// Gives agent `agent` its own point `name` (for nodes whose target is `Own(name)`),
    /// replacing an earlier one; say, the next waypoint the game's pathfinder chose. Refused
    /// when a coordinate is not finite or beyond [`MAX_COORDINATE`], or `agent` is not below
    /// [`MAX_AGENTS`].
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
        let state = self.state_of(agent).ok_or_else(|| refuse(too_many()))?;
        state.own.set_goal(name, point);
        Ok(())
    }

    /// Takes agent `agent`'s own point `name` away: its `Own(name)` nodes give zero again.
    pub fn clear_goal(&mut self, agent: usize, name: &str) {
        if let Some(state) = self.states.get_mut(agent) {
            state.own.clear_goal(name);
        }
    }

    /// Gives agent `agent` its own route `name` (for `PathFollowing` nodes marked `own`): an
    /// open path through `points` of half-width `radius`, replacing an earlier one; say, the
    /// route the game's pathfinder found. Refused when there is no point, too many, or a
    /// number that is not finite or out of range.
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
            None
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
            state.own.set_route(name, route);
        }
        Ok(())
    }

    /// Takes agent `agent`'s own route `name` away.
    pub fn clear_route(&mut self, agent: usize, name: &str) {
        if let Some(state) = self.states.get_mut(agent) {
            state.own.clear_route(name);
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
        while self.states.len() < count {
            let index = self.states.len() as u64;
            self.states
                .push(AgentState::new(&self.program, self.seed, index));
        }
    }

    /// One steering force per vehicle for this tick, written into `forces` (resized to
    /// match): the linear part of [`Crowd::steering`], for vehicles that face where they move.
    /// `tags` is one mask per vehicle, or empty when the graph uses no tags.
    pub fn steer(
        &mut self,
        world: &World,
        vehicles: &[Vehicle],
        tags: &[TagMask],
        dt: f32,
        forces: &mut Vec<Vec2>,
    ) {
        let mut steerings = std::mem::take(&mut self.steerings);
        self.steering(world, vehicles, tags, dt, &mut steerings);
        forces.clear();
        forces.extend(steerings.iter().map(|steering| steering.force));
        self.steerings = steerings;
    }

    /// One steering per vehicle for this tick, force and angular acceleration, written into
    /// `out` (resized to match); integrate each with [`World::step_vehicle`]. `tags` is one mask per
    /// vehicle, or empty when the graph uses no tags.
    ///
    /// Jumps: when a Jump node's agent reaches its take-off point at the take-off velocity,
    /// [`Crowd::jump_events`] reports the take-off (its velocity, vertical velocity and time
    /// in the air) and the game flies the agent (its own physics or animation). Until the
    /// flight time has passed the agent gets zero steering; then the landing is reported.
    pub fn steering(
        &mut self,
        world: &World,
        vehicles: &[Vehicle],
        tags: &[TagMask],
        dt: f32,
        out: &mut Vec<Steering>,
    ) {
        self.grow_states(vehicles.len());
        self.list_tag_members(tags, vehicles);
        self.events.clear();
        self.land_flights(world, vehicles, dt);
        prepare_grid(&mut self.grid, vehicles, [(&*self.program, &self.params)]);
        let tick = Tick {
            world,
            vehicles,
            tags,
            grid: &self.grid,
            dt,
        };
        let group = Group {
            program: &self.program,
            bindings: &self.bindings,
            params: &self.params,
        };
        out.clear();
        out.resize(vehicles.len().min(self.states.len()), Steering::ZERO);
        tick.steer_all(group, &mut self.states, &mut self.scratch, out);
        self.tag_members.end_tick();
        self.take_off(world, vehicles);
        for &agent in self.flights.keys() {
            if let Some(steering) = out.get_mut(agent) {
                *steering = Steering::ZERO;
            }
        }
    }

    /// Lists the agents carrying each tag again when `tags` differ from the last call's, places
    /// in cells those of the tags the graph reads, at their positions in `vehicles` (when
    /// there are enough of them: [`TagMembers`]), and gives them to the bindings (new ones after [`Crowd::set_program`]
    /// too). Nothing for a graph that reads no tags.
    fn list_tag_members(&mut self, tags: &[TagMask], vehicles: &[Vehicle]) {
        if self.bindings.tags.is_empty() {
            return;
        }
        // The bindings give their handle back so the members can be changed in place.
        self.bindings.members = None;
        if self.listed_tags != tags {
            self.listed_tags.clear();
            self.listed_tags.extend_from_slice(tags);
            self.tag_members = Arc::new(TagMembers::new(tags));
        }
        let mut readers = [0_usize; TagMask::BITS as usize];
        TagMembers::add_readers(&mut readers, &self.bindings.tags, vehicles.len());
        Arc::make_mut(&mut self.tag_members).place_in_cells(vehicles, &readers);
        self.bindings.set_members(Arc::clone(&self.tag_members));
    }

    /// What happened to jumps in the last call of [`Crowd::steering`] (or
    /// [`Crowd::steer`]): take-offs the game should fly, and landings.
    pub fn jump_events(&self) -> &[JumpEvent] {
        &self.events
    }

    /// Whether agent `agent` is in the air on a jump (the game flies it; its steering is zero).
    pub fn is_airborne(&self, agent: usize) -> bool {
        self.flights.contains_key(&agent)
    }

    /// Flights whose time has passed land: reported where the game's vehicle now is.
    fn land_flights(&mut self, world: &World, vehicles: &[Vehicle], dt: f32) {
        let mut landed = Vec::new();
        for (&agent, flight) in &mut self.flights {
            flight.2 += dt;
            if flight.2 >= flight.1 {
                landed.push((agent, flight.0));
            }
        }
        for (agent, link) in landed {
            self.flights.remove(&agent);
            self.events.push(JumpEvent {
                agent,
                at: vehicles.get(agent).map_or(Vec2::ZERO, |v| v.position),
                kind: JumpEventKind::Landed {
                    link: world.jump_link_name(link).unwrap_or_default().to_owned(),
                    completed: true,
                },
            });
        }
    }

    /// This call's take-offs: the agents leave the ground (the game flies them).
    fn take_off(&mut self, world: &World, vehicles: &[Vehicle]) {
        let mut take_offs = self.scratch.take_offs();
        take_offs.sort_by_key(|take_off| take_off.agent);
        take_offs.dedup_by_key(|take_off| take_off.agent);
        for take_off in take_offs {
            let agent = take_off.agent as usize;
            if self.flights.contains_key(&agent) {
                continue;
            }
            if let Some(state) = self.states.get_mut(agent) {
                state.mark_jumped(take_off.link);
            }
            self.flights
                .insert(agent, (take_off.link, take_off.plan.flight_time, 0.0));
            self.events.push(JumpEvent {
                agent,
                at: vehicles.get(agent).map_or(Vec2::ZERO, |v| v.position),
                kind: JumpEventKind::TakeOff {
                    link: world
                        .jump_link_name(take_off.link)
                        .unwrap_or_default()
                        .to_owned(),
                    velocity: take_off.plan.velocity,
                    vertical_velocity: take_off.plan.vertical_velocity,
                    flight_time: take_off.plan.flight_time,
                },
            });
        }
    }
}

fn too_many() -> String {
    format!("agent indices go up to {}", MAX_AGENTS - 1)
}
