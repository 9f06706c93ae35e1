//! The course family: behaviors that steer along a course rather than at a point, one wandered
//! at random (Wander), a path (Path following), a route planned round walls (Navigate) or a
//! flow field (Flow field following). Each
//! kind's op, lowering, steering and guide side by side; the formulas are `behaviors/`'s.
//! Wander keeps an angle per node in the agent's state and turns it by one draw of the agent's
//! RNG each time it is evaluated, so its steering takes the leaf mutably; Navigate follows the
//! route in the agent's state and asks there for a new one (the driver plans it).

use glam::Vec2;

use super::{Leaf, Lowering};
use crate::Steering;
use crate::behaviors;
use crate::compile::guide::Guide;
use crate::compile::program::operands::TargetRef;
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
    Navigate {
        target: TargetRef,
        ahead_distance: Num,
        slowing_distance: Num,
        replan_distance: Num,
        crowd_cost: Num,
        /// Its route's slot in the agent's state (one per Navigate node of the program).
        slot: u32,
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
            Node::Navigate {
                target,
                ahead_distance,
                slowing_distance,
                replan_distance,
                crowd_cost,
            } => {
                let target = fields.target(target);
                let [
                    ahead_distance,
                    slowing_distance,
                    replan_distance,
                    crowd_cost,
                ] = fields.numbers([
                    ahead_distance,
                    slowing_distance,
                    replan_distance,
                    crowd_cost,
                ]);
                Self::Navigate {
                    target,
                    ahead_distance,
                    slowing_distance,
                    replan_distance,
                    crowd_cost,
                    slot: fields.route_slot(),
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
            Self::Wander { .. } => NodeKind::Wander,
            Self::PathFollowing { .. } => NodeKind::PathFollowing,
            Self::FlowFieldFollowing { .. } => NodeKind::FlowFieldFollowing,
            Self::Navigate { .. } => NodeKind::Navigate,
        }
    }

    /// Whether the op's value has an angular part: Wander's facing variant.
    pub(crate) fn turns(self) -> bool {
        match self {
            Self::Wander { face, .. } => face,
            Self::PathFollowing { .. }
            | Self::FlowFieldFollowing { .. }
            | Self::Navigate { .. } => false,
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
            Self::Navigate {
                target,
                ahead_distance,
                slowing_distance,
                replan_distance,
                crowd_cost,
                slot,
            } => Steering::force(navigate(
                leaf,
                target,
                [
                    ahead_distance,
                    slowing_distance,
                    replan_distance,
                    crowd_cost,
                ],
                slot,
            )),
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
            Self::Navigate {
                slot,
                ahead_distance,
                ..
            } => leaf.route_ref(slot).map_or(Guide::None, |route| {
                let points = &route.route().points;
                let leg = route.leg as usize;
                match (points.get(leg + 1).or(points.last()), points.last()) {
                    (Some(&corner), Some(&end)) => Guide::Route {
                        corner,
                        end,
                        aim: behaviors::route_aim(
                            me.position,
                            points,
                            leg,
                            leaf.num(ahead_distance),
                        )
                        .map(behaviors::PathSteer::point),
                    },
                    _ => Guide::None,
                }
            }),
        }
    }

    /// The path the op follows, when its end is a goal (what the arrival metrics measure
    /// against): a Path following's path (an index into the own names when `own`).
    pub(crate) fn goal_path(self) -> Option<(u16, bool)> {
        match self {
            Self::PathFollowing { path, own, .. } => Some((path, own)),
            Self::Wander { .. } | Self::FlowFieldFollowing { .. } | Self::Navigate { .. } => None,
        }
    }

    /// The target a Navigate node walks to (what the arrival metrics measure against).
    pub(crate) fn goal_target(self) -> Option<TargetRef> {
        match self {
            Self::Navigate { target, .. } => Some(target),
            Self::Wander { .. } | Self::PathFollowing { .. } | Self::FlowFieldFollowing { .. } => {
                None
            }
        }
    }
}

/// How long a route's age is counted (s): past it, only "long ago" matters.
const SINCE_PLAN_CAP: f32 = 1.0e6;

/// Navigate's force: follow the route in the agent's state (`behaviors::route_following`),
/// first asking for a new plan when there is none, the target moved `replan` from where the
/// route ends, or the agent strayed `replan` from its leg (the driver also asks when the agent
/// is stuck or a door ahead jams, [`crate::tick::RoutePlanner`]); while it has no route it brakes; the
/// walk ends at the next jump's take-off, arrived at (a Jump node flies the link).
/// Without the target (a tagged agent gone, an own goal unset) it brakes and asks nothing.
fn navigate(leaf: &mut impl Leaf, target: TargetRef, numbers: [Num; 4], slot: u32) -> Vec2 {
    let revision = leaf.world().navigation_revision();
    let force = follow_route(leaf, target, numbers, slot);
    if (leaf.route_slot(slot)).is_some_and(|route| route.needs_planner(revision)) {
        leaf.ask_planner();
    }
    force
}

/// [`navigate`]'s steering and the route's requests.
fn follow_route(leaf: &mut impl Leaf, target: TargetRef, numbers: [Num; 4], slot: u32) -> Vec2 {
    let [ahead, slowing, replan, crowd_cost] = numbers.map(|n| leaf.num(n));
    let goal = leaf.quarry(target).map(|quarry| quarry.position);
    let me = *leaf.me();
    let dt = leaf.dt();
    let Some(route) = leaf.route_slot(slot) else {
        return Vec2::ZERO;
    };
    route.crowd_cost = crowd_cost;
    route.since_plan = (route.since_plan + dt.max(0.0)).min(SINCE_PLAN_CAP);
    let Some(goal) = goal else {
        route.goal = None;
        return -me.velocity;
    };
    route.goal = Some(goal);
    let points = &route.route.points;
    if points.is_empty() {
        route.wants_plan = true;
        return -me.velocity;
    }
    let leg = behaviors::route_leg(me.position, points, route.leg as usize);
    route.leg = leg as u32;
    let strayed = behaviors::distance_to_leg(me.position, points, leg) > replan;
    if goal.distance(route.planned_for) > replan || strayed {
        route.wants_plan = true;
    }
    // A jump link's leg is flown, not walked: the walk ends at the next take-off, arrived at,
    // and the agent waits there for the graph's Jump node (ahead of Navigate) to fly it.
    let walk = (route.route.jumps.iter())
        .find(|&&jump| jump >= leg)
        .map_or(points.len(), |&jump| jump + 1);
    behaviors::route_following(&me, &points[..walk], leg, ahead, slowing)
}
