//! `bench --gpu` and `simulate --gpu` (issue 48). A build without the `gpu` feature says how to
//! get one and exits 1; with it (CI builds it: `cargo test -p app --features gpu --test cli gpu`)
//! the GPU's CSV keeps the CPU's rows within rounding, and no adapter is an error, not a panic.

use std::process::Command;

use tests::presets_dir;

use super::steergraph;
#[cfg(feature = "gpu")]
use super::succeeds;

#[cfg(not(feature = "gpu"))]
#[test]
fn gpu_without_the_backend_says_how_to_build_it() {
    for args in [
        &["bench"][..],
        &["simulate", "--ticks", "2", "--out", "never.csv"],
    ] {
        let output = Command::new(steergraph())
            .arg(args[0])
            .arg(presets_dir().join("river.scene.ron"))
            .args(&args[1..])
            .arg("--gpu")
            .output()
            .expect("run");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("built without the GPU backend") && stderr.contains("--features gpu"),
            "{stderr}"
        );
    }
    assert!(!std::path::Path::new("never.csv").exists());
}

/// The river preset's 60 agents for 60 ticks: tick 0's rows are the CPU's to the character,
/// and every later position within 1e-3 units of the CPU's.
#[cfg(feature = "gpu")]
#[test]
fn simulate_on_the_gpu_keeps_the_cpus_rows_within_rounding() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = |gpu: bool| {
        let out = dir.path().join(if gpu { "gpu.csv" } else { "cpu.csv" });
        let mut command = Command::new(steergraph());
        command
            .arg("simulate")
            .arg(presets_dir().join("river.scene.ron"))
            .args(["--ticks", "60", "--out"])
            .arg(&out);
        if gpu {
            command.arg("--gpu");
        }
        let output = succeeds(&mut command);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(stdout.ends_with("on the GPU\n"), gpu, "{stdout}");
        std::fs::read_to_string(out).expect("written")
    };
    let (cpu, gpu) = (run(false), run(true));
    let (cpu, gpu): (Vec<&str>, Vec<&str>) = (cpu.lines().collect(), gpu.lines().collect());
    assert_eq!(cpu.len(), 1 + 61 * 60);
    assert_eq!(cpu.len(), gpu.len());
    assert_eq!(cpu[..61], gpu[..61], "the header and tick 0");
    let numbers = |row: &str| -> Vec<f32> {
        row.split(',')
            .map(|x| x.parse().expect("a number"))
            .collect()
    };
    for (c, g) in cpu[1..].iter().zip(&gpu[1..]) {
        let (c, g) = (numbers(c), numbers(g));
        assert_eq!(c[..2], g[..2], "tick and agent");
        let gap = glam::Vec2::new(c[2] - g[2], c[3] - g[3]).length();
        assert!(gap < 1e-3, "{c:?} against {g:?}");
    }
}

/// `bench --gpu` names the adapter first; a scene outside the family and a machine without an
/// adapter (wgpu told to use OpenGL, which the backend does not build) exit 1 saying why.
#[cfg(feature = "gpu")]
#[test]
fn bench_on_the_gpu_names_the_adapter_and_refusals_say_why() {
    let output = succeeds(
        Command::new(steergraph())
            .arg("bench")
            .arg(presets_dir().join("river.scene.ron"))
            .args(["--ticks", "5", "--gpu"]),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("adapter: "), "{stdout}");
    assert!(
        lines[1].starts_with("60 agents x 5 ticks on the GPU in "),
        "{stdout}"
    );
    let refused = |scene: &str, backend: Option<&str>| {
        let mut command = Command::new(steergraph());
        command
            .arg("bench")
            .arg(presets_dir().join(scene))
            .args(["--ticks", "5", "--gpu"]);
        if let Some(backend) = backend {
            command.env("WGPU_BACKEND", backend);
        }
        let output = command.output().expect("run");
        assert_eq!(output.status.code(), Some(1), "{scene}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let halls = refused("halls.scene.ron", None);
    assert!(halls.contains("WallAvoidance (node #1)"), "{halls}");
    let none = refused("river.scene.ron", Some("gl"));
    assert!(none.contains("no GPU adapter found"), "{none}");
}
