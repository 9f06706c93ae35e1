//! Names and crash recovery (issue 42): prompts name the file, a preset's too, and recovery
//! after a crash brings the graph back under its name, in the scene it ran in, with the
//! scene's unsaved edits (it used to come back as "Untitled" on the default 30-agent scene).

use std::path::Path;

use app::editor::{Command, Dialog, EditorApp, Then};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use crate::common::{EditorHarness, edit_the_graph, pass_the_autosave, preset_scene_index};

fn editor(dir: &Path) -> Harness<'static, EditorApp> {
    EditorHarness::new(dir).build()
}

#[test]
fn the_unsaved_changes_prompt_names_a_presets_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = editor(dir.path());
    edit_the_graph(&mut harness);
    harness.state_mut().guard(Then::Close);
    harness.run_steps(2);
    assert_eq!(
        harness.state().view.dialog,
        Some(Dialog::Unsaved(Then::Close))
    );
    harness.get_by_label("The graph boids.graph.ron is not saved.");
}

#[test]
fn recovery_brings_back_the_graph_by_name_in_its_scene_with_the_scenes_edits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = editor(dir.path());
    harness.state_mut().preview.host.running = false;
    harness
        .state_mut()
        .apply(Command::OpenPresetScene(preset_scene_index(
            "chasm.scene.ron",
        )));
    harness.run_steps(3);
    let graph = harness.state().workspace.open_graph_name();
    assert_eq!(graph, "jumper.graph.ron");
    let agents = harness.state().preview.agent_count();
    edit_the_graph(&mut harness);
    let obstacles = crate::common::scene(&harness).scene.obstacles.len();
    let app = harness.state_mut();
    app.preview
        .add_obstacle(&mut app.workspace.scene, glam::Vec2::new(3.0, 4.0));
    harness.run_steps(2);
    let unsaved = crate::common::graph(&harness);
    assert!(crate::common::scene(&harness).is_dirty());
    pass_the_autosave(&mut harness);
    let autosaved = graph_runtime::Scene::load(&dir.path().join("autosave.scene.ron"))
        .expect("the scene's autosave loads");
    assert_eq!(autosaved.obstacles.len(), obstacles + 1);
    // "Crash": no close, a new editor on the same data folder.
    drop(harness);
    let mut harness = editor(dir.path());
    assert!(matches!(
        harness.state().view.dialog,
        Some(Dialog::Recover(_))
    ));
    harness.get_by_label(
        "Steergraph closed with unsaved changes to the graph jumper.graph.ron (preset).",
    );
    harness.get_by_label("Recover").click();
    harness.run_steps(3);
    let app = harness.state();
    assert_eq!(app.workspace.open_graph_name(), "jumper.graph.ron");
    assert_eq!(app.workspace.document.to_graph(), unsaved);
    assert!(app.workspace.document.is_dirty());
    assert_eq!(
        app.workspace.title(),
        "jumper.graph.ron (preset) • — Steergraph"
    );
    assert_eq!(app.workspace.scene.name(), "chasm.scene.ron");
    assert_eq!(app.workspace.scene.scene.obstacles.len(), obstacles + 1);
    assert!(
        app.workspace.scene.is_dirty(),
        "the scene's edit is still unsaved"
    );
    assert_eq!(
        app.preview.agent_count(),
        agents,
        "the chasm's agents, not 30"
    );
}

#[test]
fn recovery_opens_again_the_scene_that_had_no_unsaved_changes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = editor(dir.path());
    harness.state_mut().preview.host.running = false;
    // The four-way crossing runs orca_crowd.graph.ron, whose first preset scene is the swap
    // circle: recovery must not pair the graph with that one.
    harness
        .state_mut()
        .apply(Command::OpenPresetScene(preset_scene_index(
            "four_way.scene.ron",
        )));
    harness.run_steps(3);
    edit_the_graph(&mut harness);
    pass_the_autosave(&mut harness);
    drop(harness);
    let mut harness = editor(dir.path());
    harness.get_by_label("It ran in the scene four_way.scene.ron (preset), which opens again.");
    harness.get_by_label("Recover").click();
    harness.run_steps(3);
    let app = harness.state();
    assert_eq!(app.workspace.open_graph_name(), "orca_crowd.graph.ron");
    assert_eq!(app.workspace.scene.name(), "four_way.scene.ron");
    assert!(!app.workspace.scene.is_dirty());
    assert_eq!(app.preview.agent_count(), 400);
}
