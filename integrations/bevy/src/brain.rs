//! What the plugin keeps per agent to run its program.

use std::sync::Arc;

use bevy_ecs::component::Component;
use graph_runtime::{AgentState, ParamValues, Program};

/// The program an agent runs and its state between ticks (random stream, wander angle, …).
/// Inserted by the plugin when the agent's graph has loaded; replaced in place (the state
/// fitted to the new program, the vehicle untouched) when the graph is saved again.
#[derive(Component, Debug, Clone)]
pub struct AgentBrain {
    pub(crate) program: Arc<Program>,
    pub(crate) params: ParamValues,
    pub(crate) state: AgentState,
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
}
