//! The open graph changed on disk while the editor runs (a text editor or a second Steergraph
//! saved it): without unsaved edits the editor reloads it; with them a bar asks, Reload takes
//! the file (undoably) and Keep mine keeps the edits. The editor's own saves never ask. Waits
//! poll with a deadline, so a loaded machine only makes them slower.

use std::path::Path;
use std::time::{Duration, Instant};

use app::editor::{Command, Doc, EditorApp};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::{Graph, write_atomically};

use crate::common::EditorHarness;

/// How long a change on disk may take to show on a busy machine.
const DEADLINE: Duration = Duration::from_secs(60);

fn seek_graph(description: &str, x: f32) -> String {
    format!(
        r#"(
    format: "steergraph.graph",
    version: 1,
    description: "{description}",
    nodes: {{
        1: Seek(target: Point({x:?}, 0.0)),
        2: Output(input: 1),
    }},
)"#
    )
}

/// An editor on `file`, autosaving into `dir`.
fn editor_on(dir: &Path, file: &Path) -> Harness<'static, EditorApp> {
    EditorHarness::opening(&dir.join("autosave"), file.to_path_buf())
        .window()
        .in_app_dialogs(dir)
        .build()
}

/// Runs frames until `done` holds, or panics at the deadline.
fn run_until(harness: &mut Harness<'static, EditorApp>, done: impl Fn(&EditorApp) -> bool) {
    crate::common::run_while(harness, DEADLINE, "the change on disk", |app| !done(app));
}

/// Runs frames until the watcher has looked at the file once more than `checks_before` (the
/// save's own events settled and were compared), checking nothing asks about the disk
/// meanwhile or then: the wait is for the event itself, however late a busy machine delivers
/// it, not for a while.
fn stays_quiet(harness: &mut Harness<'static, EditorApp>, checks_before: u64) {
    let started = Instant::now();
    loop {
        let app = harness.state();
        assert!(app.changed_on_disk().is_empty(), "asked");
        let status = app.status.text().unwrap_or_default();
        assert!(!status.starts_with("Reloaded"), "{status}");
        if app.disk_checks() > checks_before {
            break;
        }
        assert!(
            started.elapsed() < DEADLINE,
            "the save was not seen within {DEADLINE:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
    // The frames after the check, where a change found would be applied.
    harness.run_steps(2);
    let app = harness.state();
    assert!(app.changed_on_disk().is_empty(), "asked");
    let status = app.status.text().unwrap_or_default();
    assert!(!status.starts_with("Reloaded"), "{status}");
}

/// An editor on a saved graph with an unsaved edit (its description is "mine"), whose file
/// another program then rewrote (description "theirs"), showing the bar.
fn edited_then_changed_on_disk(dir: &Path) -> (Harness<'static, EditorApp>, std::path::PathBuf) {
    let file = dir.join("chase.graph.ron");
    write_atomically(&file, seek_graph("original", 10.0)).expect("write");
    let mut harness = editor_on(dir, &file);
    harness
        .state_mut()
        .apply(Command::SetDescription("mine".to_owned()));
    harness.run_steps(2);
    assert!(crate::common::document(&harness).is_dirty());
    // Another program saves atomically, as Steergraph does.
    write_atomically(&file, seek_graph("theirs", -10.0)).expect("write");
    run_until(&mut harness, |app| !app.changed_on_disk().is_empty());
    assert_eq!(
        crate::common::document(&harness).description,
        "mine",
        "nothing lost yet"
    );
    harness.get_by_label("Keep mine");
    (harness, file)
}

#[test]
fn reload_in_the_bar_takes_the_file_and_undo_takes_it_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut harness, file) = edited_then_changed_on_disk(dir.path());
    harness.get_by_label("Reload").click_accesskit();
    harness.run_steps(3);
    let app = harness.state();
    assert!(app.changed_on_disk().is_empty(), "the bar is gone");
    assert_eq!(app.workspace.document.description, "theirs");
    let on_disk = Graph::load(&file).expect("loads");
    assert_eq!(app.workspace.document.to_graph().nodes, on_disk.nodes);
    assert!(
        !app.workspace.document.is_dirty(),
        "the document is what the file holds"
    );
    assert!(harness.query_by_label("Reload").is_none());

    harness.state_mut().apply(Command::Undo);
    harness.run_steps(2);
    assert_eq!(crate::common::document(&harness).description, "mine");
    assert!(crate::common::document(&harness).is_dirty());
}

