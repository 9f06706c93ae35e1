//! Replay files in the fuzzer (issue 45): a short run of a preset recorded when the corpus
//! loads (so its digests are this build's), plain and with edits made while it ran (a graph
//! swapped in, a wall drawn, a target put in: version 2's changes), then mutated like the
//! presets and read, opened against its scene under the folder rules, and replayed for at
//! most [`super::TICKS`] ticks.
//! A mutated file must be refused with an error or replay; what reads must save, read and save
//! to the same text.

use std::path::Path;

use std::sync::Arc;

use glam::Vec2;
use graph_runtime::replay::{Edits, ReplayFile};
use graph_runtime::rewind::{DEFAULT_BUDGET, Recording};
use graph_runtime::{
    FileAccess, Node, Number, SceneAssets, Simulation, Turning, Wall, compile_keeping_source,
};

use super::{MAX_SIMULATED_AGENTS, TICKS, Verdict, round_trip};

/// The preset recorded, and the ticks recorded of it (fewer than the fuzzer's, so a mutated
/// `ticks` reaches past the end).
const RECORDED: (&str, u64) = ("river.scene.ron", 30);

/// The replay files' names in the corpus and their texts: a run of [`RECORDED`] as if saved
/// in the presets' folder, and the same run with edits.
pub fn recorded(presets: &Path) -> Result<Vec<(String, String)>, String> {
    let (scene, ticks) = RECORDED;
    let assets = SceneAssets::load(&presets.join(scene))
        .map_err(|errors| format!("{scene}: {}", errors[0]))?;
    let replay = ReplayFile::record(&assets, scene.to_owned(), ticks, 1.0 / 60.0, |_| {})
        .map_err(|error| error.to_string())?;
    let plain = replay.to_ron().map_err(|error| error.to_string())?;
    let edits = edited_run(&assets, ticks)?;
    if edits.changes().len() != 3 {
        return Err(format!(
            "the edited run has {} changes, not its 3 edits",
            edits.changes().len()
        ));
    }
    let edited = ReplayFile::record_edited(
        &assets,
        scene.to_owned(),
        (ticks, 1.0 / 60.0),
        edits,
        |_| true,
    )
    .map_err(|error| error.to_string())?
    .ok_or("the edited run stopped")?;
    let edited = edited.to_ron().map_err(|error| error.to_string())?;
    Ok(vec![
        ("river.sgrec".to_owned(), plain),
        ("river_edited.sgrec".to_owned(), edited),
    ])
}

/// The edits of a run of `assets` recorded as the editor records it for `ticks` ticks: its
/// first group's graph with its blends' weights doubled at a third of the run, a wall drawn at half, a
/// target put in at two thirds.
fn edited_run(assets: &SceneAssets, ticks: u64) -> Result<Edits, String> {
    let dt = 1.0 / 60.0;
    let mut live = Simulation::new(assets).map_err(|errors| errors[0].to_string())?;
    let mut recording = Recording::new(&live, DEFAULT_BUDGET);
    for tick in 0..ticks {
        if tick == ticks / 3 {
            // Every Blend's weights doubled.
            let source = live.groups()[0].program.source();
            let mut graph = source.ok_or("a scene's program keeps its graph")?.clone();
            for node in graph.nodes.values_mut() {
                if let Node::Blend { inputs } = node {
                    for input in inputs {
                        if let Number::Literal(weight) = &mut input.weight {
                            *weight *= 2.0;
                        }
                    }
                }
            }
            let compiled = compile_keeping_source(&graph, "", &std::collections::BTreeMap::new());
            let program = Arc::new(compiled.map_err(|errors| errors[0].to_string())?);
            let params = program.default_parameters();
            let vehicle = program.vehicle(&params);
            let turning = Turning::from(program.turning(&params));
            live.swap_program(0, (program, params), (vehicle, turning))
                .map_err(|error| error.to_string())?;
        }
        if tick == ticks / 2 {
            let mut scene = assets.scene.clone();
            scene.walls.push(Wall::polyline(vec![
                Vec2::new(0.0, -5.0),
                Vec2::new(0.0, 5.0),
            ]));
            live.follow_scene(&scene);
        }
        if tick == 2 * ticks / 3 {
            live.world_mut().set_target("cursor", Vec2::new(1.0, 2.0));
        }
        recording.record(&live, dt);
        live.step(dt);
    }
    let fresh = Simulation::new(assets).map_err(|errors| errors[0].to_string())?;
    Edits::of_recording(&recording, &fresh, &assets.scene.groups, (ticks, dt))
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
