//! The node search as a designer uses it: Shift+A over the canvas, a few letters, Enter.

use crate::common;

use egui::{Event, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::{Node, NodeKind};

use app::editor::EditorApp;

/// Opens the search popup with Shift+A and types `query` into it.
fn search(harness: &mut Harness<'static, EditorApp>, query: &str) {
    harness.key_press_modifiers(Modifiers::SHIFT, Key::A);
    harness.run_steps(2);
    assert!(
        harness.state().view.canvas.search_popup.is_some(),
        "Shift+A opens the search"
    );
    harness.event(Event::Text(query.to_owned()));
    harness.run_steps(2);
}

fn count(harness: &Harness<'static, EditorApp>, kind: NodeKind) -> usize {
    crate::common::graph(harness)
        .nodes
        .values()
        .filter(|node| Node::kind(node) == kind)
        .count()
}

#[test]
fn an_abbreviation_and_enter_add_the_top_hit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = common::harness(dir.path());
    let before = count(&harness, NodeKind::ObstacleAvoidance);
    search(&mut harness, "obav");
    // One ranked list: the abbreviation's node, and not the unrelated ones.
    harness.get_by_label("Obstacle Avoidance");
    assert!(harness.query_by_label("Wander").is_none());
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    assert!(harness.state().view.canvas.search_popup.is_none());
    assert_eq!(count(&harness, NodeKind::ObstacleAvoidance), before + 1);
}

#[test]
fn a_typo_still_offers_the_node() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = common::harness(dir.path());
    let before = count(&harness, NodeKind::Pursuit);
    search(&mut harness, "persuit");
    harness.get_by_label("Pursuit").click();
    harness.run_steps(3);
    assert_eq!(count(&harness, NodeKind::Pursuit), before + 1);
}

#[test]
fn nonsense_says_no_node_matches_and_enter_adds_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = common::harness(dir.path());
    let nodes = crate::common::graph(&harness).nodes.len();
    search(&mut harness, "zzzz");
    harness.get_by_label("No node matches");
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert_eq!(crate::common::graph(&harness).nodes.len(), nodes);
    // A click elsewhere closes it, still adding nothing.
    let at = harness
        .state()
        .view
        .canvas
        .search_popup
        .expect("still open");
    common::click_at(&mut harness, at - egui::vec2(150.0, 150.0));
    assert!(harness.state().view.canvas.search_popup.is_none());
    assert_eq!(crate::common::graph(&harness).nodes.len(), nodes);
}

#[test]
fn the_reroute_is_found_and_added_like_any_node() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = common::harness(dir.path());
    let before = count(&harness, NodeKind::Reroute);
    search(&mut harness, "rerout");
    harness.get_by_label("Reroute");
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    assert_eq!(count(&harness, NodeKind::Reroute), before + 1);
}

/// A secondary click at `at`, then two frames.
fn right_click(harness: &mut Harness<'static, EditorApp>, at: egui::Pos2) {
    harness.event(Event::PointerMoved(at));
    for pressed in [true, false] {
        harness.event(Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    harness.run_steps(2);
}

#[test]
fn the_canvas_menu_opens_with_an_empty_search_after_escape() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = common::harness(dir.path());
    // An empty stretch of canvas below the preset's nodes.
    let at = harness.state().view.canvas.rect().left_bottom() + egui::vec2(200.0, -80.0);
    right_click(&mut harness, at);
    harness.get_by_label("Add node");
    harness.event(Event::Text("obav".to_owned()));
    harness.run_steps(2);
    assert_eq!(harness.state().view.canvas.menu_search.query, "obav");
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    assert!(
        harness.query_by_label("Add node").is_none(),
        "Escape closes it"
    );
    // Opened again, it starts empty (every kind listed), and typing goes into it.
    right_click(&mut harness, at);
    assert_eq!(harness.state().view.canvas.menu_search.query, "");
    harness.get_by_label("Wander");
    harness.event(Event::Text("wand".to_owned()));
    harness.run_steps(2);
    assert_eq!(harness.state().view.canvas.menu_search.query, "wand");
}
