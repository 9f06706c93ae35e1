//! The tune window's commands, as `EditorApp::apply` carries them out, and the window's place
//! in the frame.

use super::{ApplyTo, TuneJob, TuneState, TuneWindow};
use crate::editor::EditorApp;
use crate::editor::preview::SceneEdit;

impl EditorApp {
    /// Opens the tune window over the graph's parameters (`ticked` alone searched, or all of
    /// them); the window already open stays as it is (with its result).
    pub(in crate::editor) fn open_tune(&mut self, ticked: Option<&str>) {
        if self.view.tune.is_some() {
            return;
        }
        let parameters: Vec<(String, f32)> = self
            .workspace
            .document
            .parameters
            .keys()
            .filter_map(|name| Some((name.clone(), self.value_run(name)?)))
            .collect();
        self.view.tune = Some(TuneWindow::new(&parameters, ticked));
    }

    /// Runs the window's search over the scene and the open graph as the preview has them.
    pub(in crate::editor) fn run_tune(&mut self) {
        let assets = self.with_open_graph(|app, open| app.workspace.scene.assets(open));
        let Some(window) = &mut self.view.tune else {
            return;
        };
        // A search still running is dropped first, which cancels it.
        window.state = TuneState::Ready;
        window.state = match assets.map_err(|problems| problems.join("; ")) {
            Ok(assets) => match TuneJob::start(assets, window.spec()) {
                Ok(job) => TuneState::Running(job),
                Err(message) => TuneState::Failed(message),
            },
            Err(message) => TuneState::Failed(message),
        };
    }

    /// Asks the window's search to stop.
    pub(in crate::editor) fn cancel_tune(&mut self) {
        if let Some(TuneState::Running(job)) = self.view.tune.as_ref().map(|w| &w.state) {
            job.cancel();
        }
    }

    /// Sets the best values found, in one undo step: as the graph's defaults, or as the
    /// override of every scene group running the open graph.
    pub(in crate::editor) fn apply_tune(&mut self) {
        let Some(window) = &self.view.tune else {
            return;
        };
        let Some(result) = window.result() else {
            return;
        };
        let Some(best) = result.best() else {
            return;
        };
        let values: Vec<(String, f32)> = result
            .parameters
            .iter()
            .cloned()
            .zip(best.values.iter().copied())
            .collect();
        let listed = values
            .iter()
            .map(|(name, value)| format!("{name} = {value}"))
            .collect::<Vec<_>>()
            .join(", ");
        match window.apply_to {
            ApplyTo::GraphDefaults => {
                for (name, value) in values {
                    self.workspace.document.parameters.insert(name, value);
                }
                self.status
                    .set(format!("Applied {listed} to the graph's defaults."));
            }
            ApplyTo::SceneOverrides => {
                let mut scene = self.workspace.scene.scene.clone();
                let bound = self.preview.bound.clone();
                for group in scene.groups.iter_mut().filter(|g| g.graph == bound) {
                    for (name, value) in &values {
                        group.parameters.insert(name.clone(), *value);
                    }
                }
                self.preview.push_edit(SceneEdit::Scene(Box::new(scene)));
                self.status
                    .set(format!("Applied {listed} to the scene groups' overrides."));
            }
        }
    }

    /// The tune window, if open.
    pub(in crate::editor) fn tune_window(&mut self, ctx: &egui::Context) {
        let Some(window) = &mut self.view.tune else {
            return;
        };
        let mut commands = Vec::new();
        window.show(ctx, &mut commands);
        self.queue.extend(commands);
    }
}
