//! The node widget's viewer: how each node, pin and menu looks and what editing it does. All
//! per-node UI decisions live here (egui-snarl's `SnarlViewer`).

use std::collections::BTreeMap;

use egui::{Color32, Pos2, Stroke, Ui, emath::TSTransform};
use egui_snarl::ui::{AnyPins, PinInfo, PinShape, SnarlViewer};
use egui_snarl::{InPin, InPinId, NodeId as SnarlId, OutPin, OutPinId, Snarl};
use graph_runtime::{Link, Node, NodeId, NodeKind, PortType, Slot};

use super::document::{EditorNode, add_node, rebuild_wires};
use super::fields::{self, Names};
use super::inputs::{InputEdit, has_input_list};
use super::search::{Fit, NodeSearch, spaced};

/// The color of wires and pins carrying `port`.
pub fn port_color(port: PortType) -> Color32 {
    match port {
        PortType::Steering => Color32::from_rgb(236, 150, 52),
        PortType::Scalar => Color32::from_rgb(90, 190, 120),
        PortType::Condition => Color32::from_rgb(150, 120, 235),
    }
}

fn pin(port: PortType) -> PinInfo {
    let shape = match port {
        PortType::Steering => PinShape::Circle,
        PortType::Scalar => PinShape::Square,
        PortType::Condition => PinShape::Triangle,
    };
    PinInfo::default()
        .with_shape(shape)
        .with_fill(port_color(port))
        .with_wire_color(port_color(port))
}

/// Something the viewer asks the editor to do after the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeAction {
    /// Delete this node.
    Delete(SnarlId),
    /// Duplicate this node.
    Duplicate(SnarlId),
    /// Show this node in the side panel.
    Inspect(NodeId),
}

/// The viewer, borrowing what it needs from the editor for one frame.
pub struct GraphViewer<'a> {
    /// Names for the pickers.
    pub names: &'a Names,
    /// Problems by node.
    pub errors: &'a BTreeMap<NodeId, Vec<String>>,
    /// The node shown in the side panel.
    pub inspected: Option<NodeId>,
    /// A message for the status bar (a refused connection, say).
    pub message: &'a mut Option<String>,
    /// The search shown in the menus.
    pub search: &'a mut NodeSearch,
    /// List edits to apply after the frame.
    pub input_edits: &'a mut Vec<(SnarlId, InputEdit)>,
    /// Node actions to apply after the frame.
    pub actions: &'a mut Vec<NodeAction>,
    /// A graph-space rectangle to frame, and the widget's screen rectangle.
    pub frame: Option<(egui::Rect, egui::Rect)>,
    /// Whether anything was edited this frame.
    pub changed: bool,
    /// The canvas transform (graph to screen) used this frame.
    pub transform: Option<TSTransform>,
    /// The selected preview agent's evaluation: live values on the nodes.
    pub live: Option<&'a graph_runtime::Trace>,
}

impl GraphViewer<'_> {
    /// The canvas transform seen this frame.
    pub fn take_transform(&mut self) -> Option<TSTransform> {
        self.transform.take()
    }

    /// Connects the output of `from` into input `input` of `to` (the rule of a dragged wire).
    pub fn try_connect_pins(
        &mut self,
        from: SnarlId,
        to: SnarlId,
        input: usize,
        snarl: &mut Snarl<EditorNode>,
    ) -> bool {
        self.try_connect(
            OutPinId {
                node: from,
                output: 0,
            },
            InPinId { node: to, input },
            snarl,
        )
    }

    fn port(snarl: &Snarl<EditorNode>, pin: InPinId) -> Option<(Slot, PortType, Link)> {
        let node = snarl.get_node(pin.node)?;
        let port = *node.node.inputs().get(pin.input)?;
        Some((port.slot, port.accepts, port.link))
    }

    /// Connects `from` into `to` if the types fit; otherwise says why not.
    fn try_connect(&mut self, from: OutPinId, to: InPinId, snarl: &mut Snarl<EditorNode>) -> bool {
        let Some(source) = snarl.get_node(from.node) else {
            return false;
        };
        let (source_id, source_kind) = (source.id, source.node.kind());
        let Some((slot, accepts, _)) = Self::port(snarl, to) else {
            return false;
        };
        let found = source_kind.output();
        if found != accepts {
            let target = snarl.get_node(to.node).map(|n| (n.node.kind(), n.id));
            *self.message = Some(match target {
                Some((kind, id)) => format!(
                    "Cannot connect: {kind} {id} port `{slot}` takes a {accepts}, but {source_kind} {source_id} outputs a {found}."
                ),
                None => format!("Cannot connect: the port takes a {accepts}, not a {found}."),
            });
            return false;
        }
        if let Some(link) = snarl
            .get_node_mut(to.node)
            .and_then(|n| n.node.input_mut(slot))
        {
            *link = Link(Some(source_id));
        }
        rebuild_wires(snarl, to.node);
        self.changed = true;
        true
    }

    fn unlink(&mut self, to: InPinId, snarl: &mut Snarl<EditorNode>) {
        if let Some((slot, _, _)) = Self::port(snarl, to)
            && let Some(link) = snarl
                .get_node_mut(to.node)
                .and_then(|n| n.node.input_mut(slot))
        {
            *link = Link::NONE;
        }
        rebuild_wires(snarl, to.node);
        self.changed = true;
    }

    /// Adds a node of `kind` at `position` and, for a dropped wire, connects it.
    fn add(
        &mut self,
        kind: NodeKind,
        position: Pos2,
        wire: Option<&AnyPins<'_>>,
        snarl: &mut Snarl<EditorNode>,
    ) {
        let new = add_node(snarl, kind.instantiate(), position);
        self.changed = true;
        match wire {
            Some(AnyPins::Out(outputs)) => {
                for &from in *outputs {
                    let source_type = snarl.get_node(from.node).map(|n| n.node.kind().output());
                    let input = snarl.get_node(new).and_then(|n| {
                        n.node
                            .inputs()
                            .iter()
                            .position(|p| Some(p.accepts) == source_type)
                    });
                    if let Some(input) = input {
                        self.try_connect(from, InPinId { node: new, input }, snarl);
                    }
                }
            }
            Some(AnyPins::In(inputs)) => {
                for &to in *inputs {
                    self.try_connect(
                        OutPinId {
                            node: new,
                            output: 0,
                        },
                        to,
                        snarl,
                    );
                }
            }
            None => {}
        }
        *self.search = NodeSearch::default();
    }
}

