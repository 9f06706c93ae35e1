//! The open graph: the node widget's mirror of graph-runtime's [`Graph`], the graph-level
//! data, the file it came from, its undo history and the latest compile result.
//!
//! Every structural edit (add, remove, connect, replace a node) goes through a method here,
//! so the node viewer, the side panel and tests follow the same rules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use egui::Pos2;
use egui_snarl::{NodeId as SnarlId, Snarl};
use graph_runtime::{
    Comment, CompileError, CompileWarning, EditorSection, Graph, Link, Node, NodeId, Program,
    TurningSpec, VehicleSpec,
};

mod refused;
mod subgraphs;
mod wiring;

pub use refused::Refused;
pub use subgraphs::SubgraphView;

use super::history::History;
pub use super::mirror::EditorNode;
use super::mirror::{self, rebuild_wires};

/// The open graph and everything the editor keeps about it.
pub struct Document {
    /// The node widget's data.
    pub snarl: Snarl<EditorNode>,
    /// Graph description.
    pub description: String,
    /// Graph parameters and defaults.
    pub parameters: BTreeMap<String, f32>,
    /// Vehicle limits.
    pub vehicle: VehicleSpec,
    /// How the vehicle turns.
    pub turning: TurningSpec,
    /// Comment frames.
    pub comments: Vec<Comment>,
    /// Where the graph is saved, if anywhere.
    pub path: Option<PathBuf>,
    history: History<Graph>,
    /// The graph as last compiled (without layout) and the result.
    compiled_graph: Option<Graph>,
    compiled: Result<Arc<Program>, Vec<CompileError>>,
    /// What compiles but runs nothing (nodes the Output does not reach), from the last compile.
    warnings: Vec<CompileWarning>,
    revision: u64,
    /// The subgraph files the graph uses, read from beside its file.
    subgraphs: graph_runtime::Subgraphs,
}

impl Document {
    /// A document showing `graph`, saved at `path` (or nowhere).
    pub fn new(graph: &Graph, path: Option<PathBuf>) -> Self {
        let mut document = Self {
            snarl: Snarl::new(),
            description: String::new(),
            parameters: BTreeMap::new(),
            vehicle: VehicleSpec::default(),
            turning: TurningSpec::default(),
            comments: Vec::new(),
            path,
            history: History::new(Graph::default()),
            compiled_graph: None,
            compiled: Err(Vec::new()),
            warnings: Vec::new(),
            revision: 0,
            subgraphs: graph_runtime::Subgraphs::default(),
        };
        document.show(graph);
        document.history = History::new(document.to_graph());
        document.recompile();
        document
    }

    /// Makes the live data show `graph` (history untouched); widget ids of kept nodes stay.
    fn show(&mut self, graph: &Graph) {
        self.description.clone_from(&graph.description);
        self.parameters.clone_from(&graph.parameters);
        self.vehicle = graph.vehicle.clone();
        self.turning = graph.turning.clone();
        self.comments = graph
            .editor
            .as_ref()
            .map(|e| e.comments.clone())
            .unwrap_or_default();
        mirror::sync(&mut self.snarl, graph);
    }

    /// The graph as it would be saved.
    pub fn to_graph(&self) -> Graph {
        let mut nodes = BTreeMap::new();
        let mut positions = BTreeMap::new();
        let mut muted = BTreeSet::new();
        let mut collapsed = BTreeSet::new();
        for (_, info) in self.snarl.nodes_ids_data() {
            let data = &info.value;
            nodes.insert(data.id, data.node.clone());
            positions.insert(data.id, glam::Vec2::new(info.pos.x, info.pos.y));
            if data.muted {
                muted.insert(data.id);
            }
            if !info.open {
                collapsed.insert(data.id);
            }
        }
        Graph {
            description: self.description.clone(),
            parameters: self.parameters.clone(),
            vehicle: self.vehicle.clone(),
            turning: self.turning.clone(),
            nodes,
            muted,
            editor: Some(EditorSection {
                positions,
                comments: self.comments.clone(),
                collapsed,
            }),
        }
    }

