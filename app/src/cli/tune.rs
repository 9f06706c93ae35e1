//! `steergraph tune`: searches several graph parameters for values that meet goals on the
//! sweep's metrics, printing progress, the best values and each goal's value at them. The
//! search and its runs are the runtime's (`graph_runtime::tune`).

use std::fmt::Write as _;
use std::path::PathBuf;

use graph_runtime::tune::{
    Goal, Preference, Strategy, TuneControl, TuneFile, TuneParameter, TuneResult, TuneSpec, tune,
};

/// Options of `tune`.
#[derive(Debug, clap::Args)]
pub struct Options {
    /// The scene file, or a tuning problem (`.tune.ron`) that names its scene, parameters,
    /// goals and budget; the options below then replace what the file says.
    input: PathBuf,
    /// A graph parameter and its range, `NAME=FROM..TO`; give one `--param` per parameter.
    #[arg(long = "param")]
    params: Vec<String>,
    /// A goal on a metric; give one `--goal` per goal.
    #[arg(
        long = "goal",
        help = "A goal, METRIC <= NUMBER (or <, >=, >), e.g. \"min_spacing >= 0.8\"; give one --goal per goal. Metrics: mean_speed, min_spacing, path_distance, agent_overlaps, obstacle_overlaps, wall_crossings, stuck_agents, polarization, arrived, arrived_50, arrived_95, unreachable, route_efficiency, stalled_agents"
    )]
    goals: Vec<String>,
    /// Runs per candidate; run i uses the scene's seed + i [default: 3].
    #[arg(long)]
    seeds: Option<u32>,
    /// Simulated seconds per run, ticks of 1/60 s [default: 10].
    #[arg(long)]
    seconds: Option<f32>,
    /// Candidates to evaluate at most, each run on every seed [default: 100].
    #[arg(long)]
    budget: Option<usize>,
    /// The search's own seed.
    #[arg(long, default_value_t = 1)]
    search_seed: u64,
    /// Uniform random search instead of CMA-ES (the baseline it is measured against).
    #[arg(long)]
    random: bool,
    /// Stop at the first candidate that meets every goal (instead of spending the rest of
    /// the budget on values closer to the current ones, or another `--prefer`).
    #[arg(long)]
    stop_when_met: bool,
    /// Among candidates that meet the goals: `closest` (to the current values),
    /// `lowest:METRIC` or `highest:METRIC` [default: closest].
    #[arg(long)]
    prefer: Option<String>,
    /// Worker threads (default: all cores; the result is identical for any count).
    #[arg(long)]
    threads: Option<usize>,
    /// Output CSV file listing every candidate: its values, each goal's metric, distance.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Run even when the estimate printed first is over half an hour.
    #[arg(long)]
    long: bool,
}

/// Checks the options, runs the search (a progress line per candidate on stderr), writes the
/// CSV of every candidate to `--out` and prints the best values with each goal's value; fails
/// when the best values miss a goal.
pub fn run(options: &Options) -> Result<(), Vec<String>> {
    let problem = problem_of(&options.input)?;
    let scene = match &problem {
        Some(file) => file
            .scene_path(&options.input)
            .map_err(|error| vec![error.to_string()])?,
        None => options.input.clone(),
    };
    let spec = spec_of(options, problem.as_ref())?;
    let assets = super::load_assets(&scene, None, None)?;
    if let Some(out) = &options.out {
        super::refuse_overwriting_inputs(out, &scene, &assets)?;
        if std::fs::canonicalize(out)
            .is_ok_and(|out| std::fs::canonicalize(&options.input).is_ok_and(|input| input == out))
        {
            return Err(vec![format!(
                "--out {} is the tuning problem; choose another file",
                out.display()
            )]);
        }
    }

    graph_runtime::tune::validate(&assets, &spec)
        .map_err(|error| vec![format!("{}: {error}", scene.display())])?;
    let work = super::estimate::Work {
        runs: spec.budget as u64 * u64::from(spec.seeds),
        ticks: super::ticks_in(spec.seconds),
        threads: super::thread_count(options.threads),
    };
    let took = super::estimate::estimate(&assets, 1.0 / 60.0, work)?;
    super::estimate::announce("tune", work, took, options.long)?;
    let control = TuneControl::default();
    let mut done = 0;
    let mut best = f64::INFINITY;
    let result = super::with_threads(options.threads, || {
        tune(&assets, &spec, &control, |run| {
            done += 1;
            best = best.min(run.distance);
            eprintln!(
                "run {done}/{}: {} -> distance {:.4} (best {best:.4})",
                spec.budget,
                values_text(&spec.parameters, &run.values),
                run.distance
            );
        })
    })?
    .map_err(|error| vec![format!("{}: {error}", scene.display())])?;
    if let Some(out) = &options.out {
        graph_runtime::write_atomically(out, result.to_csv().as_bytes())
            .map_err(|error| vec![error.to_string()])?;
    }
    print!("{}", report(&spec, &result));
    if result.met() {
        return Ok(());
    }
    let missed = result.best().map_or(0, |best| {
        let missed = |goal: &&Goal| !goal.met(best.metric(goal.metric));
        result.goals.iter().filter(missed).count()
    });
    Err(vec![format!(
        "the best values found miss {missed} of {} goals after {} runs: a wider range, a larger --budget or other parameters may help",
        result.goals.len(),
        result.runs.len()
    )])
}

