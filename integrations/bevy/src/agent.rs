//! The agent component a game puts on its entities.

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy_asset::Handle;
use bevy_ecs::component::Component;
use bevy_transform::components::Transform;
use graph_runtime::{Avoidance, TagMask, Vehicle};

use crate::SteerGraph;

/// An entity steered by a Steergraph graph.
///
/// Every fixed tick (60 Hz by default) the plugin computes this agent's steering force from
/// the state of all agents at the start of the tick, then integrates [`SteerAgent::vehicle`]
/// and writes the entity's `Transform` (see [`crate::Plane`]). The vehicle is the truth; the
/// `Transform` follows it. Moving an agent means setting `vehicle.position`.
///
/// Agents are evaluated in order of [`SteerAgent::stream`] (then entity), the order that
/// neighbor queries and `steergraph simulate` use, so a scene spawned with
/// [`crate::spawn_scene`] moves bit for bit as in the editor.
///
/// The agent's own goals and routes (for `Own(name)` targets) live in a [`crate::SteerGoals`]
/// component beside this one.
#[derive(Component, Debug, Clone)]
#[require(Transform)]
pub struct SteerAgent {
    /// The graph this agent runs; a new save of the file takes over at the next tick.
    pub graph: Handle<SteerGraph>,
    /// Position (world units), velocity (units per second), heading and limits, in the
    /// runtime's 2D convention (y up).
    pub vehicle: Vehicle,
    /// Seed of the agent's random stream (a scene's `seed`).
    pub seed: u64,
    /// The agent's stable index: its random stream is `(seed, stream)`, as agent `stream` of
    /// a scene or of a `graph_runtime::Crowd`. Keep it unique and unchanged for the agent's
    /// life; it also orders agents within a tick.
    pub stream: u64,
    /// The tags the agent carries (bits of [`crate::SteerWorld::tags`]), for `NearestTagged`
    /// targets of other agents' graphs; 0 for none.
    pub tags: TagMask,
    /// Graph parameter overrides by name (a scene group's `parameters`); empty for the graph's
    /// defaults. Shared by the agents of one group.
    pub parameters: Arc<BTreeMap<String, f32>>,
    /// Its avoidance priority and layers (a scene group's `avoidance`; `BEHAVIORS.md`,
    /// "Avoidance priority and layers"): priority 1, on layer 1 and avoiding layer 1 by default.
    pub avoidance: Avoidance,
}

impl SteerAgent {
    /// An agent running `graph` with `vehicle`, random stream `(seed, stream)`, no tags and
    /// the graph's default parameters.
    pub fn new(graph: Handle<SteerGraph>, vehicle: Vehicle, seed: u64, stream: u64) -> Self {
        Self {
            graph,
            vehicle,
            seed,
            stream,
            tags: 0,
            parameters: Arc::default(),
            avoidance: Avoidance::default(),
        }
    }
}
