//! The side panel's parts (inspector of the selected node, graph parameters, vehicle,
//! comments) and the problems list. Each edits a copy and returns a [`Command`].

use std::collections::BTreeMap;

use egui::{Color32, Ui};
use graph_runtime::{
    Comment, CompileError, CompileWarning, Constraint, NodeId, Number, Slot, VehicleSpec,
};

use super::command::Command;
use super::document::Document;
use super::fields::{self, Names};
use super::inputs::{InputEdit, has_input_list};
use super::search::spaced;
use super::selection::Selection;

/// Problems grouped by the node they are about.
pub fn errors_by_node(problems: &[CompileError]) -> BTreeMap<NodeId, Vec<String>> {
    let mut by_node: BTreeMap<NodeId, Vec<String>> = BTreeMap::new();
    for problem in problems {
        match problem {
            CompileError::Cycle { nodes } | CompileError::MultipleOutputs { nodes } => {
                for node in nodes {
                    by_node.entry(*node).or_default().push(problem.to_string());
                }
            }
            _ => {
                if let Some(node) = problem.node() {
                    by_node.entry(node).or_default().push(problem.to_string());
                }
            }
        }
    }
    by_node
}

/// How problems that stop the graph are written and outlined.
pub const ERROR_COLOR: Color32 = Color32::from_rgb(235, 110, 90);
/// How warnings (the graph runs without the node) are written and outlined.
pub const WARNING_COLOR: Color32 = Color32::from_rgb(235, 185, 80);

/// Each node's warnings (it feeds nothing, or a problem while the Output does not reach it).
pub fn warnings_by_node(warnings: &[CompileWarning]) -> BTreeMap<NodeId, Vec<String>> {
    let mut by_node: BTreeMap<NodeId, Vec<String>> = BTreeMap::new();
    for warning in warnings {
        if let Some(node) = warning.node() {
            by_node.entry(node).or_default().push(warning.to_string());
        }
    }
    by_node
}

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
                changed |= fields::number(ui, slot, number, constraint, names);
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

/// The graph parameters: declare, rename, set defaults, remove.
pub fn parameters(
    ui: &mut Ui,
    parameters: &BTreeMap<String, f32>,
    new_name: &mut String,
) -> Option<Command> {
    let mut command = None;
    for (name, value) in parameters {
        ui.horizontal_wrapped(|ui| {
            let id = ui.id().with(("parameter-name", name));
            let (field, renamed) = super::widgets::committed_text(ui, id, name, 130.0);
            let field = field.on_hover_text("Rename (Enter): every field using it follows");
            sweep_menu(&field, name, &mut command);
            if let Some(new) = renamed {
                command = Some(Command::RenameParameter {
                    old: name.clone(),
                    new,
                });
            }
            let mut value = *value;
            let drag = ui.add(egui::DragValue::new(&mut value).speed(0.05));
            if drag.changed() {
                command = Some(Command::SetParameter(name.clone(), Some(value)));
            }
            sweep_menu(&drag, name, &mut command);
            if ui
                .small_button("×")
                .on_hover_text("Remove (asks first when fields use it)")
                .clicked()
            {
                command = Some(Command::RemoveParameter(name.clone()));
            }
        });
    }
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::TextEdit::singleline(new_name)
                .hint_text("new parameter")
                .desired_width(110.0),
        );
        let name = new_name.trim().to_owned();
        let valid = !name.is_empty() && !parameters.contains_key(&name);
        if ui.add_enabled(valid, egui::Button::new("Add")).clicked() {
            command = Some(Command::SetParameter(name, Some(1.0)));
            new_name.clear();
        }
        if ui
            .add_enabled(!parameters.is_empty(), egui::Button::new("Tune…"))
            .on_hover_text("Say what the crowd must do; the tool searches the parameters")
            .clicked()
        {
            command = Some(Command::OpenTune(None));
        }
    });
    command
}

/// The right-click menu of a graph parameter's name or value: "Sweep…" and "Tune…".
fn sweep_menu(response: &egui::Response, name: &str, command: &mut Option<Command>) {
    response.context_menu(|ui| {
        if ui
            .button("Sweep…")
            .on_hover_text("Run the scene over a range of values and plot a metric")
            .clicked()
        {
            *command = Some(Command::OpenSweep(name.to_owned()));
            ui.close();
        }
        if ui
            .button("Tune…")
            .on_hover_text("Search this parameter (and others) for values that meet goals")
            .clicked()
        {
            *command = Some(Command::OpenTune(Some(name.to_owned())));
            ui.close();
        }
    });
}

