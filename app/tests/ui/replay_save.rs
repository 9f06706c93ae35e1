//! File > Save run as replay… (issue 45): the preview's run saved as a replay file that plays
//! back bit for bit, proven before it is written; a run edited while it ran (a graph edited,
//! a fork from a past tick with an edit) is saved with its edits and plays back the same in
//! the runtime and in the editor; a run a replay cannot hold (an agent dragged) and a scene
//! that is not saved are refused with nothing written.

use std::path::Path;
use std::time::Duration;

use app::editor::{Command, Dialog, EditorApp, Purpose, ReplayStatus, SceneEdit};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::FileAccess;
use graph_runtime::replay::{ReplayFile, state_digest};

use crate::common::{EditorHarness, graph, run_while};

/// The editor on a copy of the crossing preset (50 agents) saved in `dir`, frames and ticks
/// both 1/60 s, the run at tick 0.
fn crossing_in(dir: &Path) -> Harness<'static, EditorApp> {
    preset_in(dir, ["crossing.scene.ron", "crossing.graph.ron"])
}

/// The editor on a copy of a preset's scene and graph (`files`, the scene first) saved in
/// `dir`, frames and ticks both 1/60 s, the run at tick 0.
fn preset_in(dir: &Path, files: [&str; 2]) -> Harness<'static, EditorApp> {
    let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
    for file in files {
        std::fs::copy(presets.join(file), dir.join(file)).expect("copy the preset");
    }
    let mut harness = EditorHarness::new(&dir.join("autosave"))
        .sixtieth()
        .in_app_dialogs(dir)
        .paused()
        .build();
    harness
        .state_mut()
        .apply(Command::OpenScenePath(dir.join(files[0])));
    harness.state_mut().preview.host.running = false;
    harness.run_steps(2);
    let simulation = harness.state().preview.host.simulation.as_ref();
    assert_eq!(
        simulation.map(graph_runtime::Simulation::tick),
        Some(0),
        "the run starts paused"
    );
    harness
}

/// Plays the preview for `frames` frames of 1/60 s: a tick each.
fn play(harness: &mut Harness<'static, EditorApp>, frames: usize) {
    harness.state_mut().preview.host.running = true;
    harness.run_steps(frames);
}

/// The preview's tick and the digest of its state.
fn shown(harness: &Harness<'static, EditorApp>) -> (u64, u64) {
    let simulation = (harness.state().preview.host.simulation.as_ref()).expect("the preview runs");
    (simulation.tick(), state_digest(simulation))
}

/// File > Save run as replay…, the name `out` picked, and the save's answer waited for.
fn save_run(harness: &mut Harness<'static, EditorApp>, out: &Path) {
    harness.state_mut().apply(Command::SaveRunAsReplay);
    answer_save(harness, out);
}

/// The save dialog answered with `out`, and the proof and the writing waited for.
fn answer_save(harness: &mut Harness<'static, EditorApp>, out: &Path) {
    harness
        .state_mut()
        .apply(Command::Picked(Purpose::SaveReplay, out.to_path_buf()));
    run_while(harness, Duration::from_secs(120), "the save", |app| {
        app.is_saving_run()
    });
}

/// The error dialog's text.
fn error_text(harness: &Harness<'static, EditorApp>) -> String {
    match &harness.state().view.dialog {
        Some(Dialog::Error(text)) => text.clone(),
        other => panic!("no error shown: {other:?}"),
    }
}

#[test]
fn the_previews_run_saved_as_a_replay_plays_back_bit_for_bit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = crossing_in(dir.path());
    play(&mut harness, 40);
    // File > Save run as replay… pauses the run and asks where, in the scene's folder.
    harness.get_by_label("File").click();
    harness.run_steps(1);
    harness.get_by_label("Save run as replay…").click();
    harness.run_steps(2);
    assert!(!harness.state().preview.host.running, "the run pauses");
    assert!(harness.state().services.files.is_open());
    assert!(harness.query_by_label("Save run as replay").is_some());
    // Paused where the menu was used (a tick a frame for the 40 frames played and the
    // menu's frames), and stays there while the name is picked.
    let (tick, digest) = shown(&harness);
    assert!(tick >= 40, "{tick}");
    harness.run_steps(10);
    assert_eq!(shown(&harness), (tick, digest), "paused");
    let out = dir.path().join("run.sgrec");
    harness
        .state_mut()
        .apply(Command::Picked(Purpose::SaveReplay, out.clone()));
    let progress = harness.state().status.text().unwrap_or_default().to_owned();
    assert_eq!(
        progress,
        format!(
            "Saving the run as {}: stepping the saved scene again to check it, tick 0 of {tick}…",
            out.display()
        ),
        "the status line says how far the proof is"
    );
    run_while(&mut harness, Duration::from_secs(120), "the save", |app| {
        app.is_saving_run()
    });
    let status = harness.state().status.text().unwrap_or_default().to_owned();
    assert!(
        status.starts_with(&format!("Saved the run as {}", out.display()))
            && status.contains(&format!("50 agents, ticks 0 to {tick} of 16.67 ms"))
            && status.contains("bit for bit"),
        "{status}"
    );
    assert!(harness.state().view.dialog.is_none());
    // The file names the scene beside it and holds the run as the preview had it.
    let file = ReplayFile::load(&out).expect("the replay loads");
    assert_eq!(file.scene, "crossing.scene.ron");
    assert_eq!((file.ticks(), file.agents), (tick, 50));
    assert_eq!(file.dt.to_bits(), (1.0_f32 / 60.0).to_bits());
    assert_eq!(
        file.digest(tick),
        Some(digest),
        "the tick as the preview had it"
    );
    // Played again by the runtime (what `steergraph replay` and the C interface do), every
    // tick checked against the file.
    let mut simulation = file.open(&out, FileAccess::SceneFolder).expect("opens");
    file.replay_to(&mut simulation, tick, "run.sgrec")
        .expect("every tick as recorded");
    assert_eq!(state_digest(&simulation), digest);
}

