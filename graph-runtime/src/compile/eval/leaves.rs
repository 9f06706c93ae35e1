//! The evaluator's leaves: a family file's force, reading or answer by its `force`, `reading`
//! or `holds` (the evaluator is its `Leaf`).

use glam::Vec2;

use super::evaluator::Evaluator;
use super::trace::Recorder;
use super::value::Value;
use crate::compile::program::{
    JumpOp, Op, SensorOp, angular_leaf_ops, combiner_ops, condition_leaf_ops, force_leaf_ops,
    sensor_ops,
};

impl<R: Recorder, V: Value> Evaluator<'_, '_, '_, R, V> {
    /// The force of a steering behavior (an op without inputs); the angular layer's
    /// behaviors, which have no force, are `turning.rs`'s.
    pub(super) fn leaf_force(&mut self, index: u32, op: &Op) -> Vec2 {
        let me = self.me;
        // Each op is read where the program keeps it: a copy of the whole op on the stack,
        // read back in other widths, stalled every agent's evaluation (store forwarding).
        match op {
            Op::Aim(aim) => aim.force(self),
            Op::Surroundings(op) => op.force(self),
            Op::Course(op) => op.steering(self).force,
            Op::Crossing(op) => op.force(self),
            Op::Group(group) => {
                let params = self.context.params;
                group.force(self.group_sums(index), me, params)
            }
            Op::Follow(op) => op.force(self),
            Op::Jump(op @ JumpOp::Jump { .. }) => op.force(self),
            // Angular only (no force), or not a behavior.
            angular_leaf_ops!()
            | sensor_ops!()
            | condition_leaf_ops!()
            | combiner_ops!()
            | Op::Muted => Vec2::ZERO,
        }
    }

    /// The reading of a sensor op.
    pub(super) fn sensor(&mut self, op: &Op) -> f32 {
        match *op {
            Op::Sensor(
                op @ (SensorOp::Distance(_)
                | SensorOp::NeighborCount(..)
                | SensorOp::Speed
                | SensorOp::WallDistance
                | SensorOp::Value(_)),
            ) => op.reading(self),
            // Only ops whose output is a scalar (the node table's) are read as sensors.
            force_leaf_ops!()
            | angular_leaf_ops!()
            | condition_leaf_ops!()
            | combiner_ops!()
            | Op::Muted => {
                debug_assert!(false, "{:?} is no sensor", op.kind());
                0.0
            }
        }
    }

    /// The answer of a condition op without inputs.
    pub(super) fn condition(&mut self, op: &Op) -> bool {
        match *op {
            Op::Sensor(op @ SensorOp::WallAhead(_)) => op.holds(self),
            Op::Jump(op @ JumpOp::Achievable { .. }) => op.holds(self),
            // Only leaves whose output is a condition (the node table's) are asked.
            force_leaf_ops!()
            | angular_leaf_ops!()
            | sensor_ops!()
            | combiner_ops!()
            | Op::Muted => {
                debug_assert!(false, "{:?} is no condition leaf", op.kind());
                false
            }
        }
    }
}
