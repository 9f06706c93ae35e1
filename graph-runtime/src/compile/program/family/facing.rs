//! The facing family: the angular layer's behaviors, which turn an agent's facing and push it
//! nowhere: Reach orientation (to an angle, a direction or a target's facing), Face (toward a
//! target) and Look where you are going. Each kind's op, lowering, angular acceleration and
//! guide side by side; the formulas are `behaviors/`'s.

use glam::Vec2;

use super::{Leaf, Lowering};
use crate::behaviors::{self, Alignment};
use crate::compile::guide::Guide;
use crate::compile::program::operands::{AlignNums, HeadingRef, Num, TargetRef};
use crate::graph::{Node, NodeKind, Number};
use crate::math::{TINY, angle};

/// One node of the facing family, its numbers resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum FacingOp {
    /// Where to turn, and how.
    ReachOrientation(HeadingRef, AlignNums),
    /// Whom to face, and how.
    Face(TargetRef, AlignNums),
    LookWhereYouAreGoing(AlignNums),
}

impl FacingOp {
    /// The op of `node` when its kind is of this family (`None` for any other kind), its
    /// fields resolved by `fields`.
    pub(crate) fn lower(node: &Node, fields: &mut impl Lowering) -> Option<Self> {
        Some(match node {
            Node::ReachOrientation {
                orientation,
                align_tolerance,
                deceleration_radius,
                time_to_target,
            } => {
                let heading = fields.heading(orientation);
                let align = [align_tolerance, deceleration_radius, time_to_target];
                Self::ReachOrientation(heading, self::align(fields, align))
            }
            Node::Face {
                target,
                align_tolerance,
                deceleration_radius,
                time_to_target,
            } => {
                let target = fields.target(target);
                let align = [align_tolerance, deceleration_radius, time_to_target];
                Self::Face(target, self::align(fields, align))
            }
            Node::LookWhereYouAreGoing {
                align_tolerance,
                deceleration_radius,
                time_to_target,
            } => {
                let align = [align_tolerance, deceleration_radius, time_to_target];
                Self::LookWhereYouAreGoing(self::align(fields, align))
            }
            // Another family's kind: `lower/ops.rs` asks the next family.
            _ => return None,
        })
    }

    /// The kind of node the op was lowered from.
    #[inline]
    pub(crate) fn kind(self) -> NodeKind {
        match self {
            Self::ReachOrientation(..) => NodeKind::ReachOrientation,
            Self::Face(..) => NodeKind::Face,
            Self::LookWhereYouAreGoing(_) => NodeKind::LookWhereYouAreGoing,
        }
    }

    /// The angular acceleration for the agent `leaf` evaluates (radians / s²); zero when the
    /// heading or the target does not resolve.
    #[inline]
    pub(crate) fn angular(self, leaf: &impl Leaf) -> f32 {
        let me = leaf.me();
        match self {
            Self::ReachOrientation(heading, align) => {
                let alignment = alignment(align, |n| leaf.num(n));
                heading_of(leaf, heading).map_or(0.0, |target| {
                    behaviors::reach_orientation(me, target, &alignment)
                })
            }
            Self::Face(target, align) => {
                let alignment = alignment(align, |n| leaf.num(n));
                leaf.quarry(target).map_or(0.0, |quarry| {
                    behaviors::face(me, quarry.position, &alignment)
                })
            }
            Self::LookWhereYouAreGoing(align) => {
                let alignment = alignment(align, |n| leaf.num(n));
                behaviors::look_where_you_are_going(me, &alignment)
            }
        }
    }

    /// The facing the op turns to, with its tolerance and slowing angle, for the debug
    /// guides: nothing when the heading or the target does not resolve, the target sits on
    /// the agent, or (Look where you are going) the agent stands still.
    pub(crate) fn guide(self, leaf: &impl Leaf) -> Guide {
        let me = leaf.me();
        let (target, align) = match self {
            Self::ReachOrientation(heading, align) => (heading_of(leaf, heading), align),
            Self::Face(target, align) => {
                let offset = leaf.quarry(target).map(|q| q.position - me.position);
                (offset.and_then(direction_angle), align)
            }
            Self::LookWhereYouAreGoing(align) => (direction_angle(me.velocity), align),
        };
        let Some(target) = target else {
            return Guide::None;
        };
        let alignment = alignment(align, |n| leaf.num(n));
        Guide::Orientation {
            target,
            facing: me.facing(),
            tolerance: alignment.tolerance,
            deceleration_radius: alignment.deceleration_radius,
        }
    }
}

/// Reach orientation's numbers, the angles in radians, each number read by `num` (a
/// parameter's value for this agent, or for a whole batch).
#[inline]
pub(crate) fn alignment(align: AlignNums, num: impl Fn(Num) -> f32) -> Alignment {
    Alignment {
        tolerance: num(align.tolerance).to_radians(),
        deceleration_radius: num(align.deceleration_radius).to_radians(),
        time_to_target: num(align.time_to_target),
    }
}

/// The angle a heading names (radians): `None` for a vector shorter than `1e-6`, or a target
/// without a facing (a point, or a tag no agent carries).
fn heading_of(leaf: &impl Leaf, heading: HeadingRef) -> Option<f32> {
    match heading {
        HeadingRef::Angle(degrees) => Some(leaf.num(degrees).to_radians()),
        HeadingRef::Direction(x, y) => direction_angle(Vec2::new(leaf.num(x), leaf.num(y))),
        HeadingRef::Of(TargetRef::Tagged(tag)) => leaf.tagged(tag).map(crate::Vehicle::facing),
        HeadingRef::Of(_) => None,
    }
}

/// The angle of `direction`, or `None` when it is shorter than `1e-6`.
fn direction_angle(direction: Vec2) -> Option<f32> {
    (direction.length() >= TINY).then(|| angle(direction))
}

/// The three numbers every kind of the family turns by: its alignment tolerance, slowing
/// angle and time to target.
fn align(fields: &mut impl Lowering, numbers: [&Number; 3]) -> AlignNums {
    let [tolerance, deceleration_radius, time_to_target] = fields.numbers(numbers);
    AlignNums {
        tolerance,
        deceleration_radius,
        time_to_target,
    }
}
