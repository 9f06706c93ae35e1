//! Headless subcommands: `check`, `simulate`, `record`, `replay`, `diagnose`, `bench`,
//! `sweep`, `tune`.
//! They call graph-runtime for everything; no formula lives here.

mod bench;
mod check;
mod diagnose;
mod estimate;
mod gpu;
mod replay;
mod simulate;
mod sweep;
mod threads;
mod tune;

pub use estimate::words;
use threads::thread_count;
pub use threads::{most_threads, with_threads};

use std::path::PathBuf;
use std::process::ExitCode;

/// Steergraph: author steering-behavior graphs in a node editor, and run them headless.
#[derive(Debug, clap::Parser)]
#[command(name = "steergraph", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Arguments {
    /// A graph file to open in the editor (without it, the editor opens on a preset), a scene
    /// file (`.scene.ron`, as with `--scene`), or a replay file (`.sgrec`) to play in the
    /// preview with its scene and graph.
    pub file: Option<PathBuf>,
    /// A scene file to open in the preview.
    #[arg(long)]
    pub scene: Option<PathBuf>,
    /// What to do; without a subcommand the editor opens.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The headless subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Check graphs, scenes and flow fields; print every problem and exit 1 if there is any.
    Check {
        /// Files to check (`.graph.ron`, `.scene.ron`, `.flow.ron`; the kind is read from the
        /// file's `format` field).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Run a scene headless and write every agent's state per tick as CSV.
    Simulate(simulate::Options),
    /// Run a scene headless and write the run as a replay file (`.sgrec`): the scene, its seed
    /// and tick length, and a digest of every tick's state (FORMAT.md, "Replay files").
    Record(replay::RecordOptions),
    /// Run a replay file's scene again to a tick, checking every tick against the recording,
    /// and print that tick's rows as `simulate` writes them (exit 1 where the run differs).
    Replay(replay::ReplayOptions),
    /// Run a scene (or a replay file's run) to a moment, list the stuck agents with what holds
    /// each (BEHAVIORS.md, "Why an agent is stuck") and the fixes proven to free them by
    /// running on 5 s from there; text, or CSV with `--out`.
    Diagnose(diagnose::Options),
    /// Measure simulation throughput in agent-ticks per second.
    Bench {
        /// The scene file.
        scene: PathBuf,
        /// Total agents, spread over the scene's randomly spawned groups in proportion.
        #[arg(long)]
        agents: Option<u32>,
        /// Ticks to time (after a short warm-up).
        #[arg(long, default_value_t = 200)]
        ticks: u64,
        /// Tick length in seconds.
        #[arg(long, default_value_t = 1.0 / 60.0)]
        dt: f32,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Step the scene on the GPU (a build with the `gpu` feature; graphs of the flocking
        /// family): prints the adapter, then the GPU's time.
        #[arg(long)]
        gpu: bool,
    },
    /// Run a scene once per value of a graph parameter and write, per value, every metric the
    /// preview plots as CSV: `value,<metric>_mean,<metric>_spread,…`. Each run is reduced to
    /// the mean of its second half (events as a rate per second over that half); mean and
    /// spread (population standard deviation) are over the seeds. Identical on any thread count.
    Sweep {
        /// The scene file.
        scene: PathBuf,
        /// The graph parameter and its range, `NAME=FROM..TO` (`NAME=VALUE` with `--steps 1`);
        /// set on every group whose graph declares it.
        #[arg(long)]
        param: String,
        /// Number of values, evenly spaced from FROM to TO, both included (1: FROM alone).
        #[arg(long, default_value_t = 9)]
        steps: usize,
        /// Simulated seconds per run (ticks of 1/60 s).
        #[arg(long, default_value_t = 10.0)]
        seconds: f32,
        /// The metric printed per value as a summary (the CSV has every metric).
        #[arg(
            long,
            default_value = "min_spacing",
            help = "The metric printed per value as a summary (the CSV has every metric): mean_speed, min_spacing, path_distance, agent_overlaps, obstacle_overlaps, wall_crossings, stuck_agents, polarization, arrived, arrived_50, arrived_95, unreachable, route_efficiency, stalled_agents"
        )]
        metric: String,
        /// Runs per value; run i uses the scene's seed + i.
        #[arg(long, default_value_t = 1)]
        seeds: u32,
        /// Worker threads (default: all cores; the result is identical for any count).
        #[arg(long)]
        threads: Option<usize>,
        /// Output CSV file (default: stdout, the summary then goes to stderr).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Run even when the estimate printed first is over half an hour.
        #[arg(long)]
        long: bool,
    },
    /// Search several graph parameters for values that meet goals on the sweep's metrics
    /// (CMA-ES from the current values), then prefer the closest to the current values (or
    /// another `--prefer`; preferring the closest, the current values run first and, when
    /// they meet every goal, end the search). Each candidate runs on `--seeds` seeds, reduced
    /// as `sweep` reduces a run and averaged. Prints a progress line per candidate on
    /// stderr, then the best values and each goal's value there; exits 1 when they miss a
    /// goal. Identical on any thread count for a given `--search-seed`.
    Tune(tune::Options),
}

