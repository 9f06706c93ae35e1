//! The surroundings family: behaviors that keep an agent clear of the world's geometry, its
//! circle obstacles (Obstacle avoidance), its walls (Wall avoidance, Wall following) and its
//! bounds (Containment). Each kind's op, lowering, force and guide side by side; the formulas
//! are `behaviors/`'s. Their numbers and what they read of the world are the same for every
//! agent, so a batch resolves them once ([`SurroundingsOp::resolve`]) and calls the formula
//! agent by agent, the way one agent's evaluation does.

use glam::Vec2;

use super::{Leaf, Lowering};
use crate::behaviors;
use crate::compile::guide::Guide;
use crate::compile::program::operands::Num;
use crate::graph::{Node, NodeKind, Region};
use crate::world::{Obstacle, Rect, WallIndex};
use crate::{Vehicle, World};

/// One node of the surroundings family, its numbers resolved to constants or parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SurroundingsOp {
    /// The shortest detection length, the look-ahead time.
    ObstacleAvoidance(Num, Num),
    WallAvoidance {
        min_length: Num,
        lookahead_time: Num,
        whisker_angle: Num,
        margin: Num,
    },
    WallFollowing {
        /// `+1` for a wall on the left, `-1` on the right.
        side: f32,
        offset: Num,
        lookahead_time: Num,
        range: Num,
    },
    Containment {
        /// The node's own rectangle (min x, min y, max x, max y); `None`: the world's bounds.
        bounds: Option<[Num; 4]>,
        prediction_time: Num,
        margin: Num,
    },
}

/// A surroundings op with its numbers read and what it reads of the world found: the same for
/// every agent of a tick.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Resolved<'w> {
    ObstacleAvoidance {
        obstacles: &'w [Obstacle],
        min_length: f32,
        lookahead_time: f32,
    },
    WallAvoidance {
        walls: &'w WallIndex,
        min_length: f32,
        lookahead_time: f32,
        whisker_angle: f32,
        margin: f32,
    },
    WallFollowing {
        walls: &'w WallIndex,
        side: f32,
        offset: f32,
        lookahead_time: f32,
        range: f32,
    },
    Containment {
        bounds: Rect,
        prediction_time: f32,
        margin: f32,
    },
}

