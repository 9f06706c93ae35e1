//! Every steering formula of `BEHAVIORS.md`, written once as a pure function.
//!
//! The compiled [`crate::Program`] calls these; games and tests may call them directly. Each
//! returns a steering force (the angular layer's an angular acceleration); "nothing to do" is
//! exactly [`glam::Vec2::ZERO`] (or `0`). Where a debug
//! guide shows a behavior's geometry (an aim point, a corridor, a projection), the geometry
//! comes from a function here that the force itself calls, so the two cannot disagree.
//!
//! Each file's public items are this module's (the re-exports below are whole), so a new
//! formula is written in its file and nowhere else.

mod avoidance;
mod facing;
mod group;
mod half_planes;
mod jump;
mod lanes;
mod orca_lines;
mod orca_solve;
mod pursuit;
mod reciprocal;
mod reciprocal_nearest;
mod route;
mod seek;
mod tactics;
mod walls;

pub use avoidance::*;
pub use facing::*;
pub use group::*;
pub use half_planes::*;
pub use jump::*;
pub use lanes::*;
pub use orca_lines::*;
pub use orca_solve::*;
pub use pursuit::*;
pub use reciprocal::*;
pub(crate) use reciprocal_nearest::ScanKeys;
pub use route::*;
pub use seek::*;
pub use tactics::*;
pub use walls::*;

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
