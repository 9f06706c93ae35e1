//! Reading a [`Simulation`]: its agents in agent order, their groups, tags, jumps and stuck
//! clocks, and a traced evaluation of one agent.

use glam::Vec2;

use super::{GroupRuntime, Simulation};
use crate::compile::{AgentState, Context, Scratch, TagMask, Trace};
use crate::scene::SceneWarning;
use crate::{Flight, JumpEvent, Motion, OwnGoals, Steering, Turning, Vehicle, World};

impl Simulation {
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
            avoidance: &self.avoidance,
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

    /// Mutable vehicles (to place or drag agents). Counted as an edit
    /// ([`Simulation::vehicle_edits`]): a recording keeps a keyframe of the tick.
    pub fn vehicles_mut(&mut self) -> &mut [Vehicle] {
        self.vehicles_changed = true;
        self.vehicle_edits += 1;
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

    /// Agent `agent`'s avoidance priority and layers (from its scene group; the default for
    /// a group without its own), as a game's crowd would be given them
    /// (`Crowd::set_avoidance`).
    pub fn avoidance(&self, agent: usize) -> crate::Avoidance {
        self.avoidance.get(agent).copied().unwrap_or_default()
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

    /// Mutable world: edit obstacles, walls, paint fields. Renaming or adding paths, fields or
    /// targets needs [`Simulation::rebind`]. Counted as an edit
    /// ([`Simulation::world_edits`]): a [`crate::rewind::Recording`] keeps a copy of the world
    /// after each; move a target with [`Simulation::move_target`] instead.
    pub fn world_mut(&mut self) -> &mut World {
        self.world_edits += 1;
        &mut self.world
    }

    /// Moves the target called `name` to `position` (the cursor, say): a recording keeps the
    /// targets' positions, not a copy of the world. `false` (nothing moves) for a name the
    /// world has no target by: adding one needs [`Simulation::world_mut`] and a rebind.
    pub fn move_target(&mut self, name: &str, position: Vec2) -> bool {
        if self.world.target(name).is_none() {
            return false;
        }
        self.world.set_target(name, position);
        true
    }

    /// How many times the world was handed out to be edited ([`Simulation::world_mut`]).
    pub fn world_edits(&self) -> u64 {
        self.world_edits
    }

    /// How many times the vehicles were handed out to be edited
    /// ([`Simulation::vehicles_mut`]).
    pub fn vehicle_edits(&self) -> u64 {
        self.vehicle_edits
    }

    /// The world, to change without counting an edit (a recording putting back the world a
    /// past step saw).
    pub(crate) fn world_quietly(&mut self) -> &mut World {
        &mut self.world
    }

    /// Puts `world` in place of the world without counting an edit (a recording going back).
    pub(crate) fn put_world(&mut self, world: &World) {
        self.world.clone_from(world);
    }

    /// Ticks stepped since the start.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The scene seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Agent `agent`'s state of its program: its random stream, wander angles, own points and
    /// routes. Another backend carries a run on from it (the GPU crate reads the streams and
    /// angles).
    pub fn agent_state(&self, agent: usize) -> Option<&AgentState> {
        self.states.get(self.layout.slot(agent)?)
    }

    /// Agent `agent`'s own points and routes (from its group's `goals`, or set since).
    pub fn own(&self, agent: usize) -> Option<&OwnGoals> {
        let slot = self.layout.slot(agent)?;
        self.states.get(slot).map(|state| &state.own)
    }

    /// Agent `agent`'s routes, one per Navigate node of its group's graph (none for a graph
    /// without one): each with its points and status ([`crate::RouteSlot`]).
    pub fn routes(&self, agent: usize) -> &[crate::RouteSlot] {
        self.layout
            .slot(agent)
            .and_then(|slot| self.states.get(slot))
            .map_or(&[], |state| state.routes())
    }

    /// How many agents have a route whose goal no walk reaches ([`crate::RouteStatus::Unreachable`]).
    pub fn unreachable_count(&self) -> usize {
        self.states
            .iter()
            .filter(|state| {
                state
                    .routes()
                    .iter()
                    .any(|route| route.status() == crate::RouteStatus::Unreachable)
            })
            .count()
    }

    /// How many routes the last tick planned, and how many asked and were left for a later
    /// tick (the planning budget, [`crate::tick::ROUTE_BUDGET`]).
    pub fn routes_planned(&self) -> (usize, usize) {
        (self.planner.planned, self.planner.deferred)
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
