//! The jumps and falls of the last fixed tick, by entity, for a game that animates them.

use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use graph_runtime::JumpEvent;

/// What happened to jumps in the last fixed tick: take-offs (the plugin flies them: the
/// agent's [`crate::AgentBrain::flight`] gives its height), landings and falls into gaps, with
/// the entity of each (the event's own `agent` is its slot in that tick). Empty in a world
/// without gaps or jump links.
#[derive(Resource, Debug, Clone, Default)]
pub struct SteerJumps {
    /// The events, in the order the runtime reported them.
    pub events: Vec<(Entity, JumpEvent)>,
}
