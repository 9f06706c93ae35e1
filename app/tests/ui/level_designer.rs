//! A level designer builds a real level without a text editor (issue 24): one test per item
//! that broke or confused a new user, driven through the editor as the user did (clicks, keys,
//! the menus), checking what the user relies on.

use std::path::Path;

use crate::common::{EditorHarness, click_with, new_field_over_bounds, preset_index, type_text};
use app::editor::{Command, Dialog, EditorApp};
use egui::{Event, Key, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use glam::Vec2;
use graph_runtime::{FlowFieldSource, Graph, Node, NodeId, SceneAssets, Simulation, Target};

/// The level designer's editor: its autosave and in-app dialogs in `dir`.
fn editor(dir: &Path) -> EditorHarness {
    EditorHarness::new(&dir.join("autosave"))
        .in_app_dialogs(dir)
        .sixtieth()
}

fn harness(dir: &Path) -> Harness<'static, EditorApp> {
    editor(dir).window().build()
}

/// The editor as `harness` leaves it, then preset `file` opened and `steps` frames run.
fn opened(dir: &Path, file: &str, steps: usize) -> Harness<'static, EditorApp> {
    let mut harness = harness(dir);
    harness
        .state_mut()
        .apply(Command::OpenPreset(preset_index(file)));
    harness.run_steps(steps);
    harness
}

/// Every node's rectangle on screen lies inside the canvas.
fn every_node_inside_the_canvas(harness: &Harness<'static, EditorApp>) -> Result<(), String> {
    let app = harness.state();
    let canvas = app.view.canvas.rect();
    let rects: Vec<_> = app.view.canvas.node_screen_rects().collect();
    if rects.len() != app.workspace.document.snarl.nodes().count() {
        return Err(format!("{} of the nodes drawn", rects.len()));
    }
    match rects.iter().find(|(_, r)| !canvas.contains_rect(*r)) {
        Some((id, rect)) => Err(format!("node {id} at {rect:?} is not inside {canvas:?}")),
        None => Ok(()),
    }
}

// 1. Framing.

#[test]
fn the_boids_preset_opens_with_every_node_inside_the_canvas_at_a_readable_size() {
    let dir = tempfile::tempdir().expect("temp dir");
    let harness = harness(dir.path());
    every_node_inside_the_canvas(&harness).expect("framed");
    let scale = harness.state().view.canvas.transform().scaling;
    assert!(scale >= 0.72, "node text readable: zoom {scale}");
}

#[test]
fn frame_all_with_nothing_selected_shows_every_node_of_the_corridor() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = opened(dir.path(), "corridor.graph.ron", 4);
    // Zoom in over the canvas so that most nodes leave it, as after working on one.
    let centre = harness.state().view.canvas.rect().center();
    harness.event(Event::PointerMoved(centre));
    for _ in 0..6 {
        harness.event(Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, 120.0),
            modifiers: Modifiers::NONE,
            phase: egui::TouchPhase::Move,
        });
        harness.step();
    }
    // Wheel zoom is smoothed over a few frames.
    harness.run_steps(30);
    assert!(every_node_inside_the_canvas(&harness).is_err(), "zoomed in");
    assert!(harness.state().workspace.selection.is_empty());
    harness.key_press(Key::F);
    harness.run_steps(3);
    every_node_inside_the_canvas(&harness).expect("F with nothing selected frames all");
    // Home does too, from anywhere on the canvas.
    for _ in 0..6 {
        harness.event(Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, 120.0),
            modifiers: Modifiers::NONE,
            phase: egui::TouchPhase::Move,
        });
        harness.step();
    }
    harness.run_steps(30);
    assert!(
        every_node_inside_the_canvas(&harness).is_err(),
        "zoomed in again"
    );
    harness.key_press(Key::Home);
    harness.run_steps(3);
    every_node_inside_the_canvas(&harness).expect("Home frames all");
}

// 2. Targets are scene objects.

