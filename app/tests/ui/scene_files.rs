//! Scenes as files, as a designer meets them in the second hour (issue 42): Open scene brings
//! the graph it runs (the others one click away in the Scene panel), and a painted field is
//! saved as its own `.flow.ron` beside the scene, which names it.

use std::path::Path;

use app::editor::{Command, Dialog, EditorApp, Then};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::{FlowFieldSource, Graph, Link, Node, Scene, Target};

use crate::common::{EditorHarness, new_field_over_bounds, preset_index};

/// A graph seeking the named target `target`.
fn seeker(target: &str) -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::Named(target.to_owned()),
    });
    graph.add(Node::Output {
        input: Link(Some(seek)),
    });
    graph
}

/// `dir` with a.graph.ron and b.graph.ron, one.scene.ron (a group running a) and two.scene.ron
/// (groups running a, then b).
fn level(dir: &Path) {
    seeker("cursor").save(&dir.join("a.graph.ron")).expect("a");
    seeker("door").save(&dir.join("b.graph.ron")).expect("b");
    let group = |name: &str, graph: &str| {
        format!(
            r#"(name: "{name}", graph: "{graph}", spawn: Random(count: 5, area: Rect(min: (-5.0, -5.0), max: (5.0, 5.0)), speed: 0.0))"#
        )
    };
    let scene = |groups: &[String]| {
        format!(
            r#"(format: "steergraph.scene", version: 1, bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
                targets: {{"door": (8.0, 0.0)}}, groups: [{}])"#,
            groups.join(", ")
        )
    };
    std::fs::write(
        dir.join("one.scene.ron"),
        scene(&[group("walkers", "a.graph.ron")]),
    )
    .expect("one");
    std::fs::write(
        dir.join("two.scene.ron"),
        scene(&[
            group("walkers", "a.graph.ron"),
            group("guards", "b.graph.ron"),
        ]),
    )
    .expect("two");
}

fn editor(dir: &Path) -> Harness<'static, EditorApp> {
    EditorHarness::new(&dir.join("autosave")).build()
}

#[test]
fn open_scene_opens_the_graph_it_runs_and_the_others_are_one_click_away() {
    let dir = tempfile::tempdir().expect("temp dir");
    level(dir.path());
    let mut harness = editor(dir.path());
    assert_eq!(
        harness.state().workspace.open_graph_name(),
        "boids.graph.ron"
    );
    // As File > Open scene, Open recent and a dropped file do.
    harness
        .state_mut()
        .apply(Command::OpenScenePath(dir.path().join("one.scene.ron")));
    harness.run_steps(3);
    let app = harness.state();
    assert_eq!(
        app.workspace.document.path.as_deref(),
        Some(dir.path().join("a.graph.ron").as_path())
    );
    assert_eq!(app.workspace.scene.name(), "one.scene.ron");
    assert_eq!(
        app.preview.agent_count(),
        5,
        "the scene runs the graph in the editor"
    );
    assert!(
        app.preview.host.problems.is_empty(),
        "{:?}",
        app.preview.host.problems
    );
    assert_eq!(
        app.settings.recent_scenes,
        [dir.path().join("one.scene.ron")]
    );

    // Two graphs: the first opens (here it is open already), the status names the other.
    harness
        .state_mut()
        .apply(Command::OpenScenePath(dir.path().join("two.scene.ron")));
    harness.run_steps(3);
    let status = harness.state().status.text().unwrap_or_default().to_owned();
    assert!(
        status.contains("it also runs b.graph.ron (Scene panel: the group's Edit button)"),
        "{status}"
    );
    // One click in the Scene panel opens the guards' graph; the scene keeps running. (The
    // Node and Agent sections folded first, so the groups are in view.)
    for section in ["Node", "Agent", "Scene"] {
        harness.get_by_label(section).click();
        harness.run_steps(2);
    }

    // The side panel's Edit buttons (the menu bar has an Edit menu too).
    let side = harness.state().view.canvas.rect().min.x;
    let edits: Vec<_> = harness
        .query_all_by_label("Edit")
        .filter(|button| button.rect().max.x <= side && button.rect().min.y > 40.0)
        .collect();
    assert_eq!(edits.len(), 1, "only b is not open: a shows \"open\"");
    edits[0].click();
    harness.run_steps(3);

    let app = harness.state();
    assert_eq!(
        app.workspace.document.path.as_deref(),
        Some(dir.path().join("b.graph.ron").as_path())
    );
    assert_eq!(app.workspace.scene.name(), "two.scene.ron");
    assert_eq!(app.preview.agent_count(), 10);
    assert!(
        app.preview.host.problems.is_empty(),
        "{:?}",
        app.preview.host.problems
    );
}

#[test]
fn opening_a_scene_asks_about_the_graph_only_when_it_replaces_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    level(dir.path());
    let mut harness = editor(dir.path());
    harness
        .state_mut()
        .apply(Command::OpenScenePath(dir.path().join("one.scene.ron")));
    harness.run_steps(3);
    // An unsaved edit to a.graph.ron.
    let mut vehicle = crate::common::document(&harness).vehicle.clone();
    vehicle.max_speed = graph_runtime::Number::Literal(2.0);
    harness.state_mut().apply(Command::SetVehicle(vehicle));
    harness.run_steps(2);
    assert!(crate::common::document(&harness).is_dirty());
    // two.scene.ron runs a.graph.ron first: the edit stays, nothing is asked.
    harness
        .state_mut()
        .apply(Command::OpenScenePath(dir.path().join("two.scene.ron")));
    harness.run_steps(2);
    assert_eq!(harness.state().view.dialog, None);
    assert!(
        crate::common::document(&harness).is_dirty(),
        "the edit is kept"
    );
    // A scene whose first group runs b.graph.ron would replace it: asked, naming the file.
    let only_b = std::fs::read_to_string(dir.path().join("two.scene.ron"))
        .expect("two")
        .replace("\"a.graph.ron\"", "\"b.graph.ron\"");
    std::fs::write(dir.path().join("b.scene.ron"), only_b).expect("b scene");
    harness
        .state_mut()
        .apply(Command::OpenScenePath(dir.path().join("b.scene.ron")));
    harness.run_steps(2);
    assert!(matches!(
        harness.state().view.dialog,
        Some(Dialog::Unsaved(Then::Scene { .. }))
    ));
    harness.get_by_label_contains("The graph a.graph.ron is not saved");
    harness.get_by_label("Cancel").click();
    harness.run_steps(2);
    assert_eq!(harness.state().workspace.open_graph_name(), "a.graph.ron");
    assert_eq!(crate::common::scene(&harness).name(), "two.scene.ron");
}

