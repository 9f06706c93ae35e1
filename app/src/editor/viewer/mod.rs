//! The node widget's viewer: how each node, pin and menu looks and what editing it does. All
//! per-node UI decisions live here (egui-snarl's `SnarlViewer`).

use std::collections::BTreeMap;

use egui::{Color32, Pos2, Stroke, Ui, emath::TSTransform};
use egui_snarl::ui::{AnyPins, SnarlViewer};
use egui_snarl::{InPin, NodeId as SnarlId, OutPin, Snarl};
use graph_runtime::{Node, NodeId, PortType};

mod actions;
mod header;
mod look;
mod subgraph;

use super::command::Command;
use super::document::EditorNode;
use super::fields::{self, Names};
use super::framing::ViewChange;
use super::inputs::{InputEdit, has_input_list};
use super::search::{Fit, NodeSearch, spaced};
use super::selection::Selection;

/// The outline of selected nodes.
pub const SELECTED: Color32 = Color32::from_rgb(240, 210, 90);

/// The outline and mark of a node that holds the selected stuck agent.
pub const HOLDING: Color32 = Color32::from_rgb(245, 140, 40);

/// Room kept between a label and the edge it would otherwise touch (graph units).
const LABEL_ROOM: f32 = 3.0;

/// How much of a muted node's frame shows (it is drawn dimmed).
const MUTED_OPACITY: f32 = 0.45;

/// The viewer, borrowing what it needs from the editor for one frame. It changes nothing
/// itself: every edit becomes a [`Command`].
pub struct GraphViewer<'a> {
    /// Names for the pickers.
    pub names: &'a Names,
    /// Problems by node.
    pub errors: &'a BTreeMap<NodeId, Vec<String>>,
    /// Warnings by node (the graph runs without the node).
    pub warnings: &'a BTreeMap<NodeId, Vec<String>>,
    /// The editor's selection (drawn with a yellow outline).
    pub selection: &'a Selection,
    /// What the user asked for this frame.
    pub commands: &'a mut Vec<Command>,
    /// The search shown in the menus.
    pub search: &'a mut NodeSearch,
    /// Framing and wheel zoom to apply to the canvas transform.
    pub view: &'a mut ViewChange,
    /// The canvas transform (graph to screen) used this frame.
    pub transform: Option<TSTransform>,
    /// The selected preview agent's evaluation: live values on the nodes.
    pub live: Option<&'a graph_runtime::Trace>,
    /// The nodes that hold the selected (stuck) agent, with what they do: marked in orange.
    pub holding: &'a BTreeMap<NodeId, String>,
    /// The subgraph files the graph uses.
    pub subgraphs: super::document::SubgraphView<'a>,
    /// Each node's rectangle (graph space) as drawn this frame.
    pub rects: &'a mut Vec<(NodeId, egui::Rect)>,
}

