//! Replay files in the editor (issue 45): a run recorded headless (`steergraph record`, here
//! its library call) opens with its scene and graph and plays in the preview at its own tick
//! length, every tick checked against the recording, and pauses at its end; a tick that
//! differs stops it there and says which; an edit leaves the replay; a replay whose scene
//! changed is refused with nothing in the editor changed.

use std::path::Path;

use app::editor::{Command, Dialog, ReplayStatus};
use egui_kittest::kittest::Queryable as _;
use graph_runtime::SceneAssets;
use graph_runtime::replay::{ReplayFile, state_digest};

use crate::common::EditorHarness;

/// The crossing preset (50 agents, one graph) in `dir`, recorded for `ticks` ticks of 1/30 s
/// (twice the preview's own tick) to `run.sgrec`.
fn recorded_crossing(dir: &Path, ticks: u64) -> ReplayFile {
    let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
    for file in ["crossing.scene.ron", "crossing.graph.ron"] {
        std::fs::copy(presets.join(file), dir.join(file)).expect("copy the preset");
    }
    let assets = SceneAssets::load(&dir.join("crossing.scene.ron")).expect("the preset loads");
    let file = ReplayFile::record(
        &assets,
        "crossing.scene.ron".into(),
        ticks,
        1.0 / 30.0,
        |_| {},
    )
    .expect("records");
    file.save(&dir.join("run.sgrec")).expect("saves");
    file
}

/// The preview's tick and the digest of its state (what `steergraph replay` prints, bit for
/// bit).
fn shown(harness: &egui_kittest::Harness<'static, app::editor::EditorApp>) -> (u64, u64) {
    let simulation = (harness.state().preview.host.simulation.as_ref()).expect("the preview runs");
    (simulation.tick(), state_digest(simulation))
}

#[test]
fn a_replay_plays_in_the_preview_as_recorded_and_pauses_at_its_end() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = recorded_crossing(dir.path(), 30);
    let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
    harness
        .state_mut()
        .apply(Command::OpenReplayPath(dir.path().join("run.sgrec")));
    harness.run_steps(2);
    let app = harness.state();
    assert_eq!(
        app.workspace.document.path.as_deref(),
        Some(dir.path().join("crossing.graph.ron").as_path()),
        "its graph is the open graph"
    );
    assert_eq!(app.workspace.scene.name(), "crossing.scene.ron");
    assert_eq!(app.preview.agent_count(), 50);
    assert!((app.preview.host.tick_length() - 1.0 / 30.0).abs() < 1e-9);
    let status = app.status.text().unwrap_or_default();
    assert!(
        status.contains("Playing replay") && status.contains("ticks 0 to 30 of 33.33 ms"),
        "{status}"
    );
    // Frames of 1/60 s, ticks of 1/30 s: a tick every second frame; 30 ticks in 60 frames,
    // and the run stops at the recording's last tick however many frames follow.
    harness.run_steps(70);
    let (tick, digest) = shown(&harness);
    assert_eq!(tick, 30);
    assert_eq!(
        Some(digest),
        file.digest(30),
        "tick 30 as recorded, bit for bit"
    );
    assert!(!harness.state().preview.host.running, "paused at the end");
    assert_eq!(
        harness.state().preview.host.replay_status(),
        Some(ReplayStatus::Matching {
            name: dir.path().join("run.sgrec").display().to_string(),
            matched: 30,
            last: 30,
            edited: Vec::new(),
        })
    );
    harness.run_steps(1);
    assert!(
        harness
            .query_by_label_contains("Replay: 30/30 as recorded")
            .is_some(),
        "the timeline says how far the run was checked"
    );
    // Back on the timeline: tick 12 as the recording has it, at 12/30 s.
    harness.state_mut().preview.host.seek(12);
    harness.run_steps(1);
    assert_eq!(shown(&harness), (12, file.digest(12).expect("recorded")));
    assert!((harness.state().preview.host.time - 0.4).abs() < 1e-5);
}

#[test]
fn a_tick_that_differs_stops_the_replay_there_and_says_which() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = recorded_crossing(dir.path(), 20);
    // Tick 7's digest changed in the file: as if another build had recorded it.
    let path = dir.path().join("run.sgrec");
    let text = std::fs::read_to_string(&path).expect("read");
    let real = format!("\"{:016x}\"", file.digest(7).expect("tick 7"));
    assert_eq!(
        text.matches(&real).count(),
        1,
        "tick 7's digest is in the file once"
    );
    std::fs::write(&path, text.replace(&real, "\"0123456789abcdef\"")).expect("write");
    let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
    harness.state_mut().apply(Command::OpenReplayPath(path));
    harness.run_steps(60);
    assert_eq!(shown(&harness).0, 7, "stopped at the tick that differs");
    let host = &harness.state().preview.host;
    assert!(!host.running);
    let Some(ReplayStatus::Differs { why }) = host.replay_status() else {
        panic!("{:?}", host.replay_status());
    };
    assert!(
        why.contains("differs from the recorded run at tick 7"),
        "{why}"
    );
    assert!(host.problems.contains(&why), "{:?}", host.problems);
}

