//! Shared helpers for the cross-crate integration tests in `tests/tests/`.

use std::path::{Path, PathBuf};

/// The workspace's `presets/` folder.
pub fn presets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("presets")
}

/// The `steergraph` binary built by `cargo test --workspace` (the `app` crate's integration
/// tests make cargo build it before any test runs).
///
/// # Panics
///
/// When the binary has not been built, with a message saying how to build it.
pub fn steergraph() -> PathBuf {
    let executable = std::env::current_exe().expect("path of the test executable");
    // target/<profile>/deps/<test> -> target/<profile>/steergraph
    let profile_dir = executable
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>");
    let binary = profile_dir.join(format!("steergraph{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "{} is missing: run the whole suite with `cargo test --workspace` (or `cargo build -p app` first)",
        binary.display()
    );
    binary
}

/// Every file in `presets/` whose name ends with `suffix`, sorted.
///
/// # Panics
///
/// When `presets/` cannot be read.
pub fn presets_with_suffix(suffix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(presets_dir())
        .expect("presets directory")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.to_string_lossy().ends_with(suffix))
        .collect();
    files.sort();
    files
}

/// The preset scene `scene` of `presets/`, loaded with its files, and a simulation of it at
/// its start.
///
/// # Panics
///
/// When the preset does not load or run.
pub fn run_preset(scene: &str) -> (graph_runtime::SceneAssets, graph_runtime::Simulation) {
    let assets =
        graph_runtime::SceneAssets::load(&presets_dir().join(scene)).expect("preset loads");
    let simulation = graph_runtime::Simulation::new(&assets).expect("preset runs");
    (assets, simulation)
}
