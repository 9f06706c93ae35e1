//! Nodes the Output does not reach: warnings, not errors (issue 42).

use super::{blend, errors, graph, id, output, scale, seek};
use graph_runtime::{CompileError, CompileWarning, Graph, Link, Node, Slot, Target, compile};
use std::collections::BTreeMap;

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
    graph
        .nodes
        .insert(id(6), blend(&[Link::to(1), Link::to(5)]));
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
