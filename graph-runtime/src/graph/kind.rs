use std::fmt;

use super::{ChanceInput, Link, Node, Number, PortType, Region, Target, WeightedInput};

/// The family a node kind belongs to, as the editor groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// Behaviors of one agent against targets and the world.
    Behavior,
    /// Behaviors that look at neighbors.
    GroupBehavior,
    /// Nodes that combine steering forces.
    Combiner,
    /// Sensors, conditions and parameter values.
    Condition,
    /// The graph's output.
    Output,
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Behavior => "Behaviors",
            Self::GroupBehavior => "Group behaviors",
            Self::Combiner => "Combiners",
            Self::Condition => "Conditions and parameters",
            Self::Output => "Output",
        })
    }
}

macro_rules! node_kinds {
    ($($kind:ident => $category:ident, $output:ident, $description:literal;)*) => {
        /// The kind of a [`Node`], without its fields: for catalogues, menus and messages.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum NodeKind {
            $(
                #[doc = $description]
                $kind,
            )*
        }

        impl NodeKind {
            /// Every kind, in catalogue order.
            pub const ALL: &'static [NodeKind] = &[$(NodeKind::$kind),*];

            /// The name used in RON files and menus.
            pub fn name(self) -> &'static str {
                match self { $(Self::$kind => stringify!($kind)),* }
            }

            /// The family the kind belongs to.
            pub fn category(self) -> Category {
                match self { $(Self::$kind => Category::$category),* }
            }

            /// What the node's output carries.
            pub fn output(self) -> PortType {
                match self { $(Self::$kind => PortType::$output),* }
            }

            /// A one-line description.
            pub fn description(self) -> &'static str {
                match self { $(Self::$kind => $description),* }
            }
        }

        impl Node {
            /// The node's kind.
            pub fn kind(&self) -> NodeKind {
                match self { $(Self::$kind { .. } => NodeKind::$kind),* }
            }
        }
    };
}

node_kinds! {
    Seek => Behavior, Steering, "Steer towards a target at full speed.";
    Flee => Behavior, Steering, "Steer away from a target, optionally only when it is close.";
    Arrival => Behavior, Steering, "Seek a target, slowing down to stop on it.";
    Pursuit => Behavior, Steering, "Chase an agent by seeking where it will be.";
    Evasion => Behavior, Steering, "Escape an agent by fleeing where it will be.";
    OffsetPursuit => Behavior, Steering, "Pass beside an agent at a set lateral distance.";
    ObstacleAvoidance => Behavior, Steering, "Steer sideways around circle obstacles ahead.";
    WallAvoidance => Behavior, Steering, "Steer away from walls felt ahead and close by.";
    WallFollowing => Behavior, Steering, "Travel along the nearest wall at a set distance.";
    Wander => Behavior, Steering, "Drift randomly but smoothly.";
    PathFollowing => Behavior, Steering, "Travel along a named path.";
    Containment => Behavior, Steering, "Stay inside a rectangle.";
    FlowFieldFollowing => Behavior, Steering, "Move with the velocity a flow field asks for.";
    UnalignedCollisionAvoidance => GroupBehavior, Steering, "Dodge the soonest predicted collision with another agent.";
    Reciprocal => GroupBehavior, Steering, "Reciprocal collision avoidance (ORCA) around the input's velocity.";
    Separation => GroupBehavior, Steering, "Keep away from close neighbors.";
    Cohesion => GroupBehavior, Steering, "Move towards the neighbors' centre.";
    Alignment => GroupBehavior, Steering, "Match the neighbors' heading and speed.";
    Flocking => GroupBehavior, Steering, "Separation, cohesion and alignment, weighted.";
    LeaderFollowing => GroupBehavior, Steering, "Follow behind a leader, keeping out of its way.";
    Interpose => GroupBehavior, Steering, "Get between two agents.";
    Hide => GroupBehavior, Steering, "Hide behind the nearest obstacle from a hunter.";
    Blend => Combiner, Steering, "Weighted sum of the inputs.";
    Priority => Combiner, Steering, "The first input that has something to do.";
    Dither => Combiner, Steering, "Prioritized dithering: inputs considered by probability, in order.";
    Budget => Combiner, Steering, "Inputs share the force budget in priority order.";
    Gate => Combiner, Steering, "Passes the input only while a condition holds.";
    Scale => Combiner, Steering, "Multiplies a force by a factor.";
    Truncate => Combiner, Steering, "Limits a force's length.";
    Distance => Condition, Scalar, "Distance from the agent to a target.";
    NeighborCount => Condition, Scalar, "Number of neighbors within a radius.";
    Speed => Condition, Scalar, "The agent's own speed.";
    WallDistance => Condition, Scalar, "Distance from the agent to the nearest wall.";
    Value => Condition, Scalar, "A constant or a graph parameter.";
    Compare => Condition, Condition, "Compares a sensor with a threshold.";
    WallAhead => Condition, Condition, "Holds when a wall is within a distance straight ahead.";
    All => Condition, Condition, "Holds when every input holds.";
    Any => Condition, Condition, "Holds when any input holds.";
    Not => Condition, Condition, "Holds when its input does not.";
    Subgraph => Combiner, Steering, "Another graph file as one node: its parameters are the fields, its Output the output.";
    Reroute => Combiner, Steering, "A bend point that tidies a long wire: passes any value on unchanged.";
    Output => Output, Steering, "The force that drives the vehicle. Exactly one per graph.";
}

