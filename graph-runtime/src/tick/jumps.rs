//! Jumps and falls (`BEHAVIORS.md`, "Jump"), the one flights table of every driver: which
//! agents are airborne or have fallen into a gap, their flights, and the events of the last
//! tick. Flights are flown here ([`Jumps::end_tick`], for [`crate::Simulation`] and
//! [`crate::Crowd::step`]) or by the game ([`Jumps::land_game_flights`] and
//! [`Jumps::take_off_for_game`], for [`crate::Crowd::steering`]). Only a world with gaps or
//! jump links keeps any of it; every other driver skips it.

use std::collections::BTreeMap;

use glam::Vec2;

use crate::compile::{AgentState, TakeOff};
use crate::jumping::{Flight, JumpEvent, JumpEventKind, Motion};
use crate::{Vehicle, World};

/// What the tick's parallel pass left for its end: the take-offs Jump nodes asked for and the
/// walkers whose step ended in a gap.
pub(crate) struct Asked {
    pub(crate) take_offs: Vec<TakeOff>,
    pub(crate) falls: Vec<u32>,
}

/// The simulation's jump and fall bookkeeping, by agent index.
#[derive(Clone, Debug, Default)]
pub(crate) struct Jumps {
    /// Each agent's motion (empty in a world without gaps or jump links).
    pub(crate) motion: Vec<Motion>,
    flights: BTreeMap<u32, Flight>,
    events: Vec<JumpEvent>,
    falls: u64,
}

impl Jumps {
    /// About how many bytes it takes on the heap (motions, flights, this tick's events).
    pub(crate) fn bytes(&self) -> usize {
        self.motion.capacity() * size_of::<Motion>()
            + self.flights.len() * (size_of::<u32>() + size_of::<Flight>() + 16)
            + self.events.capacity() * size_of::<JumpEvent>()
    }

    /// Bookkeeping for `agents` agents in `world`: none unless it has gaps or jump links.
    pub(crate) fn new(world: &World, agents: usize) -> Self {
        Self {
            motion: if world.has_jumps() {
                vec![Motion::Walking; agents]
            } else {
                Vec::new()
            },
            ..Self::default()
        }
    }

    /// Keeps room for `agents` agents in `world` (a crowd's count grows with the game's):
    /// motions start walking; nothing in a world without gaps or jump links.
    pub(crate) fn fit(&mut self, world: &World, agents: usize) {
        if world.has_jumps() && self.motion.len() < agents {
            self.motion.resize(agents, Motion::Walking);
        }
    }

    /// The start of a tick whose flights the game flies (its own physics or animation):
    /// flights whose time has passed land, reported where the game's vehicle now is.
    pub(crate) fn land_game_flights(&mut self, world: &World, vehicles: &[Vehicle], dt: f32) {
        self.events.clear();
        let mut landed = Vec::new();
        for (&agent, flight) in &mut self.flights {
            flight.elapsed += dt;
            if flight.elapsed >= flight.flight_time {
                landed.push((agent, flight.link));
            }
        }
        for (agent, link) in landed {
            self.flights.remove(&agent);
            if let Some(motion) = self.motion.get_mut(agent as usize) {
                *motion = Motion::Walking;
            }
            self.events.push(JumpEvent {
                agent: agent as usize,
                at: vehicles
                    .get(agent as usize)
                    .map_or(Vec2::ZERO, |v| v.position),
                kind: JumpEventKind::Landed {
                    link: world.jump_link_name(link).unwrap_or_default().to_owned(),
                    completed: true,
                },
            });
        }
    }

