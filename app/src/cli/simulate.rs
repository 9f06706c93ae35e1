//! `steergraph simulate`: runs a scene headless and writes trajectories as CSV.

use std::io::{BufWriter, Write as _};
use std::path::PathBuf;

use graph_runtime::Simulation;

/// Options of `simulate`.
pub struct Options {
    pub scene: PathBuf,
    pub ticks: u64,
    pub dt: f32,
    pub seed: Option<u64>,
    pub threads: Option<usize>,
    pub out: PathBuf,
}

/// Runs the scene and writes the CSV atomically (temporary file, then rename).
pub fn run(options: &Options) -> Result<(), Vec<String>> {
    if !(options.dt.is_finite() && options.dt > 0.0) {
        return Err(vec![format!(
            "--dt must be a finite number > 0, found {}",
            options.dt
        )]);
    }
    let mut simulation = super::load_simulation(&options.scene, options.seed, None)?;
    let out = &options.out;
    let temporary = out.with_file_name(format!(
        ".{}.{}.tmp",
        out.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        std::process::id()
    ));
    let io = |e: std::io::Error| vec![format!("{}: cannot write: {e}", out.display())];
    let result = (|| -> Result<(), Vec<String>> {
        let file = std::fs::File::create(&temporary).map_err(io)?;
        let mut writer = BufWriter::new(file);
        writeln!(writer, "tick,agent,x,y,vx,vy").map_err(io)?;
        write_rows(&mut writer, &simulation).map_err(io)?;
        let (ticks, dt) = (options.ticks, options.dt);
        super::with_threads(options.threads, || -> std::io::Result<()> {
            for _ in 0..ticks {
                simulation.step(dt);
                write_rows(&mut writer, &simulation)?;
            }
            Ok(())
        })?
        .map_err(io)?;
        let file = writer.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&temporary, out).map_err(io)
    })();
    if result.is_err() {
        // The partial file is ours and of no use; the previous output, if any, is untouched.
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// One row per agent: `tick,agent,x,y,vx,vy`, floats in shortest round-trip form.
pub fn write_rows(
    writer: &mut impl std::io::Write,
    simulation: &Simulation,
) -> std::io::Result<()> {
    let tick = simulation.tick();
    for (agent, vehicle) in simulation.vehicles().iter().enumerate() {
        writeln!(
            writer,
            "{tick},{agent},{},{},{},{}",
            vehicle.position.x, vehicle.position.y, vehicle.velocity.x, vehicle.velocity.y
        )?;
    }
    Ok(())
}
