//! Goal-driven tuning: state what the crowd must do ([`Goal`]s on the sweep's metrics), give
//! the graph parameters to search and their ranges, and the search finds values that meet the
//! goals, then prefers the cheapest by a chosen [`Preference`].
//!
//! Each candidate (one value per parameter) is run on `seeds` seeds, in parallel, each run
//! reduced as a sweep reduces it ([`crate::sweep::RunSummary`]) and the seeds averaged; its
//! *distance* is the sum of the goals' shortfalls ([`Goal::shortfall`]), 0 when every goal is
//! met. Preferring the closest, the current values run first, and the tuning ends with them
//! when they meet every goal (nothing is closer). The search is CMA-ES ([`cmaes`], a maintained implementation of Hansen's algorithm:
//! derivative-free, robust to noisy and ill-scaled objectives, seeded) over the parameters
//! scaled to 0..1, or uniform random search of the same budget for comparison. A CMA-ES
//! generation's candidates (a random batch of 8) run in parallel, each on its seeds in
//! parallel, and are recorded in an order fixed by their values (the order drawn), so the
//! result is the same for a given search seed whatever the thread count.
//!
//! Only with the `tune` feature: a game that loads graphs has no use for it.

mod candidate;
mod file;
mod goal;
mod search;

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::SceneAssets;
use crate::limits::MAX_SWEEP_RUNS;
use crate::sweep::{METRIC_COUNT, Metric, SweepControl, SweepError};
use candidate::Space;
pub use file::{PreferenceError, TuneFile};
pub use goal::{Comparison, Goal, GoalError};

/// A graph parameter to search, from `from` to `to` (either order).
#[derive(Clone, Debug, PartialEq)]
pub struct TuneParameter {
    /// The parameter's name, as the graph declares it.
    pub name: String,
    /// One end of its range.
    pub from: f32,
    /// The other end.
    pub to: f32,
}

/// How the search proposes candidates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// CMA-ES from the current values.
    #[default]
    Cmaes,
    /// Uniform random candidates (the baseline CMA-ES is measured against).
    Random,
}

/// Among candidates that meet every goal (or are as far from it), which is best.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Preference {
    /// The one closest to the current values (each parameter measured in its range's width).
    #[default]
    Closest,
    /// The one with the lowest mean of this metric.
    Lowest(Metric),
    /// The one with the highest mean of this metric.
    Highest(Metric),
}

/// What to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSpec {
    /// The parameters and their ranges.
    pub parameters: Vec<TuneParameter>,
    /// The goals, all of which must be met.
    pub goals: Vec<Goal>,
    /// Runs per candidate; run `i` uses the scene's seed plus `i`.
    pub seeds: u32,
    /// Simulated seconds per run.
    pub seconds: f32,
    /// Candidates to evaluate at most.
    pub budget: usize,
    /// The search's own seed (not the scene's).
    pub search_seed: u64,
    /// How candidates are proposed.
    pub strategy: Strategy,
    /// Which of the candidates that meet the goals is best.
    pub prefer: Preference,
    /// Stop at the first candidate that meets every goal instead of spending the budget on
    /// a cheaper one.
    pub stop_when_met: bool,
}

/// One candidate and what it measured.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneRun {
    /// The value of each parameter, in [`TuneSpec::parameters`] order.
    pub values: Vec<f32>,
    /// Each metric's mean over the seeds, in [`Metric::ALL`] order.
    pub metrics: [Option<f64>; METRIC_COUNT],
    /// The sum of the goals' shortfalls: 0 when every goal is met.
    pub distance: f64,
    /// The preference's cost (lower is better).
    pub cost: f64,
}

impl TuneRun {
    /// The mean of `metric` over the seeds.
    pub fn metric(&self, metric: Metric) -> Option<f64> {
        self.metrics.get(metric.index()).copied().flatten()
    }

    /// Whether it meets every goal.
    pub fn meets_goals(&self) -> bool {
        self.distance == 0.0
    }

