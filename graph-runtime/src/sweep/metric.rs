//! The metrics a sweep reduces each run to, and the reduction of one run's samples.

use crate::Sample;

/// A number measured over one run: what the preview plots, reduced to one value per run
/// (see [`RunSummary`] for how).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    /// Mean speed of the agents (units / s).
    MeanSpeed,
    /// Smallest centre-to-centre distance between two agents (units).
    MinSpacing,
    /// Mean distance of path-following agents to their path (units).
    PathDistance,
    /// Agent pairs starting to overlap, per second.
    AgentOverlaps,
    /// Agents starting to overlap an obstacle, per second.
    ObstacleOverlaps,
    /// Steps crossing a wall, per second.
    WallCrossings,
    /// Agents stuck.
    StuckAgents,
    /// Length of the mean heading: 1 when every agent heads the same way.
    Polarization,
    /// The share (0 to 1) of agents with a goal that reached it during the run.
    Arrived,
    /// Seconds until half the agents with a goal had reached it.
    Arrived50,
    /// Seconds until 95 % of the agents with a goal had reached it.
    Arrived95,
    /// Agents whose planned route cannot reach its goal.
    Unreachable,
    /// Distance walked over the length of the first planned route, among routed agents that
    /// reached its end (1 is the shortest route walked exactly).
    RouteEfficiency,
    /// Agents far from their goal and no closer for seconds ([`Sample::stalled_agents`]).
    StalledAgents,
}

/// Number of [`Metric`]s.
pub const METRIC_COUNT: usize = 14;

impl Metric {
    /// Every metric, in CSV column order.
    pub const ALL: [Self; METRIC_COUNT] = [
        Self::MeanSpeed,
        Self::MinSpacing,
        Self::PathDistance,
        Self::AgentOverlaps,
        Self::ObstacleOverlaps,
        Self::WallCrossings,
        Self::StuckAgents,
        Self::Polarization,
        Self::Arrived,
        Self::Arrived50,
        Self::Arrived95,
        Self::Unreachable,
        Self::RouteEfficiency,
        Self::StalledAgents,
    ];

    /// The name on the command line and in CSV headers (`min_spacing`).
    pub fn name(self) -> &'static str {
        match self {
            Self::MeanSpeed => "mean_speed",
            Self::MinSpacing => "min_spacing",
            Self::PathDistance => "path_distance",
            Self::AgentOverlaps => "agent_overlaps",
            Self::ObstacleOverlaps => "obstacle_overlaps",
            Self::WallCrossings => "wall_crossings",
            Self::StuckAgents => "stuck_agents",
            Self::Polarization => "polarization",
            Self::Arrived => "arrived",
            Self::Arrived50 => "arrived_50",
            Self::Arrived95 => "arrived_95",
            Self::Unreachable => "unreachable",
            Self::RouteEfficiency => "route_efficiency",
            Self::StalledAgents => "stalled_agents",
        }
    }

    /// The name with its unit, for axes and menus (`min spacing (u)`).
    pub fn label(self) -> &'static str {
        match self {
            Self::MeanSpeed => "mean speed (u/s)",
            Self::MinSpacing => "min spacing (u)",
            Self::PathDistance => "path distance (u)",
            Self::AgentOverlaps => "agent overlaps / s",
            Self::ObstacleOverlaps => "obstacle overlaps / s",
            Self::WallCrossings => "wall crossings / s",
            Self::StuckAgents => "stuck agents",
            Self::Polarization => "polarization",
            Self::Arrived => "arrived (share)",
            Self::Arrived50 => "50 % arrived (s)",
            Self::Arrived95 => "95 % arrived (s)",
            Self::Unreachable => "unreachable agents",
            Self::RouteEfficiency => "walked / shortest route",
            Self::StalledAgents => "stalled agents",
        }
    }

    /// The metric called `name` ([`Metric::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Every metric's name, comma-separated (for error messages).
    pub fn names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }

    /// Its index in [`Metric::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Accumulates one run's samples taken after the run's half-way point and reduces them to
/// one number per metric:
///
/// - levels (mean speed, min spacing, path distance, stuck agents, stalled agents,
///   polarization, unreachable agents) are the mean over those samples; min spacing and path distance skip samples
///   without a value and are `None` when no sample has one;
/// - events (overlap onsets, wall crossings) are counted over the same window and divided
///   by its length, giving a rate per second.
///
/// Leaving out the first half keeps the start-up (agents leaving their spawn places) from
/// masking the behaviour the parameter sets. The arrival metrics are the whole run's, read off
/// the last sample: the share arrived by the end, and when half and 95 % had arrived; a share
/// never reached counts as the run's length plus the missing share times that length (so a
/// run that came closer scores lower, and the value meets the run's length where the share is
/// reached at its last sample). `None` when no agent has a goal. Route efficiency is the whole
/// run's too, the last sample's (`None` when no routed agent reached its route's end).
#[derive(Clone, Debug, Default)]
pub struct RunSummary {
    samples: u32,
    sums: [f64; METRIC_COUNT],
    counts: [u32; METRIC_COUNT],
    window_start: Option<f32>,
    window_end: f32,
    /// The last sample's arrival measurements.
    arrived: Option<f32>,
    arrived_at: [Option<f32>; 2],
    /// The last sample's route efficiency.
    route_efficiency: Option<f32>,
}

impl RunSummary {
    /// Starts the window at `time` (the last sample not counted; its events came before).
    pub fn start_window(&mut self, time: f32) {
        self.window_start = Some(time);
    }

    /// Whether [`RunSummary::start_window`] was called.
    pub fn has_window(&self) -> bool {
        self.window_start.is_some()
    }

