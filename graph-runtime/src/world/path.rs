use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A polyline agents can follow, with a radius ("road width" / 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Path {
    /// The corner points, at least one.
    pub points: Vec<Vec2>,
    /// Half the width of the path (units, `>= 0`).
    pub radius: f32,
    /// Whether the last point connects back to the first.
    #[serde(default)]
    pub closed: bool,
}

/// The nearest point of a path to a query point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// The nearest point on the path.
    pub point: Vec2,
    /// Its arc length from the first point (units).
    pub distance_along: f32,
}

impl Path {
    fn segments(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let closing = if self.closed && self.points.len() > 2 {
            self.points
                .last()
                .copied()
                .zip(self.points.first().copied())
        } else {
            None
        };
        self.points.windows(2).map(|w| (w[0], w[1])).chain(closing)
    }

    /// Total arc length, including the closing segment of a closed path (units).
    pub fn length(&self) -> f32 {
        self.segments().map(|(a, b)| a.distance(b)).sum()
    }

    /// The nearest point of the path to `point` (the first one on ties), or `None` for a path
    /// without points.
    pub fn project(&self, point: Vec2) -> Option<Projection> {
        let first = *self.points.first()?;
        let mut best = Projection {
            point: first,
            distance_along: 0.0,
        };
        let mut best_distance_squared = point.distance_squared(first);
        let mut start_length = 0.0;
        for (a, b) in self.segments() {
            let segment = b - a;
            let length_squared = segment.length_squared();
            let t = if length_squared > 0.0 {
                ((point - a).dot(segment) / length_squared).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let nearest = a + segment * t;
            let distance_squared = point.distance_squared(nearest);
            let length = length_squared.sqrt();
            if distance_squared < best_distance_squared {
                best_distance_squared = distance_squared;
                best = Projection {
                    point: nearest,
                    distance_along: start_length + t * length,
                };
            }
            start_length += length;
        }
        Some(best)
    }

    /// The point at arc length `distance_along`: wrapped on closed paths, clamped to the ends
    /// on open ones. `None` for a path without points.
    pub fn point_at(&self, distance_along: f32) -> Option<Vec2> {
        let first = *self.points.first()?;
        let total = self.length();
        if total <= 0.0 {
            return Some(first);
        }
        let s = if self.closed {
            distance_along.rem_euclid(total)
        } else {
            distance_along.clamp(0.0, total)
        };
        let mut start_length = 0.0;
        let mut last = first;
        for (a, b) in self.segments() {
            let length = a.distance(b);
            if s <= start_length + length && length > 0.0 {
                return Some(a + (b - a) * ((s - start_length) / length));
            }
            start_length += length;
            last = b;
        }
        Some(if self.closed { first } else { last })
    }

    /// The end point reached when travelling in `direction` (`+1`: the last point, `-1`: the
    /// first).
    pub fn end(&self, direction: f32) -> Option<Vec2> {
        if direction < 0.0 {
            self.points.first().copied()
        } else {
            self.points.last().copied()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l_path(closed: bool) -> Path {
        Path {
            points: vec![Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)],
            radius: 1.0,
            closed,
        }
    }

    #[test]
    fn projection_finds_nearest_point_and_arc_length() {
        let path = l_path(false);
        let p = path.project(Vec2::new(4.0, 3.0)).expect("points");
        assert_eq!(
            p,
            Projection {
                point: Vec2::new(4.0, 0.0),
                distance_along: 4.0
            }
        );
        let p = path.project(Vec2::new(12.0, 5.0)).expect("points");
        assert_eq!(
            p,
            Projection {
                point: Vec2::new(10.0, 5.0),
                distance_along: 15.0
            }
        );
    }

    #[test]
    fn point_at_clamps_open_and_wraps_closed_paths() {
        let open = l_path(false);
        assert_eq!(open.length(), 20.0);
        assert_eq!(open.point_at(25.0), Some(Vec2::new(10.0, 10.0)));
        assert_eq!(open.point_at(-3.0), Some(Vec2::ZERO));
        let closed = l_path(true);
        let total = closed.length(); // 20 + sqrt(200)
        assert!((total - (20.0 + 200f32.sqrt())).abs() < 1e-4);
        assert_eq!(closed.point_at(total + 4.0), Some(Vec2::new(4.0, 0.0)));
        assert_eq!(closed.point_at(-1.0), closed.point_at(total - 1.0));
    }
}
