//! Parameter overrides checked by `Program::parameters`.

use super::{graph, invalid, output};
use graph_runtime::{
    ChanceInput, CompileError, Constraint, Graph, Link, Node, Number, Slot, compile,
};
use std::collections::BTreeMap;

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
