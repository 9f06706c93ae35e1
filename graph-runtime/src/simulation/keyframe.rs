//! Keyframes: everything a simulation carries from one tick to the next, in agent order, so
//! that it can be put back exactly (the rewind of issue 45, [`crate::rewind`]). Restored, a
//! simulation steps on bit for bit as it did from that tick: the working order of the agents
//! is not kept (it never changes a result), the spatial grid and the agents' cached bodies are
//! built again, and the crowds at doors are counted as if afresh.

use std::mem::size_of;

use crate::compile::AgentState;
use crate::tick::jumps::Jumps;
use crate::{Simulation, Steering, Vehicle};

/// What a simulation carries from one tick to the next, at one tick: every agent's vehicle,
/// program state (random stream, wander angles, own goals, routes), stuck clock, motion and
/// last steering, and the counts that run on (wall crossings, falls). The world is not in it:
/// a [`crate::rewind::Recording`] keeps the world's versions beside its keyframes.
#[derive(Clone, Debug)]
pub struct Keyframe {
    tick: u64,
    wall_crossings: u64,
    vehicles: Vec<Vehicle>,
    states: Vec<AgentState>,
    stuck_for: Vec<f32>,
    forces: Vec<Steering>,
    jumps: Jumps,
    /// The navigation revision the route planner last planned on.
    planned_on: Option<u64>,
    /// What [`Keyframe::bytes`] says, worked out once.
    bytes: usize,
}

/// Why a keyframe could not be restored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    /// The keyframe was taken of a simulation with another number of agents.
    #[error("the keyframe holds {keyframe} agents; the simulation has {simulation}")]
    Agents {
        /// Agents in the keyframe.
        keyframe: usize,
        /// Agents in the simulation.
        simulation: usize,
    },
}

impl Keyframe {
    /// The tick it was taken at (the simulation's [`Simulation::tick`] then).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// How many agents it holds.
    pub fn agents(&self) -> usize {
        self.vehicles.len()
    }

    /// Agent `agent`'s vehicle as it was.
    pub fn vehicle(&self, agent: usize) -> Option<Vehicle> {
        self.vehicles.get(agent).copied()
    }

    /// About how many bytes it takes: its lists, and what the agents' states keep on the heap
    /// (routes, own goals, spilled wander angles).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// What it takes, worked out.
    fn count_bytes(&self) -> usize {
        let per_agent = size_of::<Vehicle>()
            + size_of::<AgentState>()
            + size_of::<f32>()
            + size_of::<Steering>();
        let heap: usize = self.states.iter().map(AgentState::heap_bytes).sum();
        size_of::<Self>() + self.vehicles.len() * per_agent + heap + self.jumps.bytes()
    }
}

impl Simulation {
    /// Everything the simulation carries to its next tick, as it is now
    /// ([`Simulation::restore`] puts it back).
    pub fn keyframe(&self) -> Keyframe {
        let layout = &self.layout;
        let slots = || (0..self.working.len()).filter_map(|agent| layout.slot(agent));
        let mut keyframe = Keyframe {
            tick: self.tick,
            wall_crossings: self.wall_crossings,
            vehicles: self.vehicles().to_vec(),
            states: slots().map(|slot| self.states[slot].clone()).collect(),
            stuck_for: slots().map(|slot| self.stuck_for[slot]).collect(),
            forces: slots().map(|slot| self.slot_forces[slot]).collect(),
            jumps: self.jumps.clone(),
            planned_on: self.planner.planned_on(),
            bytes: 0,
        };
        keyframe.bytes = keyframe.count_bytes();
        keyframe
    }

    /// Puts back what `keyframe` holds, as when it was taken: the next [`Simulation::step`]
    /// (with the world and `dt` that step had) gives the same bits as it did then. The world,
    /// the groups' programs and the tags are left as they are; an agent's state is fitted to
    /// its group's program where that keeps other state (more Navigate routes, say). Refused, with nothing changed,
    /// for a keyframe of another number of agents.
    pub fn restore(&mut self, keyframe: &Keyframe) -> Result<(), RestoreError> {
        let agents = self.working.len();
        if keyframe.agents() != agents {
            return Err(RestoreError::Agents {
                keyframe: keyframe.agents(),
                simulation: agents,
            });
        }
        for agent in 0..agents {
            let Some(slot) = self.layout.slot(agent) else {
                continue;
            };
            self.working[slot] = keyframe.vehicles[agent];
            self.states[slot].clone_from(&keyframe.states[agent]);
            // A program swapped in since (a fork with an edit) may keep other state: fitted,
            // as a hot swap fits it. The same program's state is left exactly as it was.
            let group = self.group_of.get(agent).map(|&g| g as usize);
            if let Some(program) = group.and_then(|g| self.groups.get(g)).map(|g| &g.program)
                && !self.states[slot].fits(program)
            {
                self.states[slot].fit(program);
            }
            self.stuck_for[slot] = keyframe.stuck_for[agent];
            self.slot_forces[slot] = keyframe.forces[agent];
        }
        self.jumps.clone_from(&keyframe.jumps);
        self.tick = keyframe.tick;
        self.wall_crossings = keyframe.wall_crossings;
        self.planner.set_planned_on(keyframe.planned_on);
        // The agent-order copy, the grid's bodies and extent were of the other tick.
        self.agent_order.outdate();
        self.vehicles_changed = false;
        self.extent = None;
        Ok(())
    }
}
