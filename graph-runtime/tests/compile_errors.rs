//! Every `CompileError` the compiler and `Program::parameters` report, compared as whole values
//! with the node, port or parameter they name.

use std::collections::BTreeMap;

use graph_runtime::{
    ChanceInput, Comparison, CompileError, CompileWarning, Constraint, Graph, Link, Node, NodeId,
    Number, PathDirection, PortType, Region, Slot, Target, WeightedInput, compile,
};

/// A graph with the given nodes and default vehicle and no parameters.
fn graph(nodes: impl IntoIterator<Item = (u32, Node)>) -> Graph {
    Graph {
        nodes: nodes
            .into_iter()
            .map(|(id, node)| (NodeId(id), node))
            .collect(),
        ..Graph::default()
    }
}

fn errors(graph: &Graph) -> Vec<CompileError> {
    compile(graph).expect_err("the graph has errors")
}

fn id(id: u32) -> NodeId {
    NodeId(id)
}

fn seek() -> Node {
    Node::Seek {
        target: Target::Named("cursor".to_owned()),
    }
}

fn output(input: u32) -> Node {
    Node::Output {
        input: Link::to(input),
    }
}

fn scale(input: Link) -> Node {
    Node::Scale {
        input,
        factor: Number::Literal(2.0),
    }
}

fn invalid(
    node: Option<u32>,
    field: Slot,
    value: f32,
    constraint: Constraint,
    parameter: Option<&str>,
) -> CompileError {
    CompileError::InvalidNumber {
        node: node.map(NodeId),
        field,
        value,
        constraint,
        parameter: parameter.map(str::to_owned),
    }
}

#[test]
fn a_valid_graph_compiles() {
    let program = compile(&graph([(1, seek()), (2, output(1))])).expect("a valid graph");
    assert_eq!(program.nodes(), &[id(1), id(2)]);
}

#[test]
fn a_graph_without_output_is_reported() {
    assert_eq!(errors(&graph([(1, seek())])), vec![CompileError::NoOutput]);
    assert_eq!(errors(&Graph::default()), vec![CompileError::NoOutput]);
}

#[test]
fn several_outputs_are_reported_once_with_every_output() {
    let g = graph([(1, seek()), (2, output(1)), (5, output(1)), (3, output(1))]);
    assert_eq!(
        errors(&g),
        vec![CompileError::MultipleOutputs {
            nodes: vec![id(2), id(3), id(5)]
        }]
    );
}

#[test]
fn a_loop_of_three_nodes_is_a_cycle_listing_its_nodes() {
    let g = graph([
        (1, scale(Link::to(3))),
        (2, scale(Link::to(1))),
        (3, scale(Link::to(2))),
        (4, output(3)),
    ]);
    assert_eq!(
        errors(&g),
        vec![CompileError::Cycle {
            nodes: vec![id(1), id(2), id(3)]
        }]
    );
}

#[test]
fn a_node_feeding_itself_is_a_cycle() {
    let g = graph([(1, seek()), (2, scale(Link::to(2))), (3, output(2))]);
    assert_eq!(errors(&g), vec![CompileError::Cycle { nodes: vec![id(2)] }]);
}

#[test]
fn separate_cycles_are_each_reported() {
    let g = graph([
        (1, scale(Link::to(2))),
        (2, scale(Link::to(1))),
        (3, scale(Link::to(3))),
        (
            4,
            Node::Blend {
                inputs: vec![
                    WeightedInput {
                        node: Link::to(1),
                        weight: Number::Literal(1.0),
                    },
                    WeightedInput {
                        node: Link::to(3),
                        weight: Number::Literal(1.0),
                    },
                ],
            },
        ),
        (5, output(4)),
    ]);
    assert_eq!(
        errors(&g),
        vec![
            CompileError::Cycle {
                nodes: vec![id(1), id(2)]
            },
            CompileError::Cycle { nodes: vec![id(3)] },
        ]
    );
}

#[test]
fn a_link_to_a_missing_node_is_dangling() {
    let g = graph([(1, seek()), (2, output(9))]);
    assert_eq!(
        errors(&g),
        vec![CompileError::DanglingLink {
            node: id(2),
            port: Slot::field("input"),
            missing: id(9),
        }]
    );
}

