//! The side panel draws a node's switches and choices by their field's type, as the node table
//! lists them (`Node::choices_mut`): a switch with its label, a number that may be left out, a
//! rectangle, a path's direction and own route. Each is clicked as a designer would, and the
//! graph shows the change; each number shows the unit the table gives its field.

use crate::common::EditorHarness;

use app::editor::{Command, EditorApp};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::{Node, NodeId, Number, PathDirection, Region};

/// The editor on preset `file`, paused, with node `id` selected.
fn selecting(dir: &std::path::Path, file: &'static str, id: u32) -> Harness<'static, EditorApp> {
    let mut harness = EditorHarness::new(&dir.join("autosave"))
        .size(egui::vec2(1400.0, 900.0))
        .preset(file)
        .paused()
        .build();
    harness.state_mut().apply(Command::Select {
        nodes: vec![NodeId(id)],
        add: false,
    });
    harness.run_steps(3);
    harness
}

fn node(harness: &Harness<'static, EditorApp>, id: u32) -> Node {
    crate::common::graph(harness).nodes[&NodeId(id)].clone()
}

/// Whether something labelled `label` is drawn (the selected node's fields are drawn twice: on
/// the node and in the side panel).
fn shown(harness: &Harness<'static, EditorApp>, label: &str) -> bool {
    harness.query_all_by_label(label).next().is_some()
}

/// Clicks the first widget labelled `label`.
fn click(harness: &mut Harness<'static, EditorApp>, label: &str) {
    harness
        .get_all_by_label(label)
        .next()
        .unwrap_or_else(|| panic!("no {label:?}"))
        .click();
    harness.run_steps(3);
}

#[test]
fn a_flees_panic_distance_a_wanders_facing_and_a_containments_rectangle_are_switched() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The prey preset: 1 Containment (the world's bounds), 3 Flee (panic distance 8),
    // 4 Wander (not facing).
    let mut harness = selecting(dir.path(), "prey.graph.ron", 3);
    assert!(harness.query_all_by_value("8.00 u").next().is_some());
    click(&mut harness, "only within a panic distance");
    let Node::Flee { panic_distance, .. } = node(&harness, 3) else {
        panic!("node 3 is the Flee");
    };
    assert_eq!(panic_distance, None, "switched off: flee at any distance");
    click(&mut harness, "only within a panic distance");
    let Node::Flee { panic_distance, .. } = node(&harness, 3) else {
        panic!("node 3 is the Flee");
    };
    assert_eq!(
        panic_distance,
        Some(Number::Literal(10.0)),
        "on again at 10"
    );

    harness.state_mut().apply(Command::Select {
        nodes: vec![NodeId(4)],
        add: false,
    });
    harness.run_steps(3);
    // Each number shows the unit the node table gives it: the wander circle 3 units ahead, its
    // target turned at up to 90°/s.
    assert!(
        harness.query_all_by_value("3.00 u").next().is_some(),
        "distance"
    );
    assert!(
        harness.query_all_by_value("90.00°/s").next().is_some(),
        "jitter"
    );
    click(&mut harness, "face the wander target");
    assert!(matches!(node(&harness, 4), Node::Wander { face: true, .. }));

    harness.state_mut().apply(Command::Select {
        nodes: vec![NodeId(1)],
        add: false,
    });
    harness.run_steps(3);
    click(&mut harness, "own rectangle");
    let Node::Containment { bounds, .. } = node(&harness, 1) else {
        panic!("node 1 is the Containment");
    };
    assert_eq!(
        bounds,
        Region::Rect((-10.0).into(), (-10.0).into(), 10.0.into(), 10.0.into())
    );
    // Its corners are edited beside it.
    assert!(shown(&harness, "min_x"));
}

#[test]
fn a_path_follower_turns_back_and_follows_its_own_route() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The patrol preset: 1 PathFollowing on the world path "loop", forward, not corrective.
    let mut harness = selecting(dir.path(), "patrol.graph.ron", 1);
    assert!(shown(&harness, "path"));
    // Prediction 0.4 s, ahead 3 units.
    assert!(harness.query_all_by_value("0.40 s").next().is_some());
    assert!(harness.query_all_by_value("3.00 u").next().is_some());
    assert!(!shown(&harness, "own route"));
    click(&mut harness, "Backward");
    click(&mut harness, "corrective");
    click(&mut harness, "the agent's own route");
    let Node::PathFollowing {
        direction,
        corrective,
        own,
        path,
        ..
    } = node(&harness, 1)
    else {
        panic!("node 1 is the PathFollowing");
    };
    assert_eq!(
        (direction, corrective, own, path.as_str()),
        (PathDirection::Backward, true, true, "loop")
    );
    // The name is now an own route's: the picker says so.
    assert!(shown(&harness, "own route"));
}
