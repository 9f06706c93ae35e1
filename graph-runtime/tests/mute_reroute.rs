//! Muted nodes (`BEHAVIORS.md`, "Muted nodes"): a muted node contributes nothing, combiners
//! skip it, and the mute is saved in the graph file. And Reroutes, the wire-tidying bend points
//! that pass any value on and that the compiler links through.

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    ChanceInput, Comparison, CompileError, Crowd, Graph, Link, Node, NodeId, Target, Vehicle,
    VehicleParams, WeightedInput, World, compile,
};

const DOC: &str = include_str!("../BEHAVIORS.md");

const PARAMS: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 100.0,
    max_speed: 5.0,
    radius: 0.5,
};

/// The force `graph` gives one agent at the origin at rest.
fn force(graph: &Graph) -> Vec2 {
    let program = compile(graph).expect("the graph compiles");
    let world = World::default();
    let mut crowd = Crowd::new(program, &world, 1, &BTreeMap::new()).expect("names resolve");
    let me = [Vehicle::new(Vec2::ZERO, Vec2::ZERO, PARAMS)];
    let mut forces = Vec::new();
    crowd.steer(&world, &me, &[], 0.1, &mut forces);
    forces[0]
}

fn seek(graph: &mut Graph, x: f32, y: f32) -> NodeId {
    graph.add(Node::Seek {
        target: Target::Point(x.into(), y.into()),
    })
}

/// Seek (10, 0) and Seek (0, 10): from rest at the origin at max speed 5, the forces (5, 0)
/// and (0, 5).
fn east_and_north(graph: &mut Graph) -> (NodeId, NodeId) {
    (seek(graph, 10.0, 0.0), seek(graph, 0.0, 10.0))
}

fn output(graph: &mut Graph, input: NodeId) {
    graph.add(Node::Output {
        input: Link(Some(input)),
    });
}

fn weighted(node: NodeId, weight: f32) -> WeightedInput {
    WeightedInput {
        node: Link(Some(node)),
        weight: weight.into(),
    }
}

fn chance(node: NodeId, probability: f32) -> ChanceInput {
    ChanceInput {
        node: Link(Some(node)),
        probability: probability.into(),
    }
}

#[test]
fn behaviors_md_says_what_a_mute_does() {
    for quote in [
        "A muted node (listed in the graph's `muted`) contributes nothing: its value is a zero force, the",
        "draws nothing). A Blend, Priority, Dither, Budget, All or Any skips a muted input as if it were",
    ] {
        assert!(DOC.contains(quote), "BEHAVIORS.md no longer says: {quote}");
    }
}

#[test]
fn a_blend_skips_its_muted_input() {
    // Seek (10,0) and Seek (0,10) from rest at max_speed 5: (5,0) and (0,5). Blended with
    // weights 1 and 2: (5,10). With the second muted: (5,0).
    let mut graph = Graph::default();
    let (east, north) = east_and_north(&mut graph);
    let blend = graph.add(Node::Blend {
        inputs: vec![weighted(east, 1.0), weighted(north, 2.0)],
    });
    output(&mut graph, blend);
    assert_eq!(force(&graph), Vec2::new(5.0, 10.0));
    graph.muted.insert(north);
    assert_eq!(force(&graph), Vec2::new(5.0, 0.0));
    // Muting the blend itself: nothing reaches the Output.
    graph.muted.insert(blend);
    assert_eq!(force(&graph), Vec2::ZERO);
}

#[test]
fn a_priority_passes_over_a_muted_first_input_and_a_dither_draws_nothing_for_it() {
    let mut graph = Graph::default();
    let (east, north) = east_and_north(&mut graph);
    let priority = graph.add(Node::Priority {
        inputs: vec![Link(Some(east)), Link(Some(north))],
        epsilon: 0.001.into(),
    });
    output(&mut graph, priority);
    assert_eq!(force(&graph), Vec2::new(5.0, 0.0));
    graph.muted.insert(east);
    assert_eq!(force(&graph), Vec2::new(0.0, 5.0));

    // A Dither whose first input is certain: muted, the second (also certain) answers.
    let mut dither = Graph::default();
    let (east, north) = east_and_north(&mut dither);
    let node = dither.add(Node::Dither {
        inputs: vec![chance(east, 1.0), chance(north, 1.0)],
        epsilon: 0.001.into(),
    });
    output(&mut dither, node);
    dither.muted.insert(east);
    assert_eq!(force(&dither), Vec2::new(0.0, 5.0));
}

#[test]
fn a_muted_condition_is_false_and_a_muted_sensor_reads_zero() {
    // Gate(Seek east, Speed >= 0): the agent at rest has speed 0, so the condition holds and the
    // gate passes (5,0). Muting the comparison makes it false: nothing passes. Muting only the
    // Speed sensor makes it read 0, and 0 >= 0 still holds.
    let mut graph = Graph::default();
    let east = seek(&mut graph, 10.0, 0.0);
    let speed = graph.add(Node::Speed);
    let compare = graph.add(Node::Compare {
        sensor: Link(Some(speed)),
        test: Comparison::GreaterOrEqual,
        threshold: 0.0.into(),
    });
    let gate = graph.add(Node::Gate {
        input: Link(Some(east)),
        condition: Link(Some(compare)),
    });
    output(&mut graph, gate);
    assert_eq!(force(&graph), Vec2::new(5.0, 0.0));
    graph.muted.insert(speed);
    assert_eq!(force(&graph), Vec2::new(5.0, 0.0));
    graph.muted.insert(compare);
    assert_eq!(force(&graph), Vec2::ZERO);
}

