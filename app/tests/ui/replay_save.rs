//! File > Save run as replay… (issue 45): the preview's run saved as a replay file that plays
//! back bit for bit, proven before it is written; a run edited while it ran, and a scene that
//! is not saved, are refused with nothing written.

use std::path::Path;
use std::time::Duration;

use app::editor::{Command, Dialog, EditorApp, Purpose};
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

#[test]
fn a_run_edited_while_it_ran_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = crossing_in(dir.path());
    play(&mut harness, 20);
    // A slower top speed from tick 20 on, saved: the files now make another run from tick 0.
    let mut vehicle = graph(&harness).vehicle;
    vehicle.max_speed = graph_runtime::Number::Literal(3.0);
    harness.state_mut().apply(Command::SetVehicle(vehicle));
    harness.state_mut().apply(Command::Save);
    harness.state_mut().apply(Command::SaveScene);
    play(&mut harness, 20);
    assert_eq!(shown(&harness).0, 40, "the run went on through the edit");
    let out = dir.path().join("run.sgrec");
    save_run(&mut harness, &out);
    let text = error_text(&harness);
    assert!(
        text.contains("is not the saved scene's")
            && text.contains("at tick 40")
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
    assert_eq!(file.digest(40), Some(shown(&harness).1));
}

#[test]
fn a_run_of_an_unsaved_scene_or_graph_is_refused_before_asking_where() {
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
    // A saved scene with an unsaved change to its graph.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = crossing_in(dir.path());
    play(&mut harness, 10);
    crate::common::edit_the_graph(&mut harness);
    harness.state_mut().apply(Command::SaveRunAsReplay);
    assert!(!harness.state().services.files.is_open(), "nothing asked");
    assert!(
        error_text(&harness).contains("has unsaved changes"),
        "{}",
        error_text(&harness)
    );
    // A name that is not a replay file's is refused rather than written over.
    harness.state_mut().apply(Command::CloseDialog);
    harness.state_mut().apply(Command::Save);
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
