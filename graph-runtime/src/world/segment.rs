//! Segment geometry that walls, paths and the flow-field brush share: the nearest point of a
//! segment, where a ray crosses one, and the normal facing a ray.

use crate::math::{TINY, normalize};
use glam::Vec2;

/// The first crossing of the ray `origin + t * d`, `0 <= t <= 1`, with segment `a → b`: `t`.
/// A ray parallel to the segment (collinear included) or a segment of length zero gives `None`,
/// and so does a segment whose bounding box misses the ray's (`origin..origin + d`).
///
/// The box test first: a crossing lies in both boxes, and rounding `origin + d` keeps every
/// point of the exact ray inside the rounded box (rounding is monotone), so it rules out only
/// crossings that rounding of the formula below would invent, and a step far from a segment
/// costs no division.
#[inline]
pub(crate) fn crossing(origin: Vec2, d: Vec2, a: Vec2, b: Vec2) -> Option<f32> {
    let end = origin + d;
    if a.min(b).cmpgt(origin.max(end)).any() || a.max(b).cmplt(origin.min(end)).any() {
        return None;
    }
    let e = b - a;
    let denominator = d.perp_dot(e);
    if denominator == 0.0 {
        return None;
    }
    let w = a - origin;
    let t = w.perp_dot(e) / denominator;
    let u = w.perp_dot(d) / denominator;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some(t)
}

/// The parameter `t` in `[0, 1]` of the point of segment `a → a + segment` nearest `point`
/// (`length_squared` is the segment's): the projection clamped to the segment, `0` for a
/// segment of length zero, NaN only when `point - a` overflows. Paths, walls and the flow
/// field brush all project this way.
#[inline]
pub(crate) fn nearest_parameter(point: Vec2, a: Vec2, segment: Vec2, length_squared: f32) -> f32 {
    if length_squared > 0.0 {
        ((point - a).dot(segment) / length_squared).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The nearest point of segment `a → b` to `point` (`t` clamped to `[0, 1]`).
pub(crate) fn nearest_on_segment(point: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let e = b - a;
    a + e * nearest_parameter(point, a, e, e.length_squared())
}

/// The unit normal of `a → b` on the side of `origin`; for an origin on the wall's line, the
/// side facing against `d`.
pub(crate) fn facing_normal(origin: Vec2, d: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let normal = (b - a).perp().normalize_or_zero();
    let side = normal.dot(origin - a);
    if side < 0.0 || (side == 0.0 && normal.dot(d) > 0.0) {
        -normal
    } else {
        normal
    }
}

/// A wall segment's unit directions as Reciprocal's wall edges take them, seen either way
/// round (`ab` from `a` to `b`, `ba` from `b` to `a`): worked out once per segment when the
/// walls are indexed, not for every agent near the segment every tick. Each way has its own
/// (a negated direction is not always the same bits: `0.0 - 0.0` is `+0.0` either way).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct SegmentTurns {
    /// Seen from `a` to `b`.
    pub(crate) ab: EdgeTurns,
    /// Seen from `b` to `a`.
    pub(crate) ba: EdgeTurns,
}

/// The directions of an edge `a → b` whose wall comes from `before` and goes on to `after`
/// (`Vec2::ZERO` at an open end, or where a piece is too short to have one: [`normalize`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct EdgeTurns {
    /// `normalize(a - b)`, back along the edge.
    pub(crate) back: Vec2,
    /// `normalize(a - before)`, the wall arriving at `a`.
    pub(crate) arriving: Vec2,
    /// `normalize(after - b)`, the wall leaving `b`.
    pub(crate) leaving: Vec2,
}

impl EdgeTurns {
    fn of((a, b): (Vec2, Vec2), (before, after): (Option<Vec2>, Option<Vec2>)) -> Self {
        Self {
            back: normalize(a - b),
            arriving: before.map_or(Vec2::ZERO, |point| normalize(a - point)),
            leaving: after.map_or(Vec2::ZERO, |point| normalize(point - b)),
        }
    }
}

