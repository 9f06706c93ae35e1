//! Solid walls in the editor (issue 28): the scene panel's "solid walls" box is on for a scene
//! with walls; clearing it lets steps through walls in the running preview (for a game whose own
//! physics keeps agents out), saves `passable_walls: true`, and undo makes them solid again.

use std::path::Path;

use app::editor::{Command, EditorApp};

use crate::common::{EditorHarness, preset_index};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

fn harness(dir: &Path) -> Harness<'static, EditorApp> {
    EditorHarness::new(&dir.join("autosave"))
        .window()
        .sixtieth()
        .in_app_dialogs(dir)
        .build()
}

fn live_walls_passable(harness: &Harness<'static, EditorApp>) -> bool {
    let host = &harness.state().preview.host;
    host.simulation
        .as_ref()
        .expect("the preview runs")
        .world()
        .passable_walls()
}

#[test]
fn the_solid_walls_box_lets_steps_through_walls_and_undo_makes_them_solid_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let index = preset_index("rooms.graph.ron");
    harness.state_mut().apply(Command::OpenPreset(index));
    harness.run_steps(4);
    assert!(
        !crate::common::scene(&harness).scene.walls.is_empty(),
        "the rooms have walls"
    );
    assert!(!crate::common::scene(&harness).scene.passable_walls);
    assert!(!live_walls_passable(&harness), "walls are solid by default");

    harness.get_by_label("Scene").click_accesskit();
    harness.run_steps(2);
    harness.get_by_label("solid walls").click_accesskit();
    harness.run_steps(3);
    assert!(
        crate::common::scene(&harness).scene.passable_walls,
        "the box was cleared"
    );
    assert!(
        live_walls_passable(&harness),
        "the running world lets steps through"
    );
    let saved = harness
        .state()
        .workspace
        .scene
        .scene
        .to_ron()
        .expect("saves");
    assert!(
        saved.contains("passable_walls: true") && saved.contains("version: 2"),
        "{saved}"
    );

    harness.state_mut().apply(Command::Undo);
    harness.run_steps(3);
    assert!(
        !crate::common::scene(&harness).scene.passable_walls,
        "one undo"
    );
    assert!(!live_walls_passable(&harness));
}
