//! The graph-editing half of [`EditorApp::apply`]: undo, clipboard, selection, nodes and
//! wires. Every change goes through the document's own methods.

use egui::Pos2;
use graph_runtime::{Comment, NodeId};

use super::arrange::{self, Arrange};
use super::command::{Command, Wire};
use super::effect::Effect;
use super::history::Doc;
use super::placement;
use super::{EditorApp, clipboard, plural};

/// Offset of pasted and duplicated nodes from the originals (editor units).
const PASTE_OFFSET: egui::Vec2 = egui::vec2(40.0, 40.0);

impl EditorApp {
    /// The graph-editing commands.
    pub(super) fn apply_edit(&mut self, command: Command) {
        match command {
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::Copy => {
                self.copy_selection();
            }
            Command::Cut if self.copy_selection() => self.delete_selection(),
            Command::RequestPaste => self.effects.push(Effect::RequestPaste),
            Command::Paste { text, at } => self.paste(&text, at),
            Command::Duplicate => self.duplicate(),
            Command::ToggleMute => self.toggle_mute(),
            Command::Delete => self.delete_selection(),
            Command::SelectAll => {
                let all: Vec<NodeId> = self.workspace.document.node_ids().collect();
                self.workspace.selection.set(all);
            }
            Command::DeselectAll => self.workspace.selection.clear(),
            Command::Select { nodes, add } => {
                if !add {
                    self.workspace.selection.clear();
                }
                for node in nodes
                    .into_iter()
                    .filter(|n| self.workspace.document.contains(*n))
                {
                    self.workspace.selection.add(node);
                }
            }
            Command::CommentAroundSelection => self.comment_around_selection(),
            Command::Arrange(how) => self.arrange(how),
            Command::Frame(nodes) => self.view.canvas.frame(nodes),
            Command::AddNode { kind, at, wire } => self.add_node(kind, at, wire),
            Command::Connect { from, to, input } => self.connect(from, to, input),
            Command::Disconnect { to, input } => self.workspace.document.disconnect(to, input),
            Command::SetNode(id, node) => {
                self.workspace.document.set_node(id, node);
            }
            Command::EditInputs(id, edit) => {
                self.workspace.document.edit_inputs(id, edit);
            }
            Command::OpenSearch(at) => self.view.canvas.open_search(at),
            Command::SetParameter(name, value) => {
                let parameters = &mut self.workspace.document.parameters;
                match value {
                    Some(value) => {
                        parameters.insert(name, value);
                    }
                    None => {
                        parameters.remove(&name);
                    }
                }
            }
            Command::RemoveParameter(name) => {
                let uses = super::panels::parameter_uses(&self.workspace.document, &name);
                if uses.is_empty() {
                    self.workspace.document.parameters.remove(&name);
                    self.status.set(format!("Removed parameter {name}"));
                } else {
                    self.view.dialog = Some(super::Dialog::RemoveParameter { name, uses });
                }
            }
            Command::RenameParameter { old, new }
                if !super::panels::rename_parameter(&mut self.workspace.document, &old, &new) =>
            {
                self.status.set(format!(
                    "Cannot rename {old}: {new} is already a parameter."
                ));
            }
            Command::SetVehicle(vehicle) => self.workspace.document.vehicle = vehicle,
            Command::SetTurning(turning) => self.workspace.document.turning = turning,
            Command::SetDescription(text) => self.workspace.document.description = text,
            Command::SetComments(comments) => self.workspace.document.comments = comments,
            _ => {}
        }
    }

    /// Records finished changes of the graph and the scene as undo steps, in the order made.
    pub fn record_changes(&mut self) {
        if self.workspace.document.record() {
            self.workspace.timeline.record(Doc::Graph);
        }
        if self.workspace.scene.record() {
            self.workspace.timeline.record(Doc::Scene);
        }
    }

    /// Undoes the last change, to the graph or to the scene.
    pub fn undo(&mut self) {
        self.record_changes();
        match self.workspace.timeline.undo() {
            Some(Doc::Graph) => {
                self.workspace.document.undo();
                self.after_structure_change();
            }
            Some(Doc::Scene) => _ = self.workspace.scene.undo(),
            None => self.status.set("Nothing to undo"),
        }
        self.undo_fork();
    }

    /// Redoes the last undone change.
    pub fn redo(&mut self) {
        self.record_changes();
        match self.workspace.timeline.redo() {
            Some(Doc::Graph) => {
                self.workspace.document.redo();
                self.after_structure_change();
            }
            Some(Doc::Scene) => _ = self.workspace.scene.redo(),
            None => self.status.set("Nothing to redo"),
        }
    }

    /// Nodes may have gone: the selection keeps only what exists, and the node widget forgets
    /// its own selection (its ids may now name other nodes).
    pub(super) fn after_structure_change(&mut self) {
        let document = &self.workspace.document;
        self.workspace.selection.retain(|id| document.contains(id));
        self.view.canvas.forget_widget_state();
    }

    /// Puts the selection on the clipboard; returns whether there was anything to copy.
    fn copy_selection(&mut self) -> bool {
        match self.workspace.copy_text() {
            Some(text) => {
                self.effects.push(Effect::CopyText(text));
                self.status.set(format!(
                    "Copied {}",
                    plural(self.workspace.selection.len(), "node")
                ));
                true
            }
            None => {
                self.status.set("Select nodes to copy them.");
                false
            }
        }
    }

