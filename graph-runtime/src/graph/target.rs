//! What a node aims at: a point, a named world target, the nearest tagged agent, or the
//! agent's own point.

use serde::{Deserialize, Serialize};

use super::Number;

/// What a behavior steers relative to: a point, or an agent (a "quarry") that also has a
/// velocity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Target {
    /// A fixed point in world units, `Point(x, y)`. Used as a quarry it has velocity zero.
    Point(Number, Number),
    /// A named point that the world provides (a scene target, or the editor's `"cursor"`).
    /// Used as a quarry it has velocity zero.
    Named(String),
    /// The nearest other agent carrying this tag, with its position and velocity.
    NearestTagged(String),
    /// This agent's own point of that name: each agent has its own, set by the game
    /// (`Crowd::set_goal`) or by its scene group's `goals`. Used as a quarry it has velocity
    /// zero; an agent without one gets zero from the node, as for a missing name.
    Own(String),
}

impl Default for Target {
    fn default() -> Self {
        Self::Named("cursor".to_owned())
    }
}
