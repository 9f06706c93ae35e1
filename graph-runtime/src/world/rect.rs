//! Axis-aligned rectangles (bounds, a Containment's own rectangle).

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// An axis-aligned rectangle in world units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

impl Rect {
    /// The rectangle between two corners.
    pub fn new(min: Vec2, max: Vec2) -> Self {
        Self { min, max }
    }

    /// Whether `point` lies inside or on the border.
    pub fn contains(&self, point: Vec2) -> bool {
        point.cmpge(self.min).all() && point.cmple(self.max).all()
    }

    /// The rectangle moved inwards by `margin` on every side (collapsing to its centre line
    /// when the margin is larger than half its size).
    #[must_use]
    pub fn shrink(&self, margin: f32) -> Self {
        let centre = (self.min + self.max) * 0.5;
        Self {
            min: (self.min + margin).min(centre),
            max: (self.max - margin).max(centre),
        }
    }

    /// The nearest point of the rectangle to `point`.
    pub fn clamp(&self, point: Vec2) -> Vec2 {
        point.clamp(self.min, self.max.max(self.min))
    }

    /// Width and height.
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }
}

impl Default for Rect {
    fn default() -> Self {
        Self {
            min: Vec2::splat(-50.0),
            max: Vec2::splat(50.0),
        }
    }
}