#[test]
fn a_target_added_with_the_tool_is_renamed_undone_and_used_by_seek_and_toward_target() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = opened(dir.path(), "seek.graph.ron", 4);
    harness.state_mut().preview.host.running = false;
    let before = crate::common::scene(&harness).scene.targets.len();
    harness.get_by_label("Add target").click_accesskit();
    harness.run_steps(2);
    let viewport = harness.state().preview.rect().expect("viewport");
    let at = viewport.center() + egui::vec2(-60.0, 40.0);
    click_with(&mut harness, at, PointerButton::Primary, Modifiers::NONE);
    let preview = &harness.state().preview;
    let world = preview.view.to_world(viewport, at);
    assert_eq!(
        crate::common::scene(&harness).scene.targets.len(),
        before + 1
    );
    assert_eq!(
        crate::common::scene(&harness).scene.targets["target 1"],
        world
    );
    // Named in the bar above the viewport: typed, then Enter.
    let panel = harness.state().view.canvas.rect().max.x;
    harness
        .get_all_by_value("target 1")
        .find(|field| field.rect().min.x > panel)
        .expect("the name in the bar over the viewport")
        .focus();
    harness.run_steps(1);
    type_text(&mut harness, "goal");
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    let targets = &crate::common::scene(&harness).scene.targets;
    assert_eq!(targets.get("goal"), Some(&world), "{targets:?}");
    assert!(!targets.contains_key("target 1"));
    // Listed in the Scene panel, and offered by Seek's target picker.
    harness.get_by_label("Scene").click_accesskit();
    harness.run_steps(2);
    assert!(
        harness.query_all_by_value("goal").count() >= 2,
        "bar and Scene panel"
    );
    aim_seek_and_the_field_at(&mut harness, "goal", world);
    // Undo walks back: the generated field, the new field, Seek's target, the rename, the
    // new target, one step each.
    for _ in 0..4 {
        harness.state_mut().apply(Command::Undo);
    }
    harness.run_steps(2);
    let targets = &crate::common::scene(&harness).scene.targets;
    assert!(
        targets.contains_key("target 1") && !targets.contains_key("goal"),
        "{targets:?}"
    );
    harness.state_mut().apply(Command::Undo);
    harness.run_steps(2);
    assert_eq!(
        crate::common::scene(&harness).scene.targets.len(),
        before,
        "undone"
    );
}

/// Points the open graph's Seek at target `name` (at `world`), checks the running world has it
/// there, and generates a new field "field 1" toward it, which points at it.
fn aim_seek_and_the_field_at(harness: &mut Harness<'static, EditorApp>, name: &str, world: Vec2) {
    // Seek aims at it: every agent's force points at the goal.
    let seek = crate::common::graph(harness)
        .nodes
        .iter()
        .find_map(|(id, n)| matches!(n, Node::Seek { .. }).then_some(*id))
        .expect("a Seek");
    harness.state_mut().apply(Command::SetNode(
        seek,
        Node::Seek {
            target: Target::Named(name.to_owned()),
        },
    ));
    harness.run_steps(3);
    let mean_distance = |harness: &Harness<'static, EditorApp>| {
        let simulation = harness.state().preview.simulation().expect("runs");
        assert_eq!(simulation.world().target(name), Some(world));
        let seekers = simulation.groups()[0].agents.clone();
        let total: f32 = seekers
            .clone()
            .map(|a| simulation.vehicles()[a].position.distance(world))
            .sum();
        total / seekers.len() as f32
    };
    // A second and a half: at most 8 u/s from about 20 units away, they close in by more
    // than a fifth (measured: 20.6 to 14.8).
    let before = mean_distance(harness);
    for _ in 0..90 {
        harness.state_mut().preview.host.step_once();
    }
    let after = mean_distance(harness);
    assert!(
        after < 0.8 * before,
        "the seekers close in: {before} to {after}"
    );
    // The field's Toward target leads to it.
    new_field_over_bounds(harness);
    name.clone_into(&mut harness.state_mut().preview.paint.target);
    harness.get_by_label("Toward target").click_accesskit();
    harness.run_steps(2);
    let field = &crate::common::scene(harness).fields["field 1"];
    let probe = world + Vec2::new(12.0, 0.0);
    let arrow = field.sample(probe);
    assert!(
        arrow.x < -0.9,
        "12 units east of the goal the field points west: {arrow}"
    );
}

