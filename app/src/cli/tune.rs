//! `steergraph tune`: searches several graph parameters for values that meet goals on the
//! sweep's metrics, printing progress, the best values and each goal's value at them. The
//! search and its runs are the runtime's (`graph_runtime::tune`).

use std::fmt::Write as _;
use std::path::PathBuf;

use graph_runtime::sweep::Metric;
use graph_runtime::tune::{
    Goal, Preference, Strategy, TuneControl, TuneParameter, TuneResult, TuneSpec, tune,
};

/// Options of `tune`.
#[derive(Debug, clap::Args)]
pub struct Options {
    /// The scene file.
    scene: PathBuf,
    /// A graph parameter and its range, `NAME=FROM..TO`; give one `--param` per parameter.
    #[arg(long = "param", required = true)]
    params: Vec<String>,
    /// A goal on a metric; give one `--goal` per goal.
    #[arg(
        long = "goal",
        required = true,
        help = "A goal, METRIC <= NUMBER (or <, >=, >), e.g. \"min_spacing >= 0.8\"; give one --goal per goal. Metrics: mean_speed, min_spacing, path_distance, agent_overlaps, obstacle_overlaps, wall_crossings, stuck_agents, polarization, arrived, arrived_50, arrived_95"
    )]
    goals: Vec<String>,
    /// Runs per candidate; run i uses the scene's seed + i.
    #[arg(long, default_value_t = 3)]
    seeds: u32,
    /// Simulated seconds per run (ticks of 1/60 s).
    #[arg(long, default_value_t = 10.0)]
    seconds: f32,
    /// Candidates to evaluate at most (each runs on every seed).
    #[arg(long, default_value_t = 100)]
    budget: usize,
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
    /// `lowest:METRIC` or `highest:METRIC`.
    #[arg(long, default_value = "closest")]
    prefer: String,
    /// Worker threads (default: all cores; the result is identical for any count).
    #[arg(long)]
    threads: Option<usize>,
    /// Output CSV file listing every candidate: its values, each goal's metric, distance.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Checks the options, runs the search (a progress line per candidate on stderr), writes the
/// CSV of every candidate to `--out` and prints the best values with each goal's value; fails
/// when the best values miss a goal.
pub fn run(options: &Options) -> Result<(), Vec<String>> {
    let spec = spec_of(options)?;
    let assets = super::load_assets(&options.scene, None, None)?;
    if let Some(out) = &options.out {
        super::refuse_overwriting_inputs(out, &options.scene, &assets)?;
    }
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
    .map_err(|error| vec![format!("{}: {error}", options.scene.display())])?;
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

/// The tuning the options ask for, every problem with them listed.
fn spec_of(options: &Options) -> Result<TuneSpec, Vec<String>> {
    let mut errors = Vec::new();
    let parameters: Vec<TuneParameter> = options
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
    let goals: Vec<Goal> = options
        .goals
        .iter()
        .filter_map(|text| {
            text.parse::<Goal>()
                .map_err(|e| errors.push(format!("--goal {e}")))
                .ok()
        })
        .collect();
    let prefer = parse_prefer(&options.prefer).map_err(|e| errors.push(e));
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(TuneSpec {
        parameters,
        goals,
        seeds: options.seeds,
        seconds: options.seconds,
        budget: options.budget,
        search_seed: options.search_seed,
        strategy: if options.random {
            Strategy::Random
        } else {
            Strategy::Cmaes
        },
        prefer: prefer.unwrap_or_default(),
        stop_when_met: options.stop_when_met,
    })
}

/// `closest`, `lowest:METRIC` or `highest:METRIC`.
fn parse_prefer(text: &str) -> Result<Preference, String> {
    let metric = |name: &str| {
        Metric::from_name(name).ok_or_else(|| {
            format!(
                "--prefer {text}: unknown metric \"{name}\" (valid: {})",
                Metric::names()
            )
        })
    };
    match text.split_once(':') {
        None if text == "closest" => Ok(Preference::Closest),
        Some(("lowest", name)) => metric(name).map(Preference::Lowest),
        Some(("highest", name)) => metric(name).map(Preference::Highest),
        _ => Err(format!(
            "--prefer {text}: expected closest, lowest:METRIC or highest:METRIC"
        )),
    }
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
    let _ = writeln!(
        text,
        "best of {} runs (run {}):",
        result.runs.len(),
        result.best + 1
    );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_parse_and_say_what_is_wrong() {
        assert_eq!(parse_prefer("closest"), Ok(Preference::Closest));
        assert_eq!(
            parse_prefer("highest:mean_speed"),
            Ok(Preference::Highest(Metric::MeanSpeed))
        );
        assert_eq!(
            parse_prefer("lowest:stuck_agents"),
            Ok(Preference::Lowest(Metric::StuckAgents))
        );
        assert!(parse_prefer("fastest").is_err_and(|e| e.contains("closest, lowest:METRIC")));
        assert!(
            parse_prefer("lowest:speed").is_err_and(|e| e.contains("unknown metric \"speed\""))
        );
    }
}