/// Where parameter `name` is used: the vehicle's fields and each node's, in words
/// (`Flocking #3: alignment weight`).
pub fn parameter_uses(document: &Document, name: &str) -> Vec<String> {
    let uses = |number: &Number| matches!(number, Number::Parameter(n) if n == name);
    let mut found: Vec<String> = document
        .vehicle
        .numbers()
        .iter()
        .chain(&document.turning.numbers())
        .filter(|f| uses(f.number))
        .map(|f| format!("the vehicle's {}", fields::label(f.slot)))
        .collect();
    let mut nodes: Vec<_> = document.snarl.nodes().collect();
    nodes.sort_by_key(|n| n.id);
    for data in nodes {
        for field in data.node.numbers().iter().filter(|f| uses(f.number)) {
            found.push(format!(
                "{} {}: {}",
                super::search::spaced(data.node.kind().name()),
                data.id,
                fields::label(field.slot)
            ));
        }
    }
    found
}

/// Renames parameter `old` to `new` in `document`, with every number that uses it.
pub fn rename_parameter(document: &mut Document, old: &str, new: &str) -> bool {
    if document.parameters.contains_key(new) {
        return false;
    }
    let Some(value) = document.parameters.remove(old) else {
        return false;
    };
    document.parameters.insert(new.to_owned(), value);
    let rename = |number: &mut Number| {
        if matches!(number, Number::Parameter(name) if name == old) {
            *number = Number::Parameter(new.to_owned());
        }
    };
    let slots: Vec<Slot> = document.vehicle.numbers().iter().map(|f| f.slot).collect();
    for slot in slots {
        if let Some(number) = document.vehicle.number_mut(slot) {
            rename(number);
        }
    }
    let slots: Vec<Slot> = document.turning.numbers().iter().map(|f| f.slot).collect();
    for slot in slots {
        if let Some(number) = document.turning.number_mut(slot) {
            rename(number);
        }
    }
    for data in document.snarl.nodes_mut() {
        let slots: Vec<Slot> = data.node.numbers().iter().map(|f| f.slot).collect();
        for slot in slots {
            if let Some(number) = data.node.number_mut(slot) {
                rename(number);
            }
        }
    }
    true
}

/// The vehicle limits the graph is tuned for.
pub fn vehicle(ui: &mut Ui, vehicle: &VehicleSpec, names: &Names) -> Option<Command> {
    let mut edited = vehicle.clone();
    let mut changed = false;
    let fields: Vec<(Slot, Constraint)> = vehicle
        .numbers()
        .iter()
        .map(|f| (f.slot, f.constraint))
        .collect();
    egui::Grid::new("vehicle").num_columns(2).show(ui, |ui| {
        for (slot, constraint) in fields {
            ui.label(fields::label(slot));
            if let Some(number) = edited.number_mut(slot) {
                changed |= fields::number(ui, slot, number, constraint, names);
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
    let fields: Vec<(Slot, Constraint)> = edited
        .numbers()
        .iter()
        .map(|f| (f.slot, f.constraint))
        .collect();
    // A row each, wrapping the field under its label where the panel is narrow (the labels
    // are long: at 1024 points the values were cut off).
    for (slot, constraint) in fields {
        ui.horizontal_wrapped(|ui| {
            ui.label(fields::label(slot));
            if let Some(number) = edited.number_mut(slot) {
                changed |= fields::number(ui, slot, number, constraint, names);
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

/// The problems list; returns the node of a clicked problem.
pub fn problems(
    ui: &mut Ui,
    problems: &[CompileError],
    warnings: &[CompileWarning],
) -> Option<NodeId> {
    let mut clicked = None;
    if problems.is_empty() && warnings.is_empty() {
        ui.colored_label(
            Color32::from_rgb(110, 190, 110),
            "No problems: the graph compiles.",
        );
        return None;
    }
    let lines = problems
        .iter()
        .map(|p| (p.to_string(), p.node(), ERROR_COLOR))
        .chain(
            warnings
                .iter()
                .map(|w| (format!("warning: {w}"), w.node(), WARNING_COLOR)),
        );
    egui::ScrollArea::vertical().show(ui, |ui| {
        for (text, node, color) in lines {
            let text = egui::RichText::new(format!("• {text}")).color(color);
            let response = ui.add(egui::Button::new(text).frame(false));
            if response.clicked() {
                clicked = node;
            }
            if node.is_some() {
                response.on_hover_text("Click to select and frame the node");
            }
        }
    });
    clicked
}
