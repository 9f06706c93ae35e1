//! The side panel (inspector of the selected node, graph parameters, vehicle, comments) and
//! the problems list.

use std::collections::BTreeMap;

use egui::{Color32, Ui};
use graph_runtime::{Comment, CompileError, Constraint, Node, NodeId, Number, Slot};

use super::document::Document;
use super::fields::{self, Names};
use super::inputs::{InputEdit, has_input_list};
use super::search::spaced;

/// What the side panel asks the editor to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanelAction {
    /// Apply a list edit to the inspected node.
    EditInputs(NodeId, InputEdit),
    /// Frame this node on the canvas.
    Frame(NodeId),
}

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

/// The inspector: every field of the inspected node, with units and ranges.
pub fn inspector(
    ui: &mut Ui,
    document: &mut Document,
    inspected: Option<NodeId>,
    names: &Names,
    actions: &mut Vec<PanelAction>,
) -> bool {
    let mut changed = false;
    let Some(id) = inspected else {
        ui.weak("Click a node to edit it here.");
        return false;
    };
    let Some(snarl_id) = document.snarl_id(id) else {
        ui.weak("The inspected node was deleted.");
        return false;
    };
    let errors = errors_by_node(document.problems());
    let Some(data) = document.snarl.get_node_mut(snarl_id) else {
        return false;
    };
    ui.horizontal(|ui| {
        ui.heading(format!("{} {}", spaced(data.node.kind().name()), id));
        if ui.small_button("Frame").clicked() {
            actions.push(PanelAction::Frame(id));
        }
    });
    ui.label(data.node.kind().description());
    for message in errors.get(&id).into_iter().flatten() {
        ui.colored_label(Color32::from_rgb(230, 80, 80), message);
    }
    ui.separator();
    ui.push_id(("inspector", id.0), |ui| {
        changed |= fields::node_fields(ui, &mut data.node, names);
        if has_input_list(&data.node) {
            ui.separator();
            ui.label("Inputs (first = highest priority)");
            let ports = data.node.inputs();
            for port in ports {
                let Some(index) = port.slot.index else {
                    continue;
                };
                ui.horizontal(|ui| {
                    let source = port
                        .link
                        .source()
                        .map_or_else(|| "not connected".to_owned(), |s| s.to_string());
                    ui.label(format!("{}: {source}", index + 1));
                    let weight = match data.node {
                        Node::Blend { .. } => {
                            Some((Slot::item("weight", index), Constraint::Finite))
                        }
                        Node::Dither { .. } => {
                            Some((Slot::item("probability", index), Constraint::Probability))
                        }
                        _ => None,
                    };
                    if let Some((slot, constraint)) = weight
                        && let Some(number) = data.node.number_mut(slot)
                    {
                        changed |= fields::number(ui, slot, number, constraint, names);
                    }
                    if index > 0 && ui.small_button("⬆").clicked() {
                        actions.push(PanelAction::EditInputs(id, InputEdit::MoveUp(index)));
                    }
                    if ui.small_button("×").clicked() {
                        actions.push(PanelAction::EditInputs(id, InputEdit::Remove(index)));
                    }
                });
            }
            if ui.button("+ input").clicked() {
                actions.push(PanelAction::EditInputs(id, InputEdit::Add));
            }
        }
    });
    changed
}