    fn paste(&mut self, text: &str, at: Option<Pos2>) {
        let at = at.unwrap_or_else(|| {
            self.workspace
                .document
                .bounds_of(self.workspace.selection.nodes())
                .map_or(Pos2::ZERO, |r| r.min + PASTE_OFFSET)
        });
        match clipboard::paste(&mut self.workspace.document, text, at) {
            Ok(added) => {
                self.status
                    .set(format!("Pasted {}", plural(added.len(), "node")));
                self.workspace.selection.set(added);
            }
            Err(error) => self
                .status
                .set(format!("The clipboard holds no Steergraph nodes: {error}")),
        }
    }

    fn duplicate(&mut self) {
        match self.workspace.copy_text() {
            Some(text) => self.paste(&text, None),
            None => self.status.set("Select nodes to duplicate them."),
        }
    }

    fn toggle_mute(&mut self) {
        let nodes = self.workspace.selection.nodes().to_vec();
        match self.workspace.document.toggle_mute(&nodes) {
            Some(muted) => {
                let verb = if muted { "Muted" } else { "Unmuted" };
                self.status
                    .set(format!("{verb} {}", plural(nodes.len(), "node")));
            }
            None if nodes.is_empty() => self.status.set("Select nodes to mute them (M)."),
            None => self.status.set("The Output cannot be muted."),
        }
    }

    fn delete_selection(&mut self) {
        if self.workspace.selection.is_empty() {
            self.status.set("Select nodes to delete them.");
            return;
        }
        let removed = self
            .workspace
            .document
            .remove_nodes(self.workspace.selection.nodes());
        self.workspace.selection.clear();
        self.after_structure_change();
        self.status
            .set(format!("Deleted {}", plural(removed, "node")));
    }

    /// Aligns, distributes or tidies the selection (Tidy with fewer than two: every node),
    /// by the nodes' drawn sizes; one undo step.
    fn arrange(&mut self, how: Arrange) {
        let selected = self.workspace.selection.nodes().to_vec();
        let nodes: Vec<NodeId> = if how == Arrange::Tidy && selected.len() < 2 {
            self.workspace.document.node_ids().collect()
        } else {
            selected
        };
        if nodes.len() < how.needs() {
            self.status.set(format!(
                "Select at least {} to {}.",
                plural(how.needs(), "node"),
                how.label().to_lowercase()
            ));
            return;
        }
        let rects: Vec<(NodeId, egui::Rect)> = self
            .view
            .canvas
            .drawn_rects()
            .iter()
            .filter(|(id, _)| nodes.contains(id))
            .copied()
            .collect();
        let moves: Vec<(NodeId, egui::Vec2)> =
            arrange::arranged(how, &rects, &self.workspace.document.wires())
                .into_iter()
                .filter_map(|(id, to)| {
                    let (_, from) = rects.iter().find(|(i, _)| *i == id)?;
                    Some((id, to - from.min))
                })
                .collect();
        self.workspace.document.shift_nodes(&moves);
        self.status.set(format!(
            "{}: moved {}",
            how.label().trim_end_matches("  (L)"),
            plural(moves.len(), "node")
        ));
    }

    fn add_node(&mut self, kind: graph_runtime::NodeKind, at: Pos2, wire: Option<Wire>) {
        let node = kind.instantiate();
        // Clear of the other nodes and wholly in view (not under a panel).
        let at = self
            .view
            .canvas
            .clear_spot(at, placement::estimated_size(&node));
        let id = self.workspace.document.add_node(node, at);
        match wire {
            Some(Wire::FromOutput(source)) => {
                let source_type =
                    super::mirror::output_type(&self.workspace.document.snarl, source);
                let input = self.workspace.document.node(id).and_then(|n| {
                    if matches!(n, graph_runtime::Node::Reroute { .. }) {
                        // A Reroute takes whatever comes.
                        return Some(0);
                    }
                    n.inputs()
                        .iter()
                        .position(|p| Some(p.accepts) == source_type)
                });
                if let Some(input) = input {
                    self.connect(source, id, input);
                }
            }
            Some(Wire::IntoInput(target, input)) => self.connect(id, target, input),
            None => {}
        }
        self.workspace.selection = super::Selection::only(id);
    }

    fn connect(&mut self, from: NodeId, to: NodeId, input: usize) {
        if let Err(refused) = self.workspace.document.connect(from, to, input) {
            self.status.set(refused.to_string());
        }
    }

    fn comment_around_selection(&mut self) {
        let nodes = self.workspace.selection.nodes();
        let Some(rect) = self
            .view
            .canvas
            .drawn_bounds(nodes)
            .or_else(|| self.workspace.document.bounds_of(nodes))
            .filter(|_| !self.workspace.selection.is_empty())
        else {
            self.status
                .set("Select nodes to put a comment around them.");
            return;
        };
        let rect = rect.expand(24.0);
        self.workspace.document.comments.push(Comment {
            text: "Comment".to_owned(),
            position: glam::Vec2::new(rect.min.x, rect.min.y - 24.0),
            size: glam::Vec2::new(rect.width(), rect.height() + 24.0),
        });
    }
}
