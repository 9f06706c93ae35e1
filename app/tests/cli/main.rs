//! The command line as a user or a script meets it, through the `steergraph` binary cargo
//! builds for these tests: `check`, `simulate` and `bench` (`commands.rs`), the limits it
//! refuses at once (`limits.rs`), `tune` (`tune.rs`), `record` and `replay` (`replay.rs`),
//! `diagnose` (`diagnose.rs`), `--gpu` (`gpu.rs`), and a game's own loop against `simulate`'s
//! CSV (`game_loop.rs`). One binary, so the helpers are linked once.

mod commands;
mod diagnose;
mod game_loop;
mod gpu;
mod limits;
mod replay;
mod tune;

/// The `steergraph` binary cargo built for this test binary (`CARGO_BIN_EXE_steergraph`):
/// `cargo test -p app --test cli` builds it, whatever else runs.
fn steergraph() -> &'static str {
    env!("CARGO_BIN_EXE_steergraph")
}

/// Runs `command` and returns its output, failing the test with the command and its stderr
/// unless it exited successfully.
fn succeeds(command: &mut std::process::Command) -> std::process::Output {
    let output = command.output().expect("run");
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}
