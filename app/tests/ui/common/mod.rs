//! What the preview's kittests share: the editor in a 1600 × 1000 window, paused, and a click.

use std::path::Path;

use app::editor::{EditorApp, Settings};
use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;

/// The editor on its default preset, its autosave in `autosave`, the preview paused.
pub fn harness(autosave: &Path) -> Harness<'static, EditorApp> {
    let app = EditorApp::new(Settings::default(), Some(autosave.to_path_buf()), None);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    harness.run_steps(3);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(2);
    harness
}

/// A primary click at `at` (screen points), then two frames.
pub fn click_at(harness: &mut Harness<'static, EditorApp>, at: Pos2) {
    harness.event(Event::PointerMoved(at));
    for pressed in [true, false] {
        harness.event(Event::PointerButton {
            pos: at,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    harness.run_steps(2);
}
