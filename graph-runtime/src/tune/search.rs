//! The two ways of proposing candidates: CMA-ES and uniform random search, and the ledger
//! that records what they ran, within the budget, the same on any thread count.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};

use rayon::prelude::*;

use super::candidate::{PREFERENCE_WEIGHT, Space};
use super::{TuneError, TuneRun, TuneSpec};
use crate::AgentRng;

/// CMA-ES's first step, in the parameters' 0..1 scale.
const FIRST_STEP: f64 = 0.3;

/// Candidates proposed more often than this many times the budget (values the search keeps
/// proposing again, at a range's end or among few whole numbers) end the search.
const MOST_PROPOSALS: usize = 20;
/// Random candidates run together (a fixed number, so which ones run never depends on the
/// thread count).
const RANDOM_BATCH: usize = 8;

/// A candidate's values as the memo's key: the same values, the same runs.
type Key = Vec<u32>;

/// One candidate run in a batch, waiting to be recorded.
struct Pending {
    key: Key,
    unit: Vec<f64>,
    run: TuneRun,
}

/// The search's bookkeeping: candidates run so far, what each measured (a candidate proposed
/// again is answered from memory, without a run), and whether to stop.
struct Ledger<'s, 'r> {
    spec: &'s TuneSpec,
    control: &'s super::TuneControl,
    record: &'r mut dyn FnMut(TuneRun),
    seen: HashMap<Key, f64>,
    evaluated: usize,
    proposed: usize,
    met: bool,
    /// The best objective so far and where (CMA-ES restarts there).
    best: Option<(f64, Vec<f64>)>,
    /// Runs left for after the search once a candidate meets the goals.
    kept: usize,
}

impl<'s, 'r> Ledger<'s, 'r> {
    fn new(
        spec: &'s TuneSpec,
        control: &'s super::TuneControl,
        record: &'r mut dyn FnMut(TuneRun),
    ) -> Self {
        Self {
            spec,
            control,
            record,
            seen: HashMap::new(),
            evaluated: 0,
            proposed: 0,
            met: false,
            best: None,
            kept: super::simplify_budget(spec),
        }
    }

    /// Runs the budget still allows the search: all of it until a candidate meets the goals,
    /// then all but the runs kept for putting parameters back ([`super::simplify_budget`]).
    fn left(&self) -> usize {
        let kept = if self.met { self.kept } else { 0 };
        self.spec.budget.saturating_sub(self.evaluated + kept)
    }

    /// Whether the search should stop: the budget spent, cancelled, too many proposals, or
    /// the goals met when asked to stop then.
    fn done(&self) -> bool {
        self.full() || self.proposed >= MOST_PROPOSALS.saturating_mul(self.spec.budget)
    }

    /// Whether no more runs may be recorded: the budget spent, cancelled, or the goals met
    /// when asked to stop then.
    fn full(&self) -> bool {
        self.left() == 0 || self.control.cancelled() || (self.spec.stop_when_met && self.met)
    }

    /// Records a batch's runs in the order given, each distinct candidate once, up to the
    /// budget (and up to the first that meets the goals, when asked to stop there).
    fn settle(&mut self, pending: Vec<Pending>) {
        for Pending { key, unit, run } in pending {
            if self.full() || self.seen.contains_key(&key) {
                continue;
            }
            let value = objective(&run);
            self.seen.insert(key, value);
            self.evaluated += 1;
            self.met |= run.meets_goals();
            if self.best.as_ref().is_none_or(|(b, _)| value < *b) {
                self.best = Some((value, unit));
            }
            (self.record)(run);
        }
    }
}

/// What the searches minimize: the distance to the goals, then the preference's cost.
fn objective(run: &TuneRun) -> f64 {
    run.distance + PREFERENCE_WEIGHT * run.cost
}

/// The memo's key of `values`.
fn key_of(values: &[f32]) -> Key {
    values.iter().map(|v| v.to_bits()).collect()
}

/// The square of how far `unit` lies outside 0..1: added to the objective of its clamped
/// values, it leads a search back inside.
fn outside(unit: &[f64]) -> f64 {
    unit.iter().map(|u| (u - u.clamp(0.0, 1.0)).powi(2)).sum()
}

/// One CMA-ES generation's shared state: its candidates run in parallel read the memo (as
/// it was before the generation) and collect their runs; the ledger records them afterwards.
/// A generation larger than the budget left runs one candidate after another instead, in the
/// search's order, counting down what is left.
struct Generation<'s, 'a> {
    space: &'s Space<'a>,
    control: &'s super::TuneControl,
    seen: RwLock<HashMap<Key, f64>>,
    pending: Mutex<Vec<Pending>>,
    /// One after another: the runs still allowed; `None` in a parallel generation.
    serial: Mutex<Option<usize>>,
    proposed: AtomicUsize,
}

