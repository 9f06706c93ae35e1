//! The angular layer and jumps in the editor (issue 26): a designer draws a gap and places a
//! jump link with the preview's tools, names the link and picks it on a Jump node; sets
//! independent facing in the graph's panel; watches jumpers in the air and reads an agent's
//! facing and jump phase in the inspector; and sees a facing node's live angular value.

use std::path::Path;

use app::editor::{Command, EditorApp};

use crate::common::{EditorHarness, click_at, type_text};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::{Heading, Motion, Node, Target};

/// The editor on the preset graph `file`, paused, frames of a sixtieth of a second.
fn harness(dir: &Path, file: &'static str) -> Harness<'static, EditorApp> {
    EditorHarness::new(&dir.join("autosave"))
        .window()
        .sixtieth()
        .in_app_dialogs(dir)
        .preset(file)
        .paused()
        .build()
}

#[test]
fn a_gap_drawn_with_the_tool_is_one_undoable_edit_in_the_running_world() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path(), "seek.graph.ron");
    assert!(crate::common::scene(&harness).scene.gaps.is_empty());
    harness.get_by_label("Draw gap").click_accesskit();
    harness.run_steps(2);
    let viewport = harness.state().preview.rect().expect("viewport");
    let corners = [
        viewport.center() + egui::vec2(-80.0, -60.0),
        viewport.center() + egui::vec2(80.0, -60.0),
        viewport.center() + egui::vec2(80.0, 60.0),
    ];
    for corner in corners {
        click_at(&mut harness, corner);
    }
    // Not in the scene until it is closed.
    assert!(crate::common::scene(&harness).scene.gaps.is_empty());
    click_at(&mut harness, corners[0]);
    let preview = &harness.state().preview;
    let gaps = &crate::common::scene(&harness).scene.gaps;
    assert_eq!(gaps.len(), 1, "closed by a click on the first corner");
    let expected: Vec<_> = corners
        .iter()
        .map(|c| preview.view.to_world(viewport, *c))
        .collect();
    assert_eq!(gaps[0].points, expected);
    // The running world has it: a point inside is in a gap.
    harness.run_steps(3);
    let inside = (expected[0] + expected[1] + expected[2]) / 3.0;
    let world_has_it = harness
        .state()
        .preview
        .host
        .simulation
        .as_ref()
        .is_some_and(|simulation| simulation.world().in_gap(inside));
    assert!(world_has_it, "the preview's world has the gap");
    harness.state_mut().apply(Command::Undo);
    harness.run_steps(2);
    assert!(
        crate::common::scene(&harness).scene.gaps.is_empty(),
        "one undo takes the whole gap away"
    );
    // Enter closes a gap of three corners too.
    for corner in corners {
        click_at(&mut harness, corner);
    }
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert_eq!(crate::common::scene(&harness).scene.gaps.len(), 1);
}

#[test]
fn a_jump_link_placed_with_two_clicks_is_named_listed_and_offered_to_a_jump_node() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path(), "jumper.graph.ron");
    let before = crate::common::scene(&harness).scene.jump_links.len();
    assert_eq!(before, 2, "the chasm's north and south links");
    harness.get_by_label("Add jump link").click_accesskit();
    harness.run_steps(2);
    let viewport = harness.state().preview.rect().expect("viewport");
    let (from, to) = (
        viewport.center() + egui::vec2(-40.0, 120.0),
        viewport.center() + egui::vec2(40.0, 120.0),
    );
    click_at(&mut harness, from);
    click_at(&mut harness, to);
    let preview = &harness.state().preview;
    let link = crate::common::scene(&harness).scene.jump_links["link 1"];
    assert_eq!(link.from, preview.view.to_world(viewport, from));
    assert_eq!(link.to, preview.view.to_world(viewport, to));
    // Renamed in the bar over the viewport.
    let panel = harness.state().view.canvas.rect().max.x;
    harness
        .get_all_by_value("link 1")
        .find(|field| field.rect().min.x > panel)
        .expect("the name in the bar over the viewport")
        .focus();
    harness.run_steps(1);
    type_text(&mut harness, "ledge");
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    let links = &crate::common::scene(&harness).scene.jump_links;
    assert!(
        links.contains_key("ledge") && !links.contains_key("link 1"),
        "{links:?}"
    );
    // Listed in the Scene panel.
    harness.get_by_label("Scene").click_accesskit();
    harness.run_steps(2);
    assert!(
        harness.query_all_by_value("ledge").count() >= 2,
        "bar and Scene panel"
    );
    // The Jump node's link picker offers the scene's links.
    let names = app::editor::picker_names(
        &crate::common::scene(&harness).scene,
        &crate::common::graph(&harness),
    );
    assert!(names.jump_links.in_scene("ledge"), "{:?}", names.jump_links);
    assert!(names.jump_links.in_scene("north"));
}

