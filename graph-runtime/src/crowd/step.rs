//! A crowd's tick, in the tick core's phases (`tick/`): list the tags' members, prepare the
//! neighbor grid, steer every agent by its group's program (in parallel tasks split by the
//! work, `tick/split.rs`); then either hand the steering to the game ([`Crowd::steering`]: the
//! game integrates and flies jumps) or advance every agent here, in parallel too
//! ([`Crowd::step`]: walls, stuck clocks, jumps and falls, as [`crate::Simulation`]). Rayon's
//! pool runs the tasks (a game picks the threads with its own pool's `install`); every result
//! is the same on any thread count.

use std::sync::Arc;

use rayon::prelude::*;

use super::Crowd;
use super::agents::HELD;
use crate::compile::{Scratch, TagMask, TagMembers};
use crate::pool::{Warm, run_tasks};
use crate::tick::jumps::Asked;
use crate::tick::{Group, MIN_AGENTS_PER_TASK, Tick, advance, prepare_grid_on, steer_chunk_for};
use crate::{JumpEvent, Motion, Steering, Vehicle, World};

impl Crowd {
    /// One steering force per vehicle for this tick, written into `forces` (resized to
    /// match): the linear part of [`Crowd::steering`], for vehicles that face where they move.
    /// `tags` is one mask per vehicle, or empty when the graph uses no tags.
    pub fn steer(
        &mut self,
        world: &World,
        vehicles: &[Vehicle],
        tags: &[TagMask],
        dt: f32,
        forces: &mut Vec<glam::Vec2>,
    ) {
        let mut steerings = std::mem::take(&mut self.steerings);
        self.steering(world, vehicles, tags, dt, &mut steerings);
        forces.clear();
        forces.extend(steerings.iter().map(|steering| steering.force));
        self.steerings = steerings;
    }

    /// One steering per vehicle for this tick, force and angular acceleration, written into
    /// `out` (resized to match); integrate each with [`World::step_vehicle`]. `tags` is one
    /// mask per vehicle, or empty when the graph uses no tags.
    ///
    /// Jumps: when a Jump node's agent reaches its take-off point at the take-off velocity,
    /// [`Crowd::jump_events`] reports the take-off (its velocity, vertical velocity and time
    /// in the air) and the game flies the agent (its own physics or animation). Until the
    /// flight time has passed the agent gets zero steering; then the landing is reported.
    ///
    /// A tick over the limits on work ([`Crowd::check_work`]) is refused before any work:
    /// every steering is zero and [`Crowd::refusal`] says why.
    pub fn steering(
        &mut self,
        world: &World,
        vehicles: &[Vehicle],
        tags: &[TagMask],
        dt: f32,
        out: &mut Vec<Steering>,
    ) {
        if !self.may_run(world, vehicles.len()) {
            out.clear();
            out.resize(vehicles.len(), Steering::ZERO);
            return;
        }
        let chunk = steer_chunk_for(vehicles.len(), self.groups.iter().map(|g| &*g.program));
        let warm = Warm::for_tasks_of(vehicles.len(), chunk);
        self.jumps.fit(world, vehicles.len());
        self.jumps.land_game_flights(world, vehicles, dt);
        self.steer_all(world, (vehicles, tags), dt, (chunk, &warm), out);
        let (take_offs, _) = Scratch::drain_jumps(&mut self.scratches);
        self.jumps
            .take_off_for_game(world, take_offs, vehicles, &mut self.states);
        for (agent, _) in self.jumps.flights() {
            if let Some(steering) = out.get_mut(agent) {
                *steering = Steering::ZERO;
            }
        }
    }