#[test]
fn an_unconnected_list_input_names_its_index() {
    let g = graph([
        (1, seek()),
        (
            2,
            Node::Priority {
                inputs: vec![Link::to(1), Link::NONE],
                epsilon: Number::Literal(1e-3),
            },
        ),
        (3, output(2)),
    ]);
    assert_eq!(
        errors(&g),
        vec![CompileError::UnconnectedInput {
            node: id(2),
            port: Slot::item("inputs", 1),
        }]
    );
}

#[test]
fn an_unconnected_output_and_gate_are_reported() {
    let g = graph([
        (
            1,
            Node::Gate {
                input: Link::NONE,
                condition: Link::NONE,
            },
        ),
        (2, output(1)),
        (3, Node::Output { input: Link::NONE }),
    ]);
    assert_eq!(
        errors(&g),
        vec![
            CompileError::MultipleOutputs {
                nodes: vec![id(2), id(3)]
            },
            CompileError::UnconnectedInput {
                node: id(1),
                port: Slot::field("input"),
            },
            CompileError::UnconnectedInput {
                node: id(1),
                port: Slot::field("condition"),
            },
            CompileError::UnconnectedInput {
                node: id(3),
                port: Slot::field("input"),
            },
        ]
    );
}

#[test]
fn a_steering_force_into_a_gate_condition_is_the_wrong_port_type() {
    let g = graph([
        (1, seek()),
        (
            2,
            Node::Gate {
                input: Link::to(1),
                condition: Link::to(1),
            },
        ),
        (3, output(2)),
    ]);
    assert_eq!(
        errors(&g),
        vec![CompileError::WrongPortType {
            node: id(2),
            port: Slot::field("condition"),
            expected: PortType::Condition,
            found: PortType::Steering,
            source: id(1),
        }]
    );
}

#[test]
fn a_condition_into_a_blend_input_is_the_wrong_port_type() {
    let g = graph([
        (1, seek()),
        (2, Node::Speed),
        (
            3,
            Node::Compare {
                sensor: Link::to(2),
                test: Comparison::Greater,
                threshold: Number::Literal(1.0),
            },
        ),
        (
            4,
            Node::Blend {
                inputs: vec![
                    WeightedInput {
                        node: Link::to(1),
                        weight: Number::Literal(1.0),
                    },
                    WeightedInput {
                        node: Link::to(3),
                        weight: Number::Literal(1.0),
                    },
                ],
            },
        ),
        (5, output(4)),
    ]);
    assert_eq!(
        errors(&g),
        vec![CompileError::WrongPortType {
            node: id(4),
            port: Slot::item("inputs", 1),
            expected: PortType::Steering,
            found: PortType::Condition,
            source: id(3),
        }]
    );
}

#[test]
fn a_scalar_into_the_output_is_the_wrong_port_type() {
    let g = graph([
        (
            1,
            Node::Value {
                value: Number::Literal(3.0),
            },
        ),
        (2, output(1)),
    ]);
    assert_eq!(
        errors(&g),
        vec![CompileError::WrongPortType {
            node: id(2),
            port: Slot::field("input"),
            expected: PortType::Steering,
            found: PortType::Scalar,
            source: id(1),
        }]
    );
}

#[test]
fn a_nan_coordinate_is_an_invalid_number() {
    let g = graph([
        (
            1,
            Node::Seek {
                target: Target::Point(Number::Literal(f32::NAN), Number::Literal(0.0)),
            },
        ),
        (2, output(1)),
    ]);
    // NaN is not equal to itself, so the whole values are compared through `Debug`.
    let expected = vec![invalid(
        Some(1),
        Slot::field("target.x"),
        f32::NAN,
        Constraint::Finite,
        None,
    )];
    assert_eq!(format!("{:?}", errors(&g)), format!("{expected:?}"));
    assert!(
        format!("{:?}", errors(&g)).contains("value: NaN"),
        "the NaN itself is reported"
    );
}

#[test]
fn an_infinite_number_is_invalid() {
    let g = graph([
        (
            1,
            Node::Arrival {
                target: Target::Named("cursor".to_owned()),
                slowing_distance: Number::Literal(f32::INFINITY),
            },
        ),
        (2, output(1)),
    ]);
    assert_eq!(
        errors(&g),
        vec![invalid(
            Some(1),
            Slot::field("slowing_distance"),
            f32::INFINITY,
            Constraint::NonNegative,
            None,
        )]
    );
}

