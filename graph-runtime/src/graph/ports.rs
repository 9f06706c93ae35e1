//! Generic views of a node's input ports and numeric fields, so the compiler and the editor
//! walk every node the same way instead of matching each kind again.

use super::{Constraint, Link, Node, Number, PortType, Region, Slot, Target};

use Constraint::{Angle, Finite, NonNegative, Probability, RightAngle};

/// The range of Reciprocal's `max_neighbors`: 1 to the fixed capacity of its neighbor array.
pub const RECIPROCAL_NEIGHBORS: Constraint = Constraint::Count {
    max: crate::behaviors::MAX_RECIPROCAL_NEIGHBORS as u16,
};

/// A numeric field of a node, with the range it must lie in.
#[derive(Debug)]
pub struct NumberField<'a> {
    /// Where the number sits on the node.
    pub slot: Slot,
    /// Its value or parameter reference.
    pub number: &'a Number,
    /// The range it must lie in.
    pub constraint: Constraint,
}

/// An input port of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputPort {
    /// Where the port sits on the node.
    pub slot: Slot,
    /// What the port accepts.
    pub accepts: PortType,
    /// What feeds it.
    pub link: Link,
}

struct Collect<'a> {
    numbers: Vec<NumberField<'a>>,
}

impl<'a> Collect<'a> {
    fn number(&mut self, name: &'static str, number: &'a Number, constraint: Constraint) {
        self.numbers.push(NumberField {
            slot: Slot::field(name),
            number,
            constraint,
        });
    }

    fn target(&mut self, x: &'static str, y: &'static str, target: &'a Target) {
        if let Target::Point(px, py) = target {
            self.number(x, px, Finite);
            self.number(y, py, Finite);
        }
    }
}

impl Node {
    /// Every input port, in display order.
    pub fn inputs(&self) -> Vec<InputPort> {
        let one = |name, accepts, link: &Link| {
            vec![InputPort {
                slot: Slot::field(name),
                accepts,
                link: *link,
            }]
        };
        let list = |accepts, links: &mut dyn Iterator<Item = Link>| {
            links
                .enumerate()
                .map(|(index, link)| InputPort {
                    slot: Slot::item("inputs", index),
                    accepts,
                    link,
                })
                .collect()
        };
        match self {
            Self::Blend { inputs } => list(PortType::Steering, &mut inputs.iter().map(|i| i.node)),
            Self::Dither { inputs, .. } => {
                list(PortType::Steering, &mut inputs.iter().map(|i| i.node))
            }
            Self::Priority { inputs, .. } | Self::Budget { inputs } => {
                list(PortType::Steering, &mut inputs.iter().copied())
            }
            Self::All { inputs } | Self::Any { inputs } => {
                list(PortType::Condition, &mut inputs.iter().copied())
            }
            Self::Gate { input, condition } => vec![
                InputPort {
                    slot: Slot::field("input"),
                    accepts: PortType::Steering,
                    link: *input,
                },
                InputPort {
                    slot: Slot::field("condition"),
                    accepts: PortType::Condition,
                    link: *condition,
                },
            ],
            Self::Scale { input, .. }
            | Self::Truncate { input, .. }
            | Self::Reciprocal { input, .. }
            // A Reroute takes any type (the compiler skips its check); `Steering` is what a
            // catalogue shows for it.
            | Self::Reroute { input }
            | Self::Output { input } => one("input", PortType::Steering, input),
            Self::Not { input } => one("input", PortType::Condition, input),
            Self::Compare { sensor, .. } => one("sensor", PortType::Scalar, sensor),
            _ => Vec::new(),
        }
    }

    /// The link at `slot`, for editing connections.
    pub fn input_mut(&mut self, slot: Slot) -> Option<&mut Link> {
        match (self, slot.name, slot.index) {
            (Self::Blend { inputs }, "inputs", Some(i)) => inputs.get_mut(i).map(|x| &mut x.node),
            (Self::Dither { inputs, .. }, "inputs", Some(i)) => {
                inputs.get_mut(i).map(|x| &mut x.node)
            }
            (
                Self::Priority { inputs, .. }
                | Self::Budget { inputs }
                | Self::All { inputs }
                | Self::Any { inputs },
                "inputs",
                Some(i),
            ) => inputs.get_mut(i),
            (
                Self::Gate { input, .. }
                | Self::Reciprocal { input, .. }
                | Self::Scale { input, .. }
                | Self::Truncate { input, .. }
                | Self::Output { input }
                | Self::Reroute { input }
                | Self::Not { input },
                "input",
                None,
            ) => Some(input),
            (Self::Gate { condition, .. }, "condition", None) => Some(condition),
            (Self::Compare { sensor, .. }, "sensor", None) => Some(sensor),
            _ => None,
        }
    }

