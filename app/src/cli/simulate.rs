//! `steergraph simulate`: runs a scene headless and writes trajectories as CSV.

use std::path::PathBuf;

use graph_runtime::Simulation;

/// Most CSV rows `simulate` writes (agents × (ticks + 1)): about 6 GB of text.
pub const MAX_CSV_ROWS: u64 = 100_000_000;

/// Options of `simulate`.
pub struct Options {
    pub scene: PathBuf,
    pub ticks: u64,
    pub dt: f32,
    pub seed: Option<u64>,
    pub threads: Option<usize>,
    pub out: PathBuf,
}

/// Runs the scene and writes the CSV atomically with the runtime's one atomic-write function
/// (temporary file, fsync, rename, folder fsync). A device or other non-regular file at
/// `--out` is refused, never replaced.
pub fn run(options: &Options) -> Result<(), Vec<String>> {
    super::check_dt(options.dt)?;
    let assets = super::load_assets(&options.scene, options.seed, None)?;
    super::refuse_overwriting_inputs(&options.out, &options.scene, &assets)?;
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
    let (ticks, dt) = (options.ticks, options.dt);
    let written = super::with_threads(options.threads, || {
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