#[test]
fn right_click_in_the_viewport_adds_a_target_there() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.state_mut().preview.host.running = false;
    let viewport = harness.state().preview.rect().expect("viewport");
    let at = viewport.center() + egui::vec2(80.0, -50.0);
    click_with(&mut harness, at, PointerButton::Secondary, Modifiers::NONE);
    harness.get_by_label("Add target here").click_accesskit();
    harness.run_steps(3);
    let preview = &harness.state().preview;
    let world = preview.view.to_world(viewport, at);
    assert_eq!(
        harness
            .state()
            .workspace
            .scene
            .scene
            .targets
            .get("target 1"),
        Some(&world)
    );
}

#[test]
fn toward_target_on_the_cursor_leads_to_where_the_cursor_is_drawn() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The seek scene stores a position for `cursor` (10, 5); the marker follows the mouse.
    let mut harness = opened(dir.path(), "seek.graph.ron", 4);
    new_field_over_bounds(&mut harness);
    // The pointer rests over the viewport (the cursor target follows it), then goes to the
    // panel to press the button.
    let viewport = harness.state().preview.rect().expect("viewport");
    let hover = viewport.center() + egui::vec2(120.0, 30.0);
    harness.event(Event::PointerMoved(hover));
    harness.run_steps(3);
    let drawn = harness
        .state()
        .preview
        .simulation()
        .and_then(|s| s.world().target("cursor"))
        .expect("the cursor target");
    assert!(
        drawn.distance(harness.state().preview.view.to_world(viewport, hover)) < 1e-3,
        "drawn under the pointer"
    );
    "cursor".clone_into(&mut harness.state_mut().preview.paint.target);
    harness.get_by_label("Toward target").click_accesskit();
    harness.run_steps(2);
    let field = &crate::common::scene(&harness).fields["field 1"];
    for offset in [
        Vec2::new(6.0, 0.0),
        Vec2::new(-6.0, 0.0),
        Vec2::new(0.0, 6.0),
    ] {
        let arrow = field.sample(drawn + offset);
        let toward = (-offset).normalize();
        assert!(
            arrow.normalize().dot(toward) > 0.9,
            "at {offset} from the drawn cursor the field points {arrow}, not at it"
        );
    }
}

// 3. Name pickers list what exists now.

#[test]
fn a_flow_field_following_node_offers_the_field_just_created_not_preset_names() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.state_mut().apply(Command::New);
    harness.run_steps(3);
    harness.state_mut().apply(Command::AddNode {
        kind: graph_runtime::NodeKind::FlowFieldFollowing,
        at: egui::pos2(-300.0, 0.0),
        wire: Some(app::editor::Wire::IntoInput(NodeId(1), 0)),
    });
    harness.run_steps(3);
    new_field_over_bounds(&mut harness);
    harness.run_steps(1);
    // The node's name picker (the small combo beside its field name).
    let node = harness
        .state()
        .workspace
        .selection
        .primary()
        .expect("the new node is selected");
    let names: Vec<String> = {
        let app = harness.state();
        let scene = &app.workspace.scene.scene;
        assert!(scene.flow_fields.contains_key("field 1"));
        let graph = app.workspace.document.to_graph();
        let names = app::editor::picker_names(scene, &graph);
        names.flow_fields.scene.clone()
    };
    assert_eq!(names, ["field 1"], "the open scene's fields only");
    // Picking it from the list on the node sets the node's field.
    let (_, on_canvas) = harness
        .state()
        .view
        .canvas
        .node_screen_rects()
        .find(|(id, _)| *id == node)
        .expect("drawn");
    // Widgets on the canvas may report their place before or after the canvas's zoom.
    let in_graph = harness.state().view.canvas.transform().inverse() * on_canvas;
    let combo = harness
        .get_all_by_role(egui::accesskit::Role::ComboBox)
        .find(|c| on_canvas.contains_rect(c.rect()) || in_graph.contains_rect(c.rect()))
        .expect("the node's field picker");
    combo.click_accesskit();
    harness.run_steps(2);
    assert!(harness.query_by_label("river").is_none(), "no preset names");
    harness.get_by_label("field 1").click();
    harness.run_steps(3);
    match crate::common::document(&harness).node(node) {
        Some(Node::FlowFieldFollowing { field, .. }) => assert_eq!(field, "field 1"),
        other => panic!("{other:?}"),
    }
}

