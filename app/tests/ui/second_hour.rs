//! The editor's second hour (issue 42), as a person meets it: a stray node does not stop the
//! preview, a Reroute selects by a click anywhere on it, a node's title has its menu, new nodes
//! land clear of others and in view, Align and Distribute, Esc closes the shortcut sheet and
//! dialogs, the side panel keeps its sections in place, independent facing that nothing turns
//! says what to add, and an agent in the air is picked where it is drawn.

use app::editor::{Arrange, Command, Dialog, EditorApp, Then};
use egui::{Event, Key, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::{NodeId, NodeKind};

use crate::common::{EditorHarness, SMALL, click_at, harness, preset_scene_index};

fn node_rect(harness: &Harness<'static, EditorApp>, id: NodeId) -> egui::Rect {
    harness
        .state()
        .view
        .canvas
        .node_screen_rects()
        .find(|(node, _)| *node == id)
        .map(|(_, rect)| rect)
        .expect("the node is drawn")
}

fn added(harness: &mut Harness<'static, EditorApp>, kind: NodeKind, at: Pos2) -> NodeId {
    let before: Vec<NodeId> = crate::common::document(harness).node_ids().collect();
    harness.state_mut().apply(Command::AddNode {
        kind,
        at,
        wire: None,
    });
    harness.run_steps(3);
    crate::common::document(harness)
        .node_ids()
        .find(|id| !before.contains(id))
        .expect("a new node")
}

#[test]
fn a_reroute_that_feeds_nothing_is_a_warning_the_preview_runs_and_a_click_on_it_selects_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let canvas = harness.state().view.canvas.rect();
    let at = harness.state().view.canvas.to_graph(canvas.center());
    let bend = added(&mut harness, NodeKind::Reroute, at);
    let app = harness.state();
    assert!(
        app.workspace.document.problems().is_empty(),
        "{:?}",
        app.workspace.document.problems()
    );
    assert_eq!(
        app.workspace.document.warnings().len(),
        2,
        "{:?}",
        app.workspace.document.warnings()
    );
    assert!(app.preview.host.problems.is_empty(), "the scene runs");
    assert_eq!(app.preview.agent_count(), 400);
    harness.get_by_label("2 warnings");
    harness.get_by_label_contains("warning: node #11 feeds nothing, so it does not run");
    // Nothing selected, then a click on the Reroute's frame beside its dot selects it.
    harness.state_mut().apply(Command::DeselectAll);
    harness.run_steps(2);
    let rect = node_rect(&harness, bend);
    click_at(&mut harness, rect.left_bottom() + egui::vec2(3.0, -3.0));
    assert_eq!(harness.state().workspace.selection.nodes(), &[bend]);
}

#[test]
fn a_right_click_on_a_nodes_title_opens_the_node_menu() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    // The boids' Wander #4: its title is the label "Wander #4".
    // The title sits centred in the header, the node's top line (the canvas is a zoomed
    // layer: its screen rectangle, not the text's own).
    let node = node_rect(&harness, NodeId(4));
    let title = egui::pos2(node.center().x, node.top() + 10.0);
    harness.event(Event::PointerMoved(title));
    harness.step();
    for pressed in [true, false] {
        harness.event(Event::PointerButton {
            pos: title,
            button: PointerButton::Secondary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        harness.step();
    }
    harness.run_steps(2);
    harness.get_by_label("Mute  (M)").click();
    harness.run_steps(2);
    assert!(crate::common::graph(&harness).muted.contains(&NodeId(4)));
}

#[test]
fn a_new_node_lands_clear_of_the_others_and_wholly_in_view() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    // Asked for right on top of Blend #5, and at the canvas's right edge, under the preview.
    let blend = node_rect(&harness, NodeId(5));
    let on_blend = harness.state().view.canvas.to_graph(blend.min);
    let edge = harness
        .state()
        .view
        .canvas
        .to_graph(harness.state().view.canvas.rect().right_center());
    for at in [on_blend, edge] {
        let new = added(&mut harness, NodeKind::Seek, at);
        let app = harness.state();
        let rect = node_rect(&harness, new);
        assert!(
            app.view.canvas.rect().contains_rect(rect),
            "{rect:?} is out of view"
        );
        for (id, other) in app
            .view
            .canvas
            .node_screen_rects()
            .filter(|(id, _)| *id != new)
        {
            assert!(!rect.intersects(other), "the new node covers node {id}");
        }
    }
}

