//! How a Subgraph node looks: its file (Open, Choose file…) and one field per parameter the
//! file declares, showing the file's default until the node gives its own value.

use egui::{Color32, RichText, Ui};
use egui_snarl::{NodeId as SnarlId, Snarl};
use graph_runtime::{Constraint, Node, NodeId, Number, Slot, Unit};

use super::GraphViewer;
use crate::editor::command::Command;
use crate::editor::document::EditorNode;
use crate::editor::fields;

/// The color of a file that is not there.
const MISSING: Color32 = Color32::from_rgb(230, 80, 80);

impl GraphViewer<'_> {
    /// Opens the file of Subgraph node `node` in the editor (a double-click on its title).
    pub(super) fn open_subgraph(&mut self, snarl: &Snarl<EditorNode>, node: SnarlId) {
        let Some(data) = snarl.get_node(node) else {
            return;
        };
        let Node::Subgraph { file, .. } = &data.node else {
            return;
        };
        if let Some(path) = self
            .subgraphs
            .path(file)
            .filter(|_| self.subgraphs.graph(file).is_some())
        {
            self.commands.push(Command::OpenSubgraph(data.id, path));
        }
    }

    /// The body of Subgraph node `id`.
    pub(super) fn subgraph_body(&mut self, ui: &mut Ui, id: NodeId, node: &Node) {
        let Node::Subgraph { file, parameters } = node else {
            return;
        };
        let view = self.subgraphs;
        let loaded = view.graph(file);
        ui.horizontal(|ui| {
            let name = if file.is_empty() { "no file" } else { file };
            let label = RichText::new(format!("file: {name}"));
            match loaded {
                Some(graph) => ui.label(label).on_hover_text(&graph.description),
                None => ui
                    .label(label.color(MISSING))
                    .on_hover_text(view.problem(file)),
            };
        });
        ui.horizontal(|ui| {
            let path = view.path(file).filter(|_| loaded.is_some());
            let open = ui
                .add_enabled(path.is_some(), egui::Button::new("Open").small())
                .on_hover_text(
                    "Edit the subgraph here, the preview running it in this graph's scene (or double-click the node's title); the path above the canvas, or U, comes back",
                );
            if open.clicked()
                && let Some(path) = path
            {
                self.commands.push(Command::OpenSubgraph(id, path));
            }
            if ui
                .small_button("Choose file…")
                .on_hover_text("Use another graph file, from this graph's folder or below")
                .clicked()
            {
                self.commands.push(Command::ChooseSubgraphFile(id));
            }
        });
        let declared: Vec<(String, f32)> = loaded
            .map(|g| g.parameters.iter().map(|(n, v)| (n.clone(), *v)).collect())
            .unwrap_or_default();
        let names = self.names;
        self.edit_node(ui, id, node, |ui, copy| {
            let Node::Subgraph {
                parameters: values, ..
            } = copy
            else {
                return false;
            };
            parameter_grid(ui, values, loaded.map(|_| declared.as_slice()), names)
        });
        if parameters
            .keys()
            .any(|name| loaded.is_some() && !declared.iter().any(|(d, _)| d == name))
        {
            ui.colored_label(
                MISSING,
                "Gives a value to a parameter the file does not have",
            );
        }
    }
}

/// One row per declared parameter: the node's value, or the file's default (weak) until
/// edited; ↺ goes back to the default. Rows for values the file does not declare can only
/// be removed. While the file is not loaded (`declared` is `None`) the values are listed
/// as they are. Returns whether anything changed.
fn parameter_grid(
    ui: &mut Ui,
    values: &mut std::collections::BTreeMap<String, Number>,
    declared: Option<&[(String, f32)]>,
    names: &fields::Names,
) -> bool {
    let Some(declared) = declared else {
        for (name, value) in values.iter() {
            ui.weak(format!("{name} = {value}"));
        }
        return false;
    };
    let mut changed = false;
    egui::Grid::new(("subgraph parameters", ui.id()))
        .num_columns(2)
        .show(ui, |ui| {
            for (index, (name, default)) in declared.iter().enumerate() {
                let given = values.get(name).cloned();
                let label = RichText::new(name.replace('_', " "));
                ui.label(if given.is_some() { label } else { label.weak() })
                    .on_hover_text(format!("The file's default: {default}"));
                let mut number = given.clone().unwrap_or(Number::Literal(*default));
                let slot = Slot::item("parameters", index);
                ui.horizontal(|ui| {
                    if fields::number(
                        ui,
                        slot,
                        &mut number,
                        (Constraint::Finite, Unit::Unitless),
                        names,
                    ) {
                        values.insert(name.clone(), number);
                        changed = true;
                    }
                    if given.is_some()
                        && ui
                            .small_button("↺")
                            .on_hover_text("Use the file's default")
                            .clicked()
                    {
                        values.remove(name);
                        changed = true;
                    }
                });
                ui.end_row();
            }
            let unknown: Vec<String> = values
                .keys()
                .filter(|name| !declared.iter().any(|(d, _)| d == *name))
                .cloned()
                .collect();
            for name in unknown {
                ui.colored_label(MISSING, &name);
                if ui
                    .small_button("×")
                    .on_hover_text("Remove this value")
                    .clicked()
                {
                    values.remove(&name);
                    changed = true;
                }
                ui.end_row();
            }
        });
    changed
}
