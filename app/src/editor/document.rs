//! The open graph: a `Snarl` mirror of graph-runtime's [`Graph`] for the node widget, plus the
//! graph-level data, the file it came from, undo history and the latest compile result.
//!
//! The runtime graph is the truth on disk and for validation; the snarl holds the same nodes
//! (each remembers its graph id) and draws their links as wires. Links live in the nodes, and
//! wires are rebuilt from them, so the two never disagree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use egui::Pos2;
use egui_snarl::{InPinId, NodeId as SnarlId, OutPinId, Snarl};
use graph_runtime::{
    Comment, CompileError, EditorSection, Graph, Link, Node, NodeId, Program, VehicleSpec, compile,
};

/// Most undo steps kept.
const HISTORY_LIMIT: usize = 200;

/// Horizontal and vertical spacing of the automatic layout (editor units).
const LAYOUT_SPACING: (f32, f32) = (260.0, 170.0);

/// A node in the widget: its id in the graph file and its data.
#[derive(Clone, Debug, PartialEq)]
pub struct EditorNode {
    /// Id in the graph file.
    pub id: NodeId,
    /// The node itself.
    pub node: Node,
}

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
    /// Comment frames.
    pub comments: Vec<Comment>,
    /// Where the graph is saved, if anywhere.
    pub path: Option<PathBuf>,
    /// What the file on disk holds (dirty when the graph differs).
    saved: Graph,
    /// The state the undo history last recorded.
    committed: Graph,
    undo: Vec<Graph>,
    redo: Vec<Graph>,
    /// The graph as last compiled (without layout) and the result.
    compiled_graph: Graph,
    compiled: Result<Arc<Program>, Vec<CompileError>>,
    revision: u64,
}

impl Document {
    /// A document showing `graph`, saved at `path` (or nowhere).
    pub fn new(graph: &Graph, path: Option<PathBuf>) -> Self {
        let mut document = Self {
            snarl: Snarl::new(),
            description: String::new(),
            parameters: BTreeMap::new(),
            vehicle: VehicleSpec::default(),
            comments: Vec::new(),
            path,
            saved: Graph::default(),
            committed: Graph::default(),
            undo: Vec::new(),
            redo: Vec::new(),
            compiled_graph: Graph::default(),
            compiled: Err(Vec::new()),
            revision: 0,
        };
        document.load(graph);
        document.committed = document.to_graph();
        document.saved = document.committed.clone();
        document.recompile();
        document
    }

    /// Replaces the content with `graph` (history kept).
    fn load(&mut self, graph: &Graph) {
        self.snarl = Snarl::new();
        self.description.clone_from(&graph.description);
        self.parameters.clone_from(&graph.parameters);
        self.vehicle = graph.vehicle.clone();
        self.comments = graph
            .editor
            .as_ref()
            .map(|e| e.comments.clone())
            .unwrap_or_default();
        let positions = graph
            .editor
            .as_ref()
            .map(|e| e.positions.clone())
            .unwrap_or_default();
        let automatic = automatic_layout(graph);
        for (id, node) in &graph.nodes {
            let position = positions
                .get(id)
                .or_else(|| automatic.get(id))
                .map_or(Pos2::ZERO, |p| Pos2::new(p.x, p.y));
            self.snarl.insert_node(
                position,
                EditorNode {
                    id: *id,
                    node: node.clone(),
                },
            );
        }
        self.rebuild_all_wires();
    }

    /// The graph as it would be saved.
    pub fn to_graph(&self) -> Graph {
        let mut nodes = BTreeMap::new();
        let mut positions = BTreeMap::new();
        for (position, data) in self.snarl.nodes_pos() {
            nodes.insert(data.id, data.node.clone());
            positions.insert(data.id, glam::Vec2::new(position.x, position.y));
        }
        Graph {
            description: self.description.clone(),
            parameters: self.parameters.clone(),
            vehicle: self.vehicle.clone(),
            nodes,
            editor: Some(EditorSection {
                positions,
                comments: self.comments.clone(),
            }),
        }
    }

    /// Whether the graph differs from what was opened or last saved.
    pub fn is_dirty(&self) -> bool {
        self.committed != self.saved
    }

    /// Marks the current state as what the file holds.
    pub fn mark_saved(&mut self, path: PathBuf) {
        self.path = Some(path);
        self.saved = self.committed.clone();
    }