    /// Whether it is better than `other`: nearer the goals, then cheaper.
    fn better_than(&self, other: &Self) -> bool {
        (self.distance, self.cost) < (other.distance, other.cost)
    }
}

/// What a tuning found.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneResult {
    /// The parameters' names.
    pub parameters: Vec<String>,
    /// The goals.
    pub goals: Vec<Goal>,
    /// The parameters' values before tuning (the first group's override, or the graph's
    /// default).
    pub current: Vec<f32>,
    /// Every candidate, in the order evaluated.
    pub runs: Vec<TuneRun>,
    /// The best of them (its index in `runs`).
    pub best: usize,
}

impl TuneResult {
    /// The best candidate.
    pub fn best(&self) -> Option<&TuneRun> {
        self.runs.get(self.best)
    }

    /// Whether the tuning ended at its first run, the current values, because they meet every
    /// goal (preferring the closest, nothing is closer: [`tune`]).
    pub fn met_as_they_are(&self) -> bool {
        self.runs.len() == 1
            && (self.best()).is_some_and(|best| best.meets_goals() && best.values == self.current)
    }

    /// Whether the best candidate meets every goal.
    pub fn met(&self) -> bool {
        self.best().is_some_and(TuneRun::meets_goals)
    }

    /// The index of the best run after each run (nearest the goals, then cheapest).
    pub fn best_so_far(&self) -> Vec<usize> {
        let mut best = 0;
        (0..self.runs.len())
            .map(|index| {
                if self.runs[index].better_than(&self.runs[best]) {
                    best = index;
                }
                best
            })
            .collect()
    }

    /// The best distance after each run (what the editor plots against runs).
    pub fn best_distances(&self) -> Vec<f64> {
        let mut best = f64::INFINITY;
        self.runs
            .iter()
            .map(|run| {
                best = best.min(run.distance);
                best
            })
            .collect()
    }

    /// Every run as CSV: the run number, each parameter, each goal's metric, the distance and
    /// the cost, one row per candidate.
    pub fn to_csv(&self) -> String {
        let mut csv = String::from("run");
        for name in &self.parameters {
            let _ = write!(csv, ",{name}");
        }
        for goal in &self.goals {
            let _ = write!(csv, ",{}", goal.metric.name());
        }
        csv.push_str(",distance,cost,meets_goals\n");
        for (index, run) in self.runs.iter().enumerate() {
            let _ = write!(csv, "{}", index + 1);
            for value in &run.values {
                let _ = write!(csv, ",{value}");
            }
            for goal in &self.goals {
                let cell = run.metric(goal.metric).map(|v| v.to_string());
                let _ = write!(csv, ",{}", cell.unwrap_or_default());
            }
            let _ = writeln!(csv, ",{},{},{}", run.distance, run.cost, run.meets_goals());
        }
        csv
    }
}

/// Cancels a tuning and reports its progress; share it (in an `Arc`) with the thread running
/// [`tune`].
#[derive(Debug, Default)]
pub struct TuneControl {
    /// The runs' own control: cancelling it stops them between ticks.
    pub runs: SweepControl,
    /// Candidates evaluated so far, out of the budget.
    pub runs_done: AtomicUsize,
    /// The best distance after each candidate so far.
    pub best_distances: Mutex<Vec<f64>>,
    /// The best candidate after each candidate so far (nearest the goals, then cheapest):
    /// what the editor plots while the search runs.
    pub best_runs: Mutex<Vec<TuneRun>>,
}

impl TuneControl {
    /// Asks the tuning to stop.
    pub fn cancel(&self) {
        self.runs.cancel();
    }

    /// Whether it was asked to stop.
    pub fn cancelled(&self) -> bool {
        self.runs.cancel.load(Ordering::Relaxed)
    }

    /// The fraction of `spec`'s budget evaluated, from 0 to 1.
    pub fn progress(&self, spec: &TuneSpec) -> f32 {
        let done = self.runs_done.load(Ordering::Relaxed) as f64;
        (done / spec.budget.max(1) as f64).min(1.0) as f32
    }
}

