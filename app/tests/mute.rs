//! Mute and collapse in the editor, driven headless through `egui_kittest`: `M` mutes the
//! selection, the node is drawn as muted, the preview runs the muted graph at once, undo and
//! saving keep the mute; a collapsed node stays collapsed in the saved file.

mod common;

use app::editor::Command;
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
    assert!(
        harness
            .state()
            .document
            .to_graph()
            .muted
            .contains(&PRIORITY)
    );
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
    assert!(harness.state().document.to_graph().muted.is_empty());
    assert!(harness.query_by_label("Priority #6  (muted)").is_none());
    harness.state_mut().apply(Command::Undo);
    harness.run_steps(3);
    assert!(
        harness
            .state()
            .document
            .to_graph()
            .muted
            .contains(&PRIORITY)
    );
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
    assert!(harness.state().document.to_graph().muted.is_empty());
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
    let document = &mut harness.state_mut().document;
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
    let document = &harness.state().document;
    let reopened = document.snarl_id(NodeId(1)).expect("node 1");
    assert!(!document.snarl.get_node_info(reopened).expect("node 1").open);
    assert!(document.to_graph().muted.contains(&PRIORITY));
}