#[test]
fn align_and_distribute_move_the_selection_in_one_undo_step() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    // The boids' Obstacle Avoidance #1, Containment #2 and Wander #4, one above the other at
    // x = 40, and Scale #10 at x = 440.
    let picked = vec![NodeId(1), NodeId(2), NodeId(10)];
    harness.state_mut().apply(Command::Select {
        nodes: picked.clone(),
        add: false,
    });
    harness.run_steps(2);
    harness.get_by_label("Edit").click();
    harness.run_steps(2);
    harness.get_by_label("Arrange ⏵").hover();
    harness.run_steps(2);
    harness.get_by_label("Align right edges").click();
    harness.run_steps(3);
    let right = |h: &Harness<'static, EditorApp>, id: u32| node_rect(h, NodeId(id)).right();
    let edge = right(&harness, 10);
    for id in [1, 2] {
        assert!((right(&harness, id) - edge).abs() < 0.5, "node {id}");
    }
    harness.state_mut().apply(Command::Undo);
    harness.run_steps(3);
    assert!(
        (right(&harness, 1) - edge).abs() > 10.0,
        "one undo puts them back"
    );
    // Distribute vertically: the middle one goes to where the gaps are equal.
    harness
        .state_mut()
        .apply(Command::Arrange(Arrange::DistributeY));
    harness.run_steps(3);
    let mut rects: Vec<egui::Rect> = picked.iter().map(|id| node_rect(&harness, *id)).collect();
    rects.sort_by(|a, b| a.center().y.total_cmp(&b.center().y));
    let gaps = [
        rects[1].top() - rects[0].bottom(),
        rects[2].top() - rects[1].bottom(),
    ];
    assert!((gaps[0] - gaps[1]).abs() < 0.5, "{gaps:?}");
}

#[test]
fn esc_closes_the_shortcut_sheet_and_cancels_a_dialog() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.key_press(Key::F1);
    harness.run_steps(2);
    assert!(harness.state().view.shortcuts_open);
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    assert!(!harness.state().view.shortcuts_open);
    harness.state_mut().apply(Command::SelectAll);
    harness.state_mut().apply(Command::Delete);
    harness.run_steps(2);
    harness.state_mut().guard(Then::New);
    harness.run_steps(2);
    assert!(matches!(
        harness.state().view.dialog,
        Some(Dialog::Unsaved(_))
    ));
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    assert_eq!(harness.state().view.dialog, None);
    assert!(
        crate::common::document(&harness).is_dirty(),
        "cancelled: nothing discarded"
    );
}

#[test]
fn the_side_panel_keeps_its_sections_in_place_when_the_selection_changes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let top = |h: &Harness<'static, EditorApp>| h.get_by_label("Graph parameters").rect().top();
    let before = top(&harness);
    // Flocking #3 has six fields, Output #7 none: the sections below do not move.
    for node in [3, 7, 3] {
        harness.state_mut().apply(Command::Select {
            nodes: vec![NodeId(node)],
            add: false,
        });
        harness.run_steps(2);
        assert_eq!(top(&harness), before, "selecting node {node}");
    }
}

#[test]
fn independent_facing_that_nothing_turns_says_what_to_add() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let mut turning = crate::common::document(&harness).turning.clone();
    turning.independent_facing = true;
    harness.state_mut().apply(Command::SetTurning(turning));
    harness.run_steps(3);
    // In the preview, where the marks are, and in the Vehicle panel.
    harness.get_by_label_contains("independent facing, but no node turns it");
    harness.get_by_label("Vehicle and turning").click();
    harness.run_steps(2);
    harness.get_by_label_contains(
        "No node turns the facing, so agents keep facing where they started",
    );
}