/// Why a tuning did not run or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A parameter is unknown, or a value of its range is refused: the sweep's errors.
    #[error(transparent)]
    Sweep(#[from] SweepError),
    /// The tuning itself is not meaningful.
    #[error("{0}")]
    Invalid(String),
    /// Cancelled.
    #[error("the tuning was cancelled")]
    Cancelled,
}

/// Every candidate as it is evaluated: kept in order, the best so far reported to the control
/// and `on_run`.
struct Recorder<'c, F> {
    control: &'c TuneControl,
    on_run: F,
    runs: Vec<TuneRun>,
    best: Option<TuneRun>,
}

impl<F: FnMut(&TuneRun)> Recorder<'_, F> {
    fn record(&mut self, run: TuneRun) {
        self.control.runs_done.fetch_add(1, Ordering::Relaxed);
        if self.best.as_ref().is_none_or(|best| run.better_than(best)) {
            self.best = Some(run.clone());
        }
        if let Some(best) = &self.best {
            if let Ok(mut distances) = self.control.best_distances.lock() {
                distances.push(best.distance);
            }
            if let Ok(mut runs) = self.control.best_runs.lock() {
                runs.push(best.clone());
            }
        }
        (self.on_run)(&run);
        self.runs.push(run);
    }
}

/// Runs kept from the budget, once a candidate meets the goals, to put parameters back (see
/// [`simplify`]): one per parameter, at most a quarter of the budget; none when asked to stop
/// at the first candidate that meets the goals, or to prefer by a metric. Until a candidate
/// meets the goals the search may spend them.
pub(super) fn simplify_budget(spec: &TuneSpec) -> usize {
    if spec.prefer == Preference::Closest && !spec.stop_when_met {
        spec.parameters.len().min(spec.budget / 4)
    } else {
        0
    }
}

/// Tunes `spec`'s parameters of `assets` until the budget is spent; `on_run` hears of every
/// candidate as it is evaluated (for progress). Preferring the closest, the current values
/// are run first, and when they meet every goal the tuning ends with them; otherwise the last
/// runs of the budget go to putting back, one at a time, each parameter the best candidate
/// changed while the goals stay met.
pub fn tune(
    assets: &SceneAssets,
    spec: &TuneSpec,
    control: &TuneControl,
    on_run: impl FnMut(&TuneRun),
) -> Result<TuneResult, TuneError> {
    check_spec(spec)?;
    let space = Space::new(assets, spec)?;
    let mut recorder = Recorder {
        control,
        on_run,
        runs: Vec::new(),
        best: None,
    };
    if let Some(run) = current_meeting_goals(&space, spec, control) {
        // Nothing is closer than the values as they are: the tuning ends with them.
        recorder.record(run);
    } else {
        match spec.strategy {
            Strategy::Cmaes => {
                search::cmaes(&space, spec, control, &mut |run| recorder.record(run))?;
            }
            Strategy::Random => {
                search::random(&space, spec, control, &mut |run| recorder.record(run));
            }
        }
        let left = spec.budget.saturating_sub(recorder.runs.len());
        simplify(
            &space,
            control,
            &mut recorder,
            left.min(simplify_budget(spec)),
        );
    }
    if control.cancelled() {
        return Err(TuneError::Cancelled);
    }
    let runs = recorder.runs;
    let best = (0..runs.len())
        .reduce(|best, index| {
            if runs[index].better_than(&runs[best]) {
                index
            } else {
                best
            }
        })
        .unwrap_or(0);
    Ok(TuneResult {
        parameters: spec.parameters.iter().map(|p| p.name.clone()).collect(),
        goals: spec.goals.clone(),
        current: space.current(),
        runs,
        best,
    })
}