/// Runs a subcommand, printing errors to stderr.
pub fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Check { files } => return check::run(&files),
        Command::Simulate(options) => simulate::run(&options),
        Command::Record(options) => replay::record(&options),
        Command::Diagnose(options) => diagnose::run(&options),
        Command::Replay(options) => replay::replay(&options),
        Command::Bench {
            scene,
            agents,
            ticks,
            dt,
            threads,
            gpu,
        } => bench::run(&bench::Options {
            scene,
            agents,
            ticks,
            dt,
            threads,
            gpu,
        }),
        Command::Sweep {
            scene,
            param,
            steps,
            seconds,
            metric,
            seeds,
            threads,
            out,
            long,
        } => sweep::run(&sweep::Options {
            scene,
            param,
            steps,
            seconds,
            metric,
            seeds,
            threads,
            out,
            long,
        }),
        Command::Tune(options) => tune::run(&options),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(errors) => {
            for error in errors {
                eprintln!("error: {error}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Refuses a `--dt` that is not a finite number > 0 (the same for every subcommand).
pub fn check_dt(dt: f32) -> Result<(), Vec<String>> {
    if dt.is_finite() && dt > 0.0 {
        Ok(())
    } else {
        Err(vec![format!(
            "--dt must be a finite number > 0, found {dt}"
        )])
    }
}

/// Refuses an `--out` that is the scene or a file it reads (a graph, a subgraph, a flow
/// field): writing the output must never replace an input.
pub fn refuse_overwriting_inputs(
    out: &std::path::Path,
    scene: &std::path::Path,
    assets: &graph_runtime::SceneAssets,
) -> Result<(), Vec<String>> {
    let Ok(target) = std::fs::canonicalize(out) else {
        // A file that does not exist yet is no input.
        return Ok(());
    };
    let folder = scene.parent().unwrap_or(std::path::Path::new(""));
    let fields = assets
        .scene
        .flow_fields
        .values()
        .filter_map(|source| match source {
            graph_runtime::FlowFieldSource::File(file) => Some(folder.join(file)),
            graph_runtime::FlowFieldSource::Inline(_) => None,
        });
    let inputs = std::iter::once(scene.to_path_buf())
        .chain(assets.graphs.keys().map(|file| folder.join(file)))
        .chain(fields);
    for input in inputs {
        if std::fs::canonicalize(&input).is_ok_and(|input| input == target) {
            return Err(vec![format!(
                "--out {} is {}, an input of this run; choose another file",
                out.display(),
                input.display()
            )]);
        }
    }
    Ok(())
}

/// Builds the simulation of loaded assets; every problem is returned as a message.
pub fn simulation_of(
    assets: &graph_runtime::SceneAssets,
) -> Result<graph_runtime::Simulation, Vec<String>> {
    graph_runtime::Simulation::new(assets).map_err(to_strings)
}

/// Loads a scene with its graphs and flow fields, applies a seed override, and builds the
/// simulation; every problem is returned as a message.
pub fn load_simulation(
    scene: &std::path::Path,
    seed: Option<u64>,
    agents: Option<u32>,
) -> Result<graph_runtime::Simulation, Vec<String>> {
    let assets = load_assets(scene, seed, agents)?;
    graph_runtime::Simulation::new(&assets).map_err(to_strings)
}

/// Loads a scene with its graphs and flow fields and applies the seed and agent-count
/// overrides; every problem is returned as a message.
pub fn load_assets(
    scene: &std::path::Path,
    seed: Option<u64>,
    agents: Option<u32>,
) -> Result<graph_runtime::SceneAssets, Vec<String>> {
    let mut assets = graph_runtime::SceneAssets::load(scene).map_err(to_strings)?;
    if let Some(seed) = seed {
        assets.scene.seed = seed;
    }
    if let Some(agents) = agents {
        bench::scale_groups(&mut assets.scene, agents)?;
    }
    Ok(assets)
}

#[expect(
    clippy::needless_pass_by_value,
    reason = "called with the loader's `Vec` in `map_err`"
)]
fn to_strings(errors: Vec<graph_runtime::SceneError>) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

/// Ticks of 1/60 s in `seconds` (as sweeps and tunings run them).
fn ticks_in(seconds: f32) -> u64 {
    (f64::from(seconds) * 60.0).ceil().max(0.0) as u64
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// The metric lists in `--help` are written out (clap wants them at compile time): they
    /// must name every metric there is.
    #[test]
    fn help_lists_every_metric() {
        let command = super::Arguments::command();
        let help = |subcommand: &str, argument: &str| {
            command
                .find_subcommand(subcommand)
                .and_then(|s| s.get_arguments().find(|a| a.get_id() == argument))
                .and_then(|a| a.get_help())
                .map(ToString::to_string)
                .unwrap_or_default()
        };
        let names = graph_runtime::sweep::Metric::names();
        assert!(
            help("sweep", "metric").ends_with(&names),
            "{}",
            help("sweep", "metric")
        );
        assert!(
            help("tune", "goals").ends_with(&names),
            "{}",
            help("tune", "goals")
        );
    }
}
