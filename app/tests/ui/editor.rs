//! The editor driven headless through `egui_kittest`: what a designer does with mouse and
//! keyboard, checked against the graph the editor would save.

use std::path::Path;

use app::editor::{Command, Dialog, EditorApp, Settings, Then};

use crate::common::{EditorHarness, preset_index};
use egui::{Event, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::{CompileError, Graph, Link, Node, NodeId, NodeKind};

fn harness(app: EditorApp) -> Harness<'static, EditorApp> {
    EditorHarness::on(app)
        .size(egui::vec2(1500.0, 950.0))
        .build()
}

fn editor(autosave: &Path) -> EditorApp {
    EditorApp::new(Settings::default(), Some(autosave.to_path_buf()), None)
}

/// An editor on a fresh graph holding only an Output node.
fn empty_editor(autosave: &Path) -> Harness<'static, EditorApp> {
    let mut app = editor(autosave);
    app.new_graph();
    harness(app)
}

/// Adds a node of `kind` at `at` (graph space) as the user would; returns its id.
fn add(harness: &mut Harness<'static, EditorApp>, kind: NodeKind, at: egui::Pos2) -> NodeId {
    harness.state_mut().apply(Command::AddNode {
        kind,
        at,
        wire: None,
    });
    harness.run_steps(2);
    harness
        .state()
        .workspace
        .selection
        .primary()
        .expect("a new node is selected")
}

/// Wires `from` into input `input` of `to`, as a dragged wire does.
fn connect(harness: &mut Harness<'static, EditorApp>, from: NodeId, to: NodeId, input: usize) {
    harness
        .state_mut()
        .apply(Command::Connect { from, to, input });
    harness.run_steps(2);
}

fn kinds(app: &EditorApp) -> Vec<NodeKind> {
    app.workspace
        .document
        .to_graph()
        .nodes
        .values()
        .map(Node::kind)
        .collect()
}

#[test]
fn the_editor_opens_on_the_default_preset_without_problems() {
    let dir = tempfile::tempdir().expect("temp dir");
    let harness = harness(editor(dir.path()));
    assert_eq!(crate::common::graph(&harness).nodes.len(), 10);
    assert!(crate::common::document(&harness).problems().is_empty());
    harness.get_by_label_contains("No problems");
    assert!(
        harness
            .state()
            .workspace
            .title()
            .starts_with("boids.graph.ron (preset)")
    );
}

#[test]
fn clicking_a_node_title_shows_it_in_the_side_panel() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(editor(dir.path()));
    assert_eq!(harness.state().workspace.selection.primary(), None);
    // An accessibility click: the canvas is zoomed, so a pointer at the label's unzoomed
    // rectangle would miss (the real mouse is checked under Xvfb).
    harness.get_by_label("Wander #4").click_accesskit();
    harness.run_steps(2);
    assert_eq!(
        harness.state().workspace.selection.primary(),
        Some(NodeId(4))
    );
    // The inspector now lists the node's fields (its title shows twice: node and panel).
    assert_eq!(harness.get_all_by_label("Wander #4").count(), 2);
    harness.get_by_label_contains("Drift randomly");
}

#[test]
fn a_node_is_added_from_the_search_popup() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = empty_editor(dir.path());
    harness.key_press_modifiers(Modifiers::SHIFT, Key::A);
    harness.run_steps(2);
    assert!(
        harness.state().view.canvas.search_popup.is_some(),
        "Shift+A opens the search"
    );
    harness.event(Event::Text("separ".to_owned()));
    harness.run_steps(2);
    // The popup lists only matching kinds.
    assert!(harness.query_by_label("Cohesion").is_none());
    harness.get_by_label("Separation").click();
    harness.run_steps(3);
    assert!(harness.state().view.canvas.search_popup.is_none());
    assert_eq!(
        kinds(harness.state()),
        vec![NodeKind::Output, NodeKind::Separation]
    );
}

#[test]
fn two_nodes_connect_and_the_link_is_saved() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = empty_editor(dir.path());
    let output = NodeId(1);
    let seek = add(&mut harness, NodeKind::Seek, egui::pos2(-300.0, 0.0));
    connect(&mut harness, seek, output, 0);
    harness.run_steps(1);
    let graph = crate::common::graph(&harness);
    assert_eq!(
        graph.nodes[&graph_runtime::NodeId(1)],
        Node::Output { input: Link::to(2) }
    );
    assert_eq!(crate::common::document(&harness).snarl.wires().count(), 1);
    assert!(crate::common::document(&harness).problems().is_empty());
    harness.get_by_label_contains("No problems");
}