/// Preferring the closest (`Preference::Closest`), the run of the current values when they
/// lie in the ranges and meet every goal: then no candidate can be better, and the tuning
/// answers after that one run instead of spending the budget to find its way back to them
/// (seen under Xvfb: 98 runs, a minute, to say "it changes 0 of 8 parameters"). `None`
/// otherwise, and the run is not kept: the search then runs as it would have without it.
fn current_meeting_goals(
    space: &Space<'_>,
    spec: &TuneSpec,
    control: &TuneControl,
) -> Option<TuneRun> {
    if spec.prefer != Preference::Closest || spec.budget == 0 {
        return None;
    }
    let current = space.current();
    // The values the search would propose at the current point: the current values
    // themselves only when each lies in its range (and is whole where it must be).
    if space.values(&space.current_unit()) != current {
        return None;
    }
    space.run(current, control).filter(TuneRun::meets_goals)
}

/// When the best candidate meets every goal: each parameter it changed, the smallest change
/// (as a share of its range) first, is put back to its current value, and kept back when the
/// goals stay met; at most `runs` runs. A search seldom lands exactly on a current value, so
/// this is what makes "closest" change fewer parameters.
fn simplify<F: FnMut(&TuneRun)>(
    space: &Space<'_>,
    control: &TuneControl,
    recorder: &mut Recorder<'_, F>,
    mut runs: usize,
) {
    let Some(mut best) = recorder.best.clone().filter(TuneRun::meets_goals) else {
        return;
    };
    let current = space.current();
    let share = |index: usize, value: f32| {
        let mut values = current.clone();
        values[index] = value;
        space.change(&values)
    };
    let mut changed: Vec<usize> = (0..current.len())
        .filter(|&i| best.values[i] != current[i])
        .collect();
    changed.sort_by(|&a, &b| {
        share(a, best.values[a])
            .total_cmp(&share(b, best.values[b]))
            .then(a.cmp(&b))
    });
    for index in changed {
        if runs == 0 || control.cancelled() {
            return;
        }
        let mut values = best.values.clone();
        values[index] = current[index];
        if let Some(known) = recorder.runs.iter().find(|run| run.values == values) {
            if known.meets_goals() {
                best = known.clone();
            }
            continue;
        }
        let Some(run) = space.run(values, control) else {
            return;
        };
        runs -= 1;
        if run.meets_goals() {
            best = run.clone();
        }
        recorder.record(run);
    }
}

/// Checks `spec` against `assets` as [`tune`] does before it runs anything: every parameter
/// declared, both ends of its range accepted, the work within the limits.
pub fn validate(assets: &SceneAssets, spec: &TuneSpec) -> Result<(), TuneError> {
    check_spec(spec)?;
    Space::new(assets, spec).map(|_| ())
}

fn check_spec(spec: &TuneSpec) -> Result<(), TuneError> {
    let invalid = |message: String| Err(TuneError::Invalid(message));
    if spec.parameters.is_empty() {
        return invalid("tuning needs at least one parameter to search".to_owned());
    }
    if spec.goals.is_empty() {
        return invalid("tuning needs at least one goal".to_owned());
    }
    for (index, parameter) in spec.parameters.iter().enumerate() {
        if spec.parameters[..index]
            .iter()
            .any(|p| p.name == parameter.name)
        {
            return invalid(format!("{} is given twice", parameter.name));
        }
        if !(parameter.from.is_finite() && parameter.to.is_finite()) {
            return invalid(format!(
                "{}={}..{}: the range must be finite numbers",
                parameter.name, parameter.from, parameter.to
            ));
        }
    }
    for goal in &spec.goals {
        if let Some(message) = goal.met_without_arrivals(spec.seconds) {
            return invalid(message);
        }
    }
    if spec.seeds == 0 {
        return invalid("tuning needs at least one seed".to_owned());
    }
    if spec.budget == 0 {
        return invalid("the budget must be at least one run".to_owned());
    }
    let runs = spec.budget.checked_mul(spec.seeds as usize);
    if runs.is_none_or(|runs| runs > MAX_SWEEP_RUNS) {
        return invalid(format!(
            "a budget of {} × {} seeds is more than {MAX_SWEEP_RUNS} runs",
            spec.budget, spec.seeds
        ));
    }
    Ok(())
}
