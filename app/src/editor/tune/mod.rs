//! The "Tune…" window: say what the crowd must do (goals on the metrics), tick the graph
//! parameters to search with their ranges, and a search in the background
//! (`graph_runtime::tune`) finds values that meet the goals; progress, Cancel, the best
//! distance against runs, the best values with every goal's value, and Apply (one undo step)
//! to the graph's defaults or to the scene groups' overrides.
//!
//! Like the sweep window it pushes commands and runs on the scene and open graph as the
//! preview has them, saved or not; it repaints ten times a second while a search runs.

mod commands;
mod job;
mod results;

use egui::{Context, Ui};
use graph_runtime::sweep::Metric;
use graph_runtime::tune::{
    Comparison, Goal, Preference, Strategy, TuneParameter, TuneResult, TuneSpec,
};

use super::command::Command;
pub use job::{TuneJob, TuneOutcome};

/// Most candidates in one search.
pub const MAX_BUDGET: usize = 2_000;

/// A graph parameter in the window: searched or not, and its range.
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterRow {
    /// The parameter's name.
    pub name: String,
    /// Searched.
    pub ticked: bool,
    /// One end of its range.
    pub from: f32,
    /// The other end.
    pub to: f32,
}

/// Where Apply writes the best values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApplyTo {
    /// The graph's parameter defaults (every scene group without an override follows).
    GraphDefaults,
    /// The override of every scene group running the open graph.
    SceneOverrides,
}

/// Where the window's search is.
pub enum TuneState {
    /// Nothing run yet.
    Ready,
    /// Running in the background.
    Running(TuneJob),
    /// Finished.
    Done(TuneResult),
    /// Stopped by Cancel.
    Cancelled,
    /// Could not run; why.
    Failed(String),
}

/// The tune window.
pub struct TuneWindow {
    /// The graph's parameters, ticked ones searched.
    pub rows: Vec<ParameterRow>,
    /// The goals, all of which must be met.
    pub goals: Vec<Goal>,
    /// Candidates to evaluate at most.
    pub budget: usize,
    /// Runs per candidate.
    pub seeds: u32,
    /// Simulated seconds per run.
    pub seconds: f32,
    /// Where Apply writes.
    pub apply_to: ApplyTo,
    /// The search and its result.
    pub state: TuneState,
}

impl TuneWindow {
    /// The window over the graph's parameters `(name, value run now)`, `ticked` searched,
    /// each range from half to twice its value (0 to 1 for 0), one goal to start from.
    pub fn new(parameters: &[(String, f32)], ticked: Option<&str>) -> Self {
        let rows = parameters
            .iter()
            .map(|(name, value)| {
                let (from, to) = if *value == 0.0 {
                    (0.0, 1.0)
                } else {
                    let ends = (value * 0.5, value * 2.0);
                    (ends.0.min(ends.1), ends.0.max(ends.1))
                };
                ParameterRow {
                    name: name.clone(),
                    ticked: ticked.is_none_or(|t| t == name),
                    from,
                    to,
                }
            })
            .collect();
        Self {
            rows,
            goals: vec![Goal {
                metric: Metric::MinSpacing,
                comparison: Comparison::AtLeast,
                target: 1.0,
            }],
            budget: 100,
            seeds: 2,
            seconds: 10.0,
            apply_to: ApplyTo::GraphDefaults,
            state: TuneState::Ready,
        }
    }

    /// The runtime's spec for the window's fields.
    pub fn spec(&self) -> TuneSpec {
        TuneSpec {
            parameters: self
                .rows
                .iter()
                .filter(|row| row.ticked)
                .map(|row| TuneParameter {
                    name: row.name.clone(),
                    from: row.from,
                    to: row.to,
                })
                .collect(),
            goals: self.goals.clone(),
            seeds: self.seeds,
            seconds: self.seconds,
            budget: self.budget,
            search_seed: 1,
            strategy: Strategy::Cmaes,
            prefer: Preference::Closest,
            stop_when_met: false,
        }
    }

    /// Whether a search is running (or stopping).
    pub fn is_running(&self) -> bool {
        matches!(self.state, TuneState::Running(_))
    }

    /// The finished result.
    pub fn result(&self) -> Option<&TuneResult> {
        match &self.state {
            TuneState::Done(result) => Some(result),
            _ => None,
        }
    }

    /// Takes a finished search's outcome; call once per frame.
    pub fn poll(&mut self) {
        let TuneState::Running(job) = &self.state else {
            return;
        };
        if let Some(outcome) = job.poll() {
            self.state = match outcome {
                TuneOutcome::Done(result) => TuneState::Done(result),
                TuneOutcome::Cancelled => TuneState::Cancelled,
                TuneOutcome::Failed(message) => TuneState::Failed(message),
            };
        }
    }

