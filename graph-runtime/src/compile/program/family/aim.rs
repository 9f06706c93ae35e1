//! The aim family: behaviors that steer by one point, a target's (Seek, Flee, Arrival) or one
//! worked out from other agents (Pursuit, Evasion, Offset pursuit, Interpose, Hide). Each
//! kind's op, lowering, force and guide side by side; the formulas are `behaviors/`'s.

use glam::Vec2;

use super::{Leaf, Lowering};
use crate::Vehicle;
use crate::behaviors;
use crate::compile::guide::Guide;
use crate::compile::program::operands::{Num, TargetRef};
use crate::graph::{Node, NodeKind};

/// One node of the aim family, its numbers resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum AimOp {
    Seek(TargetRef),
    /// The target, the panic distance (none: flee at any distance).
    Flee(TargetRef, Option<Num>),
    /// The target, the slowing distance.
    Arrival(TargetRef, Num),
    /// The quarry, the longest prediction.
    Pursuit(TargetRef, Num),
    /// The quarry, the longest prediction, the panic distance.
    Evasion(TargetRef, Num, Option<Num>),
    /// The quarry, the lateral offset, the longest prediction.
    OffsetPursuit(TargetRef, Num, Num),
    /// The two agents, the slowing distance.
    Interpose(TargetRef, TargetRef, Num),
    /// The hunter, the margin behind the obstacle, the slowing distance.
    Hide(TargetRef, Num, Num),
}

impl AimOp {
    /// The op of `node` when its kind is of this family (`None` for any other kind), its
    /// fields resolved by `fields`.
    pub(crate) fn lower(node: &Node, fields: &mut impl Lowering) -> Option<Self> {
        Some(match node {
            Node::Seek { target } => Self::Seek(fields.target(target)),
            Node::Flee {
                target,
                panic_distance,
            } => {
                let target = fields.target(target);
                let panic = panic_distance.as_ref().map(|d| fields.number(d));
                Self::Flee(target, panic)
            }
            Node::Arrival {
                target,
                slowing_distance,
            } => Self::Arrival(fields.target(target), fields.number(slowing_distance)),
            Node::Pursuit {
                quarry,
                max_prediction,
            } => Self::Pursuit(fields.target(quarry), fields.number(max_prediction)),
            Node::Evasion {
                quarry,
                max_prediction,
                panic_distance,
            } => {
                let quarry = fields.target(quarry);
                let prediction = fields.number(max_prediction);
                let panic = panic_distance.as_ref().map(|d| fields.number(d));
                Self::Evasion(quarry, prediction, panic)
            }
            Node::OffsetPursuit {
                quarry,
                offset,
                max_prediction,
            } => {
                let quarry = fields.target(quarry);
                let [offset, prediction] = fields.numbers([offset, max_prediction]);
                Self::OffsetPursuit(quarry, offset, prediction)
            }
            Node::Interpose {
                a,
                b,
                slowing_distance,
            } => Self::Interpose(
                fields.target(a),
                fields.target(b),
                fields.number(slowing_distance),
            ),
            Node::Hide {
                hunter,
                margin,
                slowing_distance,
            } => {
                let hunter = fields.target(hunter);
                let [margin, slowing] = fields.numbers([margin, slowing_distance]);
                Self::Hide(hunter, margin, slowing)
            }
            // Another family's kind: `lower/ops.rs` asks the next family.
            _ => return None,
        })
    }

    /// The kind of node the op was lowered from.
    #[inline]
    pub(crate) fn kind(self) -> NodeKind {
        match self {
            Self::Seek(_) => NodeKind::Seek,
            Self::Flee(..) => NodeKind::Flee,
            Self::Arrival(..) => NodeKind::Arrival,
            Self::Pursuit(..) => NodeKind::Pursuit,
            Self::Evasion(..) => NodeKind::Evasion,
            Self::OffsetPursuit(..) => NodeKind::OffsetPursuit,
            Self::Interpose(..) => NodeKind::Interpose,
            Self::Hide(..) => NodeKind::Hide,
        }
    }

