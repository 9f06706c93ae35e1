//! A run edited while it ran, as the editor runs and records one (issue 45): the river preset
//! with its Blend's weights doubled part-way, written down as a version 2 replay file, and
//! the live run's positions to hold every driver that replays it to.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use graph_runtime::replay::{Edits, ReplayFile};
use graph_runtime::rewind::{DEFAULT_BUDGET, Recording};
use graph_runtime::{
    Graph, Node, Number, SceneAssets, Simulation, Turning, compile_keeping_source,
};

/// The tick the river's graph is edited at, of the [`RIVER_TICKS`] recorded.
pub const EDIT_TICK: u64 = 30;

/// The ticks of the edited river run.
pub const RIVER_TICKS: u64 = 90;

/// `graph` with every Blend input's literal weight doubled.
pub fn doubled_blends(graph: &Graph) -> Graph {
    let mut graph = graph.clone();
    for node in graph.nodes.values_mut() {
        if let Node::Blend { inputs } = node {
            for input in inputs {
                if let Some(weight) = input.weight.literal() {
                    input.weight = Number::Literal(2.0 * weight);
                }
            }
        }
    }
    graph
}

/// Swaps `graph` in for group `group` of `simulation` at its defaults, its agents given the
/// graph's vehicle and turning, compiled keeping its source as the editor compiles: what the
/// editor does when the open graph is edited.
///
/// # Panics
///
/// When the graph does not compile or the swap is refused.
pub fn swap_in(simulation: &mut Simulation, group: usize, graph: &Graph) {
    let compiled = compile_keeping_source(graph, "", &std::collections::BTreeMap::new());
    let program = Arc::new(compiled.expect("the graph compiles"));
    let params = program.default_parameters();
    let limits = (
        program.vehicle(&params),
        Turning::from(program.turning(&params)),
    );
    (simulation.swap_program(group, (program, params), limits)).expect("swapped in");
}

/// Every agent's position as bits.
pub fn position_bits(simulation: &Simulation) -> Vec<u32> {
    (simulation.vehicles().iter())
        .flat_map(|v| [v.position.x.to_bits(), v.position.y.to_bits()])
        .collect()
}

/// The river preset copied into `folder`, run for [`RIVER_TICKS`] ticks of 1/60 s recorded as
/// the editor records it, its blends' weights doubled at [`EDIT_TICK`], and saved as
/// `edited.sgrec` there: the file, and the live run's positions at every tick.
///
/// # Panics
///
/// When the preset cannot be copied, loaded or run, or the file written.
pub fn edited_river(folder: &Path) -> (PathBuf, Vec<Vec<u32>>) {
    for entry in std::fs::read_dir(crate::presets_dir())
        .expect("presets")
        .flatten()
    {
        if entry.file_name().to_string_lossy().starts_with("river.") {
            std::fs::copy(entry.path(), folder.join(entry.file_name())).expect("copies");
        }
    }
    let assets = SceneAssets::load(&folder.join("river.scene.ron")).expect("loads");
    let dt = 1.0 / 60.0;
    let mut live = Simulation::new(&assets).expect("runs");
    let mut recording = Recording::new(&live, DEFAULT_BUDGET);
    let mut positions = vec![position_bits(&live)];
    while live.tick() < RIVER_TICKS {
        if live.tick() == EDIT_TICK {
            let source = live.groups()[0].program.source();
            let edited = doubled_blends(source.expect("a scene's programs keep their graphs"));
            swap_in(&mut live, 0, &edited);
        }
        recording.record(&live, dt);
        live.step(dt);
        positions.push(position_bits(&live));
    }
    let fresh = Simulation::new(&assets).expect("runs");
    let edits = Edits::of_recording(&recording, &fresh, &assets.scene.groups, (RIVER_TICKS, dt))
        .expect("a replay holds the edit");
    let file = ReplayFile::record_edited(
        &assets,
        "river.scene.ron".into(),
        (RIVER_TICKS, dt),
        edits,
        |_| true,
    )
    .expect("records")
    .expect("whole");
    let out = folder.join("edited.sgrec");
    file.save(&out).expect("saves");
    (out, positions)
}
