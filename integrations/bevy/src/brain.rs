//! What the plugin keeps per agent to run its program.

use std::sync::Arc;

use bevy_ecs::component::Component;
use graph_runtime::{CrowdAgent, Flight, Motion, ParamValues, Program, RouteSlot, RouteStatus};

/// The program an agent runs and its memory between ticks (random stream, wander angle, own
/// goals, stuck clock, jump), moved into the runtime's crowd for each step and back.
/// Inserted by the plugin when the agent's graph has loaded; replaced in place (the state
/// fitted to the new program, the vehicle untouched) when the graph is saved again.
#[derive(Component, Debug, Clone)]
pub struct AgentBrain {
    pub(crate) program: Arc<Program>,
    pub(crate) params: ParamValues,
    pub(crate) memory: CrowdAgent,
    /// Neighborhood radius of the program with these parameters (world units, >= 0).
    pub(crate) radius: f32,
}

impl AgentBrain {
    /// The compiled graph the agent runs now.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// The graph parameters it runs with (defaults and the agent's overrides).
    pub fn params(&self) -> &ParamValues {
        &self.params
    }

    /// How long the agent has been stuck (s): asking to move and hardly moving
    /// (`BEHAVIORS.md`, "Stuck agents"), as the editor's preview and `steergraph simulate`
    /// count it.
    pub fn stuck_for(&self) -> f32 {
        self.memory.stuck_for
    }

    /// Walking, in the air on a jump, or fallen into a gap.
    pub fn motion(&self) -> Motion {
        self.memory.motion
    }

    /// The jump it is in the air on, if any (its height: [`Flight::height`]).
    pub fn flight(&self) -> Option<&Flight> {
        self.memory.flight.as_ref()
    }

    /// Its planned routes, one per Navigate node of its graph, each with its corner points,
    /// the leg the agent is on and where it stands ([`RouteSlot::status`]); none when the
    /// graph does not navigate. Routes are planned on the meshes of [`crate::SteerWorld`]'s
    /// world: built from a scene by [`crate::spawn_scene`], or by the game from its own walls
    /// with `World::build_navigation(radius)`.
    pub fn routes(&self) -> &[RouteSlot] {
        self.memory.state.routes()
    }

    /// Where its first route stands (following, re-planning, unreachable, …); `None` when
    /// its graph does not navigate.
    pub fn route_status(&self) -> Option<RouteStatus> {
        self.routes().first().map(RouteSlot::status)
    }
}