    /// This tick's take-offs for a game that flies them: the agents leave the ground (their
    /// steering is zero until they land) and the game is told how to fly them.
    pub(crate) fn take_off_for_game(
        &mut self,
        world: &World,
        mut take_offs: Vec<TakeOff>,
        vehicles: &[Vehicle],
        states: &mut [AgentState],
    ) {
        take_offs.sort_by_key(|take_off| take_off.agent);
        take_offs.dedup_by_key(|take_off| take_off.agent);
        for take_off in take_offs {
            let agent = take_off.agent as usize;
            if self.flights.contains_key(&take_off.agent) {
                continue;
            }
            if let Some(state) = states.get_mut(agent) {
                state.mark_jumped(take_off.link);
            }
            let position = vehicles.get(agent).map_or(Vec2::ZERO, |v| v.position);
            self.launch(world, &take_off, position);
        }
    }

    /// Whether agent `agent` is in the air (flown here or by the game).
    pub(crate) fn is_airborne(&self, agent: usize) -> bool {
        self.flights.contains_key(&(agent as u32))
    }

    /// Whether agents may jump or fall.
    pub(crate) fn active(&self) -> bool {
        !self.motion.is_empty()
    }

    pub(crate) fn motion(&self, agent: usize) -> Motion {
        self.motion.get(agent).copied().unwrap_or_default()
    }

    pub(crate) fn flight(&self, agent: usize) -> Option<&Flight> {
        self.flights.get(&(agent as u32))
    }

    /// Swaps agent `agent`'s motion and flight with `motion` and `flight` (an agent a game
    /// keeps between ticks, moved in before a step and out after it). A walking agent's
    /// motion takes no room in a world without gaps or jump links.
    pub(crate) fn swap_agent(
        &mut self,
        agent: usize,
        motion: &mut Motion,
        flight: &mut Option<Flight>,
    ) {
        // Only agents of a world with gaps or jump links ever leave walking; a crowd made
        // again from nothing has not been fitted to its world yet when they are moved in.
        if self.motion.len() <= agent && *motion != Motion::Walking {
            self.motion.resize(agent + 1, Motion::Walking);
        }
        if let Some(kept) = self.motion.get_mut(agent) {
            std::mem::swap(kept, motion);
        } else {
            *motion = Motion::Walking;
        }
        let key = agent as u32;
        let kept = self.flights.remove(&key);
        if let Some(incoming) = flight.take() {
            self.flights.insert(key, incoming);
        }
        *flight = kept;
    }

    pub(crate) fn flights(&self) -> impl Iterator<Item = (usize, &Flight)> {
        self.flights
            .iter()
            .map(|(&agent, flight)| (agent as usize, flight))
    }

