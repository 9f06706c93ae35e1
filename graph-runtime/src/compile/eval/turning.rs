//! The evaluator's leaves whose value may turn (the facing family's and Wander's facing
//! variant, from their family files), and `MatchVelocity`, by calling the formulas of
//! `behaviors/`.

use glam::Vec2;

use super::evaluator::Evaluator;
use super::trace::Recorder;
use super::value::Value;
use crate::Steering;
use crate::behaviors;
use crate::compile::program::{Num, Op, VelocityRef};

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

    /// The velocity a `MatchVelocity` matches, if its target resolves.
    pub(super) fn matched_velocity(&self, velocity: VelocityRef) -> Option<Vec2> {
        match velocity {
            VelocityRef::Fixed(x, y) => Some(Vec2::new(self.num(x), self.num(y))),
            VelocityRef::Of(target) => self.quarry(target).map(|quarry| quarry.velocity),
        }
    }

    /// `MatchVelocity`'s force.
    pub(super) fn match_velocity(&self, velocity: VelocityRef, time_to_target: Num) -> Vec2 {
        self.matched_velocity(velocity)
            .map_or(Vec2::ZERO, |target| {
                behaviors::match_velocity(self.me, target, self.num(time_to_target))
            })
    }
}
