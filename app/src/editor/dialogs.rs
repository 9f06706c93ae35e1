//! The modal dialogs (unsaved changes, crash recovery, errors) and the bar that asks about a
//! document changed on disk. Their buttons push commands.

use egui::Id;

use super::autosave::{Origin, Recovered};
use super::command::{Command, Then};
use super::history::Doc;
use super::{EditorApp, plural};

/// A dialog that blocks the editor until answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    /// There are unsaved changes; then do this.
    Unsaved(Then),
    /// Unsaved work from a previous run was found.
    Recover(Box<Recovered>),
    /// Something went wrong; the message says what and where.
    Error(String),
    /// Remove a graph parameter that fields use?
    RemoveParameter {
        /// The parameter.
        name: String,
        /// Where it is used, in words.
        uses: Vec<String>,
    },
}

impl EditorApp {
    /// Shows the open dialog, if any.
    pub(super) fn dialogs(&mut self, ctx: &egui::Context) {
        let Some(dialog) = self.view.dialog.clone() else {
            return;
        };
        let mut commands = Vec::new();
        let modal = egui::Modal::new(Id::new("steergraph-dialog")).show(ctx, |ui| {
            ui.set_max_width(480.0);
            match &dialog {
                Dialog::Unsaved(then) => self.unsaved(ui, then, &mut commands),
                Dialog::Recover(recovered) => recover(ui, recovered, &mut commands),
                Dialog::RemoveParameter { name, uses } => {
                    remove_parameter(ui, name, uses, &mut commands);
                }
                Dialog::Error(message) => {
                    ui.heading("Problem");
                    // Selectable, so the message can be copied into a bug report.
                    let mut text = message.as_str();
                    ui.add(egui::TextEdit::multiline(&mut text).desired_width(460.0));
                    if ui.button("OK").clicked() {
                        commands.push(Command::CloseDialog);
                    }
                }
            }
        });
        // Esc (or a click beside the dialog) cancels it, as its Cancel or OK button does; the
        // recovery question is answered only by its buttons, so no work is lost by a stray key.
        if modal.should_close() && commands.is_empty() && !matches!(dialog, Dialog::Recover(_)) {
            commands.push(Command::CloseDialog);
        }
        self.queue.extend(commands);
    }

    /// The bar under the menu for documents whose file changed on disk while they had unsaved
    /// changes. Not modal: editing goes on until the user answers.
    pub(super) fn changed_on_disk_bar(&mut self, ui: &mut egui::Ui) {
        let mut commands = Vec::new();
        for &doc in self.services.disk.asking() {
            let what = match doc {
                Doc::Graph => format!("The graph {}", self.workspace.graph_label()),
                Doc::Scene => format!("The scene {}", self.workspace.scene.name()),
            };
            ui.horizontal(|ui| {
                ui.colored_label(
                    egui::Color32::from_rgb(235, 180, 90),
                    format!("{what} changed on disk, and you have unsaved changes."),
                );
                if ui
                    .button("Reload")
                    .on_hover_text("Take the file as it is on disk now (undo takes it back)")
                    .clicked()
                {
                    commands.push(Command::ReloadFromDisk(doc));
                }
                if ui
                    .button("Keep mine")
                    .on_hover_text("Keep editing; saving will overwrite the file")
                    .clicked()
                {
                    commands.push(Command::KeepMine(doc));
                }
            });
        }
        self.queue.extend(commands);
    }

    fn unsaved(&self, ui: &mut egui::Ui, then: &Then, commands: &mut Vec<Command>) {
        ui.heading("Unsaved changes");
        let mut unsaved = Vec::new();
        if self.asks_about(Doc::Graph, then) {
            unsaved.push(format!("the graph {}", self.workspace.graph_label()));
        }
        if self.asks_about(Doc::Scene, then) {
            unsaved.push(format!("the scene {}", self.workspace.scene.name()));
        }
        ui.label(format!(
            "{} {} not saved.",
            capitalized(&unsaved.join(" and ")),
            if unsaved.len() == 1 { "is" } else { "are" }
        ));
        if *then == Then::Up
            && let Some(parent) = self.workspace.context.parents.last()
        {
            ui.label(format!(
                "Save it before going back to {}? Its Subgraph node reads the file.",
                parent.document.title()
            ));
        }
        ui.horizontal(|ui| {
            let save = if unsaved.len() > 1 {
                "Save both"
            } else {
                "Save"
            };
            if ui.button(save).clicked() {
                commands.push(Command::SaveAllThen(then.clone()));
            }
            if ui.button("Discard changes").clicked() {
                commands.push(Command::Discard(then.clone()));
            }
            if ui.button("Cancel").clicked() {
                commands.push(Command::CloseDialog);
            }
        });
    }
}

fn recover(ui: &mut egui::Ui, recovered: &Recovered, commands: &mut Vec<Command>) {
    ui.heading("Recover unsaved work?");
    let describe = |origin: &Origin, what: &str| match origin {
        Origin::File(path) => path.display().to_string(),
        Origin::Preset(file) => format!("{file} (preset)"),
        Origin::New => format!("a new {what}"),
    };
    let session = &recovered.session;
    if recovered.graph.is_some() {
        ui.label(format!(
            "Steergraph closed with unsaved changes to the graph {}.",
            describe(&session.graph, "graph")
        ));
    }
    if let Some(scene) = &recovered.scene {
        let agents: usize = scene.groups.iter().map(|g| g.spawn.count()).sum();
        ui.label(format!(
            "The preview's scene had unsaved changes ({}, {}).",
            describe(&session.scene, "scene"),
            plural(agents, "agent")
        ));
    } else if session.scene != Origin::New {
        ui.label(format!(
            "It ran in the scene {}, which opens again.",
            describe(&session.scene, "scene")
        ));
    }
    ui.horizontal(|ui| {
        if ui.button("Recover").clicked() {
            commands.push(Command::Recover);
        }
        if ui.button("Discard").clicked() {
            commands.push(Command::DiscardRecovered);
        }
    });
}

fn remove_parameter(ui: &mut egui::Ui, name: &str, uses: &[String], commands: &mut Vec<Command>) {
    ui.heading(format!("Remove parameter {name}?"));
    ui.label(format!("It is used by {}:", plural(uses.len(), "field")));
    for place in uses {
        ui.label(format!("• {place}"));
    }
    ui.label("Those fields will be flagged as problems until they get a value (undo brings the parameter back).");
    ui.horizontal(|ui| {
        if ui.button("Remove").clicked() {
            commands.push(Command::CloseDialog);
            commands.push(Command::SetParameter(name.to_owned(), None));
        }
        if ui.button("Cancel").clicked() {
            commands.push(Command::CloseDialog);
        }
    });
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