// 4. Selection.

#[test]
fn a_click_on_empty_canvas_and_esc_clear_the_selection_and_delete_then_deletes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.state_mut().apply(Command::Select {
        nodes: vec![NodeId(4)],
        add: false,
    });
    harness.run_steps(2);
    // Empty canvas: below every node.
    let canvas = harness.state().view.canvas.rect();
    let lowest = harness
        .state()
        .view
        .canvas
        .node_screen_rects()
        .map(|(_, r)| r.max.y)
        .fold(f32::MIN, f32::max);
    let empty = Pos2::new(canvas.center().x, (lowest + canvas.max.y) * 0.5 + 20.0);
    assert!(canvas.contains(empty));
    click_with(&mut harness, empty, PointerButton::Primary, Modifiers::NONE);
    assert!(
        harness.state().workspace.selection.is_empty(),
        "a click on empty canvas"
    );
    harness.state_mut().apply(Command::Select {
        nodes: vec![NodeId(4)],
        add: false,
    });
    harness.run_steps(2);
    harness.event(Event::PointerMoved(empty));
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    assert!(harness.state().workspace.selection.is_empty(), "Esc");
    let nodes = crate::common::graph(&harness).nodes.len();
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert_eq!(crate::common::graph(&harness).nodes.len(), nodes);
    assert_eq!(
        harness.state().status.text(),
        Some("Select nodes to delete them.")
    );
}

// 5. Subgraphs in context.

fn seek_graph(x: f32) -> String {
    format!(
        "(format: \"steergraph.graph\", version: 1,\n nodes: {{1: Seek(target: Point({x:?}, 0.0)), 2: Output(input: 1)}})\n"
    )
}

/// A level: `main.graph.ron` runs `part.graph.ron` (a Seek east) as a subgraph, in
/// `main.scene.ron` with one agent at rest at the origin.
fn level(dir: &Path) -> std::path::PathBuf {
    std::fs::write(dir.join("part.graph.ron"), seek_graph(1000.0)).expect("write");
    std::fs::write(
        dir.join("main.graph.ron"),
        "(format: \"steergraph.graph\", version: 1,\n nodes: {1: Subgraph(file: \"part.graph.ron\"), 2: Seek(target: Point(0.0, 500.0)), 3: Output(input: 1)},\n editor: Some((positions: {1: (0.0, 0.0), 2: (0.0, 200.0), 3: (400.0, 0.0)})))\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("main.scene.ron"),
        "(format: \"steergraph.scene\", version: 1,\n bounds: (min: (-2000.0, -2000.0), max: (2000.0, 2000.0)),\n groups: [(name: \"a\", graph: \"main.graph.ron\", spawn: Agents([(position: (0.0, 0.0))]))])\n",
    )
    .expect("write");
    dir.join("main.graph.ron")
}

fn agent_velocity(harness: &Harness<'static, EditorApp>) -> Vec2 {
    harness
        .state()
        .preview
        .simulation()
        .expect("runs")
        .vehicles()[0]
        .velocity
}