#[test]
fn an_agent_in_the_air_is_picked_where_it_is_drawn_not_by_its_shadow() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let chasm = preset_scene_index("chasm.scene.ron");
    harness.state_mut().apply(Command::OpenPresetScene(chasm));
    harness.state_mut().preview.host.running = false;
    harness.run_steps(3);
    // Zoomed in (40 points a unit), a jump's height lifts the drawn agent well off its shadow.
    harness.state_mut().preview.view.zoom = 40.0;
    // Step until a jumper is drawn at least 3 radii above its shadow.
    let zoom = harness.state().preview.view.zoom;
    let mut flying = None;
    for _ in 0..1200 {
        harness.state_mut().preview.host.step_once();
        let view = harness.state().preview.host.view().expect("runs");
        if let Some(&(agent, height)) = view.airborne.iter().find(|(agent, height)| {
            height * 0.7 > 3.0 * view.vehicles[*agent].radius.max(8.0 / zoom)
        }) {
            flying = Some((agent, height));
            break;
        }
    }
    let (agent, _) = flying.expect("a jumper took off within 20 s");
    harness.run_steps(1);
    let preview = &harness.state().preview;
    let rect = preview.rect().expect("viewport");
    let position = preview.simulation().expect("runs").vehicles()[agent].position;
    let shadow = preview.view.to_screen(rect, position);
    let height = preview
        .host
        .view()
        .expect("runs")
        .airborne
        .iter()
        .find(|(a, _)| *a == agent)
        .expect("in the air")
        .1;
    // Lifted up the screen by 0.7 of its height (`view/jumps.rs`, `lifted`).
    let drawn = shadow + egui::vec2(0.0, -height * preview.view.zoom * 0.7);
    assert!(
        shadow.distance(drawn) > 3.0 * 4.0,
        "drawn well above the shadow, beyond its pick radius"
    );
    assert_eq!(preview.pick_agent(rect, drawn), Some(agent));
}

#[test]
fn at_1024_by_640_a_jump_links_settings_fit_above_the_viewport() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = EditorHarness::new(dir.path()).size(SMALL).build();
    let chasm = preset_scene_index("chasm.scene.ron");
    harness.state_mut().apply(Command::OpenPresetScene(chasm));
    harness.state_mut().preview.host.running = false;
    harness.run_steps(2);
    harness.state_mut().preview.selected_item =
        Some(app::editor::Item::JumpLink("north".to_owned(), None));
    harness.run_steps(3);
    let viewport = harness.state().preview.rect().expect("viewport");
    // Every field of the bar (the link's name, take-off and landing with their heights, and
    // Delete) lies within the preview's width.
    let canvas = harness.state().view.canvas.rect();
    for label in ["jump link", "take-off", "landing", "Delete"] {
        // The preview's, not the Jump nodes' fields on the canvas.
        let rect = harness
            .query_all_by_label(label)
            .map(|node| node.rect())
            .find(|rect| rect.left() > canvas.right())
            .unwrap_or_else(|| panic!("{label} is not in the preview"));
        assert!(
            rect.left() >= viewport.left() - 1.0 && rect.right() <= viewport.right() + 1.0,
            "{label} at {rect:?}, the viewport {viewport:?}"
        );
    }
    // The bar keeps two lines whether or not something is selected: the viewport stays put.
    harness.state_mut().preview.selected_item = None;
    harness.run_steps(3);
    assert_eq!(harness.state().preview.rect(), Some(viewport));
}

#[test]
fn at_1024_by_640_the_side_panels_rows_fit_its_width() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = EditorHarness::new(dir.path()).size(SMALL).build();
    harness.state_mut().preview.host.running = false;
    for section in [
        "Node",
        "Agent",
        "Graph parameters",
        "Vehicle and turning",
        "Scene",
    ] {
        harness.get_by_label(section).click();
        harness.run_steps(2);
    }
    let mut turning = crate::common::document(&harness).turning.clone();
    turning.independent_facing = true;
    harness.state_mut().apply(Command::SetTurning(turning));
    // An empty canvas: its nodes' widgets report unzoomed rectangles that could fall anywhere.
    harness.state_mut().apply(Command::SelectAll);
    harness.state_mut().apply(Command::Delete);
    harness.run_steps(3);
    // The panel's right edge: where the canvas begins, less its resize handle.
    let side = harness.state().view.canvas.rect().left() - 2.0;
    let within = |label: &str, rect: egui::Rect| {
        assert!(
            rect.right() <= side,
            "{label} at {rect:?} runs past the panel ({side})"
        );
    };
    // The last widget of each row: a group's ×, the group's graph marked "open", and the P
    // (bind to a parameter) that ends every number row, the angular fields' among them; each
    // was cut off at the right before.
    let mut checked = 0;
    for label in ["×", "P", "open", "+ group"] {
        for node in harness.query_all_by_label(label) {
            let rect = node.rect();
            if rect.left() < side {
                within(label, rect);
                checked += 1;
            }
        }
    }
    // At least the vehicle's four numbers, the group's × and + group.
    assert!(checked >= 6, "{checked} rows checked");
}
