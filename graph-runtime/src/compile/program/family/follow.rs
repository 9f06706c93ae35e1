//! The follow family: behaviors that keep with another agent's motion rather than its place,
//! Leader following (a point behind the leader, out of its way) and Match velocity (a fixed
//! velocity or a target's). Each kind's op, lowering, force and guide side by side; the
//! formulas are `behaviors/`'s.

use glam::Vec2;

use super::{Leaf, Lowering};
use crate::behaviors;
use crate::compile::guide::Guide;
use crate::compile::program::operands::{Num, TargetRef, VelocityRef};
use crate::graph::{Node, NodeKind};

/// One node of the follow family, its numbers resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum FollowOp {
    LeaderFollowing {
        leader: TargetRef,
        behind: Num,
        slowing_distance: Num,
        sight_length: Num,
        sight_width: Num,
    },
    /// The velocity matched, the time to match it.
    MatchVelocity(VelocityRef, Num),
}

impl FollowOp {
    /// The op of `node` when its kind is of this family (`None` for any other kind), its
    /// fields resolved by `fields`.
    pub(crate) fn lower(node: &Node, fields: &mut impl Lowering) -> Option<Self> {
        Some(match node {
            Node::LeaderFollowing {
                leader,
                behind,
                slowing_distance,
                sight_length,
                sight_width,
            } => {
                let leader = fields.target(leader);
                let [behind, slowing_distance, sight_length, sight_width] =
                    fields.numbers([behind, slowing_distance, sight_length, sight_width]);
                Self::LeaderFollowing {
                    leader,
                    behind,
                    slowing_distance,
                    sight_length,
                    sight_width,
                }
            }
            Node::MatchVelocity {
                velocity,
                time_to_target,
            } => Self::MatchVelocity(fields.velocity(velocity), fields.number(time_to_target)),
            // Another family's kind: `lower/ops.rs` asks the next family.
            _ => return None,
        })
    }

    /// The kind of node the op was lowered from.
    #[inline]
    pub(crate) fn kind(self) -> NodeKind {
        match self {
            Self::LeaderFollowing { .. } => NodeKind::LeaderFollowing,
            Self::MatchVelocity(..) => NodeKind::MatchVelocity,
        }
    }

    /// The steering force for the agent `leaf` evaluates; zero when the leader or the
    /// target does not exist.
    #[inline]
    pub(crate) fn force(&self, leaf: &impl Leaf) -> Vec2 {
        let me = leaf.me();
        match *self {
            Self::LeaderFollowing {
                leader,
                behind,
                slowing_distance,
                sight_length,
                sight_width,
            } => {
                let [behind, slowing, length, width] =
                    [behind, slowing_distance, sight_length, sight_width].map(|n| leaf.num(n));
                leaf.quarry(leader).map_or(Vec2::ZERO, |leader| {
                    behaviors::leader_following(me, &leader, behind, slowing, length, width)
                })
            }
            Self::MatchVelocity(ref velocity, time_to_target) => matched(leaf, velocity)
                .map_or(Vec2::ZERO, |target| {
                    behaviors::match_velocity(me, target, leaf.num(time_to_target))
                }),
        }
    }

    /// What the force follows, for the debug guides: the point behind the leader, or the
    /// velocity matched.
    pub(crate) fn guide(self, leaf: &impl Leaf) -> Guide {
        match self {
            Self::LeaderFollowing { leader, behind, .. } => {
                leaf.quarry(leader).map_or(Guide::None, |leader| {
                    Guide::Aim(behaviors::leader_behind_point(&leader, leaf.num(behind)))
                })
            }
            Self::MatchVelocity(velocity, _) => {
                matched(leaf, &velocity).map_or(Guide::None, Guide::Velocity)
            }
        }
    }
}

/// The velocity a Match velocity matches, if its target exists.
fn matched(leaf: &impl Leaf, velocity: &VelocityRef) -> Option<Vec2> {
    match *velocity {
        VelocityRef::Fixed(x, y) => Some(Vec2::new(leaf.num(x), leaf.num(y))),
        VelocityRef::Of(target) => leaf.quarry(target).map(|quarry| quarry.velocity),
    }
}
