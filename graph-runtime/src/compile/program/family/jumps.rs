//! The jump family: Jump, which runs up to a jump link's take-off point and hands the driver a
//! take-off there, and Jump achievable, the condition that the link's jump can be made. Both
//! plan the same flight (`behaviors::jump_plan`); each kind's op, lowering, value and guide
//! side by side. Jump's value is a force and Jump achievable's a condition, so the two sit in
//! different groups of `patterns.rs`, each named there by its variant.

use glam::Vec2;

use super::{Leaf, Lowering};
use crate::behaviors::{self, JumpSettings};
use crate::compile::guide::Guide;
use crate::compile::program::TakeOff;
use crate::compile::program::operands::{JumpNums, Names, Num};
use crate::graph::{Node, NodeKind};

/// One node of the jump family, its numbers resolved and its link interned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum JumpOp {
    Jump {
        /// An index into the program's jump link names.
        link: u16,
        numbers: JumpNums,
    },
    Achievable {
        /// An index into the program's jump link names.
        link: u16,
        gravity: Num,
        max_vertical_velocity: Num,
    },
}

impl JumpOp {
    /// The op of `node` when its kind is of this family (`None` for any other kind), its
    /// fields resolved by `fields`.
    pub(crate) fn lower(node: &Node, fields: &mut impl Lowering) -> Option<Self> {
        Some(match node {
            Node::Jump {
                link,
                gravity,
                max_vertical_velocity,
                position_tolerance,
                velocity_tolerance,
                run_up,
                time_to_target,
            } => {
                let link = fields.name(Names::JumpLinks, link);
                let [
                    gravity,
                    max_vertical_velocity,
                    position_tolerance,
                    velocity_tolerance,
                    run_up,
                    time_to_target,
                ] = fields.numbers([
                    gravity,
                    max_vertical_velocity,
                    position_tolerance,
                    velocity_tolerance,
                    run_up,
                    time_to_target,
                ]);
                Self::Jump {
                    link,
                    numbers: JumpNums {
                        gravity,
                        max_vertical_velocity,
                        position_tolerance,
                        velocity_tolerance,
                        run_up,
                        time_to_target,
                    },
                }
            }
            Node::JumpAchievable {
                link,
                gravity,
                max_vertical_velocity,
            } => {
                let link = fields.name(Names::JumpLinks, link);
                let [gravity, max_vertical_velocity] =
                    fields.numbers([gravity, max_vertical_velocity]);
                Self::Achievable {
                    link,
                    gravity,
                    max_vertical_velocity,
                }
            }
            // Another family's kind: `lower/ops.rs` asks the next family.
            _ => return None,
        })
    }

    /// The kind of node the op was lowered from.
    #[inline]
    pub(crate) fn kind(self) -> NodeKind {
        match self {
            Self::Jump { .. } => NodeKind::Jump,
            Self::Achievable { .. } => NodeKind::JumpAchievable,
        }
    }

    /// The force for the agent `leaf` evaluates: Jump's run-up (see [`run_up`]); none for
    /// Jump achievable, a condition.
    #[inline]
    pub(crate) fn force(self, leaf: &mut impl Leaf) -> Vec2 {
        match self {
            Self::Jump { link, numbers } => run_up(leaf, link, &numbers),
            Self::Achievable { .. } => Vec2::ZERO,
        }
    }

    /// Whether the condition holds for the agent `leaf` evaluates: for Jump achievable,
    /// whether the world has the link and a flight reaches it within the vertical speed;
    /// `false` for Jump, a force.
    pub(crate) fn holds(self, leaf: &impl Leaf) -> bool {
        match self {
            Self::Achievable {
                link,
                gravity,
                max_vertical_velocity,
            } => leaf.jump_link(link).is_some_and(|(_, link)| {
                behaviors::jump_plan(
                    link,
                    leaf.num(gravity),
                    leaf.num(max_vertical_velocity),
                    leaf.me().max_speed,
                )
                .is_some()
            }),
            Self::Jump { .. } => false,
        }
    }

    /// The link, the take-off window (Jump's position tolerance; none for Jump achievable),
    /// and the flight's velocity when it can be made, for the debug guides.
    pub(crate) fn guide(self, leaf: &impl Leaf) -> Guide {
        let (link, gravity, max_vertical_velocity, window) = match self {
            Self::Jump { link, numbers } => {
                let settings = settings(leaf, &numbers);
                let window = settings.position_tolerance;
                (
                    link,
                    settings.gravity,
                    settings.max_vertical_velocity,
                    window,
                )
            }
            Self::Achievable {
                link,
                gravity,
                max_vertical_velocity,
            } => (
                link,
                leaf.num(gravity),
                leaf.num(max_vertical_velocity),
                0.0,
            ),
        };
        let Some((_, link)) = leaf.jump_link(link) else {
            return Guide::None;
        };
        let plan = behaviors::jump_plan(link, gravity, max_vertical_velocity, leaf.me().max_speed);
        Guide::Jump {
            from: link.from,
            to: link.to,
            window,
            velocity: plan.map_or(Vec2::ZERO, |plan| plan.velocity),
            achievable: plan.is_some(),
        }
    }
}

/// Jump's force: zero for a link the world lacks, a jump the agent made already or one it
/// cannot make; else the run-up, and at the take-off point at the take-off velocity a
/// [`TakeOff`] handed to the driver.
fn run_up(leaf: &mut impl Leaf, link: u16, numbers: &JumpNums) -> Vec2 {
    let Some((index, link)) = leaf.jump_link(link) else {
        return Vec2::ZERO;
    };
    if leaf.has_jumped(index) {
        return Vec2::ZERO;
    }
    let settings = settings(leaf, numbers);
    let me = leaf.me();
    let Some(plan) = behaviors::jump_plan(
        link,
        settings.gravity,
        settings.max_vertical_velocity,
        me.max_speed,
    ) else {
        return Vec2::ZERO;
    };
    let force = behaviors::jump_run_up(me, link, &plan, &settings);
    if behaviors::ready_to_take_off(me, link, &plan, &settings) {
        let agent = leaf.agent() as u32;
        leaf.take_off(TakeOff {
            agent,
            link: index,
            plan,
            gravity: settings.gravity,
        });
    }
    force
}

/// A Jump's numbers for the agent `leaf` evaluates.
fn settings(leaf: &impl Leaf, numbers: &JumpNums) -> JumpSettings {
    JumpSettings {
        gravity: leaf.num(numbers.gravity),
        max_vertical_velocity: leaf.num(numbers.max_vertical_velocity),
        position_tolerance: leaf.num(numbers.position_tolerance),
        velocity_tolerance: leaf.num(numbers.velocity_tolerance),
        run_up: leaf.num(numbers.run_up),
        time_to_target: leaf.num(numbers.time_to_target),
    }
}