impl Generation<'_, '_> {
    /// The objective at `point`.
    fn evaluate(&self, point: &cmaes::DVector<f64>) -> f64 {
        self.proposed.fetch_add(1, Ordering::Relaxed);
        let unit: Vec<f64> = point.iter().copied().collect();
        let values = self.space.values(&unit);
        let key = key_of(&values);
        let past = outside(&unit);
        let known = self
            .seen
            .read()
            .ok()
            .and_then(|seen| seen.get(&key).copied());
        if let Some(known) = known {
            return known + past;
        }
        if let Ok(mut serial) = self.serial.lock()
            && let Some(left) = serial.as_mut()
        {
            let again = self.pending.lock().ok().and_then(|pending| {
                let same = pending.iter().find(|p| p.key == key)?;
                Some(objective(&same.run))
            });
            if let Some(known) = again {
                return known + past;
            }
            if *left == 0 || self.control.cancelled() {
                return f64::MAX;
            }
            *left -= 1;
        }
        let Some(run) = self.space.run(values, self.control) else {
            return f64::MAX;
        };
        let value = objective(&run);
        if let Ok(mut pending) = self.pending.lock() {
            pending.push(Pending { key, unit, run });
        }
        value + past
    }

    /// The runs collected since the last call, in the order of their values when they ran in
    /// parallel (whatever order the threads finished in), else in the order they ran.
    fn take(&self, parallel: bool) -> Vec<Pending> {
        let mut runs = self
            .pending
            .lock()
            .map(|mut pending| std::mem::take(&mut *pending))
            .unwrap_or_default();
        if parallel {
            runs.sort_by(|a, b| {
                let units = a.unit.iter().zip(&b.unit).map(|(x, y)| x.total_cmp(y));
                a.key.cmp(&b.key).then_with(|| {
                    units
                        .into_iter()
                        .find(|o| o.is_ne())
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
            });
        }
        runs
    }
}

/// CMA-ES from the current values, restarted from the best so far (with the next search
/// seed) whenever it converges before the budget is spent. A generation's candidates run in
/// parallel ([`Generation`]), so the result does not depend on the thread count.
pub(super) fn cmaes(
    space: &Space<'_>,
    spec: &TuneSpec,
    control: &super::TuneControl,
    record: &mut dyn FnMut(TuneRun),
) -> Result<(), TuneError> {
    let mut ledger = Ledger::new(spec, control, record);
    let mut start = space.current_unit();
    for restart in 0_u64.. {
        if ledger.done() {
            break;
        }
        let generation = Generation {
            space,
            control,
            seen: RwLock::new(ledger.seen.clone()),
            pending: Mutex::new(Vec::new()),
            serial: Mutex::new(None),
            proposed: AtomicUsize::new(0),
        };
        let options = cmaes::CMAESOptions::new(start.clone(), FIRST_STEP)
            .seed(spec.search_seed.wrapping_add(restart));
        let mut state = options
            .build(|point: &cmaes::DVector<f64>| generation.evaluate(point))
            .map_err(|error| {
                TuneError::Invalid(format!("the search could not start: {error:?}"))
            })?;
        let lambda = state.parameters().lambda();
        loop {
            let left = ledger.left();
            let parallel = left >= lambda;
            if let Ok(mut serial) = generation.serial.lock() {
                *serial = (!parallel).then_some(left);
            }
            let converged = if parallel {
                state.next_parallel().is_some()
            } else {
                state.next().is_some()
            };
            ledger.proposed += generation.proposed.swap(0, Ordering::Relaxed);
            ledger.settle(generation.take(parallel));
            if let Ok(mut seen) = generation.seen.write() {
                seen.clone_from(&ledger.seen);
            }
            if converged || ledger.done() {
                break;
            }
        }
        drop(state);
        if let Some((_, unit)) = &ledger.best {
            start.clone_from(unit);
        }
    }
    Ok(())
}

/// Uniform random candidates from the search seed, [`RANDOM_BATCH`] at a time in parallel,
/// recorded in the order drawn.
pub(super) fn random(
    space: &Space<'_>,
    spec: &TuneSpec,
    control: &super::TuneControl,
    record: &mut dyn FnMut(TuneRun),
) {
    let mut ledger = Ledger::new(spec, control, record);
    let mut rng = AgentRng::new(spec.search_seed, 0);
    while !ledger.done() {
        // Draw candidates until the batch holds as many new ones as it may run.
        let mut batch: Vec<(Key, Vec<f64>, Vec<f32>)> = Vec::new();
        let room = RANDOM_BATCH.min(ledger.left());
        while batch.len() < room && ledger.proposed < MOST_PROPOSALS.saturating_mul(spec.budget) {
            ledger.proposed += 1;
            let unit: Vec<f64> = space
                .dimensions
                .iter()
                .map(|_| f64::from(rng.unit()))
                .collect();
            let values = space.values(&unit);
            let key = key_of(&values);
            if !ledger.seen.contains_key(&key) && batch.iter().all(|(k, _, _)| *k != key) {
                batch.push((key, unit, values));
            }
        }
        if batch.is_empty() {
            break;
        }
        let runs: Vec<Option<Pending>> = batch
            .into_par_iter()
            .map(|(key, unit, values)| {
                let run = space.run(values, control)?;
                Some(Pending { key, unit, run })
            })
            .collect();
        if runs.iter().any(Option::is_none) {
            break;
        }
        ledger.settle(runs.into_iter().flatten().collect());
    }
}