    /// The steering force for the agent `leaf` evaluates; zero when a target does not exist.
    #[inline]
    pub(crate) fn force(&self, leaf: &impl Leaf) -> Vec2 {
        let me = leaf.me();
        match *self {
            Self::Seek(target) | Self::Flee(target, _) | Self::Arrival(target, _) => {
                self.toward(me, leaf.quarry_position(target), |n| leaf.num(n))
            }
            Self::Pursuit(quarry, prediction) => {
                let prediction = leaf.num(prediction);
                leaf.quarry(quarry)
                    .map_or(Vec2::ZERO, |q| behaviors::pursuit(me, &q, prediction))
            }
            Self::Evasion(quarry, prediction, panic) => {
                let prediction = leaf.num(prediction);
                let panic = panic.map(|d| leaf.num(d));
                leaf.quarry(quarry).map_or(Vec2::ZERO, |q| {
                    behaviors::evasion(me, &q, prediction, panic)
                })
            }
            Self::OffsetPursuit(quarry, offset, prediction) => {
                let (offset, prediction) = (leaf.num(offset), leaf.num(prediction));
                leaf.quarry(quarry).map_or(Vec2::ZERO, |q| {
                    behaviors::offset_pursuit(me, &q, offset, prediction)
                })
            }
            Self::Interpose(a, b, slowing) => {
                let slowing = leaf.num(slowing);
                match (leaf.quarry(a), leaf.quarry(b)) {
                    (Some(a), Some(b)) => behaviors::interpose(me, &a, &b, slowing),
                    _ => Vec2::ZERO,
                }
            }
            Self::Hide(hunter, margin, slowing) => {
                let (margin, slowing) = (leaf.num(margin), leaf.num(slowing));
                leaf.quarry(hunter).map_or(Vec2::ZERO, |hunter| {
                    behaviors::hide(
                        me,
                        hunter.position,
                        &leaf.world().obstacles,
                        margin,
                        slowing,
                    )
                })
            }
        }
    }

    /// The force of a Seek, Flee or Arrival on `me` toward its target's point `at` (zero when
    /// the target does not exist), its numbers resolved by `num`: what [`AimOp::force`] gives
    /// once the point is found, and what the batch's kernel gives with the point it found.
    /// Zero for the other kinds, which need more of their target than its point.
    #[inline]
    pub(crate) fn toward(self, me: &Vehicle, at: Option<Vec2>, num: impl Fn(Num) -> f32) -> Vec2 {
        let Some(at) = at else {
            return Vec2::ZERO;
        };
        match self {
            Self::Seek(_) => behaviors::seek(me, at),
            Self::Flee(_, panic) => behaviors::flee(me, at, panic.map(num)),
            Self::Arrival(_, slowing) => behaviors::arrival(me, at, num(slowing)),
            Self::Pursuit(..)
            | Self::Evasion(..)
            | Self::OffsetPursuit(..)
            | Self::Interpose(..)
            | Self::Hide(..) => Vec2::ZERO,
        }
    }

    /// The point the force aims at, for the debug guides: from the `behaviors` function the
    /// force itself calls.
    pub(crate) fn guide(self, leaf: &impl Leaf) -> Guide {
        let me = leaf.me();
        let aim = |point: Option<Vec2>| point.map_or(Guide::None, Guide::Aim);
        match self {
            Self::Seek(target) | Self::Flee(target, _) | Self::Arrival(target, _) => {
                aim(leaf.quarry(target).map(|q| q.position))
            }
            Self::Pursuit(quarry, prediction) | Self::Evasion(quarry, prediction, _) => {
                let prediction = leaf.num(prediction);
                aim(leaf
                    .quarry(quarry)
                    .map(|q| behaviors::predicted_position(me, &q, prediction)))
            }
            Self::OffsetPursuit(quarry, offset, prediction) => {
                let (offset, prediction) = (leaf.num(offset), leaf.num(prediction));
                aim(leaf
                    .quarry(quarry)
                    .map(|q| behaviors::offset_pursuit_aim(me, &q, offset, prediction)))
            }
            Self::Interpose(a, b, _) => match (leaf.quarry(a), leaf.quarry(b)) {
                (Some(a), Some(b)) => Guide::Aim(behaviors::interpose_point(me, &a, &b)),
                _ => Guide::None,
            },
            Self::Hide(hunter, margin, _) => aim(leaf.quarry(hunter).and_then(|h| {
                behaviors::hiding_spot(me, h.position, &leaf.world().obstacles, leaf.num(margin))
            })),
        }
    }

    /// The point the op heads for, when it is a goal (what the arrival metrics measure
    /// against): an Arrival's or a Seek's target.
    pub(crate) fn goal(self) -> Option<TargetRef> {
        match self {
            Self::Arrival(target, _) | Self::Seek(target) => Some(target),
            Self::Flee(..)
            | Self::Pursuit(..)
            | Self::Evasion(..)
            | Self::OffsetPursuit(..)
            | Self::Interpose(..)
            | Self::Hide(..) => None,
        }
    }
}
