//! What a command asks of the clipboard and the window comes back from `apply` as effects
//! (carried out once, at the end of the frame), and what the preview asks of the editor comes
//! back as commands: a file dialog for a flow field, a refused scene edit's reason.

use app::editor::{Command, Dialog, EditorApp, Effect, Settings, Then};
use egui::Key;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::Graph;

use crate::common::{EditorHarness, click_at, preset_index};

#[test]
fn copy_paste_and_quit_return_their_effects_and_change_nothing_else_outside() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut app = EditorApp::new(Settings::default(), Some(dir.path().to_path_buf()), None);
    app.apply(Command::OpenPreset(preset_index("seek.graph.ron")));
    let nodes = app.workspace.document.snarl.nodes().count();
    assert!(nodes >= 2, "seek has its Seek node and more");

    // A state-only command asks nothing of the outside.
    assert_eq!(app.apply(Command::SelectAll), []);
    assert_eq!(app.workspace.selection.len(), nodes);

    // Copy: the selection's RON, once; the graph it holds is every selected node.
    let effects = app.apply(Command::Copy);
    let [Effect::CopyText(text)] = effects.as_slice() else {
        panic!("one clipboard write, got {effects:?}");
    };
    let copied = Graph::from_ron(text, "clipboard").expect("graph RON");
    assert_eq!(copied.nodes.len(), nodes);

    assert_eq!(app.apply(Command::RequestPaste), [Effect::RequestPaste]);

    // Quit with nothing unsaved closes the window; with an unsaved change it asks first and
    // closes only once the change is dropped.
    assert_eq!(app.apply(Command::Quit), [Effect::CloseWindow]);
    let mut app = EditorApp::new(Settings::default(), Some(dir.path().to_path_buf()), None);
    app.apply(Command::SelectAll);
    app.apply(Command::Delete);
    assert_eq!(app.apply(Command::Quit), []);
    assert!(
        app.workspace.document.is_dirty(),
        "Quit recorded the deletion as unsaved"
    );
    assert!(matches!(
        app.view.dialog,
        Some(Dialog::Unsaved(Then::Close))
    ));
    assert_eq!(
        app.apply(Command::Discard(Then::Close)),
        [Effect::CloseWindow]
    );
}

#[test]
fn the_field_panels_save_button_opens_the_editors_file_dialog() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = EditorHarness::new(&dir.path().join("autosave"))
        .in_app_dialogs(dir.path())
        .preset("maze.graph.ron")
        .paused()
        .build();
    assert!(!harness.state().services.files.is_open());
    harness.get_by_label("Paint field").click();
    harness.run_steps(2);
    harness.get_by_label("Save field as…").click();
    harness.run_steps(2);
    assert!(
        harness.state().services.files.is_open(),
        "the preview's request reached the dialogs"
    );
    assert!(
        harness.query_by_label("Save flow field as").is_some(),
        "the dialog is the field's"
    );
}

#[test]
fn a_refused_scene_edit_says_why_on_the_status_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = EditorHarness::new(&dir.path().join("autosave"))
        .window()
        .sixtieth()
        .preset("seek.graph.ron")
        .paused()
        .build();
    harness.get_by_label("Draw gap").click_accesskit();
    harness.run_steps(2);
    let viewport = harness.state().preview.rect().expect("viewport");
    click_at(&mut harness, viewport.center() + egui::vec2(-80.0, -60.0));
    click_at(&mut harness, viewport.center() + egui::vec2(80.0, -60.0));
    harness.key_press(Key::Enter);
    harness.run_steps(2);
    assert!(crate::common::scene(&harness).scene.gaps.is_empty());
    assert_eq!(
        harness.state().status.text(),
        Some("A gap needs at least three corners.")
    );
}
