//! The geometry behind each node's value, for the editor's debug guides (traced runs only):
//! every point comes from the `behaviors` function the force itself uses.

use super::evaluator::Evaluator;
use super::trace::Recorder;
use crate::compile::guide::Guide;
use crate::compile::program::Op;

impl<R: Recorder, V: super::value::Value> Evaluator<'_, '_, '_, R, V> {
    /// The geometry behind node `index`'s result, for debug guides (traced runs only). Every
    /// point comes from the `behaviors` function the force itself uses.
    pub(super) fn guide_for(&self, index: u32) -> Guide {
        let Some(&op) = self.op(index) else {
            return Guide::None;
        };
        match op {
            Op::Aim(aim) => aim.guide(self),
            Op::Surroundings(op) => op.guide(self),
            Op::Sensor(op) => op.guide(self),
            Op::Course(op) => op.guide(self),
            Op::Crossing(op) => op.guide(),
            Op::Group(group) => group.guide(self.context.params),
            Op::Facing(op) => op.guide(self),
            Op::Follow(op) => op.guide(self),
            Op::Jump(op) => op.guide(self),
            // Nothing to draw beyond the value (each new kind chooses here).
            Op::Muted
            | Op::Reciprocal(_)
            | Op::Blend(_)
            | Op::Priority(..)
            | Op::Dither(..)
            | Op::Budget(_)
            | Op::Gate(..)
            | Op::Scale(..)
            | Op::Truncate(..)
            | Op::Compare(..)
            | Op::All(_)
            | Op::Any(_)
            | Op::Not(_)
            | Op::Output(_) => Guide::None,
        }
    }
}
