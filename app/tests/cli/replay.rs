//! `record` and `replay` as a user meets them: a run written to a `.sgrec` file and played
//! again prints, at any tick, the rows `simulate` wrote there, on any thread count; a run
//! edited while it ran (a version 2 file, as the editor saves one) prints its own rows, the
//! same on any thread count; a scene changed since is refused with a message and nothing
//! printed.

use std::path::Path;
use std::process::Command;

use super::{steergraph, succeeds};

fn presets() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets")
}

/// `steergraph record` of `scene` for 2 s with seed 4.
fn record(scene: &Path, out: &Path, threads: &str) {
    succeeds(
        Command::new(steergraph())
            .arg("record")
            .arg(scene)
            .args([
                "--seconds",
                "2",
                "--seed",
                "4",
                "--threads",
                threads,
                "--out",
            ])
            .arg(out),
    );
}

/// The rows of `csv` at `tick`, its header first.
fn rows_at(csv: &str, tick: u64) -> String {
    let mut lines = csv.lines();
    let header = lines.next().unwrap_or_default().to_owned();
    let prefix = format!("{tick},");
    let rows: Vec<&str> = lines.filter(|line| line.starts_with(&prefix)).collect();
    format!("{header}\n{}\n", rows.join("\n"))
}

#[test]
fn a_replay_prints_the_rows_simulate_wrote_at_any_tick() {
    let folder = tempfile::tempdir().expect("a folder");
    // The jump preset: facing and heights in its rows.
    let scene = presets().join("chasm.scene.ron");
    let (one, two) = (
        folder.path().join("one.sgrec"),
        folder.path().join("two.sgrec"),
    );
    record(&scene, &one, "1");
    record(&scene, &two, "2");
    let text = std::fs::read_to_string(&one).expect("written");
    assert_eq!(
        text,
        std::fs::read_to_string(&two).expect("written"),
        "same on 1 or 2 threads"
    );
    assert!(
        text.contains("ticks: 120,"),
        "2 s of 1/60 s:\n{}",
        &text[..300]
    );
    assert!(text.contains("seed: 4,"));
    let csv = folder.path().join("run.csv");
    succeeds(
        Command::new(steergraph())
            .arg("simulate")
            .arg(&scene)
            .args(["--ticks", "120", "--seed", "4", "--out"])
            .arg(&csv),
    );
    let csv = std::fs::read_to_string(&csv).expect("written");
    assert!(csv.starts_with("tick,agent,x,y,vx,vy,angle,angular_velocity,height\n"));
    for tick in [0, 1, 77, 120] {
        let output = succeeds(Command::new(steergraph()).arg("replay").arg(&one).args([
            "--tick",
            &tick.to_string(),
            "--threads",
            "2",
        ]));
        let printed = String::from_utf8(output.stdout).expect("text");
        assert_eq!(printed, rows_at(&csv, tick), "tick {tick}");
    }
    // `check` reads it, and finds its scene unchanged.
    let output = succeeds(Command::new(steergraph()).arg("check").arg(&one));
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("replay of "), "{said}");
    assert!(said.contains("ticks 0 to 120 of 0.016666668 s"), "{said}");
}

#[test]
fn a_run_edited_while_it_ran_replays_its_own_rows_on_any_thread_count() {
    let folder = tempfile::tempdir().expect("a folder");
    let (edited, _) = tests::edited_runs::edited_river(folder.path());
    let csv = folder.path().join("run.csv");
    succeeds(
        Command::new(steergraph())
            .arg("simulate")
            .arg(folder.path().join("river.scene.ron"))
            .args(["--ticks", "90", "--out"])
            .arg(&csv),
    );
    let unedited = std::fs::read_to_string(&csv).expect("written");
    let replay = |tick: u64, threads: &str| {
        let output = succeeds(Command::new(steergraph()).arg("replay").arg(&edited).args([
            "--tick",
            &tick.to_string(),
            "--threads",
            threads,
        ]));
        String::from_utf8(output.stdout).expect("text")
    };
    // Before the edit, the scene's own run; after it, the edited run's, checked against the
    // file's digests tick by tick, the same on 1 and 2 threads.
    assert_eq!(replay(30, "1"), rows_at(&unedited, 30));
    let (one, two) = (replay(90, "1"), replay(90, "2"));
    assert_eq!(one, two, "same on 1 or 2 threads");
    assert_ne!(one, rows_at(&unedited, 90), "the edit changed the run");
    let output = succeeds(Command::new(steergraph()).arg("check").arg(&edited));
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains(
            "ticks 0 to 90 of 0.016666668 s, with 1 change by tick (an edit while it ran)"
        ),
        "{said}"
    );
}

#[test]
fn a_replay_of_a_changed_scene_is_refused_and_prints_nothing() {
    let folder = tempfile::tempdir().expect("a folder");
    let boids = std::fs::read_to_string(presets().join("boids.scene.ron")).expect("reads");
    let scene = folder.path().join("boids.scene.ron");
    std::fs::write(&scene, &boids).expect("writes");
    std::fs::copy(
        presets().join("boids.graph.ron"),
        folder.path().join("boids.graph.ron"),
    )
    .expect("copies");
    let run = folder.path().join("runs").join("boids.sgrec");
    std::fs::create_dir(folder.path().join("runs")).expect("a folder");
    record(&scene, &run, "1");
    let text = std::fs::read_to_string(&run).expect("written");
    assert!(
        text.contains("scene: \"../boids.scene.ron\","),
        "named from its folder"
    );
    // A rock one unit wider: another scene.
    let wider = boids.replacen("radius: 6.0", "radius: 7.0", 1);
    assert_ne!(wider, boids);
    std::fs::write(&scene, wider).expect("writes");
    let output = Command::new(steergraph())
        .arg("replay")
        .arg(&run)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("boids.scene.ron is not the one recorded"),
        "{stderr}"
    );
    // A tick the run does not have.
    std::fs::write(&scene, &boids).expect("writes");
    let output = Command::new(steergraph())
        .arg("replay")
        .arg(&run)
        .args(["--tick", "121"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--tick 121: the run has ticks 0 to 120"),
        "{stderr}"
    );
}

#[test]
fn record_refuses_a_length_that_is_no_run() {
    for (seconds, says) in [
        ("0", "--seconds must be a finite number > 0, found 0"),
        ("NaN", "--seconds must be a finite number > 0, found NaN"),
        (
            "20000",
            "--seconds 20000 is 1200000 ticks of 0.016666668 s; a replay holds at most 1000000",
        ),
    ] {
        let folder = tempfile::tempdir().expect("a folder");
        let out = folder.path().join("run.sgrec");
        let output = Command::new(steergraph())
            .arg("record")
            .arg(presets().join("boids.scene.ron"))
            .args(["--seconds", seconds, "--out"])
            .arg(&out)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{stderr}");
        assert!(!out.exists(), "nothing written");
    }
}