    /// Marks the document as differing from disk whatever it holds (recovered work).
    pub fn mark_unsaved(&mut self) {
        self.saved = Graph::default();
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

    fn recompile(&mut self) {
        let mut graph = self.committed.clone();
        graph.editor = None;
        if graph != self.compiled_graph || self.compiled_graph.nodes.is_empty() {
            self.compiled = compile(&graph).map(Arc::new);
            self.compiled_graph = graph;
            self.revision += 1;
        }
    }

    /// Records the current state as one undo step if it changed, and revalidates. Call when
    /// no interaction is in progress, so a drag is one step.
    pub fn commit(&mut self) -> bool {
        let current = self.to_graph();
        if current == self.committed {
            return false;
        }
        let previous = std::mem::replace(&mut self.committed, current);
        self.undo.push(previous);
        if self.undo.len() > HISTORY_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.recompile();
        true
    }

    /// Revalidates the current (uncommitted) state without recording history, for live
    /// feedback while a value is dragged.
    pub fn revalidate_live(&mut self) {
        let mut graph = self.to_graph();
        graph.editor = None;
        if graph != self.compiled_graph {
            self.compiled = compile(&graph).map(Arc::new);
            self.compiled_graph = graph;
            self.revision += 1;
        }
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Steps back one change.
    pub fn undo(&mut self) {
        self.commit();
        if let Some(previous) = self.undo.pop() {
            let current = std::mem::replace(&mut self.committed, previous);
            self.redo.push(current);
            let graph = self.committed.clone();
            self.load(&graph);
            self.recompile();
        }
    }

    /// Steps forward one undone change.
    pub fn redo(&mut self) {
        self.commit();
        if let Some(next) = self.redo.pop() {
            let current = std::mem::replace(&mut self.committed, next);
            self.undo.push(current);
            let graph = self.committed.clone();
            self.load(&graph);
            self.recompile();
        }
    }

    /// The widget id of the node with graph id `id`.
    pub fn snarl_id(&self, id: NodeId) -> Option<SnarlId> {
        snarl_id(&self.snarl, id)
    }

    /// Adds `node` at `position`; returns its widget id.
    pub fn add_node(&mut self, node: Node, position: Pos2) -> SnarlId {
        add_node(&mut self.snarl, node, position)
    }

    /// Removes nodes; links that pointed at them become unconnected.
    pub fn remove_nodes(&mut self, nodes: &[SnarlId]) {
        let mut removed = BTreeSet::new();
        for &snarl_id in nodes {
            if self.snarl.get_node(snarl_id).is_some() {
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
            self.rebuild_wires(snarl_id);
        }
    }

    /// Redraws the wires into `node` from its links.
    pub fn rebuild_wires(&mut self, node: SnarlId) {
        rebuild_wires(&mut self.snarl, node);
    }

    fn rebuild_all_wires(&mut self) {
        let ids: Vec<SnarlId> = self.snarl.node_ids().map(|(id, _)| id).collect();
        for id in ids {
            self.rebuild_wires(id);
        }
    }

    /// Graph-space rectangle around the given nodes (all nodes when empty), with an allowance
    /// for node size.
    pub fn bounds_of(&self, nodes: &[SnarlId]) -> Option<egui::Rect> {
        let mut rect: Option<egui::Rect> = None;
        for (id, position, _) in self.snarl.nodes_pos_ids() {
            if !nodes.is_empty() && !nodes.contains(&id) {
                continue;
            }
            let node_rect = egui::Rect::from_min_size(position, egui::vec2(220.0, 140.0));
            rect = Some(rect.map_or(node_rect, |r| r.union(node_rect)));
        }
        rect
    }
}

/// The widget id of the node with graph id `id`.
pub fn snarl_id(snarl: &Snarl<EditorNode>, id: NodeId) -> Option<SnarlId> {
    snarl
        .node_ids()
        .find(|(_, data)| data.id == id)
        .map(|(snarl_id, _)| snarl_id)
}

/// The smallest graph id above every id in use.
pub fn next_id(snarl: &Snarl<EditorNode>) -> NodeId {
    NodeId(
        snarl
            .nodes()
            .map(|n| n.id.0)
            .max()
            .map_or(1, |max| max.saturating_add(1)),
    )
}

/// Adds `node` at `position` under a fresh graph id; returns its widget id.
pub fn add_node(snarl: &mut Snarl<EditorNode>, node: Node, position: Pos2) -> SnarlId {
    let id = next_id(snarl);
    let snarl_id = snarl.insert_node(position, EditorNode { id, node });
    rebuild_wires(snarl, snarl_id);
    snarl_id
}

/// Redraws the wires into `node` from its links (links are the truth; wires mirror them).
pub fn rebuild_wires(snarl: &mut Snarl<EditorNode>, node: SnarlId) {
    let incoming: Vec<(OutPinId, InPinId)> =
        snarl.wires().filter(|(_, to)| to.node == node).collect();
    for (from, to) in incoming {
        snarl.disconnect(from, to);
    }
    let Some(data) = snarl.get_node(node) else {
        return;
    };
    let sources: Vec<(usize, NodeId)> = data
        .node
        .inputs()
        .iter()
        .enumerate()
        .filter_map(|(input, port)| port.link.source().map(|source| (input, source)))
        .collect();
    for (input, source) in sources {
        if let Some(from) = snarl_id(snarl, source) {
            snarl.connect(
                OutPinId {
                    node: from,
                    output: 0,
                },
                InPinId { node, input },
            );
        }
    }
}

/// Columns by depth from the Output (inputs to the left), rows in id order: for graphs saved
/// without a layout.
fn automatic_layout(graph: &Graph) -> BTreeMap<NodeId, glam::Vec2> {
    let mut depth: BTreeMap<NodeId, usize> = BTreeMap::new();
    let roots: Vec<NodeId> = graph
        .nodes
        .iter()
        .filter(|(_, node)| matches!(node, Node::Output { .. }))
        .map(|(id, _)| *id)
        .collect();
    let mut frontier: Vec<(NodeId, usize)> = roots.into_iter().map(|id| (id, 0)).collect();
    let limit = graph.nodes.len();
    while let Some((id, d)) = frontier.pop() {
        if d > limit || depth.get(&id).is_some_and(|&known| known >= d) {
            continue;
        }
        depth.insert(id, d);
        if let Some(node) = graph.nodes.get(&id) {
            for port in node.inputs() {
                if let Some(source) = port.link.source() {
                    frontier.push((source, d + 1));
                }
            }
        }
    }
    let deepest = depth.values().copied().max().unwrap_or(0);
    let mut rows: BTreeMap<usize, usize> = BTreeMap::new();
    graph
        .nodes
        .keys()
        .map(|id| {
            let column = depth.get(id).map_or(deepest + 1, |d| deepest - d);
            let row = rows.entry(column).or_insert(0);
            let position = glam::Vec2::new(
                column as f32 * LAYOUT_SPACING.0,
                *row as f32 * LAYOUT_SPACING.1,
            );
            *row += 1;
            (*id, position)
        })
        .collect()
}
