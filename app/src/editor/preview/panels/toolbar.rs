//! Play/pause, step, reset, time scale, fit, the tools and the guides menu.

use egui::Ui;

use super::super::SceneDocument;
use super::super::tools::Tool;
use super::super::{OpenGraph, Preview};

impl Preview {
    /// The toolbar above the viewport.
    pub fn toolbar(&mut self, document: &mut SceneDocument, ui: &mut Ui, open: &OpenGraph<'_>) {
        ui.horizontal_wrapped(|ui| self.clock_buttons(document, ui, open));
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.tool, Tool::Select, "Select");
            ui.selectable_value(&mut self.tool, Tool::AddTarget, "Add target")
                .on_hover_text("Click to add a named target that Seek, Arrival and the field's Toward target can aim at (or right-click in the viewport)");
            ui.selectable_value(&mut self.tool, Tool::AddObstacle, "Add obstacle");
            ui.selectable_value(&mut self.tool, Tool::DrawPath, "Draw path");
            ui.selectable_value(&mut self.tool, Tool::DrawWall, "Draw wall");
            ui.selectable_value(&mut self.tool, Tool::DrawGap, "Draw gap")
                .on_hover_text("A chasm or pit walking agents fall into; Jump nodes fly over it");
            ui.selectable_value(&mut self.tool, Tool::AddJumpLink, "Add jump link")
                .on_hover_text("Click a take-off point, then a landing point, for Jump nodes");
            ui.selectable_value(&mut self.tool, Tool::PaintField, "Paint field");
            if ui
                .add_enabled(self.selected_item.is_some(), egui::Button::new("Delete"))
                .clicked()
            {
                self.push_edit(super::super::SceneEdit::DeleteSelected);
            }
            ui.menu_button("Guides", |ui| self.guides_menu(ui));
            self.gpu_switch(ui);
        });
        self.gpu_status(ui);
    }

    fn clock_buttons(&mut self, document: &mut SceneDocument, ui: &mut Ui, open: &OpenGraph<'_>) {
        let host = &mut self.host;
        let play = if host.running { "Pause" } else { "Play" };
        if ui.button(play).clicked() {
            host.running = !host.running;
        }
        if ui
            .button("Step")
            .on_hover_text("Advance exactly one tick")
            .clicked()
        {
            host.running = false;
            if self.gpu.is_on() {
                self.gpu.step_once(host);
            } else {
                host.step_once();
            }
        }
        if ui
            .button("Reset")
            .on_hover_text("Respawn the agents")
            .clicked()
        {
            self.gpu.reset(host, document, open);
        }
        ui.add(
            egui::DragValue::new(&mut host.time_scale)
                .range(0.0..=8.0)
                .speed(0.01)
                .prefix("×"),
        )
        .on_hover_text("Time scale");
        if self.gpu.is_on() {
            let gpu_seconds = self.gpu.ticks() as f32 * host.tick_length();
            ui.label(format!(
                "t = {:.1} s + {gpu_seconds:.1} s on the GPU",
                host.time
            ));
        } else {
            ui.label(format!("t = {:.1} s", host.time));
        }
        if ui
            .button("Fit")
            .on_hover_text("Fit the scene (Home)")
            .clicked()
        {
            self.fit_pending = true;
        }
    }

    /// The "Run on GPU" switch.
    fn gpu_switch(&mut self, ui: &mut Ui) {
        let mut on = self.gpu.is_on();
        let hover = "Step the agents on the GPU (the flocking and flow-field family): the \
                     timeline, plots and inspector wait at the CPU's tick until it is off";
        if ui
            .checkbox(&mut on, "Run on GPU")
            .on_hover_text(hover)
            .changed()
        {
            self.gpu.toggle(&mut self.host);
        }
    }

    /// The adapter the GPU runs on, or why it does not, under the clock (nothing while the
    /// switch is off and was not refused, so a small window keeps its viewport).
    fn gpu_status(&self, ui: &mut Ui) {
        if let (Some(summary), Some(status)) = (self.gpu.summary(), self.gpu.status()) {
            ui.weak(summary).on_hover_text(status);
        } else if let Some(problem) = &self.gpu.problem {
            ui.colored_label(
                egui::Color32::from_rgb(235, 190, 90),
                format!("not on the GPU: {problem}"),
            );
        }
    }

    fn guides_menu(&mut self, ui: &mut Ui) {
        let g = &mut self.guides;
        ui.checkbox(&mut g.velocity, "velocity");
        ui.checkbox(&mut g.steering, "final steering force");
        ui.checkbox(&mut g.node_forces, "each node's force");
        ui.checkbox(&mut g.neighborhood, "neighborhood and field of view");
        ui.checkbox(
            &mut g.corridor,
            "avoidance corridor, wall feelers, nearest wall point",
        );
        ui.checkbox(&mut g.wander, "wander circle and aim");
        ui.checkbox(&mut g.path, "path projection and aim");
        ui.checkbox(&mut g.flow, "flow-field sample");
        ui.checkbox(&mut g.aims, "aim points");
        ui.checkbox(&mut g.navigation, "navigation mesh");
        ui.checkbox(&mut g.routes, "every agent's route")
            .on_hover_text("The routes Navigate nodes planned, for every agent (the selected agent's is always drawn)");
        ui.checkbox(
            &mut g.facing,
            "target facing, matched velocity, take-off window",
        );
        ui.separator();
        ui.checkbox(&mut self.color_arrows, "color flow arrows by direction");
    }
}