#[test]
fn independent_facing_is_set_in_the_vehicle_panel_and_undone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path(), "seek.graph.ron");
    harness
        .get_by_label("Vehicle and turning")
        .click_accesskit();
    harness.run_steps(2);
    assert!(!crate::common::document(&harness).turning.independent_facing);
    harness.get_by_label("independent facing").click_accesskit();
    harness.run_steps(3);
    assert!(crate::common::document(&harness).turning.independent_facing);
    // The preview's agents turn their facing now; the graph saves as version 2.
    let simulation = harness
        .state()
        .preview
        .host
        .simulation
        .as_ref()
        .expect("runs");
    assert!(simulation.vehicles()[0].turning.independent_facing);
    let text = crate::common::graph(&harness).to_ron().expect("text");
    assert!(text.contains("version: 2,") && text.contains("independent_facing: true"));
    harness
        .get_by_label("limit the turn rate")
        .click_accesskit();
    harness.run_steps(2);
    assert!(
        crate::common::document(&harness)
            .turning
            .max_turn_rate
            .is_some()
    );
    harness.state_mut().apply(Command::Undo);
    harness.state_mut().apply(Command::Undo);
    harness.run_steps(2);
    let turning = &crate::common::document(&harness).turning;
    assert!(!turning.independent_facing && turning.max_turn_rate.is_none());
}

#[test]
fn jumpers_fly_in_the_preview_and_the_inspector_shows_facing_and_jump_phase() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path(), "jumper.graph.ron");
    let mut airborne = None;
    for _ in 0..600 {
        let host = &mut harness.state_mut().preview.host;
        host.step_once();
        let simulation = host.simulation.as_ref().expect("runs");
        if let Some((agent, _)) = simulation.airborne().next() {
            airborne = Some(agent);
            break;
        }
    }
    let agent = airborne.expect("a jumper takes off within 10 s");
    let view = harness.state().preview.host.view().expect("a view");
    assert!(
        view.airborne
            .iter()
            .any(|(a, height)| *a == agent && *height >= 0.0)
    );
    harness.state_mut().preview.host.selected_agent = Some(agent);
    harness.run_steps(3);
    harness.get_by_label_contains("in the air: height");
    // Run on: it lands and walks again, and nobody falls.
    for _ in 0..600 {
        harness.state_mut().preview.host.step_once();
    }
    let simulation = harness
        .state()
        .preview
        .host
        .simulation
        .as_ref()
        .expect("runs");
    assert_eq!(simulation.motion(agent), Motion::Walking);
    assert_eq!(simulation.falls(), 0);
    harness.run_steps(2);
    harness.get_by_label("walking");
}

#[test]
fn a_sentry_shows_its_facing_and_the_face_node_its_live_angular_value() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path(), "sentry.graph.ron");
    for _ in 0..120 {
        harness.state_mut().preview.host.step_once();
    }
    harness.state_mut().preview.host.selected_agent = Some(0);
    harness.run_steps(4);
    harness.get_by_label_contains("(independent)");
    // The Face node's live value carries its angular part.
    assert!(
        harness.query_all_by_label_contains("τ").count() >= 1,
        "a live value with τ on the Face or Blend node"
    );
}

#[test]
fn reach_orientation_switches_to_an_agents_facing_in_its_fields() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path(), "wingman.graph.ron");
    // Select the ReachOrientation node (#3), switch it to an angle, then back to an agent.
    harness.state_mut().apply(Command::Select {
        nodes: vec![graph_runtime::NodeId(3)],
        add: false,
    });
    harness.run_steps(3);
    harness
        .get_all_by_label("an angle")
        .next()
        .expect("the choice")
        .click();
    harness.run_steps(3);
    let node = |harness: &Harness<'static, EditorApp>| {
        crate::common::graph(harness)
            .nodes
            .get(&graph_runtime::NodeId(3))
            .cloned()
    };
    assert!(matches!(
        node(&harness),
        Some(Node::ReachOrientation {
            orientation: Heading::Angle(_),
            ..
        })
    ));
    harness
        .get_all_by_label("an agent's facing")
        .next()
        .expect("the choice")
        .click();
    harness.run_steps(3);
    assert!(matches!(
        node(&harness),
        Some(Node::ReachOrientation {
            orientation: Heading::Of(Target::NearestTagged(_)),
            ..
        })
    ));
}
