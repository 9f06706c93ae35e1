//! The compiled form of a graph: ops (one per reachable node, inputs first) whose operands
//! (`operands.rs`) are resolved to constants, parameter slots and indices into the program's
//! tables. A family of leaf ops is one variant here whose type is its file's (`family/`).

use crate::graph::{Comparison, NodeKind, PortType};

use super::family::{
    AimOp, CourseOp, CrossingOp, FacingOp, FollowOp, GroupOp, JumpOp, ReciprocalOp, SensorOp,
    SurroundingsOp, angular_leaf_ops, combiner_ops, condition_leaf_ops, sensor_ops,
};
use super::operands::{Fov, Num, Span};

/// One compiled node. Links are op indices; every op's inputs come before it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Op {
    /// Seek, Flee, Arrival, Pursuit, Evasion, Offset pursuit, Interpose, Hide
    /// (`family/aim.rs`).
    Aim(AimOp),
    /// Obstacle avoidance, Wall avoidance, Wall following, Containment
    /// (`family/surroundings.rs`).
    Surroundings(SurroundingsOp),
    /// Wander, Path following, Flow field following (`family/course.rs`).
    Course(CourseOp),
    /// Unaligned collision avoidance (`family/crossing.rs`).
    Crossing(CrossingOp),
    /// Reciprocal (ORCA) around its input's force (`family/reciprocal.rs`).
    Reciprocal(ReciprocalOp),
    /// A muted node: zero (no force, the number `0`, a false condition).
    Muted,
    /// Separation, Cohesion, Alignment, Flocking (`family/group.rs`).
    Group(GroupOp),
    /// Leader following, Match velocity (`family/follow.rs`).
    Follow(FollowOp),
    /// Reach orientation, Face, Look where you are going (`family/facing.rs`).
    Facing(FacingOp),
    /// Jump (a force), Jump achievable (a condition) (`family/jumps.rs`).
    Jump(JumpOp),
    Blend(Span),
    Priority(Span, Num),
    Dither(Span, Num),
    Budget(Span),
    Gate(u32, u32),
    Scale(u32, Num),
    Truncate(u32, Num),
    /// Distance, Neighbor count, Speed, Wall distance, Value (`family/sensors.rs`).
    Sensor(SensorOp),
    Compare(u32, Comparison, Num),
    All(Span),
    Any(Span),
    Not(u32),
    Output(u32),
}

/// How an op reads its neighbors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum NeighborUse {
    /// Not at all.
    None,
    /// Through the sums of a neighbor pass (Separation, Cohesion, Alignment, Flocking):
    /// radius, field of view, most neighbors.
    Sums(Num, Fov, Num),
    /// Counting the candidates within a radius and field of view (`NeighborCount`).
    Count(Num, Fov),
    /// One by one, within a radius (Reciprocal).
    Within(Num),
    /// One by one, as far as collisions within a time can come from (Unaligned collision
    /// avoidance).
    Predicted(Num),
}