#[test]
fn a_connection_between_incompatible_types_is_refused_with_a_message() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = empty_editor(dir.path());
    let speed = add(&mut harness, NodeKind::Speed, egui::pos2(-300.0, 0.0));
    connect(&mut harness, speed, NodeId(1), 0);
    assert_eq!(crate::common::document(&harness).snarl.wires().count(), 0);
    assert_eq!(
        crate::common::graph(&harness).nodes[&graph_runtime::NodeId(1)],
        Node::Output { input: Link::NONE }
    );
    harness.get_by_label_contains("Cannot connect: Output #1 port `input` takes a steering force, but Speed #2 outputs a scalar");
}

#[test]
fn undo_and_redo_step_through_every_change() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = empty_editor(dir.path());
    add(&mut harness, NodeKind::Wander, egui::pos2(-300.0, 0.0));
    add(&mut harness, NodeKind::Seek, egui::pos2(-300.0, 200.0));
    assert_eq!(kinds(harness.state()).len(), 3);

    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        kinds(harness.state()),
        vec![NodeKind::Output, NodeKind::Wander]
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(kinds(harness.state()), vec![NodeKind::Output]);

    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        kinds(harness.state()),
        vec![NodeKind::Output, NodeKind::Wander]
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    harness.run_steps(2);
    assert_eq!(
        kinds(harness.state()),
        vec![NodeKind::Output, NodeKind::Wander, NodeKind::Seek]
    );
}

#[test]
fn a_parameter_drag_is_one_undo_step() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = empty_editor(dir.path());
    add(&mut harness, NodeKind::Wander, egui::pos2(-300.0, 0.0));
    let before = crate::common::graph(&harness);
    // Drag the "distance" field in the inspector to the right over several frames.
    let field = harness
        .get_all_by_value("3.00 u")
        .next()
        .expect("the distance field shows 3.00 u");
    let start = field.rect().center();
    harness.drag_at(start);
    for step in 1..=5 {
        harness.hover_at(start + egui::vec2(step as f32 * 12.0, 0.0));
        harness.step();
    }
    harness.drop_at(start + egui::vec2(60.0, 0.0));
    harness.run_steps(3);
    let after = crate::common::graph(&harness);
    assert_ne!(before, after, "the drag changed the value");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        crate::common::graph(&harness),
        before,
        "one undo restores the value before the drag"
    );
}

#[test]
fn a_cycle_shows_its_error_on_the_nodes_and_in_the_problems_list() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = empty_editor(dir.path());
    let a = add(&mut harness, NodeKind::Scale, egui::pos2(-600.0, 0.0));
    let b = add(&mut harness, NodeKind::Truncate, egui::pos2(-300.0, 0.0));
    harness.state_mut().apply(Command::Select {
        nodes: Vec::new(),
        add: false,
    });
    connect(&mut harness, a, b, 0);
    connect(&mut harness, b, a, 0);
    connect(&mut harness, b, NodeId(1), 0);
    let problems = crate::common::document(&harness).problems().to_vec();
    assert!(problems.contains(&CompileError::Cycle {
        nodes: vec![graph_runtime::NodeId(2), graph_runtime::NodeId(3)]
    }));
    let message = "links form a cycle through nodes #2, #3";
    let titles_before = harness.get_all_by_label("Scale #2").count();
    harness
        .get_all_by_label_contains(message)
        .next()
        .expect("in the problems list")
        .click_accesskit();
    harness.run_steps(3);
    // Clicking the problem selects its node: the inspector shows it with the message.
    assert_eq!(
        harness.state().workspace.selection.primary(),
        Some(NodeId(2))
    );
    assert!(
        harness.get_all_by_label("Scale #2").count() > titles_before,
        "the inspector shows the node"
    );
    let in_side_panel = harness
        .get_all_by_label_contains(message)
        .any(|node| node.rect().max.x < 330.0 && node.rect().max.y < 600.0);
    assert!(
        in_side_panel,
        "the message also shows in the selected node's panel"
    );
}

