//! The binary's own smoke tests. Having an integration test here also makes
//! `cargo test --workspace` build `steergraph`, which the `tests` crate runs end to end.

use std::process::Command;

#[test]
fn help_lists_the_headless_subcommands() {
    let output = Command::new(env!("CARGO_BIN_EXE_steergraph"))
        .arg("--help")
        .output()
        .expect("run steergraph");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    for subcommand in ["check", "simulate", "bench", "sweep"] {
        assert!(
            text.contains(subcommand),
            "usage lists `{subcommand}`:\n{text}"
        );
    }
}

#[test]
fn a_missing_subcommand_argument_fails_with_a_message() {
    let output = Command::new(env!("CARGO_BIN_EXE_steergraph"))
        .args(["simulate", "scene.ron"])
        .output()
        .expect("run steergraph");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--ticks"));
}
