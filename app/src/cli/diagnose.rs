//! `steergraph diagnose`: runs a scene (or a replay file's run) to a moment, says why each
//! stuck agent is stuck and which fixes, proven by running on from that moment, free them.
//! Every rule is the runtime's (`graph_runtime::diagnose`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use graph_runtime::diagnose::{Diagnosis, ProvenFix, diagnose, propose_fixes};
use graph_runtime::replay::ReplayFile;
use graph_runtime::{FileAccess, MetricsTracker, SceneAssets, Simulation};

/// Seconds each fix is run on from the moment diagnosed.
pub const FIX_SECONDS: f32 = 5.0;

/// Options of `diagnose`.
#[derive(Debug, clap::Args)]
pub struct Options {
    /// A scene file, or a replay file (`.sgrec`) whose run is replayed and checked.
    input: PathBuf,
    /// Simulated seconds to run before diagnosing (a scene; default 10), or the replay's
    /// tick to diagnose at is the one nearest (default: its last).
    #[arg(long)]
    seconds: Option<f32>,
    /// Tick length in seconds (a scene; a replay keeps its own).
    #[arg(long, default_value_t = 1.0 / 60.0)]
    dt: f32,
    /// Seed, replacing the scene's (a scene only).
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (the result is identical for any count).
    #[arg(long)]
    threads: Option<usize>,
    /// Write the stuck agents and the fixes as CSV here instead of text on stdout.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs to the moment, diagnoses and proves fixes, then prints or writes them.
pub fn run(options: &Options) -> Result<(), Vec<String>> {
    let replay = is_replay(&options.input);
    let (assets, mut simulation, dt, ticks, step) = if replay {
        let file = ReplayFile::load(&options.input).map_err(|e| vec![e.to_string()])?;
        let (assets, simulation) = (file.open_with_assets(&options.input, FileAccess::Anywhere))
            .map_err(|e| vec![e.to_string()])?;
        let ticks = match options.seconds {
            Some(seconds) => ticks_in(seconds, file.dt)?.min(file.ticks()),
            None => file.ticks(),
        };
        (assets, simulation, file.dt, ticks, Some(file))
    } else {
        super::check_dt(options.dt)?;
        let assets = super::load_assets(&options.input, options.seed, None)?;
        let simulation = super::simulation_of(&assets)?;
        let ticks = ticks_in(options.seconds.unwrap_or(10.0), options.dt)?;
        (assets, simulation, options.dt, ticks, None)
    };
    let origin = options.input.display().to_string();
    let found = super::with_threads(options.threads, || {
        let mut tracker = MetricsTracker::default();
        for tick in 1..=ticks {
            match &step {
                Some(file) => file
                    .replay_to(&mut simulation, tick, &origin)
                    .map_err(|e| vec![e.to_string()])?,
                None => simulation.step(dt),
            }
            tracker.observe(&simulation, tick as f32 * dt);
        }
        let stalled: Vec<usize> = tracker.stalled_agents().collect();
        let diagnoses: Vec<Diagnosis> = (0..simulation.vehicles().len())
            .filter(|&agent| {
                stalled.contains(&agent) || graph_runtime::is_stuck(simulation.stuck_for(agent))
            })
            .filter_map(|agent| diagnose(&simulation, agent, dt))
            .collect();
        // A replay's run edited by then is proven on as edited, not as its files are.
        let assets = match &step {
            Some(file) => file.assets_at(assets, simulation.tick()),
            None => assets,
        };
        let fixes = propose_fixes(&assets, &simulation.keyframe(), &diagnoses, dt, FIX_SECONDS);
        Ok::<_, Vec<String>>((diagnoses, fixes, assets))
    })??;
    let (diagnoses, fixes, assets) = found;
    let text = match &options.out {
        Some(_) => csv(&simulation, &assets, &diagnoses, &fixes),
        None => report(&simulation, &assets, &diagnoses, &fixes, dt),
    };
    match &options.out {
        Some(out) => {
            graph_runtime::write_atomically(out, &text)
                .map_err(|error| vec![format!("{}: {error}", out.display())])?;
            println!(
                "wrote {} stuck agents and {} fixes at tick {} to {}",
                diagnoses.len(),
                fixes.len(),
                simulation.tick(),
                out.display()
            );
        }
        None => print!("{text}"),
    }
    Ok(())
}

/// Whether `input` is a replay file: its name, or its `format` field.
fn is_replay(input: &Path) -> bool {
    let named = input.extension().is_some_and(|e| e == "sgrec");
    named
        || graph_runtime::read_asset_text(input).is_ok_and(|text| {
            graph_runtime::sniff_kind(&text) == Some(graph_runtime::AssetKind::Replay)
        })
}

/// Ticks of `dt` in `seconds`, refused unless `seconds` is a finite number > 0.
fn ticks_in(seconds: f32, dt: f32) -> Result<u64, Vec<String>> {
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(vec![format!(
            "--seconds must be a finite number > 0, found {seconds}"
        )]);
    }
    let ticks = (f64::from(seconds) / f64::from(dt)).round();
    let most = graph_runtime::limits::MAX_REPLAY_TICKS;
    if ticks > most as f64 {
        return Err(vec![format!(
            "--seconds {seconds} is {ticks} ticks; diagnose runs at most {most}"
        )]);
    }
    Ok(ticks as u64)
}

