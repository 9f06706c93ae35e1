//! `steergraph tune` from the command line: it reports the best values and each goal's value,
//! writes every candidate to the CSV, fails when a goal is missed, and refuses bad requests by
//! name.

use std::process::{Command, Output};

use tests::presets_dir;

use crate::steergraph;

fn run(arguments: &[&str]) -> Output {
    Command::new(steergraph())
        .args(arguments)
        .current_dir(presets_dir())
        .output()
        .expect("steergraph runs")
}

fn tune(goal: &str, out: &std::path::Path) -> Output {
    let out = out.to_str().expect("a UTF-8 path");
    run(&[
        "tune",
        "boids.scene.ron",
        "--param",
        "alignment=1..8",
        "--param",
        "separation=0.5..4",
        "--goal",
        goal,
        "--seconds",
        "2",
        "--seeds",
        "1",
        "--budget",
        "6",
        "--out",
        out,
    ])
}

#[test]
fn goals_met_or_missed_are_reported_with_the_best_values_and_every_run_in_the_csv() {
    let folder = std::env::temp_dir().join(format!("steergraph-tune-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("temporary folder");
    let csv_path = folder.join("met.csv");
    // Five overlap onsets per second is far more than 400 boids ever reach: the values as
    // they are meet the goal, and nothing is closer to them, so the tuning ends after running
    // them once (it spent its whole budget on finding its way back to them before).
    let output = tune("agent_overlaps <= 5", &csv_path);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.starts_with("the values as they are meet every goal (run 1;"),
        "{stdout}"
    );
    assert!(stdout.contains("alignment = 4 (was 4)"), "{stdout}");
    assert!(stdout.contains("separation = 1.5 (was 1.5)"), "{stdout}");
    assert!(
        stdout.contains("agent_overlaps <= 5: ") && stdout.contains("(met)"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("all goals met"), "{stdout}");
    assert_eq!(stderr.matches("run ").count(), 1, "one run: {stderr}");
    // Before the runs, what they would take at most (issue 46): 6 candidates × 1 seed, 2 s
    // of 1/60 s.
    let estimate = stderr.lines().next().unwrap_or_default();
    assert!(
        estimate.starts_with("tune: 6 runs × 120 ticks on ") && estimate.contains("; about "),
        "{stderr}"
    );
    let csv = std::fs::read_to_string(&csv_path).expect("the CSV was written");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("run,alignment,separation,agent_overlaps,distance,cost,meets_goals")
    );
    assert_eq!(lines.count(), 1);

    // No flock is more aligned than all agents heading the same way (1).
    let missed = tune("polarization >= 1.5", &folder.join("missed.csv"));
    let stdout = String::from_utf8_lossy(&missed.stdout);
    let stderr = String::from_utf8_lossy(&missed.stderr);
    assert!(!missed.status.success());
    assert!(
        stdout.contains("polarization >= 1.5: ") && stdout.contains("(NOT met)"),
        "{stdout}"
    );
    assert!(
        stderr.contains("miss 1 of 1 goals after 6 runs"),
        "{stderr}"
    );
    assert!(stdout.starts_with("best of 6 runs (run "), "{stdout}");
    assert_eq!(
        stderr.matches("run ").count(),
        6,
        "a progress line per run: {stderr}"
    );
    // Every candidate is in the CSV.
    let csv = std::fs::read_to_string(folder.join("missed.csv")).expect("the CSV was written");
    assert_eq!(csv.lines().count(), 7);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn bad_requests_are_refused_by_name() {
    let refused = |arguments: &[&str], needle: &str| {
        let output = run(arguments);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{arguments:?} was accepted");
        assert!(stderr.contains(needle), "{arguments:?}: {stderr}");
    };
    let base = ["tune", "boids.scene.ron", "--param", "alignment=1..8"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        base.iter().chain(extra).copied().collect()
    };
    refused(&with(&["--goal", "speed >= 2"]), "unknown metric \"speed\"");
    refused(
        &with(&["--goal", "polarization 0.9"]),
        "a goal is METRIC <= NUMBER",
    );
    refused(
        &with(&["--goal", "polarization >= 0.9", "--prefer", "fastest"]),
        "--prefer \"fastest\": expected closest, lowest:METRIC or highest:METRIC",
    );
    refused(
        &["tune", "boids.scene.ron", "--param", "alignment=1..8"],
        "give at least one --goal",
    );
    refused(
        &[
            "tune",
            "boids.scene.ron",
            "--param",
            "speed=1..2",
            "--goal",
            "polarization >= 0.9",
        ],
        "no graph in the scene declares a parameter \"speed\"",
    );
    refused(
        &[
            "tune",
            "boids.scene.ron",
            "--param",
            "alignment=1",
            "--goal",
            "polarization >= 0.9",
        ],
        "FROM..TO",
    );
    refused(
        &with(&["--goal", "polarization >= 0.9", "--budget", "0"]),
        "the budget must be at least one run",
    );
}

/// A problem saved as a `.tune.ron` runs by its name, the options replacing what it says, and
/// `check` validates it without running.
#[test]
fn a_tuning_problem_file_runs_and_checks() {
    let output = run(&["tune", "errands.tune.ron", "--budget", "2", "--seeds", "1"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("run ").count(), 2, "{stderr}");
    assert!(stdout.contains("best of 2 runs"), "{stdout}");
    assert!(stdout.contains("arrived_95 <= 10.5: "), "{stdout}");
    assert!(
        stdout.contains("speed = ") && stdout.contains("(was 4)"),
        "{stdout}"
    );
    let checked = run(&[
        "check",
        "swap_circle.tune.ron",
        "errands.tune.ron",
        "boids.tune.ron",
    ]);
    let stdout = String::from_utf8_lossy(&checked.stdout);
    assert!(checked.status.success(), "{stdout}");
    assert!(
        stdout.contains(
            "tuning problem on swap_circle.scene.ron, 3 parameters, 2 goals, a budget of 200 runs"
        ),
        "{stdout}"
    );
}