#[test]
fn keep_mine_keeps_the_edits_and_our_own_save_does_not_ask() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut harness, file) = edited_then_changed_on_disk(dir.path());
    harness.get_by_label("Keep mine").click_accesskit();
    harness.run_steps(3);
    assert!(
        harness.state().changed_on_disk().is_empty(),
        "the bar is gone"
    );
    assert_eq!(crate::common::document(&harness).description, "mine");
    assert!(crate::common::document(&harness).is_dirty());
    assert_eq!(Graph::load(&file).expect("loads").description, "theirs");

    // Our own save, then an edit at once, before the save's events have settled.
    let checks_before = harness.state().disk_checks();
    harness.state_mut().apply(Command::Save);
    harness
        .state_mut()
        .apply(Command::SetDescription("mine, more".to_owned()));
    harness.run_steps(1);
    assert_eq!(Graph::load(&file).expect("loads").description, "mine");
    stays_quiet(&mut harness, checks_before);
    assert_eq!(crate::common::document(&harness).description, "mine, more");
    assert!(crate::common::document(&harness).is_dirty());
}

#[test]
fn a_graph_without_unsaved_edits_reloads_at_once_and_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("chase.graph.ron");
    write_atomically(&file, seek_graph("original", 10.0)).expect("write");
    let mut harness = editor_on(dir.path(), &file);
    // Written in place, as some text editors do.
    std::fs::write(&file, seek_graph("theirs", -10.0)).expect("write");
    run_until(&mut harness, |app| {
        app.workspace.document.description == "theirs"
    });
    let app = harness.state();
    assert!(app.changed_on_disk().is_empty(), "nothing to ask");
    assert!(!app.workspace.document.is_dirty());
    let status = app.status.text().unwrap_or_default();
    assert!(status.starts_with("Reloaded"), "{status}");

    // A broken save keeps the open graph and says why, with the place.
    std::fs::write(
        &file,
        seek_graph("broken", 1.0).replace("input: 1)", "input: 1"),
    )
    .expect("write");
    run_until(&mut harness, |app| {
        app.status
            .text()
            .is_some_and(|s| s.contains("does not load"))
    });
    let status = harness.state().status.text().unwrap_or_default().to_owned();
    assert!(status.contains("chase.graph.ron:"), "{status}");
    assert_eq!(crate::common::document(&harness).description, "theirs");
}

#[test]
fn the_open_scene_changed_on_disk_reloads_or_asks_as_the_graph_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
    let graph = dir.path().join("arrival.graph.ron");
    let scene = dir.path().join("arrival.scene.ron");
    std::fs::copy(presets.join("arrival.graph.ron"), &graph).expect("copy");
    let text = std::fs::read_to_string(presets.join("arrival.scene.ron")).expect("read");
    assert!(text.contains("seed: 1,"));
    std::fs::write(&scene, &text).expect("write");
    let mut harness = editor_on(dir.path(), &graph);
    harness
        .state_mut()
        .apply(Command::OpenScenePath(scene.clone()));
    harness.run_steps(3);

    // No unsaved scene edits: reloaded at once.
    write_atomically(&scene, text.replace("seed: 1,", "seed: 2,")).expect("write");
    run_until(&mut harness, |app| app.workspace.scene.scene.seed == 2);
    assert!(harness.state().changed_on_disk().is_empty());

    // With an unsaved scene edit: the bar asks, and Keep mine keeps it.
    harness.state_mut().workspace.scene.scene.seed = 7;
    harness.run_steps(2);
    assert!(crate::common::scene(&harness).is_dirty());
    write_atomically(&scene, text.replace("seed: 1,", "seed: 3,")).expect("write");
    run_until(&mut harness, |app| app.changed_on_disk() == [Doc::Scene]);
    assert_eq!(crate::common::scene(&harness).scene.seed, 7);
    harness.get_by_label("Keep mine").click_accesskit();
    harness.run_steps(2);
    assert!(harness.state().changed_on_disk().is_empty());
    assert_eq!(crate::common::scene(&harness).scene.seed, 7);
}