#[test]
fn a_painted_field_is_saved_as_its_own_file_beside_the_scene() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = editor(dir.path());
    let river = preset_index("river.graph.ron");
    harness.state_mut().apply(Command::OpenPreset(river));
    harness.run_steps(3);
    new_field_over_bounds(&mut harness);
    let field = crate::common::scene(&harness).fields["field 1"].clone();
    let tick = harness.state().preview.simulation().expect("runs").tick();
    let path = dir.path().join("level.scene.ron");
    assert!(harness.state_mut().save_scene_to(&path));
    harness.run_steps(1);
    // The scene names the file; the file holds the field.
    let saved = Scene::load(&path).expect("the saved scene loads");
    assert_eq!(
        saved.flow_fields.get("field 1"),
        Some(&FlowFieldSource::File("field_1.flow.ron".to_owned()))
    );
    let on_disk = graph_runtime::FlowField::load(&dir.path().join("field_1.flow.ron"))
        .expect("the field file loads");
    assert_eq!(on_disk, field);
    let text = std::fs::read_to_string(&path).expect("scene text");
    assert!(!text.contains("Inline"), "{text}");
    // Saving did not restart the preview, nor leave anything unsaved or an undo step.
    let app = harness.state();
    assert!(app.preview.simulation().expect("runs").tick() > tick);
    assert!(!app.workspace.scene.is_dirty());
    let status = app.status.text().unwrap_or_default();
    assert!(
        status.contains("with its flow fields beside it (field_1.flow.ron)"),
        "{status}"
    );
    // Saved again: the same file, not a second one.
    assert!(harness.state_mut().save_scene_to(&path));
    assert!(!dir.path().join("field_1_2.flow.ron").exists());
}

#[test]
fn a_scene_with_an_inline_field_still_opens_and_saves_its_field_as_a_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    seeker("cursor")
        .save(&dir.path().join("a.graph.ron"))
        .expect("a");
    let inline = r#"(format: "steergraph.scene", version: 1,
        bounds: (min: (-4.0, -4.0), max: (4.0, 4.0)),
        flow_fields: {"wind": Inline((origin: (-4.0, -4.0), cell_size: 4.0, width: 2, height: 2,
            vectors: [(1.0, 0.0), (1.0, 0.0), (0.0, 1.0), (0.0, 1.0)]))},
        groups: [(name: "g", graph: "a.graph.ron", spawn: Agents([(position: (0.0, 0.0))]))])"#;
    let path = dir.path().join("old.scene.ron");
    std::fs::write(&path, inline).expect("write");
    // Somebody else's wind.flow.ron is beside it already: it is not overwritten.
    std::fs::write(dir.path().join("wind.flow.ron"), "not ours").expect("write");
    let mut harness = editor(dir.path());
    harness
        .state_mut()
        .apply(Command::OpenScenePath(path.clone()));
    harness.run_steps(3);
    assert_eq!(harness.state().preview.agent_count(), 1);
    assert_eq!(crate::common::scene(&harness).fields["wind"].width, 2);
    assert!(harness.state_mut().save_scene_to(&path));
    assert_eq!(
        Scene::load(&path).expect("loads").flow_fields["wind"],
        FlowFieldSource::File("wind_2.flow.ron".to_owned())
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("wind.flow.ron")).expect("theirs"),
        "not ours"
    );
    let wind = graph_runtime::FlowField::load(&dir.path().join("wind_2.flow.ron")).expect("ours");
    assert_eq!(wind.width, 2);
}

/// A scene whose group names no graph file (`graph: ""`) opens with a problem naming the group
/// and what to do (issue 46: it read the scene's folder as the graph, "not a regular file"),
/// and the graph open before stays open.
#[test]
fn a_group_without_a_graph_file_is_named_in_the_previews_problems() {
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join("empty.scene.ron");
    std::fs::write(
        &path,
        r#"(format: "steergraph.scene", version: 1,
            bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
            groups: [(name: "walkers", graph: "", spawn: Agents([(position: (0.0, 0.0))]))])"#,
    )
    .expect("a scene");
    let mut harness = editor(dir.path());
    let before = harness.state().workspace.open_graph_name().clone();
    harness.state_mut().apply(Command::OpenScenePath(path));
    harness.run_steps(4);
    assert_eq!(harness.state().workspace.open_graph_name(), before);
    harness.get_by_label_contains(
        "group \"walkers\": its graph file is named \"\" (no file): choose one in the Scene panel",
    );
    assert!(
        harness
            .query_by_label_contains("not a regular file")
            .is_none(),
        "the folder is not read as the graph"
    );
    // The status line says so too, rather than "with its graph " and nothing after it.
    harness.get_by_label_contains(&format!(
        "empty.scene.ron; its first group names no graph file, the editor keeps {before}"
    ));
    assert!(harness.query_by_label_contains("with its graph").is_none());
}
