//! Parameter sweeps: run a scene once per value of one graph parameter (and per seed), and
//! reduce every run to one number per [`Metric`].
//!
//! Runs are independent and run in parallel (rayon); each is a deterministic [`Simulation`],
//! and the seeds' results are combined in a fixed order, so a sweep's result is bit-identical
//! whatever the thread count. A sweep can be cancelled and watched through [`SweepControl`].

mod metric;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::limits::{MAX_AGENT_TICKS, MAX_SWEEP_RUNS, MAX_SWEEP_SECONDS};
use crate::{CompileError, MetricsTracker, SceneAssets, SceneError, Simulation, compile_with};
pub use metric::{METRIC_COUNT, Metric, RunSummary, Stat};

/// The tick of a sweep's runs (s): the preview's 60 Hz.
pub const SWEEP_DT: f32 = 1.0 / 60.0;
/// Ticks between metric samples (0.1 s, as in the preview's plots).
pub const SAMPLE_TICKS: u64 = 6;

/// What to sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSpec {
    /// The graph parameter, set on every group whose graph declares it.
    pub parameter: String,
    /// The values to run, in order.
    pub values: Vec<f32>,
    /// Runs per value; run `i` uses the scene's seed plus `i`.
    pub seeds: u32,
    /// Simulated seconds per run.
    pub seconds: f32,
}

impl SweepSpec {
    /// Ticks per run: `seconds` at [`SWEEP_DT`], at least one.
    pub fn ticks(&self) -> u64 {
        (f64::from(self.seconds) / f64::from(SWEEP_DT))
            .round()
            .max(1.0) as u64
    }

    /// Runs in the sweep: values × seeds.
    pub fn runs(&self) -> usize {
        self.values.len() * self.seeds as usize
    }

    /// Ticks in the whole sweep, what [`SweepControl::ticks_done`] counts up to.
    pub fn total_ticks(&self) -> u64 {
        self.ticks() * self.runs() as u64
    }
}

/// `steps` evenly spaced values from `from` to `to`, both included; one step gives `from`
/// alone, zero none.
pub fn values_between(from: f32, to: f32, steps: usize) -> Vec<f32> {
    match steps {
        0 => Vec::new(),
        1 => vec![from],
        _ => (0..steps)
            .map(|i| {
                let t = i as f64 / (steps - 1) as f64;
                (f64::from(from) + (f64::from(to) - f64::from(from)) * t) as f32
            })
            .collect(),
    }
}

/// Cancels a sweep and reports its progress; share it (in an `Arc`) with the thread running
/// [`sweep`].
#[derive(Debug, Default)]
pub struct SweepControl {
    /// Set to stop the sweep; runs check it between ticks.
    pub cancel: AtomicBool,
    /// Ticks finished over all runs, out of [`SweepSpec::total_ticks`].
    pub ticks_done: AtomicUsize,
}

impl SweepControl {
    /// Asks the sweep to stop.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The fraction of `spec`'s ticks finished, from 0 to 1.
    pub fn progress(&self, spec: &SweepSpec) -> f32 {
        let total = spec.total_ticks().max(1) as f64;
        (self.ticks_done.load(Ordering::Relaxed) as f64 / total).min(1.0) as f32
    }
}

/// Why a sweep did not run or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// No graph of the scene's groups declares the parameter.
    #[error("no graph in the scene declares a parameter \"{name}\" (declared: {})", list(.declared, ", "))]
    UnknownParameter {
        /// The parameter asked for.
        name: String,
        /// The parameters the scene's graphs declare.
        declared: Vec<String>,
    },
    /// A value does not fit a field the parameter feeds.
    #[error("{parameter} = {value}: group \"{group}\": {}", list(.errors, "; "))]
    Value {
        /// The parameter.
        parameter: String,
        /// The value refused.
        value: f32,
        /// The group whose graph refuses it.
        group: String,
        /// What the compiler says.
        errors: Vec<CompileError>,
    },
    /// The sweep itself is not meaningful (no values, no seeds, bad duration).
    #[error("{0}")]
    Invalid(String),
    /// The scene does not build.
    #[error("{}", list(.0, "; "))]
    Scene(Vec<SceneError>),
    /// [`SweepControl::cancel`] was called.
    #[error("the sweep was cancelled")]
    Cancelled,
}

fn list<T: std::fmt::Display>(items: &[T], separator: &str) -> String {
    if items.is_empty() {
        return "none".to_owned();
    }
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

/// One value's result: every metric's mean and spread over the seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// The parameter value.
    pub value: f32,
    /// Per metric, in [`Metric::ALL`] order.
    pub stats: [Stat; METRIC_COUNT],
}

impl SweepPoint {
    /// The result for `metric`.
    pub fn stat(&self, metric: Metric) -> Stat {
        self.stats[metric.index()]
    }
}

