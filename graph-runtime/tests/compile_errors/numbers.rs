//! Errors of numbers and names: invalid values, ranges, parameters, empty names, and how errors are
//! ordered and shown.

use super::{blend, errors, graph, id, invalid, output, scale, seek};
use graph_runtime::{
    ChanceInput, CompileError, Constraint, Graph, Link, Node, Number, PathDirection, PortType,
    Region, Slot, Target, WeightedInput, compile,
};

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
        (3, blend(&[Link::to(1), Link::NONE, Link::to(42)])),
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
    let blend = blend(&[Link::to(1), Link::NONE]);
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
