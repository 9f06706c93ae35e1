//! Pulling a corridor tight: the shortest walk from a start to an end through a row of portals
//! (the edges the corridor crosses), by the funnel algorithm (Lee and Preparata; in the form of
//! Mononen's "simple stupid funnel").

use glam::Vec2;

/// Twice the signed area of `a`, `b`, `c`: positive when `c` is to the right of `a`→`b`
/// (y up), as the funnel's tests read it.
fn area2(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (c - a).perp_dot(b - a)
}

/// Whether two points are the same point (the funnel's apex against a side).
fn same(a: Vec2, b: Vec2) -> bool {
    a.distance_squared(b) < 1.0e-12
}

/// Appends to `out` the corners of the shortest walk from `start` to `end` through `portals`
/// (each `(left, right)` as seen walking through it), then `end`; `start` itself is not
/// appended. Work: each portal is looked at a bounded number of times per corner found.
pub(super) fn pull(start: Vec2, end: Vec2, portals: &[(Vec2, Vec2)], out: &mut Vec<Vec2>) {
    let count = portals.len() + 1;
    let portal = |i: usize| {
        if i < portals.len() {
            portals[i]
        } else {
            (end, end)
        }
    };
    let (mut apex, mut left, mut right) = (start, start, start);
    let (mut left_at, mut right_at) = (0, 0);
    let mut i = 0;
    while i < count {
        let (next_left, next_right) = portal(i);
        // The right side narrows the funnel?
        if area2(apex, right, next_right) <= 0.0 {
            if same(apex, right) || area2(apex, left, next_right) > 0.0 {
                right = next_right;
                right_at = i + 1;
            } else {
                // It crossed the left side: the left side's point is a corner.
                apex = left;
                out.push(apex);
                let restart = left_at;
                (left, right) = (apex, apex);
                (left_at, right_at) = (restart, restart);
                i = restart;
                continue;
            }
        }
        if area2(apex, left, next_left) >= 0.0 {
            if same(apex, left) || area2(apex, right, next_left) < 0.0 {
                left = next_left;
                left_at = i + 1;
            } else {
                apex = right;
                out.push(apex);
                let restart = right_at;
                (left, right) = (apex, apex);
                (left_at, right_at) = (restart, restart);
                i = restart;
                continue;
            }
        }
        i += 1;
    }
    if out.last().is_none_or(|&last| !same(last, end)) {
        out.push(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(start: Vec2, end: Vec2, portals: &[(Vec2, Vec2)]) -> Vec<Vec2> {
        let mut out = Vec::new();
        pull(start, end, portals, &mut out);
        out
    }

    #[test]
    fn a_straight_walk_through_wide_portals_has_no_corner() {
        let portals = [
            (Vec2::new(-1.0, 1.0), Vec2::new(1.0, 1.0)),
            (Vec2::new(-1.0, 2.0), Vec2::new(1.0, 2.0)),
        ];
        assert_eq!(
            walk(Vec2::ZERO, Vec2::new(0.0, 3.0), &portals),
            [Vec2::new(0.0, 3.0)]
        );
    }

    #[test]
    fn a_walk_round_a_corner_turns_at_it() {
        // Walking up then right: the portals' right ends hold at (1, 1), the inner corner.
        let portals = [
            (Vec2::new(-1.0, 1.0), Vec2::new(1.0, 1.0)),
            (Vec2::new(-1.0, 3.0), Vec2::new(1.0, 1.0)),
            (Vec2::new(3.0, 3.0), Vec2::new(1.0, 1.0)),
        ];
        assert_eq!(
            walk(Vec2::ZERO, Vec2::new(4.0, 2.0), &portals),
            [Vec2::new(1.0, 1.0), Vec2::new(4.0, 2.0)]
        );
    }
}