/// A finished sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepResult {
    /// The parameter swept.
    pub parameter: String,
    /// One point per value, in the order asked.
    pub points: Vec<SweepPoint>,
}

impl SweepResult {
    /// The CSV: a header `value,mean_speed_mean,mean_speed_spread,…` (every [`Metric`]) and
    /// one row per value. Numbers are in shortest round-trip form; a metric nothing measured
    /// (no path to follow) is an empty cell.
    pub fn to_csv(&self) -> String {
        let mut csv = String::from("value");
        for metric in Metric::ALL {
            let _ = write!(csv, ",{0}_mean,{0}_spread", metric.name());
        }
        csv.push('\n');
        let cell = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
        for point in &self.points {
            csv.push_str(&point.value.to_string());
            for stat in point.stats {
                let _ = write!(csv, ",{},{}", cell(stat.mean), cell(stat.spread));
            }
            csv.push('\n');
        }
        csv
    }
}

/// Runs the sweep `spec` on `assets`: one [`Simulation`] per value and seed, `spec.seconds`
/// long at [`SWEEP_DT`], with the parameter overridden on every group whose graph declares
/// it. Runs go in parallel on the current rayon pool. Everything is checked before anything
/// runs: the scene builds, the parameter exists, and every value satisfies every field it
/// feeds.
pub fn sweep(
    assets: &SceneAssets,
    spec: &SweepSpec,
    control: &SweepControl,
) -> Result<SweepResult, SweepError> {
    let groups = checked(assets, spec)?;
    let seeds = spec.seeds as usize;
    let runs: Vec<Option<[Option<f64>; METRIC_COUNT]>> = (0..spec.runs())
        .into_par_iter()
        .map(|run| {
            let value = spec.values[run / seeds];
            let seed = assets.scene.seed.wrapping_add((run % seeds) as u64);
            run_one(assets, spec, &groups, value, seed, control)
        })
        .collect();
    if control.cancel.load(Ordering::Relaxed) {
        return Err(SweepError::Cancelled);
    }
    let points = spec
        .values
        .iter()
        .enumerate()
        .map(|(index, &value)| {
            let seeds_of = runs.get(index * seeds..(index + 1) * seeds).unwrap_or(&[]);
            SweepPoint {
                value,
                stats: Metric::ALL
                    .map(|m| Stat::of(seeds_of.iter().map(|r| r.and_then(|r| r[m.index()])))),
            }
        })
        .collect();
    Ok(SweepResult {
        parameter: spec.parameter.clone(),
        points,
    })
}

/// Whether [`sweep`] would start: the spec within its limits, the scene builds, the parameter
/// exists and every value fits every field it feeds (what a command line checks before it
/// estimates how long the runs take).
pub fn check(assets: &SceneAssets, spec: &SweepSpec) -> Result<(), SweepError> {
    checked(assets, spec).map(|_| ())
}

/// [`check`], returning the groups whose graph declares the parameter.
fn checked(assets: &SceneAssets, spec: &SweepSpec) -> Result<Vec<usize>, SweepError> {
    check_spec(spec)?;
    let simulation = Simulation::new(assets).map_err(SweepError::Scene)?;
    check_work(spec, simulation.vehicles().len())?;
    drop(simulation);
    let groups = groups_declaring(assets, &spec.parameter)?;
    check_values(assets, spec, &groups)?;
    Ok(groups)
}

fn check_spec(spec: &SweepSpec) -> Result<(), SweepError> {
    let invalid = |message: String| Err(SweepError::Invalid(message));
    if spec.values.is_empty() {
        return invalid("a sweep needs at least one value".to_owned());
    }
    if let Some(value) = spec.values.iter().find(|v| !v.is_finite()) {
        return invalid(format!(
            "{} = {value} is not a finite number",
            spec.parameter
        ));
    }
    if spec.seeds == 0 {
        return invalid("a sweep needs at least one seed".to_owned());
    }
    if !(spec.seconds.is_finite() && spec.seconds > 0.0 && spec.seconds <= MAX_SWEEP_SECONDS) {
        return invalid(format!(
            "seconds must be a finite number > 0 and at most {MAX_SWEEP_SECONDS} (one hour), found {}",
            spec.seconds
        ));
    }
    let runs = spec.values.len().checked_mul(spec.seeds as usize);
    if runs.is_none_or(|runs| runs > MAX_SWEEP_RUNS) {
        return invalid(format!(
            "{} values × {} seeds is more than {MAX_SWEEP_RUNS} runs",
            spec.values.len(),
            spec.seeds
        ));
    }
    Ok(())
}