#[test]
fn a_mute_on_the_output_is_ignored_and_an_unknown_id_is_an_error() {
    let mut graph = Graph::default();
    let east = seek(&mut graph, 10.0, 0.0);
    output(&mut graph, east);
    let output_id = NodeId(2);
    graph.muted.insert(output_id);
    assert_eq!(force(&graph), Vec2::new(5.0, 0.0));
    graph.muted.insert(NodeId(9));
    let errors = compile(&graph).expect_err("node 9 does not exist");
    assert_eq!(errors, [CompileError::UnknownMuted { node: NodeId(9) }]);
    assert_eq!(
        errors[0].to_string(),
        "`muted` lists node #9, which is not in the graph"
    );
}

#[test]
fn the_mute_is_saved_after_the_nodes_and_an_unmuted_graph_writes_no_muted_field() {
    let mut graph = Graph::default();
    let east = seek(&mut graph, 10.0, 0.0);
    output(&mut graph, east);
    let plain = graph.to_ron().expect("saves");
    assert!(!plain.contains("muted"));
    graph.muted.insert(east);
    let text = graph.to_ron().expect("saves");
    assert!(
        text.contains("    },\n    muted: [\n        1,\n    ],\n"),
        "{text}"
    );
    let back = Graph::from_ron(&text, "muted.graph.ron").expect("loads");
    assert_eq!(back, graph);
}

// -------------------------------------------------------------------------------------------
// Reroute: a bend point that passes any value on and costs nothing at run time.
// -------------------------------------------------------------------------------------------

fn reroute(graph: &mut Graph, input: NodeId) -> NodeId {
    graph.add(Node::Reroute {
        input: Link(Some(input)),
    })
}

#[test]
fn a_chain_of_reroutes_passes_the_force_on_and_compiles_to_no_op() {
    let mut graph = Graph::default();
    let east = seek(&mut graph, 10.0, 0.0);
    let first = reroute(&mut graph, east);
    let second = reroute(&mut graph, first);
    output(&mut graph, second);
    assert_eq!(force(&graph), Vec2::new(5.0, 0.0));
    // Seek and Output only: the compiler links through both Reroutes.
    assert_eq!(compile(&graph).expect("compiles").len(), 2);
    let text = graph.to_ron().expect("saves");
    assert!(
        text.contains("2: Reroute(\n            input: 1,\n        ),"),
        "{text}"
    );
    assert_eq!(
        Graph::from_ron(&text, "reroute.graph.ron").expect("loads"),
        graph
    );
}

#[test]
fn a_reroute_carries_a_scalar_where_scalars_go_and_is_refused_where_forces_go() {
    // Speed -> Reroute -> Compare: a scalar where a scalar is read.
    let mut graph = Graph::default();
    let east = seek(&mut graph, 10.0, 0.0);
    let speed = graph.add(Node::Speed);
    let bend = reroute(&mut graph, speed);
    let compare = graph.add(Node::Compare {
        sensor: Link(Some(bend)),
        test: Comparison::GreaterOrEqual,
        threshold: 0.0.into(),
    });
    let gate = graph.add(Node::Gate {
        input: Link(Some(east)),
        condition: Link(Some(compare)),
    });
    output(&mut graph, gate);
    assert_eq!(force(&graph), Vec2::new(5.0, 0.0));
    assert_eq!(
        graph.output_type(bend),
        Some(graph_runtime::PortType::Scalar)
    );

    // The same scalar routed into the Output, which takes a force: refused at the Output.
    let mut wrong = Graph::default();
    let speed = wrong.add(Node::Speed);
    let bend = reroute(&mut wrong, speed);
    output(&mut wrong, bend);
    let errors = compile(&wrong).expect_err("a scalar is no force");
    assert!(
        matches!(
            errors.as_slice(),
            [CompileError::WrongPortType { found: graph_runtime::PortType::Scalar, source, .. }]
                if *source == bend
        ),
        "{errors:?}"
    );
}

#[test]
fn a_muted_node_behind_a_reroute_is_skipped_and_an_unconnected_reroute_is_reported() {
    let mut graph = Graph::default();
    let (east, north) = east_and_north(&mut graph);
    let bend = reroute(&mut graph, east);
    let blend = graph.add(Node::Blend {
        inputs: vec![weighted(bend, 1.0), weighted(north, 1.0)],
    });
    output(&mut graph, blend);
    assert_eq!(force(&graph), Vec2::new(5.0, 5.0));
    graph.muted.insert(east);
    assert_eq!(force(&graph), Vec2::new(0.0, 5.0));
    graph.muted.clear();
    graph.muted.insert(bend);
    assert_eq!(force(&graph), Vec2::new(0.0, 5.0));

    let mut loose = Graph::default();
    let bend = loose.add(Node::Reroute { input: Link::NONE });
    output(&mut loose, bend);
    let errors = compile(&loose).expect_err("nothing feeds the Reroute");
    assert!(
        errors
            .iter()
            .any(|e| matches!(e, CompileError::UnconnectedInput { node, .. } if *node == bend)),
        "{errors:?}"
    );
}
