//! `steergraph record` and `steergraph replay`: a run written to a replay file (`.sgrec`,
//! `graph_runtime::replay`), and the state at any of its ticks printed again, checked tick by
//! tick against the recording.

use std::io::Write as _;
use std::path::PathBuf;

use graph_runtime::FileAccess;
use graph_runtime::replay::ReplayFile;

use super::simulate::RunArgs;

/// Options of `record`.
#[derive(Debug, clap::Args)]
pub struct RecordOptions {
    #[command(flatten)]
    run: RunArgs,
    /// Simulated seconds (ticks of `--dt`, rounded up).
    #[arg(long)]
    seconds: f32,
    /// The replay file to write; it names the scene relative to its own folder.
    #[arg(long)]
    out: PathBuf,
}

/// Runs the scene, then writes the replay file atomically (nothing is written when the run
/// cannot be recorded).
pub fn record(options: &RecordOptions) -> Result<(), Vec<String>> {
    let (scene, dt) = (&options.run.scene, options.run.dt);
    super::check_dt(dt)?;
    let ticks = ticks_of(options.seconds, dt)?;
    let assets = super::load_assets(scene, options.run.seed, None)?;
    super::refuse_overwriting_inputs(&options.out, scene, &assets)?;
    let named = ReplayFile::scene_name_for(&options.out, scene);
    let recorded = super::with_threads(options.run.threads, || {
        ReplayFile::record(&assets, named, ticks, dt, |_| {})
    })?;
    let replay = recorded.map_err(|error| vec![error.to_string()])?;
    replay
        .save(&options.out)
        .map_err(|error| vec![format!("{}: {error}", options.out.display())])?;
    println!(
        "wrote {}: {} agents, ticks 0 to {} of {} s, seed {}, scene {}",
        options.out.display(),
        replay.agents,
        replay.ticks(),
        replay.dt,
        replay.seed,
        replay.scene
    );
    Ok(())
}

/// Options of `replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayOptions {
    /// The replay file (`.sgrec`).
    replay: PathBuf,
    /// The tick to print (default: the run's last).
    #[arg(long)]
    tick: Option<u64>,
    /// Worker threads (the run is identical for any count).
    #[arg(long)]
    threads: Option<usize>,
    /// Output CSV file (default: stdout).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Steps the recorded scene to the tick, checking every tick on the way, and prints its rows
/// (`simulate`'s columns) to `--out` or stdout.
pub fn replay(options: &ReplayOptions) -> Result<(), Vec<String>> {
    let strings = |error: graph_runtime::replay::ReplayError| vec![error.to_string()];
    let file = ReplayFile::load(&options.replay).map_err(|error| vec![error.to_string()])?;
    let tick = options.tick.unwrap_or(file.ticks());
    let origin = options.replay.display().to_string();
    if tick > file.ticks() {
        return Err(vec![format!(
            "{origin}: --tick {tick}: the run has ticks 0 to {}",
            file.ticks()
        )]);
    }
    let simulation = super::with_threads(options.threads, || {
        // The user names the replay file on the command line: its scene may be anywhere.
        let mut simulation = file.open(&options.replay, FileAccess::Anywhere)?;
        file.replay_to(&mut simulation, tick, &origin)?;
        Ok(simulation)
    })?
    .map_err(strings)?;
    let facing = simulation.uses_facing_or_jumps();
    let write = |writer: &mut dyn std::io::Write| -> std::io::Result<()> {
        if facing {
            writeln!(writer, "tick,agent,x,y,vx,vy,angle,angular_velocity,height")?;
        } else {
            writeln!(writer, "tick,agent,x,y,vx,vy")?;
        }
        super::simulate::write_rows(&mut &mut *writer, &simulation, facing)
    };
    match &options.out {
        Some(out) => graph_runtime::write_atomically_with(out, |writer| write(writer))
            .map_err(|error| vec![format!("{}: {error}", out.display())]),
        None => {
            let mut stdout = std::io::stdout().lock();
            write(&mut stdout)
                .and_then(|()| stdout.flush())
                .map_err(|error| vec![format!("stdout: {error}")])
        }
    }
}

/// Ticks of `dt` in `seconds` (rounded up), refused unless `seconds` is a finite number > 0.
fn ticks_of(seconds: f32, dt: f32) -> Result<u64, Vec<String>> {
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(vec![format!(
            "--seconds must be a finite number > 0, found {seconds}"
        )]);
    }
    let ticks = (f64::from(seconds) / f64::from(dt)).ceil();
    let most = graph_runtime::limits::MAX_REPLAY_TICKS;
    if ticks > most as f64 {
        return Err(vec![format!(
            "--seconds {seconds} is {ticks} ticks of {dt} s; a replay holds at most {most}"
        )]);
    }
    Ok(ticks as u64)
}
