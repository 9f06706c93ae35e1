//! The evaluator's leaves whose value may turn (the facing family's and Wander's facing
//! variant, from their family files), `MatchVelocity` and Jump, by calling the formulas of
//! `behaviors/`.

use glam::Vec2;

use super::evaluator::Evaluator;
use super::trace::Recorder;
use super::value::Value;
use crate::Steering;
use crate::behaviors::{self, JumpSettings};
use crate::compile::program::{JumpNums, Num, Op, TakeOff, VelocityRef};

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

    /// A Jump's numbers.
    pub(super) fn jump_settings(&self, numbers: &JumpNums) -> JumpSettings {
        JumpSettings {
            gravity: self.num(numbers.gravity),
            max_vertical_velocity: self.num(numbers.max_vertical_velocity),
            position_tolerance: self.num(numbers.position_tolerance),
            velocity_tolerance: self.num(numbers.velocity_tolerance),
            run_up: self.num(numbers.run_up),
            time_to_target: self.num(numbers.time_to_target),
        }
    }

    /// Jump's force: zero for a link the world lacks, a jump made already or one that cannot
    /// be made; else the run-up, and at the take-off point at the take-off velocity a
    /// [`TakeOff`] for the driver (in `scratch.take_offs`).
    pub(super) fn jump(&mut self, link: u16, numbers: &JumpNums) -> Vec2 {
        let Some((index, link)) = self.bound_jump_link(link) else {
            return Vec2::ZERO;
        };
        if self.state.has_jumped(index) {
            return Vec2::ZERO;
        }
        let settings = self.jump_settings(numbers);
        let me = self.me;
        let Some(plan) = behaviors::jump_plan(
            link,
            settings.gravity,
            settings.max_vertical_velocity,
            me.max_speed,
        ) else {
            return Vec2::ZERO;
        };
        if behaviors::ready_to_take_off(me, link, &plan, &settings) {
            self.scratch.take_offs.push(TakeOff {
                agent: self.agent as u32,
                link: index,
                plan,
                gravity: settings.gravity,
            });
        }
        behaviors::jump_run_up(me, link, &plan, &settings)
    }

    /// Whether the jump of program link `link` is achievable for this agent.
    pub(super) fn jump_achievable(
        &self,
        link: u16,
        gravity: Num,
        max_vertical_velocity: Num,
    ) -> bool {
        self.bound_jump_link(link).is_some_and(|(_, link)| {
            behaviors::jump_plan(
                link,
                self.num(gravity),
                self.num(max_vertical_velocity),
                self.me.max_speed,
            )
            .is_some()
        })
    }
}
