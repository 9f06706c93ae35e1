//! A node's header (its title, live value and preview color, or a Reroute's dot) and an
//! input's row (its number, weight, and the buttons that reorder and remove list inputs).

use egui::Ui;
use egui_snarl::ui::{PinInfo, SnarlViewer as _};
use egui_snarl::{InPin, NodeId as SnarlId, Snarl};
use graph_runtime::{PortType, Unit};

use super::{GraphViewer, look};
use crate::editor::command::Command;
use crate::editor::document::EditorNode;
use crate::editor::fields;
use crate::editor::inputs::{InputEdit, has_input_list};

impl GraphViewer<'_> {
    /// Shows node `node`'s header; a click selects it (Shift adds), a double click opens a
    /// Subgraph node's file, a right-click opens the node's menu.
    pub(super) fn header(&mut self, node: SnarlId, ui: &mut Ui, snarl: &mut Snarl<EditorNode>) {
        let Some(data) = snarl.get_node(node) else {
            return;
        };
        let (id, kind) = (data.id, data.node.kind());
        if look::is_reroute(&data.node) {
            let port = crate::editor::mirror::output_type(snarl, id).unwrap_or(PortType::Steering);
            let response = look::reroute_handle(ui, port).on_hover_text(format!(
                "Reroute {id}: a bend point for a wire; costs nothing at run time"
            ));
            if response.clicked() {
                let add = ui.input(|i| i.modifiers.shift);
                self.commands.push(Command::Select {
                    nodes: vec![id],
                    add,
                });
            }
            response.context_menu(|ui| self.node_menu(node, ui, snarl));
            return;
        }
        let title = self.title(data);
        let response = ui
            .horizontal(|ui| {
                // Room at the left, where the title meets the header's clip (zoomed out, a first
                // letter drawn a fraction of a pixel out of it was lost: "-low Field Following").
                ui.add_space(2.0);
                if self.live.is_some() {
                    ui.colored_label(crate::editor::preview::node_color(id), "■")
                        .on_hover_text("This node's color in the preview's guides");
                }
                let response = ui
                    .add(
                        egui::Label::new(egui::RichText::new(title).strong())
                            .selectable(false)
                            .sense(egui::Sense::click()),
                    )
                    .on_hover_text(kind.description());
                if let Some(entry) = self.live.and_then(|trace| trace.get(id)) {
                    ui.label(look::live_value(entry));
                }
                if let Some(holds) = self.holding.get(&id) {
                    ui.colored_label(super::HOLDING, "holds")
                        .on_hover_text(holds);
                }
                response
            })
            .inner;
        if response.double_clicked() {
            self.open_subgraph(snarl, node);
        } else if response.clicked() {
            let add = ui.input(|i| i.modifiers.shift);
            self.commands.push(Command::Select {
                nodes: vec![id],
                add,
            });
        }
        // The title takes the clicks, so the body's right-click menu is offered here too.
        response.context_menu(|ui| self.node_menu(node, ui, snarl));
    }

    /// Shows input `pin`'s row and returns its pin.
    pub(super) fn input_row(
        &mut self,
        pin: &InPin,
        ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) -> PinInfo {
        let Some((slot, accepts)) = Self::port(snarl, pin.id) else {
            return look::pin(PortType::Steering);
        };
        let Some(data) = snarl.get_node(pin.id.node) else {
            return look::pin(accepts);
        };
        let Some(index) = slot.index else {
            if !look::is_reroute(&data.node) {
                ui.label(slot.name);
            }
            return look::pin(accepts);
        };
        let (id, names) = (data.id, self.names);
        ui.label(format!("{}", index + 1));
        if let Some((weight, constraint)) = fields::list_weight(&data.node, index) {
            self.edit_node(ui, id, &data.node, |ui, node| {
                node.number_mut(weight).is_some_and(|number| {
                    fields::number(ui, weight, number, (constraint, Unit::Unitless), names)
                })
            });
        }
        if has_input_list(&data.node) {
            if index > 0
                && ui
                    .small_button("⏶")
                    .on_hover_text("Raise priority")
                    .clicked()
            {
                self.commands
                    .push(Command::EditInputs(id, InputEdit::MoveUp(index)));
            }
            if ui
                .small_button("×")
                .on_hover_text("Remove this input")
                .clicked()
            {
                self.commands
                    .push(Command::EditInputs(id, InputEdit::Remove(index)));
            }
        }
        look::pin(accepts)
    }
}