    pub(crate) fn fallen(&self) -> impl Iterator<Item = usize> + '_ {
        self.motion
            .iter()
            .enumerate()
            .filter(|(_, motion)| **motion == Motion::Fallen)
            .map(|(agent, _)| agent)
    }

    pub(crate) fn events(&self) -> &[JumpEvent] {
        &self.events
    }

    pub(crate) fn falls(&self) -> u64 {
        self.falls
    }

    /// The end of a tick: the flights in the air move on (they were not stepped with the
    /// walkers), then this tick's take-offs leave the ground, then the walkers whose step
    /// ended in a gap fall (a walker that took off this tick does not). `working` and
    /// `states` are by slot; `slot` gives an agent's.
    pub(crate) fn end_tick(
        &mut self,
        world: &World,
        dt: f32,
        asked: Asked,
        working: &mut [Vehicle],
        states: &mut [AgentState],
        slot: impl Fn(usize) -> Option<usize>,
    ) {
        let Asked {
            mut take_offs,
            mut falls,
        } = asked;
        self.events.clear();
        let link_name = |link: usize| world.jump_link_name(link).unwrap_or_default().to_owned();
        let mut landed = Vec::new();
        for (&agent, flight) in &mut self.flights {
            let Some((me, _)) = at(working, states, slot(agent as usize)) else {
                continue;
            };
            let from = me.position;
            let to = from + flight.velocity * dt;
            // A wall the flight would meet (cross, touch, end on) stops it where it was, as
            // one its landing would: no step of a flight leaves a wall's side either
            // (`BEHAVIORS.md`, "Jump" and "Solid walls").
            let walls = world.wall_index();
            if walls.step_meets_a_wall(from, to) {
                me.velocity = Vec2::ZERO;
                landed.push((agent, false));
                continue;
            }
            me.position = to;
            flight.elapsed += dt;
            if flight.elapsed >= flight.flight_time {
                let landing = world.jump_link_at(flight.link).map(|link| link.to);
                let blocked = landing.is_some_and(|at| walls.step_meets_a_wall(to, at));
                if blocked {
                    me.velocity = Vec2::ZERO;
                } else {
                    me.position = landing.unwrap_or(to);
                    me.velocity = flight.velocity;
                }
                landed.push((agent, !blocked));
            }
        }
        for (agent, completed) in landed {
            let Some(flight) = self.flights.remove(&agent) else {
                continue;
            };
            let position =
                at(working, states, slot(agent as usize)).map_or(Vec2::ZERO, |(me, _)| me.position);
            self.events.push(JumpEvent {
                agent: agent as usize,
                at: position,
                kind: JumpEventKind::Landed {
                    link: link_name(flight.link),
                    completed,
                },
            });
            if let Some(motion) = self.motion.get_mut(agent as usize) {
                *motion = Motion::Walking;
            }
            if world.in_gap(position) {
                falls.push(agent);
            }
        }
        take_offs.sort_by_key(|take_off| take_off.agent);
        take_offs.dedup_by_key(|take_off| take_off.agent);
        for take_off in &take_offs {
            let agent = take_off.agent as usize;
            if self.motion(agent) != Motion::Walking {
                continue;
            }
            let Some((me, state)) = at(working, states, slot(agent)) else {
                continue;
            };
            state.mark_jumped(take_off.link);
            me.velocity = take_off.plan.velocity;
            // Nothing turns the facing in the air: it holds the angle it took off with, from
            // rest (`BEHAVIORS.md`, "Jump").
            me.angular_velocity = 0.0;
            let position = me.position;
            self.launch(world, take_off, position);
        }
        falls.sort_unstable();
        falls.dedup();
        for agent in falls {
            if self.motion(agent as usize) != Motion::Walking {
                continue;
            }
            let Some((me, _)) = at(working, states, slot(agent as usize)) else {
                continue;
            };
            me.velocity = Vec2::ZERO;
            if let Some(motion) = self.motion.get_mut(agent as usize) {
                *motion = Motion::Fallen;
            }
            self.falls += 1;
            self.events.push(JumpEvent {
                agent: agent as usize,
                at: me.position,
                kind: JumpEventKind::Fell,
            });
        }
    }

    /// `take_off`'s agent leaves the ground at `position`: its flight is listed, it is
    /// airborne, and the take-off is reported.
    fn launch(&mut self, world: &World, take_off: &TakeOff, position: Vec2) {
        let from_height = world
            .jump_link_at(take_off.link)
            .map_or(0.0, |link| link.from_height);
        self.flights.insert(
            take_off.agent,
            Flight {
                link: take_off.link,
                velocity: take_off.plan.velocity,
                vertical_velocity: take_off.plan.vertical_velocity,
                gravity: take_off.gravity,
                from_height,
                flight_time: take_off.plan.flight_time,
                elapsed: 0.0,
            },
        );
        let agent = take_off.agent as usize;
        if let Some(motion) = self.motion.get_mut(agent) {
            *motion = Motion::Airborne;
        }
        self.events.push(JumpEvent {
            agent,
            at: position,
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

/// The working vehicle and state at `slot`.
fn at<'v>(
    working: &'v mut [Vehicle],
    states: &'v mut [AgentState],
    slot: Option<usize>,
) -> Option<(&'v mut Vehicle, &'v mut AgentState)> {
    let slot = slot?;
    Some((working.get_mut(slot)?, states.get_mut(slot)?))
}
