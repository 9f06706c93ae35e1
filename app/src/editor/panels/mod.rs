//! The side panel's parts (inspector of the selected node, vehicle, turning, comments);
//! graph parameters in `parameters.rs`, the problems list in `problems.rs`. Each edits a copy
//! and returns a [`Command`].

mod parameters;
mod problems;

pub use parameters::{parameter_uses, parameters, rename_parameter};
pub use problems::{ERROR_COLOR, WARNING_COLOR, errors_by_node, problems, warnings_by_node};

use egui::{Color32, Ui};
use graph_runtime::{Comment, Constraint, NodeId, Number, Slot, Unit, VehicleSpec};

use crate::editor::command::Command;
use crate::editor::document::Document;
use crate::editor::fields::{self, Names};
use crate::editor::inputs::{InputEdit, has_input_list};
use crate::editor::search::spaced;
use crate::editor::selection::Selection;

/// The inspector: every field of the selection's primary node, with units and ranges.
pub fn inspector(
    ui: &mut Ui,
    document: &Document,
    selection: &Selection,
    names: &Names,
    commands: &mut Vec<Command>,
) {
    let Some(id) = selection.primary() else {
        ui.weak("Click a node's title to edit it here.");
        return;
    };
    let Some(node) = document.node(id) else {
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.heading(format!("{} {}", spaced(node.kind().name()), id));
        if ui.small_button("Frame").clicked() {
            commands.push(Command::Frame(vec![id]));
        }
    });
    if selection.len() > 1 {
        let others = super::plural(selection.len() - 1, "more node");
        ui.weak(format!("{others} selected"));
    }
    ui.label(node.kind().description());
    for message in errors_by_node(document.problems())
        .get(&id)
        .into_iter()
        .flatten()
    {
        ui.colored_label(Color32::from_rgb(230, 80, 80), message);
    }
    ui.separator();
    let mut edited = node.clone();
    let mut changed = false;
    ui.push_id(("inspector", id.0), |ui| {
        changed |= fields::node_fields(ui, &mut edited, names);
        if has_input_list(&edited) {
            ui.separator();
            ui.label("Inputs (first = highest priority)");
            changed |= input_list(ui, id, &mut edited, names, commands);
        }
    });
    if changed {
        commands.push(Command::SetNode(id, edited));
    }
}

fn input_list(
    ui: &mut Ui,
    id: NodeId,
    node: &mut graph_runtime::Node,
    names: &Names,
    commands: &mut Vec<Command>,
) -> bool {
    let mut changed = false;
    for port in node.inputs() {
        let Some(index) = port.slot.index else {
            continue;
        };
        ui.horizontal_wrapped(|ui| {
            let source = port
                .link
                .source()
                .map_or_else(|| "not connected".to_owned(), |s| s.to_string());
            ui.label(format!("{}: {source}", index + 1));
            if let Some((slot, constraint)) = fields::list_weight(node, index)
                && let Some(number) = node.number_mut(slot)
            {
                // The row's ⏶ and × stay on its line.
                let buttons = 2.0 * (ui.spacing().interact_size.y + ui.spacing().item_spacing.x);
                changed |= fields::fit_leaving(ui, buttons, |ui| {
                    fields::number(ui, slot, number, (constraint, Unit::Unitless), names)
                });
            }
            if index > 0
                && ui
                    .small_button("⏶")
                    .on_hover_text("Raise priority")
                    .clicked()
            {
                commands.push(Command::EditInputs(id, InputEdit::MoveUp(index)));
            }
            if ui.small_button("×").on_hover_text("Remove").clicked() {
                commands.push(Command::EditInputs(id, InputEdit::Remove(index)));
            }
        });
    }
    if ui.button("+ input").clicked() {
        commands.push(Command::EditInputs(id, InputEdit::Add));
    }
    changed
}