#[test]
fn negative_distances_and_radii_are_invalid() {
    let g = graph([
        (
            1,
            Node::Flee {
                target: Target::Named("cursor".to_owned()),
                panic_distance: Some(Number::Literal(-1.0)),
            },
        ),
        (
            2,
            Node::Separation {
                radius: Number::Literal(-2.5),
                fov: Number::Literal(360.0),
                max_neighbors: 64.0.into(),
            },
        ),
        (
            3,
            Node::Blend {
                inputs: vec![
                    WeightedInput {
                        node: Link::to(1),
                        weight: Number::Literal(-1.0),
                    },
                    WeightedInput {
                        node: Link::to(2),
                        weight: Number::Literal(1.0),
                    },
                ],
            },
        ),
        (4, output(3)),
    ]);
    // A negative Blend weight is allowed ("negative weights push away").
    assert_eq!(
        errors(&g),
        vec![
            invalid(
                Some(1),
                Slot::field("panic_distance"),
                -1.0,
                Constraint::NonNegative,
                None
            ),
            invalid(
                Some(2),
                Slot::field("radius"),
                -2.5,
                Constraint::NonNegative,
                None
            ),
        ]
    );
}

fn dither(probabilities: [f32; 2]) -> Graph {
    graph([
        (1, seek()),
        (
            2,
            Node::Dither {
                inputs: probabilities
                    .iter()
                    .map(|&p| ChanceInput {
                        node: Link::to(1),
                        probability: Number::Literal(p),
                    })
                    .collect(),
                epsilon: Number::Literal(1e-3),
            },
        ),
        (3, output(2)),
    ])
}

#[test]
fn a_probability_outside_zero_one_is_invalid() {
    assert_eq!(
        errors(&dither([0.5, 1.5])),
        vec![invalid(
            Some(2),
            Slot::item("probability", 1),
            1.5,
            Constraint::Probability,
            None,
        )]
    );
    assert_eq!(
        errors(&dither([-0.1, 1.0])),
        vec![invalid(
            Some(2),
            Slot::item("probability", 0),
            -0.1,
            Constraint::Probability,
            None,
        )]
    );
    compile(&dither([0.0, 1.0])).expect("0 and 1 are probabilities");
}

#[test]
fn a_field_of_view_above_360_degrees_is_invalid() {
    let g = graph([
        (
            1,
            Node::Cohesion {
                radius: Number::Literal(5.0),
                fov: Number::Literal(400.0),
                max_neighbors: 64.0.into(),
            },
        ),
        (2, output(1)),
    ]);
    assert_eq!(
        errors(&g),
        vec![invalid(
            Some(1),
            Slot::field("fov"),
            400.0,
            Constraint::Angle,
            None
        )]
    );
}

#[test]
fn a_vehicle_mass_that_is_not_positive_is_invalid_with_no_node() {
    let mut g = graph([(1, seek()), (2, output(1))]);
    g.vehicle.mass = Number::Literal(0.0);
    g.vehicle.radius = Number::Literal(-0.5);
    assert_eq!(
        errors(&g),
        vec![
            invalid(None, Slot::field("mass"), 0.0, Constraint::Positive, None),
            invalid(
                None,
                Slot::field("radius"),
                -0.5,
                Constraint::NonNegative,
                None
            ),
        ]
    );
    g.vehicle.mass = Number::Literal(-3.0);
    g.vehicle.radius = Number::Literal(0.0);
    assert_eq!(
        errors(&g),
        vec![invalid(
            None,
            Slot::field("mass"),
            -3.0,
            Constraint::Positive,
            None
        )]
    );
}

#[test]
fn an_out_of_range_parameter_default_names_the_parameter() {
    let mut g = graph([
        (
            1,
            Node::Wander {
                distance: Number::Literal(3.0),
                radius: Number::from("wander_radius"),
                jitter: Number::Literal(90.0),
                face: false,
            },
        ),
        (2, output(1)),
    ]);
    g.parameters.insert("wander_radius".to_owned(), -1.0);
    g.parameters.insert("speed".to_owned(), -4.0);
    g.vehicle.max_speed = Number::from("speed");
    assert_eq!(
        errors(&g),
        vec![
            invalid(
                None,
                Slot::field("max_speed"),
                -4.0,
                Constraint::NonNegative,
                Some("speed"),
            ),
            invalid(
                Some(1),
                Slot::field("radius"),
                -1.0,
                Constraint::NonNegative,
                Some("wander_radius"),
            ),
        ]
    );
}

