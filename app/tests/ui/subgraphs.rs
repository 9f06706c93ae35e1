//! Subgraphs in the editor, driven headless through `egui_kittest`: "Collapse into subgraph"
//! writes the new file and leaves one node wired where the selection was, with the same force;
//! a cut that cannot work says why; double-clicking the node opens its file; a change to the
//! file on disk recompiles the graph that uses it; "Choose file…" points a Subgraph node at a
//! file; export for game writes the subgraph files. Waits poll with a deadline.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::EditorHarness;
use app::editor::{Backend, Command, EditorApp, FileDialogs, Purpose, Settings};
use egui::{Event, Modifiers, PointerButton};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use glam::Vec2;
use graph_runtime::{
    Crowd, Graph, Link, Node, NodeId, NodeKind, Number, Program, Target, Vehicle, VehicleParams,
    WeightedInput, World,
};

/// How long a change on disk may take to show on a busy machine.
const DEADLINE: Duration = Duration::from_secs(60);

const EAST: NodeId = NodeId(1);
const NORTH: NodeId = NodeId(2);
const BLEND: NodeId = NodeId(3);
const OUTPUT: NodeId = NodeId(4);

/// `Blend(Seek (10, 0) × 1, Seek (0, 10) × pull)` into the Output, `pull` = 2, laid out.
fn main_graph() -> Graph {
    let mut graph = Graph::default();
    graph.parameters.insert("pull".to_owned(), 2.0);
    for (x, y) in [(10.0, 0.0), (0.0, 10.0)] {
        graph.add(Node::Seek {
            target: Target::Point(Number::Literal(x), Number::Literal(y)),
        });
    }
    graph.add(Node::Blend {
        inputs: vec![
            WeightedInput {
                node: Link(Some(EAST)),
                weight: Number::Literal(1.0),
            },
            WeightedInput {
                node: Link(Some(NORTH)),
                weight: Number::from("pull"),
            },
        ],
    });
    graph.add(Node::Output {
        input: Link(Some(BLEND)),
    });
    let mut editor = graph_runtime::EditorSection::default();
    for (id, x, y) in [(EAST, 0.0, 0.0), (NORTH, 0.0, 200.0), (BLEND, 300.0, 100.0)] {
        editor.positions.insert(id, Vec2::new(x, y));
    }
    editor.positions.insert(OUTPUT, Vec2::new(600.0, 100.0));
    graph.editor = Some(editor);
    graph
}

/// The force `program` gives one agent at rest at the origin (max speed 5).
fn force(program: Program) -> Vec2 {
    let world = World::default();
    let mut crowd = Crowd::new(program, &world, 1, &BTreeMap::new()).expect("names resolve");
    let params = VehicleParams {
        mass: 1.0,
        max_force: 100.0,
        max_speed: 5.0,
        radius: 0.5,
    };
    let me = [Vehicle::new(Vec2::ZERO, Vec2::ZERO, params)];
    let mut forces = Vec::new();
    crowd.steer(&world, &me, &[], 0.1, &mut forces);
    forces[0]
}

fn open_force(app: &EditorApp) -> Vec2 {
    force(
        (*app
            .workspace
            .document
            .program()
            .expect("the graph compiles"))
        .clone(),
    )
}

/// An editor on `main.graph.ron` (saved in `dir`), with the in-app file dialogs.
fn editor_on(dir: &Path) -> (Harness<'static, EditorApp>, PathBuf) {
    let file = dir.join("main.graph.ron");
    main_graph().save(&file).expect("save");
    std::fs::create_dir_all(dir.join("lib")).expect("lib folder");
    let mut app = EditorApp::new(
        Settings::default(),
        Some(dir.join("autosave")),
        Some(file.clone()),
    );
    app.services.files = FileDialogs::new(Backend::InApp);
    // A frame as long as the window's (the default quarter second would part a
    // double-click's two clicks by more than egui's 0.3 s).
    let harness = EditorHarness::on(app)
        .sixtieth()
        .warm_up(3)
        .paused()
        .build();
    (harness, file)
}

