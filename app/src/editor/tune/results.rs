//! What the tune window shows of its search: Run, or the progress and Cancel; the best
//! distance to the goals (log scale) and each goal's value of the best so far against runs;
//! the best values with every goal's value; Apply, pinned in view.

use egui::Ui;
use egui_plot::{HLine, Line, Plot};
use graph_runtime::tune::{Goal, TuneResult, TuneRun};

use super::{ApplyTo, TuneState, TuneWindow};
use crate::editor::command::Command;

const MET: egui::Color32 = egui::Color32::from_rgb(120, 200, 120);
const MISSED: egui::Color32 = egui::Color32::from_rgb(235, 110, 90);

/// Run, or progress and Cancel, and what became of the last search.
pub fn status(window: &TuneWindow, ui: &mut Ui, commands: &mut Vec<Command>) {
    ui.horizontal_wrapped(|ui| match &window.state {
        TuneState::Running(job) => {
            ui.add(
                egui::ProgressBar::new(job.progress())
                    .show_percentage()
                    .desired_width(300.0),
            );
            if ui
                .add_enabled(!job.is_cancelling(), egui::Button::new("Cancel"))
                .clicked()
            {
                commands.push(Command::CancelTune);
            }
            super::super::time_left::show(ui, job.started, job.progress());
        }
        state => {
            let spec = window.spec();
            let ready = !spec.parameters.is_empty() && !spec.goals.is_empty();
            let run = ui
                .add_enabled(ready, egui::Button::new("Run"))
                .on_disabled_hover_text("Tick a parameter and add a goal first");
            if run.clicked() {
                commands.push(Command::RunTune);
            }
            match state {
                TuneState::Cancelled => {
                    ui.weak("Cancelled.");
                }
                TuneState::Failed(message) => {
                    ui.colored_label(MISSED, message);
                }
                TuneState::Done(result) if ui.button("Copy CSV").clicked() => {
                    ui.ctx().copy_text(result.to_csv());
                }
                _ => {}
            }
        }
    });
}

/// How the search went, live while it runs: the best distance to the goals on a log scale,
/// and each goal's value of the best candidate so far against its target; once done, the
/// best values with how much they change. (A plot of the distance alone was a flat line at 0
/// whenever the first candidate met the goals.)
pub fn show(window: &TuneWindow, ui: &mut Ui) {
    let best: Vec<TuneRun> = match &window.state {
        TuneState::Running(job) => job.best_runs(),
        TuneState::Done(result) => result
            .best_so_far()
            .into_iter()
            .filter_map(|index| result.runs.get(index).cloned())
            .collect(),
        _ => return,
    };
    let goals = window.spec().goals;
    // One run of the values as they are, meeting the goals, is no curve: the words say it.
    let at_once = window.result().is_some_and(TuneResult::met_as_they_are);
    if !at_once {
        distance_plot(ui, &best);
        goals_plot(ui, &best, &goals);
    }
    let Some(result) = window.result() else {
        return;
    };
    let Some(best) = result.best() else {
        ui.weak("No run finished.");
        return;
    };
    let changed = best
        .values
        .iter()
        .zip(&result.current)
        .filter(|(value, current)| value != current)
        .count();
    if at_once {
        // The tuning runs the values as they are first, and ends there when they meet the
        // goals: nothing is closer.
        ui.strong("The values as they are meet every goal: nothing to change.");
        ui.label("Tuning ran them once, first, and stopped: no other values can be closer.");
    } else {
        ui.strong(format!(
            "Best of {} (run {}): {}",
            crate::editor::status::plural(result.runs.len(), "run"),
            result.best + 1,
            if best.meets_goals() {
                "every goal met"
            } else {
                "not every goal met"
            }
        ));
        ui.label(format!(
            "It changes {changed} of {} parameters.",
            result.parameters.len()
        ));
    }
    egui::Grid::new("tune best").num_columns(2).show(ui, |ui| {
        for ((name, value), current) in result
            .parameters
            .iter()
            .zip(&best.values)
            .zip(&result.current)
        {
            ui.label(name);
            if value == current {
                ui.weak(format!("{value:.3} (unchanged)"));
            } else {
                ui.label(format!("{value:.3} (now {current})"));
            }
            ui.end_row();
        }
        for goal in &result.goals {
            let value = best.metric(goal.metric);
            ui.label(goal.to_string());
            let shown = value.map_or_else(|| "not measured".to_owned(), |v| format!("{v:.3}"));
            if goal.met(value) {
                ui.colored_label(MET, format!("{shown}: met"));
            } else {
                ui.colored_label(MISSED, format!("{shown}: not met"));
            }
            ui.end_row();
        }
    });
}

/// The smallest distance the log plot shows; a candidate that meets every goal (0) sits on it.
const FLOOR: f64 = 1e-4;

/// The best distance to the goals after each run, on a log scale (met: the floor).
fn distance_plot(ui: &mut Ui, best: &[TuneRun]) {
    let points: Vec<[f64; 2]> = (1..)
        .zip(best)
        .map(|(run, b)| [f64::from(run), b.distance.max(FLOOR).log10()])
        .collect();
    ui.label(
        "Distance to the goals of the best so far (log scale; the bottom line: every goal met)",
    );
    Plot::new("tune distance")
        .height(110.0)
        .include_y(FLOOR.log10())
        .include_y(0.0)
        .x_axis_label("runs")
        .y_axis_formatter(|mark, _| {
            if mark.value <= FLOOR.log10() + 1e-9 {
                "met".to_owned()
            } else {
                format!("{}", 10f64.powf(mark.value))
            }
        })
        .allow_scroll(false)
        .show(ui, |plot| plot.line(Line::new("best distance", points)));
}

/// Each goal's value of the best so far as a share of its target (1: the target; which side
/// meets it is in the goal's name).
fn goals_plot(ui: &mut Ui, best: &[TuneRun], goals: &[Goal]) {
    ui.label("Each goal's value of the best so far, as a share of its target (1)");
    Plot::new("tune goals")
        .height(110.0)
        .include_y(0.0)
        .include_y(1.0)
        .x_axis_label("runs")
        .legend(crate::editor::widgets::plot_legend())
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.hline(HLine::new("target", 1.0).style(egui_plot::LineStyle::dashed_loose()));
            for goal in goals {
                let target = goal.target;
                let points: Vec<[f64; 2]> = (1..)
                    .zip(best)
                    .filter_map(|(run, b)| {
                        let value = b.metric(goal.metric)?;
                        let share = if target == 0.0 { value } else { value / target };
                        share.is_finite().then_some([f64::from(run), share])
                    })
                    .collect();
                plot.line(Line::new(goal.to_string(), points));
            }
        });
}

/// Where the best values go, and Apply: pinned under the window's scrolling part, so it is in
/// view however small the window.
pub fn apply_row(window: &mut TuneWindow, ui: &mut Ui, commands: &mut Vec<Command>) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Apply the best values to");
        ui.radio_value(
            &mut window.apply_to,
            ApplyTo::GraphDefaults,
            "graph defaults",
        );
        ui.radio_value(
            &mut window.apply_to,
            ApplyTo::SceneOverrides,
            "scene groups' overrides",
        );
        if ui
            .button("Apply")
            .on_hover_text("Set the best values (one undo step)")
            .clicked()
        {
            commands.push(Command::ApplyTune);
        }
    });
}
