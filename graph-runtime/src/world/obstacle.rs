//! Circle obstacles.

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A circle obstacle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Obstacle {
    /// Centre (units).
    pub center: Vec2,
    /// Radius (units, `>= 0`).
    pub radius: f32,
}
