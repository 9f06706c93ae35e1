//! Agents a game keeps between ticks itself (an ECS keeps them on its entities): what a crowd
//! remembers of one agent, moved into the crowd before a step and out after it, and agents
//! held still while their program is missing.

use super::Crowd;
use crate::compile::AgentState;
use crate::jumping::{Flight, Motion};

/// The group number of an agent [`Crowd::hold`] keeps still.
pub(super) const HELD: u32 = u32::MAX;

/// Everything a [`Crowd`] remembers of one agent from one tick to the next, besides its
/// vehicle: its program state (random stream, wander angles, own goals), its stuck clock and
/// how it moves (walking, in the air on a jump with its flight, fallen into a gap).
///
/// A game whose agents come and go, or change order (an ECS's entities), keeps one of these
/// with each agent and moves it into the crowd's slot before [`Crowd::step`] and out after
/// it ([`Crowd::swap_agent`]): the crowd then steps each agent as if it had kept the agent
/// itself, bit for bit, whatever slot the agent has this tick.
#[derive(Clone, Debug)]
pub struct CrowdAgent {
    /// The program state: the random stream `(seed, stream)` it was made with, wander
    /// angles, own goals and routes.
    pub state: AgentState,
    /// How long the agent has been stuck (s; `BEHAVIORS.md`, "Stuck agents").
    pub stuck_for: f32,
    /// Walking, airborne or fallen (always walking in a world without gaps or jump links).
    pub motion: Motion,
    /// The jump it is in the air on, if any.
    pub flight: Option<Flight>,
}

impl CrowdAgent {
    /// A walking agent with program state `state` that has not been stuck.
    pub fn new(state: AgentState) -> Self {
        Self {
            state,
            stuck_for: 0.0,
            motion: Motion::Walking,
            flight: None,
        }
    }
}

impl Crowd {
    /// Swaps what the crowd remembers of agent `agent` (its slot this tick) with `kept`: call
    /// it once before [`Crowd::step`] to move a game's agent in, and once after to move it
    /// back out. The agent's group is its own ([`Crowd::set_group`], before the swap).
    /// Refused (`false`, nothing changes) for an index not below
    /// [`crate::limits::MAX_AGENTS`].
    pub fn swap_agent(&mut self, agent: usize, kept: &mut CrowdAgent) -> bool {
        let Some(state) = self.state_of(agent) else {
            return false;
        };
        let (gone, come) = (state.own.route_points(), kept.state.own.route_points());
        std::mem::swap(state, &mut kept.state);
        self.own_route_points = (self.own_route_points.saturating_sub(gone)).saturating_add(come);
        if self.stuck_for.len() <= agent {
            self.stuck_for.resize(agent + 1, 0.0);
        }
        std::mem::swap(&mut self.stuck_for[agent], &mut kept.stuck_for);
        self.jumps
            .swap_agent(agent, &mut kept.motion, &mut kept.flight);
        true
    }

    /// Keeps agent `agent` still from now on, until [`Crowd::set_group`] gives it a program
    /// again: the others see it as a neighbor, it gets no steering and [`Crowd::step`] does
    /// not move it (a game agent whose graph has not loaded yet). Refused (`false`) for an
    /// index not below [`crate::limits::MAX_AGENTS`].
    pub fn hold(&mut self, agent: usize) -> bool {
        if self.state_of(agent).is_none() {
            return false;
        }
        self.group_of[agent] = HELD;
        true
    }

    /// Whether agent `agent` is held still ([`Crowd::hold`]).
    pub fn is_held(&self, agent: usize) -> bool {
        self.group_of.get(agent) == Some(&HELD)
    }
}
