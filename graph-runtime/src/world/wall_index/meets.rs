//! The exact question solid walls ask of the index: does a step meet any wall?

use glam::Vec2;

use super::WallIndex;
use crate::world::segment::step_meets;

impl WallIndex {
    /// Whether the step `from → to` meets any wall at a point other than `from` (it crosses
    /// one, touches one, ends on one or passes through an end of one), decided exactly
    /// (`segment::step_meets`): the step leaves every wall on the side it started on exactly
    /// when this is `false`. A step that starts on a wall and leaves it does not meet that
    /// wall. `false` for a step of length zero; `true` when an end is not finite (no such
    /// step can be kept to a side).
    #[inline]
    pub fn step_meets_a_wall(&self, from: Vec2, to: Vec2) -> bool {
        if self.is_empty() || from == to {
            return false;
        }
        if !(from.is_finite() && to.is_finite()) {
            return true;
        }
        // Most steps, those away from every wall, end here (`clear.rs`), inlined into the
        // caller; the look at the segments is a call of its own.
        let (low, high) = (from.min(to), from.max(to));
        if self
            .clear
            .as_ref()
            .is_some_and(|clear| clear.holds(low, high))
        {
            return false;
        }
        self.segments_meet(from, to, (low, high))
    }

    /// [`WallIndex::step_meets_a_wall`] for finite ends `from != to` whose box `low..high` the
    /// clear cells leave to the segments.
    #[inline(never)]
    fn segments_meet(&self, from: Vec2, to: Vec2, (low, high): (Vec2, Vec2)) -> bool {
        let segments = &self.segments;
        let meets = |index: u32| {
            segments
                .get(index as usize)
                .is_some_and(|&(a, b)| step_meets(from, to, a, b))
        };
        let d = to - from;
        if let Some(few) = &self.few {
            let mut met = false;
            few.meeting(low, high, |index| {
                met = met || meets(index);
            });
            return met;
        }
        match &self.grid {
            Some(grid) if d.is_finite() && grid.is_short(d) => {
                let mut met = false;
                let mut visit = |index| met = met || meets(index);
                if grid.is_within_a_cell(d) {
                    grid.segments_in_box(low, high, &mut visit);
                } else {
                    grid.segments_along(from, to, &mut visit);
                }
                met
            }
            _ => self.tree.any_along(from, to, meets),
        }
    }
}
