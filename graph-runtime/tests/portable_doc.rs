//! `BEHAVIORS.md`, "On the GPU", lists exactly the node kinds another backend is given
//! (`Program::portable`): each leaf kind lowers when, and only when, the section names it.

use glam::Vec2;
use graph_runtime::{Bindings, Graph, NodeId, NodeKind, PortType, Rect, TagTable, World, compile};

const DOC: &str = include_str!("../BEHAVIORS.md");

/// The section's first paragraph: the family, up to the sentence on other nodes.
fn family_paragraph() -> &'static str {
    let section = DOC
        .split("## On the GPU")
        .nth(1)
        .expect("the section exists");
    section
        .split("Any other node")
        .next()
        .expect("the family comes first")
}

/// Whether `kind`, alone before an Output (a sensor through a Compare and a Gate), lowers.
fn lowers(kind: NodeKind) -> bool {
    let frame = r#"(format: "steergraph.graph", version: 1, nodes: {
        2: Seek(target: Point(1.0, 0.0)),
        3: Compare(sensor: 7, test: Greater, threshold: 0.0),
        4: Gate(input: 2, condition: 3), 5: Gate(input: 2, condition: 7),
        1: Output(input: 2)})"#;
    let mut graph = Graph::from_ron(frame, "kinds.graph.ron").expect("parses");
    graph.nodes.insert(NodeId(7), kind.instantiate());
    let into_output = match kind.output() {
        PortType::Steering => 7,
        PortType::Scalar => 4,
        PortType::Condition => 5,
    };
    let output = Graph::from_ron(
        &format!(r#"(format: "steergraph.graph", version: 1, nodes: {{1: Output(input: {into_output})}})"#),
        "output.graph.ron",
    )
    .expect("parses");
    graph
        .nodes
        .insert(NodeId(1), output.nodes[&NodeId(1)].clone());
    // Names a new node leaves empty (a path, a field) are filled in.
    let text = graph.to_ron().expect("writes").replace("\"\"", "\"x\"");
    let graph = Graph::from_ron(&text, "kinds.graph.ron").expect("parses");
    let program = compile(&graph).unwrap_or_else(|e| panic!("{kind}: {e:?}"));
    let world = World::new(Rect::new(Vec2::splat(-10.0), Vec2::splat(10.0)));
    let (bindings, _) = Bindings::new(&program, &world, &TagTable::default());
    program
        .portable(&program.default_parameters(), &bindings, &world)
        .is_ok()
}

#[test]
fn the_gpu_section_names_exactly_the_kinds_that_lower() {
    let paragraph = family_paragraph();
    let named = |kind: NodeKind| {
        paragraph
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| word == kind.to_string())
    };
    let mut lowered = 0;
    for &kind in NodeKind::ALL
        .iter()
        .filter(|k| !k.takes_inputs() && **k != NodeKind::Subgraph)
    {
        let lowers = lowers(kind);
        assert_eq!(
            lowers,
            named(kind),
            "{kind}: lowers {lowers}, named {}",
            named(kind)
        );
        lowered += usize::from(lowers);
    }
    assert_eq!(lowered, 13, "the family's leaves");
    for combiner in [
        NodeKind::Blend,
        NodeKind::Priority,
        NodeKind::Budget,
        NodeKind::Scale,
        NodeKind::Truncate,
    ] {
        assert!(named(combiner), "{combiner}");
    }
    for refused in [NodeKind::Dither, NodeKind::Gate, NodeKind::Reciprocal] {
        assert!(!named(refused), "{refused}");
    }
}
