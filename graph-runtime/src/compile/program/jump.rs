//! What a Jump node hands the driver of its agents when the agent takes off ([`TakeOff`]).

use crate::behaviors::JumpPlan;

/// A Jump node's agent is at the take-off point at the take-off velocity: the driver (the
/// tick core, or the game through [`crate::Crowd`]) makes it airborne this tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TakeOff {
    /// The agent (an index into the tick's vehicles).
    pub agent: u32,
    /// The link's index in the world.
    pub link: usize,
    /// The flight.
    pub plan: JumpPlan,
    /// Gravity on the height (units / s²).
    pub gravity: f32,
}
