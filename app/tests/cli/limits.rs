//! The command line refuses what it cannot finish, or what would destroy an input, at once and
//! naming the argument and the limit (issue 28's abusive command lines: each of these aborted,
//! ran until the disk filled, or did something else than asked before). A command still running
//! after a minute is killed, and fails its test.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tests::presets_dir;

use crate::steergraph;

/// How long a command may run before it is killed and the test fails. A refusal takes
/// milliseconds; a command that started the work it should refuse (hours of ticks, a disk
/// filled) is stopped here. A deadline for the child on a busy machine, not a speed check.
const PATIENCE: Duration = Duration::from_secs(60);

/// Everything `pipe` gives until it closes, read on a thread of its own so that a child
/// writing much never blocks on a full pipe while it is waited for.
fn drain(pipe: Option<impl Read + Send + 'static>, name: &str) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::Builder::new()
        .name(format!("steergraph {name}"))
        .spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                pipe.read_to_end(&mut bytes).expect("read the pipe");
            }
            bytes
        })
        .expect("a thread")
}

/// Runs `steergraph` with `arguments` in the presets folder; kills it, and fails, if it is
/// still running after [`PATIENCE`].
fn run(arguments: &[&str]) -> Output {
    let mut child = Command::new(steergraph())
        .args(arguments)
        .current_dir(presets_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("steergraph runs");
    let stdout = drain(child.stdout.take(), "stdout");
    let stderr = drain(child.stderr.take(), "stderr");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits for steergraph") {
            break status;
        }
        if started.elapsed() > PATIENCE {
            child.kill().expect("kills steergraph");
            child.wait().expect("waits for steergraph");
            panic!(
                "{arguments:?} still ran after {PATIENCE:?}: it started the work it should refuse"
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    }
}

/// The command fails (within [`PATIENCE`]) with an error line containing every `needle`.
#[track_caller]
fn refused(arguments: &[&str], needles: &[&str]) {
    let output = run(arguments);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{arguments:?} was accepted");
    for needle in needles {
        assert!(stderr.contains(needle), "{arguments:?}: {stderr}");
    }
}

#[test]
fn sweeps_beyond_the_run_limit_are_refused_before_allocating() {
    // 1e9 seeds × 9 values allocated 384 GB and aborted.
    refused(
        &[
            "sweep",
            "boids.scene.ron",
            "--param",
            "separation=1..3",
            "--seeds",
            "1000000000",
        ],
        &["--seeds 1000000000", "100000 runs"],
    );
    refused(
        &[
            "sweep",
            "boids.scene.ron",
            "--param",
            "separation=1..3",
            "--steps",
            "1000000000",
        ],
        &["--steps 1000000000", "100000 runs"],
    );
    refused(
        &[
            "sweep",
            "boids.scene.ron",
            "--param",
            "separation=1..3",
            "--seconds",
            "1e30",
        ],
        &["--seconds", "3600"],
    );
    // Within each limit alone, too much work together: 90 values × 1,000 seeds × 1 hour.
    refused(
        &[
            "sweep",
            "boids.scene.ron",
            "--param",
            "separation=1..3",
            "--steps",
            "90",
            "--seeds",
            "1000",
            "--seconds",
            "3600",
        ],
        &["agent-ticks", "10000000000"],
    );
}

#[test]
fn simulate_and_bench_refuse_work_they_cannot_finish() {
    // 400 boids × 1e12 ticks: 4e14 rows of CSV.
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out.csv");
    let out = out.to_str().expect("UTF-8");
    refused(
        &[
            "simulate",
            "boids.scene.ron",
            "--ticks",
            "1000000000000",
            "--out",
            out,
        ],
        &[
            "--ticks 1000000000000",
            "400 agents",
            "100000000",
            "--ticks 249999 or fewer",
        ],
    );
    assert!(
        std::fs::read_dir(dir.path()).expect("dir").next().is_none(),
        "no file left behind"
    );
    refused(
        &["bench", "boids.scene.ron", "--ticks", "100000000000"],
        &["--ticks 100000000000", "agent-ticks"],
    );
}

#[test]
fn bench_validates_dt_as_simulate_does() {
    for dt in ["0", "NaN", "inf", "-1"] {
        let dt = &format!("--dt={dt}");
        refused(
            &["bench", "boids.scene.ron", "--ticks", "1", dt],
            &["--dt must be a finite number > 0"],
        );
        refused(
            &[
                "simulate",
                "boids.scene.ron",
                "--ticks",
                "1",
                dt,
                "--out",
                "/dev/null",
            ],
            &["--dt must be a finite number > 0"],
        );
    }
}

#[test]
fn out_never_replaces_an_input() {
    // A copy of the river scene, its graph and flow field, in a folder of its own.
    let dir = tempfile::tempdir().expect("temp dir");
    for file in ["river.scene.ron", "river.graph.ron", "river.flow.ron"] {
        std::fs::copy(presets_dir().join(file), dir.path().join(file)).expect("copied");
    }
    let scene = dir.path().join("river.scene.ron");
    let before: Vec<Vec<u8>> = ["river.scene.ron", "river.graph.ron", "river.flow.ron"]
        .iter()
        .map(|f| std::fs::read(dir.path().join(f)).expect("read"))
        .collect();
    for input in ["river.scene.ron", "river.graph.ron", "river.flow.ron"] {
        let out = dir.path().join(input);
        let (scene, out) = (scene.to_str().expect("UTF-8"), out.to_str().expect("UTF-8"));
        refused(
            &["simulate", scene, "--ticks", "2", "--out", out],
            &["--out", "an input of this run"],
        );
        refused(
            &[
                "sweep",
                scene,
                "--param",
                "speed=1..2",
                "--steps",
                "2",
                "--seconds",
                "0.1",
                "--out",
                out,
            ],
            &["--out", "an input of this run"],
        );
    }
    let after: Vec<Vec<u8>> = ["river.scene.ron", "river.graph.ron", "river.flow.ron"]
        .iter()
        .map(|f| std::fs::read(dir.path().join(f)).expect("read"))
        .collect();
    assert_eq!(before, after, "every input unchanged");
}

#[test]
fn a_range_with_three_dots_is_refused_not_read_as_one_to_point_three() {
    refused(
        &["sweep", "boids.scene.ron", "--param", "separation=1...3"],
        &["--param \"separation=1...3\"", "FROM..TO"],
    );
}

/// `check GRAPH` says exactly why each subgraph file was not loaded, as a scene would, and an
/// absolute path is refused by name (it was read as the folder's file of that name).
#[cfg(unix)]
#[test]
fn check_gives_the_exact_reason_for_every_failed_subgraph() {
    let dir = tempfile::tempdir().expect("temp dir");
    let inside = dir.path().join("level");
    std::fs::create_dir(&inside).expect("folder");
    let seek = std::fs::read_to_string(presets_dir().join("seek.graph.ron")).expect("preset");
    std::fs::write(dir.path().join("outside.graph.ron"), &seek).expect("written");
    // A file of the name the absolute path ends in: it must not be picked up.
    std::fs::write(inside.join("name.graph.ron"), &seek).expect("written");
    std::os::unix::fs::symlink("../outside.graph.ron", inside.join("link.graph.ron"))
        .expect("link");
    std::fs::copy(
        presets_dir().join("seek.scene.ron"),
        inside.join("scene.graph.ron"),
    )
    .expect("copied");
    let cases = [
        ("link.graph.ron", "is a symbolic link leading out"),
        ("../outside.graph.ron", "leaves the scene's folder (`..`)"),
        ("/name.graph.ron", "is an absolute path"),
        (
            "scene.graph.ron",
            "expected a graph file (format: \"steergraph.graph\"), found format: \"steergraph.scene\"",
        ),
        (
            "nothere.graph.ron",
            "main.graph.ron: node #1: \"nothere.graph.ron\" cannot be read",
        ),
    ];
    for (file, reason) in cases {
        let main = inside.join("main.graph.ron");
        std::fs::write(
            &main,
            format!(r#"(format: "steergraph.graph", version: 1, nodes: {{1: Subgraph(file: "{file}"), 2: Output(input: 1)}})"#),
        )
        .expect("written");
        let output = Command::new(steergraph())
            .arg("check")
            .arg(&main)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{file} was accepted");
        assert!(stderr.contains(reason), "{file}: {stderr}");
        assert!(
            !stderr.contains("missing or unreadable"),
            "{file}: the generic line is gone: {stderr}"
        );
    }
}
