//! What wall queries answer ([`WallHit`], [`WallPoint`]), and how one candidate segment
//! changes an answer, the same whether the grid or the tree found it.

use glam::Vec2;

use crate::world::segment::{crossing, nearest_on_segment};

/// A ray cast's result: where the first wall crossed by the ray is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallHit {
    /// The point where the ray meets the wall (units).
    pub point: Vec2,
    /// The wall's unit normal, on the side the ray comes from.
    pub normal: Vec2,
    /// Distance from the ray's start to `point` (units, `>= 0`).
    pub distance: f32,
    /// The segment hit, an index into [`WallIndex::segments`](crate::WallIndex::segments).
    pub segment: usize,
}

/// A nearest-point query's result.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WallPoint {
    /// The nearest point on a wall (units).
    pub point: Vec2,
    /// Distance from the query point to `point` (units, `>= 0`).
    pub distance: f32,
    /// The segment it lies on, an index into [`WallIndex::segments`](crate::WallIndex::segments).
    pub segment: usize,
}

/// How far a nearest-point query reaches: the squared radius its answers must be within,
/// and, per axis, how far a segment's bounding box may lie from the query point before no
/// point of the segment can be within the radius, whatever the rounding.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reach {
    pub(super) radius_squared: f32,
    /// `radius` plus a rounding allowance (see [`Reach::new`]).
    pub(super) beyond: f32,
}

impl Reach {
    /// The reach of a query within `radius` (`>= 0`) among segments whose coordinates are at
    /// most `magnitude` in absolute value.
    ///
    /// The box test in [`offer`] rules a segment out only when its box lies more than
    /// `beyond` from the point along an axis. The computed nearest point `a + (b - a) t`
    /// stays within two units in the last place of `magnitude` of the exact segment's box,
    /// and the squared distance computed from it loses at most a few parts in 2^24; the
    /// allowance, (`radius + magnitude`) / 2^18, covers both many times over. So the test
    /// leaves out only segments the full computation would leave out too, and the answers
    /// stay bit for bit those of the full computation.
    pub(super) fn new(radius: f32, magnitude: f32) -> Self {
        Self {
            radius_squared: radius * radius,
            beyond: radius + (radius + magnitude) * ROUNDING_ALLOWANCE,
        }
    }
}

/// The relative allowance [`Reach::new`] adds for rounding: 2^-18.
const ROUNDING_ALLOWANCE: f32 = 1.0 / 262_144.0;

/// Puts segment `index`'s nearest point to `point` into `out[..count]`, which holds the
/// nearest found so far sorted by (squared distance, segment), when it is within reach and
/// ranks among them. A segment already there (the grid may list it in several cells) is
/// not taken twice. A segment whose bounding box is out of reach along an axis costs no
/// projection (most of those a grid cell lists, for a query that covers a few cells).
#[inline]
pub(super) fn offer(
    segments: &[(Vec2, Vec2)],
    point: Vec2,
    reach: Reach,
    index: u32,
    out: &mut [WallPoint],
    count: &mut usize,
) {
    let Some(&(a, b)) = segments.get(index as usize) else {
        return;
    };
    let outside = (a.min(b) - point).max(point - a.max(b));
    let taken = out.get(..*count).unwrap_or(&[]);
    if outside.cmpgt(Vec2::splat(reach.beyond)).any()
        || taken.iter().any(|w| w.segment == index as usize)
    {
        return;
    }
    offer_near(segments, point, reach, index, out, count);
}

/// [`offer`] for a segment known to be within its box test and not yet in `out` (each
/// segment offered once, from boxes that made the same test: `few.rs`).
#[inline]
pub(super) fn offer_near(
    segments: &[(Vec2, Vec2)],
    point: Vec2,
    reach: Reach,
    index: u32,
    out: &mut [WallPoint],
    count: &mut usize,
) {
    let capacity = out.len();
    let index = index as usize;
    let Some(&(a, b)) = segments.get(index) else {
        return;
    };
    let taken = out.get(..*count).unwrap_or(&[]);
    let near = nearest_on_segment(point, a, b);
    let squared = point.distance_squared(near);
    if squared > reach.radius_squared {
        return;
    }
    let key = (squared, index);
    let at = taken.partition_point(|w| (w.distance, w.segment) < key);
    if at >= capacity {
        return;
    }
    *count = (*count + 1).min(capacity);
    // The farther ones move up a slot, the last dropped when `out` is full: by hand, as a
    // handful usually move (`rotate_right` was a call of about 36 instructions per point
    // taken, most of them moving none).
    for slot in (at + 1..*count).rev() {
        if let Some(&moved) = out.get(slot - 1)
            && let Some(to) = out.get_mut(slot)
        {
            *to = moved;
        }
    }
    if let Some(slot) = out.get_mut(at) {
        *slot = WallPoint {
            point: near,
            distance: squared,
            segment: index,
        };
    }
}

/// Takes segment `index` as the ray's `best` crossing when it crosses earlier, or as early
/// with a lower index.
pub(super) fn consider(
    segments: &[(Vec2, Vec2)],
    from: Vec2,
    d: Vec2,
    index: u32,
    best: &mut Option<(f32, usize)>,
) {
    let index = index as usize;
    if let Some(&(a, b)) = segments.get(index)
        && let Some(t) = crossing(from, d, a, b)
        && best.is_none_or(|(bt, bi)| t < bt || (t == bt && index < bi))
    {
        *best = Some((t, index));
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The box test leaves nothing out that the full computation keeps, at the worst
        /// place for it: a point straight out from a segment's end along an axis (the box's
        /// gap there is the whole distance) with the radius the computed distance itself,
        /// at coordinates up to 10,000 where a rounded point of the segment can leave its box.
        #[test]
        fn the_box_test_keeps_every_segment_at_the_edge_of_reach(
            a in (-1.0e4_f32..1.0e4, -1.0e4_f32..1.0e4),
            b in (-1.0e4_f32..1.0e4, -1.0e4_f32..1.0e4),
            out in 1.0e-3_f32..30.0,
            along_x in any::<bool>(),
            from_b in any::<bool>(),
        ) {
            let (a, b) = (Vec2::from(a), Vec2::from(b));
            let end = if from_b { b } else { a };
            let other = if from_b { a } else { b };
            // Out from the end, away from the rest of the segment.
            let step = |d: f32| if d >= 0.0 { -out } else { out };
            let point = if along_x {
                end + Vec2::new(step(other.x - end.x), 0.0)
            } else {
                end + Vec2::new(0.0, step(other.y - end.y))
            };
            let squared = point.distance_squared(nearest_on_segment(point, a, b));
            let mut radius = squared.sqrt();
            while radius * radius < squared {
                radius = radius.next_up();
            }
            let magnitude = a.abs().max(b.abs()).max_element();
            let mut out = [WallPoint::default(); 1];
            let mut count = 0;
            offer(&[(a, b)], point, Reach::new(radius, magnitude), 0, &mut out, &mut count);
            prop_assert_eq!(count, 1, "{} → {} from {} within {}", a, b, point, radius);
        }
    }
}