#[test]
fn an_undeclared_parameter_is_reported_where_it_is_used() {
    let mut g = graph([
        (
            1,
            Node::Arrival {
                target: Target::Named("cursor".to_owned()),
                slowing_distance: Number::from("slow"),
            },
        ),
        (2, output(1)),
    ]);
    g.vehicle.max_force = Number::from("force");
    assert_eq!(
        errors(&g),
        vec![
            CompileError::UnknownParameter {
                node: None,
                field: Slot::field("max_force"),
                name: "force".to_owned(),
            },
            CompileError::UnknownParameter {
                node: Some(id(1)),
                field: Slot::field("slowing_distance"),
                name: "slow".to_owned(),
            },
        ]
    );
}

#[test]
fn a_non_finite_parameter_default_is_reported_once_on_the_parameter() {
    let mut g = graph([
        (
            1,
            Node::Scale {
                input: Link::to(2),
                factor: Number::from("gain"),
            },
        ),
        (2, seek()),
        (3, output(1)),
    ]);
    g.parameters.insert("gain".to_owned(), f32::INFINITY);
    assert_eq!(
        errors(&g),
        vec![CompileError::NonFiniteParameter {
            name: "gain".to_owned(),
            value: f32::INFINITY,
        }]
    );
}

#[test]
fn empty_names_are_missing_names() {
    let g = graph([
        (
            1,
            Node::PathFollowing {
                path: String::new(),
                prediction_time: Number::Literal(0.5),
                ahead_distance: Number::Literal(2.0),
                direction: PathDirection::Forward,
                corrective: false,
                own: false,
            },
        ),
        (
            2,
            Node::FlowFieldFollowing {
                field: "  ".to_owned(),
                prediction_time: Number::Literal(0.5),
            },
        ),
        (
            3,
            Node::Seek {
                target: Target::Named(String::new()),
            },
        ),
        (
            4,
            Node::Interpose {
                a: Target::NearestTagged("a".to_owned()),
                b: Target::NearestTagged(String::new()),
                slowing_distance: Number::Literal(1.0),
            },
        ),
        (
            5,
            Node::Budget {
                inputs: vec![Link::to(1), Link::to(2), Link::to(3), Link::to(4)],
            },
        ),
        (6, output(5)),
    ]);
    assert_eq!(
        errors(&g),
        vec![
            CompileError::MissingName {
                node: id(1),
                field: "path",
            },
            CompileError::MissingName {
                node: id(2),
                field: "field",
            },
            CompileError::MissingName {
                node: id(3),
                field: "target",
            },
            CompileError::MissingName {
                node: id(4),
                field: "b",
            },
        ]
    );
}

#[test]
fn every_problem_is_reported_at_once_in_a_stable_order() {
    // Order: parameters, outputs, cycles, vehicle, then each node by id (ports, numbers, names).
    let mut g = graph([
        (
            1,
            Node::Containment {
                bounds: Region::Rect(
                    Number::Literal(0.0),
                    Number::Literal(0.0),
                    Number::from("width"),
                    Number::Literal(f32::INFINITY),
                ),
                prediction_time: Number::Literal(-1.0),
                margin: Number::Literal(1.0),
            },
        ),
        (2, scale(Link::to(2))),
        (
            3,
            Node::Blend {
                inputs: vec![
                    WeightedInput {
                        node: Link::to(1),
                        weight: Number::Literal(1.0),
                    },
                    WeightedInput {
                        node: Link::NONE,
                        weight: Number::Literal(1.0),
                    },
                    WeightedInput {
                        node: Link::to(42),
                        weight: Number::Literal(1.0),
                    },
                ],
            },
        ),
        (
            4,
            Node::LeaderFollowing {
                leader: Target::NearestTagged(String::new()),
                behind: Number::Literal(2.0),
                slowing_distance: Number::Literal(3.0),
                sight_length: Number::Literal(4.0),
                sight_width: Number::Literal(2.0),
            },
        ),
    ]);
    g.parameters.insert("bad".to_owned(), f32::NEG_INFINITY);
    g.vehicle.mass = Number::Literal(0.0);
    assert_eq!(
        errors(&g),
        vec![
            CompileError::NonFiniteParameter {
                name: "bad".to_owned(),
                value: f32::NEG_INFINITY,
            },
            CompileError::NoOutput,
            CompileError::Cycle { nodes: vec![id(2)] },
            invalid(None, Slot::field("mass"), 0.0, Constraint::Positive, None),
            CompileError::UnknownParameter {
                node: Some(id(1)),
                field: Slot::field("bounds.max_x"),
                name: "width".to_owned(),
            },
            invalid(
                Some(1),
                Slot::field("bounds.max_y"),
                f32::INFINITY,
                Constraint::Finite,
                None,
            ),
            invalid(
                Some(1),
                Slot::field("prediction_time"),
                -1.0,
                Constraint::NonNegative,
                None,
            ),
            CompileError::UnconnectedInput {
                node: id(3),
                port: Slot::item("inputs", 1),
            },
            CompileError::DanglingLink {
                node: id(3),
                port: Slot::item("inputs", 2),
                missing: id(42),
            },
            CompileError::MissingName {
                node: id(4),
                field: "leader",
            },
        ]
    );
}

