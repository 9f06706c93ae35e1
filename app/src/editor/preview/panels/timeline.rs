//! The timeline under the viewport (issue 45): the recorded ticks of the run, to go back to any
//! of them and look (agents, guides, the inspector and the live values on the graph as they
//! were), a tick back or on, and the memory the recording keeps. Playing or stepping from a
//! past tick forks the run: what came after it is dropped.

use egui::Ui;

use super::super::{Preview, TICK};

impl Preview {
    /// The timeline row.
    pub(in crate::editor::preview) fn timeline(&mut self, ui: &mut Ui) {
        let Some((first, last)) = self.host.recorded() else {
            return;
        };
        // While a tick runs on the worker the row stays, greyed, at the last tick recorded.
        let now = self.host.tick();
        ui.add_enabled_ui(now.is_some(), |ui| {
            self.timeline_row(ui, (first, last), now.unwrap_or(last));
        });
    }

    /// The row's controls, the preview at tick `now` of the recorded `first` to `last`.
    fn timeline_row(&mut self, ui: &mut Ui, (first, last): (u64, u64), now: u64) {
        let host = &mut self.host;
        ui.label("Timeline");
        if ui
            .add_enabled(now > first, egui::Button::new("Back"))
            .on_hover_text("Go back one tick (pauses)")
            .clicked()
        {
            host.seek(now - 1);
        }
        let mut at = now;
        ui.spacing_mut().slider_width = 260.0;
        let slider = egui::Slider::new(&mut at, first..=last)
            .show_value(false)
            .clamping(egui::SliderClamping::Always);
        let dragged = ui
            .add(slider)
            .on_hover_text("Drag to any recorded tick (pauses): the run as it was then");
        if dragged.changed() && at != now {
            host.seek(at);
        }
        if ui
            .button("Forward")
            .on_hover_text("One tick on: the recorded tick, or a new one at the end")
            .clicked()
        {
            if now < last {
                host.seek(now + 1);
            } else {
                host.running = false;
                host.step_once();
            }
        }
        // The row keeps its buttons whatever the tick, so it never moves under the pointer.
        if ui
            .add_enabled(now < last, egui::Button::new("Live"))
            .on_hover_text("Go to the last recorded tick")
            .clicked()
        {
            host.seek(last);
        }
        let seconds = |tick: u64| tick as f32 * TICK;
        let mib = |b: usize| b as f64 / f64::from(1 << 20);
        let memory = (host.recording_bytes())
            .map(|(bytes, budget)| format!(" · {:.1} of {:.0} MiB", mib(bytes), mib(budget)));
        let text = format!(
            "{:.2} s of {:.2} s{}",
            seconds(now),
            seconds(last),
            memory.unwrap_or_default()
        );
        ui.label(text).on_hover_text(
            "Back in the run, Play or Step forks it here: the later ticks are dropped, and \
             edits made here (graph, scene) apply from this tick on",
        );
    }
}
