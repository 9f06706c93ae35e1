//! Every steering formula of the behavior contract, written once as a pure function.
//!
//! The compiled [`crate::Program`] calls these; games and tests may call them directly. Each
//! returns a steering force; "nothing to do" is exactly [`glam::Vec2::ZERO`].

mod avoidance;
mod group;
mod pursuit;
mod route;
mod seek;
mod tactics;

pub use avoidance::{
    containment, most_threatening_obstacle, obstacle_avoidance, unaligned_collision_avoidance,
};
pub use group::{
    FOV_COSINE_TOLERANCE, FieldOfView, alignment, cohesion, flocking, in_neighborhood,
    leader_following, separation,
};
pub use pursuit::{
    evasion, offset_pursuit, offset_pursuit_aim, predicted_position, prediction_time, pursuit,
};
pub use route::{flow_field_following, path_following, wander, wander_aim};
pub use seek::{arrival, flee, seek};
pub use tactics::{hide, hiding_spot, interpose, interpose_point};

use glam::Vec2;

/// A moving agent as seen by another: where it is, how it moves, where it faces.
///
/// A named point or fixed point used as a quarry has velocity zero and faces +x.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quarry {
    /// Position (units).
    pub position: Vec2,
    /// Velocity (units / s).
    pub velocity: Vec2,
    /// Unit heading.
    pub forward: Vec2,
}

impl Quarry {
    /// A still point.
    pub fn at(position: Vec2) -> Self {
        Self {
            position,
            velocity: Vec2::ZERO,
            forward: Vec2::X,
        }
    }
}

impl From<&crate::Vehicle> for Quarry {
    fn from(vehicle: &crate::Vehicle) -> Self {
        Self {
            position: vehicle.position,
            velocity: vehicle.velocity,
            forward: vehicle.forward,
        }
    }
}