    /// Whether the graph differs from what was opened or last saved.
    pub fn is_dirty(&self) -> bool {
        self.history.is_dirty()
    }

    /// Marks the current state as what the file at `path` holds.
    pub fn mark_saved(&mut self, path: PathBuf) {
        self.record();
        self.path = Some(path);
        self.history.mark_saved();
        // Subgraph files are named from the graph's folder: a new folder may have others.
        self.recompile();
    }

    /// Shows `graph`, what the document's file holds now (another program saved it), as one
    /// undo step, and marks it saved. Returns whether that was a change.
    pub fn reload(&mut self, graph: &Graph) -> bool {
        self.record();
        self.show(graph);
        let recorded = self.record();
        self.history.mark_saved();
        recorded
    }

    /// Marks the document as differing from disk whatever it holds (recovered work).
    pub fn mark_unsaved(&mut self) {
        self.history.mark_unsaved();
    }

    /// The file name for the title bar.
    pub fn title(&self) -> String {
        self.path.as_ref().and_then(|p| p.file_name()).map_or_else(
            || "Untitled".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// The latest program, when the graph compiles.
    pub fn program(&self) -> Option<Arc<Program>> {
        self.compiled.as_ref().ok().cloned()
    }

    /// Changes whenever the graph is recompiled (to hot-swap the preview's program).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Problems of the latest compile (empty when it compiled).
    pub fn problems(&self) -> &[CompileError] {
        match &self.compiled {
            Ok(_) => &[],
            Err(errors) => errors,
        }
    }

    /// Warnings of the latest compile: nodes that feed nothing, and problems of nodes the
    /// Output does not reach (the graph runs without them).
    pub fn warnings(&self) -> &[CompileWarning] {
        &self.warnings
    }

    /// Compiles `graph` (layout aside) unless it is what was last compiled.
    fn compile_if_changed(&mut self, mut graph: Graph) {
        graph.editor = None;
        self.find_subgraphs(&graph);
        if self.compiled_graph.as_ref() != Some(&graph) {
            self.compiled = self.subgraphs.compile(&graph).map(Arc::new);
            self.warnings = graph_runtime::warnings(&graph);
            self.compiled_graph = Some(graph);
            self.revision += 1;
        }
    }

    fn recompile(&mut self) {
        self.compile_if_changed(self.history.current().clone());
    }

    /// Records the current state as one undo step if it changed, and revalidates. Call when
    /// no gesture is in progress, so a drag is one step.
    pub fn record(&mut self) -> bool {
        let recorded = self.history.record(&self.to_graph());
        if recorded {
            self.recompile();
        }
        recorded
    }

    /// Revalidates the current (unrecorded) state, for live feedback while a value is dragged.
    pub fn revalidate_live(&mut self) {
        self.compile_if_changed(self.to_graph());
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Steps back one change; returns whether there was one.
    pub fn undo(&mut self) -> bool {
        self.record();
        let Some(graph) = self.history.undo().cloned() else {
            return false;
        };
        self.show(&graph);
        self.recompile();
        true
    }

    /// Steps forward one undone change; returns whether there was one.
    pub fn redo(&mut self) -> bool {
        self.record();
        let Some(graph) = self.history.redo().cloned() else {
            return false;
        };
        self.show(&graph);
        self.recompile();
        true
    }

    /// The widget id of the node with graph id `id`.
    pub fn snarl_id(&self, id: NodeId) -> Option<SnarlId> {
        mirror::snarl_id(&self.snarl, id)
    }

    /// The graph ids of every node, in the widget's order.
    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.snarl.nodes().map(|n| n.id)
    }

    /// Whether the graph has node `id`.
    pub fn contains(&self, id: NodeId) -> bool {
        self.node_ids().any(|n| n == id)
    }

    /// The node with graph id `id`.
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.snarl.nodes().find(|n| n.id == id).map(|n| &n.node)
    }

    /// Adds `node` at `position` (graph space); returns its graph id.
    pub fn add_node(&mut self, node: Node, position: Pos2) -> NodeId {
        mirror::add_node(&mut self.snarl, node, position)
    }

    /// Replaces node `id`'s data (its links included) and redraws its wires.
    pub fn set_node(&mut self, id: NodeId, node: Node) -> bool {
        let Some(snarl_id) = self.snarl_id(id) else {
            return false;
        };
        match self.snarl.get_node_mut(snarl_id) {
            Some(data) if data.node != node => data.node = node,
            _ => return false,
        }
        rebuild_wires(&mut self.snarl, snarl_id);
        true
    }

    /// Mutes `nodes`, or unmutes them when every one is muted already; the Output is never
    /// muted (its mute would be ignored). Returns whether they are muted now, or `None` when
    /// none of them can be.
    pub fn toggle_mute(&mut self, nodes: &[NodeId]) -> Option<bool> {
        let targets: Vec<SnarlId> = nodes
            .iter()
            .filter_map(|&id| self.snarl_id(id))
            .filter(|&s| {
                self.snarl
                    .get_node(s)
                    .is_some_and(|d| !matches!(d.node, Node::Output { .. }))
            })
            .collect();
        if targets.is_empty() {
            return None;
        }
        let mute = !targets
            .iter()
            .all(|&s| self.snarl.get_node(s).is_some_and(|d| d.muted));
        for snarl_id in targets {
            if let Some(data) = self.snarl.get_node_mut(snarl_id) {
                data.muted = mute;
            }
        }
        Some(mute)
    }

    /// Removes nodes; links that pointed at them become unconnected.
    pub fn remove_nodes(&mut self, nodes: &[NodeId]) -> usize {
        let mut removed = BTreeSet::new();
        for &id in nodes {
            if let Some(snarl_id) = self.snarl_id(id) {
                removed.insert(self.snarl.remove_node(snarl_id).id);
            }
        }
        let affected: Vec<SnarlId> = self
            .snarl
            .nodes_ids_data_mut()
            .filter_map(|(snarl_id, data)| {
                let mut changed = false;
                for port in data.value.node.inputs() {
                    if port.link.source().is_some_and(|s| removed.contains(&s))
                        && let Some(link) = data.value.node.input_mut(port.slot)
                    {
                        *link = Link::NONE;
                        changed = true;
                    }
                }
                changed.then_some(snarl_id)
            })
            .collect();
        for snarl_id in affected {
            rebuild_wires(&mut self.snarl, snarl_id);
        }
        removed.len()
    }

    /// Moves each node by its offset (graph units).
    pub fn shift_nodes(&mut self, moves: &[(NodeId, egui::Vec2)]) {
        for (id, by) in moves {
            if let Some(snarl_id) = self.snarl_id(*id)
                && let Some(info) = self.snarl.get_node_info_mut(snarl_id)
            {
                info.pos += *by;
            }
        }
    }

    /// Every wire as (the node it comes from, the node it goes into).
    pub fn wires(&self) -> Vec<(NodeId, NodeId)> {
        self.snarl
            .nodes()
            .flat_map(|data| {
                data.node
                    .inputs()
                    .into_iter()
                    .filter_map(|port| port.link.source())
                    .map(move |source| (source, data.id))
            })
            .collect()
    }

    /// Graph-space rectangle around the given nodes (all nodes when empty), with an allowance
    /// for node size.
    pub fn bounds_of(&self, nodes: &[NodeId]) -> Option<egui::Rect> {
        let mut rect: Option<egui::Rect> = None;
        for (position, data) in self.snarl.nodes_pos() {
            if !nodes.is_empty() && !nodes.contains(&data.id) {
                continue;
            }
            let node_rect = egui::Rect::from_min_size(position, egui::vec2(220.0, 140.0));
            rect = Some(rect.map_or(node_rect, |r| r.union(node_rect)));
        }
        rect
    }
}