/// Selects the two Seeks and the Blend and collapses them into `lib/pair.graph.ron`, as the
/// save dialog would answer.
fn collapse(harness: &mut Harness<'static, EditorApp>, dir: &Path) -> PathBuf {
    let file = dir.join("lib/pair.graph.ron");
    let app = harness.state_mut();
    app.apply(Command::Select {
        nodes: vec![EAST, NORTH, BLEND],
        add: false,
    });
    app.apply(Command::Picked(Purpose::SaveSubgraph, file.clone()));
    harness.run_steps(3);
    file
}

/// Screen point of a node's title (past the collapse triangle at the header's left).
fn title_on_canvas(harness: &Harness<'static, EditorApp>, id: NodeId) -> Option<egui::Pos2> {
    let app = harness.state();
    let position = app
        .workspace
        .document
        .snarl
        .nodes_pos()
        .find(|(_, n)| n.id == id)
        .map(|(p, _)| p)?;
    let at = app.view.canvas.transform() * (position + egui::vec2(60.0, 12.0));
    app.view.canvas.rect().contains(at).then_some(at)
}

fn subgraph_node(app: &EditorApp) -> (NodeId, Node) {
    let graph = app.workspace.document.to_graph();
    graph
        .nodes
        .into_iter()
        .find(|(_, node)| matches!(node, Node::Subgraph { .. }))
        .expect("a Subgraph node")
}

#[test]
fn collapsing_the_selection_writes_the_file_and_keeps_the_wires_and_the_force() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut harness, _) = editor_on(dir.path());
    // (5, 0) × 1 + (0, 5) × 2 = (5, 10).
    assert_eq!(open_force(harness.state()), Vec2::new(5.0, 10.0));
    let file = collapse(&mut harness, dir.path());

    let written = Graph::load(&file).expect("the subgraph file loads");
    assert_eq!(written.nodes.len(), 4, "two Seeks, the Blend and an Output");
    assert_eq!(
        written.parameters,
        BTreeMap::from([("pull".to_owned(), 2.0)])
    );
    let app = harness.state();
    let graph = app.workspace.document.to_graph();
    assert_eq!(graph.nodes.len(), 2, "the Subgraph node and the Output");
    let (id, node) = subgraph_node(app);
    assert_eq!(
        node,
        Node::Subgraph {
            file: "lib/pair.graph.ron".to_owned(),
            parameters: BTreeMap::from([("pull".to_owned(), Number::from("pull"))]),
        }
    );
    assert_eq!(
        graph.nodes[&OUTPUT],
        Node::Output {
            input: Link(Some(id))
        }
    );
    assert!(
        app.workspace.document.problems().is_empty(),
        "{:?}",
        app.workspace.document.problems()
    );
    assert_eq!(open_force(app), Vec2::new(5.0, 10.0));
    assert_eq!(app.workspace.selection.nodes(), &[id]);
    harness.get_by_label("file: lib/pair.graph.ron");
    assert!(title_on_canvas(&harness, id).is_some());

    // The node's field is the file's parameter: pull 0 leaves only the east Seek.
    let mut edited = node.clone();
    if let Node::Subgraph { parameters, .. } = &mut edited {
        parameters.insert("pull".to_owned(), Number::Literal(0.0));
    }
    harness.state_mut().apply(Command::SetNode(id, edited));
    harness.state_mut().record_changes();
    assert_eq!(open_force(harness.state()), Vec2::new(5.0, 0.0));

    // Undo twice: the three nodes are back; the file stays.
    harness.state_mut().apply(Command::Undo);
    harness.state_mut().apply(Command::Undo);
    harness.run_steps(2);
    assert_eq!(crate::common::graph(&harness).nodes.len(), 4);
    assert!(file.exists());
}

