//! `steergraph simulate`: runs a scene headless and writes trajectories as CSV.

use std::path::PathBuf;

use graph_runtime::Simulation;

/// Most CSV rows `simulate` writes (agents × (ticks + 1)): about 6 GB of text.
pub const MAX_CSV_ROWS: u64 = 100_000_000;

/// What a headless run of a scene takes, `simulate`'s and `record`'s alike.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The scene file.
    pub scene: PathBuf,
    /// Tick length in seconds.
    #[arg(long, default_value_t = 1.0 / 60.0)]
    pub dt: f32,
    /// Seed, replacing the scene's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (the result is identical for any count).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Options of `simulate`.
#[derive(Debug, clap::Args)]
pub struct Options {
    #[command(flatten)]
    run: RunArgs,
    /// Number of ticks to run.
    #[arg(long)]
    ticks: u64,
    /// Output CSV file with rows `tick,agent,x,y,vx,vy` (tick 0 is the initial state); a scene
    /// with independent facing, turn limits or jumps adds `angle,angular_velocity,height`.
    #[arg(long)]
    out: PathBuf,
    /// Step the scene on the GPU (a build with the `gpu` feature; graphs of the flocking
    /// family): positions within rounding of the CPU's, not bit for bit (BEHAVIORS.md, "On
    /// the GPU").
    #[arg(long)]
    gpu: bool,
}

/// Runs the scene and writes the CSV atomically with the runtime's one atomic-write function
/// (temporary file, fsync, rename, folder fsync). A device or other non-regular file at
/// `--out` is refused, never replaced.
pub fn run(options: &Options) -> Result<(), Vec<String>> {
    let (scene, dt) = (&options.run.scene, options.run.dt);
    super::check_dt(dt)?;
    let assets = super::load_assets(scene, options.run.seed, None)?;
    super::refuse_overwriting_inputs(&options.out, scene, &assets)?;
    let mut simulation = super::simulation_of(&assets)?;
    let agents = simulation.vehicles().len() as u64;
    let rows = agents.saturating_mul(options.ticks.saturating_add(1));
    if rows > MAX_CSV_ROWS {
        return Err(vec![format!(
            "--ticks {} with {agents} agents writes {rows} rows; at most {MAX_CSV_ROWS} (--ticks {} or fewer)",
            options.ticks,
            (MAX_CSV_ROWS / agents.max(1)).saturating_sub(1)
        )]);
    }
    let ticks = options.ticks;
    if options.gpu {
        let mut run = super::gpu::start(&simulation)?;
        let first = simulation.tick();
        let written = graph_runtime::write_atomically_with(&options.out, |writer| {
            writeln!(writer, "tick,agent,x,y,vx,vy")?;
            run.rows(first, ticks, dt, |tick, agent, p, v| {
                writeln!(writer, "{tick},{agent},{},{},{},{}", p.x, p.y, v.x, v.y)
            })
        });
        written.map_err(|error| vec![error.to_string()])?;
        println!(
            "{} on the GPU",
            summary(rows, agents, ticks, dt, &options.out)
        );
        return Ok(());
    }
    let written = super::with_threads(options.run.threads, || {
        graph_runtime::write_atomically_with(&options.out, |mut writer| {
            let facing = simulation.uses_facing_or_jumps();
            if facing {
                writeln!(writer, "tick,agent,x,y,vx,vy,angle,angular_velocity,height")?;
            } else {
                writeln!(writer, "tick,agent,x,y,vx,vy")?;
            }
            write_rows(&mut writer, &simulation, facing)?;
            for _ in 0..ticks {
                simulation.step(dt);
                write_rows(&mut writer, &simulation, facing)?;
            }
            Ok(())
        })
    })?;
    written.map_err(|error| vec![error.to_string()])?;
    println!("{}", summary(rows, agents, ticks, dt, &options.out));
    Ok(())
}

/// The one line `simulate` prints once the CSV is written.
fn summary(rows: u64, agents: u64, ticks: u64, dt: f32, out: &std::path::Path) -> String {
    format!(
        "wrote {rows} rows ({agents} agents, ticks 0 to {ticks} of {dt} s) to {}",
        out.display()
    )
}

/// One row per agent: `tick,agent,x,y,vx,vy`, floats in shortest round-trip form; with
/// `facing` (a scene that uses the angular layer or jumps) also `angle,angular_velocity,height`:
/// the facing (radians, counter-clockwise from +x), its angular velocity (radians / s) and,
/// while the agent is in the air on a jump, its height (empty on the ground).
pub fn write_rows(
    writer: &mut impl std::io::Write,
    simulation: &Simulation,
    facing: bool,
) -> std::io::Result<()> {
    let tick = simulation.tick();
    for (agent, vehicle) in simulation.vehicles().iter().enumerate() {
        write!(
            writer,
            "{tick},{agent},{},{},{},{}",
            vehicle.position.x, vehicle.position.y, vehicle.velocity.x, vehicle.velocity.y
        )?;
        if facing {
            write!(writer, ",{},{},", vehicle.facing(), vehicle.spin())?;
            if let Some(flight) = simulation.flight(agent) {
                write!(writer, "{}", flight.height())?;
            }
        }
        writeln!(writer)?;
    }
    Ok(())
}
