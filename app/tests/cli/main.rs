//! The command line as a user or a script meets it, through the `steergraph` binary cargo
//! builds for these tests: `check`, `simulate` and `bench` (`commands.rs`), the limits it
//! refuses at once (`limits.rs`), `tune` (`tune.rs`), and a game's own loop against
//! `simulate`'s CSV (`game_loop.rs`). One binary, so the helpers are linked once.

mod commands;
mod game_loop;
mod limits;
mod tune;

/// The `steergraph` binary cargo built for this test binary (`CARGO_BIN_EXE_steergraph`):
/// `cargo test -p app --test cli` builds it, whatever else runs.
fn steergraph() -> &'static str {
    env!("CARGO_BIN_EXE_steergraph")
}