impl SnarlViewer<EditorNode> for GraphViewer<'_> {
    fn title(&mut self, node: &EditorNode) -> String {
        format!("{} {}", spaced(node.node.kind().name()), node.id)
    }

    fn node_frame(
        &mut self,
        default: egui::Frame,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        snarl: &Snarl<EditorNode>,
    ) -> egui::Frame {
        let Some(data) = snarl.get_node(node) else {
            return default;
        };
        if self.errors.contains_key(&data.id) {
            default.stroke(Stroke::new(2.0, Color32::from_rgb(230, 60, 60)))
        } else if self.inspected == Some(data.id) {
            default.stroke(Stroke::new(2.0, Color32::from_rgb(240, 210, 90)))
        } else {
            default
        }
    }

    fn show_header(
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
        let (id, kind) = (data.id, data.node.kind());
        let title = self.title(data);
        // Snarl selects only with Shift+click; a plain click on the title selects the node
        // for the side panel, as designers expect.
        let response = ui
            .horizontal(|ui| {
                if self.live.is_some() {
                    ui.colored_label(super::preview::node_color(id), "●")
                        .on_hover_text("This node's color in the preview's guides");
                }
                let response = ui
                    .add(
                        egui::Label::new(egui::RichText::new(title).strong())
                            .sense(egui::Sense::click()),
                    )
                    .on_hover_text(kind.description());
                if let Some(entry) = self.live.and_then(|trace| trace.get(id)) {
                    ui.label(live_value(entry));
                }
                response
            })
            .inner;
        if response.clicked() {
            self.actions.push(NodeAction::Inspect(id));
        }
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
        let Some((slot, accepts, _)) = Self::port(snarl, pin.id) else {
            return pin_for(PortType::Steering);
        };
        let names = self.names;
        let Some(data) = snarl.get_node_mut(pin.id.node) else {
            return pin_for(accepts);
        };
        let list = has_input_list(&data.node);
        match slot.index {
            Some(index) => {
                ui.label(format!("{}", index + 1));
                let weight_slot = match data.node {
                    Node::Blend { .. } => Some(Slot::item("weight", index)),
                    Node::Dither { .. } => Some(Slot::item("probability", index)),
                    _ => None,
                };
                if let Some(weight_slot) = weight_slot {
                    let constraint = data
                        .node
                        .numbers()
                        .iter()
                        .find(|f| f.slot == weight_slot)
                        .map_or(graph_runtime::Constraint::Finite, |f| f.constraint);
                    if let Some(number) = data.node.number_mut(weight_slot) {
                        self.changed |= fields::number(ui, weight_slot, number, constraint, names);
                    }
                }
                if list {
                    if index > 0
                        && ui
                            .small_button("⬆")
                            .on_hover_text("Raise priority")
                            .clicked()
                    {
                        self.input_edits
                            .push((pin.id.node, InputEdit::MoveUp(index)));
                    }
                    if ui
                        .small_button("×")
                        .on_hover_text("Remove this input")
                        .clicked()
                    {
                        self.input_edits
                            .push((pin.id.node, InputEdit::Remove(index)));
                    }
                }
            }
            None => {
                ui.label(slot.name);
            }
        }
        pin_for(accepts)
    }

    fn show_output(
        &mut self,
        pin: &OutPin,
        ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) -> impl egui_snarl::ui::SnarlPin + 'static {
        let output = snarl
            .get_node(pin.id.node)
            .map_or(PortType::Steering, |n| n.node.kind().output());
        ui.label(output.to_string());
        pin_for(output)
    }

    fn has_body(&mut self, node: &EditorNode) -> bool {
        !matches!(node.node, Node::Output { .. } | Node::Speed)
    }

    fn show_body(
        &mut self,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) {
        let names = self.names;
        let Some(data) = snarl.get_node_mut(node) else {
            return;
        };
        let id = data.id;
        ui.push_id(data.id.0, |ui| {
            ui.set_max_width(260.0);
            if fields::node_fields(ui, &mut data.node, names) {
                self.changed = true;
                self.actions.push(NodeAction::Inspect(id));
            }
            if has_input_list(&data.node) && ui.small_button("+ input").clicked() {
                self.input_edits.push((node, InputEdit::Add));
            }
        });
    }

    fn has_on_hover_popup(&mut self, node: &EditorNode) -> bool {
        self.errors.contains_key(&node.id)
    }

    fn show_on_hover_popup(
        &mut self,
        node: SnarlId,
        _inputs: &[InPin],
        _outputs: &[OutPin],
        ui: &mut Ui,
        snarl: &mut Snarl<EditorNode>,
    ) {
        let Some(id) = snarl.get_node(node).map(|n| n.id) else {
            return;
        };
        for message in self.errors.get(&id).into_iter().flatten() {
            ui.colored_label(Color32::from_rgb(230, 80, 80), message);
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
                .map_or(Fit::Any, |n| Fit::InputAccepting(n.node.kind().output())),
            AnyPins::In(inputs) => inputs
                .first()
                .and_then(|i| Self::port(snarl, *i))
                .map_or(Fit::Any, |(_, accepts, _)| Fit::OutputOf(accepts)),
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
        let Some(id) = snarl.get_node(node).map(|n| n.id) else {
            return;
        };
        if ui.button("Inspect").clicked() {
            self.actions.push(NodeAction::Inspect(id));
            ui.close();
        }
        if ui.button("Duplicate  (Ctrl+D)").clicked() {
            self.actions.push(NodeAction::Duplicate(node));
            ui.close();
        }
        if ui.button("Delete  (Del)").clicked() {
            self.actions.push(NodeAction::Delete(node));
            ui.close();
        }
    }

    fn connect(&mut self, from: &OutPin, to: &InPin, snarl: &mut Snarl<EditorNode>) {
        self.try_connect(from.id, to.id, snarl);
    }

    fn disconnect(&mut self, _from: &OutPin, to: &InPin, snarl: &mut Snarl<EditorNode>) {
        self.unlink(to.id, snarl);
    }

    fn drop_inputs(&mut self, pin: &InPin, snarl: &mut Snarl<EditorNode>) {
        self.unlink(pin.id, snarl);
    }

    fn drop_outputs(&mut self, pin: &OutPin, snarl: &mut Snarl<EditorNode>) {
        for to in pin.remotes.clone() {
            self.unlink(to, snarl);
        }
    }

    fn current_transform(&mut self, to_global: &mut TSTransform, _snarl: &mut Snarl<EditorNode>) {
        if let Some((graph_rect, screen_rect)) = self.frame.take() {
            let scale = (screen_rect.size() / graph_rect.size().max(egui::vec2(1.0, 1.0)))
                .min_elem()
                .clamp(0.3, 1.2);
            let translation =
                screen_rect.center().to_vec2() - graph_rect.center().to_vec2() * scale;
            *to_global = TSTransform::new(translation, scale);
        }
        self.transform = Some(*to_global);
    }
}

/// The live value shown on a node for the selected agent.
fn live_value(entry: &graph_runtime::TraceEntry) -> egui::RichText {
    let text = match entry.value {
        graph_runtime::NodeValue::Force(force) => match entry.chosen {
            Some(input) => format!("|F| {:.2} ← {}", force.length(), input + 1),
            None => format!("|F| {:.2}", force.length()),
        },
        graph_runtime::NodeValue::Scalar(value) => format!("= {value:.2}"),
        graph_runtime::NodeValue::Condition(holds) => {
            if holds { "✔ holds" } else { "✘ fails" }.to_owned()
        }
    };
    egui::RichText::new(text)
        .color(Color32::from_rgb(140, 210, 255))
        .small()
}

fn pin_for(port: PortType) -> PinInfo {
    pin(port)
}
