//! Goals on a run's outcome, as a designer states them (`min_spacing >= 0.8`), and how far a
//! measured value is from meeting one.

use std::fmt;
use std::str::FromStr;

use crate::sweep::Metric;

/// Which side of its target a goal's metric must be on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `<=`
    AtMost,
    /// `<`
    Below,
    /// `>=`
    AtLeast,
    /// `>`
    Above,
}

impl Comparison {
    /// Its operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Self::AtMost => "<=",
            Self::Below => "<",
            Self::AtLeast => ">=",
            Self::Above => ">",
        }
    }
}

/// A goal: a metric (reduced over a run as a sweep reduces it, then averaged over the seeds),
/// a comparison and a number, such as `agent_overlaps <= 0` or `polarization >= 0.9`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Goal {
    /// What is measured.
    pub metric: Metric,
    /// Which side of the target it must be on.
    pub comparison: Comparison,
    /// The target.
    pub target: f64,
}

impl Goal {
    /// Whether `value` meets the goal; a metric not measured (`None`) does not.
    pub fn met(&self, value: Option<f64>) -> bool {
        let Some(value) = value else {
            return false;
        };
        match self.comparison {
            Comparison::AtMost => value <= self.target,
            Comparison::Below => value < self.target,
            Comparison::AtLeast => value >= self.target,
            Comparison::Above => value > self.target,
        }
    }

    /// How far `value` is from meeting the goal: 0 when it meets it, else the gap to the
    /// target over the target's size (at least 1, so a target of 0 counts the gap itself), at
    /// least [`Goal::STRICT_GAP`] for a strict comparison missed by equality; 1 for a metric
    /// not measured.
    pub fn shortfall(&self, value: Option<f64>) -> f64 {
        let Some(value) = value else {
            return 1.0;
        };
        if self.met(Some(value)) {
            return 0.0;
        }
        let scale = self.target.abs().max(1.0);
        ((value - self.target).abs() / scale).max(Self::STRICT_GAP)
    }

    /// Why this goal would be met by runs of `seconds` in which the share it times never
    /// arrived, if it would: a share that has not arrived by a run's end counts as the run's
    /// length plus the missing share times it (up to twice the length), so `arrived_95 <= 30`
    /// on runs of 10 s is met with no agent arrived. `None` for every other goal.
    pub fn met_without_arrivals(&self, seconds: f32) -> Option<String> {
        let times_arrival = matches!(self.metric, Metric::Arrived50 | Metric::Arrived95);
        let below = matches!(self.comparison, Comparison::AtMost | Comparison::Below);
        (times_arrival && below && self.target > f64::from(seconds)).then(|| {
            format!(
                "goal {self}: the runs last {seconds} s, and a share that has not arrived by the end counts as {seconds} s plus the missing share times {seconds} s, so this goal would be met with no agent arrived; aim at {seconds} s or less, or make the runs longer"
            )
        })
    }

    /// The shortfall of a value equal to the target of a strict goal (`x < 1` at `x = 1`).
    pub const STRICT_GAP: f64 = 1e-6;
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.metric.name(),
            self.comparison.symbol(),
            self.target
        )
    }
}

/// Why a goal's text is not a goal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoalError {
    /// No comparison operator.
    #[error("\"{0}\": a goal is METRIC <= NUMBER (or <, >=, >), such as \"min_spacing >= 0.8\"")]
    Shape(String),
    /// The metric is not one of [`Metric::ALL`].
    #[error(
        "\"{given}\": unknown metric \"{metric}\" (valid: {})",
        Metric::names()
    )]
    Metric {
        /// The goal's text.
        given: String,
        /// The name that is not a metric.
        metric: String,
    },
    /// The target is not a finite number.
    #[error("\"{given}\": the target \"{target}\" is not a finite number")]
    Target {
        /// The goal's text.
        given: String,
        /// The text that is not a number.
        target: String,
    },
}

impl FromStr for Goal {
    type Err = GoalError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        // Two-character operators first, so `<=` is not read as `<` then `=0.8`.
        let operators = [
            ("<=", Comparison::AtMost),
            (">=", Comparison::AtLeast),
            ("<", Comparison::Below),
            (">", Comparison::Above),
        ];
        let (at, symbol, comparison) = operators
            .iter()
            .filter_map(|&(symbol, comparison)| {
                text.find(symbol).map(|at| (at, symbol, comparison))
            })
            .min_by_key(|&(at, symbol, _)| (at, std::cmp::Reverse(symbol.len())))
            .ok_or_else(|| GoalError::Shape(text.to_owned()))?;
        let name = text.get(..at).unwrap_or_default().trim();
        let number = text.get(at + symbol.len()..).unwrap_or_default().trim();
        let metric = Metric::from_name(name).ok_or_else(|| GoalError::Metric {
            given: text.to_owned(),
            metric: name.to_owned(),
        })?;
        let target = number
            .parse::<f64>()
            .ok()
            .filter(|t| t.is_finite())
            .ok_or_else(|| GoalError::Target {
                given: text.to_owned(),
                target: number.to_owned(),
            })?;
        Ok(Self {
            metric,
            comparison,
            target,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_read_as_written_and_refuse_with_the_reason() {
        let goal: Goal = "min_spacing >= 0.8".parse().expect("a goal");
        assert_eq!(
            goal,
            Goal {
                metric: Metric::MinSpacing,
                comparison: Comparison::AtLeast,
                target: 0.8
            }
        );
        assert_eq!(goal.to_string(), "min_spacing >= 0.8");
        let tight: Goal = "agent_overlaps<0".parse().expect("a goal");
        assert_eq!(tight.comparison, Comparison::Below);
        assert_eq!(
            "stuck_agents <= 1".parse::<Goal>().expect("a goal").target,
            1.0
        );
        assert!(matches!(
            "spacing >= 1".parse::<Goal>(),
            Err(GoalError::Metric { metric, .. }) if metric == "spacing"
        ));
        assert!(matches!(
            "polarization >= fast".parse::<Goal>(),
            Err(GoalError::Target { .. })
        ));
        assert!(matches!(
            "polarization >= inf".parse::<Goal>(),
            Err(GoalError::Target { .. })
        ));
        assert!(matches!(
            "polarization 0.9".parse::<Goal>(),
            Err(GoalError::Shape(_))
        ));
    }

    #[test]
    fn shortfalls_are_relative_gaps() {
        let spacing: Goal = "min_spacing >= 0.8".parse().expect("a goal");
        assert_eq!(spacing.shortfall(Some(0.9)), 0.0);
        assert_eq!(spacing.shortfall(Some(0.8)), 0.0);
        // 0.8 - 0.6 = 0.2, over max(0.8, 1) = 1.
        assert!((spacing.shortfall(Some(0.6)) - 0.2).abs() < 1e-12);
        assert_eq!(spacing.shortfall(None), 1.0);
        let speed: Goal = "mean_speed >= 4".parse().expect("a goal");
        // (4 - 3) / 4.
        assert_eq!(speed.shortfall(Some(3.0)), 0.25);
        let overlaps: Goal = "agent_overlaps <= 0".parse().expect("a goal");
        // A target of 0 counts the gap itself: 2.5 onsets per second.
        assert_eq!(overlaps.shortfall(Some(2.5)), 2.5);
        let strict: Goal = "agent_overlaps < 0".parse().expect("a goal");
        assert_eq!(strict.shortfall(Some(0.0)), Goal::STRICT_GAP);
    }
}