#[test]
fn a_cut_that_a_subgraph_cannot_make_says_why_and_changes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut harness, _) = editor_on(dir.path());
    let before = crate::common::graph(&harness);
    // The Blend alone takes input from outside the selection.
    let app = harness.state_mut();
    app.apply(Command::Select {
        nodes: vec![BLEND],
        add: false,
    });
    app.apply(Command::CollapseToSubgraph);
    let status = app.status.text().unwrap_or_default().to_owned();
    assert!(
        status.starts_with("Node #3 takes input from node #1, outside the selection"),
        "{status}"
    );
    // Both Seeks feed the Blend, which stays: two outputs.
    app.apply(Command::Select {
        nodes: vec![EAST, NORTH],
        add: false,
    });
    app.apply(Command::Picked(
        Purpose::SaveSubgraph,
        dir.path().join("lib/x.graph.ron"),
    ));
    let status = app.status.text().unwrap_or_default().to_owned();
    assert!(
        status.contains("nodes #1 and #2 of the selection feed"),
        "{status}"
    );
    // A file outside the graph's folder.
    app.apply(Command::Select {
        nodes: vec![EAST, NORTH, BLEND],
        add: false,
    });
    let outside = tempfile::tempdir().expect("another folder");
    app.apply(Command::Picked(
        Purpose::SaveSubgraph,
        outside.path().join("x.graph.ron"),
    ));
    let status = app.status.text().unwrap_or_default().to_owned();
    assert!(status.contains("is outside the graph's folder"), "{status}");
    assert_eq!(app.workspace.document.to_graph(), before);
    assert!(!dir.path().join("lib/x.graph.ron").exists());
}

#[test]
fn double_clicking_the_subgraph_node_opens_its_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut harness, main) = editor_on(dir.path());
    let file = collapse(&mut harness, dir.path());
    // Saved, so opening another file asks nothing.
    harness.state_mut().apply(Command::SaveTo(main));
    harness.run_steps(2);
    let (id, _) = subgraph_node(harness.state());
    let at = title_on_canvas(&harness, id).expect("the node's title");
    harness.event(Event::PointerMoved(at));
    harness.step();
    for pressed in [true, false, true, false] {
        harness.event(Event::PointerButton {
            pos: at,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    harness.run_steps(3);
    assert_eq!(
        crate::common::document(&harness).path.as_deref(),
        Some(file.as_path())
    );
    assert_eq!(crate::common::graph(&harness).nodes.len(), 4);
}

#[test]
fn a_change_to_the_subgraph_file_recompiles_the_graph_that_uses_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut harness, main) = editor_on(dir.path());
    let file = collapse(&mut harness, dir.path());
    harness.state_mut().apply(Command::SaveTo(main));
    harness.run_steps(3);
    let revision = crate::common::document(&harness).revision();
    // Another program moves the east Seek's target to the west: (-5, 0) + (0, 10).
    let mut changed = Graph::load(&file).expect("loads");
    changed.nodes.insert(
        NodeId(1),
        Node::Seek {
            target: Target::Point(Number::Literal(-10.0), Number::Literal(0.0)),
        },
    );
    graph_runtime::write_atomically(&file, changed.to_ron().expect("ron")).expect("write");
    let started = Instant::now();
    while crate::common::document(&harness).revision() == revision {
        assert!(
            started.elapsed() < DEADLINE,
            "not recompiled within {DEADLINE:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
    assert_eq!(open_force(harness.state()), Vec2::new(-5.0, 10.0));
    let status = harness.state().status.text().unwrap_or_default().to_owned();
    assert!(
        status.contains("pair.graph.ron changed on disk"),
        "{status}"
    );
    // The open graph itself did not change: nothing to save.
    assert!(!crate::common::document(&harness).is_dirty());
}

#[test]
fn choose_file_points_a_new_subgraph_node_at_a_file_in_the_graphs_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut harness, _) = editor_on(dir.path());
    let file = collapse(&mut harness, dir.path());
    // A second Subgraph node from the node search, wired to nothing, using the same file.
    harness.state_mut().apply(Command::AddNode {
        kind: NodeKind::Subgraph,
        at: egui::pos2(0.0, 400.0),
        wire: None,
    });
    harness.run_steps(2);
    let fields_before = harness.query_all_by_label("pull").count();
    let added = *harness
        .state()
        .workspace
        .selection
        .nodes()
        .last()
        .expect("the new node");
    harness.get_by_label("file: no file");
    harness
        .state_mut()
        .apply(Command::Picked(Purpose::ChooseSubgraph(added), file));
    harness.run_steps(3);
    assert_eq!(
        crate::common::document(&harness).node(added),
        Some(&Node::Subgraph {
            file: "lib/pair.graph.ron".to_owned(),
            parameters: BTreeMap::new(),
        })
    );
    // The file's parameter shows as the new node's field too.
    assert_eq!(
        harness.query_all_by_label("pull").count(),
        fields_before + 1
    );
}