#[test]
fn save_and_reopen_gives_the_same_graph() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("mine.graph.ron");
    let mut harness = harness(editor(dir.path()));
    add(&mut harness, NodeKind::Hide, egui::pos2(100.0, 900.0));
    assert!(
        harness.state().workspace.title().contains('•'),
        "unsaved marker"
    );
    assert!(harness.state_mut().save_to(&file));
    harness.run_steps(2);
    assert_eq!(
        harness.state().workspace.title(),
        "mine.graph.ron — Steergraph"
    );
    let saved = crate::common::graph(&harness);

    let reopened = EditorApp::new(
        Settings::default(),
        Some(dir.path().to_path_buf()),
        Some(file.clone()),
    );
    assert_eq!(reopened.workspace.document.to_graph(), saved);
    assert_eq!(Graph::load(&file).expect("loads"), saved);
    assert_eq!(reopened.settings.recent.first(), Some(&file));
}

#[test]
fn copy_and_paste_keep_the_links_between_the_pasted_nodes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = empty_editor(dir.path());
    let seek = add(&mut harness, NodeKind::Seek, egui::pos2(-600.0, 0.0));
    let scale = add(&mut harness, NodeKind::Scale, egui::pos2(-300.0, 0.0));
    connect(&mut harness, seek, scale, 0);
    connect(&mut harness, scale, NodeId(1), 0);
    // Copy Seek and Scale (not the Output): the link between them travels, the one to the
    // Output is cut.
    harness.state_mut().apply(Command::Select {
        nodes: vec![seek, scale],
        add: false,
    });
    let text = harness
        .state()
        .workspace
        .copy_text()
        .expect("something to copy");
    assert!(
        Graph::from_ron(&text, "clipboard").is_ok(),
        "the clipboard holds a graph file"
    );
    harness.event(Event::Paste(text));
    harness.run_steps(3);
    let graph = crate::common::graph(&harness);
    assert_eq!(graph.nodes.len(), 5);
    assert_eq!(
        graph.nodes[&graph_runtime::NodeId(5)],
        Node::Scale {
            input: Link::to(4),
            factor: 1.0.into()
        }
    );
    assert!(matches!(
        graph.nodes[&graph_runtime::NodeId(4)],
        Node::Seek { .. }
    ));
    assert_eq!(crate::common::document(&harness).snarl.wires().count(), 3);
}

#[test]
fn copy_puts_ron_text_on_the_system_clipboard() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = empty_editor(dir.path());
    add(&mut harness, NodeKind::Wander, egui::pos2(-300.0, 0.0));
    harness.event(Event::Copy);
    harness.step();
    let copied =
        harness
            .output()
            .platform_output
            .commands
            .iter()
            .find_map(|command| match command {
                egui::OutputCommand::CopyText(text) => Some(text.clone()),
                _ => None,
            });
    let copied = copied.expect("Ctrl+C copies the selected node");
    assert!(copied.contains("Wander("), "{copied}");
}

#[test]
fn delete_and_duplicate_shortcuts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = empty_editor(dir.path());
    add(&mut harness, NodeKind::Wander, egui::pos2(-300.0, 0.0));
    harness.key_press_modifiers(Modifiers::COMMAND, Key::D);
    harness.run_steps(2);
    assert_eq!(
        kinds(harness.state()),
        vec![NodeKind::Output, NodeKind::Wander, NodeKind::Wander]
    );
    harness.key_press(Key::Delete);
    harness.run_steps(2);
    assert_eq!(
        kinds(harness.state()),
        vec![NodeKind::Output, NodeKind::Wander]
    );
}

#[test]
fn unsaved_changes_are_confirmed_before_new() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(editor(dir.path()));
    add(&mut harness, NodeKind::Seek, egui::pos2(0.0, 900.0));
    harness.state_mut().guard(Then::New);
    harness.run_steps(2);
    assert_eq!(
        harness.state().view.dialog,
        Some(Dialog::Unsaved(Then::New))
    );
    harness.get_by_label("Cancel").click();
    harness.run_steps(2);
    assert_eq!(harness.state().view.dialog, None);
    assert_eq!(
        crate::common::graph(&harness).nodes.len(),
        11,
        "the work is kept"
    );
    harness.state_mut().guard(Then::New);
    harness.run_steps(2);
    harness.get_by_label("Discard changes").click();
    harness.run_steps(2);
    assert_eq!(kinds(harness.state()), vec![NodeKind::Output]);
}

