//! Wiring the open graph: connecting an output into an input when the types fit,
//! disconnecting, and editing a combiner's list of inputs.

use graph_runtime::{Link, NodeId, Slot};

use super::super::inputs::{self, InputEdit};
use super::super::mirror::{self, rebuild_wires};
use super::{Document, Refused};

impl Document {
    /// Connects the output of `from` into input `input` of `to`, if the types fit.
    pub fn connect(&mut self, from: NodeId, to: NodeId, input: usize) -> Result<(), Refused> {
        let source_kind = self.node(from).ok_or(Refused::NoNode(from))?.kind();
        if matches!(source_kind, graph_runtime::NodeKind::Output) {
            return Err(Refused::FromOutput(from));
        }
        let target = self.node(to).ok_or(Refused::NoNode(to))?;
        let target_kind = target.kind();
        let port = *target.inputs().get(input).ok_or(Refused::NoInput {
            node: to,
            kind: target_kind,
            input,
        })?;
        // A Reroute takes any type, and one whose own input is unconnected gives any type;
        // the compiler checks what finally flows through.
        let through = mirror::output_type(&self.snarl, from);
        let found = through.unwrap_or(source_kind.output());
        let any = matches!(target_kind, graph_runtime::NodeKind::Reroute) || through.is_none();
        if !any && found != port.accepts {
            return Err(Refused::Mismatch {
                target: to,
                target_kind,
                slot: port.slot,
                accepts: port.accepts,
                from,
                from_kind: source_kind,
                found,
            });
        }
        self.set_link(to, port.slot, Link(Some(from)));
        Ok(())
    }

    /// Leaves input `input` of `to` unconnected.
    pub fn disconnect(&mut self, to: NodeId, input: usize) {
        let slot = self
            .node(to)
            .and_then(|n| n.inputs().get(input).map(|p| p.slot));
        if let Some(slot) = slot {
            self.set_link(to, slot, Link::NONE);
        }
    }

    fn set_link(&mut self, to: NodeId, slot: Slot, link: Link) {
        let Some(snarl_id) = self.snarl_id(to) else {
            return;
        };
        if let Some(target) = self
            .snarl
            .get_node_mut(snarl_id)
            .and_then(|n| n.node.input_mut(slot))
        {
            *target = link;
        }
        rebuild_wires(&mut self.snarl, snarl_id);
    }

    /// Applies a list edit (add, remove, raise an input) to node `id`.
    pub fn edit_inputs(&mut self, id: NodeId, edit: InputEdit) -> bool {
        let Some(snarl_id) = self.snarl_id(id) else {
            return false;
        };
        let changed = self
            .snarl
            .get_node_mut(snarl_id)
            .is_some_and(|data| inputs::apply(&mut data.node, edit));
        if changed {
            rebuild_wires(&mut self.snarl, snarl_id);
        }
        changed
    }
}