impl Op {
    /// The kind of node the op was lowered from; `None` for a muted node (a leaf whose value
    /// is zero). What a kind is (a leaf or not, its output) is the node table's.
    #[expect(
        clippy::inline_always,
        reason = "the evaluator asks it twice of every op it starts (`takes_inputs`, `output`); \
                  `#[inline]` left it a call, and inlining it made a Reciprocal tick 6-7 % \
                  faster on Circle and Blocks (BENCHMARKS.md)"
    )]
    #[inline(always)]
    pub(crate) fn kind(&self) -> Option<NodeKind> {
        Some(match self {
            Self::Muted => return None,
            Self::Aim(aim) => aim.kind(),
            Self::Surroundings(op) => op.kind(),
            Self::Course(op) => op.kind(),
            Self::Crossing(op) => op.kind(),
            Self::Reciprocal(_) => NodeKind::Reciprocal,
            Self::Group(op) => op.kind(),
            Self::Follow(op) => op.kind(),
            Self::Facing(op) => op.kind(),
            Self::Jump(op) => op.kind(),
            Self::Blend(_) => NodeKind::Blend,
            Self::Priority(..) => NodeKind::Priority,
            Self::Dither(..) => NodeKind::Dither,
            Self::Budget(_) => NodeKind::Budget,
            Self::Gate(..) => NodeKind::Gate,
            Self::Scale(..) => NodeKind::Scale,
            Self::Truncate(..) => NodeKind::Truncate,
            Self::Sensor(op) => op.kind(),
            Self::Compare(..) => NodeKind::Compare,
            Self::All(_) => NodeKind::All,
            Self::Any(_) => NodeKind::Any,
            Self::Not(_) => NodeKind::Not,
            Self::Output(_) => NodeKind::Output,
        })
    }

    /// Whether the op evaluates inputs (on a frame of the evaluator's stack); `false` for a
    /// leaf (a behavior or a sensor), from the node table.
    #[inline]
    pub(crate) fn takes_inputs(&self) -> bool {
        self.kind().is_some_and(NodeKind::takes_inputs)
    }

    /// What the op's value is (a force, a sensor's reading, a condition), from the node
    /// table; a muted op's zero counts as a force.
    #[inline]
    pub(crate) fn output(&self) -> PortType {
        self.kind().map_or(PortType::Steering, NodeKind::output)
    }

    /// Whether the op's value has an angular part: the angular layer's behaviors and Wander's
    /// facing variant. A program with none runs on forces alone.
    pub(crate) fn turns(&self) -> bool {
        match *self {
            angular_leaf_ops!() => true,
            Self::Course(op) => op.turns(),
            Self::Aim(_)
            | Self::Surroundings(_)
            | Self::Crossing(_)
            | Self::Group(_)
            | Self::Follow(_)
            | Self::Jump(JumpOp::Jump { .. })
            | sensor_ops!()
            | condition_leaf_ops!()
            | combiner_ops!()
            | Self::Muted => false,
        }
    }

    /// How the op reads its neighbors. The node table says which kinds read the grid or
    /// other agents (`Reads`); this gives the numbers the query needs.
    pub(crate) fn neighbor_use(&self) -> NeighborUse {
        match *self {
            Self::Group(op) => {
                let (radius, fov, most) = op.neighborhood();
                NeighborUse::Sums(radius, fov, most)
            }
            Self::Sensor(op) => op.counted().map_or(NeighborUse::None, |(radius, fov)| {
                NeighborUse::Count(radius, fov)
            }),
            Self::Reciprocal(op) => NeighborUse::Within(op.neighbor_radius()),
            Self::Crossing(op) => NeighborUse::Predicted(op.horizon()),
            Self::Muted
            | Self::Aim(_)
            | Self::Surroundings(_)
            | Self::Course(_)
            | Self::Follow(_)
            | Self::Facing(_)
            | Self::Jump(_)
            | Self::Blend(_)
            | Self::Priority(..)
            | Self::Dither(..)
            | Self::Budget(_)
            | Self::Gate(..)
            | Self::Scale(..)
            | Self::Truncate(..)
            | Self::Compare(..)
            | Self::All(_)
            | Self::Any(_)
            | Self::Not(_)
            | Self::Output(_) => NeighborUse::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::operands::TargetRef;
    use super::*;
    use crate::graph::Reads;

    /// What an op reads of its neighbors agrees with what the node table says its kind reads.
    #[test]
    fn every_ops_neighbor_use_agrees_with_the_node_table() {
        let (n, fov) = (Num::Const(1.0), Fov::Param(0));
        let span = Span { start: 0, len: 0 };
        let target = TargetRef::Named(0);
        let ops = [
            Op::Aim(AimOp::Seek(target)),
            Op::Group(GroupOp::Separation(n, fov, n)),
            Op::Group(GroupOp::Flocking {
                weights: [n; 3],
                radius: n,
                fov,
                max_neighbors: n,
            }),
            Op::Sensor(SensorOp::NeighborCount(n, fov)),
            Op::Crossing(CrossingOp::Unaligned(n)),
            Op::Reciprocal(ReciprocalOp::every_number(0, n)),
            Op::Blend(span),
            Op::Sensor(SensorOp::Speed),
        ];
        for op in ops {
            let kind = op.kind().expect("not muted");
            let expected = match kind.reads() {
                Reads::Own => matches!(op.neighbor_use(), NeighborUse::None),
                Reads::Grid => matches!(op.neighbor_use(), NeighborUse::Sums(..)),
                Reads::Agents => matches!(
                    op.neighbor_use(),
                    NeighborUse::Count(..) | NeighborUse::Within(_) | NeighborUse::Predicted(_)
                ),
            };
            assert!(expected, "{kind}: {:?}", op.neighbor_use());
        }
    }
}