/// The slower top speed of the open graph (3 u/s in place of the crossing's 4), as the
/// side panel's vehicle fields set it.
fn slow_down(harness: &mut Harness<'static, EditorApp>) {
    let mut vehicle = graph(harness).vehicle;
    vehicle.max_speed = graph_runtime::Number::Literal(3.0);
    harness.state_mut().apply(Command::SetVehicle(vehicle));
}

/// The replay file `out` opened in a fresh editor and played to its end, the timeline
/// showing `words` there: the replay's status, and the preview's tick and digest; the walls
/// of the scene as the run had it there (what a fix found there is proven on).
fn played_in_the_editor(
    dir: &Path,
    out: &Path,
    words: &str,
) -> (Option<ReplayStatus>, (u64, u64), usize) {
    let mut harness = EditorHarness::new(&dir.join("autosave-replay"))
        .sixtieth()
        .build();
    harness
        .state_mut()
        .apply(Command::OpenReplayPath(out.to_path_buf()));
    let ticks = ReplayFile::load(out).expect("loads").ticks();
    harness.run_steps(ticks as usize + 10);
    assert!(
        harness.query_by_label(words).is_some(),
        "the timeline shows {words:?}"
    );
    let on_disk = graph_runtime::SceneAssets::load(&dir.join("crossing.scene.ron"));
    let host = &harness.state().preview.host;
    let walls = (host.as_replayed(on_disk.expect("loads")).scene.walls).len();
    (host.replay_status(), shown(&harness), walls)
}

/// The last tick a replay's status found as recorded, and the ticks at which its run's own
/// edits go in, as the timeline has them.
fn matched_and_edited(status: Option<ReplayStatus>) -> (u64, Vec<u64>) {
    match status {
        Some(ReplayStatus::Matching {
            matched, edited, ..
        }) => (matched, edited),
        other => panic!("not matching: {other:?}"),
    }
}

#[test]
fn a_run_edited_while_it_ran_is_saved_with_its_edits_and_plays_back_bit_for_bit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = crossing_in(dir.path());
    play(&mut harness, 20);
    // A slower top speed from tick 20 on, the graph saved: the files on disk now start
    // with the edit, so the run's first graph is kept too.
    slow_down(&mut harness);
    harness.state_mut().apply(Command::Save);
    play(&mut harness, 20);
    let (tick, digest) = shown(&harness);
    assert_eq!(tick, 40, "the run went on through the edit");
    let out = dir.path().join("run.sgrec");
    save_run(&mut harness, &out);
    assert!(harness.state().view.dialog.is_none(), "saved, no error");
    let status = harness.state().status.text().unwrap_or_default().to_owned();
    assert!(
        status.contains("with the run's changes (2, by tick)") && status.contains("bit for bit"),
        "{status}"
    );
    let file = ReplayFile::load(&out).expect("written");
    let ticks: Vec<u64> = file.edits.changes().iter().map(|c| c.tick).collect();
    assert_eq!(
        ticks,
        [0, 20],
        "the graph the run began with, and the edit at tick 20"
    );
    let speeds: Vec<f32> = (file.edits.changes().iter())
        .map(|c| c.graphs[0].vehicle.max_speed)
        .collect();
    assert_eq!(speeds, [4.0, 3.0]);
    assert_eq!(file.digest(40), Some(digest));
    let mut simulation = file.open(&out, FileAccess::SceneFolder).expect("opens");
    file.replay_to(&mut simulation, tick, "run.sgrec")
        .expect("every tick as recorded");
    assert_eq!(state_digest(&simulation), digest);
    // Opened in the editor, it plays to its end, every tick as recorded.
    let (status, at, _) = played_in_the_editor(dir.path(), &out, "· edited at 0.00 s");
    assert_eq!(at, (40, digest));
    assert_eq!(matched_and_edited(status), (40, vec![0, 20]));
}

