//! The geometry behind each node's value, for the editor's debug guides (traced runs only):
//! every point comes from the `behaviors` function the force itself uses.

use glam::Vec2;

use super::evaluator::Evaluator;
use super::trace::Recorder;
use crate::behaviors;
use crate::compile::guide::Guide;
use crate::compile::program::Op;

impl<R: Recorder, V: super::value::Value> Evaluator<'_, '_, '_, R, V> {
    /// A jump link's guide: the link, the take-off window of radius `window`, and the flight's
    /// velocity when it can be made.
    fn jump_guide(
        &self,
        link: u16,
        gravity: f32,
        max_vertical_velocity: f32,
        window: f32,
    ) -> Guide {
        let Some((_, link)) = self.bound_jump_link(link) else {
            return Guide::None;
        };
        let plan = behaviors::jump_plan(link, gravity, max_vertical_velocity, self.me.max_speed);
        Guide::Jump {
            from: link.from,
            to: link.to,
            window,
            velocity: plan.map_or(Vec2::ZERO, |plan| plan.velocity),
            achievable: plan.is_some(),
        }
    }

    /// The geometry behind node `index`'s result, for debug guides (traced runs only). Every
    /// point comes from the `behaviors` function the force itself uses.
    pub(super) fn guide_for(&self, index: u32) -> Guide {
        let me = self.me;
        let Some(&op) = self.op(index) else {
            return Guide::None;
        };
        match op {
            Op::Aim(aim) => aim.guide(self),
            Op::Surroundings(op) => op.guide(self),
            Op::Sensor(op) => op.guide(self),
            Op::WallAhead(distance) => {
                behaviors::wall_ahead_hit(me, self.context.world.wall_index(), self.num(distance))
                    .map_or(Guide::None, |hit| Guide::Aim(hit.point))
            }
            Op::Course(op) => op.guide(self),
            Op::Group(group) => group.guide(self.context.params),
            Op::LeaderFollowing { leader, behind, .. } => {
                self.quarry(leader).map_or(Guide::None, |l| {
                    Guide::Aim(behaviors::leader_behind_point(&l, self.num(behind)))
                })
            }
            Op::Facing(op) => op.guide(self),
            Op::MatchVelocity(velocity, _) => self
                .matched_velocity(velocity)
                .map_or(Guide::None, Guide::Velocity),
            Op::Jump { link, numbers } => {
                let settings = self.jump_settings(&numbers);
                self.jump_guide(
                    link,
                    settings.gravity,
                    settings.max_vertical_velocity,
                    settings.position_tolerance,
                )
            }
            Op::JumpAchievable {
                link,
                gravity,
                max_vertical_velocity,
            } => self.jump_guide(
                link,
                self.num(gravity),
                self.num(max_vertical_velocity),
                0.0,
            ),
            // Nothing to draw beyond the value (each new kind chooses here).
            Op::Muted
            | Op::UnalignedCollisionAvoidance(_)
            | Op::Reciprocal { .. }
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