    /// The window for one frame (its result taken in first); pushes what the user asks into
    /// `commands`, `CloseTune` when its close button is clicked.
    pub fn show(&mut self, ctx: &Context, commands: &mut Vec<Command>) {
        self.poll();
        let mut open = true;
        egui::Window::new("Tune")
            .id(egui::Id::new("steergraph-tune"))
            .open(&mut open)
            .default_width(600.0)
            .default_height(680.0)
            .max_height(ctx.content_rect().height() - 60.0)
            .pivot(egui::Align2::CENTER_TOP)
            .default_pos(ctx.content_rect().center_top() + egui::vec2(-120.0, 40.0))
            .show(ctx, |ui| {
                if self.result().is_some_and(|r| r.best().is_some()) {
                    egui::Panel::bottom("tune apply")
                        .show(ui, |ui| results::apply_row(self, ui, commands));
                }
                egui::ScrollArea::vertical().show(ui, |ui| {
                    let running = self.is_running();
                    ui.add_enabled_ui(!running, |ui| self.fields(ui));
                    ui.separator();
                    results::status(self, ui, commands);
                    results::show(self, ui);
                });
            });
        if !open {
            commands.push(Command::CloseTune);
        }
        if self.is_running() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    /// The parameters, the goals and the budget; locked while a search runs.
    fn fields(&mut self, ui: &mut Ui) {
        self.parameter_rows(ui);
        ui.add_space(4.0);
        self.goal_rows(ui);
        ui.add_space(4.0);
        self.budget_row(ui);
    }

    /// Each graph parameter: ticked to search it, and its range.
    fn parameter_rows(&mut self, ui: &mut Ui) {
        ui.strong("Search these graph parameters");
        egui::Grid::new("tune parameters")
            .num_columns(3)
            .show(ui, |ui| {
                for row in &mut self.rows {
                    ui.checkbox(&mut row.ticked, &row.name);
                    ui.add(
                        egui::DragValue::new(&mut row.from)
                            .speed(0.05)
                            .prefix("from "),
                    );
                    ui.add(egui::DragValue::new(&mut row.to).speed(0.05).prefix("to "));
                    ui.end_row();
                }
            });
        if self.rows.is_empty() {
            ui.weak("The graph declares no parameter: add one in the side panel first.");
        }
    }

    /// Each goal: metric, comparison, target; `+ goal` adds one.
    fn goal_rows(&mut self, ui: &mut Ui) {
        // Not "until every goal is met": the search goes on to values closer to the current
        // ones once a candidate meets them (it ends at once when the current values do).
        ui.strong("Goals to meet, every one").on_hover_text(
            "Among the values that meet every goal, the closest to the current ones is \
                 best: the search spends its budget looking for them",
        );
        let mut remove = None;
        for (index, goal) in self.goals.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                egui::ComboBox::from_id_salt(("tune goal metric", index))
                    .selected_text(goal.metric.label())
                    .show_ui(ui, |ui| {
                        for metric in Metric::ALL {
                            ui.selectable_value(&mut goal.metric, metric, metric.label());
                        }
                    });
                egui::ComboBox::from_id_salt(("tune goal comparison", index))
                    .selected_text(goal.comparison.symbol())
                    .width(48.0)
                    .show_ui(ui, |ui| {
                        for comparison in [
                            Comparison::AtMost,
                            Comparison::Below,
                            Comparison::AtLeast,
                            Comparison::Above,
                        ] {
                            ui.selectable_value(
                                &mut goal.comparison,
                                comparison,
                                comparison.symbol(),
                            );
                        }
                    });
                ui.add(egui::DragValue::new(&mut goal.target).speed(0.05));
                if ui
                    .small_button("×")
                    .on_hover_text("Remove this goal")
                    .clicked()
                {
                    remove = Some(index);
                }
            });
        }
        if let Some(index) = remove {
            self.goals.remove(index);
        }
        if ui.button("+ goal").clicked() {
            self.goals.push(Goal {
                metric: Metric::AgentOverlaps,
                comparison: Comparison::AtMost,
                target: 0.0,
            });
        }
    }

    /// The budget, seeds and seconds.
    fn budget_row(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label("Budget");
            ui.add(
                egui::DragValue::new(&mut self.budget)
                    .range(1..=MAX_BUDGET)
                    .suffix(" runs"),
            );
            ui.label("Seeds");
            ui.add(egui::DragValue::new(&mut self.seeds).range(1..=32));
            ui.label("Seconds");
            ui.add(
                egui::DragValue::new(&mut self.seconds)
                    .range(0.1..=600.0)
                    .speed(0.1)
                    .suffix(" s"),
            );
        });
    }
}
