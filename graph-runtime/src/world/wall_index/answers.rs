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

/// Puts segment `index`'s nearest point to `point` into `out[..count]`, which holds the
/// nearest found so far sorted by (squared distance, segment), when it is within reach and
/// ranks among them. A segment already there (the grid may list it in several cells) is
/// not taken twice.
pub(super) fn offer(
    segments: &[(Vec2, Vec2)],
    point: Vec2,
    radius_squared: f32,
    index: u32,
    out: &mut [WallPoint],
    count: &mut usize,
) {
    let capacity = out.len();
    let index = index as usize;
    let Some(&(a, b)) = segments.get(index) else {
        return;
    };
    let near = nearest_on_segment(point, a, b);
    let squared = point.distance_squared(near);
    let taken = out.get(..*count).unwrap_or(&[]);
    if squared > radius_squared || taken.iter().any(|w| w.segment == index) {
        return;
    }
    let key = (squared, index);
    let at = taken.partition_point(|w| (w.distance, w.segment) < key);
    if at >= capacity {
        return;
    }
    *count = (*count + 1).min(capacity);
    if let Some(moved) = out.get_mut(at..*count) {
        moved.rotate_right(1);
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