impl SnarlViewer<EditorNode> for GraphViewer<'_> {
    fn title(&mut self, node: &EditorNode) -> String {
        let muted = if node.muted { "  (muted)" } else { "" };
        format!("{} {}{muted}", spaced(node.node.kind().name()), node.id)
    }

    fn node_frame(
        &mut self,
        default: egui::Frame,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        snarl: &Snarl<EditorNode>,
    ) -> egui::Frame {
        let Some(id) = Self::id(snarl, node) else {
            return default;
        };
        let muted = snarl.get_node(node).is_some_and(|data| data.muted);
        let frame = if muted {
            default.multiply_with_opacity(MUTED_OPACITY)
        } else {
            default
        };
        let frame = if snarl
            .get_node(node)
            .is_some_and(|data| look::is_reroute(&data.node))
        {
            look::reroute_frame(frame)
        } else {
            frame
        };
        if self.selection.contains(id) {
            frame.stroke(Stroke::new(2.5, SELECTED))
        } else if self.errors.contains_key(&id) {
            frame.stroke(Stroke::new(2.0, Color32::from_rgb(230, 60, 60)))
        } else if self.holding.contains_key(&id) {
            frame.stroke(Stroke::new(2.5, HOLDING))
        } else if self.warnings.contains_key(&id) {
            frame.stroke(Stroke::new(2.0, super::panels::WARNING_COLOR))
        } else {
            frame
        }
    }

    fn header_frame(
        &mut self,
        default: egui::Frame,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        snarl: &Snarl<EditorNode>,
    ) -> egui::Frame {
        if snarl
            .get_node(node)
            .is_some_and(|data| look::is_reroute(&data.node))
        {
            // The dot sits on the node's own body, not on a title bar.
            egui::Frame::NONE.inner_margin(egui::Margin::symmetric(4, 1))
        } else {
            default
        }
    }

    fn has_node_style(
        &mut self,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        snarl: &Snarl<EditorNode>,
    ) -> bool {
        snarl
            .get_node(node)
            .is_some_and(|data| data.muted || look::is_reroute(&data.node))
    }

    /// A muted node's text and widgets fade, so it reads as switched off; a Reroute is a dot
    /// without the fold triangle.
    fn apply_node_style(
        &mut self,
        style: &mut egui::Style,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        snarl: &Snarl<EditorNode>,
    ) {
        let Some(data) = snarl.get_node(node) else {
            return;
        };
        if look::is_reroute(&data.node) {
            look::reroute_style(style);
        }
        if !data.muted {
            return;
        }
        style.visuals.override_text_color = Some(style.visuals.weak_text_color());
        style.visuals.widgets.inactive.weak_bg_fill = style
            .visuals
            .widgets
            .inactive
            .weak_bg_fill
            .gamma_multiply(MUTED_OPACITY);
    }

    fn show_header(
        &mut self,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) {
        self.header(node, ui, snarl);
    }

    fn inputs(&mut self, node: &EditorNode) -> usize {
        node.node.inputs().len()
    }

    fn outputs(&mut self, node: &EditorNode) -> usize {
        usize::from(!matches!(node.node, Node::Output { .. }))
    }

    fn show_input(
        &mut self,
        pin: &InPin,
        ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) -> impl egui_snarl::ui::SnarlPin + 'static {
        self.input_row(pin, ui, snarl)
    }

    fn show_output(
        &mut self,
        pin: &OutPin,
        ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) -> impl egui_snarl::ui::SnarlPin + 'static {
        let is_reroute = snarl
            .get_node(pin.id.node)
            .is_some_and(|n| look::is_reroute(&n.node));
        let output = snarl
            .get_node(pin.id.node)
            .map(|n| super::mirror::output_type(snarl, n.id).ok_or_else(|| n.node.kind().output()));
        match output {
            // A Reroute's pins carry no label: it is a dot on the wire.
            Some(Ok(output)) if is_reroute => look::pin(output),
            Some(Ok(output)) => {
                ui.label(look::output_label(output))
                    .on_hover_text(format!("Gives a {output}"));
                // Room before the pin, so the label's last letter is never under it.
                ui.add_space(LABEL_ROOM);
                look::pin(output)
            }
            // An unconnected Reroute: it passes on whatever it will be given.
            Some(Err(kind)) => look::pin(kind),
            None => look::pin(PortType::Steering),
        }
    }

    fn has_body(&mut self, node: &EditorNode) -> bool {
        !matches!(
            node.node,
            Node::Output { .. } | Node::Speed | Node::Reroute { .. }
        )
    }

    fn show_body(
        &mut self,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) {
        let Some(data) = snarl.get_node(node) else {
            return;
        };
        let (id, names) = (data.id, self.names);
        // One field per row, so a node stays narrow however many fields it has; a little room
        // at the left, where the body meets the node's clip (a first letter drawn a fraction
        // of a pixel out of it, zoomed out, was lost).
        ui.add_space(LABEL_ROOM);
        ui.push_id(id.0, |ui| {
            ui.vertical(|ui| {
                ui.set_max_width(260.0);
                if matches!(data.node, Node::Subgraph { .. }) {
                    self.subgraph_body(ui, id, &data.node);
                    return;
                }
                self.edit_node(ui, id, &data.node, |ui, node| {
                    fields::node_fields(ui, node, names)
                });
                if has_input_list(&data.node) && ui.small_button("+ input").clicked() {
                    self.commands.push(Command::EditInputs(id, InputEdit::Add));
                }
            })
        });
    }

    fn has_on_hover_popup(&mut self, node: &EditorNode) -> bool {
        self.errors.contains_key(&node.id) || self.warnings.contains_key(&node.id)
    }

    fn show_on_hover_popup(
        &mut self,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) {
        let Some(id) = Self::id(snarl, node) else {
            return;
        };
        for message in self.errors.get(&id).into_iter().flatten() {
            ui.colored_label(Color32::from_rgb(230, 80, 80), message);
        }
        for message in self.warnings.get(&id).into_iter().flatten() {
            ui.colored_label(super::panels::WARNING_COLOR, message);
        }
    }

    fn has_graph_menu(&mut self, _pos: Pos2, _snarl: &mut Snarl<EditorNode>) -> bool {
        true
    }

    fn show_graph_menu(&mut self, pos: Pos2, ui: &mut Ui, snarl: &mut Snarl<EditorNode>) {
        ui.label("Add node");
        if let Some(kind) = self.search.ui(ui, Fit::Any) {
            self.add(kind, pos, None, snarl);
            ui.close();
        }
    }

    fn has_dropped_wire_menu(
        &mut self,
        _src_pins: AnyPins,
        _snarl: &mut Snarl<EditorNode>,
    ) -> bool {
        true
    }

    fn show_dropped_wire_menu(
        &mut self,
        pos: Pos2,
        ui: &mut Ui,
        src_pins: AnyPins,
        snarl: &mut Snarl<EditorNode>,
    ) {
        let fit = match &src_pins {
            AnyPins::Out(outputs) => outputs
                .first()
                .and_then(|o| snarl.get_node(o.node))
                .and_then(|n| super::mirror::output_type(snarl, n.id))
                .map_or(Fit::Any, Fit::InputAccepting),
            AnyPins::In(inputs) => inputs
                .first()
                .and_then(|i| Self::port(snarl, *i))
                .map_or(Fit::Any, |(_, accepts)| Fit::OutputOf(accepts)),
        };
        ui.label("Add and connect");
        if let Some(kind) = self.search.ui(ui, fit) {
            self.add(kind, pos, Some(&src_pins), snarl);
            ui.close();
        }
    }

    fn has_node_menu(&mut self, _node: &EditorNode) -> bool {
        true
    }

    fn show_node_menu(
        &mut self,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) {
        self.node_menu(node, ui, snarl);
    }

    fn connect(&mut self, from: &OutPin, to: &InPin, snarl: &mut Snarl<EditorNode>) {
        if let (Some(from), Some(to_id)) =
            (Self::id(snarl, from.id.node), Self::id(snarl, to.id.node))
        {
            self.commands.push(Command::Connect {
                from,
                to: to_id,
                input: to.id.input,
            });
        }
    }

    fn disconnect(&mut self, _from: &OutPin, to: &InPin, snarl: &mut Snarl<EditorNode>) {
        GraphViewer::disconnect(self, to.id, snarl);
    }

    fn drop_inputs(&mut self, pin: &InPin, snarl: &mut Snarl<EditorNode>) {
        GraphViewer::disconnect(self, pin.id, snarl);
    }

    fn drop_outputs(&mut self, pin: &OutPin, snarl: &mut Snarl<EditorNode>) {
        for to in pin.remotes.clone() {
            GraphViewer::disconnect(self, to, snarl);
        }
    }

    fn final_node_rect(
        &mut self,
        node: SnarlId,
        rect: egui::Rect,
        _ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) {
        if let Some(id) = Self::id(snarl, node) {
            self.rects.push((id, rect));
        }
    }

    fn current_transform(&mut self, to_global: &mut TSTransform, _snarl: &mut Snarl<EditorNode>) {
        self.view.apply(to_global);
        self.transform = Some(*to_global);
    }
}