impl fmt::Display for NodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl NodeKind {
    /// A new node of this kind with sensible defaults and unconnected inputs.
    #[expect(
        clippy::too_many_lines,
        reason = "one arm per node kind, each a literal"
    )]
    pub fn instantiate(self) -> Node {
        let n = Number::Literal;
        let cursor = Target::default;
        match self {
            Self::Seek => Node::Seek { target: cursor() },
            Self::Flee => Node::Flee {
                target: cursor(),
                panic_distance: None,
            },
            Self::Arrival => Node::Arrival {
                target: cursor(),
                slowing_distance: n(5.0),
            },
            Self::Pursuit => Node::Pursuit {
                quarry: cursor(),
                max_prediction: n(1.0),
            },
            Self::Evasion => Node::Evasion {
                quarry: cursor(),
                max_prediction: n(1.0),
                panic_distance: None,
            },
            Self::OffsetPursuit => Node::OffsetPursuit {
                quarry: cursor(),
                offset: n(2.0),
                max_prediction: n(1.0),
            },
            Self::ObstacleAvoidance => Node::ObstacleAvoidance {
                min_length: n(2.0),
                lookahead_time: n(1.0),
            },
            Self::WallAvoidance => Node::WallAvoidance {
                min_length: n(2.0),
                lookahead_time: n(1.0),
                whisker_angle: n(40.0),
                margin: n(0.5),
            },
            Self::WallFollowing => Node::WallFollowing {
                side: super::WallSide::Left,
                offset: n(1.0),
                lookahead_time: n(1.0),
                range: n(3.0),
            },
            Self::Wander => Node::Wander {
                distance: n(3.0),
                radius: n(1.5),
                jitter: n(180.0),
            },
            Self::PathFollowing => Node::PathFollowing {
                own: false,
                path: String::new(),
                prediction_time: n(0.5),
                ahead_distance: n(2.0),
                direction: super::PathDirection::Forward,
                corrective: true,
            },
            Self::Containment => Node::Containment {
                bounds: Region::World,
                prediction_time: n(0.5),
                margin: n(1.0),
            },
            Self::FlowFieldFollowing => Node::FlowFieldFollowing {
                field: String::new(),
                prediction_time: n(0.2),
            },
            Self::UnalignedCollisionAvoidance => {
                Node::UnalignedCollisionAvoidance { max_time: n(2.0) }
            }
            Self::Reciprocal => Node::Reciprocal {
                input: Link::NONE,
                time_horizon: n(2.0),
                obstacle_time_horizon: n(1.0),
                neighbor_radius: n(5.0),
                max_neighbors: n(10.0),
                clearance: n(0.1),
                keep_right: n(10.0),
            },
            Self::Separation => Node::Separation {
                radius: n(2.0),
                fov: n(270.0),
            },
            Self::Cohesion => Node::Cohesion {
                radius: n(5.0),
                fov: n(270.0),
            },
            Self::Alignment => Node::Alignment {
                radius: n(5.0),
                fov: n(270.0),
            },
            Self::Flocking => Node::Flocking {
                separation_weight: n(1.5),
                cohesion_weight: n(1.0),
                alignment_weight: n(1.0),
                radius: n(5.0),
                fov: n(270.0),
            },
            Self::LeaderFollowing => Node::LeaderFollowing {
                leader: Target::NearestTagged("leader".to_owned()),
                behind: n(2.0),
                slowing_distance: n(3.0),
                sight_length: n(4.0),
                sight_width: n(2.0),
            },
            Self::Interpose => Node::Interpose {
                a: Target::NearestTagged("a".to_owned()),
                b: Target::NearestTagged("b".to_owned()),
                slowing_distance: n(3.0),
            },
            Self::Hide => Node::Hide {
                hunter: Target::NearestTagged("hunter".to_owned()),
                margin: n(1.0),
                slowing_distance: n(3.0),
            },
            Self::Blend => Node::Blend {
                inputs: vec![
                    WeightedInput {
                        node: Link::NONE,
                        weight: n(1.0),
                    },
                    WeightedInput {
                        node: Link::NONE,
                        weight: n(1.0),
                    },
                ],
            },
            Self::Priority => Node::Priority {
                inputs: vec![Link::NONE, Link::NONE],
                epsilon: n(1e-3),
            },
            Self::Dither => Node::Dither {
                inputs: vec![
                    ChanceInput {
                        node: Link::NONE,
                        probability: n(0.5),
                    },
                    ChanceInput {
                        node: Link::NONE,
                        probability: n(1.0),
                    },
                ],
                epsilon: n(1e-3),
            },
            Self::Budget => Node::Budget {
                inputs: vec![Link::NONE, Link::NONE],
            },
            Self::Gate => Node::Gate {
                input: Link::NONE,
                condition: Link::NONE,
            },
            Self::Scale => Node::Scale {
                input: Link::NONE,
                factor: n(1.0),
            },
            Self::Truncate => Node::Truncate {
                input: Link::NONE,
                max: n(1.0),
            },
            Self::Distance => Node::Distance { target: cursor() },
            Self::NeighborCount => Node::NeighborCount {
                radius: n(5.0),
                fov: n(360.0),
            },
            Self::Speed => Node::Speed,
            Self::WallDistance => Node::WallDistance,
            Self::WallAhead => Node::WallAhead { distance: n(2.0) },
            Self::Value => Node::Value { value: n(1.0) },
            Self::Compare => Node::Compare {
                sensor: Link::NONE,
                test: super::Comparison::Less,
                threshold: n(1.0),
            },
            Self::All => Node::All {
                inputs: vec![Link::NONE, Link::NONE],
            },
            Self::Any => Node::Any {
                inputs: vec![Link::NONE, Link::NONE],
            },
            Self::Not => Node::Not { input: Link::NONE },
            Self::Reroute => Node::Reroute { input: Link::NONE },
            Self::Subgraph => Node::Subgraph {
                file: String::new(),
                parameters: std::collections::BTreeMap::new(),
            },
            Self::Output => Node::Output { input: Link::NONE },
        }
    }
}