impl SegmentTurns {
    /// The turns of segment `(a, b)` whose wall has point `before` before `a` and `after` after
    /// `b` (`None` at an open end).
    pub(crate) fn of((a, b): (Vec2, Vec2), (before, after): (Option<Vec2>, Option<Vec2>)) -> Self {
        Self {
            ab: EdgeTurns::of((a, b), (before, after)),
            ba: EdgeTurns::of((b, a), (after, before)),
        }
    }
}

/// Whether segment `(a, b)` is long enough to have a direction: at least [`TINY`] (`1e-6`).
pub(crate) fn has_direction((a, b): (Vec2, Vec2)) -> bool {
    a.distance(b) >= TINY
}

/// The sign of the turn `p → q → r` (`1` counterclockwise, `-1` clockwise, `0` on one
/// line), decided exactly: Shewchuk's adaptive orientation test on the `f32` coordinates
/// widened to `f64`, so no rounding can put a point on the wrong side of a line.
fn turn(p: Vec2, q: Vec2, r: Vec2) -> i8 {
    let coord = |v: Vec2| robust::Coord {
        x: f64::from(v.x),
        y: f64::from(v.y),
    };
    let det = robust::orient2d(coord(p), coord(q), coord(r));
    if det > 0.0 {
        1
    } else if det < 0.0 {
        -1
    } else {
        0
    }
}

/// Whether the step `from → to` meets the closed segment `a → b` at any point but `from`
/// itself, decided exactly ([`turn`] and comparisons, no arithmetic that rounds): the test
/// that keeps solid walls solid (`BEHAVIORS.md`, "Solid walls"). A step that starts on the
/// segment and leaves it does not meet it; one that runs along it, ends on it or passes
/// through an end of it does. A segment of length zero is a point; a step of length zero
/// meets nothing. Ends must be finite.
pub(crate) fn step_meets(from: Vec2, to: Vec2, a: Vec2, b: Vec2) -> bool {
    // A meeting point lies in both closed boxes (comparisons are exact).
    if a.min(b).cmpgt(from.max(to)).any() || a.max(b).cmplt(from.min(to)).any() || from == to {
        return false;
    }
    let (start, end) = (turn(a, b, from), turn(a, b, to));
    if start == 0 && end == 0 {
        return along_the_line(from, to, a, b);
    }
    // Off the wall's line at the start and the same side at the end, or meeting the line
    // only at the start: nothing but `from` can lie on the wall.
    if start == end || start == 0 {
        return false;
    }
    // The step meets the wall's line once, past `from`: on the wall unless both of the
    // wall's ends lie strictly on one side of the step's line.
    let (side_a, side_b) = (turn(from, to, a), turn(from, to, b));
    side_a == 0 || side_b == 0 || side_a != side_b
}

/// [`step_meets`] for a segment whose ends both lie on the step's line (or a point): whether
/// `(from, to]` and `[a, b]` overlap, compared along an axis the step moves on (the order of
/// points on one line is the order of their coordinates on any axis it is not across).
fn along_the_line(from: Vec2, to: Vec2, a: Vec2, b: Vec2) -> bool {
    if turn(from, to, a) != 0 || turn(from, to, b) != 0 {
        return false;
    }
    let axis = usize::from(from.x == to.x);
    let (start, end) = (from[axis], to[axis]);
    let (low, high) = (a[axis].min(b[axis]), a[axis].max(b[axis]));
    if start < end {
        high > start && low <= end
    } else {
        low < start && high >= end
    }
}

/// Whether the segment `from → to` meets the closed box `min..max`, decided exactly: their
/// boxes overlap and the box's corners are not all strictly on one side of the segment's line
/// (the separating axes of a segment and a box).
pub(crate) fn step_meets_box(from: Vec2, to: Vec2, min: Vec2, max: Vec2) -> bool {
    if min.cmpgt(from.max(to)).any() || max.cmplt(from.min(to)).any() {
        return false;
    }
    let corners = [min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)];
    let sides = corners.map(|corner| turn(from, to, corner));
    !(sides.iter().all(|&side| side > 0) || sides.iter().all(|&side| side < 0))
}