/// The tuning problem `input` holds, if it is one (by its `format` field or its name).
fn problem_of(input: &std::path::Path) -> Result<Option<TuneFile>, Vec<String>> {
    let named = input.to_string_lossy().ends_with(".tune.ron");
    let text = graph_runtime::read_asset_text(input).map_err(|e| vec![e.to_string()])?;
    if named || graph_runtime::sniff_kind(&text) == Some(graph_runtime::AssetKind::Tune) {
        let origin = input.display().to_string();
        return TuneFile::from_ron(&text, &origin)
            .map(Some)
            .map_err(|e| vec![e.to_string()]);
    }
    Ok(None)
}

/// The tuning the options (over the problem file, if any) ask for, every problem with them
/// listed.
fn spec_of(options: &Options, problem: Option<&TuneFile>) -> Result<TuneSpec, Vec<String>> {
    let mut errors = Vec::new();
    let mut parameters: Vec<TuneParameter> = options
        .params
        .iter()
        .filter_map(|text| match super::sweep::parse_param(text, 2) {
            Ok((name, values)) => Some(TuneParameter {
                name,
                from: values.first().copied().unwrap_or_default(),
                to: values.last().copied().unwrap_or_default(),
            }),
            Err(mut e) => {
                errors.append(&mut e);
                None
            }
        })
        .collect();
    let mut goals: Vec<Goal> = options
        .goals
        .iter()
        .filter_map(|text| {
            text.parse::<Goal>()
                .map_err(|e| errors.push(format!("--goal {e}")))
                .ok()
        })
        .collect();
    let prefer = match options.prefer.as_deref() {
        Some(text) => text
            .parse::<Preference>()
            .map_err(|e| errors.push(format!("--prefer {e}")))
            .unwrap_or_default(),
        None => problem.map(|file| file.prefer).unwrap_or_default(),
    };
    match problem {
        Some(file) => {
            if parameters.is_empty() {
                parameters.clone_from(&file.parameters);
            }
            if goals.is_empty() {
                goals.clone_from(&file.goals);
            }
        }
        None => {
            if options.params.is_empty() {
                errors.push(
                    "give at least one --param NAME=FROM..TO (or a .tune.ron file)".to_owned(),
                );
            }
            if options.goals.is_empty() {
                errors.push(
                    "give at least one --goal \"METRIC <= NUMBER\" (or a .tune.ron file)"
                        .to_owned(),
                );
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(TuneSpec {
        parameters,
        goals,
        seeds: options.seeds.or(problem.map(|f| f.seeds)).unwrap_or(3),
        seconds: options
            .seconds
            .or(problem.map(|f| f.seconds))
            .unwrap_or(10.0),
        budget: options.budget.or(problem.map(|f| f.budget)).unwrap_or(100),
        search_seed: options.search_seed,
        strategy: if options.random {
            Strategy::Random
        } else {
            Strategy::Cmaes
        },
        prefer,
        stop_when_met: options.stop_when_met,
    })
}

fn values_text(parameters: &[TuneParameter], values: &[f32]) -> String {
    parameters
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{}={v}", p.name))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The best values (against the current ones) and each goal's value there.
fn report(spec: &TuneSpec, result: &TuneResult) -> String {
    let mut text = String::new();
    let Some(best) = result.best() else {
        return "no run finished\n".to_owned();
    };
    if result.met_as_they_are() {
        // Preferring the closest, the current values run first and end the tuning when they
        // meet every goal.
        let _ = writeln!(
            text,
            "the values as they are meet every goal (run 1; no other values are closer):"
        );
    } else {
        let runs = match result.runs.len() {
            1 => "1 run".to_owned(),
            n => format!("{n} runs"),
        };
        let _ = writeln!(text, "best of {runs} (run {}):", result.best + 1);
    }
    for ((parameter, value), current) in spec
        .parameters
        .iter()
        .zip(&best.values)
        .zip(&result.current)
    {
        let _ = writeln!(text, "  {} = {value} (was {current})", parameter.name);
    }
    for goal in &result.goals {
        let value = best.metric(goal.metric);
        let shown = value.map_or_else(|| "not measured".to_owned(), |v| format!("{v:.4}"));
        let verdict = if goal.met(value) { "met" } else { "NOT met" };
        let _ = writeln!(text, "  {goal}: {shown} ({verdict})");
    }
    let _ = writeln!(
        text,
        "{}",
        if best.meets_goals() {
            "all goals met"
        } else {
            "not all goals met"
        }
    );
    text
}
