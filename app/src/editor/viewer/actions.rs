//! What the viewer's widgets do: each edit becomes a [`Command`].

use egui::{Pos2, Ui};
use egui_snarl::ui::AnyPins;
use egui_snarl::{InPinId, NodeId as SnarlId, Snarl};
use graph_runtime::{Node, NodeId, NodeKind, PortType, Slot};

use super::GraphViewer;
use crate::editor::command::{Command, Wire};
use crate::editor::document::EditorNode;
use crate::editor::search::NodeSearch;

impl GraphViewer<'_> {
    /// The node's right-click menu: mute, copy, duplicate, delete, collapse into a subgraph.
    pub(super) fn node_menu(&mut self, node: SnarlId, ui: &mut Ui, snarl: &Snarl<EditorNode>) {
        let Some(id) = Self::id(snarl, node) else {
            return;
        };
        // The menu acts on the node it was opened on (selecting it, as in other editors).
        let select = Command::Select {
            nodes: vec![id],
            add: self.selection.contains(id),
        };
        let mute = if snarl.get_node(node).is_some_and(|data| data.muted) {
            "Unmute  (M)"
        } else {
            "Mute  (M)"
        };
        for (label, command) in [
            (mute, Command::ToggleMute),
            ("Copy  (Ctrl+C)", Command::Copy),
            ("Duplicate  (Ctrl+D)", Command::Duplicate),
            ("Delete  (Del)", Command::Delete),
            ("Collapse into subgraph…", Command::CollapseToSubgraph),
        ] {
            if ui.button(label).clicked() {
                self.commands.push(select.clone());
                self.commands.push(command);
                ui.close();
            }
        }
    }

    pub(super) fn port(snarl: &Snarl<EditorNode>, pin: InPinId) -> Option<(Slot, PortType)> {
        let node = snarl.get_node(pin.node)?;
        let port = *node.node.inputs().get(pin.input)?;
        Some((port.slot, port.accepts))
    }

    pub(super) fn id(snarl: &Snarl<EditorNode>, node: SnarlId) -> Option<NodeId> {
        snarl.get_node(node).map(|n| n.id)
    }

    pub(super) fn disconnect(&mut self, to: InPinId, snarl: &Snarl<EditorNode>) {
        if let Some(to_id) = Self::id(snarl, to.node) {
            self.commands.push(Command::Disconnect {
                to: to_id,
                input: to.input,
            });
        }
    }

    /// Adds a node of `kind` at `position`, wired to a dropped wire if any.
    pub(super) fn add(
        &mut self,
        kind: NodeKind,
        at: Pos2,
        pins: Option<&AnyPins<'_>>,
        snarl: &Snarl<EditorNode>,
    ) {
        let wire = match pins {
            Some(AnyPins::Out(outputs)) => outputs
                .first()
                .and_then(|o| Self::id(snarl, o.node))
                .map(Wire::FromOutput),
            Some(AnyPins::In(inputs)) => inputs
                .first()
                .and_then(|i| Self::id(snarl, i.node).map(|id| Wire::IntoInput(id, i.input))),
            None => None,
        };
        self.commands.push(Command::AddNode { kind, at, wire });
        *self.search = NodeSearch::default();
    }

    /// Edits a copy of a node's fields; a change becomes a `SetNode` command.
    pub(super) fn edit_node(
        &mut self,
        ui: &mut Ui,
        id: NodeId,
        node: &Node,
        edit: impl FnOnce(&mut Ui, &mut Node) -> bool,
    ) {
        let mut copy = node.clone();
        if edit(ui, &mut copy) {
            self.commands.push(Command::SetNode(id, copy));
            if self.selection.primary() != Some(id) {
                self.commands.push(Command::Select {
                    nodes: vec![id],
                    add: false,
                });
            }
        }
    }
}