impl SurroundingsOp {
    /// The op of `node` when its kind is of this family (`None` for any other kind), its
    /// fields resolved by `fields`.
    pub(crate) fn lower(node: &Node, fields: &mut impl Lowering) -> Option<Self> {
        Some(match node {
            Node::ObstacleAvoidance {
                min_length,
                lookahead_time,
            } => {
                let [min_length, lookahead] = fields.numbers([min_length, lookahead_time]);
                Self::ObstacleAvoidance(min_length, lookahead)
            }
            Node::WallAvoidance {
                min_length,
                lookahead_time,
                whisker_angle,
                margin,
            } => {
                let [min_length, lookahead_time, whisker_angle, margin] =
                    fields.numbers([min_length, lookahead_time, whisker_angle, margin]);
                Self::WallAvoidance {
                    min_length,
                    lookahead_time,
                    whisker_angle,
                    margin,
                }
            }
            Node::WallFollowing {
                side,
                offset,
                lookahead_time,
                range,
            } => {
                let [offset, lookahead_time, range] =
                    fields.numbers([offset, lookahead_time, range]);
                Self::WallFollowing {
                    side: side.sign(),
                    offset,
                    lookahead_time,
                    range,
                }
            }
            Node::Containment {
                bounds,
                prediction_time,
                margin,
            } => {
                let bounds = match bounds {
                    Region::World => None,
                    Region::Rect(min_x, min_y, max_x, max_y) => {
                        Some(fields.numbers([min_x, min_y, max_x, max_y]))
                    }
                };
                let [prediction_time, margin] = fields.numbers([prediction_time, margin]);
                Self::Containment {
                    bounds,
                    prediction_time,
                    margin,
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
            Self::ObstacleAvoidance(..) => NodeKind::ObstacleAvoidance,
            Self::WallAvoidance { .. } => NodeKind::WallAvoidance,
            Self::WallFollowing { .. } => NodeKind::WallFollowing,
            Self::Containment { .. } => NodeKind::Containment,
        }
    }

    /// The op's numbers read with `num` and what it reads of `world` found, once for all
    /// agents.
    #[inline]
    pub(crate) fn resolve(self, num: impl Fn(Num) -> f32, world: &World) -> Resolved<'_> {
        match self {
            Self::ObstacleAvoidance(min_length, lookahead_time) => Resolved::ObstacleAvoidance {
                obstacles: &world.obstacles,
                min_length: num(min_length),
                lookahead_time: num(lookahead_time),
            },
            Self::WallAvoidance {
                min_length,
                lookahead_time,
                whisker_angle,
                margin,
            } => Resolved::WallAvoidance {
                walls: world.wall_index(),
                min_length: num(min_length),
                lookahead_time: num(lookahead_time),
                whisker_angle: num(whisker_angle),
                margin: num(margin),
            },
            Self::WallFollowing {
                side,
                offset,
                lookahead_time,
                range,
            } => Resolved::WallFollowing {
                walls: world.wall_index(),
                side,
                offset: num(offset),
                lookahead_time: num(lookahead_time),
                range: num(range),
            },
            Self::Containment {
                bounds,
                prediction_time,
                margin,
            } => Resolved::Containment {
                bounds: match bounds {
                    None => world.bounds,
                    Some([min_x, min_y, max_x, max_y]) => Rect::new(
                        Vec2::new(num(min_x), num(min_y)),
                        Vec2::new(num(max_x), num(max_y)),
                    ),
                },
                prediction_time: num(prediction_time),
                margin: num(margin),
            },
        }
    }

    /// The steering force for the agent `leaf` evaluates.
    #[inline]
    pub(crate) fn force(self, leaf: &impl Leaf) -> Vec2 {
        self.resolve(|n| leaf.num(n), leaf.world()).force(leaf.me())
    }

    /// What the force looks at, for the debug guides.
    pub(crate) fn guide(self, leaf: &impl Leaf) -> Guide {
        self.resolve(|n| leaf.num(n), leaf.world()).guide(leaf.me())
    }
}

impl Resolved<'_> {
    /// The steering force for `me`.
    #[inline]
    pub(crate) fn force(&self, me: &Vehicle) -> Vec2 {
        let mut force = Vec2::ZERO;
        self.forces(std::iter::once((0, me)), |_, f| force = f);
        force
    }

    /// The force of each of `agents` (a position in the batch and the vehicle there), handed
    /// to `put` agent by agent. The kind is matched once, outside the loop: a batch's agents
    /// share it (matched per agent it cost the boids' tick 1.4 % more instructions).
    #[inline]
    pub(crate) fn forces<'v>(
        &self,
        agents: impl Iterator<Item = (usize, &'v Vehicle)>,
        mut put: impl FnMut(usize, Vec2),
    ) {
        match *self {
            Self::ObstacleAvoidance {
                obstacles,
                min_length,
                lookahead_time,
            } => {
                for (i, me) in agents {
                    put(
                        i,
                        behaviors::obstacle_avoidance(me, obstacles, min_length, lookahead_time),
                    );
                }
            }
            Self::WallAvoidance {
                walls,
                min_length,
                lookahead_time,
                whisker_angle,
                margin,
            } => {
                for (i, me) in agents {
                    let force = behaviors::wall_avoidance(
                        me,
                        walls,
                        min_length,
                        lookahead_time,
                        whisker_angle,
                        margin,
                    );
                    put(i, force);
                }
            }
            Self::WallFollowing {
                walls,
                side,
                offset,
                lookahead_time,
                range,
            } => {
                for (i, me) in agents {
                    let force =
                        behaviors::wall_following(me, walls, side, offset, lookahead_time, range);
                    put(i, force);
                }
            }
            Self::Containment {
                bounds,
                prediction_time,
                margin,
            } => {
                for (i, me) in agents {
                    put(
                        i,
                        behaviors::containment(me, &bounds, prediction_time, margin),
                    );
                }
            }
        }
    }

    /// The geometry behind `me`'s force, from the `behaviors` functions the force calls: the
    /// detection corridor; the feelers, where each meets a wall and the nearest wall point
    /// within the clearance; the wall followed and the aim point; the point Containment
    /// steers back to (or the predicted position, inside).
    pub(crate) fn guide(&self, me: &Vehicle) -> Guide {
        match *self {
            Self::ObstacleAvoidance {
                min_length,
                lookahead_time,
                ..
            } => Guide::Corridor {
                length: behaviors::detection_length(me, min_length, lookahead_time),
                half_width: me.radius,
            },
            Self::WallAvoidance {
                walls,
                min_length,
                lookahead_time,
                whisker_angle,
                margin,
            } => {
                let feelers =
                    behaviors::wall_feelers(me, min_length, lookahead_time, whisker_angle);
                let tips = feelers.map(|f| f.tip(me.position));
                let hits = tips.map(|tip| walls.ray_cast(me.position, tip).map(|hit| hit.point));
                let nearest = walls
                    .nearest(me.position, me.radius + margin)
                    .map(|near| near.point);
                Guide::Feelers {
                    tips,
                    hits,
                    nearest,
                }
            }
            Self::WallFollowing {
                walls,
                side,
                offset,
                lookahead_time,
                range,
            } => behaviors::wall_following_aim(me, walls, side, offset, lookahead_time, range)
                .map_or(Guide::None, |(nearest, aim)| Guide::WallFollow {
                    nearest,
                    aim,
                }),
            Self::Containment {
                bounds,
                prediction_time,
                margin,
            } => behaviors::containment_aim(me, &bounds, prediction_time, margin).map_or(
                Guide::Aim(behaviors::future_position(me, prediction_time)),
                Guide::Aim,
            ),
        }
    }
}