#[test]
fn errors_are_displayed_with_their_node_and_port() {
    let blend = Node::Blend {
        inputs: vec![
            WeightedInput {
                node: Link::to(1),
                weight: Number::Literal(1.0),
            },
            WeightedInput {
                node: Link::NONE,
                weight: Number::Literal(1.0),
            },
        ],
    };
    let g = graph([(1, seek()), (3, blend), (4, output(3))]);
    let shown: Vec<String> = errors(&g).iter().map(ToString::to_string).collect();
    // Numbered from 1, as the node shows its inputs.
    assert_eq!(shown, vec!["node #3 port `input 2`: not connected"]);
    assert!(shown[0].contains("node #3 port `input 2`"));

    let wrong = CompileError::WrongPortType {
        node: id(2),
        port: Slot::field("condition"),
        expected: PortType::Condition,
        found: PortType::Steering,
        source: id(1),
    };
    assert_eq!(
        wrong.to_string(),
        "node #2 port `condition`: expects a condition but node #1 outputs a steering force"
    );
    assert_eq!(
        CompileError::DanglingLink {
            node: id(7),
            port: Slot::item("inputs", 0),
            missing: id(9),
        }
        .to_string(),
        "node #7 port `input 1`: linked to node #9, which does not exist"
    );
    assert_eq!(
        invalid(
            Some(2),
            Slot::item("probability", 1),
            1.5,
            Constraint::Probability,
            None
        )
        .to_string(),
        "node #2 field `probability 2`: 1.5 must be a probability between 0 and 1"
    );
    assert_eq!(
        invalid(
            None,
            Slot::field("max_speed"),
            -4.0,
            Constraint::NonNegative,
            Some("speed")
        )
        .to_string(),
        "vehicle field `max_speed`: -4 must be a finite number >= 0 and at most 1e9 (value of graph parameter \"speed\")"
    );
    assert_eq!(
        CompileError::Cycle {
            nodes: vec![id(1), id(2), id(3)]
        }
        .to_string(),
        "links form a cycle through nodes #1, #2, #3"
    );
}

/// A graph whose parameters are used by the vehicle and by fields of different ranges.
fn tunable() -> Graph {
    let mut g = graph([
        (
            1,
            Node::Separation {
                radius: Number::from("radius"),
                fov: Number::Literal(360.0),
                max_neighbors: 64.0.into(),
            },
        ),
        (
            2,
            Node::Wander {
                distance: Number::Literal(2.0),
                radius: Number::from("chance"),
                jitter: Number::Literal(10.0),
                face: false,
            },
        ),
        (
            3,
            Node::Dither {
                inputs: vec![
                    ChanceInput {
                        node: Link::to(1),
                        probability: Number::from("chance"),
                    },
                    ChanceInput {
                        node: Link::to(2),
                        probability: Number::Literal(1.0),
                    },
                ],
                epsilon: Number::Literal(1e-3),
            },
        ),
        (4, output(3)),
    ]);
    g.parameters = BTreeMap::from([
        ("radius".to_owned(), 3.0),
        ("chance".to_owned(), 0.5),
        ("speed".to_owned(), 4.0),
    ]);
    g.vehicle.max_speed = Number::from("speed");
    g
}

