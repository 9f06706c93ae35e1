//! What the tune window shows of its search: Run, or the progress and Cancel; the best
//! distance to the goals against runs; the best values with every goal's value; Apply.

use egui::Ui;
use egui_plot::{Line, Plot};

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

/// The best distance against runs (live while running) and, once done, the best values.
pub fn show(window: &mut TuneWindow, ui: &mut Ui, commands: &mut Vec<Command>) {
    let distances = match &window.state {
        TuneState::Running(job) => job.best_distances(),
        TuneState::Done(result) => result.best_distances(),
        _ => return,
    };
    let points: Vec<[f64; 2]> = (1..)
        .zip(&distances)
        .map(|(run, &distance)| [f64::from(run), distance])
        .collect();
    ui.label("Best distance to the goals (0: every goal met) against runs");
    Plot::new("tune distance")
        .height(140.0)
        .include_y(0.0)
        .x_axis_label("runs")
        .y_axis_label("distance")
        .allow_scroll(false)
        .show(ui, |plot| plot.line(Line::new("best distance", points)));
    let Some(result) = window.result() else {
        return;
    };
    let Some(best) = result.best() else {
        ui.weak("No run finished.");
        return;
    };
    ui.strong(format!(
        "Best of {} runs (run {}): {}",
        result.runs.len(),
        result.best + 1,
        if best.meets_goals() {
            "every goal met"
        } else {
            "not every goal met"
        }
    ));
    egui::Grid::new("tune best").num_columns(2).show(ui, |ui| {
        for ((name, value), current) in result
            .parameters
            .iter()
            .zip(&best.values)
            .zip(&result.current)
        {
            ui.label(name);
            ui.label(format!("{value:.3} (now {current})"));
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
    ui.horizontal(|ui| {
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
