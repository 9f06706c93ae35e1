//! The metrics of the 30 s up to the tick shown, drawn with `egui_plot`.

use std::collections::VecDeque;

use egui::Ui;
use egui_plot::{Line, Plot};
use graph_runtime::Sample;

/// Overlap onsets are summed over this window to give a rate per second.
const RATE_WINDOW: f32 = 1.0;

/// Draws the plots of `samples` (oldest first), those of the 30 s up to time `now`.
pub fn show<'a>(ui: &mut Ui, samples: impl Iterator<Item = &'a Sample> + Clone, now: f32) {
    if samples.clone().next().is_none() {
        ui.weak("Metrics appear while the simulation runs.");
        return;
    }
    let series = |f: &dyn Fn(&Sample) -> Option<f32>| -> Vec<[f64; 2]> {
        (samples.clone())
            .filter_map(|s| f(s).map(|v| [f64::from(s.time), f64::from(v)]))
            .collect()
    };
    let rate = |f: &dyn Fn(&Sample) -> u64| rate(samples.clone(), f);
    let x_min = f64::from((now - super::METRICS_SECONDS).max(0.0));
    ui.columns(2, |columns| {
        Plot::new("motion")
            .height(120.0)
            .legend(crate::editor::widgets::plot_legend())
            .include_x(x_min)
            .include_y(0.0)
            .allow_scroll(false)
            .show(&mut columns[0], |plot| {
                plot.line(Line::new(
                    "mean speed (u/s)",
                    series(&|s| Some(s.mean_speed)),
                ));
                plot.line(Line::new("min spacing (u)", series(&|s| s.min_spacing)));
                plot.line(Line::new(
                    "path distance (u)",
                    series(&|s| s.mean_path_distance),
                ));
                plot.line(Line::new("arrived (share)", series(&|s| s.arrived)));
                plot.line(Line::new(
                    "walked / shortest route",
                    series(&|s| s.route_efficiency),
                ));
            });
        Plot::new("overlaps")
            .height(120.0)
            .legend(crate::editor::widgets::plot_legend())
            .include_x(x_min)
            .include_y(0.0)
            .allow_scroll(false)
            .show(&mut columns[1], |plot| {
                plot.line(Line::new(
                    "obstacle overlaps / s",
                    rate(&|s| s.new_obstacle_overlaps as u64),
                ));
                plot.line(Line::new(
                    "agent overlaps / s",
                    rate(&|s| s.new_agent_overlaps as u64),
                ));
                plot.line(Line::new(
                    "steps into walls / s",
                    rate(&|s| s.new_wall_crossings),
                ));
                plot.line(Line::new(
                    "stuck agents",
                    series(&|s| Some(s.stuck_agents as f32)),
                ));
                plot.line(Line::new(
                    "stalled agents",
                    series(&|s| Some(s.stalled_agents as f32)),
                ));
                plot.line(Line::new(
                    "unreachable agents",
                    series(&|s| s.unreachable_agents.map(|count| count as f32)),
                ));
            });
    });
    summary(ui, samples);
}

/// The events `f` counts in `samples`, as a rate per second over the last [`RATE_WINDOW`]
/// at each sample.
fn rate<'a>(
    samples: impl Iterator<Item = &'a Sample>,
    f: &dyn Fn(&Sample) -> u64,
) -> Vec<[f64; 2]> {
    let mut points = Vec::with_capacity(samples.size_hint().0);
    let mut window: VecDeque<(f32, u64)> = VecDeque::new();
    let mut sum = 0u64;
    for sample in samples {
        let count = f(sample);
        window.push_back((sample.time, count));
        sum += count;
        while window
            .front()
            .is_some_and(|(t, _)| *t <= sample.time - RATE_WINDOW)
        {
            sum -= window.pop_front().map_or(0, |(_, c)| c);
        }
        points.push([f64::from(sample.time), sum as f64 / f64::from(RATE_WINDOW)]);
    }
    points
}

/// The latest sample shown in words, and the steps into walls over the plotted window
/// (stopped by solid walls, or through passable ones).
fn summary<'a>(ui: &mut Ui, samples: impl Iterator<Item = &'a Sample> + Clone) {
    if let Some(last) = samples.clone().last() {
        let crossings: u64 = samples.map(|s| s.new_wall_crossings).sum();
        ui.small(format!(
            "now: speed {:.2} u/s · min spacing {} · {} agent pairs and {} agents in obstacles overlapping · {} stuck, {} stalled · polarization {:.2} · {} in the last {:.0} s{}{}",
            last.mean_speed,
            last.min_spacing.map_or_else(|| "–".to_owned(), |d| format!("{d:.2} u")),
            last.agent_overlaps,
            last.obstacle_overlaps,
            last.stuck_agents,
            last.stalled_agents,
            last.polarization,
            if crossings == 1 {
                "1 step into a wall".to_owned()
            } else {
                format!("{crossings} steps into walls")
            },
            super::METRICS_SECONDS,
            arrivals(last),
            routes(last),
        ));
    }
}

/// The share of agents arrived at their goal and when half and 95 % had, if any has a goal.
fn arrivals(last: &Sample) -> String {
    let Some(share) = last.arrived else {
        return String::new();
    };
    let at = |time: Option<f32>| time.map_or_else(|| "–".to_owned(), |t| format!("{t:.1} s"));
    format!(
        " · arrived {:.0} % (half at {}, 95 % at {})",
        share * 100.0,
        at(last.arrived_at[0]),
        at(last.arrived_at[1])
    )
}

/// The unreachable goals and the routed agents' walk against their shortest routes, once any
/// agent is routed.
fn routes(last: &Sample) -> String {
    let unreachable = match last.unreachable_agents {
        None | Some(0) => String::new(),
        Some(1) => " · 1 goal unreachable".to_owned(),
        Some(n) => format!(" · {n} goals unreachable"),
    };
    let efficiency = last.route_efficiency.map_or_else(String::new, |ratio| {
        format!(" · walked {ratio:.2} × the shortest route")
    });
    unreachable + &efficiency
}
