//! The steering of the evaluator's leaves whose value may turn: the facing family's and
//! Wander's facing variant, from their family files.

use super::evaluator::Evaluator;
use super::trace::Recorder;
use super::value::Value;
use crate::Steering;
use crate::compile::program::Op;

impl<R: Recorder, V: Value> Evaluator<'_, '_, '_, R, V> {
    /// The steering of an op whose value has an angular part ([`Op::turns`]).
    pub(super) fn leaf_steering(&mut self, index: u32, op: &Op) -> Steering {
        match *op {
            Op::Facing(op) => Steering::angular(op.angular(self)),
            Op::Course(op) => op.steering(self),
            // Only ops that turn come here (`Op::turns`); any other is a force alone.
            _ => {
                debug_assert!(!op.turns(), "{:?} turns but has no arm", op.kind());
                Steering::force(self.leaf_force(index, op))
            }
        }
    }
}