#[test]
fn a_subgraph_opens_in_context_the_parents_scene_runs_it_and_one_click_goes_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let main = level(dir.path());
    let mut editor = editor(dir.path()).window();
    editor.app().open(&main);
    let mut harness = editor.build();
    harness.state_mut().apply(Command::Select {
        nodes: vec![NodeId(2)],
        add: false,
    });
    harness.state_mut().preview.host.running = false;
    harness.state_mut().preview.host.step_once();
    harness.run_steps(2);
    assert!(agent_velocity(&harness).x > 0.0, "the subgraph's Seek east");
    let time = harness.state().preview.host.time;
    // The Subgraph node's Open button.
    harness.get_by_label("Open").click_accesskit();
    harness.run_steps(4);
    let app = harness.state();
    assert_eq!(app.workspace.document.title(), "part.graph.ron");
    assert_eq!(
        app.workspace.scene.name(),
        "main.scene.ron",
        "the level's scene"
    );
    assert_eq!(app.preview.host.time, time, "still running, not reset");
    assert!(
        app.workspace
            .title()
            .starts_with("main.graph.ron › part.graph.ron")
    );
    // Edit the subgraph (not saved): the level's agent turns west.
    harness.state_mut().apply(Command::SetNode(
        NodeId(1),
        Node::Seek {
            target: Target::Point((-1000.0).into(), 0.0.into()),
        },
    ));
    harness.run_steps(3);
    let before = agent_velocity(&harness);
    harness.state_mut().preview.host.step_once();
    harness.run_steps(1);
    let after = agent_velocity(&harness);
    assert!(
        after.x < before.x,
        "hot-swapped: slowing from {before} to {after}"
    );
    // Reset keeps the edited subgraph too.
    harness.get_by_label("Reset").click_accesskit();
    harness.run_steps(2);
    harness.state_mut().preview.host.step_once();
    harness.run_steps(1);
    assert!(agent_velocity(&harness).x < 0.0, "after Reset");
    // Back: the breadcrumb's parent asks about the unsaved subgraph; Save writes it.
    harness.get_by_label("main.graph.ron").click_accesskit();
    harness.run_steps(2);
    assert_eq!(
        harness.state().view.dialog,
        Some(Dialog::Unsaved(app::editor::Then::Up))
    );
    harness.get_by_label("Save").click_accesskit();
    harness.run_steps(4);
    let app = harness.state();
    assert_eq!(app.workspace.document.title(), "main.graph.ron");
    assert_eq!(
        app.workspace.selection.nodes(),
        &[NodeId(2)],
        "the selection it had"
    );
    assert!(!app.workspace.context.is_open());
    let saved = Graph::load(&dir.path().join("part.graph.ron")).expect("saved");
    assert!(matches!(saved.nodes[&NodeId(1)], Node::Seek { .. }));
    let before = agent_velocity(&harness);
    harness.state_mut().preview.host.step_once();
    harness.run_steps(1);
    assert!(
        agent_velocity(&harness).x < before.x,
        "the parent runs the saved file"
    );
}

#[test]
fn a_collapsed_subgraph_node_overlaps_no_other_node() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("boids.graph.ron");
    std::fs::write(&file, app::editor::PRESET_GRAPHS[0].text).expect("write");
    let mut editor = editor(dir.path()).window();
    editor.app().open(&file);
    let mut harness = editor.build();
    // Flocking, Wander and Separation #8 feed the Blend; cutting them with the Blend leaves
    // the Subgraph node where they were, among the Containment and the Priority.
    harness.state_mut().apply(Command::Select {
        nodes: vec![NodeId(3), NodeId(4), NodeId(8), NodeId(5)],
        add: false,
    });
    harness.run_steps(2);
    harness.state_mut().apply(Command::Picked(
        app::editor::Purpose::SaveSubgraph,
        dir.path().join("flock.graph.ron"),
    ));
    harness.run_steps(4);
    let rects: Vec<_> = harness.state().view.canvas.node_screen_rects().collect();
    for (i, (a, ra)) in rects.iter().enumerate() {
        for (b, rb) in &rects[i + 1..] {
            assert!(
                !ra.intersects(*rb),
                "node {a} at {ra:?} overlaps node {b} at {rb:?}"
            );
        }
    }
}

// 6. Small windows.

