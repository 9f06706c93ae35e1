//! The segments' bounding boxes side by side, four to a vector, for walls of few segments:
//! a query looks at every box, four at a time, and only the segments whose box is near go on
//! to the exact test. For a handful of walls (a room, RVO2's Blocks with its 16 segments)
//! that costs less than walking the grid's cells, whose lists the query reads row by row and
//! whose segments it meets once per cell they cross. The boxes only choose which segments
//! the exact test sees; every answer is that test's, so the same as from the grid or the tree.

use glam::Vec2;
use wide::{CmpGe, CmpLe, f32x4};

/// Walls of at most this many segments are looked at box by box, not through the grid.
pub(super) const FEW_SEGMENTS: usize = 64;

/// Four segments' boxes: the lanes are the segments.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Four {
    min_x: [f32; 4],
    min_y: [f32; 4],
    max_x: [f32; 4],
    max_y: [f32; 4],
}

/// The lane of no segment: a box from `+∞` to `-∞`, near nothing and meeting no box.
const NO_BOX: (f32, f32) = (f32::INFINITY, f32::NEG_INFINITY);

/// Every segment's bounding box, four to an entry, in segment order.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct FewBoxes {
    fours: Vec<Four>,
}

impl FewBoxes {
    /// The boxes of `segments`, or `None` when there are more than [`FEW_SEGMENTS`] (or
    /// none).
    pub(super) fn new(segments: &[(Vec2, Vec2)]) -> Option<Self> {
        if segments.is_empty() || segments.len() > FEW_SEGMENTS {
            return None;
        }
        let fours = segments
            .chunks(4)
            .map(|chunk| {
                let mut four = Four {
                    min_x: [NO_BOX.0; 4],
                    min_y: [NO_BOX.0; 4],
                    max_x: [NO_BOX.1; 4],
                    max_y: [NO_BOX.1; 4],
                };
                for (lane, &(a, b)) in chunk.iter().enumerate() {
                    let (low, high) = (a.min(b), a.max(b));
                    four.min_x[lane] = low.x;
                    four.min_y[lane] = low.y;
                    four.max_x[lane] = high.x;
                    four.max_y[lane] = high.y;
                }
                four
            })
            .collect();
        Some(Self { fours })
    }

    /// Calls `visit` with each segment whose box lies within `beyond` of `point` along both
    /// axes, in segment order: `max(min - point, point - max) <= beyond` on each axis, the
    /// box test of the nearest-point query (`answers::offer`), with the same operations.
    #[inline]
    pub(super) fn near(&self, point: Vec2, beyond: f32, mut visit: impl FnMut(u32)) {
        let (px, py, beyond) = (
            f32x4::splat(point.x),
            f32x4::splat(point.y),
            f32x4::splat(beyond),
        );
        for (at, four) in self.fours.iter().enumerate() {
            let outside_x = (f32x4::from(four.min_x) - px).max(px - f32x4::from(four.max_x));
            let outside_y = (f32x4::from(four.min_y) - py).max(py - f32x4::from(four.max_y));
            let kept = outside_x.cmp_le(beyond) & outside_y.cmp_le(beyond);
            visit_lanes(at, kept.move_mask(), &mut visit);
        }
    }

    /// Calls `visit` with each segment whose box meets the closed box `min..max`, in segment
    /// order: the box test a step's exact test starts with (`segment::step_meets`).
    #[inline]
    pub(super) fn meeting(&self, min: Vec2, max: Vec2, mut visit: impl FnMut(u32)) {
        let (min_x, min_y) = (f32x4::splat(min.x), f32x4::splat(min.y));
        let (max_x, max_y) = (f32x4::splat(max.x), f32x4::splat(max.y));
        for (at, four) in self.fours.iter().enumerate() {
            let kept = f32x4::from(four.min_x).cmp_le(max_x)
                & f32x4::from(four.min_y).cmp_le(max_y)
                & f32x4::from(four.max_x).cmp_ge(min_x)
                & f32x4::from(four.max_y).cmp_ge(min_y);
            visit_lanes(at, kept.move_mask(), &mut visit);
        }
    }
}

/// Calls `visit` with the segment of each lane set in `lanes` (bit `k` for lane `k`) of the
/// `at`-th four, lowest lane first.
#[inline]
fn visit_lanes(at: usize, lanes: i32, visit: &mut impl FnMut(u32)) {
    let mut lanes = lanes as u32 & 0b1111;
    while lanes != 0 {
        visit((at * 4) as u32 + lanes.trailing_zeros());
        lanes &= lanes - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// Six segments (two fours, the second with two empty lanes): the near ones by hand, and
    /// the boxes a step's box meets, touching edges included.
    #[test]
    fn the_boxes_keep_the_segments_near_a_point_and_those_meeting_a_box() {
        let segments = [
            (v(0.0, 0.0), v(4.0, 0.0)),    // 0: y 0, x 0..4
            (v(4.0, 0.0), v(4.0, 4.0)),    // 1: x 4, y 0..4
            (v(10.0, 10.0), v(12.0, 9.0)), // 2: far
            (v(-3.0, 1.0), v(-1.0, 1.0)),  // 3: y 1, x -3..-1
            (v(2.0, 6.0), v(2.0, 8.0)),    // 4: x 2, y 6..8
            (v(5.0, 5.0), v(5.0, 5.0)),    // 5: a point
        ];
        let boxes = FewBoxes::new(&segments).expect("few");
        let near = |point: Vec2, beyond: f32| {
            let mut found = Vec::new();
            boxes.near(point, beyond, |index| found.push(index));
            found
        };
        // From (2, 2) within 2: segment 0 (2 below), 1 (2 to the right), 4 (4 above: out),
        // 3 (3 to the left: out), 5 (3 and 3: out).
        assert_eq!(near(v(2.0, 2.0), 2.0), [0, 1]);
        // Within 3: 3 and 5 come in; 4 (4 above) does not.
        assert_eq!(near(v(2.0, 2.0), 3.0), [0, 1, 3, 5]);
        assert_eq!(near(v(100.0, 100.0), 5.0), Vec::<u32>::new());
        let meeting = |min: Vec2, max: Vec2| {
            let mut found = Vec::new();
            boxes.meeting(min, max, |index| found.push(index));
            found
        };
        // A box whose corner is segment 5's point; it reaches x = 4 above segment 1's end.
        assert_eq!(meeting(v(4.0, 4.5), v(5.0, 5.0)), [5]);
        assert_eq!(meeting(v(3.0, -1.0), v(4.0, 0.0)), [0, 1]);
        assert_eq!(meeting(v(20.0, 20.0), v(21.0, 21.0)), Vec::<u32>::new());
    }

    /// More than [`FEW_SEGMENTS`] segments, or none, make no boxes: the grid answers.
    #[test]
    fn only_a_few_segments_make_boxes() {
        let many: Vec<(Vec2, Vec2)> = (0..=FEW_SEGMENTS)
            .map(|i| (v(i as f32, 0.0), v(i as f32, 1.0)))
            .collect();
        assert!(FewBoxes::new(&many).is_none());
        assert!(FewBoxes::new(&many[..FEW_SEGMENTS]).is_some());
        assert!(FewBoxes::new(&[]).is_none());
    }
}
