//! A finished sweep as an `egui_plot`: the mean of one metric per value, a band of ± one
//! spread around it, and a vertical line at the parameter's current value.

use egui::{Color32, Ui};
use egui_plot::{AxisHints, Corner, FilledArea, Line, Plot, Points, VLine};
use graph_runtime::sweep::{Metric, SweepResult};

/// The mean's line and markers.
const MEAN_COLOR: Color32 = Color32::from_rgb(90, 170, 235);
/// The current value's line.
const CURRENT_COLOR: Color32 = Color32::from_rgb(235, 170, 70);

/// What the plot draws, worked out from a result (tests read it).
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPlot {
    /// The metric drawn.
    pub metric: Metric,
    /// Parameter values where the metric was measured, ascending as swept.
    pub values: Vec<f64>,
    /// The metric's mean over the seeds at each of `values`.
    pub means: Vec<f64>,
    /// Mean minus spread at each of `values`.
    pub lower: Vec<f64>,
    /// Mean plus spread at each of `values`.
    pub upper: Vec<f64>,
    /// Where the vertical line stands: the parameter's value in the graph now.
    pub current: Option<f64>,
}

impl SweepPlot {
    /// The plot of `metric` in `result`, marking `current`; values where nothing measured the
    /// metric (no path to follow) are left out.
    pub fn of(result: &SweepResult, metric: Metric, current: Option<f32>) -> Self {
        let mut plot = Self {
            metric,
            values: Vec::new(),
            means: Vec::new(),
            lower: Vec::new(),
            upper: Vec::new(),
            current: current.map(f64::from),
        };
        for point in &result.points {
            let stat = point.stat(metric);
            let Some(mean) = stat.mean else {
                continue;
            };
            let spread = stat.spread.unwrap_or(0.0);
            plot.values.push(f64::from(point.value));
            plot.means.push(mean);
            plot.lower.push(mean - spread);
            plot.upper.push(mean + spread);
        }
        plot
    }

    /// Draws the plot, `parameter` on the horizontal axis.
    pub fn show(&self, ui: &mut Ui, parameter: &str) {
        if self.values.is_empty() {
            ui.weak(format!(
                "Nothing measured {} in these runs.",
                self.metric.label()
            ));
            return;
        }
        let mean: Vec<[f64; 2]> = self
            .values
            .iter()
            .zip(&self.means)
            .map(|(&x, &y)| [x, y])
            .collect();
        // Ticks closer than egui_plot's default, so a narrow window still numbers the values.
        let x_axis = AxisHints::new_x()
            .label(parameter.to_owned())
            .label_spacing(24.0..=40.0);
        Plot::new("sweep plot")
            .height(260.0)
            // A rising curve leaves the lower right empty.
            .legend(crate::editor::widgets::plot_legend().position(Corner::RightBottom))
            .custom_x_axes(vec![x_axis])
            .y_axis_label(self.metric.label())
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.add(
                    FilledArea::new(
                        "± spread over seeds",
                        &self.values,
                        &self.lower,
                        &self.upper,
                    )
                    .fill_color(MEAN_COLOR.gamma_multiply(0.25)),
                );
                plot.line(Line::new("mean", mean.clone()).color(MEAN_COLOR).width(2.0));
                plot.points(
                    Points::new("values run", mean)
                        .color(MEAN_COLOR)
                        .radius(3.0),
                );
                if let Some(current) = self.current {
                    plot.vline(
                        VLine::new(format!("now: {current}"), current)
                            .color(CURRENT_COLOR)
                            .width(1.5),
                    );
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use graph_runtime::sweep::{METRIC_COUNT, Stat, SweepPoint};

    use super::*;

    fn point(value: f32, spacing: Option<(f64, f64)>) -> SweepPoint {
        let mut stats = [Stat::default(); METRIC_COUNT];
        stats[Metric::MinSpacing.index()] = Stat {
            mean: spacing.map(|s| s.0),
            spread: spacing.map(|s| s.1),
        };
        SweepPoint { value, stats }
    }

    #[test]
    fn the_band_is_mean_plus_and_minus_spread_and_unmeasured_values_are_left_out() {
        let result = SweepResult {
            parameter: "push".to_owned(),
            points: vec![
                point(0.0, Some((0.5, 0.25))),
                point(1.0, None),
                point(2.0, Some((1.5, 0.0))),
            ],
        };
        let plot = SweepPlot::of(&result, Metric::MinSpacing, Some(1.0));
        assert_eq!(plot.values, [0.0, 2.0]);
        assert_eq!(plot.means, [0.5, 1.5]);
        assert_eq!(plot.lower, [0.25, 1.5]);
        assert_eq!(plot.upper, [0.75, 1.5]);
        assert_eq!(plot.current, Some(1.0));
        assert!(
            SweepPlot::of(&result, Metric::PathDistance, None)
                .values
                .is_empty()
        );
    }
}
