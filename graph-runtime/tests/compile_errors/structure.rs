//! Errors of a graph's shape: outputs, cycles, dangling links, unconnected inputs and port types.

use super::{blend, errors, graph, id, output, scale, seek};
use graph_runtime::{Comparison, CompileError, Graph, Link, Node, Number, PortType, Slot, compile};

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
        (4, blend(&[Link::to(1), Link::to(3)])),
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
        (4, blend(&[Link::to(1), Link::to(3)])),
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
