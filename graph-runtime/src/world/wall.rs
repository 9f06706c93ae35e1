//! Walls: polylines or polygons that agents do not cross.

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A wall: a polyline of straight segments that agents do not cross, or a closed polygon.
///
/// Walls are two-sided and have no thickness; an agent keeps its own `radius` away from them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wall {
    /// The corner points in order (units); a wall needs at least two.
    pub points: Vec<Vec2>,
    /// Whether the last point connects back to the first, making a polygon (walls of three or
    /// more points; a closed wall of two points is the one segment).
    #[serde(default)]
    pub closed: bool,
}

impl Wall {
    /// An open polyline through `points`.
    pub fn polyline(points: Vec<Vec2>) -> Self {
        Self {
            points,
            closed: false,
        }
    }

    /// A closed polygon through `points`.
    pub fn polygon(points: Vec<Vec2>) -> Self {
        Self {
            points,
            closed: true,
        }
    }

    /// The segments `(a, b)` in order; a closed wall of three or more points ends with the
    /// segment from its last point back to its first.
    pub fn segments(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let closing = if self.closed && self.points.len() >= 3 {
            self.points
                .last()
                .copied()
                .zip(self.points.first().copied())
        } else {
            None
        };
        self.points.windows(2).map(|w| (w[0], w[1])).chain(closing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_triangle_has_three_segments_and_an_open_one_two() {
        let points = vec![Vec2::ZERO, Vec2::X, Vec2::Y];
        assert_eq!(Wall::polygon(points.clone()).segments().count(), 3);
        assert_eq!(Wall::polyline(points).segments().count(), 2);
        assert_eq!(
            Wall::polygon(vec![Vec2::ZERO, Vec2::X]).segments().count(),
            1
        );
        assert_eq!(Wall::polygon(vec![Vec2::ZERO]).segments().count(), 0);
    }
}
