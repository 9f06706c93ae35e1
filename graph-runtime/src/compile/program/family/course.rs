//! The course family: behaviors that steer along a course rather than at a point, one wandered
//! at random (Wander), a path (Path following) or a flow field (Flow field following). Each
//! kind's op, lowering, steering and guide side by side; the formulas are `behaviors/`'s.
//! Wander keeps an angle per node in the agent's state and turns it by one draw of the agent's
//! RNG each time it is evaluated, so its steering takes the leaf mutably.

use glam::Vec2;

use super::{Leaf, Lowering};
use crate::Steering;
use crate::behaviors;
use crate::compile::guide::Guide;
use crate::compile::program::operands::{Names, Num};
use crate::graph::{Node, NodeKind};

/// One node of the course family, its numbers resolved and its names interned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum CourseOp {
    Wander {
        distance: Num,
        radius: Num,
        /// Degrees per second.
        jitter: Num,
        /// Its angle's slot in the agent's state (one per Wander node of the program).
        slot: u32,
        /// The facing variant: face the wander target, drive along the facing.
        face: bool,
    },
    PathFollowing {
        /// An index into the path names, or into the own names when `own`.
        path: u16,
        own: bool,
        prediction_time: Num,
        ahead_distance: Num,
        /// `+1` along the path's points, `-1` against them.
        direction: f32,
        corrective: bool,
    },
    FlowFieldFollowing {
        /// An index into the field names.
        field: u16,
        prediction_time: Num,
    },
}

impl CourseOp {
    /// The op of `node` when its kind is of this family (`None` for any other kind), its
    /// fields resolved by `fields`.
    pub(crate) fn lower(node: &Node, fields: &mut impl Lowering) -> Option<Self> {
        Some(match node {
            Node::Wander {
                distance,
                radius,
                jitter,
                face,
            } => {
                let [distance, radius, jitter] = fields.numbers([distance, radius, jitter]);
                Self::Wander {
                    distance,
                    radius,
                    jitter,
                    slot: fields.wander_slot(),
                    face: *face,
                }
            }
            Node::PathFollowing {
                path,
                prediction_time,
                ahead_distance,
                direction,
                corrective,
                own,
            } => {
                let table = if *own { Names::Own } else { Names::Paths };
                let path = fields.name(table, path);
                let [prediction_time, ahead_distance] =
                    fields.numbers([prediction_time, ahead_distance]);
                Self::PathFollowing {
                    path,
                    own: *own,
                    prediction_time,
                    ahead_distance,
                    direction: direction.sign(),
                    corrective: *corrective,
                }
            }
            Node::FlowFieldFollowing {
                field,
                prediction_time,
            } => Self::FlowFieldFollowing {
                field: fields.name(Names::Fields, field),
                prediction_time: fields.number(prediction_time),
            },
            // Another family's kind: `lower/ops.rs` asks the next family.
            _ => return None,
        })
    }

    /// The kind of node the op was lowered from.
    pub(crate) fn kind(self) -> NodeKind {
        match self {
            Self::Wander { .. } => NodeKind::Wander,
            Self::PathFollowing { .. } => NodeKind::PathFollowing,
            Self::FlowFieldFollowing { .. } => NodeKind::FlowFieldFollowing,
        }
    }

    /// Whether the op's value has an angular part: Wander's facing variant.
    pub(crate) fn turns(self) -> bool {
        match self {
            Self::Wander { face, .. } => face,
            Self::PathFollowing { .. } | Self::FlowFieldFollowing { .. } => false,
        }
    }

    /// The steering for the agent `leaf` evaluates (a force, and for Wander's facing variant
    /// an angular acceleration); zero when the path or field is not in the world. Wander
    /// turns its angle first (one draw of the agent's RNG).
    #[inline]
    pub(crate) fn steering(self, leaf: &mut impl Leaf) -> Steering {
        match self {
            Self::Wander {
                distance,
                radius,
                jitter,
                slot,
                face,
            } => {
                let jitter = leaf.num(jitter).to_radians();
                let theta = leaf.turn_wander(slot, jitter);
                let (me, distance, radius) = (leaf.me(), leaf.num(distance), leaf.num(radius));
                if face {
                    behaviors::wander_facing(me, theta, distance, radius)
                } else {
                    Steering::force(behaviors::wander(me, theta, distance, radius))
                }
            }
            Self::PathFollowing {
                path,
                own,
                prediction_time,
                ahead_distance,
                direction,
                corrective,
            } => Steering::force(leaf.path(path, own).map_or(Vec2::ZERO, |path| {
                behaviors::path_following(
                    leaf.me(),
                    path,
                    leaf.num(prediction_time),
                    leaf.num(ahead_distance),
                    direction,
                    corrective,
                )
            })),
            Self::FlowFieldFollowing {
                field,
                prediction_time,
            } => Steering::force(leaf.flow_field(field).map_or(Vec2::ZERO, |field| {
                behaviors::flow_field_following(leaf.me(), field, leaf.num(prediction_time))
            })),
        }
    }

    /// What the steering follows, for the debug guides, from the `behaviors` functions it
    /// calls: the wander circle and the point on it (at the angle the last step left); the
    /// predicted position, its projection on the path and the aim; the field's vector at the
    /// predicted position.
    pub(crate) fn guide(self, leaf: &impl Leaf) -> Guide {
        let me = leaf.me();
        match self {
            Self::Wander {
                distance,
                radius,
                slot,
                ..
            } => {
                let (distance, radius) = (leaf.num(distance), leaf.num(radius));
                let theta = leaf.wander_angle(slot);
                Guide::Wander {
                    center: behaviors::wander_center(me, distance),
                    radius,
                    aim: behaviors::wander_aim(me, theta, distance, radius),
                }
            }
            Self::PathFollowing {
                path,
                own,
                prediction_time,
                ahead_distance,
                direction,
                corrective,
            } => leaf
                .path(path, own)
                .and_then(|path| {
                    behaviors::path_following_aim(
                        me,
                        path,
                        leaf.num(prediction_time),
                        leaf.num(ahead_distance),
                        direction,
                        corrective,
                    )
                })
                .map_or(Guide::None, |aim| Guide::Path {
                    predicted: aim.predicted,
                    projection: aim.projection.point,
                    aim: aim.steer.map(behaviors::PathSteer::point),
                }),
            Self::FlowFieldFollowing {
                field,
                prediction_time,
            } => {
                let point = behaviors::future_position(me, leaf.num(prediction_time));
                let vector = leaf
                    .flow_field(field)
                    .map_or(Vec2::ZERO, |field| field.sample(point));
                Guide::FlowSample { point, vector }
            }
        }
    }

    /// The path the op follows, when its end is a goal (what the arrival metrics measure
    /// against): a Path following's path (an index into the own names when `own`).
    pub(crate) fn goal_path(self) -> Option<(u16, bool)> {
        match self {
            Self::PathFollowing { path, own, .. } => Some((path, own)),
            Self::Wander { .. } | Self::FlowFieldFollowing { .. } => None,
        }
    }
}
