//! The ops grouped by what their value is, as patterns, so that a match over ops lists its
//! own group's arms and names the other groups here: no `_ =>` over kinds. (A family file of
//! this folder is one op variant, `Op::Aim(..)`, in one group; its kinds are matched in the
//! file.) A new op joins
//! exactly one family (every match that names all families fails to compile until it does),
//! and then every match of its family fails to compile until it has an arm there: the
//! evaluator's force, sensor and condition leaves, the combiner step, `Op::turns`.
//!
//! The families follow the node table (`graph/kinds.rs`): a leaf's output (a force, an
//! angular acceleration, a number, a condition), or a kind that takes inputs. `Muted` is a
//! family of its own, named where it is met.

/// Behaviors whose value is a force (some also turn: Wander's facing variant).
macro_rules! force_leaf_ops {
    () => {
        $crate::compile::program::Op::Aim(..)
            | $crate::compile::program::Op::Surroundings(..)
            | $crate::compile::program::Op::Course(..)
            | $crate::compile::program::Op::Crossing(..)
            | $crate::compile::program::Op::Group(..)
            | $crate::compile::program::Op::Follow(..)
            | $crate::compile::program::Op::Jump($crate::compile::program::JumpOp::Jump { .. })
    };
}

/// Behaviors whose value is an angular acceleration alone (the facing layer).
macro_rules! angular_leaf_ops {
    () => {
        $crate::compile::program::Op::Facing(..)
    };
}

/// Leaves whose value is a number: sensors and constants.
macro_rules! sensor_ops {
    () => {
        $crate::compile::program::Op::Sensor(
            $crate::compile::program::SensorOp::Distance(..)
                | $crate::compile::program::SensorOp::NeighborCount(..)
                | $crate::compile::program::SensorOp::Speed
                | $crate::compile::program::SensorOp::WallDistance
                | $crate::compile::program::SensorOp::Value(..),
        )
    };
}

/// Leaves whose value is a condition.
macro_rules! condition_leaf_ops {
    () => {
        $crate::compile::program::Op::Sensor($crate::compile::program::SensorOp::WallAhead(..))
            | $crate::compile::program::Op::Jump(
                $crate::compile::program::JumpOp::Achievable { .. },
            )
    };
}

/// Kinds that take inputs: evaluated on a frame of the evaluator's stack.
macro_rules! combiner_ops {
    () => {
        $crate::compile::program::Op::Blend(..)
            | $crate::compile::program::Op::Priority(..)
            | $crate::compile::program::Op::Dither(..)
            | $crate::compile::program::Op::Budget(..)
            | $crate::compile::program::Op::Gate(..)
            | $crate::compile::program::Op::Scale(..)
            | $crate::compile::program::Op::Truncate(..)
            | $crate::compile::program::Op::Reciprocal(..)
            | $crate::compile::program::Op::Compare(..)
            | $crate::compile::program::Op::All(..)
            | $crate::compile::program::Op::Any(..)
            | $crate::compile::program::Op::Not(..)
            | $crate::compile::program::Op::Output(..)
    };
}

pub(crate) use {angular_leaf_ops, combiner_ops, condition_leaf_ops, force_leaf_ops, sensor_ops};

#[cfg(test)]
mod tests {
    use crate::compile::program::{AimOp, Num, Op, SensorOp, Span, TargetRef};

    /// Which family an op is in, by the patterns; every op is in exactly one (the match is
    /// exhaustive and its arms do not overlap, or this file would not compile without
    /// warnings).
    fn family(op: &Op) -> &'static str {
        match op {
            force_leaf_ops!() => "force",
            angular_leaf_ops!() => "angular",
            sensor_ops!() => "sensor",
            condition_leaf_ops!() => "condition",
            combiner_ops!() => "combiner",
            Op::Muted => "muted",
        }
    }

    /// The patterns agree with the node table: a combiner takes inputs, a leaf does not, and
    /// a leaf's family is its output.
    #[test]
    fn each_family_is_what_the_node_table_says_of_its_kinds() {
        use crate::graph::PortType;
        let n = Num::Const(1.0);
        let span = Span { start: 0, len: 0 };
        let target = TargetRef::Named(0);
        let samples = [
            (Op::Aim(AimOp::Seek(target)), "force"),
            (Op::Sensor(SensorOp::Speed), "sensor"),
            (Op::Sensor(SensorOp::Value(n)), "sensor"),
            (Op::Sensor(SensorOp::WallAhead(n)), "condition"),
            (Op::Blend(span), "combiner"),
            (Op::Not(0), "combiner"),
            (Op::Output(0), "combiner"),
        ];
        for (op, expected) in samples {
            assert_eq!(family(&op), expected, "{op:?}");
            let kind = op.kind().expect("not muted");
            assert_eq!(kind.takes_inputs(), expected == "combiner", "{op:?}");
            if !kind.takes_inputs() {
                let output = match kind.output() {
                    PortType::Steering => "force",
                    PortType::Scalar => "sensor",
                    PortType::Condition => "condition",
                };
                assert_eq!(output, expected, "{op:?}");
            }
        }
    }
}
