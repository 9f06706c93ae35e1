//! The "Sweep…" window of a graph parameter: a range of values run over the preview's scene
//! in the background (`graph_runtime::sweep`), with a progress bar and Cancel, then one
//! metric's mean and spread per value as a plot with the parameter's current value marked.
//!
//! The window pushes commands (run, cancel, close) like every other panel; what it runs is
//! the scene and the open graph as the preview has them, saved or not. While a sweep runs the
//! window repaints ten times a second, which also picks up its result.

mod commands;
mod job;
mod plot;

use egui::{Context, Ui};
use graph_runtime::SceneAssets;
use graph_runtime::sweep::{Metric, SweepResult, SweepSpec, values_between};

use super::command::Command;
pub use job::{Outcome, SweepJob};
pub use plot::SweepPlot;

/// Most values in one sweep.
pub const MAX_STEPS: usize = 101;
/// Most seeds per value.
pub const MAX_SEEDS: u32 = 32;
/// Longest run (simulated seconds).
pub const MAX_SECONDS: f32 = 600.0;

/// The sweep's settings, as the window's fields show them.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepForm {
    /// First value.
    pub from: f32,
    /// Last value.
    pub to: f32,
    /// Number of values, evenly spaced, both ends included (1 to `MAX_STEPS`).
    pub steps: usize,
    /// Simulated seconds per run (> 0, at most `MAX_SECONDS`).
    pub seconds: f32,
    /// Runs per value (1 to `MAX_SEEDS`); seed `i` is the scene's seed plus `i`.
    pub seeds: u32,
    /// The metric plotted (the result holds every metric, so changing it needs no new run).
    pub metric: Metric,
}

impl SweepForm {
    /// Defaults around `current`: from a quarter of it to twice it (0 to 1 for 0), nine
    /// values, two seeds of six seconds, min spacing.
    pub fn around(current: f32) -> Self {
        let (from, to) = if current == 0.0 {
            (0.0, 1.0)
        } else {
            let ends = (current * 0.25, current * 2.0);
            (ends.0.min(ends.1), ends.0.max(ends.1))
        };
        Self {
            from,
            to,
            steps: 9,
            seconds: 6.0,
            seeds: 2,
            metric: Metric::MinSpacing,
        }
    }

    /// The runtime's spec for `parameter`.
    pub fn spec(&self, parameter: &str) -> SweepSpec {
        SweepSpec {
            parameter: parameter.to_owned(),
            values: values_between(self.from, self.to, self.steps),
            seeds: self.seeds,
            seconds: self.seconds,
        }
    }
}

/// Where the window's sweep is.
pub enum SweepState {
    /// Nothing run yet.
    Ready,
    /// Running in the background.
    Running(SweepJob),
    /// Finished.
    Done(SweepResult),
    /// Stopped by Cancel.
    Cancelled,
    /// Could not run; why.
    Failed(String),
}

/// The sweep window of one graph parameter.
pub struct SweepWindow {
    /// The parameter swept.
    pub parameter: String,
    /// The settings.
    pub form: SweepForm,
    /// The run and its result.
    pub state: SweepState,
    /// The parameter's value the preview runs now (a scene group's override, else the
    /// graph's default; `None`: no longer declared), followed every frame and marked on the
    /// plot.
    pub current: Option<f32>,
}

impl SweepWindow {
    /// The window for `parameter`, whose value is `current`, with fields around it.
    pub fn new(parameter: &str, current: f32) -> Self {
        Self {
            parameter: parameter.to_owned(),
            form: SweepForm::around(current),
            state: SweepState::Ready,
            current: Some(current),
        }
    }

    /// Starts the form's sweep over `assets`. A sweep still running is dropped first, which
    /// cancels it, so the two never share the cores.
    pub fn run(&mut self, assets: SceneAssets) {
        self.state = SweepState::Ready;
        let spec = self.form.spec(&self.parameter);
        self.state = match SweepJob::start(assets, spec) {
            Ok(job) => SweepState::Running(job),
            Err(message) => SweepState::Failed(message),
        };
    }

    /// Asks a running sweep to stop; the window says so once it has.
    pub fn cancel(&mut self) {
        if let SweepState::Running(job) = &self.state {
            job.cancel();
        }
    }

    /// Takes a finished sweep's outcome; call once per frame.
    pub fn poll(&mut self) {
        let SweepState::Running(job) = &self.state else {
            return;
        };
        if let Some(outcome) = job.poll() {
            self.state = match outcome {
                Outcome::Done(result) => SweepState::Done(result),
                Outcome::Cancelled => SweepState::Cancelled,
                Outcome::Failed(message) => SweepState::Failed(message),
            };
        }
    }

    /// Whether a sweep is running (or stopping).
    pub fn is_running(&self) -> bool {
        matches!(self.state, SweepState::Running(_))
    }

    /// The finished result.
    pub fn result(&self) -> Option<&SweepResult> {
        match &self.state {
            SweepState::Done(result) => Some(result),
            _ => None,
        }
    }

