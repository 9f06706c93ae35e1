//! Segment geometry that walls, paths and the flow-field brush share: the nearest point of a
//! segment, where a ray crosses one, and the normal facing a ray.

use crate::math::TINY;
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

/// Whether segment `(a, b)` is long enough to have a direction: at least [`TINY`] (`1e-6`).
pub(crate) fn has_direction((a, b): (Vec2, Vec2)) -> bool {
    a.distance(b) >= TINY
}
