//! `steergraph sweep`: runs a scene once per value of a graph parameter (and per seed) and
//! writes every metric's mean and spread as CSV. The runs and the reduction are the runtime's
//! (`graph_runtime::sweep`).

use std::fmt::Write as _;
use std::path::PathBuf;

use graph_runtime::limits::MAX_SWEEP_RUNS;
use graph_runtime::sweep::{Metric, SweepControl, SweepResult, SweepSpec, sweep, values_between};

/// Options of `sweep`.
pub struct Options {
    pub scene: PathBuf,
    pub param: String,
    pub steps: usize,
    pub seconds: f32,
    pub metric: String,
    pub seeds: u32,
    pub threads: Option<usize>,
    pub out: Option<PathBuf>,
    /// Run even when the estimate is over [`super::estimate::LONGEST`].
    pub long: bool,
}

/// Checks the options, runs the sweep and writes the CSV (to `--out`, atomically, or to
/// stdout), then prints `--metric` per value: to stdout when the CSV went to a file, else to
/// stderr so that stdout stays pure CSV.
pub fn run(options: &Options) -> Result<(), Vec<String>> {
    let metric = Metric::from_name(&options.metric).ok_or_else(|| {
        vec![format!(
            "--metric: unknown metric \"{}\" (valid: {})",
            options.metric,
            Metric::names()
        )]
    })?;
    if !(options.seconds.is_finite()
        && options.seconds > 0.0
        && options.seconds <= graph_runtime::limits::MAX_SWEEP_SECONDS)
    {
        return Err(vec![format!(
            "--seconds {}: a finite number > 0 and at most {} (one hour)",
            options.seconds,
            graph_runtime::limits::MAX_SWEEP_SECONDS
        )]);
    }
    if (options.steps as u64).saturating_mul(u64::from(options.seeds)) > MAX_SWEEP_RUNS as u64 {
        return Err(vec![format!(
            "--steps {} × --seeds {} is more than {MAX_SWEEP_RUNS} runs",
            options.steps, options.seeds
        )]);
    }
    let (parameter, values) = parse_param(&options.param, options.steps)?;
    let assets = super::load_assets(&options.scene, None, None)?;
    if let Some(out) = &options.out {
        super::refuse_overwriting_inputs(out, &options.scene, &assets)?;
    }
    let spec = SweepSpec {
        parameter,
        values,
        seeds: options.seeds,
        seconds: options.seconds,
    };
    graph_runtime::sweep::check(&assets, &spec)
        .map_err(|error| vec![format!("{}: {error}", options.scene.display())])?;
    let work = super::estimate::Work {
        runs: spec.values.len() as u64 * u64::from(spec.seeds),
        ticks: super::ticks_in(spec.seconds),
        threads: super::thread_count(options.threads),
    };
    let took = super::estimate::estimate(&assets, 1.0 / 60.0, work)?;
    super::estimate::announce("sweep", work, took, options.long)?;
    let control = SweepControl::default();
    let result = super::with_threads(options.threads, || sweep(&assets, &spec, &control))?
        .map_err(|error| vec![format!("{}: {error}", options.scene.display())])?;
    let csv = result.to_csv();
    let summary = summary(&result, metric);
    match &options.out {
        Some(out) => {
            graph_runtime::write_atomically(out, csv.as_bytes())
                .map_err(|error| vec![error.to_string()])?;
            print!("{summary}");
        }
        None => {
            print!("{csv}");
            eprint!("{summary}");
        }
    }
    Ok(())
}

/// `NAME=FROM..TO` and the step count into the parameter and its values (`NAME=VALUE` is
/// accepted with one step).
pub fn parse_param(text: &str, steps: usize) -> Result<(String, Vec<f32>), Vec<String>> {
    let bad = |why: String| vec![format!("--param \"{text}\": {why}")];
    let (name, range) = text
        .split_once('=')
        .ok_or_else(|| bad("expected NAME=FROM..TO, e.g. separation=0.5..4".to_owned()))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(bad("the parameter name is empty".to_owned()));
    }
    let number = |part: &str, what: &str| -> Result<f32, Vec<String>> {
        part.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| bad(format!("{what} \"{}\" is not a finite number", part.trim())))
    };
    if steps == 0 {
        return Err(vec!["--steps must be at least 1".to_owned()]);
    }
    if steps > MAX_SWEEP_RUNS {
        return Err(vec![format!(
            "--steps {steps}: at most {MAX_SWEEP_RUNS} values (each is a run)"
        )]);
    }
    let (from, to) = match range.split_once("..") {
        // `1...3` is not `1..0.3`: a range has exactly two dots.
        Some((_, to)) if to.trim_start().starts_with('.') => {
            return Err(bad(
                "expected FROM..TO with two dots, e.g. separation=0.5..4".to_owned(),
            ));
        }
        Some((from, to)) => (number(from, "FROM")?, number(to, "TO")?),
        None if steps == 1 => {
            let value = number(range, "the value")?;
            (value, value)
        }
        None => return Err(bad("expected FROM..TO after the `=`".to_owned())),
    };
    Ok((name.to_owned(), values_between(from, to, steps)))
}

/// One line per value: `name = value: metric mean ± spread`.
fn summary(result: &SweepResult, metric: Metric) -> String {
    let mut text = String::new();
    for point in &result.points {
        let stat = point.stat(metric);
        let measured = match (stat.mean, stat.spread) {
            (Some(mean), Some(spread)) => format!("{mean:.4} ± {spread:.4}"),
            _ => "not measured".to_owned(),
        };
        let _ = writeln!(
            text,
            "{} = {}: {} {measured}",
            result.parameter,
            point.value,
            metric.label()
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::parse_param;

    #[test]
    fn ranges_parse_with_negative_ends_and_say_what_is_wrong() {
        assert_eq!(
            parse_param("push=-1..3", 5),
            Ok(("push".to_owned(), vec![-1.0, 0.0, 1.0, 2.0, 3.0]))
        );
        assert_eq!(parse_param("push=2", 1), Ok(("push".to_owned(), vec![2.0])));
        assert_eq!(
            parse_param("push=1..x", 3),
            Err(vec![
                "--param \"push=1..x\": TO \"x\" is not a finite number".to_owned()
            ])
        );
        assert!(parse_param("push", 3).is_err_and(|e| e[0].contains("NAME=FROM..TO")));
        assert!(parse_param("push=2", 3).is_err_and(|e| e[0].contains("FROM..TO")));
        assert!(parse_param("=1..2", 3).is_err_and(|e| e[0].contains("name is empty")));
    }
}
