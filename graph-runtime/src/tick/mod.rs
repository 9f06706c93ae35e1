//! The one tick core: what every driver of agents does in a tick, whichever it is
//! ([`crate::Simulation`] in parallel chunks, [`crate::Crowd`] for a game's own agents, the
//! Bevy plugin per entity). Forces come from the state at the start of the tick ([`Tick`]):
//! the vehicles, the world, the neighbor grid built over them ([`prepare_grid`], cells as
//! wide as the widest neighborhood, [`neighbor_cell_size`]); each group of agents is steered
//! by its program ([`Group`]); then each agent advances ([`advance`]: integration, its stuck
//! clock, whether its step crossed a wall).

pub(crate) mod jumps;
mod routes;
mod split;

pub use routes::{JAM_CHECK_SECONDS, ROUTE_BUDGET, RoutePlanner};
pub(crate) use split::{MIN_AGENTS_PER_TASK, steer_chunk_for};

use glam::Vec2;

use crate::compile::{AgentState, Bindings, Context, ParamValues, Program, Scratch, TagMask};
use crate::pool::Warm;
use crate::{SpatialGrid, Steering, Vehicle, World};

/// The grid cell size when no node reads neighbors within a fixed radius (units).
pub const DEFAULT_CELL_SIZE: f32 = 4.0;

/// The neighbor grid's cell size for programs whose widest fixed neighborhood has radius
/// `radius` (units): the radius itself, or [`DEFAULT_CELL_SIZE`] when there is none.
pub fn neighbor_cell_size(radius: f32) -> f32 {
    if radius > 0.0 {
        radius
    } else {
        DEFAULT_CELL_SIZE
    }
}

/// The agents of one group steer with this: a program, the names it was bound to in the
/// world, and its parameter values.
#[derive(Clone, Copy, Debug)]
pub struct Group<'a> {
    /// The compiled graph.
    pub program: &'a Program,
    /// Its names resolved against the world.
    pub bindings: &'a Bindings,
    /// Its parameters (defaults with the group's overrides).
    pub params: &'a ParamValues,
}

/// What every group reads during one tick: the state at its start.
#[derive(Clone, Copy, Debug)]
pub struct Tick<'a> {
    /// Obstacles, walls, paths, flow fields, named targets and bounds.
    pub world: &'a World,
    /// Every agent's vehicle at the start of the tick, by agent index (empty when no program
    /// reads other agents by index).
    pub vehicles: &'a [Vehicle],
    /// Every agent's tags, parallel to `vehicles` (empty when no program uses tags).
    pub tags: &'a [TagMask],
    /// Every agent's avoidance priority and layers, parallel to `vehicles` (empty when every
    /// agent has the default).
    pub avoidance: &'a [crate::Avoidance],
    /// The neighbor grid built over the vehicles at the start of the tick.
    pub grid: &'a SpatialGrid,
    /// Tick length (s).
    pub dt: f32,
}

