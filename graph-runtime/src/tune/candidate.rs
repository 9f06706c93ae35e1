//! The search space: the parameters scaled to 0..1, the groups each one is set on, and a
//! candidate's runs and measures.

use std::collections::BTreeMap;

use rayon::prelude::*;

use super::{Preference, TuneError, TuneRun, TuneSpec};
use crate::limits::{MAX_AGENT_TICKS, MAX_SWEEP_SECONDS};
use crate::sweep::{self, METRIC_COUNT, Metric, Override, SWEEP_DT, Stat, SweepError, run_with};
use crate::{SceneAssets, Simulation, compile_with};

/// How much the preference weighs against the goals' distance: enough to order candidates
/// that meet the goals (or miss them equally), too little to trade a goal for it.
pub(super) const PREFERENCE_WEIGHT: f64 = 1e-3;

/// How near the current value (a share of the range's width) a proposed value is taken as
/// the current value itself.
pub(super) const SNAP: f64 = 0.01;

/// One parameter of the space.
pub(super) struct Dimension {
    name: String,
    low: f32,
    high: f32,
    /// Only whole numbers are accepted (a field such as `max_neighbors` uses it).
    whole: bool,
    /// The groups whose graph declares it.
    groups: Vec<usize>,
    /// Its value before tuning.
    current: f32,
}

/// The parameters being searched, and how to run a candidate.
pub(super) struct Space<'a> {
    assets: &'a SceneAssets,
    pub(super) dimensions: Vec<Dimension>,
    ticks: u64,
    seeds: u32,
    goals: Vec<super::Goal>,
    prefer: Preference,
}

impl<'a> Space<'a> {
    /// Checks every parameter against the graphs that declare it (both ends of its range and,
    /// if a fractional value is refused, whole numbers) and the work against the limits.
    pub(super) fn new(assets: &'a SceneAssets, spec: &TuneSpec) -> Result<Self, TuneError> {
        if !(spec.seconds.is_finite() && spec.seconds > 0.0 && spec.seconds <= MAX_SWEEP_SECONDS) {
            return Err(TuneError::Invalid(format!(
                "seconds must be a finite number > 0 and at most {MAX_SWEEP_SECONDS} (one hour), found {}",
                spec.seconds
            )));
        }
        let ticks = (f64::from(spec.seconds) / f64::from(SWEEP_DT))
            .round()
            .max(1.0) as u64;
        let agents = Simulation::new(assets)
            .map_err(|errors| TuneError::Sweep(SweepError::Scene(errors)))?
            .vehicles()
            .len() as u64;
        let work = (spec.budget as u64)
            .saturating_mul(u64::from(spec.seeds))
            .saturating_mul(ticks)
            .saturating_mul(agents);
        if work > MAX_AGENT_TICKS {
            return Err(TuneError::Invalid(format!(
                "a budget of {} × {} seeds × {ticks} ticks × {agents} agents is {work} agent-ticks, more than {MAX_AGENT_TICKS}: a smaller budget, fewer seeds or seconds",
                spec.budget, spec.seeds
            )));
        }
        let mut programs = BTreeMap::new();
        let mut dimensions = Vec::new();
        for parameter in &spec.parameters {
            let groups = sweep::groups_declaring(assets, &parameter.name)?;
            let (low, high) = if parameter.from <= parameter.to {
                (parameter.from, parameter.to)
            } else {
                (parameter.to, parameter.from)
            };
            // Every group's graph must take both ends; one that refuses a fractional value
            // in between takes whole numbers only (and then both ends are whole).
            let fraction = (low.floor() + 0.5).clamp(low, high);
            let mut whole = false;
            for &index in &groups {
                let group = &assets.scene.groups[index];
                let Some(graph) = assets.graphs.get(&group.graph) else {
                    continue;
                };
                if !programs.contains_key(&group.graph) {
                    let Ok(program) = compile_with(graph, &group.graph, &assets.graphs) else {
                        continue;
                    };
                    programs.insert(group.graph.clone(), program);
                }
                let Some(program) = programs.get(&group.graph) else {
                    continue;
                };
                let check = |value: f32| {
                    let mut overrides = group.parameters.clone();
                    overrides.insert(parameter.name.clone(), value);
                    program.parameters(&overrides)
                };
                for value in [low, high] {
                    if let Err(errors) = check(value) {
                        return Err(SweepError::Value {
                            parameter: parameter.name.clone(),
                            value,
                            group: group.name.clone(),
                            errors,
                        }
                        .into());
                    }
                }
                whole |= fraction.fract() != 0.0 && check(fraction).is_err();
            }
            let first = &assets.scene.groups[groups[0]];
            let current = first
                .parameters
                .get(&parameter.name)
                .or_else(|| {
                    let graph = assets.graphs.get(&first.graph)?;
                    graph.parameters.get(&parameter.name)
                })
                .copied()
                .unwrap_or(low);
            dimensions.push(Dimension {
                name: parameter.name.clone(),
                low,
                high,
                whole,
                groups,
                current,
            });
        }
        Ok(Self {
            assets,
            dimensions,
            ticks,
            seeds: spec.seeds,
            goals: spec.goals.clone(),
            prefer: spec.prefer,
        })
    }