    /// Steps every agent of `vehicles` by one tick of `dt` seconds, as a
    /// [`crate::Simulation`] of the same agents does, bit for bit: each is steered by its
    /// group's program from the state at the start of the tick, then advanced
    /// ([`World::step_vehicle`]: solid walls stop and slide it) with its stuck clock; in a
    /// world with gaps or jump links, Jump nodes' agents take off and fly here, and walkers
    /// whose step ends in a gap fall ([`Crowd::jump_events`], [`Crowd::motion`]). `tags` is one
    /// mask per vehicle, or empty when the graphs use no tags. [`Crowd::forces`] holds the
    /// steering applied.
    ///
    /// A tick over the limits on work ([`Crowd::check_work`]) is refused before any work:
    /// no vehicle changes and [`Crowd::refusal`] says why.
    pub fn step(&mut self, world: &World, vehicles: &mut [Vehicle], tags: &[TagMask], dt: f32) {
        if !self.may_run(world, vehicles.len()) {
            return;
        }
        let chunk = steer_chunk_for(vehicles.len(), self.groups.iter().map(|g| &*g.program));
        let warm = Warm::for_tasks_of(vehicles.len(), chunk);
        self.jumps.fit(world, vehicles.len());
        let mut steerings = std::mem::take(&mut self.steerings);
        self.steer_all(world, (vehicles, tags), dt, (chunk, &warm), &mut steerings);
        self.steerings = steerings;
        if self.stuck_for.len() < vehicles.len() {
            self.stuck_for.resize(vehicles.len(), 0.0);
        }
        let jumps = self.jumps.active();
        let (table, group_of) = (&self.jumps, &self.group_of);
        // One agent's step: its wall crossing, and whether it ended in a gap.
        let step_one = |agent: usize, vehicle: &mut Vehicle, steering: Steering, state, stuck| {
            if (jumps && table.motion(agent) != Motion::Walking)
                || group_of.get(agent) == Some(&HELD)
            {
                return (false, false);
            }
            let met = advance(vehicle, steering, dt, state, stuck, world);
            (met, jumps && world.in_gap(vehicle.position))
        };
        // In parallel tasks of at least `MIN_AGENTS_PER_TASK`, as a simulation steps: each agent
        // steps by itself; the crossings are a sum of whole numbers and the falls come out in
        // agent order, on any thread count.
        let (crossings, falls) = (vehicles.par_iter_mut())
            .zip(self.steerings.par_iter())
            .zip(self.states.par_iter())
            .zip(self.stuck_for.par_iter_mut())
            .enumerate()
            .with_min_len(MIN_AGENTS_PER_TASK)
            .fold(
                || (0_u64, Vec::new()),
                |(crossings, mut falls), (agent, (((vehicle, &steering), state), stuck))| {
                    let (met, fell) = step_one(agent, vehicle, steering, state.preferred(), stuck);
                    if fell {
                        falls.push(agent as u32);
                    }
                    (crossings + u64::from(met), falls)
                },
            )
            .reduce(
                || (0, Vec::new()),
                |(a, mut left), (b, mut right)| {
                    left.append(&mut right);
                    (a + b, left)
                },
            );
        self.wall_crossings += crossings;
        let (take_offs, _) = Scratch::drain_jumps(&mut self.scratches);
        if jumps {
            let asked = Asked { take_offs, falls };
            let states = &mut self.states;
            self.jumps
                .end_tick(world, dt, asked, vehicles, states, Some);
        }
    }

    /// Steers every agent from `vehicles` as they are (the tick's start) into `out`, in
    /// parallel tasks of `chunk` agents ([`steer_chunk_for`], worked out once by the caller,
    /// who keeps the pool `warm`): the tick core's prepare and steer phases.
    fn steer_all(
        &mut self,
        world: &World,
        (vehicles, tags): (&[Vehicle], &[TagMask]),
        dt: f32,
        (chunk, warm): (usize, &Warm),
        out: &mut Vec<Steering>,
    ) {
        self.grow_states(vehicles.len());
        self.list_tag_members(tags, vehicles);
        self.plan_routes(world, vehicles);
        let programs = self.groups.iter().map(|g| (&*g.program, &g.params));
        self.grid.set_layers(&self.avoidance);
        if prepare_grid_on(&mut self.grid, vehicles, programs, warm) {
            // The game moves its agents between calls: measured here, agent by agent.
            let reads_agents = self.groups.iter().any(|g| g.program.reads_other_agents());
            (self.rebuilt_at).tell(&mut self.grid, vehicles, reads_agents);
        }
        let tick = Tick {
            world,
            vehicles,
            tags,
            avoidance: &self.avoidance,
            grid: &self.grid,
            dt,
        };
        let count = vehicles.len().min(self.states.len());
        out.clear();
        out.resize(count, Steering::ZERO);
        let states = &mut self.states[..count];
        if self.indices.len() < count {
            self.indices.extend(self.indices.len() as u32..count as u32);
        }
        let groups = &self.groups;
        let group = |index: usize| {
            groups.get(index).map(|group| Group {
                program: &group.program,
                bindings: &group.bindings,
                params: &group.params,
            })
        };
        // In parallel tasks as a simulation splits its tick: each agent's force reads only
        // the state at the start of the tick, so the split changes no result.
        let tasks = count.div_ceil(chunk).max(1);
        if self.scratches.len() < tasks {
            self.scratches.resize_with(tasks, Scratch::default);
        }
        let group_of = &self.group_of;
        let steer = |agents: &[u32], working, states, out: &mut [Steering], scratch| {
            tick.steer_runs(
                (groups.len(), group_of, group),
                agents,
                (working, states, out),
                scratch,
            );
        };
        let (agents, working) = (&self.indices[..count], &vehicles[..count]);
        if tasks == 1 {
            steer(agents, working, states, out, &mut self.scratches[0]);
        } else {
            let tasks = (agents.par_chunks(chunk))
                .zip(working.par_chunks(chunk))
                .zip(states.par_chunks_mut(chunk))
                .zip(out.par_chunks_mut(chunk))
                .zip(self.scratches.par_iter_mut());
            let each = |((((agents, working), states), out), scratch)| {
                steer(agents, working, states, out, scratch);
            };
            run_tasks(warm, tasks, each, ((), |(), ()| ()));
        }
        self.tag_members.end_tick();
    }