#[test]
fn a_fork_from_a_past_tick_with_an_edit_is_saved_as_the_fork() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = crossing_in(dir.path());
    play(&mut harness, 60);
    let original = shown(&harness);
    // Back to tick 30, the top speed slowed there (unsaved), and on to tick 60 again.
    harness.state_mut().preview.host.seek(30);
    harness.run_steps(1);
    slow_down(&mut harness);
    harness.run_steps(1);
    while shown(&harness).0 < 60 {
        play(&mut harness, 1);
    }
    harness.state_mut().preview.host.running = false;
    let (tick, digest) = shown(&harness);
    assert!(
        tick >= 60 && digest != original.1,
        "the fork differs: {tick}"
    );
    let out = dir.path().join("fork.sgrec");
    save_run(&mut harness, &out);
    assert!(harness.state().view.dialog.is_none(), "saved, no error");
    let file = ReplayFile::load(&out).expect("written");
    // The preview's cursor, put in its world as the run began, and the fork's edit, at the
    // tick it was made: both groups run the crossing's graph.
    let changes = file.edits.changes();
    let ticks: Vec<u64> = changes.iter().map(|c| c.tick).collect();
    assert_eq!(ticks, [0, 30], "{changes:?}");
    assert_eq!(
        changes[0].targets,
        Some(vec![("cursor".to_owned(), glam::Vec2::ZERO)])
    );
    assert!(changes[0].graphs.is_empty() && changes[0].scene.is_none());
    let groups: Vec<usize> = changes[1].graphs.iter().map(|g| g.group).collect();
    assert_eq!(groups, [0, 1]);
    assert!(changes[1].graphs.iter().all(|g| g.vehicle.max_speed == 3.0));
    assert_eq!(
        file.digest(tick),
        Some(digest),
        "the fork, not the run it left"
    );
    let (status, at, _) = played_in_the_editor(dir.path(), &out, "· edited at 0.50 s");
    assert_eq!(at, (tick, digest));
    assert_eq!(matched_and_edited(status), (tick, vec![30]));
}

#[test]
fn a_wall_drawn_while_it_ran_is_saved_and_the_replay_puts_it_in_at_its_tick() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = crossing_in(dir.path());
    play(&mut harness, 20);
    // A wall drawn across the crossing at tick 20, the scene left unsaved: the file on disk
    // has no wall, so the replay must put it in.
    let mut scene = crate::common::scene(&harness).scene.clone();
    scene.walls.push(graph_runtime::Wall::polyline(vec![
        glam::Vec2::new(0.0, -8.0),
        glam::Vec2::new(0.0, 8.0),
    ]));
    harness
        .state_mut()
        .preview
        .push_edit(SceneEdit::Scene(Box::new(scene)));
    harness.run_steps(1);
    while shown(&harness).0 < 60 {
        play(&mut harness, 1);
    }
    harness.state_mut().preview.host.running = false;
    let (tick, digest) = shown(&harness);
    let out = dir.path().join("walled.sgrec");
    save_run(&mut harness, &out);
    assert!(harness.state().view.dialog.is_none(), "saved, no error");
    let file = ReplayFile::load(&out).expect("written");
    let walls: Vec<(u64, usize)> = (file.edits.changes().iter())
        .filter_map(|c| c.scene.as_ref().map(|edit| (c.tick, edit.walls.len())))
        .collect();
    assert_eq!(
        walls,
        [(21, 1)],
        "the wall, from the step after the frame it was drawn in"
    );
    assert_eq!(file.digest(tick), Some(digest));
    // Played in the editor, the world takes the wall at its tick and keeps it: the scene
    // shown (from disk, without it) does not put the world back.
    let (status, at, walls) = played_in_the_editor(dir.path(), &out, "· edited at 0.35 s");
    assert_eq!(at, (tick, digest));
    assert_eq!(
        walls, 1,
        "fixes found there are proven with the wall the run had"
    );
    assert_eq!(matched_and_edited(status), (tick, vec![21]));
}

