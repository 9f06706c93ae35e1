//! `diagnose` as a user meets it: the stuck agents of a corpus scene with what holds them and
//! the fixes proven to free them, the same from the scene and from a replay of its run, and
//! as CSV.

use std::path::Path;
use std::process::Command;

use super::{steergraph, succeeds};

fn corpus(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/stuck")
        .join(name)
}

fn diagnose(input: &Path, extra: &[&str]) -> String {
    let output = succeeds(
        Command::new(steergraph())
            .arg("diagnose")
            .arg(input)
            .args(extra),
    );
    String::from_utf8(output.stdout).expect("text")
}

#[test]
fn diagnose_names_the_cancelling_nodes_and_the_fix_that_frees_the_agent() {
    let text = diagnose(&corpus("forces_cancel_1.scene.ron"), &[]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0], "tick 600 (10.00 s): 1 of 1 agents stuck",
        "{text}"
    );
    assert!(lines[1].starts_with("agent 0 (subject) at ("), "{text}");
    assert!(
        lines[1].contains(
            "): forces_cancel: its forces cancel: Arrival (node #1) 3.99, Flee (node #2) 3.99"
        ),
        "{text}"
    );
    assert!(
        lines[2].starts_with("fix: frees 1 of 1 within 5 s (0 without), overlapping pairs 0.00 then 0.00, agents on walls 0.00 then 0.00: weaken Flee (node #2): its weight in Blend (node #3) from 1 to 0.5"),
        "{text}"
    );
}

#[test]
fn a_replay_of_the_run_is_diagnosed_as_the_scene_is() {
    let folder = tempfile::tempdir().expect("a folder");
    let scene = corpus("pinned_1.scene.ron");
    let run = folder.path().join("pinned.sgrec");
    succeeds(
        Command::new(steergraph())
            .arg("record")
            .arg(&scene)
            .args(["--seconds", "10", "--out"])
            .arg(&run),
    );
    let from_scene = diagnose(&scene, &["--threads", "1"]);
    let from_replay = diagnose(&run, &["--threads", "2"]);
    assert_eq!(from_scene, from_replay);
    assert!(
        from_scene.contains("agent 0 (subject) at ("),
        "{from_scene}"
    );
    assert!(
        from_scene.contains("pinned: pinned against the wall at"),
        "{from_scene}"
    );
    // Diagnosed earlier in the replay: at tick 300 of its 600.
    let earlier = diagnose(&run, &["--seconds", "5"]);
    assert!(earlier.starts_with("tick 300 (5.00 s): "), "{earlier}");
}

#[test]
fn diagnose_writes_csv_with_a_row_per_stuck_agent_and_per_fix() {
    let folder = tempfile::tempdir().expect("a folder");
    let out = folder.path().join("stuck.csv");
    let said = diagnose(
        &corpus("head_on_1.scene.ron"),
        &["--out", out.to_str().expect("utf-8")],
    );
    let csv = std::fs::read_to_string(&out).expect("written");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "row,agent,group,x,y,cause,freed,stuck,freed_without,overlaps_before,overlaps_after,wall_contacts_before,wall_contacts_after,words"
    );
    let stuck: Vec<&str> = rows
        .iter()
        .copied()
        .filter(|r| r.starts_with("stuck,"))
        .collect();
    assert_eq!(stuck.len(), 2, "{csv}");
    assert!(stuck[0].starts_with("stuck,0,\"subject\","), "{csv}");
    assert!(
        stuck[0].contains(",head_on,,,,,,,,\"head-on with agent 1: "),
        "{csv}"
    );
    assert!(
        rows.iter().any(|r| r.starts_with("fix,,,,,,2,2,0,")),
        "{csv}"
    );
    let fixes = rows.iter().filter(|r| r.starts_with("fix,")).count();
    assert_eq!(
        said,
        format!(
            "wrote 2 stuck agents and {fixes} fixes at tick 600 to {}\n",
            out.display()
        )
    );
}

/// One stuck agent that no fix frees is "it" (the jammed preset at 13 s under `diagnose`, a
/// moment with one walker held by the jam and no fix that frees it; `diagnose` once said "no
/// fix tried frees them" of such an agent).
#[test]
fn one_stuck_agent_no_fix_frees_is_it() {
    let jammed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets/jammed.scene.ron");
    let text = diagnose(&jammed, &["--seconds", "13"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0], "tick 780 (13.00 s): 1 of 38 agents stuck",
        "{text}"
    );
    assert!(lines[1].starts_with("agent 9 (walkers) at ("), "{text}");
    assert_eq!(lines[2], "no fix tried frees it within 5 s", "{text}");
}
