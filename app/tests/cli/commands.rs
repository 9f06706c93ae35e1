//! `steergraph` end to end: `check`, `simulate` and `bench` as a script would run them.

use std::fmt::Write as _;
use std::process::Command;

use graph_runtime::{SceneAssets, Simulation};
use tests::presets_dir;

use crate::{steergraph, succeeds};

#[test]
fn check_accepts_every_preset() {
    let mut files = tests::presets_with_suffix(".ron");
    assert!(!files.is_empty());
    files.sort();
    let output = succeeds(Command::new(steergraph()).arg("check").args(&files));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("ok: ")).count(),
        files.len()
    );
}

#[test]
fn check_reports_a_malformed_file_with_path_line_and_column() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("broken.graph.ron");
    std::fs::write(
        &file,
        "(\n    format: \"steergraph.graph\",\n    version: 1,\n    nodes: {\n        1: Seek(target: Named(\"cursor\"),, \n    },\n)\n",
    )
    .expect("write");
    let output = Command::new(steergraph())
        .arg("check")
        .arg(&file)
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected_prefix = format!("{}:5:", file.display());
    assert!(
        stderr.starts_with(&expected_prefix),
        "expected `{expected_prefix}…`, got:\n{stderr}"
    );
}

#[test]
fn check_prints_every_error_and_exits_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad_graph = dir.path().join("bad.graph.ron");
    std::fs::write(
        &bad_graph,
        r#"(format: "steergraph.graph", version: 1, nodes: {
            1: Separation(radius: -1.0, fov: 400.0),
            2: Blend(inputs: [(node: 1, weight: 1.0), (node: 9, weight: 1.0)]),
        })"#,
    )
    .expect("write");
    let good_graph = presets_dir().join("arrival.graph.ron");
    let output = Command::new(steergraph())
        .arg("check")
        .arg(&bad_graph)
        .arg(&good_graph)
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    for needle in [
        "the graph has no Output node",
        "node #1 field `radius`: -1",
        "node #1 field `fov`: 400",
        "node #2 port `input 2`: linked to node #9, which does not exist",
    ] {
        assert!(stderr.contains(needle), "missing `{needle}` in:\n{stderr}");
    }
    assert_eq!(stderr.lines().count(), 4, "one line per problem:\n{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("arrival.graph.ron"));
}

fn simulate(threads: usize, out: &std::path::Path) {
    let mut command = Command::new(steergraph());
    command
        .args(["simulate"])
        .arg(presets_dir().join("boids.scene.ron"))
        .args([
            "--ticks",
            "40",
            "--seed",
            "11",
            "--threads",
            &threads.to_string(),
            "--out",
        ])
        .arg(out);
    succeeds(&mut command);
}

#[test]
fn simulate_is_deterministic_across_thread_counts_and_matches_the_library() {
    let dir = tempfile::tempdir().expect("temp dir");
    let one = dir.path().join("one.csv");
    let two = dir.path().join("two.csv");
    simulate(1, &one);
    simulate(2, &two);
    let one = std::fs::read_to_string(one).expect("csv");
    let two = std::fs::read_to_string(two).expect("csv");
    assert_eq!(one, two, "1 and 2 threads give the same bytes");

    let mut assets = SceneAssets::load(&presets_dir().join("boids.scene.ron")).expect("scene");
    assets.scene.seed = 11;
    let mut simulation = Simulation::new(&assets).expect("simulation");
    let mut expected = String::from("tick,agent,x,y,vx,vy\n");
    for tick in 0..=40 {
        if tick > 0 {
            simulation.step(1.0 / 60.0);
        }
        for (agent, v) in simulation.vehicles().iter().enumerate() {
            writeln!(
                expected,
                "{tick},{agent},{},{},{},{}",
                v.position.x, v.position.y, v.velocity.x, v.velocity.y
            )
            .expect("write to a String");
        }
    }
    assert_eq!(one.lines().count(), 41 * 400 + 1);
    assert_eq!(
        one, expected,
        "the CLI writes exactly what the library computes"
    );

    // Every float printed parses back to the same bits.
    let last = one.lines().last().expect("rows");
    let fields: Vec<&str> = last.split(',').collect();
    let x: f32 = fields[2].parse().expect("float");
    assert_eq!(x.to_bits(), simulation.vehicles()[399].position.x.to_bits());
}

#[test]
fn simulate_refuses_a_bad_scene_without_writing_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scene = dir.path().join("bad.scene.ron");
    std::fs::write(
        &scene,
        r#"(format: "steergraph.scene", version: 1, bounds: (min: (0.0, 0.0), max: (1.0, 1.0)),
            groups: [(name: "g", graph: "missing.graph.ron", spawn: Agents([]))])"#,
    )
    .expect("write");
    let out = dir.path().join("out.csv");
    let output = Command::new(steergraph())
        .arg("simulate")
        .arg(&scene)
        .args(["--ticks", "5", "--out"])
        .arg(&out)
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("missing.graph.ron"));
    assert!(!out.exists());
}

#[test]
fn bench_prints_agent_ticks_per_second() {
    let output = succeeds(
        Command::new(steergraph())
            .arg("bench")
            .arg(presets_dir().join("boids.scene.ron"))
            .args(["--agents", "300", "--ticks", "5", "--threads", "1"]),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("300 agents x 5 ticks on 1 thread in "),
        "{stdout}"
    );
    assert!(stdout.contains("agent-ticks/s"), "{stdout}");
}

#[test]
fn simulate_appends_facing_and_height_for_a_scene_that_jumps() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("chasm.csv");
    let output = succeeds(
        Command::new(steergraph())
            .arg("simulate")
            .arg(presets_dir().join("chasm.scene.ron"))
            .args(["--ticks", "300", "--out"])
            .arg(&out),
    );
    let csv = std::fs::read_to_string(&out).expect("csv");
    // One line on success: rows, agents, ticks and the file (the chasm's 21 agents, in 301
    // states each: 6,321 rows).
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!(
            "wrote 6321 rows (21 agents, ticks 0 to 300 of 0.016666668 s) to {}\n",
            out.display()
        )
    );
    assert_eq!(csv.lines().count(), 1 + 6321);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("tick,agent,x,y,vx,vy,angle,angular_velocity,height")
    );
    // The same run in the library: the first six columns as before, then the facing, its
    // spin and, while in the air, the height.
    let assets = SceneAssets::load(&presets_dir().join("chasm.scene.ron")).expect("scene");
    let mut simulation = Simulation::new(&assets).expect("simulation");
    let mut airborne_rows = 0;
    for tick in 0..=300 {
        if tick > 0 {
            simulation.step(1.0 / 60.0);
        }
        for (agent, v) in simulation.vehicles().iter().enumerate() {
            let mut expected = format!(
                "{tick},{agent},{},{},{},{},{},{},",
                v.position.x,
                v.position.y,
                v.velocity.x,
                v.velocity.y,
                v.facing(),
                v.spin()
            );
            if let Some(flight) = simulation.flight(agent) {
                write!(expected, "{}", flight.height()).expect("to a String");
                airborne_rows += 1;
            }
            assert_eq!(lines.next(), Some(expected.as_str()), "tick {tick}");
        }
    }
    assert!(airborne_rows > 100, "{airborne_rows} rows in the air");
    assert_eq!(lines.next(), None);
}
