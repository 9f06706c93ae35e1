//! `steergraph sweep` end to end on the boids preset: the CSV's shape, an answer known in
//! advance (more alignment, a more polarized flock), the same bytes on any thread count, and
//! errors that name what is wrong.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The boids preset: 400 agents flocking with the parameters `alignment`, `separation`, ….
fn boids_scene() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets/boids.scene.ron")
}

fn sweep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_steergraph"))
        .arg("sweep")
        .arg(boids_scene())
        .args(args)
        .output()
        .expect("run steergraph")
}

/// One row of numbers per value; empty cells (a metric nothing measured) as `None`.
fn rows(csv: &str) -> Vec<Vec<Option<f64>>> {
    csv.lines()
        .skip(1)
        .map(|line| {
            line.split(',')
                .map(|cell| (!cell.is_empty()).then(|| cell.parse().expect("a number")))
                .collect()
        })
        .collect()
}

/// Alignment steers each boid toward its neighbors' mean heading: without it the boids wander
/// apart in every direction (polarization near 0); with the preset's weight of 4 the flock
/// heads one way (near 1). So the mean polarization rises with `alignment`.
#[test]
fn polarization_rises_with_the_alignment_weight_and_the_csv_has_every_metric() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("sweep.csv");
    let output = sweep(&[
        "--param",
        "alignment=0..4",
        "--steps",
        "3",
        "--seconds",
        "4",
        "--seeds",
        "2",
        "--metric",
        "polarization",
        "--out",
        out.to_str().expect("a UTF-8 path"),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let csv = std::fs::read_to_string(&out).expect("the CSV is written");
    let header = csv.lines().next().expect("a header");
    assert_eq!(
        header,
        "value,mean_speed_mean,mean_speed_spread,min_spacing_mean,min_spacing_spread,\
         path_distance_mean,path_distance_spread,agent_overlaps_mean,agent_overlaps_spread,\
         obstacle_overlaps_mean,obstacle_overlaps_spread,wall_crossings_mean,\
         wall_crossings_spread,stuck_agents_mean,stuck_agents_spread,polarization_mean,\
         polarization_spread,arrived_mean,arrived_spread,arrived_50_mean,arrived_50_spread,\
         arrived_95_mean,arrived_95_spread,unreachable_mean,unreachable_spread,\
         route_efficiency_mean,route_efficiency_spread,stalled_agents_mean,stalled_agents_spread"
    );
    let rows = rows(&csv);
    let values: Vec<Option<f64>> = rows.iter().map(|row| row[0]).collect();
    assert_eq!(values, [Some(0.0), Some(2.0), Some(4.0)]);
    let polarization: Vec<f64> = rows.iter().map(|row| row[15].expect("measured")).collect();
    assert!(
        polarization.windows(2).all(|w| w[1] > w[0] + 0.1),
        "rising: {polarization:?}"
    );
    assert!(
        polarization[0] < 0.3 && polarization[2] > 0.6,
        "{polarization:?}"
    );
    // Two seeds differ, so the spread is measured and positive; no boid follows a path.
    assert!(rows.iter().all(|row| row[16].is_some_and(|s| s > 0.0)));
    assert!(rows.iter().all(|row| row[5].is_none() && row[6].is_none()));
    // Boids have no goal to arrive at and no route: the arrival and route columns are empty,
    // and without a goal none is ever stalled.
    assert!(
        rows.iter()
            .all(|row| row[17..27].iter().all(Option::is_none))
    );
    assert!(rows.iter().all(|row| row[27] == Some(0.0)));
    assert_eq!(rows[0].len(), 29, "a value and 14 metrics' mean and spread");
    // The summary names the metric asked for, one line per value.
    let summary = String::from_utf8_lossy(&output.stdout);
    assert_eq!(summary.lines().count(), 3, "{summary}");
    assert!(
        summary.starts_with("alignment = 0: polarization "),
        "{summary}"
    );
}

#[test]
fn the_csv_is_the_same_on_one_thread_and_on_three() {
    let args = |threads: &'static str| {
        [
            "--param",
            "separation=0..3",
            "--steps",
            "2",
            "--seconds",
            "1",
            "--seeds",
            "2",
            "--threads",
            threads,
        ]
    };
    let one = sweep(&args("1"));
    let three = sweep(&args("3"));
    assert!(one.status.success() && three.status.success());
    // Without --out the CSV is all of stdout and the summary goes to stderr.
    let csv = String::from_utf8_lossy(&one.stdout);
    assert!(csv.starts_with("value,mean_speed_mean,"), "{csv}");
    assert_eq!(csv.lines().count(), 3);
    assert!(String::from_utf8_lossy(&one.stderr).contains("separation = 3: min spacing (u)"));
    assert_eq!(one.stdout, three.stdout);
}

#[test]
fn a_parameter_the_scene_lacks_or_a_bad_metric_is_named() {
    let output = sweep(&["--param", "bravery=0..1", "--steps", "2"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no graph in the scene declares a parameter \"bravery\"")
            && stderr.contains("alignment, cohesion, contact"),
        "{stderr}"
    );
    let output = sweep(&["--param", "alignment=0..1", "--metric", "speed"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--metric: unknown metric \"speed\" (valid: mean_speed, min_spacing"),
        "{stderr}"
    );
    // A value the field refuses (a negative radius) is named before anything runs.
    let output = sweep(&["--param", "flock_radius=-1..1", "--steps", "2"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("flock_radius = -1: group \"boids\""),
        "{stderr}"
    );
}
