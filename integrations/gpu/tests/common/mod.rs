//! What the GPU crate's tests share: the main workspace's presets and a simulation of one.

use std::path::PathBuf;

use graph_runtime::{SceneAssets, Simulation};

/// The main workspace's `presets/` folder.
pub fn presets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../presets")
}

/// The preset scene `scene` (a file name in `presets/`) with its graphs and fields.
pub fn assets(scene: &str) -> SceneAssets {
    SceneAssets::load(&presets().join(scene)).expect("the preset loads")
}

/// The preset scene `scene` built as the CPU runs it.
#[allow(
    dead_code,
    reason = "not every test binary builds a simulation straight away"
)]
pub fn simulation(scene: &str) -> Simulation {
    Simulation::new(&assets(scene)).expect("builds")
}