/// The vehicle limits the graph is tuned for.
pub fn vehicle(ui: &mut Ui, vehicle: &VehicleSpec, names: &Names) -> Option<Command> {
    let mut edited = vehicle.clone();
    let mut changed = false;
    let fields: Vec<(Slot, Constraint, Unit)> = vehicle
        .numbers()
        .iter()
        .map(|f| (f.slot, f.constraint, f.unit))
        .collect();
    egui::Grid::new("vehicle").num_columns(2).show(ui, |ui| {
        for (slot, constraint, unit) in fields {
            ui.label(fields::label(slot));
            if let Some(number) = edited.number_mut(slot) {
                changed |= fields::number(ui, slot, number, (constraint, unit), names);
            }
            ui.end_row();
        }
    });
    changed.then_some(Command::SetVehicle(edited))
}

/// How the graph's vehicle turns: independent facing with its angular limits, and an optional
/// limit on how fast the direction of motion turns.
pub fn turning(
    ui: &mut Ui,
    turning: &graph_runtime::TurningSpec,
    names: &Names,
    turns: Option<bool>,
) -> Option<Command> {
    let mut edited = turning.clone();
    let mut changed = ui
        .checkbox(&mut edited.independent_facing, "independent facing")
        .on_hover_text(
            "The vehicle faces where its angular nodes (ReachOrientation, Face, \
             LookWhereYouAreGoing) turn it, not where it moves",
        )
        .changed();
    if edited.independent_facing && turns == Some(false) {
        // Nothing turns the facing: every agent keeps the facing it spawned with, and the
        // preview marks each one that moves another way.
        ui.add(
            egui::Label::new(
                egui::RichText::new(
                    "No node turns the facing, so agents keep facing where they started. Add \
                     Face, LookWhereYouAreGoing or ReachOrientation (Add > Facing and jumps) \
                     and blend it with the forces.",
                )
                .color(WARNING_COLOR),
            )
            .wrap(),
        );
    }
    let mut limited = edited.max_turn_rate.is_some();
    if ui
        .checkbox(&mut limited, "limit the turn rate")
        .on_hover_text(
            "The direction of motion turns at most this fast: a stopped vehicle cannot spin \
             on the spot, a moving one drives a turning circle (a car, a horse, a ship)",
        )
        .changed()
    {
        edited.max_turn_rate = limited.then_some(Number::Literal(90.0));
        changed = true;
    }
    let fields: Vec<(Slot, Constraint, Unit)> = edited
        .numbers()
        .iter()
        .map(|f| (f.slot, f.constraint, f.unit))
        .collect();
    // A row each, wrapping the field under its label where the panel is narrow (the labels
    // are long: at 1024 points the values were cut off).
    for (slot, constraint, unit) in fields {
        ui.horizontal_wrapped(|ui| {
            ui.label(fields::label(slot));
            if let Some(number) = edited.number_mut(slot) {
                changed |= fields::number(ui, slot, number, (constraint, unit), names);
            }
        });
    }
    changed.then_some(Command::SetTurning(edited))
}

/// The description and the comment frames: edit their text, remove them.
pub fn description_and_comments(
    ui: &mut Ui,
    description: &str,
    comments: &[Comment],
) -> Option<Command> {
    let mut text = description.to_owned();
    let mut command = None;
    if ui
        .add(egui::TextEdit::multiline(&mut text).desired_rows(2))
        .changed()
    {
        command = Some(Command::SetDescription(text));
    }
    let mut edited = comments.to_vec();
    let mut changed = false;
    let mut remove = None;
    for (index, comment) in edited.iter_mut().enumerate() {
        ui.horizontal_wrapped(|ui| {
            changed |= ui
                .add(egui::TextEdit::singleline(&mut comment.text).desired_width(180.0))
                .changed();
            if ui.small_button("×").clicked() {
                remove = Some(index);
            }
        });
    }
    if let Some(index) = remove {
        edited.remove(index);
        changed = true;
    }
    if edited.is_empty() {
        ui.weak("Select nodes, then Edit > Comment around selection.");
    }
    if changed {
        command = Some(Command::SetComments(edited));
    }
    command
}