fn overrides(values: &[(&str, f32)]) -> BTreeMap<String, f32> {
    values
        .iter()
        .map(|&(name, value)| (name.to_owned(), value))
        .collect()
}

#[test]
fn valid_overrides_change_the_parameter_values() {
    let program = compile(&tunable()).expect("a valid graph");
    let params = program
        .parameters(&overrides(&[("speed", 8.0), ("chance", 1.0)]))
        .expect("valid overrides");
    assert_eq!(program.vehicle(&params).max_speed, 8.0);
    assert_eq!(
        program.vehicle(&program.default_parameters()).max_speed,
        4.0
    );
}

#[test]
fn an_override_of_an_undeclared_parameter_is_unknown() {
    let program = compile(&tunable()).expect("a valid graph");
    assert_eq!(
        program
            .parameters(&overrides(&[("sped", 8.0)]))
            .expect_err("no parameter `sped`"),
        vec![CompileError::UnknownOverride {
            name: "sped".to_owned()
        }]
    );
}

#[test]
fn an_out_of_range_override_is_reported_for_every_field_it_breaks() {
    let program = compile(&tunable()).expect("a valid graph");
    // 2.0 is a fine Wander radius but not a probability.
    assert_eq!(
        program
            .parameters(&overrides(&[("chance", 2.0)]))
            .expect_err("2 is not a probability"),
        vec![invalid(
            Some(3),
            Slot::item("probability", 0),
            2.0,
            Constraint::Probability,
            Some("chance"),
        )]
    );
    // -0.5 breaks both uses.
    assert_eq!(
        program
            .parameters(&overrides(&[("chance", -0.5), ("speed", -1.0)]))
            .expect_err("negative values"),
        vec![
            invalid(
                Some(2),
                Slot::field("radius"),
                -0.5,
                Constraint::NonNegative,
                Some("chance"),
            ),
            invalid(
                Some(3),
                Slot::item("probability", 0),
                -0.5,
                Constraint::Probability,
                Some("chance"),
            ),
            invalid(
                None,
                Slot::field("max_speed"),
                -1.0,
                Constraint::NonNegative,
                Some("speed"),
            ),
        ]
    );
}

#[test]
fn a_non_finite_override_is_reported_on_the_parameter() {
    let program = compile(&tunable()).expect("a valid graph");
    assert_eq!(
        program
            .parameters(&overrides(&[("radius", f32::INFINITY), ("nope", 1.0)]))
            .expect_err("infinite radius and an unknown name"),
        vec![
            CompileError::UnknownOverride {
                name: "nope".to_owned()
            },
            CompileError::NonFiniteParameter {
                name: "radius".to_owned(),
                value: f32::INFINITY,
            },
        ]
    );
}

#[test]
fn an_override_is_checked_against_what_runs_not_against_nodes_the_output_does_not_reach() {
    let mut graph = tunable();
    // A spare node, not wired to the Output, using the same parameter as a radius: it runs
    // nothing, so a value it would refuse does not stop the graph (its problems are warnings).
    let spare = graph.add(Node::Separation {
        radius: Number::Parameter("speed".into()),
        fov: 360.0.into(),
        max_neighbors: 64.0.into(),
    });
    let program = compile(&graph).expect("spare nodes do not stop compiling");
    let errors = program
        .parameters(&overrides(&[("speed", -1.0)]))
        .expect_err("negative speed");
    // The vehicle's top speed, which runs, refuses it; the spare node is not asked.
    assert_eq!(
        errors,
        vec![invalid(
            None,
            Slot::field("max_speed"),
            -1.0,
            Constraint::NonNegative,
            Some("speed")
        )]
    );
    assert!(errors.iter().all(|e| e.node() != Some(spare)));
}

// ---- Nodes the Output does not reach: warnings, not errors (issue 42) ----

/// A working Seek into the Output, and beside it a Reroute wired to nothing and a Seek with no
/// target name feeding a Scale that feeds nothing.
fn with_strays() -> Graph {
    graph([
        (1, seek()),
        (2, output(1)),
        (3, Node::Reroute { input: Link::NONE }),
        (
            4,
            Node::Seek {
                target: Target::Named(" ".to_owned()),
            },
        ),
        (5, scale(Link::to(4))),
    ])
}