#[test]
fn at_1024_by_640_the_canvas_side_panel_and_preview_are_all_usable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = editor(dir.path()).size(egui::vec2(1024.0, 640.0)).build();
    let canvas = harness.state().view.canvas.rect();
    let preview = harness
        .state()
        .preview
        .rect()
        .expect("the preview's viewport");
    assert!(canvas.width() >= 0.4 * 1024.0 - 1.0, "canvas {canvas:?}");
    assert!(canvas.height() >= 400.0, "canvas {canvas:?}");
    assert!(
        preview.width() >= 200.0 && preview.height() >= 150.0,
        "preview {preview:?}"
    );
    harness.get_by_label("Graph parameters");
    // N hides the side panel, P the preview: the canvas grows; both come back.
    harness.key_press(Key::N);
    harness.key_press(Key::P);
    harness.run_steps(12);
    let wide = harness.state().view.canvas.rect();
    assert!(wide.width() > 1024.0 - 80.0, "canvas alone {wide:?}");
    harness.get_by_label("›").click_accesskit();
    harness.get_by_label("‹").click_accesskit();
    harness.run_steps(12);
    assert_eq!(harness.state().view.canvas.rect(), canvas);
    // The smallest window still has a canvas.
    let small = editor(dir.path()).size(egui::vec2(800.0, 500.0)).build();
    let canvas = small.state().view.canvas.rect();
    assert!(
        canvas.width() >= 300.0 && canvas.height() >= 250.0,
        "canvas {canvas:?}"
    );
}

// 7. Export for game.

#[test]
fn export_for_game_writes_a_folder_that_runs_with_consistent_names() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = opened(dir.path(), "river.graph.ron", 3);
    // A new field painted in this scene, followed by the graph under its name "field 1".
    new_field_over_bounds(&mut harness);
    let app = harness.state_mut();
    let mut graph = app.workspace.document.to_graph();
    let follower = graph
        .nodes
        .iter()
        .find_map(|(id, n)| matches!(n, Node::FlowFieldFollowing { .. }).then_some(*id))
        .expect("the river's field node");
    if let Some(Node::FlowFieldFollowing { field, .. }) = graph.nodes.get_mut(&follower) {
        "field 1".clone_into(field);
    }
    let node = graph.nodes[&follower].clone();
    app.apply(Command::SetNode(follower, node));
    harness.run_steps(2);
    let out = dir.path().join("game");
    std::fs::create_dir(&out).expect("dir");
    assert!(
        harness
            .state_mut()
            .export_to(&out.join("swimmers.graph.ron"))
    );
    // A scene that runs it, naming the file written for "field 1".
    let scene_path = out.join("swimmers.scene.ron");
    let assets = SceneAssets::load(&scene_path).expect("the exported scene loads");
    assert_eq!(assets.scene.groups[0].graph, "swimmers.graph.ron");
    assert_eq!(
        assets.scene.flow_fields.get("field 1"),
        Some(&FlowFieldSource::File("field_1.flow.ron".to_owned()))
    );
    assert!(out.join("field_1.flow.ron").exists());
    assert_eq!(
        Graph::load(&out.join("swimmers.graph.ron"))
            .expect("graph")
            .editor,
        None
    );
    let mut simulation = Simulation::new(&assets).expect("runs as exported");
    simulation.step(1.0 / 60.0);
    assert_eq!(simulation.vehicles().len(), 60);
}

#[test]
fn export_refuses_to_replace_the_graphs_own_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("boids.graph.ron");
    std::fs::write(&file, app::editor::PRESET_GRAPHS[0].text).expect("write");
    let mut editor = editor(dir.path());
    let app = editor.app();
    app.open(&file);
    assert!(!app.export_to(&file));
    let Some(Dialog::Error(message)) = &app.view.dialog else {
        panic!("an error: {:?}", app.view.dialog)
    };
    assert!(message.contains("without its editor layout"), "{message}");
    assert!(Graph::load(&file).expect("kept").editor.is_some());
}

