//! Jumps: links a designer places from a take-off point to a landing point, and gaps, the
//! regions walking agents fall into (`BEHAVIORS.md`, "Jump").

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A jump link: where an agent takes off and where it lands, each with a height above the
/// ground (units; the ground is 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JumpLink {
    /// The take-off point (units).
    pub from: Vec2,
    /// The landing point (units).
    pub to: Vec2,
    /// Height of the take-off point (units).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub from_height: f32,
    /// Height of the landing point (units).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub to_height: f32,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(value: &f32) -> bool {
    *value == 0.0
}

impl JumpLink {
    /// A link from `from` to `to` on level ground.
    pub fn new(from: Vec2, to: Vec2) -> Self {
        Self {
            from,
            to,
            from_height: 0.0,
            to_height: 0.0,
        }
    }
}

/// A gap: a closed polygon walking agents cannot enter. A walking agent whose step ends inside
/// one has fallen; an airborne agent flies over it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gap {
    /// The corners in order (units), at least three; the last connects back to the first.
    pub points: Vec<Vec2>,
}

impl Gap {
    /// A gap with corners `points`.
    pub fn new(points: Vec<Vec2>) -> Self {
        Self { points }
    }

    /// The edges `(a, b)` in order, ending with the one from the last corner to the first.
    pub fn edges(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let closing = if self.points.len() >= 3 {
            self.points
                .last()
                .copied()
                .zip(self.points.first().copied())
        } else {
            None
        };
        self.points.windows(2).map(|w| (w[0], w[1])).chain(closing)
    }

    /// Whether `point` is inside (the even-odd rule; a point exactly on an edge may count
    /// either way). A gap of fewer than three corners contains nothing.
    pub fn contains(&self, point: Vec2) -> bool {
        if self.points.len() < 3 {
            return false;
        }
        let mut inside = false;
        for (a, b) in self.edges() {
            if (a.y > point.y) != (b.y > point.y) {
                let x = a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x);
                if point.x < x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// The smallest box holding every corner, as `(min, max)`; `None` without corners.
    pub fn bounds(&self) -> Option<(Vec2, Vec2)> {
        let first = *self.points.first()?;
        Some(
            self.points
                .iter()
                .fold((first, first), |(min, max), &p| (min.min(p), max.max(p))),
        )
    }
}

/// The gaps of a world with their boxes, so that most agents are ruled out by one box test.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct GapIndex {
    gaps: Vec<(Vec2, Vec2, Gap)>,
}

impl GapIndex {
    pub(crate) fn new(gaps: &[Gap]) -> Self {
        Self {
            gaps: gaps
                .iter()
                .filter_map(|gap| gap.bounds().map(|(min, max)| (min, max, gap.clone())))
                .collect(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.gaps.is_empty()
    }

    /// Whether `point` is inside any gap.
    pub(crate) fn contains(&self, point: Vec2) -> bool {
        self.gaps.iter().any(|(min, max, gap)| {
            point.cmpge(*min).all() && point.cmple(*max).all() && gap.contains(point)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_gap_contains_its_inside_only() {
        let gap = Gap::new(vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 2.0),
            Vec2::new(0.0, 2.0),
        ]);
        assert!(gap.contains(Vec2::new(1.0, 1.0)));
        assert!(!gap.contains(Vec2::new(5.0, 1.0)));
        assert!(!gap.contains(Vec2::new(1.0, -0.5)));
        assert_eq!(gap.edges().count(), 4);
        let index = GapIndex::new(std::slice::from_ref(&gap));
        assert!(index.contains(Vec2::new(3.9, 1.9)));
        assert!(!index.contains(Vec2::new(-0.1, 1.0)));
    }

    #[test]
    fn a_concave_gap_leaves_its_notch_out() {
        // A U: the notch between x = 1 and x = 3 above y = 1 is outside.
        let gap = Gap::new(vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 3.0),
            Vec2::new(3.0, 3.0),
            Vec2::new(3.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 3.0),
            Vec2::new(0.0, 3.0),
        ]);
        assert!(!gap.contains(Vec2::new(2.0, 2.0)));
        assert!(gap.contains(Vec2::new(0.5, 2.0)));
        assert!(gap.contains(Vec2::new(2.0, 0.5)));
    }
}
