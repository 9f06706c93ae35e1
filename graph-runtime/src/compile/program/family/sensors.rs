//! The sensor family: what an agent senses of itself and its surroundings. As a number a
//! condition compares or a combiner scales by: Distance (to a target), Neighbor count, Speed,
//! Wall distance, and Value (a constant or a parameter); as a condition: Wall ahead. Each
//! kind's op, lowering, reading or answer, and guide side by side; the formulas are
//! `behaviors/`'s. The numbers and the condition sit in different groups of `patterns.rs`,
//! Wall ahead named there by its variant.

use super::{Leaf, Lowering};
use crate::behaviors;
use crate::compile::guide::Guide;
use crate::compile::program::operands::{Fov, Num, TargetRef};
use crate::graph::{Node, NodeKind};

/// One node of the sensor family, its numbers resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SensorOp {
    Distance(TargetRef),
    /// Radius, field of view.
    NeighborCount(Num, Fov),
    Speed,
    WallDistance,
    Value(Num),
    /// A condition: a wall within this distance straight ahead.
    WallAhead(Num),
}

impl SensorOp {
    /// The op of `node` when its kind is of this family (`None` for any other kind), its
    /// fields resolved by `fields`.
    pub(crate) fn lower(node: &Node, fields: &mut impl Lowering) -> Option<Self> {
        Some(match node {
            Node::Distance { target } => Self::Distance(fields.target(target)),
            Node::NeighborCount { radius, fov } => {
                Self::NeighborCount(fields.number(radius), fields.fov(fov))
            }
            Node::Speed => Self::Speed,
            Node::WallDistance => Self::WallDistance,
            Node::Value { value } => Self::Value(fields.number(value)),
            Node::WallAhead { distance } => Self::WallAhead(fields.number(distance)),
            // Another family's kind: `lower/ops.rs` asks the next family.
            _ => return None,
        })
    }

    /// The kind of node the op was lowered from.
    #[inline]
    pub(crate) fn kind(self) -> NodeKind {
        match self {
            Self::Distance(_) => NodeKind::Distance,
            Self::NeighborCount(..) => NodeKind::NeighborCount,
            Self::Speed => NodeKind::Speed,
            Self::WallDistance => NodeKind::WallDistance,
            Self::Value(_) => NodeKind::Value,
            Self::WallAhead(_) => NodeKind::WallAhead,
        }
    }

    /// The neighborhood a Neighbor count counts in (radius, field of view); `None` for the
    /// kinds that read no other agent.
    pub(crate) fn counted(self) -> Option<(Num, Fov)> {
        match self {
            Self::NeighborCount(radius, fov) => Some((radius, fov)),
            Self::Distance(_)
            | Self::Speed
            | Self::WallDistance
            | Self::Value(_)
            | Self::WallAhead(_) => None,
        }
    }

    /// The reading for the agent `leaf` evaluates: a distance to a target that does not
    /// exist is infinite, as is the distance to the nearest wall of a world without walls.
    /// Zero for Wall ahead, a condition (see [`SensorOp::holds`]).
    #[inline]
    pub(crate) fn reading(self, leaf: &impl Leaf) -> f32 {
        let me = leaf.me();
        match self {
            Self::Distance(target) => leaf
                .quarry(target)
                .map_or(f32::INFINITY, |q| q.position.distance(me.position)),
            Self::NeighborCount(radius, fov) => {
                let radius = leaf.num(radius);
                let fov = fov.get(leaf.params());
                let runs = leaf.grid().runs(me.position, radius);
                let candidates = runs.map(|run| (run.positions, run.agents));
                behaviors::count_neighbors(me, candidates, leaf.agent(), (radius, fov)) as f32
            }
            Self::Speed => me.velocity.length(),
            Self::WallDistance => behaviors::wall_distance(me, leaf.world().wall_index()),
            Self::Value(value) => leaf.num(value),
            Self::WallAhead(_) => 0.0,
        }
    }

    /// Whether the condition holds for the agent `leaf` evaluates: for Wall ahead, whether a
    /// wall crosses the segment from the agent along its heading, the given distance long.
    /// `false` for the kinds whose value is a number.
    pub(crate) fn holds(self, leaf: &impl Leaf) -> bool {
        match self {
            Self::WallAhead(distance) => {
                behaviors::wall_ahead(leaf.me(), leaf.world().wall_index(), leaf.num(distance))
            }
            Self::Distance(_)
            | Self::NeighborCount(..)
            | Self::Speed
            | Self::WallDistance
            | Self::Value(_) => false,
        }
    }

    /// What the reading measures, for the debug guides: the neighborhood counted in, the
    /// nearest wall point, where the wall ahead is met; nothing beyond the number for the
    /// others.
    pub(crate) fn guide(self, leaf: &impl Leaf) -> Guide {
        match self {
            Self::NeighborCount(radius, fov) => Guide::Neighborhood {
                radius: leaf.num(radius),
                fov: fov.get(leaf.params()).degrees(),
            },
            Self::WallDistance => leaf
                .world()
                .wall_index()
                .nearest(leaf.me().position, f32::INFINITY)
                .map_or(Guide::None, |near| Guide::Aim(near.point)),
            Self::WallAhead(distance) => {
                let walls = leaf.world().wall_index();
                behaviors::wall_ahead_hit(leaf.me(), walls, leaf.num(distance))
                    .map_or(Guide::None, |hit| Guide::Aim(hit.point))
            }
            Self::Distance(_) | Self::Speed | Self::Value(_) => Guide::None,
        }
    }
}