#[test]
fn the_export_dialog_opens_in_the_graphs_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("my level");
    std::fs::create_dir(&folder).expect("dir");
    let file = folder.join("boids.graph.ron");
    std::fs::write(&file, app::editor::PRESET_GRAPHS[0].text).expect("write");
    let mut harness = harness(dir.path());
    // A scene saved through the dialog in `dir` first: the dialog's last folder.
    harness.state_mut().apply(Command::SaveSceneAs);
    harness.run_steps(3);
    harness.get_by_label("Save").click_accesskit();
    harness.run_steps(3);
    assert!(!harness.state().services.files.is_open());
    harness.state_mut().open(&file);
    harness.run_steps(3);
    harness.state_mut().apply(Command::Export);
    harness.run_steps(3);
    assert!(harness.state().services.files.is_open());
    // The dialog's path shows the graph's folder, not the last one used.
    harness.get_by_label("my level");
}

// 8. Discoverability.

#[test]
fn f1_shows_the_shortcut_sheet_and_help_shows_the_version() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.key_press(Key::F1);
    harness.run_steps(2);
    harness.get_by_label("Keyboard shortcuts");
    harness.get_by_label("find a node by name or id and frame it");
    harness.key_press(Key::F1);
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label("find a node by name or id and frame it")
            .is_none(),
        "F1 again closes it"
    );
    harness.get_by_label("Help").click();
    harness.run_steps(2);
    harness.get_by_label_contains(&format!(
        "file format version {}",
        graph_runtime::FORMAT_VERSION
    ));
    harness.get_by_label("The editor (README)");
}

#[test]
fn ctrl_f_finds_a_node_by_name_selects_it_and_frames_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.key_press_modifiers(Modifiers::COMMAND, Key::F);
    harness.run_steps(2);
    harness.event(Event::Text("wander".to_owned()));
    harness.run_steps(2);
    harness.key_press(Key::Enter);
    harness.run_steps(4);
    assert_eq!(harness.state().workspace.selection.nodes(), &[NodeId(4)]);
    let (_, rect) = harness
        .state()
        .view
        .canvas
        .node_screen_rects()
        .find(|(id, _)| *id == NodeId(4))
        .expect("drawn");
    let canvas = harness.state().view.canvas.rect();
    assert!(canvas.contains_rect(rect));
    assert!(
        rect.center().distance(canvas.center()) < 20.0,
        "framed on it"
    );
}

#[test]
fn open_recent_lists_the_scenes_saved() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let scene = dir.path().join("mine.scene.ron");
    harness
        .state_mut()
        .apply(Command::SaveSceneTo(scene.clone()));
    harness.run_steps(2);
    assert_eq!(
        harness.state().settings.recent_scenes,
        std::slice::from_ref(&scene)
    );
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label("Open recent ⏵").hover();
    harness.run_steps(2);
    harness.get_by_label(&scene.display().to_string());
}

#[test]
fn typing_a_number_into_a_field_is_one_undo_step() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.state_mut().apply(Command::Select {
        nodes: vec![NodeId(4)],
        add: false,
    });
    harness.run_steps(2);
    // Wander #4's distance, 3.00 u, in the side panel.
    let side = harness.state().view.canvas.rect().min.x;
    harness
        .get_all_by_value("3.00 u")
        .find(|f| f.rect().max.x < side)
        .expect("the distance field in the side panel")
        .focus();
    harness.run_steps(1);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    for digit in ["1", "5"] {
        harness.event(Event::Text(digit.to_owned()));
        harness.step();
    }
    harness.key_press(Key::Enter);
    harness.run_steps(3);
    let distance = |app: &EditorApp| match app.workspace.document.node(NodeId(4)) {
        Some(Node::Wander { distance, .. }) => distance.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(distance(harness.state()), 15.0.into());
    harness.state_mut().apply(Command::Undo);
    harness.run_steps(2);
    assert_eq!(
        distance(harness.state()),
        3.0.into(),
        "one undo: back to 3, not 1"
    );
}