#[test]
fn unsaved_work_is_autosaved_and_offered_back_after_a_crash() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(editor(dir.path()));
    add(&mut harness, NodeKind::Evasion, egui::pos2(0.0, 900.0));
    // A scene edit too: an obstacle added in the preview.
    let obstacles = crate::common::scene(&harness).scene.obstacles.len();
    harness
        .state_mut()
        .workspace
        .scene
        .scene
        .obstacles
        .push(graph_runtime::Obstacle {
            center: glam::Vec2::new(3.0, 4.0),
            radius: 2.0,
        });
    harness.run_steps(2);
    let unsaved = crate::common::graph(&harness);
    // Let the autosave interval pass.
    for _ in 0..40 {
        harness.step();
        harness.input_mut().time = Some(harness.input().time.unwrap_or(0.0) + 0.5);
    }
    harness.run_steps(2);
    assert!(
        dir.path().join("autosave.graph.ron").exists(),
        "graph autosaved"
    );
    assert!(
        dir.path().join("autosave.scene.ron").exists(),
        "scene autosaved"
    );
    // "Crash": drop the editor without closing, start a new one on the same data folder.
    drop(harness);
    let mut restarted = self::harness(editor(dir.path()));
    let harness = &mut restarted;
    assert!(matches!(
        harness.state().view.dialog,
        Some(Dialog::Recover(_))
    ));
    harness.get_by_label("Recover").click();
    harness.run_steps(2);
    assert_eq!(crate::common::graph(harness), unsaved);
    assert!(crate::common::document(harness).is_dirty());
    assert_eq!(
        crate::common::scene(harness).scene.obstacles.len(),
        obstacles + 1,
        "the scene edit came back"
    );
    assert!(
        crate::common::scene(harness).is_dirty(),
        "and is still unsaved"
    );
    // Paced exactly, the preview steps on this thread: what it runs is there to look at.
    assert!(!harness.state().preview.host.is_stepping());
    let preview = &harness.state().preview;
    assert!(
        preview
            .simulation()
            .is_some_and(|s| s.world().obstacles.len() == obstacles + 1),
        "and runs"
    );
}

#[test]
fn open_then_save_is_byte_identical_for_every_preset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
    for preset in app::editor::PRESET_GRAPHS {
        let source = presets.join(preset.file);
        let mut app = EditorApp::new(
            Settings::default(),
            Some(dir.path().to_path_buf()),
            Some(source.clone()),
        );
        let copy = dir.path().join(preset.file);
        assert!(app.save_to(&copy), "{}", preset.file);
        assert_eq!(
            std::fs::read_to_string(&copy).expect("saved"),
            std::fs::read_to_string(&source).expect("preset"),
            "{} round trip",
            preset.file
        );
    }
}

#[test]
fn a_malformed_file_opens_an_error_with_its_position_and_keeps_the_work() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.graph.ron");
    std::fs::write(
        &bad,
        "(format: \"steergraph.graph\", version: 1, nodes: {1: Seek(targt: Named(\"x\"))})",
    )
    .expect("write");
    let mut app = editor(dir.path());
    let before = app.workspace.document.to_graph();
    app.open(&bad);
    let Some(Dialog::Error(message)) = &app.view.dialog else {
        panic!("an error dialog")
    };
    assert!(message.contains("bad.graph.ron:1:"), "{message}");
    assert_eq!(app.workspace.document.to_graph(), before);
}

#[test]
fn export_for_game_writes_the_graph_without_layout_and_its_flow_fields() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut app = editor(dir.path());
    let maze = preset_index("maze.graph.ron");
    app.open_preset(maze);
    let out = dir.path().join("export");
    std::fs::create_dir(&out).expect("dir");
    assert!(app.export_to(&out.join("walker.graph.ron")));
    let exported = Graph::load(&out.join("walker.graph.ron")).expect("loads");
    assert_eq!(exported.editor, None);
    assert_eq!(exported.nodes, app.workspace.document.to_graph().nodes);
    let field = graph_runtime::FlowField::load(&out.join("to_goal.flow.ron")).expect("field loads");
    assert_eq!(&field, &app.workspace.scene.fields["to goal"]);
}

/// In a 1280 × 720 window the graph parameters keep each name, value and × on one line, and
/// the new name's field, Add and Tune… on another (seen under Xvfb: fixed widths of 130 and
/// 110 points put the × and Tune… on lines of their own).
#[test]
fn the_graph_parameters_keep_to_their_lines_in_a_small_window() {
    let dir = tempfile::tempdir().expect("temp dir");
    let harness = EditorHarness::new(dir.path())
        .size(egui::vec2(1280.0, 720.0))
        .build();
    let same_line = |a: egui::Rect, b: egui::Rect| (a.center().y - b.center().y).abs() < 4.0;
    // The field in the side panel (the leftmost; the text inside it carries the name too).
    let name = (harness.query_all(
        egui_kittest::kittest::By::new()
            .predicate(|node| node.value().as_deref() == Some("alignment")),
    ))
    .map(|node| node.rect())
    .min_by(|a, b| {
        a.min
            .x
            .total_cmp(&b.min.x)
            .then(b.width().total_cmp(&a.width()))
    })
    .expect("the parameter's field");
    // "alignment" is the first parameter: its × is the first.
    let remove = harness.get_all_by_label("×").next().expect("a ×").rect();
    assert!(same_line(name, remove), "{name:?} and its × {remove:?}");
    assert!(remove.min.x > name.max.x, "{name:?} and its × {remove:?}");
    let new_name = harness
        .get_by(|node| node.placeholder() == Some("new parameter"))
        .rect();
    let tune = harness.get_by_label("Tune…").rect();
    assert!(same_line(new_name, tune), "{new_name:?} and Tune… {tune:?}");
}