impl<'a> Tick<'a> {
    /// What `group`'s program reads this tick.
    pub fn context(&self, group: Group<'a>) -> Context<'a> {
        Context {
            world: self.world,
            vehicles: self.vehicles,
            tags: self.tags,
            avoidance: self.avoidance,
            grid: self.grid,
            bindings: group.bindings,
            params: group.params,
            dt: self.dt,
        }
    }

    /// The steering of the agents `agents` (indices into [`Tick::vehicles`]) whose working
    /// vehicles are `working` and states `states`, running `group`, into `out` (all four
    /// parallel): in batches where the program allows, exactly what [`Program::steering`]
    /// gives each agent. Take-offs of Jump nodes go to `scratch` ([`Scratch::take_offs`]).
    pub fn steer_agents(
        &self,
        group: Group<'a>,
        agents: &[u32],
        working: &'a [Vehicle],
        states: &mut [AgentState],
        scratch: &mut Scratch,
        out: &mut [Steering],
    ) {
        let context = self.context(group);
        group
            .program
            .steer_batch(&context, agents, working, states, scratch, out);
    }

    /// The steering of the agents `agents` (with their working vehicles, states and steering
    /// parallel, as in [`Tick::steer_agents`]) of several groups: agent `a` runs group
    /// `group_of[a]`, whose program `group(g)` gives; agents of one group are steered together,
    /// a run of one group at a time, in order. With one group (`groups` is 1) every agent is in
    /// it and the batch is one run, found without looking agents up. An agent whose group is
    /// unknown gets no force.
    pub fn steer_runs(
        &self,
        (groups, group_of, group): (usize, &[u32], impl Fn(usize) -> Option<Group<'a>>),
        agents: &[u32],
        (working, states, out): (&'a [Vehicle], &mut [AgentState], &mut [Steering]),
        scratch: &mut Scratch,
    ) {
        let mut start = 0;
        while let Some(&agent) = agents.get(start) {
            let (index, same) = if groups == 1 {
                (Some(0), agents.len() - start)
            } else {
                let index = group_of.get(agent as usize).copied();
                let same = agents[start..]
                    .iter()
                    .take_while(|&&a| group_of.get(a as usize).copied() == index)
                    .count();
                (index, same)
            };
            let run = start..start + same;
            start += same;
            let Some(group) = index.and_then(|g| group(g as usize)) else {
                out[run].fill(Steering::ZERO);
                continue;
            };
            self.steer_agents(
                group,
                &agents[run.clone()],
                &working[run.clone()],
                &mut states[run.clone()],
                scratch,
                &mut out[run],
            );
        }
    }

    /// The steering of every agent of [`Tick::vehicles`] running `group` (agent `i` with
    /// state `states[i]`), into `out`.
    pub fn steer_all(
        &self,
        group: Group<'a>,
        states: &mut [AgentState],
        scratch: &mut Scratch,
        out: &mut [Steering],
    ) {
        let context = self.context(group);
        group.program.steering_all(&context, states, scratch, out);
    }

    /// The steering of agent `agent` alone, running `group` with state `state`.
    pub fn steer_one(
        &self,
        group: Group<'a>,
        agent: usize,
        state: &mut AgentState,
        scratch: &mut Scratch,
    ) -> Steering {
        let context = self.context(group);
        group.program.steering(&context, agent, state, scratch)
    }
}

/// Sizes `grid` for `groups`: cells as wide as the widest of their neighborhoods (the
/// default without one), room for the most neighbors one of them sums; returns whether any
/// reads neighbors. The simulation calls it when its groups or parameters change, a crowd
/// every tick ([`prepare_grid`]).
pub fn size_grid<'a>(
    grid: &mut SpatialGrid,
    groups: impl IntoIterator<Item = (&'a Program, &'a ParamValues)>,
) -> bool {
    let mut uses_neighbors = false;
    let mut radius: f32 = 0.0;
    let mut summed = 0;
    for (program, params) in groups {
        uses_neighbors |= program.uses_neighbors();
        radius = radius.max(program.neighborhood_radius(params));
        summed = summed.max(program.summed_neighbors(params));
    }
    grid.set_cell_size(neighbor_cell_size(radius));
    grid.expect_neighbors(summed);
    uses_neighbors
}

/// Builds `grid` over `vehicles` for this tick when any of `groups` reads neighbors, sized
/// by [`size_grid`]; returns whether it did.
pub fn prepare_grid<'a>(
    grid: &mut SpatialGrid,
    vehicles: &[Vehicle],
    groups: impl IntoIterator<Item = (&'a Program, &'a ParamValues)>,
) -> bool {
    prepare_grid_on(grid, vehicles, groups, &Warm::cold())
}

/// [`prepare_grid`] during a tick that keeps the pool `warm` (a [`crate::Crowd`]'s): the
/// rebuild's passes run in bands ([`SpatialGrid::rebuild_on`]).
pub(crate) fn prepare_grid_on<'a>(
    grid: &mut SpatialGrid,
    vehicles: &[Vehicle],
    groups: impl IntoIterator<Item = (&'a Program, &'a ParamValues)>,
    warm: &Warm,
) -> bool {
    let uses_neighbors = size_grid(grid, groups);
    if uses_neighbors {
        grid.rebuild_on(vehicles, warm);
    }
    uses_neighbors
}

/// Advances `vehicle` by its `steering` over `dt` in `world` ([`World::step_vehicle`]: solid
/// walls stop and slide it), then its stuck clock `stuck_for` (`BEHAVIORS.md`, "Stuck
/// agents": from the velocity a Reciprocal node preferred, `preferred`, or else the one its
/// force asks for); returns whether the step met a wall (blocked, or crossed when the world's
/// walls are passable).
#[inline]
pub fn advance(
    vehicle: &mut Vehicle,
    steering: Steering,
    dt: f32,
    preferred: Option<Vec2>,
    stuck_for: &mut f32,
    world: &World,
) -> bool {
    // The preferred velocity is that of the vehicle before its step; a step changes its
    // velocity alone of what that reads (mass and limits stay), so the velocity is all that
    // is kept, not a copy of the vehicle per step.
    let velocity_before = vehicle.velocity;
    let force = steering.force;
    let met_a_wall = world.step_vehicle(vehicle, steering, dt);
    *stuck_for = match preferred {
        // A Reciprocal node's preference: used as it is.
        Some(preferred) => crate::stuck_clock(
            *stuck_for,
            preferred,
            vehicle.velocity,
            vehicle.max_speed,
            dt,
        ),
        None => crate::stuck::stuck_clock_after_step(
            *stuck_for,
            || {
                let before = Vehicle {
                    velocity: velocity_before,
                    ..*vehicle
                };
                crate::behaviors::preferred_velocity(&before, force)
            },
            vehicle.velocity,
            vehicle.max_speed,
            dt,
        ),
    };
    met_a_wall
}
