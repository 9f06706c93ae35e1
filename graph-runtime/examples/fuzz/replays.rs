//! Replay files in the fuzzer (issue 45): a short run of a preset recorded when the corpus
//! loads (so its digests are this build's), then mutated like the presets and read, opened
//! against its scene under the folder rules, and replayed for at most [`super::TICKS`] ticks.
//! A mutated file must be refused with an error or replay; what reads must save, read and save
//! to the same text.

use std::path::Path;

use graph_runtime::replay::ReplayFile;
use graph_runtime::{FileAccess, SceneAssets};

use super::{MAX_SIMULATED_AGENTS, TICKS, Verdict, round_trip};

/// The preset recorded, and the ticks recorded of it (fewer than the fuzzer's, so a mutated
/// `ticks` reaches past the end).
const RECORDED: (&str, u64) = ("river.scene.ron", 30);

/// The replay file's name in the corpus and its text: a run of [`RECORDED`] as if saved in
/// the presets' folder.
pub fn recorded(presets: &Path) -> Result<(String, String), String> {
    let (scene, ticks) = RECORDED;
    let assets = SceneAssets::load(&presets.join(scene))
        .map_err(|errors| format!("{scene}: {}", errors[0]))?;
    let replay = ReplayFile::record(&assets, scene.to_owned(), ticks, 1.0 / 60.0, |_| {})
        .map_err(|error| error.to_string())?;
    let text = replay.to_ron().map_err(|error| error.to_string())?;
    Ok(("river.sgrec".to_owned(), text))
}

/// One mutated replay file, named `file` in the presets' folder `presets`.
pub fn run(presets: &Path, file: &str, mutated: &str) -> Verdict {
    let Ok(replay) = ReplayFile::from_ron(mutated, file) else {
        return Verdict::Refused;
    };
    if let Err(finding) = round_trip(&replay, ReplayFile::to_ron, |t| {
        ReplayFile::from_ron(t, "again")
    }) {
        return Verdict::Finding(finding);
    }
    if replay.agents as u64 > MAX_SIMULATED_AGENTS {
        return Verdict::Refused;
    }
    let path = presets.join(file);
    let Ok(mut simulation) = replay.open(&path, FileAccess::SceneFolder) else {
        return Verdict::Refused;
    };
    let ticks = replay.ticks().min(TICKS as u64);
    // A digest that differs (the mutation changed one) ends the replay there: an error.
    let _ = replay.replay_to(&mut simulation, ticks, file);
    let finite =
        (simulation.vehicles().iter()).all(|v| v.position.is_finite() && v.velocity.is_finite());
    if !finite {
        return Verdict::Finding(format!(
            "replayed to tick {} with non-finite motion",
            simulation.tick()
        ));
    }
    // Each group's program ops × its agents × the ticks stepped: the work the time allows.
    let nodes = (simulation.groups().iter())
        .map(|group| group.program.len())
        .max()
        .unwrap_or(0) as u64;
    Verdict::Ran(
        nodes
            .saturating_mul(replay.agents as u64)
            .saturating_mul(simulation.tick()),
    )
}
