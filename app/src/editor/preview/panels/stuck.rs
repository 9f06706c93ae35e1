//! The stuck panel: what holds the selected agent in a designer's words, and the fixes proven
//! for the agents stuck now, each applied as one undo step.

use egui::Ui;

use super::super::Preview;
use super::super::fixes::{FIX_SECONDS, FixState};
use crate::editor::command::Command;

impl Preview {
    /// Shows what holds the selected agent and the fixes found; asks for a search or an
    /// applied fix through `commands`.
    pub fn stuck_panel(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        self.fixes.poll();
        // The side panel scrolls sideways, so nothing bounds a label: its words wrap at the
        // visible edge.
        let visible = ui.clip_rect().right() - ui.cursor().left();
        ui.set_max_width(visible.max(120.0));
        match (self.host.selected_agent, self.host.diagnosis.as_ref()) {
            (Some(agent), Some(diagnosis)) => {
                let stuck = self.host.is_held(agent);
                let held = match (stuck, &diagnosis.cause) {
                    (true, _) => "stuck",
                    (false, graph_runtime::diagnose::Cause::Walking { .. }) => "not stuck",
                    (false, _) => "not stuck now; if it were",
                };
                let title = format!("Agent {agent} ({held}): {}", diagnosis.title(stuck));
                ui.add(egui::Label::new(egui::RichText::new(title).strong()).wrap());
                ui.add(egui::Label::new(diagnosis.words_for(stuck)).wrap());
            }
            _ => {
                ui.weak("Select an agent to see what holds it.");
            }
        }
        let stuck = self.host.held_count();
        let running = matches!(self.fixes, FixState::Running { .. });
        // "Find fixes for the 0 stuck agents" read as a count to act on (seen under Xvfb on
        // the boids, where nothing is stuck).
        let label = if stuck == 0 {
            "Find fixes (no agent is stuck now)".to_owned()
        } else {
            format!(
                "Find fixes for the {}",
                crate::editor::status::plural(stuck, "stuck agent")
            )
        };
        if ui
            .add_enabled(stuck > 0 && !running, egui::Button::new(label))
            .on_hover_text(format!(
                "Each candidate fix is run on {FIX_SECONDS} s from this moment, on a copy, beside the same seconds without it; only those that free stuck agents without more overlaps or wall contacts are offered"
            ))
            .clicked()
        {
            commands.push(Command::FindFixes);
        }
        self.fixes_found(ui, commands);
    }

    /// The fixes being tried, or those found (each with its effect and Apply), or why none.
    fn fixes_found(&self, ui: &mut Ui, commands: &mut Vec<Command>) {
        match &self.fixes {
            FixState::Idle => {}
            FixState::Running { tick, stuck, .. } => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!(
                        "Trying fixes for {} from tick {tick}…",
                        crate::editor::status::plural(*stuck, "stuck agent")
                    ));
                });
                ui.ctx().request_repaint();
            }
            FixState::Failed(message) => {
                ui.colored_label(egui::Color32::from_rgb(230, 60, 60), message);
            }
            FixState::Done { tick, stuck, fixes } => {
                if fixes.is_empty() {
                    // "the 1 stuck agents" read wrong (seen under Xvfb on jammed).
                    let stuck = crate::editor::status::plural(*stuck, "stuck agent");
                    ui.add(
                        egui::Label::new(format!(
                            "At tick {tick}: no fix tried frees the {stuck} within {FIX_SECONDS} s."
                        ))
                        .wrap(),
                    );
                }
                for (index, proven) in fixes.iter().enumerate() {
                    let e = proven.effect;
                    ui.separator();
                    ui.add(egui::Label::new(&proven.fix.words).wrap());
                    ui.add(egui::Label::new(egui::RichText::new(format!(
                        "frees {} of {} within {FIX_SECONDS} s ({} without); overlapping pairs {:.2} then {:.2}; agents on walls {:.2} then {:.2}",
                        e.freed, e.stuck, e.freed_without, e.overlaps[0], e.overlaps[1], e.wall_contacts[0], e.wall_contacts[1]
                    )).weak()).wrap());
                    let elsewhere = (proven.fix.edits.iter())
                        .filter_map(graph_runtime::diagnose::FixEdit::graph)
                        .find(|graph| *graph != self.bound);
                    let button = ui.add_enabled(elsewhere.is_none(), egui::Button::new("Apply"));
                    let button = match elsewhere {
                        Some(graph) => button.on_disabled_hover_text(format!(
                            "It edits {graph}, which is not the open graph: open that graph to apply it"
                        )),
                        None => button.on_hover_text("One undo step"),
                    };
                    if button.clicked() {
                        commands.push(Command::ApplyFix(index));
                    }
                }
            }
        }
    }
}
