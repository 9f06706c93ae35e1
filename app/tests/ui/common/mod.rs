//! What the editor's kittests share: a harness on an editor whose preview is paced exactly
//! (how far it runs depends on the frames alone, never on how busy the machine is), the
//! editor in a 1600 × 1000 window, paused, and a click.

use std::path::Path;

use app::editor::{EditorApp, Pacing, Settings};
use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;

/// Seconds a frame lasts unless a test says otherwise (kittest's own default: a quarter
/// second, so each running frame ticks the preview six times, its most).
pub const QUARTER_SECOND: f32 = 0.25;
/// A frame as long as the window's (a double-click's two clicks stay within egui's 0.3 s,
/// and each running frame ticks the preview once).
pub const SIXTIETH: f32 = 1.0 / 60.0;

/// A harness on `app` in a window of `size`, each frame `step_dt` seconds long, the preview
/// paced exactly; `warm_up` frames have run.
pub fn harness_on(
    mut app: EditorApp,
    size: egui::Vec2,
    step_dt: f32,
    warm_up: usize,
) -> Harness<'static, EditorApp> {
    app.pacing = Pacing::Exact;
    let mut harness = Harness::builder()
        .with_size(size)
        .with_step_dt(step_dt)
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    harness.run_steps(warm_up);
    harness
}

/// The editor on its default preset, its autosave in `autosave`, the preview paused.
pub fn harness(autosave: &Path) -> Harness<'static, EditorApp> {
    let app = EditorApp::new(Settings::default(), Some(autosave.to_path_buf()), None);
    let mut harness = harness_on(app, egui::vec2(1600.0, 1000.0), QUARTER_SECOND, 3);
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
