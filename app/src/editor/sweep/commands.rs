//! The sweep window's commands, as `EditorApp::apply` carries them out, and the window's
//! place in the frame.

use super::{SweepState, SweepWindow};
use crate::editor::EditorApp;

impl EditorApp {
    /// Opens the sweep window of graph parameter `parameter`; the window already open for it
    /// stays as it is (with its result).
    pub(in crate::editor) fn open_sweep(&mut self, parameter: &str) {
        if self
            .view
            .sweep
            .as_ref()
            .is_some_and(|w| w.parameter == parameter)
        {
            return;
        }
        let Some(current) = self.value_run(parameter) else {
            self.status.set(format!(
                "The graph has no parameter \"{parameter}\" to sweep."
            ));
            return;
        };
        self.view.sweep = Some(SweepWindow::new(parameter, current));
    }

    /// Runs the window's sweep over the scene and the open graph as the preview has them.
    pub(in crate::editor) fn run_sweep(&mut self) {
        let assets = self.with_open_graph(|app, open| app.workspace.scene.assets(open));
        let Some(window) = &mut self.view.sweep else {
            return;
        };
        match assets {
            Ok(assets) => window.run(assets),
            Err(problems) => window.state = SweepState::Failed(problems.join("; ")),
        }
    }

    /// Asks the window's sweep to stop.
    pub(in crate::editor) fn cancel_sweep(&mut self) {
        if let Some(window) = &mut self.view.sweep {
            window.cancel();
        }
    }

    /// The sweep window, if open, following the parameter's current value.
    pub(in crate::editor) fn sweep_window(&mut self, ctx: &egui::Context) {
        let Some(parameter) = self.view.sweep.as_ref().map(|w| w.parameter.clone()) else {
            return;
        };
        let current = self.value_run(&parameter);
        let Some(window) = &mut self.view.sweep else {
            return;
        };
        window.current = current;
        let mut commands = Vec::new();
        window.show(ctx, &mut commands);
        self.queue.extend(commands);
    }

    /// The value of graph parameter `parameter` the preview runs now: the override of the
    /// first scene group running the open graph that sets one, else the graph's default;
    /// `None` when the graph does not declare it.
    pub(in crate::editor) fn value_run(&self, parameter: &str) -> Option<f32> {
        let default = self.workspace.document.parameters.get(parameter).copied()?;
        let overridden = self
            .workspace
            .scene
            .scene
            .groups
            .iter()
            .filter(|group| group.graph == self.preview.bound)
            .find_map(|group| group.parameters.get(parameter).copied());
        Some(overridden.unwrap_or(default))
    }
}