    /// Every numeric field with its range, in display order (target coordinates included).
    #[expect(
        clippy::too_many_lines,
        reason = "one match arm per node kind: the node table"
    )]
    pub fn numbers(&self) -> Vec<NumberField<'_>> {
        let mut c = Collect {
            numbers: Vec::new(),
        };
        match self {
            Self::Seek { target } | Self::Distance { target } => {
                c.target("target.x", "target.y", target);
            }
            Self::Flee {
                target,
                panic_distance,
            } => {
                c.target("target.x", "target.y", target);
                if let Some(d) = panic_distance {
                    c.number("panic_distance", d, NonNegative);
                }
            }
            Self::Arrival {
                target,
                slowing_distance,
            } => {
                c.target("target.x", "target.y", target);
                c.number("slowing_distance", slowing_distance, NonNegative);
            }
            Self::Pursuit {
                quarry,
                max_prediction,
            } => {
                c.target("quarry.x", "quarry.y", quarry);
                c.number("max_prediction", max_prediction, NonNegative);
            }
            Self::Evasion {
                quarry,
                max_prediction,
                panic_distance,
            } => {
                c.target("quarry.x", "quarry.y", quarry);
                c.number("max_prediction", max_prediction, NonNegative);
                if let Some(d) = panic_distance {
                    c.number("panic_distance", d, NonNegative);
                }
            }
            Self::OffsetPursuit {
                quarry,
                offset,
                max_prediction,
            } => {
                c.target("quarry.x", "quarry.y", quarry);
                c.number("offset", offset, NonNegative);
                c.number("max_prediction", max_prediction, NonNegative);
            }
            Self::ObstacleAvoidance {
                min_length,
                lookahead_time,
            } => {
                c.number("min_length", min_length, NonNegative);
                c.number("lookahead_time", lookahead_time, NonNegative);
            }
            Self::WallAvoidance {
                min_length,
                lookahead_time,
                whisker_angle,
                margin,
            } => {
                c.number("min_length", min_length, NonNegative);
                c.number("lookahead_time", lookahead_time, NonNegative);
                c.number("whisker_angle", whisker_angle, Angle);
                c.number("margin", margin, NonNegative);
            }
            Self::WallFollowing {
                offset,
                lookahead_time,
                range,
                ..
            } => {
                c.number("offset", offset, NonNegative);
                c.number("lookahead_time", lookahead_time, NonNegative);
                c.number("range", range, NonNegative);
            }
            Self::Wander {
                distance,
                radius,
                jitter,
            } => {
                c.number("distance", distance, NonNegative);
                c.number("radius", radius, NonNegative);
                c.number("jitter", jitter, NonNegative);
            }
            Self::PathFollowing {
                prediction_time,
                ahead_distance,
                ..
            } => {
                c.number("prediction_time", prediction_time, NonNegative);
                c.number("ahead_distance", ahead_distance, NonNegative);
            }
            Self::Containment {
                bounds,
                prediction_time,
                margin,
            } => {
                if let Region::Rect(min_x, min_y, max_x, max_y) = bounds {
                    c.number("bounds.min_x", min_x, Finite);
                    c.number("bounds.min_y", min_y, Finite);
                    c.number("bounds.max_x", max_x, Finite);
                    c.number("bounds.max_y", max_y, Finite);
                }
                c.number("prediction_time", prediction_time, NonNegative);
                c.number("margin", margin, NonNegative);
            }
            Self::FlowFieldFollowing {
                prediction_time, ..
            } => {
                c.number("prediction_time", prediction_time, NonNegative);
            }
            Self::UnalignedCollisionAvoidance { max_time } => {
                c.number("max_time", max_time, NonNegative);
            }
            Self::Reciprocal {
                time_horizon,
                obstacle_time_horizon,
                neighbor_radius,
                max_neighbors,
                clearance,
                keep_right,
                ..
            } => {
                c.number("time_horizon", time_horizon, NonNegative);
                c.number("obstacle_time_horizon", obstacle_time_horizon, NonNegative);
                c.number("neighbor_radius", neighbor_radius, NonNegative);
                c.number("max_neighbors", max_neighbors, RECIPROCAL_NEIGHBORS);
                c.number("clearance", clearance, NonNegative);
                c.number("keep_right", keep_right, RightAngle);
            }
            Self::Separation { radius, fov }
            | Self::Cohesion { radius, fov }
            | Self::Alignment { radius, fov }
            | Self::NeighborCount { radius, fov } => {
                c.number("radius", radius, NonNegative);
                c.number("fov", fov, Angle);
            }
            Self::Flocking {
                separation_weight,
                cohesion_weight,
                alignment_weight,
                radius,
                fov,
            } => {
                c.number("separation_weight", separation_weight, Finite);
                c.number("cohesion_weight", cohesion_weight, Finite);
                c.number("alignment_weight", alignment_weight, Finite);
                c.number("radius", radius, NonNegative);
                c.number("fov", fov, Angle);
            }
            Self::LeaderFollowing {
                leader,
                behind,
                slowing_distance,
                sight_length,
                sight_width,
            } => {
                c.target("leader.x", "leader.y", leader);
                c.number("behind", behind, NonNegative);
                c.number("slowing_distance", slowing_distance, NonNegative);
                c.number("sight_length", sight_length, NonNegative);
                c.number("sight_width", sight_width, NonNegative);
            }
            Self::Interpose {
                a,
                b,
                slowing_distance,
            } => {
                c.target("a.x", "a.y", a);
                c.target("b.x", "b.y", b);
                c.number("slowing_distance", slowing_distance, NonNegative);
            }
            Self::Hide {
                hunter,
                margin,
                slowing_distance,
            } => {
                c.target("hunter.x", "hunter.y", hunter);
                c.number("margin", margin, NonNegative);
                c.number("slowing_distance", slowing_distance, NonNegative);
            }
            Self::Blend { inputs } => {
                for (index, input) in inputs.iter().enumerate() {
                    c.numbers.push(NumberField {
                        slot: Slot::item("weight", index),
                        number: &input.weight,
                        constraint: Finite,
                    });
                }
            }
            Self::Dither { inputs, epsilon } => {
                for (index, input) in inputs.iter().enumerate() {
                    c.numbers.push(NumberField {
                        slot: Slot::item("probability", index),
                        number: &input.probability,
                        constraint: Probability,
                    });
                }
                c.number("epsilon", epsilon, NonNegative);
            }
            Self::Priority { epsilon, .. } => c.number("epsilon", epsilon, NonNegative),
            Self::Scale { factor, .. } => c.number("factor", factor, Finite),
            Self::Truncate { max, .. } => c.number("max", max, NonNegative),
            Self::Value { value } => c.number("value", value, Finite),
            Self::Compare { threshold, .. } => c.number("threshold", threshold, Finite),
            Self::WallAhead { distance } => c.number("distance", distance, NonNegative),
            Self::Subgraph { parameters, .. } => {
                // By position in name order; the subgraph's own fields check the ranges.
                for (index, number) in parameters.values().enumerate() {
                    c.numbers.push(NumberField {
                        slot: Slot::item("parameters", index),
                        number,
                        constraint: Finite,
                    });
                }
            }
            Self::Budget { .. }
            | Self::Gate { .. }
            | Self::Speed
            | Self::WallDistance
            | Self::All { .. }
            | Self::Any { .. }
            | Self::Not { .. }
            | Self::Reroute { .. }
            | Self::Output { .. } => {}
        }
        c.numbers
    }

    /// The targets the node refers to, with their field names.
    pub fn targets(&self) -> Vec<(&'static str, &Target)> {
        match self {
            Self::Seek { target }
            | Self::Flee { target, .. }
            | Self::Arrival { target, .. }
            | Self::Distance { target } => vec![("target", target)],
            Self::Pursuit { quarry, .. }
            | Self::Evasion { quarry, .. }
            | Self::OffsetPursuit { quarry, .. } => vec![("quarry", quarry)],
            Self::LeaderFollowing { leader, .. } => vec![("leader", leader)],
            Self::Interpose { a, b, .. } => vec![("a", a), ("b", b)],
            Self::Hide { hunter, .. } => vec![("hunter", hunter)],
            _ => Vec::new(),
        }
    }
}

