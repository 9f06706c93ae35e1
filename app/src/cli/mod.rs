//! Headless subcommands: `check`, `simulate`, `bench`. They call graph-runtime for everything;
//! no formula lives here.

mod bench;
mod check;
mod simulate;

use std::path::PathBuf;
use std::process::ExitCode;

/// Steergraph: author steering-behavior graphs in a node editor, and run them headless.
#[derive(Debug, clap::Parser)]
#[command(name = "steergraph", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Arguments {
    /// A graph file to open in the editor (without it, the editor opens on a preset).
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
    Simulate {
        /// The scene file.
        scene: PathBuf,
        /// Number of ticks to run.
        #[arg(long)]
        ticks: u64,
        /// Tick length in seconds.
        #[arg(long, default_value_t = 1.0 / 60.0)]
        dt: f32,
        /// Seed, replacing the scene's.
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads (the result is identical for any count).
        #[arg(long)]
        threads: Option<usize>,
        /// Output CSV file with rows `tick,agent,x,y,vx,vy` (tick 0 is the initial state).
        #[arg(long)]
        out: PathBuf,
    },
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
    },
}

/// Runs a subcommand, printing errors to stderr.
pub fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Check { files } => return check::run(&files),
        Command::Simulate {
            scene,
            ticks,
            dt,
            seed,
            threads,
            out,
        } => simulate::run(&simulate::Options {
            scene,
            ticks,
            dt,
            seed,
            threads,
            out,
        }),
        Command::Bench {
            scene,
            agents,
            ticks,
            dt,
            threads,
        } => bench::run(&bench::Options {
            scene,
            agents,
            ticks,
            dt,
            threads,
        }),
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

/// Loads a scene with its graphs and flow fields, applies a seed override, and builds the
/// simulation; every problem is returned as a message.
pub fn load_simulation(
    scene: &std::path::Path,
    seed: Option<u64>,
    agents: Option<u32>,
) -> Result<graph_runtime::Simulation, Vec<String>> {
    let to_strings = |errors: Vec<graph_runtime::SceneError>| -> Vec<String> {
        errors.iter().map(ToString::to_string).collect()
    };
    let mut assets = graph_runtime::SceneAssets::load(scene).map_err(to_strings)?;
    if let Some(seed) = seed {
        assets.scene.seed = seed;
    }
    if let Some(agents) = agents {
        bench::scale_groups(&mut assets.scene, agents)?;
    }
    graph_runtime::Simulation::new(&assets).map_err(to_strings)
}

/// Runs `work` on a pool of `threads` workers (all cores when `None`).
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> Result<T, Vec<String>> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        if threads == 0 {
            return Err(vec!["--threads must be at least 1".to_owned()]);
        }
        builder = builder.num_threads(threads);
    }
    let pool = builder
        .build()
        .map_err(|e| vec![format!("cannot start worker threads: {e}")])?;
    Ok(pool.install(work))
}
