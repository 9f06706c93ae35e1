//! The crossing family: Unaligned collision avoidance, which reads the other agents one by one
//! (their predicted motion, not a neighbor pass's sums) to steer off the earliest predicted
//! collision. The kind's op, lowering, force, guide and neighbor query side by side; the
//! formula is `behaviors/avoidance.rs`'s.

use glam::Vec2;

use super::{Leaf, Lowering, OverOthers};
use crate::Vehicle;
use crate::behaviors;
use crate::compile::guide::Guide;
use crate::compile::program::operands::Num;
use crate::graph::{Node, NodeKind};

/// One node of the crossing family, its numbers resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum CrossingOp {
    /// The time ahead within which collisions are predicted.
    Unaligned(Num),
}

impl CrossingOp {
    /// The op of `node` when its kind is of this family (`None` for any other kind), its
    /// fields resolved by `fields`.
    pub(crate) fn lower(node: &Node, fields: &mut impl Lowering) -> Option<Self> {
        Some(match node {
            Node::UnalignedCollisionAvoidance { max_time } => {
                Self::Unaligned(fields.number(max_time))
            }
            // Another family's kind: `lower/ops.rs` asks the next family.
            _ => return None,
        })
    }

    /// The kind of node the op was lowered from.
    #[inline]
    pub(crate) fn kind(self) -> NodeKind {
        match self {
            Self::Unaligned(_) => NodeKind::UnalignedCollisionAvoidance,
        }
    }

    /// The time ahead the op predicts collisions within: the neighbor query reaches as far
    /// as an agent can come from in that time (`Op::neighbor_use`, `BEHAVIORS.md`,
    /// "Neighborhoods").
    pub(crate) fn horizon(self) -> Num {
        match self {
            Self::Unaligned(max_time) => max_time,
        }
    }

    /// The steering force for the agent `leaf` evaluates: away from the earliest predicted
    /// collision with the agents of its neighbor query (in a crowded neighborhood, only the
    /// nearest of them).
    pub(crate) fn force(self, leaf: &mut impl Leaf) -> Vec2 {
        match self {
            Self::Unaligned(max_time) => {
                let max_time = leaf.num(max_time);
                leaf.with_others(behaviors::UNALIGNED_CROWD_NEIGHBORS, Unaligned(max_time))
            }
        }
    }

    /// The geometry behind the op's force, for the debug guides: none beyond the force.
    pub(crate) fn guide(self) -> Guide {
        match self {
            Self::Unaligned(_) => Guide::None,
        }
    }
}

/// Unaligned collision avoidance over the agents of the neighbor query, with its time ahead.
struct Unaligned(f32);

impl OverOthers for Unaligned {
    type Value = Vec2;

    #[inline]
    fn over<'v>(self, me: &Vehicle, others: impl Iterator<Item = &'v Vehicle>) -> Vec2 {
        behaviors::unaligned_collision_avoidance(me, others, self.0)
    }
}
