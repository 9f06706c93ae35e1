//! Paths: polylines with a radius, their projection and arc length.

use glam::Vec2;

use super::segment::nearest_parameter;
use serde::{Deserialize, Serialize};

/// A polyline agents can follow, with a radius ("road width" / 2).
///
/// Any `Path` a game builds is safe to query: no method panics or returns a non-finite number.
/// A path is *usable* when all its points are finite and its total length fits in an `f32`
/// (every segment shorter than about `1.8e19` units); an unusable path behaves like a path
/// without points (`BEHAVIORS.md`, "`PathFollowing`").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Path {
    /// The corner points, at least one.
    pub points: Vec<Vec2>,
    /// Half the width of the path (units, `>= 0`).
    pub radius: f32,
    /// Whether the last point connects back to the first (paths of two or more points).
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
    /// How many segments [`Path::project`] looks at (those of [`Path::segments`]).
    pub(crate) fn segment_count(&self) -> usize {
        self.segments().count()
    }

    /// The segments in travel order; a closed path of two or more points ends with the
    /// segment from its last point back to its first.
    fn segments(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let closing = if self.closed && self.points.len() >= 2 {
            self.points
                .last()
                .copied()
                .zip(self.points.first().copied())
        } else {
            None
        };
        self.points.windows(2).map(|w| (w[0], w[1])).chain(closing)
    }

    /// The arc length summed in `f32`, finite or not.
    fn raw_length(&self) -> f32 {
        self.segments().map(|(a, b)| a.distance(b)).sum()
    }

    /// Whether the path has points, all of them finite, and a total length that is finite in
    /// `f32`. Every query of an unusable path answers as for a path without points.
    pub fn is_usable(&self) -> bool {
        self.points.first().is_some_and(|first| first.is_finite()) && self.raw_length().is_finite()
    }

    /// Total arc length, including the closing segment of a closed path (units); `0` for a
    /// path that is not [usable](Self::is_usable).
    pub fn length(&self) -> f32 {
        let total = self.raw_length();
        if total.is_finite() { total } else { 0.0 }
    }

    /// The nearest point of the path to `point` (the first one on ties), or `None` for a path
    /// that is not [usable](Self::is_usable) or a `point` that is not finite.
    pub fn project(&self, point: Vec2) -> Option<Projection> {
        let first = *self.points.first()?;
        if !first.is_finite() || !point.is_finite() {
            return None;
        }
        let mut best = Projection {
            point: first,
            distance_along: 0.0,
        };
        let mut best_distance_squared = point.distance_squared(first);
        let mut start_length = 0.0;
        let mut previous: Option<(Vec2, Vec2)> = None;
        for (a, b) in self.segments() {
            let segment = b - a;
            let length_squared = segment.length_squared();
            let t = nearest_parameter(point, a, segment, length_squared);
            let length = length_squared.sqrt();
            // A segment that runs back over the one before it (`b → a` after `a → b`, as in a
            // closed path of two points) is the same segment: its points tie with the earlier
            // one's, which wins. Computed from the other end they would round differently and
            // win by a hair.
            let runs_back = previous == Some((b, a));
            previous = Some((a, b));
            // `t` is NaN only when `point - a` overflows (a query ~1e38 away): that segment
            // cannot be the nearest one that matters, skip it rather than compare NaN.
            if !t.is_nan() && !runs_back {
                let nearest = a + segment * t;
                let distance_squared = point.distance_squared(nearest);
                if distance_squared < best_distance_squared {
                    best_distance_squared = distance_squared;
                    best = Projection {
                        point: nearest,
                        distance_along: start_length + t * length,
                    };
                }
            }
            start_length += length;
        }
        // The running sum is the total length: a NaN or overflowing path is unusable.
        start_length.is_finite().then_some(best)
    }

    /// The point at arc length `distance_along`: wrapped on closed paths, clamped to the ends
    /// on open ones. `None` for a path that is not [usable](Self::is_usable), for a NaN
    /// `distance_along`, and for an infinite one on a closed path (no place to wrap to).
    pub fn point_at(&self, distance_along: f32) -> Option<Vec2> {
        let first = *self.points.first()?;
        let total = self.raw_length();
        if !first.is_finite() || !total.is_finite() || distance_along.is_nan() {
            return None;
        }
        if total <= 0.0 {
            return Some(first);
        }
        let s = if self.closed {
            if !distance_along.is_finite() {
                return None;
            }
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
    /// first); `None` for a path that is not [usable](Self::is_usable).
    pub fn end(&self, direction: f32) -> Option<Vec2> {
        if !self.is_usable() {
            return None;
        }
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

    #[test]
    fn a_closed_two_point_path_includes_the_closing_segment() {
        // (0,0) -> (10,0) -> back to (0,0): length 20, the way back is the second half.
        let path = Path {
            points: vec![Vec2::ZERO, Vec2::new(10.0, 0.0)],
            radius: 1.0,
            closed: true,
        };
        assert_eq!(path.length(), 20.0);
        assert_eq!(path.point_at(15.0), Some(Vec2::new(5.0, 0.0)));
        assert_eq!(path.point_at(-2.0), Some(Vec2::new(2.0, 0.0)));
        // (4,-1) is as near the outward segment (s = 4) as the way back (s = 16): the first
        // one wins.
        assert_eq!(
            path.project(Vec2::new(4.0, -1.0)),
            Some(Projection {
                point: Vec2::new(4.0, 0.0),
                distance_along: 4.0
            })
        );
        let open = Path {
            closed: false,
            ..path
        };
        assert_eq!(open.length(), 10.0);
        assert_eq!(open.point_at(15.0), Some(Vec2::new(10.0, 0.0)));
    }

    #[test]
    fn a_path_with_a_nan_point_is_unusable_and_answers_none() {
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            for closed in [false, true] {
                let path = Path {
                    points: vec![Vec2::ZERO, Vec2::new(bad, 1.0), Vec2::new(5.0, 5.0)],
                    radius: 1.0,
                    closed,
                };
                assert!(!path.is_usable(), "{bad} {closed}");
                assert_eq!(path.length(), 0.0);
                assert_eq!(path.project(Vec2::new(1.0, 1.0)), None);
                for s in [0.0, 3.0, -3.0, 1e30, f32::INFINITY, f32::NAN] {
                    assert_eq!(path.point_at(s), None, "{bad} {closed} {s}");
                }
                assert_eq!(path.end(1.0), None);
                assert_eq!(path.end(-1.0), None);
            }
        }
        let lone = Path {
            points: vec![Vec2::new(f32::NAN, 0.0)],
            radius: 1.0,
            closed: true,
        };
        assert!(!lone.is_usable());
        assert_eq!(lone.point_at(0.0), None);
        assert_eq!(lone.project(Vec2::ZERO), None);
    }

    #[test]
    fn a_path_whose_length_overflows_f32_is_unusable() {
        // Both points are finite, but 3e38 - (-3e38) overflows: no finite arc length.
        let path = Path {
            points: vec![Vec2::new(-3e38, 0.0), Vec2::new(3e38, 0.0)],
            radius: 1.0,
            closed: false,
        };
        assert!(!path.is_usable());
        assert_eq!(path.point_at(1.0), None);
        assert_eq!(path.project(Vec2::ZERO), None);
    }

    #[test]
    fn queries_of_a_usable_path_stay_finite_for_extreme_arguments() {
        let open = l_path(false);
        let closed = l_path(true);
        assert_eq!(open.point_at(f32::INFINITY), Some(Vec2::new(10.0, 10.0)));
        assert_eq!(open.point_at(f32::NEG_INFINITY), Some(Vec2::ZERO));
        assert_eq!(open.point_at(f32::NAN), None);
        assert_eq!(closed.point_at(f32::INFINITY), None);
        assert_eq!(open.project(Vec2::new(f32::NAN, 0.0)), None);
        // A query point far beyond f32 squares: still a finite answer on the path.
        for query in [
            Vec2::new(3e38, -3e38),
            Vec2::new(-3e38, 1.0),
            Vec2::splat(f32::MAX),
        ] {
            for path in [&open, &closed] {
                let projection = path.project(query).expect("usable path, finite query");
                assert!(projection.point.is_finite(), "{query} {projection:?}");
                assert!((0.0..=path.length()).contains(&projection.distance_along));
            }
        }
    }
}
