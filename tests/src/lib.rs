//! Shared helpers for the cross-crate integration tests in `tests/tests/`.

use std::path::{Path, PathBuf};

pub mod drivers;
pub mod edited_runs;

/// The workspace's `presets/` folder.
pub fn presets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("presets")
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

/// The file names of every preset scene (`*.scene.ron`), sorted.
///
/// # Panics
///
/// When `presets/` cannot be read or a name is not UTF-8.
pub fn preset_scene_names() -> Vec<String> {
    presets_with_suffix(".scene.ron")
        .iter()
        .map(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .expect("a UTF-8 file name")
                .to_owned()
        })
        .collect()
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

/// Makes every group of `assets` run the preset graph `graph` (loading it from `presets/`):
/// the same scene with another graph, for comparisons.
///
/// # Panics
///
/// When the graph does not load.
pub fn use_graph(assets: &mut graph_runtime::SceneAssets, graph: &str) {
    let loaded = graph_runtime::Graph::load(&presets_dir().join(graph)).expect("the graph loads");
    assets.graphs.insert(graph.to_owned(), loaded);
    for group in &mut assets.scene.groups {
        graph.clone_into(&mut group.graph);
    }
}

/// What a crowd preset is judged by (issue 13): overlaps after the first second, how soon its
/// agents reach their own goals, and how many get stuck.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CrowdFigures {
    /// Agents in the scene.
    pub agents: usize,
    /// The most agent pairs overlapping at one tick after the first second (overlap: centres
    /// closer than the sum of the radii).
    pub most_overlapping_pairs: usize,
    /// The deepest overlap after the first second (units: sum of radii minus distance).
    pub deepest_overlap: f32,
    /// When 95 % of the agents were within [`REACHED`] of their own `"goal"` (s), if they were.
    pub time_to_95_percent: Option<f32>,
    /// The share of agents at their goal when the run ended.
    pub reached_at_end: f32,
    /// The most agents stuck at one tick ([`graph_runtime::Simulation::stuck_count`]).
    pub most_stuck: usize,
}

/// An agent counts as arrived within this distance of its own goal (units).
pub const REACHED: f32 = 1.0;

/// Runs `simulation` for `seconds` at 60 Hz, checking every tick, and measures it.
///
/// # Panics
///
/// Never on a valid simulation (the counts fit in `usize`).
pub fn crowd_figures(simulation: &mut graph_runtime::Simulation, seconds: f32) -> CrowdFigures {
    let dt = 1.0 / 60.0;
    let ticks = (seconds * 60.0).round() as u32;
    let mut figures = CrowdFigures {
        agents: simulation.vehicles().len(),
        ..CrowdFigures::default()
    };
    let mut grid = graph_runtime::SpatialGrid::new(2.0);
    let mut near = Vec::new();
    for tick in 1..=ticks {
        simulation.step(dt);
        let time = tick as f32 * dt;
        let vehicles = simulation.vehicles();
        if time > 1.0 {
            let reach = vehicles.iter().map(|v| v.radius).fold(0.0, f32::max) * 2.0;
            grid.set_cell_size(reach.max(0.1));
            grid.rebuild(vehicles);
            let mut pairs = 0;
            for (index, vehicle) in vehicles.iter().enumerate() {
                grid.query(vehicles, vehicle.position, reach, index, &mut near);
                for &other in near.iter().filter(|&&other| other as usize > index) {
                    let neighbor = &vehicles[other as usize];
                    let depth = vehicle.radius + neighbor.radius
                        - vehicle.position.distance(neighbor.position);
                    if depth > 0.0 {
                        pairs += 1;
                        figures.deepest_overlap = figures.deepest_overlap.max(depth);
                    }
                }
            }
            figures.most_overlapping_pairs = figures.most_overlapping_pairs.max(pairs);
        }
        let arrived = (0..vehicles.len())
            .filter(|&agent| {
                simulation
                    .own(agent)
                    .and_then(|own| own.goal("goal"))
                    .is_some_and(|goal| goal.distance(vehicles[agent].position) <= REACHED)
            })
            .count();
        figures.reached_at_end = arrived as f32 / vehicles.len().max(1) as f32;
        if figures.time_to_95_percent.is_none() && arrived * 100 >= vehicles.len() * 95 {
            figures.time_to_95_percent = Some(time);
        }
        figures.most_stuck = figures.most_stuck.max(simulation.stuck_count());
    }
    figures
}
pub mod diagnosing;
pub mod stuck_corpus;