    /// What the plot shows, once there is a result.
    pub fn plot(&self) -> Option<SweepPlot> {
        self.result()
            .map(|result| SweepPlot::of(result, self.form.metric, self.current))
    }

    /// The window for one frame (its result taken in first); pushes what the user asks into
    /// `commands`, `CloseSweep` when its close button is clicked.
    pub fn show(&mut self, ctx: &Context, commands: &mut Vec<Command>) {
        self.poll();
        let mut open = true;
        egui::Window::new(format!("Sweep {}", self.parameter))
            .id(egui::Id::new("steergraph-sweep"))
            .open(&mut open)
            .default_width(560.0)
            // Over the graph canvas, clear of the side panel it was opened from.
            .pivot(egui::Align2::CENTER_TOP)
            .default_pos(ctx.content_rect().center_top() + egui::vec2(-120.0, 60.0))
            .show(ctx, |ui| {
                self.fields(ui);
                ui.separator();
                self.status(ui, commands);
                if let Some(plot) = self.plot() {
                    plot.show(ui, &self.parameter);
                }
            });
        if !open {
            commands.push(Command::CloseSweep);
        }
        if self.is_running() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    /// The settings; locked while a sweep runs.
    fn fields(&mut self, ui: &mut Ui) {
        let current = self
            .current
            .map_or_else(|| "no longer declared".to_owned(), |v| format!("now {v}"));
        ui.label(format!("Graph parameter {} ({current})", self.parameter));
        let running = self.is_running();
        let form = &mut self.form;
        ui.add_enabled_ui(!running, |ui| {
            egui::Grid::new("sweep fields")
                .num_columns(4)
                .show(ui, |ui| {
                    ui.label("From");
                    ui.add(egui::DragValue::new(&mut form.from).speed(0.05));
                    ui.label("To");
                    ui.add(egui::DragValue::new(&mut form.to).speed(0.05));
                    ui.end_row();
                    ui.label("Values");
                    ui.add(egui::DragValue::new(&mut form.steps).range(1..=MAX_STEPS));
                    ui.label("Seeds");
                    ui.add(egui::DragValue::new(&mut form.seeds).range(1..=MAX_SEEDS));
                    ui.end_row();
                    ui.label("Seconds");
                    ui.add(
                        egui::DragValue::new(&mut form.seconds)
                            .range(0.1..=MAX_SECONDS)
                            .speed(0.1)
                            .suffix(" s"),
                    );
                    ui.end_row();
                });
        });
        egui::ComboBox::from_label("Metric")
            .selected_text(form.metric.label())
            .show_ui(ui, |ui| {
                for metric in Metric::ALL {
                    ui.selectable_value(&mut form.metric, metric, metric.label());
                }
            });
    }

    /// Run, or progress and Cancel, and what became of the last sweep.
    fn status(&self, ui: &mut Ui, commands: &mut Vec<Command>) {
        ui.horizontal_wrapped(|ui| match &self.state {
            SweepState::Running(job) => {
                let stopping = job.is_cancelling();
                ui.add(
                    egui::ProgressBar::new(job.progress())
                        .show_percentage()
                        .desired_width(300.0),
                );
                if ui
                    .add_enabled(!stopping, egui::Button::new("Cancel"))
                    .clicked()
                {
                    commands.push(Command::CancelSweep);
                }
                super::time_left::show(ui, job.started, job.progress());
            }
            state => {
                let can_run = self.current.is_some();
                if ui.add_enabled(can_run, egui::Button::new("Run")).clicked() {
                    commands.push(Command::RunSweep);
                }
                match state {
                    SweepState::Cancelled => {
                        ui.weak("Cancelled.");
                    }
                    SweepState::Failed(message) => {
                        ui.colored_label(egui::Color32::from_rgb(235, 110, 90), message);
                    }
                    SweepState::Done(result) => {
                        if ui.button("Copy CSV").clicked() {
                            ui.ctx().copy_text(result.to_csv());
                        }
                        ui.weak(format!(
                            "{} values; the band is ± the spread over seeds",
                            result.points.len()
                        ));
                    }
                    _ => {}
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::SweepForm;

    #[test]
    fn the_default_range_goes_from_a_quarter_to_twice_the_current_value() {
        let ends = |current: f32| {
            let form = SweepForm::around(current);
            (form.from, form.to)
        };
        assert_eq!(ends(4.0), (1.0, 8.0));
        // Negative values keep FROM below TO; zero gets 0 to 1.
        assert_eq!(ends(-2.0), (-4.0, -0.5));
        assert_eq!(ends(0.0), (0.0, 1.0));
        let spec = SweepForm::around(4.0).spec("alignment");
        assert_eq!(
            spec.values,
            [1.0, 1.875, 2.75, 3.625, 4.5, 5.375, 6.25, 7.125, 8.0]
        );
        assert_eq!((spec.runs(), spec.ticks()), (18, 360));
    }
}
