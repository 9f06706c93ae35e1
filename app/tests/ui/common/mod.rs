//! What the editor's kittests share: one harness builder ([`EditorHarness`]: window size,
//! frame length, preset, paused preview, in-app file dialogs) on an editor whose preview is
//! paced exactly (how far it runs depends on the frames alone, never on how busy the machine
//! is), and the clicks and typing a person does.

mod gather;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use app::editor::{
    Backend, Command, EditorApp, FileDialogs, PRESET_GRAPHS, PRESET_SCENES, Pacing, Settings,
};
pub use gather::{GATHER_SCENE, editor_on_gather, open_parameter_menu};

use egui::{Event, Key, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

/// Seconds a frame lasts unless a test says otherwise (kittest's own default: a quarter
/// second, so each running frame ticks the preview six times, its most).
pub const QUARTER_SECOND: f32 = 0.25;
/// A frame as long as the window's (a double-click's two clicks stay within egui's 0.3 s,
/// and each running frame ticks the preview once).
pub const SIXTIETH: f32 = 1.0 / 60.0;

/// The editor window's default size, less the title bar.
pub const WINDOW: egui::Vec2 = egui::vec2(1560.0, 930.0);
/// A large desktop window.
pub const LARGE: egui::Vec2 = egui::vec2(1600.0, 1000.0);
/// The smallest window the editor promises to fit (a laptop's).
pub const SMALL: egui::Vec2 = egui::vec2(1024.0, 640.0);

/// The editor as a test wants it, built into a harness by [`EditorHarness::build`].
///
/// ```ignore
/// let harness = EditorHarness::new(dir).window().sixtieth().preset("seek.graph.ron").paused().build();
/// ```
pub struct EditorHarness {
    app: EditorApp,
    size: egui::Vec2,
    frame: f32,
    warm_up: usize,
    preset: Option<&'static str>,
    paused: bool,
}

impl EditorHarness {
    /// The editor on its default preset, autosaving into `autosave`, in a [`LARGE`] window,
    /// frames of [`QUARTER_SECOND`], three frames run, the preview running.
    pub fn new(autosave: &Path) -> Self {
        Self::on(EditorApp::new(
            Settings::default(),
            Some(autosave.to_path_buf()),
            None,
        ))
    }

    /// The editor opened on the graph `file`, autosaving into `autosave`.
    pub fn opening(autosave: &Path, file: PathBuf) -> Self {
        Self::on(EditorApp::new(
            Settings::default(),
            Some(autosave.to_path_buf()),
            Some(file),
        ))
    }

    /// A harness on `app` as it is.
    pub fn on(app: EditorApp) -> Self {
        Self {
            app,
            size: LARGE,
            frame: QUARTER_SECOND,
            warm_up: 3,
            preset: None,
            paused: false,
        }
    }

    /// The editor before its window opens, to set it up as a test needs.
    pub fn app(&mut self) -> &mut EditorApp {
        &mut self.app
    }

    /// A window of `size` points.
    pub fn size(mut self, size: egui::Vec2) -> Self {
        self.size = size;
        self
    }

    /// The editor window's default size ([`WINDOW`]).
    pub fn window(self) -> Self {
        self.size(WINDOW)
    }

    /// Frames of a sixtieth of a second ([`SIXTIETH`]: a double click stays a double click,
    /// a running frame is one tick), four of them run first.
    pub fn sixtieth(mut self) -> Self {
        self.frame = SIXTIETH;
        self.warm_up = 4;
        self
    }

    /// `frames` frames run before anything else (three unless said).
    pub fn warm_up(mut self, frames: usize) -> Self {
        self.warm_up = frames;
        self
    }

    /// The preset graph `file` (with its scene) opened once the window is up.
    pub fn preset(mut self, file: &'static str) -> Self {
        self.preset = Some(file);
        self
    }

    /// The preview paused once the window is up (and the preset, if any, opened).
    pub fn paused(mut self) -> Self {
        self.paused = true;
        self
    }

    /// File dialogs drawn inside the window (no portal, as on a plain X11 desktop), starting
    /// in `dir`.
    pub fn in_app_dialogs(mut self, dir: &Path) -> Self {
        self.app.services.files = FileDialogs::new(Backend::InApp);
        self.app
            .services
            .files
            .set_default_directory(dir.to_path_buf());
        self
    }

    /// The harness, its first frames run.
    pub fn build(mut self) -> Harness<'static, EditorApp> {
        self.app.services.pacing = Pacing::Exact;
        let mut harness = Harness::builder()
            .with_size(self.size)
            .with_step_dt(self.frame)
            .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), self.app);
        harness.run_steps(self.warm_up);
        if let Some(file) = self.preset {
            harness
                .state_mut()
                .apply(Command::OpenPreset(preset_index(file)));
            harness.run_steps(4);
        }
        if self.paused {
            harness.state_mut().preview.host.running = false;
            harness.run_steps(2);
        }
        harness
    }
}