/// The editor in a 1280 × 720 window with the node titled `title` clicked, and the side
/// panel's rectangle.
fn small_window_on(
    dir: &std::path::Path,
    title: &str,
) -> (Harness<'static, EditorApp>, egui::Rect) {
    let mut harness = EditorHarness::new(dir)
        .size(egui::vec2(1280.0, 720.0))
        .build();
    harness.get_by_label(title).click_accesskit();
    harness.run_steps(3);
    let panel = egui::containers::PanelState::load(&harness.ctx, egui::Id::new("side"))
        .expect("the side panel is shown")
        .outer_rect;
    (harness, panel)
}

/// In a 1280 × 720 window a node with fields bound to graph parameters (the boids' Flocking)
/// keeps its parameter lists and their × inside the side panel, and the sections below keep
/// wrapping at its edge (seen under Xvfb: the lists, 100 points each, ran past the panel,
/// the rows below took that width, and the Agent section's hint was cut mid-word).
#[test]
fn a_nodes_bound_parameters_keep_inside_the_side_panel_in_a_small_window() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (harness, panel) = small_window_on(dir.path(), "Flocking #3");
    assert_eq!(
        harness.state().workspace.selection.primary(),
        Some(NodeId(3))
    );
    // The Flocking's four bound weights and radius, in the side panel: their lists show the
    // parameters' names (cut short as need be) and each has its ×.
    let separation_weight = harness
        .get_all_by_label("separation weight")
        .map(|node| node.rect())
        .min_by(|a, b| a.min.x.total_cmp(&b.min.x))
        .expect("the field's label in the side panel");
    assert!(separation_weight.max.x < panel.max.x);
    let on_its_row = |rect: egui::Rect| {
        rect.min.x > separation_weight.max.x
            && (rect.center().y - separation_weight.center().y).abs() < 4.0
    };
    let remove = harness
        .get_all_by_label("×")
        .map(|node| node.rect())
        .filter(|rect| on_its_row(*rect))
        .min_by(|a, b| a.min.x.total_cmp(&b.min.x))
        .expect("the bound weight's × on its row");
    assert!(
        remove.max.x <= panel.max.x,
        "the × ends at {} past the panel's edge at {}",
        remove.max.x,
        panel.max.x
    );
    let hint = harness
        .get_by_label("Click an agent in the preview to inspect it.")
        .rect();
    assert!(
        hint.max.x <= panel.max.x,
        "the Agent hint ends at {} past the panel's edge at {}",
        hint.max.x,
        panel.max.x
    );
}

/// In a 1280 × 720 window a Blend's input bound to a graph parameter keeps its list, the
/// list's ×, ⏶ and the input's × on one line in the side panel (seen under Xvfb: the input's
/// × wrapped onto a line of its own, where it read as the list's).
#[test]
fn a_blends_bound_input_keeps_its_buttons_on_its_line_in_a_small_window() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (harness, panel) = small_window_on(dir.path(), "Blend #5");
    // The second input (Wander #4, weighted by the parameter wander_weight) in the panel.
    let row = harness.get_by_label("2: #4").rect();
    let on_row = |rect: egui::Rect| (rect.center().y - row.center().y).abs() < 4.0;
    let in_panel = |rect: egui::Rect| rect.min.x > row.max.x && rect.max.x <= panel.max.x;
    let removes = (harness.get_all_by_label("×"))
        .map(|node| node.rect())
        .filter(|rect| on_row(*rect) && in_panel(*rect))
        .count();
    assert_eq!(removes, 2, "the list's × and the input's × beside {row:?}");
    let raise = (harness.get_all_by_label("⏶"))
        .map(|node| node.rect())
        .filter(|rect| on_row(*rect) && in_panel(*rect))
        .count();
    assert_eq!(raise, 1);
}
