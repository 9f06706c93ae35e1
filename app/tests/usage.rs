//! The binary's own smoke tests. Having an integration test here also makes
//! `cargo test --workspace` build `steergraph`, which the `tests` crate runs end to end.

use std::process::Command;

#[test]
fn without_a_subcommand_it_prints_the_usage() {
    let output = Command::new(env!("CARGO_BIN_EXE_steergraph"))
        .output()
        .expect("run steergraph");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    for subcommand in ["check", "simulate", "bench"] {
        assert!(
            text.contains(subcommand),
            "usage lists `{subcommand}`:\n{text}"
        );
    }
}

#[test]
fn an_unknown_subcommand_fails_with_a_message() {
    let output = Command::new(env!("CARGO_BIN_EXE_steergraph"))
        .arg("fly")
        .output()
        .expect("run steergraph");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("fly"));
}