/// The editor on its default preset, its autosave in `autosave`, the preview paused.
pub fn harness(autosave: &Path) -> Harness<'static, EditorApp> {
    EditorHarness::new(autosave).paused().build()
}

/// The index of the preset graph `file` in File > Presets.
pub fn preset_index(file: &str) -> usize {
    PRESET_GRAPHS
        .iter()
        .position(|p| p.file == file)
        .unwrap_or_else(|| panic!("no preset graph {file}"))
}

/// The index of the preset scene `file` in `PRESET_SCENES`.
pub fn preset_scene_index(file: &str) -> usize {
    PRESET_SCENES
        .iter()
        .position(|p| p.file == file)
        .unwrap_or_else(|| panic!("no preset scene {file}"))
}

/// A primary click at `at` (screen points), press and release in one frame, then two frames.
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

/// A click of `button` with `modifiers` held at `at` as a hand makes it: the pointer arrives
/// (a frame), presses (a frame), releases (a frame), then two frames.
pub fn click_with(
    harness: &mut Harness<'static, EditorApp>,
    at: Pos2,
    button: PointerButton,
    modifiers: Modifiers,
) {
    harness.event(Event::PointerMoved(at));
    harness.step();
    for pressed in [true, false] {
        harness.event(Event::PointerButton {
            pos: at,
            button,
            pressed,
            modifiers,
        });
        harness.step();
    }
    harness.run_steps(2);
}

/// A primary-button drag as a hand makes it: the pointer arrives at `from` (a frame),
/// presses (a frame), moves to `to` in `moves` equal steps (a frame each), releases, then
/// three frames.
pub fn drag(harness: &mut Harness<'static, EditorApp>, from: Pos2, to: Pos2, moves: u16) {
    harness.event(Event::PointerMoved(from));
    harness.step();
    harness.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    harness.step();
    for step in 1..=moves {
        let along = f32::from(step) / f32::from(moves);
        harness.event(Event::PointerMoved(from + (to - from) * along));
        harness.step();
    }
    harness.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    harness.run_steps(3);
}

/// Paint field, then "New field over bounds": a flow field over the scene's bounds, selected
/// for painting.
pub fn new_field_over_bounds(harness: &mut Harness<'static, EditorApp>) {
    harness.get_by_label("Paint field").click_accesskit();
    harness.run_steps(2);
    harness
        .get_by_label("New field over bounds")
        .click_accesskit();
    harness.run_steps(2);
}

/// Replaces the text of the focused field with `text` (select all, type), then a frame.
pub fn type_text(harness: &mut Harness<'static, EditorApp>, text: &str) {
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.event(Event::Text(text.to_owned()));
    harness.step();
}

/// Steps frames while `busy` holds (a sweep or a search running), for at most `limit`, then two
/// frames; fails naming `what` if it is still busy then.
pub fn run_while(
    harness: &mut Harness<'static, EditorApp>,
    limit: Duration,
    what: &str,
    busy: impl Fn(&EditorApp) -> bool,
) {
    let started = Instant::now();
    while busy(harness.state()) {
        assert!(started.elapsed() < limit, "{what} did not finish in time");
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
    harness.run_steps(2);
}

/// The open graph's document.
pub fn document<'a>(harness: &'a Harness<'static, EditorApp>) -> &'a app::editor::Document {
    &harness.state().workspace.document
}

/// The scene the preview runs, as the workspace holds it.
pub fn scene<'a>(harness: &'a Harness<'static, EditorApp>) -> &'a app::editor::SceneDocument {
    &harness.state().workspace.scene
}

/// The open graph as its file would save it.
pub fn graph(harness: &Harness<'static, EditorApp>) -> graph_runtime::Graph {
    harness.state().workspace.document.to_graph()
}

/// Adds a Wander node to the open graph: an unsaved change.
pub fn edit_the_graph(harness: &mut Harness<'static, EditorApp>) {
    harness.state_mut().apply(Command::AddNode {
        kind: graph_runtime::NodeKind::Wander,
        at: egui::pos2(0.0, 900.0),
        wire: None,
    });
    harness.run_steps(2);
}

/// Lets the autosave interval pass twice (the clock of the frames, not the machine's).
pub fn pass_the_autosave(harness: &mut Harness<'static, EditorApp>) {
    for _ in 0..40 {
        harness.input_mut().time = Some(harness.input().time.unwrap_or(0.0) + 0.5);
        harness.step();
    }
}
