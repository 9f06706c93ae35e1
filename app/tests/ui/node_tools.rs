//! Mute, collapse and Reroute in the editor, driven headless through `egui_kittest`: `M` mutes
//! the selection, the node is drawn as muted, the preview runs the muted graph at once, undo and
//! saving keep the mute; a collapsed node stays collapsed in the saved file; a Reroute carries
//! a wire of any type and refuses to hand a scalar to a force port.

use crate::common;

use app::editor::{Command, Wire};
use common::harness;
use egui::Key;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::{Graph, NodeId};

/// The boids preset's Priority, which feeds its Output (node 7).
const PRIORITY: NodeId = NodeId(6);

#[test]
fn m_mutes_the_selection_and_the_preview_runs_the_muted_graph_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.state_mut().apply(Command::Select {
        nodes: vec![PRIORITY],
        add: false,
    });
    harness.run_steps(2);
    harness.key_press(Key::M);
    harness.run_steps(3);
    assert!(crate::common::graph(&harness).muted.contains(&PRIORITY));
    harness.get_by_label("Priority #6  (muted)");
    // The Output's only input is muted: every agent's steering force is zero on the next tick.
    harness.state_mut().preview.host.step_once();
    let forces = harness
        .state()
        .preview
        .host
        .simulation
        .as_ref()
        .expect("the preview runs")
        .forces()
        .to_vec();
    assert!(!forces.is_empty() && forces.iter().all(|f| *f == glam::Vec2::ZERO));

    // M again unmutes; undo brings the mute back.
    harness.key_press(Key::M);
    harness.run_steps(3);
    assert!(crate::common::graph(&harness).muted.is_empty());
    assert!(harness.query_by_label("Priority #6  (muted)").is_none());
    harness.state_mut().apply(Command::Undo);
    harness.run_steps(3);
    assert!(crate::common::graph(&harness).muted.contains(&PRIORITY));
}

#[test]
fn the_output_cannot_be_muted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.state_mut().apply(Command::Select {
        nodes: vec![NodeId(7)],
        add: false,
    });
    harness.state_mut().apply(Command::ToggleMute);
    harness.run_steps(2);
    assert!(crate::common::graph(&harness).muted.is_empty());
    harness.get_by_label_contains("The Output cannot be muted.");
}

#[test]
fn a_muted_and_a_collapsed_node_stay_so_through_save_and_open() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.state_mut().apply(Command::Select {
        nodes: vec![PRIORITY],
        add: false,
    });
    harness.state_mut().apply(Command::ToggleMute);
    let document = &mut harness.state_mut().workspace.document;
    let snarl_id = document.snarl_id(NodeId(1)).expect("node 1");
    document.snarl.open_node(snarl_id, false);
    harness.run_steps(3);
    let path = dir.path().join("muted.graph.ron");
    harness.state_mut().apply(Command::SaveTo(path.clone()));
    harness.run_steps(2);
    let saved = Graph::load(&path).expect("saved");
    assert_eq!(saved.muted.iter().copied().collect::<Vec<_>>(), [PRIORITY]);
    let editor = saved.editor.expect("layout saved");
    assert_eq!(
        editor.collapsed.iter().copied().collect::<Vec<_>>(),
        [NodeId(1)]
    );
    harness.state_mut().apply(Command::OpenPath(path));
    harness.run_steps(3);
    let document = &crate::common::document(&harness);
    let reopened = document.snarl_id(NodeId(1)).expect("node 1");
    assert!(!document.snarl.get_node_info(reopened).expect("node 1").open);
    assert!(document.to_graph().muted.contains(&PRIORITY));
}

/// The boids preset's Wander, which feeds input 2 of its Blend (node 5).
const WANDER: NodeId = NodeId(4);
const BLEND: NodeId = NodeId(5);

fn add_reroute(harness: &mut egui_kittest::Harness<'static, app::editor::EditorApp>) -> NodeId {
    let before: Vec<NodeId> = crate::common::graph(harness)
        .nodes
        .keys()
        .copied()
        .collect();
    harness.state_mut().apply(Command::AddNode {
        kind: graph_runtime::NodeKind::Reroute,
        at: egui::pos2(300.0, 600.0),
        wire: Some(Wire::FromOutput(WANDER)),
    });
    harness.run_steps(2);
    let after = crate::common::graph(harness);
    *after
        .nodes
        .keys()
        .find(|id| !before.contains(id))
        .expect("a new node")
}

#[test]
fn a_reroute_bends_a_wire_without_changing_what_the_preview_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let program = crate::common::document(&harness)
        .program()
        .expect("compiles")
        .len();
    let bend = add_reroute(&mut harness);
    // Dropped from Wander's output, the Reroute took the wire; now it feeds the Blend.
    harness.state_mut().apply(Command::Connect {
        from: bend,
        to: BLEND,
        input: 1,
    });
    harness.run_steps(3);
    let graph = crate::common::graph(&harness);
    assert_eq!(
        graph.nodes.get(&bend),
        Some(&graph_runtime::Node::Reroute {
            input: graph_runtime::Link(Some(WANDER))
        })
    );
    assert!(crate::common::document(&harness).problems().is_empty());
    // The compiler links through the Reroute: the program has as many ops as before.
    assert_eq!(
        crate::common::document(&harness)
            .program()
            .expect("compiles")
            .len(),
        program
    );
}

#[test]
fn a_reroute_carrying_a_scalar_cannot_feed_a_force_port() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.state_mut().apply(Command::AddNode {
        kind: graph_runtime::NodeKind::Speed,
        at: egui::pos2(300.0, 700.0),
        wire: None,
    });
    harness.run_steps(2);
    let speed = *crate::common::graph(&harness)
        .nodes
        .iter()
        .find(|(_, n)| matches!(n, graph_runtime::Node::Speed))
        .expect("the Speed node")
        .0;
    let bend = add_reroute(&mut harness);
    harness.state_mut().apply(Command::Connect {
        from: speed,
        to: bend,
        input: 0,
    });
    harness.state_mut().apply(Command::Connect {
        from: bend,
        to: BLEND,
        input: 1,
    });
    harness.run_steps(2);
    let graph = crate::common::graph(&harness);
    let Some(graph_runtime::Node::Blend { inputs }) = graph.nodes.get(&BLEND) else {
        panic!("the Blend");
    };
    assert_eq!(
        inputs[1].node,
        graph_runtime::Link(Some(WANDER)),
        "unchanged"
    );
    harness.get_by_label_contains("takes a steering force, but Reroute");
}