    /// The parameters' values before tuning.
    pub(super) fn current(&self) -> Vec<f32> {
        self.dimensions.iter().map(|d| d.current).collect()
    }

    /// The current values in the 0..1 scale (clamped into the ranges).
    pub(super) fn current_unit(&self) -> Vec<f64> {
        self.dimensions
            .iter()
            .map(|d| {
                let width = f64::from(d.high) - f64::from(d.low);
                if width > 0.0 {
                    ((f64::from(d.current) - f64::from(d.low)) / width).clamp(0.0, 1.0)
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// The values at `unit` (0..1 per parameter, clamped), whole where the graphs want it; a
    /// value within [`SNAP`] of the range's width from the current value is the current value,
    /// so a search can leave a parameter unchanged.
    pub(super) fn values(&self, unit: &[f64]) -> Vec<f32> {
        self.dimensions
            .iter()
            .zip(unit)
            .map(|(d, &u)| {
                let (low, high) = (f64::from(d.low), f64::from(d.high));
                let value = (low + (high - low) * u.clamp(0.0, 1.0)) as f32;
                let near = f64::from((value - d.current).abs()) <= SNAP * (high - low);
                let value = if near && (d.low..=d.high).contains(&d.current) {
                    d.current
                } else {
                    value
                };
                if d.whole {
                    value.round().clamp(d.low.ceil(), d.high.floor())
                } else {
                    value.clamp(d.low, d.high)
                }
            })
            .collect()
    }

    /// Runs `values` on every seed (in parallel) and measures them; `None` when cancelled.
    pub(super) fn run(&self, values: Vec<f32>, control: &super::TuneControl) -> Option<TuneRun> {
        let overrides: Vec<Override<'_>> = self
            .dimensions
            .iter()
            .zip(&values)
            .map(|(d, &value)| Override {
                groups: &d.groups,
                parameter: &d.name,
                value,
            })
            .collect();
        let seeds: Vec<Option<[Option<f64>; METRIC_COUNT]>> = (0..self.seeds)
            .into_par_iter()
            .map(|i| {
                let seed = self.assets.scene.seed.wrapping_add(u64::from(i));
                run_with(self.assets, &overrides, seed, self.ticks, &control.runs)
            })
            .collect();
        if seeds.iter().any(Option::is_none) {
            return None;
        }
        let metrics =
            Metric::ALL.map(|m| Stat::of(seeds.iter().map(|r| r.and_then(|r| r[m.index()]))).mean);
        let distance = self
            .goals
            .iter()
            .map(|goal| goal.shortfall(metrics[goal.metric.index()]))
            .sum();
        let cost = self.cost(&values, &metrics);
        Some(TuneRun {
            values,
            metrics,
            distance,
            cost,
        })
    }

    /// How far `values` are from the current values (`README.md`, "closest"): the number of
    /// parameters changed, plus the mean of each change as a share of its range's width (so
    /// changing fewer parameters always counts for more than changing them by less).
    pub(super) fn change(&self, values: &[f32]) -> f64 {
        let (count, share) = self.dimensions.iter().zip(values).fold(
            (0.0, 0.0),
            |(count, share): (f64, f64), (d, &v)| {
                if v == d.current {
                    return (count, share);
                }
                let width = f64::from(d.high) - f64::from(d.low);
                let part = if width > 0.0 {
                    ((f64::from(v) - f64::from(d.current)) / width)
                        .abs()
                        .min(1.0)
                } else {
                    1.0
                };
                (count + 1.0, share + part)
            },
        );
        count + share / self.dimensions.len().max(1) as f64
    }

    /// The preference's cost of a candidate, between -1 and 1.
    fn cost(&self, values: &[f32], metrics: &[Option<f64>; METRIC_COUNT]) -> f64 {
        // Monotone, and bounded so that it never outweighs a goal.
        let squash = |x: f64| x / (1.0 + x.abs());
        match self.prefer {
            Preference::Closest => squash(self.change(values)),
            Preference::Lowest(metric) => metrics[metric.index()].map_or(1.0, squash),
            Preference::Highest(metric) => metrics[metric.index()].map_or(1.0, |v| -squash(v)),
        }
    }
}