    /// Plans, within the route budget ([`Crowd::set_route_budget`]), the routes that ask for a
    /// plan now, as each tick does first, before steering: those whose goal moved when the
    /// last tick steered, those planned before a wall moved, a stuck agent's, one whose doors
    /// ahead jammed. The next tick then plans only what is left; a game may call it to spend a
    /// spare moment of a frame on planning. Nothing when no group's graph navigates.
    pub fn plan_routes(&mut self, world: &World, vehicles: &[Vehicle]) {
        self.grow_states(vehicles.len());
        if self.groups.iter().any(|g| g.program.navigates()) {
            let count = vehicles.len().min(self.states.len());
            let stuck_for = &self.stuck_for[..count.min(self.stuck_for.len())];
            let states = (&mut self.states[..count], stuck_for);
            (self.planner).plan(world, vehicles, states, |agent| agent);
        }
    }

    /// Lists the agents carrying each tag again when `tags` differ from the last call's, places
    /// in cells those of the tags the graphs read, at their positions in `vehicles` (when
    /// there are enough of them: [`TagMembers`]), and gives them to every group's bindings
    /// (new ones after [`Crowd::set_program`] too). Nothing when no graph reads tags.
    fn list_tag_members(&mut self, tags: &[TagMask], vehicles: &[Vehicle]) {
        if self
            .groups
            .iter()
            .all(|group| group.bindings.tags.is_empty())
        {
            return;
        }
        // The bindings give their handle back so the members can be changed in place.
        for group in &mut self.groups {
            group.bindings.members = None;
        }
        if self.listed_tags != tags {
            self.listed_tags.clear();
            self.listed_tags.extend_from_slice(tags);
            self.tag_members = Arc::new(TagMembers::new(tags));
        }
        let mut readers = [0_usize; TagMask::BITS as usize];
        for (index, group) in self.groups.iter().enumerate() {
            let agents = (0..vehicles.len())
                .filter(|&agent| self.group_of.get(agent).map_or(0, |&g| g as usize) == index)
                .count();
            TagMembers::add_readers(&mut readers, &group.bindings.tags, agents);
        }
        Arc::make_mut(&mut self.tag_members).place_in_cells(vehicles, &readers);
        for group in &mut self.groups {
            group.bindings.set_members(Arc::clone(&self.tag_members));
        }
    }

    /// What happened to jumps in the last call of [`Crowd::steering`], [`Crowd::steer`] or
    /// [`Crowd::step`]: take-offs (the game flies them after `steering`; `step` flies them
    /// itself), landings and falls.
    pub fn jump_events(&self) -> &[JumpEvent] {
        self.jumps.events()
    }

    /// Whether agent `agent` is in the air on a jump (its steering is zero).
    pub fn is_airborne(&self, agent: usize) -> bool {
        self.jumps.is_airborne(agent)
    }

    /// How agent `agent` moves now: walking, in the air, or fallen into a gap (kept by
    /// [`Crowd::step`]; [`Crowd::steering`] tells walking from airborne only).
    pub fn motion(&self, agent: usize) -> Motion {
        if self.jumps.is_airborne(agent) {
            Motion::Airborne
        } else {
            self.jumps.motion(agent)
        }
    }

    /// The steering of the last call, by agent (what [`Crowd::step`] applied).
    pub fn forces(&self) -> &[Steering] {
        &self.steerings
    }

    /// How long agent `agent` has been stuck (s), kept by [`Crowd::step`] as
    /// [`crate::Simulation::stuck_for`] keeps it; `0` for an unknown agent.
    pub fn stuck_for(&self, agent: usize) -> f32 {
        self.stuck_for.get(agent).copied().unwrap_or(0.0)
    }

    /// Steps of [`Crowd::step`] that met a wall since the start (see
    /// [`crate::Simulation::wall_crossings`]).
    pub fn wall_crossings(&self) -> u64 {
        self.wall_crossings
    }
}
