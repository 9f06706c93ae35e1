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

/// Where a `ReachOrientation` turns the agent's facing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Heading {
    /// A fixed angle (degrees, counter-clockwise from +x).
    Angle(Number),
    /// The direction of a vector `(x, y)`; a vector shorter than `1e-6` gives nothing to do.
    Direction(Number, Number),
    /// The facing of the nearest agent carrying a tag (a [`Target::NearestTagged`]); a point
    /// has no facing.
    Of(Target),
}

impl Default for Heading {
    fn default() -> Self {
        Self::Angle(Number::Literal(90.0))
    }
}

/// The velocity a `MatchVelocity` matches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum VelocitySource {
    /// A fixed velocity `(x, y)` (units / s).
    Fixed(Number, Number),
    /// The velocity of a target: an agent's, or zero for a point.
    Of(Target),
}

impl Default for VelocitySource {
    fn default() -> Self {
        Self::Of(Target::NearestTagged("leader".to_owned()))
    }
}