#[test]
fn an_edit_leaves_the_replay_and_a_reset_runs_the_preview_as_usual() {
    let dir = tempfile::tempdir().expect("temp dir");
    recorded_crossing(dir.path(), 60);
    let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
    harness
        .state_mut()
        .apply(Command::OpenReplayPath(dir.path().join("run.sgrec")));
    harness.run_steps(20);
    let tick = shown(&harness).0;
    assert!((5..=12).contains(&tick), "{tick}");
    // An obstacle added: no longer the recorded run.
    (harness.state_mut().workspace.scene.scene.obstacles).push(graph_runtime::Obstacle {
        center: glam::Vec2::new(0.0, 0.0),
        radius: 1.0,
    });
    harness.run_steps(2);
    let status = harness.state().preview.host.replay_status();
    let Some(ReplayStatus::Left { why }) = status else {
        panic!("{status:?}");
    };
    assert!(
        why.contains("left the replay at tick") && why.contains("the scene was edited"),
        "{why}"
    );
    assert!(harness.state().preview.host.running, "the preview runs on");
    harness.get_by_label("Reset").click();
    harness.run_steps(2);
    let host = &harness.state().preview.host;
    // The preview's own tick again, nothing checked; the timeline still says it was left.
    assert!((host.tick_length() - app::editor::TICK).abs() < 1e-9);
    assert_eq!(host.replay_status(), Some(ReplayStatus::Left { why }));
    assert!(!host.replaying());
    harness.run_steps(1);
    assert!(
        harness
            .query_by_label_contains("Replay left: edited")
            .is_some()
    );
}

#[test]
fn a_replay_whose_scene_changed_is_refused_and_nothing_changes() {
    let dir = tempfile::tempdir().expect("temp dir");
    recorded_crossing(dir.path(), 10);
    // The graph the scene runs saved with another top speed since.
    let graph = dir.path().join("crossing.graph.ron");
    let text = std::fs::read_to_string(&graph).expect("read");
    assert!(
        text.contains("max_speed: 4.0,"),
        "the preset as this test knows it"
    );
    std::fs::write(&graph, text.replace("max_speed: 4.0,", "max_speed: 5.0,")).expect("write");
    let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
    let open_before = harness.state().workspace.document.path.clone();
    harness
        .state_mut()
        .apply(Command::OpenReplayPath(dir.path().join("run.sgrec")));
    harness.run_steps(2);
    let app = harness.state();
    let Some(Dialog::Error(text)) = &app.view.dialog else {
        panic!("{:?}", app.view.dialog);
    };
    assert!(text.starts_with("Could not open the replay."), "{text}");
    assert!(text.contains("is not the one recorded"), "{text}");
    assert_eq!(app.workspace.document.path, open_before);
    assert_eq!(app.preview.host.replay_status(), None);
}

#[test]
fn a_replay_given_at_start_waits_for_the_recovery_question() {
    let dir = tempfile::tempdir().expect("temp dir");
    recorded_crossing(dir.path(), 30);
    let run = dir.path().join("run.sgrec");
    // Unsaved work autosaved, then a "crash": the next editor asks about it first.
    let mut harness = EditorHarness::new(dir.path()).build();
    crate::common::edit_the_graph(&mut harness);
    crate::common::pass_the_autosave(&mut harness);
    drop(harness);
    let ask_then_play = |answer: &str| {
        let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
        harness.state_mut().open_replay_on_start(&run);
        harness.run_steps(10);
        let app = harness.state();
        assert!(matches!(app.view.dialog, Some(Dialog::Recover(_))));
        assert_eq!(
            app.preview.host.replay_status(),
            None,
            "nothing plays behind it"
        );
        assert_ne!(app.workspace.scene.name(), "crossing.scene.ron");
        harness.get_by_label(answer).click();
        harness.run_steps(3);
        harness
    };
    // Discard: the replay opens and plays.
    let mut harness = ask_then_play("Discard");
    assert_eq!(harness.state().workspace.scene.name(), "crossing.scene.ron");
    assert_eq!(harness.state().preview.agent_count(), 50);
    assert!(matches!(
        harness.state().preview.host.replay_status(),
        Some(ReplayStatus::Matching { .. })
    ));
    harness.run_steps(10);
    let (tick, _) = shown(&harness);
    assert!(tick > 0, "it plays");
    drop(harness);
    // Recover: the work comes back first, and opening the replay asks about it (nothing
    // lost), as any opening does.
    let mut harness = EditorHarness::new(dir.path()).build();
    crate::common::edit_the_graph(&mut harness);
    crate::common::pass_the_autosave(&mut harness);
    drop(harness);
    let harness = ask_then_play("Recover");
    let app = harness.state();
    assert!(
        app.workspace.document.is_dirty(),
        "the unsaved work is back"
    );
    assert_eq!(
        app.view.dialog,
        Some(Dialog::Unsaved(app::editor::Then::Replay(run.clone())))
    );
    assert_eq!(app.preview.host.replay_status(), None);
}