#[test]
fn export_for_game_writes_the_subgraph_files_the_graph_needs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut harness, _) = editor_on(dir.path());
    collapse(&mut harness, dir.path());
    let out = tempfile::tempdir().expect("export folder");
    assert!(
        harness
            .state_mut()
            .export_to(&out.path().join("game.graph.ron"))
    );
    let sub = Graph::load(&out.path().join("lib/pair.graph.ron")).expect("exported subgraph");
    assert_eq!(sub.editor, None);
    // A game loads the exported graph with its subgraphs and gets the same force.
    let game = Graph::load(&out.path().join("game.graph.ron")).expect("exported graph");
    let subgraphs = graph_runtime::Subgraphs::load(&game, &out.path().join("game.graph.ron"));
    let program = subgraphs
        .compile(&game)
        .expect("the exported graph compiles");
    assert_eq!(force(program), Vec2::new(5.0, 10.0));
}

/// A Seek of (`x`, 0) into the Output, as a file's text.
fn seek_text(x: f32) -> String {
    format!(
        "(format: \"steergraph.graph\", version: 1,\n nodes: {{1: Seek(target: Point({x:?}, 0.0)), 2: Output(input: 1)}})\n"
    )
}

#[test]
fn another_groups_graph_follows_its_subgraph_file_in_the_preview() {
    // Group "a" runs the open graph; group "b" runs other.graph.ron, which uses
    // lib/part.graph.ron. Rewriting that file turns b's agent round without a reset.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("lib")).expect("lib folder");
    // Targets far away, so no agent passes its target within the test.
    std::fs::write(root.join("main.graph.ron"), seek_text(1000.0)).expect("write");
    std::fs::write(root.join("lib/part.graph.ron"), seek_text(1000.0)).expect("write");
    std::fs::write(
        root.join("other.graph.ron"),
        "(format: \"steergraph.graph\", version: 1,\n nodes: {1: Subgraph(file: \"lib/part.graph.ron\"), 2: Output(input: 1)})\n",
    )
    .expect("write");
    let group = |name: &str, graph: &str| {
        format!("(name: \"{name}\", graph: \"{graph}\", spawn: Agents([(position: (0.0, 0.0))]))")
    };
    std::fs::write(
        root.join("two.scene.ron"),
        format!(
            "(format: \"steergraph.scene\", version: 1,\n bounds: (min: (-2000.0, -2000.0), max: (2000.0, 2000.0)),\n groups: [{}, {}])\n",
            group("a", "main.graph.ron"),
            group("b", "other.graph.ron")
        ),
    )
    .expect("write");
    let mut app = EditorApp::new(
        Settings::default(),
        Some(root.join("autosave")),
        Some(root.join("main.graph.ron")),
    );
    app.services.files = FileDialogs::new(Backend::InApp);
    app.open_scene(&root.join("two.scene.ron"));
    let mut harness = EditorHarness::on(app)
        .sixtieth()
        .warm_up(3)
        .paused()
        .build();
    let force_of_b = |harness: &mut Harness<'static, EditorApp>| {
        let host = &mut harness.state_mut().preview.host;
        host.step_once();
        host.simulation.as_ref().expect("the preview runs").forces()[1]
    };
    assert!(force_of_b(&mut harness).x > 0.0, "b seeks right first");
    for _ in 0..100 {
        harness.state_mut().preview.host.step_once();
    }
    let tick = harness
        .state()
        .preview
        .host
        .simulation
        .as_ref()
        .map(graph_runtime::Simulation::tick);
    graph_runtime::write_atomically(&root.join("lib/part.graph.ron"), seek_text(-1000.0))
        .expect("write");
    let started = Instant::now();
    while force_of_b(&mut harness).x > 0.0 {
        assert!(
            started.elapsed() < DEADLINE,
            "b did not follow within {DEADLINE:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
    // Swapped where it stood: the simulation went on, it was not rebuilt.
    let now = harness
        .state()
        .preview
        .host
        .simulation
        .as_ref()
        .map(graph_runtime::Simulation::tick);
    assert!(now > tick, "{now:?} after {tick:?}");
    assert!(harness.state().preview.host.problems.is_empty());
}