#[test]
fn a_run_with_an_agent_dragged_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = crossing_in(dir.path());
    play(&mut harness, 20);
    // An agent dragged a unit to the right, as the preview's drag moves it.
    let simulation = harness.state_mut().preview.host.simulation.as_mut();
    simulation.expect("runs").vehicles_mut()[0].position.x += 1.0;
    play(&mut harness, 20);
    assert_eq!(shown(&harness).0, 40, "the run went on");
    let out = dir.path().join("run.sgrec");
    save_run(&mut harness, &out);
    let text = error_text(&harness);
    assert!(
        text.contains("is not the saved scene's")
            && text.contains("at tick 40")
            && text.contains("not an agent dragged")
            && text.contains("Nothing was written"),
        "{text}"
    );
    assert!(!out.exists(), "no file written");
    assert_eq!(
        harness.state().status.text(),
        Some(
            format!(
                "Did not save the run as {} (the message says why)",
                out.display()
            )
            .as_str()
        )
    );
    // Reset, run again, save: the run is the saved files' now.
    harness.state_mut().apply(Command::CloseDialog);
    harness.state_mut().preview.host.running = false;
    harness.get_by_label("Reset").click_accesskit();
    harness.run_steps(2);
    assert_eq!(shown(&harness).0, 0, "Reset starts the run again");
    play(&mut harness, 40);
    save_run(&mut harness, &out);
    assert!(harness.state().view.dialog.is_none());
    let file = ReplayFile::load(&out).expect("written this time");
    assert!(
        (file.edits.changes().iter()).all(|c| c.graphs.is_empty() && c.scene.is_none()),
        "no edits but the preview's cursor"
    );
    assert_eq!(file.digest(40), Some(shown(&harness).1));
}

#[test]
fn a_run_of_a_scene_never_saved_is_refused_before_asking_where() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A preset scene, never saved: no file for a replay to name.
    let mut harness = EditorHarness::new(&dir.path().join("autosave"))
        .sixtieth()
        .in_app_dialogs(dir.path())
        .preset("crossing.graph.ron")
        .build();
    harness.run_steps(10);
    harness.state_mut().apply(Command::SaveRunAsReplay);
    assert!(!harness.state().services.files.is_open(), "nothing asked");
    let text = error_text(&harness);
    assert!(
        text.contains("is not saved: a replay file names its scene on disk"),
        "{text}"
    );
    // A saved scene with an unsaved change to its graph: the run keeps its edits, so the
    // name is asked for.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = crossing_in(dir.path());
    play(&mut harness, 10);
    crate::common::edit_the_graph(&mut harness);
    harness.state_mut().apply(Command::SaveRunAsReplay);
    assert!(harness.state().services.files.is_open(), "asked where");
    assert!(harness.state().view.dialog.is_none());
    // A name that is not a replay file's is refused rather than written over.
    let scene = dir.path().join("crossing.scene.ron");
    let before = std::fs::read(&scene).expect("read");
    harness
        .state_mut()
        .apply(Command::Picked(Purpose::SaveReplay, scene.clone()));
    assert!(
        error_text(&harness).contains("a replay file's name ends in .sgrec"),
        "{}",
        error_text(&harness)
    );
    assert_eq!(std::fs::read(&scene).expect("read"), before);
}

#[test]
fn a_save_cancelled_from_the_status_line_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The four-way crossing: 400 Reciprocal agents, whose 300 ticks take the proof far longer
    // than the two frames between the name being picked and Cancel being clicked (it stopped
    // at ticks 14 to 22 of 120 in three runs of a debug build).
    let mut harness = preset_in(dir.path(), ["four_way.scene.ron", "orca_crowd.graph.ron"]);
    play(&mut harness, 300);
    let (tick, _) = shown(&harness);
    assert!(
        harness.query_by_label("Cancel").is_none(),
        "nothing to cancel"
    );
    // The name picked as the file dialog would give it (the dialog has a Cancel of its own).
    harness.state_mut().preview.host.running = false;
    let out = dir.path().join("four_way.sgrec");
    harness
        .state_mut()
        .apply(Command::Picked(Purpose::SaveReplay, out.clone()));
    harness.run_steps(1);
    assert!(harness.state().is_saving_run());
    harness.get_by_label("Cancel").click();
    harness.run_steps(1);
    run_while(
        &mut harness,
        Duration::from_secs(120),
        "the cancel",
        EditorApp::is_saving_run,
    );
    let status = harness.state().status.text().unwrap_or_default().to_owned();
    let prefix = format!("Cancelled saving the run as {} at tick ", out.display());
    let stopped_at = (status.strip_prefix(&prefix))
        .and_then(|rest| rest.strip_suffix(&format!(" of {tick}; nothing was written")))
        .and_then(|at| at.parse::<u64>().ok());
    assert!(
        stopped_at.is_some_and(|at| at < tick),
        "stopped before the end: {status}"
    );
    assert!(!out.exists(), "no file written");
    assert!(harness.state().view.dialog.is_none(), "no error: asked for");
    assert!(
        harness.query_by_label("Cancel").is_none(),
        "the button goes"
    );
    // A save after it runs to the end as before.
    harness.state_mut().apply(Command::SaveRunAsReplay);
    answer_save(&mut harness, &out);
    let file = ReplayFile::load(&out).expect("written this time");
    assert_eq!((file.ticks(), file.agents), (tick, 400));
}