impl Node {
    /// The number at `slot` (as listed by [`Node::numbers`]), for editing.
    #[expect(
        clippy::too_many_lines,
        reason = "one match arm per node kind: the node table"
    )]
    pub fn number_mut(&mut self, slot: Slot) -> Option<&mut Number> {
        if let Some(index) = slot.index {
            return match (self, slot.name) {
                (Self::Blend { inputs }, "weight") => inputs.get_mut(index).map(|i| &mut i.weight),
                (Self::Dither { inputs, .. }, "probability") => {
                    inputs.get_mut(index).map(|i| &mut i.probability)
                }
                (Self::Subgraph { parameters, .. }, "parameters") => {
                    parameters.values_mut().nth(index)
                }
                _ => None,
            };
        }
        if let Some((target, axis)) = slot.name.split_once('.') {
            if target == "bounds" {
                let Self::Containment {
                    bounds: Region::Rect(min_x, min_y, max_x, max_y),
                    ..
                } = self
                else {
                    return None;
                };
                return match axis {
                    "min_x" => Some(min_x),
                    "min_y" => Some(min_y),
                    "max_x" => Some(max_x),
                    "max_y" => Some(max_y),
                    _ => None,
                };
            }
            let Some(Target::Point(x, y)) = self.target_mut(target) else {
                return None;
            };
            return match axis {
                "x" => Some(x),
                "y" => Some(y),
                _ => None,
            };
        }
        match (self, slot.name) {
            (
                Self::Flee { panic_distance, .. } | Self::Evasion { panic_distance, .. },
                "panic_distance",
            ) => panic_distance.as_mut(),
            (
                Self::Arrival {
                    slowing_distance, ..
                }
                | Self::LeaderFollowing {
                    slowing_distance, ..
                }
                | Self::Interpose {
                    slowing_distance, ..
                }
                | Self::Hide {
                    slowing_distance, ..
                },
                "slowing_distance",
            ) => Some(slowing_distance),
            (
                Self::Pursuit { max_prediction, .. }
                | Self::Evasion { max_prediction, .. }
                | Self::OffsetPursuit { max_prediction, .. },
                "max_prediction",
            ) => Some(max_prediction),
            (Self::OffsetPursuit { offset, .. } | Self::WallFollowing { offset, .. }, "offset") => {
                Some(offset)
            }
            (Self::WallFollowing { range, .. }, "range") => Some(range),
            (
                Self::ObstacleAvoidance { min_length, .. } | Self::WallAvoidance { min_length, .. },
                "min_length",
            ) => Some(min_length),
            (
                Self::ObstacleAvoidance { lookahead_time, .. }
                | Self::WallAvoidance { lookahead_time, .. }
                | Self::WallFollowing { lookahead_time, .. },
                "lookahead_time",
            ) => Some(lookahead_time),
            (Self::WallAvoidance { whisker_angle, .. }, "whisker_angle") => Some(whisker_angle),
            (Self::Wander { distance, .. } | Self::WallAhead { distance }, "distance") => {
                Some(distance)
            }
            (Self::Wander { jitter, .. }, "jitter") => Some(jitter),
            (
                Self::Wander { radius, .. }
                | Self::Separation { radius, .. }
                | Self::Cohesion { radius, .. }
                | Self::Alignment { radius, .. }
                | Self::NeighborCount { radius, .. }
                | Self::Flocking { radius, .. },
                "radius",
            ) => Some(radius),
            (
                Self::Separation { fov, .. }
                | Self::Cohesion { fov, .. }
                | Self::Alignment { fov, .. }
                | Self::NeighborCount { fov, .. }
                | Self::Flocking { fov, .. },
                "fov",
            ) => Some(fov),
            (
                Self::PathFollowing {
                    prediction_time, ..
                }
                | Self::Containment {
                    prediction_time, ..
                }
                | Self::FlowFieldFollowing {
                    prediction_time, ..
                },
                "prediction_time",
            ) => Some(prediction_time),
            (Self::PathFollowing { ahead_distance, .. }, "ahead_distance") => Some(ahead_distance),
            (
                Self::Containment { margin, .. }
                | Self::Hide { margin, .. }
                | Self::WallAvoidance { margin, .. },
                "margin",
            ) => Some(margin),
            (Self::UnalignedCollisionAvoidance { max_time }, "max_time") => Some(max_time),
            (Self::Reciprocal { time_horizon, .. }, "time_horizon") => Some(time_horizon),
            (
                Self::Reciprocal {
                    obstacle_time_horizon,
                    ..
                },
                "obstacle_time_horizon",
            ) => Some(obstacle_time_horizon),
            (
                Self::Reciprocal {
                    neighbor_radius, ..
                },
                "neighbor_radius",
            ) => Some(neighbor_radius),
            (Self::Reciprocal { max_neighbors, .. }, "max_neighbors") => Some(max_neighbors),
            (Self::Reciprocal { clearance, .. }, "clearance") => Some(clearance),
            (Self::Reciprocal { keep_right, .. }, "keep_right") => Some(keep_right),
            (
                Self::Flocking {
                    separation_weight, ..
                },
                "separation_weight",
            ) => Some(separation_weight),
            (
                Self::Flocking {
                    cohesion_weight, ..
                },
                "cohesion_weight",
            ) => Some(cohesion_weight),
            (
                Self::Flocking {
                    alignment_weight, ..
                },
                "alignment_weight",
            ) => Some(alignment_weight),
            (Self::LeaderFollowing { behind, .. }, "behind") => Some(behind),
            (Self::LeaderFollowing { sight_length, .. }, "sight_length") => Some(sight_length),
            (Self::LeaderFollowing { sight_width, .. }, "sight_width") => Some(sight_width),
            (Self::Dither { epsilon, .. } | Self::Priority { epsilon, .. }, "epsilon") => {
                Some(epsilon)
            }
            (Self::Scale { factor, .. }, "factor") => Some(factor),
            (Self::Truncate { max, .. }, "max") => Some(max),
            (Self::Value { value }, "value") => Some(value),
            (Self::Compare { threshold, .. }, "threshold") => Some(threshold),
            _ => None,
        }
    }

    /// The target in field `field` (as listed by [`Node::targets`]), for editing.
    pub fn target_mut(&mut self, field: &str) -> Option<&mut Target> {
        match (self, field) {
            (
                Self::Seek { target }
                | Self::Flee { target, .. }
                | Self::Arrival { target, .. }
                | Self::Distance { target },
                "target",
            ) => Some(target),
            (
                Self::Pursuit { quarry, .. }
                | Self::Evasion { quarry, .. }
                | Self::OffsetPursuit { quarry, .. },
                "quarry",
            ) => Some(quarry),
            (Self::LeaderFollowing { leader, .. }, "leader") => Some(leader),
            (Self::Interpose { a, .. }, "a") => Some(a),
            (Self::Interpose { b, .. }, "b") => Some(b),
            (Self::Hide { hunter, .. }, "hunter") => Some(hunter),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NodeKind;

    /// Every number `numbers()` lists can be reached for editing, and editing it is seen.
    #[test]
    fn every_listed_number_is_editable() {
        for kind in NodeKind::ALL {
            let mut node = kind.instantiate();
            if let Some(target) = node.targets().first().map(|(field, _)| *field) {
                *node.target_mut(target).expect("listed target") =
                    Target::Point(1.0.into(), 2.0.into());
            }
            if let Self_::Containment { bounds, .. } = &mut node {
                *bounds = Region::Rect(0.0.into(), 0.0.into(), 1.0.into(), 1.0.into());
            }
            if let Self_::Flee { panic_distance, .. } | Self_::Evasion { panic_distance, .. } =
                &mut node
            {
                *panic_distance = Some(3.0.into());
            }
            let slots: Vec<Slot> = node.numbers().iter().map(|field| field.slot).collect();
            for slot in slots {
                let number = node
                    .number_mut(slot)
                    .unwrap_or_else(|| panic!("{kind} {slot}"));
                *number = Number::Parameter("edited".into());
                let after = node.numbers();
                let field = after.iter().find(|f| f.slot == slot).expect("still listed");
                assert_eq!(
                    field.number,
                    &Number::Parameter("edited".into()),
                    "{kind} {slot}"
                );
            }
        }
    }

    use Node as Self_;
}