/// Refuses a sweep whose runs × ticks × `agents` is beyond [`MAX_AGENT_TICKS`].
fn check_work(spec: &SweepSpec, agents: usize) -> Result<(), SweepError> {
    let work = (spec.runs() as u64)
        .saturating_mul(spec.ticks())
        .saturating_mul(agents as u64);
    if work > MAX_AGENT_TICKS {
        return Err(SweepError::Invalid(format!(
            "{} runs × {} ticks × {agents} agents is {work} agent-ticks, more than {MAX_AGENT_TICKS}: fewer values, seeds or seconds",
            spec.runs(),
            spec.ticks()
        )));
    }
    Ok(())
}

/// Indices of the groups whose graph declares `parameter`.
/// The groups whose graph declares `parameter` (an error naming the declared ones if none).
pub(crate) fn groups_declaring(
    assets: &SceneAssets,
    parameter: &str,
) -> Result<Vec<usize>, SweepError> {
    let groups: Vec<usize> = (0..assets.scene.groups.len())
        .filter(|&i| {
            assets
                .graphs
                .get(&assets.scene.groups[i].graph)
                .is_some_and(|g| g.parameters.contains_key(parameter))
        })
        .collect();
    if groups.is_empty() {
        let mut declared: Vec<String> = assets
            .scene
            .groups
            .iter()
            .filter_map(|group| assets.graphs.get(&group.graph))
            .flat_map(|graph| graph.parameters.keys().cloned())
            .collect();
        declared.sort();
        declared.dedup();
        return Err(SweepError::UnknownParameter {
            name: parameter.to_owned(),
            declared,
        });
    }
    Ok(groups)
}

/// Every value against every field it feeds, in every group it is set on.
fn check_values(
    assets: &SceneAssets,
    spec: &SweepSpec,
    groups: &[usize],
) -> Result<(), SweepError> {
    let mut programs = BTreeMap::new();
    for &index in groups {
        let group = &assets.scene.groups[index];
        if !programs.contains_key(&group.graph) {
            let Some(graph) = assets.graphs.get(&group.graph) else {
                continue;
            };
            // The scene built, so its graphs compile (with their subgraphs, as it did).
            let Ok(program) = compile_with(graph, &group.graph, &assets.graphs) else {
                continue;
            };
            programs.insert(group.graph.clone(), program);
        }
        let Some(program) = programs.get(&group.graph) else {
            continue;
        };
        for &value in &spec.values {
            let mut overrides = group.parameters.clone();
            overrides.insert(spec.parameter.clone(), value);
            if let Err(errors) = program.parameters(&overrides) {
                return Err(SweepError::Value {
                    parameter: spec.parameter.clone(),
                    value,
                    group: group.name.clone(),
                    errors,
                });
            }
        }
    }
    Ok(())
}

/// One run reduced to one number per metric; `None` when cancelled (or, never expected after
/// the checks, when the scene does not build).
fn run_one(
    assets: &SceneAssets,
    spec: &SweepSpec,
    groups: &[usize],
    value: f32,
    seed: u64,
    control: &SweepControl,
) -> Option<[Option<f64>; METRIC_COUNT]> {
    let overrides = [Override {
        groups,
        parameter: &spec.parameter,
        value,
    }];
    run_with(assets, &overrides, seed, spec.ticks(), control)
}

/// A value for a graph parameter, set on the groups `groups`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Override<'a> {
    pub(crate) groups: &'a [usize],
    pub(crate) parameter: &'a str,
    pub(crate) value: f32,
}

/// One run of `ticks` ticks with `overrides` and `seed`, reduced to one number per metric
/// ([`RunSummary`]); `None` when cancelled (or when the scene does not build).
pub(crate) fn run_with(
    assets: &SceneAssets,
    overrides: &[Override<'_>],
    seed: u64,
    ticks: u64,
    control: &SweepControl,
) -> Option<[Option<f64>; METRIC_COUNT]> {
    if control.cancel.load(Ordering::Relaxed) {
        return None;
    }
    let mut assets = assets.clone();
    assets.scene.seed = seed;
    for o in overrides {
        for &index in o.groups {
            if let Some(group) = assets.scene.groups.get_mut(index) {
                group.parameters.insert(o.parameter.to_owned(), o.value);
            }
        }
    }
    let mut simulation = Simulation::new(&assets).ok()?;
    let mut tracker = MetricsTracker::default();
    let mut summary = RunSummary::default();
    tracker.observe(&simulation, 0.0);
    let mut last_time = 0.0;
    for tick in 1..=ticks {
        if control.cancel.load(Ordering::Relaxed) {
            return None;
        }
        simulation.step(SWEEP_DT);
        control.ticks_done.fetch_add(1, Ordering::Relaxed);
        if tick % SAMPLE_TICKS != 0 && tick != ticks {
            continue;
        }
        let time = (tick as f64 * f64::from(SWEEP_DT)) as f32;
        let sample = tracker.observe(&simulation, time);
        if 2 * tick > ticks {
            if !summary.has_window() {
                summary.start_window(last_time);
            }
            summary.add(&sample);
        }
        last_time = time;
    }
    Some(summary.finish())
}