#[test]
fn nodes_that_feed_nothing_do_not_stop_the_graph_and_are_warnings() {
    let graph = with_strays();
    let program = compile(&graph).expect("what reaches the Output compiles");
    // The Seek and the Output: the strays are not compiled.
    assert_eq!(program.len(), 2);
    assert_eq!(
        graph_runtime::warnings(&graph),
        vec![
            // Nothing reads #3 and #5 (#4 feeds #5, so only #5 is a loose end).
            CompileWarning::FeedsNothing { node: id(3) },
            CompileWarning::FeedsNothing { node: id(5) },
            CompileWarning::Unreached(CompileError::UnconnectedInput {
                node: id(3),
                port: Slot::field("input"),
            }),
            CompileWarning::Unreached(CompileError::MissingName {
                node: id(4),
                field: "target",
            }),
        ]
    );
    assert_eq!(
        graph_runtime::warnings(&graph)[0].to_string(),
        "node #3 feeds nothing, so it does not run: wire its output into the graph, or delete it"
    );
    assert_eq!(
        graph_runtime::warnings(&graph)[3].to_string(),
        "node #4 field `target`: no name given (it does not reach the Output: the graph runs without it)"
    );
}

#[test]
fn wiring_a_stray_into_the_output_makes_its_problem_an_error_again() {
    let mut graph = with_strays();
    graph.nodes.insert(
        id(6),
        Node::Blend {
            inputs: vec![
                WeightedInput {
                    node: Link::to(1),
                    weight: Number::Literal(1.0),
                },
                WeightedInput {
                    node: Link::to(5),
                    weight: Number::Literal(1.0),
                },
            ],
        },
    );
    graph.nodes.insert(id(2), output(6));
    assert_eq!(
        errors(&graph),
        vec![CompileError::MissingName {
            node: id(4),
            field: "target",
        }]
    );
    // The Reroute still feeds nothing: a warning, with its own problem.
    assert_eq!(
        graph_runtime::warnings(&graph),
        vec![
            CompileWarning::FeedsNothing { node: id(3) },
            CompileWarning::Unreached(CompileError::UnconnectedInput {
                node: id(3),
                port: Slot::field("input"),
            }),
        ]
    );
}

#[test]
fn a_loop_the_output_does_not_reach_is_a_warning_and_one_it_reaches_an_error() {
    let looped = |into_output: bool| {
        graph([
            (1, seek()),
            (2, output(if into_output { 3 } else { 1 })),
            (3, scale(Link::to(4))),
            (4, scale(Link::to(3))),
        ])
    };
    let stray = looped(false);
    compile(&stray).expect("the loop runs nothing");
    assert_eq!(
        graph_runtime::warnings(&stray),
        vec![CompileWarning::Unreached(CompileError::Cycle {
            nodes: vec![id(3), id(4)]
        })]
    );
    assert_eq!(
        errors(&looped(true)),
        vec![CompileError::Cycle {
            nodes: vec![id(3), id(4)]
        }]
    );
}

#[test]
fn a_subgraph_node_that_feeds_nothing_reads_no_file() {
    let graph = graph([
        (1, seek()),
        (2, output(1)),
        (
            3,
            Node::Subgraph {
                file: "missing.graph.ron".to_owned(),
                parameters: BTreeMap::new(),
            },
        ),
    ]);
    let program = graph_runtime::compile_with(&graph, "main.graph.ron", &BTreeMap::new())
        .expect("the stray Subgraph node is not written out");
    assert_eq!(program.len(), 2);
    assert_eq!(
        graph_runtime::warnings(&graph),
        vec![CompileWarning::FeedsNothing { node: id(3) }]
    );
}

#[test]
fn without_exactly_one_output_every_node_counts() {
    // No Output: nothing can be told apart as unreached, so every problem is an error.
    let g = graph([(1, Node::Reroute { input: Link::NONE })]);
    assert_eq!(
        errors(&g),
        vec![
            CompileError::NoOutput,
            CompileError::UnconnectedInput {
                node: id(1),
                port: Slot::field("input"),
            },
        ]
    );
}
