//! The side panel's graph parameters: declare, rename (everywhere they are used), set
//! defaults, remove, and sweep one from its menu.

use std::collections::BTreeMap;

use egui::Ui;
use graph_runtime::{Number, Slot};

use crate::editor::command::Command;
use crate::editor::document::Document;
use crate::editor::fields::{self};

/// The graph parameters: declare, rename, set defaults, remove.
pub fn parameters(
    ui: &mut Ui,
    parameters: &BTreeMap<String, f32>,
    new_name: &mut String,
) -> Option<Command> {
    let mut command = None;
    // The names' fields give way to the value and its ×, and the new name's to Add and
    // Tune…: at 130 and 110 points the side panel of a 1280-point window put the × and
    // Tune… on lines of their own (seen under Xvfb).
    let width = |room: f32, most: f32| (ui.available_width() - room).clamp(60.0, most);
    let (name_width, new_width) = (width(90.0, 130.0), width(115.0, 110.0));
    for (name, value) in parameters {
        ui.horizontal_wrapped(|ui| {
            let id = ui.id().with(("parameter-name", name));
            let (field, renamed) = crate::editor::widgets::committed_text(ui, id, name, name_width);
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
                .desired_width(new_width),
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
                crate::editor::search::spaced(data.node.kind().name()),
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