/// The graph parameters: declare, rename, set defaults, remove.
pub fn parameters(ui: &mut Ui, document: &mut Document, new_name: &mut String) -> bool {
    let mut changed = false;
    let mut rename: Option<(String, String)> = None;
    let mut remove: Option<String> = None;
    for (name, value) in &mut document.parameters {
        ui.horizontal(|ui| {
            let mut edited = name.clone();
            let field = ui
                .add(egui::TextEdit::singleline(&mut edited).desired_width(130.0))
                .on_hover_text("Rename: every field using it follows");
            if field.lost_focus() && edited != *name && !edited.trim().is_empty() {
                rename = Some((name.clone(), edited.trim().to_owned()));
            }
            changed |= ui.add(egui::DragValue::new(value).speed(0.05)).changed();
            if ui
                .small_button("×")
                .on_hover_text("Remove (fields using it will be flagged)")
                .clicked()
            {
                remove = Some(name.clone());
            }
        });
    }
    ui.horizontal(|ui| {
        ui.add(
            egui::TextEdit::singleline(new_name)
                .hint_text("new parameter")
                .desired_width(110.0),
        );
        let valid =
            !new_name.trim().is_empty() && !document.parameters.contains_key(new_name.trim());
        if ui.add_enabled(valid, egui::Button::new("Add")).clicked() {
            document.parameters.insert(new_name.trim().to_owned(), 1.0);
            new_name.clear();
            changed = true;
        }
    });
    if let Some((old, new)) = rename
        && !document.parameters.contains_key(&new)
    {
        if let Some(value) = document.parameters.remove(&old) {
            document.parameters.insert(new.clone(), value);
        }
        rename_references(document, &old, &new);
        changed = true;
    }
    if let Some(name) = remove {
        document.parameters.remove(&name);
        changed = true;
    }
    changed
}

fn rename_references(document: &mut Document, old: &str, new: &str) {
    let rename = |number: &mut Number| {
        if matches!(number, Number::Parameter(name) if name == old) {
            *number = Number::Parameter(new.to_owned());
        }
    };
    for number in [
        &mut document.vehicle.mass,
        &mut document.vehicle.max_force,
        &mut document.vehicle.max_speed,
        &mut document.vehicle.radius,
    ] {
        rename(number);
    }
    for data in document.snarl.nodes_mut() {
        let slots: Vec<Slot> = data.node.numbers().iter().map(|f| f.slot).collect();
        for slot in slots {
            if let Some(number) = data.node.number_mut(slot) {
                rename(number);
            }
        }
    }
}

/// The vehicle limits the graph is tuned for.
pub fn vehicle(ui: &mut Ui, document: &mut Document, names: &Names) -> bool {
    let mut changed = false;
    let vehicle = &mut document.vehicle;
    egui::Grid::new("vehicle").num_columns(2).show(ui, |ui| {
        for (label, slot, number, constraint) in [
            (
                "mass",
                Slot::field("mass"),
                &mut vehicle.mass,
                Constraint::Positive,
            ),
            (
                "max force",
                Slot::field("max_force"),
                &mut vehicle.max_force,
                Constraint::NonNegative,
            ),
            (
                "max speed",
                Slot::field("max_speed"),
                &mut vehicle.max_speed,
                Constraint::NonNegative,
            ),
            (
                "radius",
                Slot::field("radius"),
                &mut vehicle.radius,
                Constraint::NonNegative,
            ),
        ] {
            ui.label(label);
            changed |= fields::number(ui, slot, number, constraint, names);
            ui.end_row();
        }
    });
    changed
}

/// Comment frames: edit their text, remove them.
pub fn comments(ui: &mut Ui, comments: &mut Vec<Comment>) -> bool {
    let mut changed = false;
    let mut remove = None;
    for (index, comment) in comments.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            changed |= ui
                .add(egui::TextEdit::singleline(&mut comment.text).desired_width(180.0))
                .changed();
            if ui.small_button("×").clicked() {
                remove = Some(index);
            }
        });
    }
    if let Some(index) = remove {
        comments.remove(index);
        changed = true;
    }
    if comments.is_empty() {
        ui.weak("Select nodes, then Edit > Comment around selection.");
    }
    changed
}

/// The problems list; returns the node of a clicked problem.
pub fn problems(ui: &mut Ui, problems: &[CompileError]) -> Option<NodeId> {
    let mut clicked = None;
    if problems.is_empty() {
        ui.colored_label(
            Color32::from_rgb(110, 190, 110),
            "✔ No problems: the graph compiles.",
        );
        return None;
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        for problem in problems {
            let text =
                egui::RichText::new(format!("⚠ {problem}")).color(Color32::from_rgb(235, 110, 90));
            let response = ui.add(egui::Button::new(text).frame(false));
            if response.clicked() {
                clicked = problem.node();
            }
            if problem.node().is_some() {
                response.on_hover_text("Click to select and frame the node");
            }
        }
    });
    clicked
}