#[test]
fn a_reroute_is_a_small_dot_not_a_titled_node() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    harness.state_mut().apply(Command::AddNode {
        kind: graph_runtime::NodeKind::Reroute,
        at: egui::pos2(-400.0, -200.0),
        wire: None,
    });
    harness.run_steps(4);
    let id = harness
        .state()
        .workspace
        .selection
        .primary()
        .expect("added");
    let app = harness.state();
    let scale = app.view.canvas.transform().scaling;
    let (_, rect) = app
        .view
        .canvas
        .node_screen_rects()
        .find(|(n, _)| *n == id)
        .expect("drawn");
    assert!(
        rect.width() / scale <= 40.0 && rect.height() / scale <= 40.0,
        "{rect:?}"
    );
    let canvas = app.view.canvas.rect();
    assert!(
        harness
            .query_all_by_label_contains("Reroute")
            .all(|label| !canvas.intersects(label.rect())),
        "no title on the canvas"
    );
}

#[test]
fn removing_a_parameter_in_use_asks_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    // "alignment" is Flocking #3's alignment weight; its × is the first in the list.
    harness
        .get_all_by_label("×")
        .next()
        .expect("the first parameter's ×")
        .click_accesskit();
    harness.run_steps(2);
    let Some(Dialog::RemoveParameter { name, uses }) = harness.state().view.dialog.clone() else {
        panic!("asks: {:?}", harness.state().view.dialog)
    };
    assert_eq!(name, "alignment");
    assert_eq!(uses, ["Flocking #3: alignment weight"]);
    harness.get_by_label("Cancel").click_accesskit();
    harness.run_steps(2);
    assert!(
        crate::common::document(&harness)
            .parameters
            .contains_key("alignment")
    );
    // A parameter nothing uses goes at once.
    harness
        .state_mut()
        .apply(Command::SetParameter("spare".to_owned(), Some(1.0)));
    harness
        .state_mut()
        .apply(Command::RemoveParameter("spare".to_owned()));
    assert_eq!(harness.state().view.dialog, None);
    assert!(
        !crate::common::document(&harness)
            .parameters
            .contains_key("spare")
    );
}

#[test]
fn the_open_scene_dialog_lists_only_scenes() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["level.scene.ron", "walker.graph.ron", "river.flow.ron"] {
        std::fs::write(dir.path().join(name), "").expect("write");
    }
    let mut harness = harness(dir.path());
    harness.state_mut().apply(Command::OpenScene);
    harness.run_steps(3);
    harness.get_by_label_contains("level.scene.ron");
    assert!(
        harness
            .query_by_label_contains("walker.graph.ron")
            .is_none()
    );
    assert!(harness.query_by_label_contains("river.flow.ron").is_none());
}

#[test]
fn the_reciprocal_guide_says_in_words_when_it_took_the_least_bad_velocity() {
    let lines = app::editor::reciprocal_label(12, true);
    assert_eq!(
        lines,
        [
            "12 limits from neighbors and walls",
            "no velocity satisfies every neighbor: took the least-bad one"
        ]
    );
    assert_eq!(
        app::editor::reciprocal_label(1, false),
        ["1 limit from neighbors and walls"]
    );
}

// 9. The river preset flows (a minute in the editor's preview; the runtime's test runs 180 s).

#[test]
fn the_river_preset_keeps_flowing_in_the_preview() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = opened(dir.path(), "river.graph.ron", 3);
    let host = &mut harness.state_mut().preview.host;
    host.running = false;
    for tick in 0..3_600 {
        host.step_once();
        let simulation = host.simulation.as_ref().expect("runs");
        assert!(simulation.stuck_count() <= 3, "stuck at tick {tick}");
    }
    let simulation = host.simulation.as_ref().expect("runs");
    let mean: f32 = simulation
        .vehicles()
        .iter()
        .map(|v| v.velocity.length())
        .sum::<f32>()
        / 60.0;
    assert!(mean > 2.5, "still flowing after a minute: {mean}");
}