    /// Counts `sample` in the window.
    pub fn add(&mut self, sample: &Sample) {
        // The levels and events; the arrival metrics and route efficiency are read off the
        // last sample.
        let mut values = [None; METRIC_COUNT];
        for (metric, value) in [
            (Metric::MeanSpeed, Some(sample.mean_speed)),
            (Metric::MinSpacing, sample.min_spacing),
            (Metric::PathDistance, sample.mean_path_distance),
            (
                Metric::AgentOverlaps,
                Some(sample.new_agent_overlaps as f32),
            ),
            (
                Metric::ObstacleOverlaps,
                Some(sample.new_obstacle_overlaps as f32),
            ),
            (
                Metric::WallCrossings,
                Some(sample.new_wall_crossings as f32),
            ),
            (Metric::StuckAgents, Some(sample.stuck_agents as f32)),
            (Metric::StalledAgents, Some(sample.stalled_agents as f32)),
            (Metric::Polarization, Some(sample.polarization)),
            (
                Metric::Unreachable,
                sample.unreachable_agents.map(|count| count as f32),
            ),
        ] {
            values[metric.index()] = value;
        }
        for (index, value) in values.into_iter().enumerate() {
            if let Some(value) = value.filter(|v| v.is_finite()) {
                self.sums[index] += f64::from(value);
                self.counts[index] += 1;
            }
        }
        self.samples += 1;
        self.window_end = sample.time;
        self.arrived = sample.arrived;
        self.arrived_at = sample.arrived_at;
        self.route_efficiency = sample.route_efficiency;
    }

    /// One number per metric, in [`Metric::ALL`] order; `None` where nothing was measured.
    pub fn finish(&self) -> [Option<f64>; METRIC_COUNT] {
        let seconds = f64::from(self.window_end - self.window_start.unwrap_or(0.0));
        Metric::ALL.map(|metric| {
            let index = metric.index();
            let (sum, count) = (self.sums[index], self.counts[index]);
            match metric {
                Metric::AgentOverlaps | Metric::ObstacleOverlaps | Metric::WallCrossings => {
                    (self.samples > 0 && seconds > 0.0).then(|| sum / seconds)
                }
                Metric::Arrived => self.arrived.map(f64::from),
                Metric::Arrived50 => self.arrival_time(0),
                Metric::Arrived95 => self.arrival_time(1),
                Metric::RouteEfficiency => self.route_efficiency.map(f64::from),
                _ => (count > 0).then(|| sum / f64::from(count)),
            }
        })
    }
}

impl RunSummary {
    /// When share [`crate::ARRIVAL_SHARES`]`[which]` was reached, or the run's length plus the
    /// missing share times it.
    fn arrival_time(&self, which: usize) -> Option<f64> {
        let share = f64::from(self.arrived?);
        let length = f64::from(self.window_end);
        let wanted = f64::from(*crate::ARRIVAL_SHARES.get(which)?);
        match self.arrived_at.get(which).copied().flatten() {
            Some(at) => Some(f64::from(at)),
            None => Some(length + (wanted - share).max(0.0) * length),
        }
    }
}

/// Mean and spread of one metric at one value, over the seeds that measured it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stat {
    /// Mean over the seeds; `None` when no seed measured the metric.
    pub mean: Option<f64>,
    /// Population standard deviation over the same seeds (0 for one seed).
    pub spread: Option<f64>,
}

impl Stat {
    /// The mean and population standard deviation of `values`, ignoring `None`s.
    pub fn of(values: impl IntoIterator<Item = Option<f64>>) -> Self {
        let measured: Vec<f64> = values.into_iter().flatten().collect();
        if measured.is_empty() {
            return Self::default();
        }
        let n = measured.len() as f64;
        let mean = measured.iter().sum::<f64>() / n;
        let variance = measured.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        Self {
            mean: Some(mean),
            spread: Some(variance.sqrt()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_stats_are_worked_out() {
        for metric in Metric::ALL {
            assert_eq!(Metric::from_name(metric.name()), Some(metric));
            assert_eq!(Metric::ALL[metric.index()], metric);
        }
        assert_eq!(Metric::from_name("spacing"), None);
        // Mean of 1, 2, 3 is 2; population variance (1 + 0 + 1) / 3.
        let stat = Stat::of([Some(1.0), None, Some(2.0), Some(3.0)]);
        assert_eq!(stat.mean, Some(2.0));
        assert_eq!(stat.spread, Some((2.0f64 / 3.0).sqrt()));
        assert_eq!(Stat::of([None]), Stat::default());
        assert_eq!(Stat::of([Some(5.0)]).spread, Some(0.0));
    }

    #[test]
    fn events_become_rates_over_the_window_and_levels_means() {
        let mut summary = RunSummary::default();
        summary.start_window(1.0);
        for (time, onsets, spacing) in [(1.5, 2, Some(1.0)), (2.0, 1, None)] {
            summary.add(&Sample {
                time,
                mean_speed: 4.0,
                min_spacing: spacing,
                new_agent_overlaps: onsets,
                ..Sample::default()
            });
        }
        let values = summary.finish();
        // 3 onsets over the 1 s from 1.0 to 2.0.
        assert_eq!(values[Metric::AgentOverlaps.index()], Some(3.0));
        assert_eq!(values[Metric::MeanSpeed.index()], Some(4.0));
        // Only the sample that had a spacing counts.
        assert_eq!(values[Metric::MinSpacing.index()], Some(1.0));
        assert_eq!(values[Metric::PathDistance.index()], None);
    }
}