/// The group name of `agent`.
fn group_name<'a>(simulation: &Simulation, assets: &'a SceneAssets, agent: usize) -> &'a str {
    (simulation.group_of(agent))
        .and_then(|group| assets.scene.groups.get(group))
        .map_or("", |group| group.name.as_str())
}

/// The text report: a line per stuck agent, then the fixes.
fn report(
    simulation: &Simulation,
    assets: &SceneAssets,
    diagnoses: &[Diagnosis],
    fixes: &[ProvenFix],
    dt: f32,
) -> String {
    let mut text = String::new();
    let seconds = simulation.tick() as f32 * dt;
    let _ = writeln!(
        text,
        "tick {} ({seconds:.2} s): {} of {} agents stuck",
        simulation.tick(),
        diagnoses.len(),
        simulation.vehicles().len()
    );
    for diagnosis in diagnoses {
        let at = simulation.vehicles()[diagnosis.agent].position;
        let _ = writeln!(
            text,
            "agent {} ({}) at ({:.2}, {:.2}): {}: {}",
            diagnosis.agent,
            group_name(simulation, assets, diagnosis.agent),
            at.x,
            at.y,
            diagnosis.cause.name(),
            diagnosis.words()
        );
    }
    if diagnoses.is_empty() {
        return text;
    }
    if fixes.is_empty() {
        let them = if diagnoses.len() == 1 { "it" } else { "them" };
        let _ = writeln!(text, "no fix tried frees {them} within {FIX_SECONDS} s");
    }
    for fix in fixes {
        let effect = fix.effect;
        let _ = writeln!(
            text,
            "fix: frees {} of {} within {FIX_SECONDS} s ({} without), overlapping pairs {:.2} then {:.2}, agents on walls {:.2} then {:.2}: {}",
            effect.freed,
            effect.stuck,
            effect.freed_without,
            effect.overlaps[0],
            effect.overlaps[1],
            effect.wall_contacts[0],
            effect.wall_contacts[1],
            fix.fix.words
        );
    }
    text
}

/// The CSV: `row,agent,group,x,y,cause,freed,stuck,freed_without,overlaps_before,
/// overlaps_after,wall_contacts_before,wall_contacts_after,words`, a `stuck` row per agent
/// and a `fix` row per fix (fields that do not apply empty), words quoted.
fn csv(
    simulation: &Simulation,
    assets: &SceneAssets,
    diagnoses: &[Diagnosis],
    fixes: &[ProvenFix],
) -> String {
    let quote = |words: &str| format!("\"{}\"", words.replace('"', "\"\""));
    let mut text = String::from(
        "row,agent,group,x,y,cause,freed,stuck,freed_without,overlaps_before,overlaps_after,wall_contacts_before,wall_contacts_after,words\n",
    );
    for diagnosis in diagnoses {
        let at = simulation.vehicles()[diagnosis.agent].position;
        let _ = writeln!(
            text,
            "stuck,{},{},{},{},{},,,,,,,,{}",
            diagnosis.agent,
            quote(group_name(simulation, assets, diagnosis.agent)),
            at.x,
            at.y,
            diagnosis.cause.name(),
            quote(&diagnosis.words())
        );
    }
    for fix in fixes {
        let e = fix.effect;
        let _ = writeln!(
            text,
            "fix,,,,,,{},{},{},{},{},{},{},{}",
            e.freed,
            e.stuck,
            e.freed_without,
            e.overlaps[0],
            e.overlaps[1],
            e.wall_contacts[0],
            e.wall_contacts[1],
            quote(&fix.fix.words)
        );
    }
    text
}
