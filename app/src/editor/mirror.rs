//! The node widget's copy of a graph: a `Snarl` whose nodes remember their graph ids. Links
//! live in the nodes and wires are rebuilt from them, so the two never disagree.

use std::collections::BTreeMap;

use egui::Pos2;
use egui_snarl::{InPinId, NodeId as SnarlId, OutPinId, Snarl};
use graph_runtime::{Graph, Node, NodeId};

/// Horizontal and vertical spacing of the automatic layout (editor units).
const LAYOUT_SPACING: (f32, f32) = (320.0, 170.0);

/// A node in the widget: its id in the graph file and its data.
#[derive(Clone, Debug, PartialEq)]
pub struct EditorNode {
    /// Id in the graph file.
    pub id: NodeId,
    /// The node itself.
    pub node: Node,
    /// Whether it is muted (contributes nothing; drawn dimmed).
    pub muted: bool,
}

/// The type of the value node `id` outputs: its kind's, or, for a Reroute, the type of what
/// feeds it through any chain of Reroutes; `None` when the chain is unconnected or loops (the
/// mirror of [`graph_runtime::Graph::output_type`] over the widget's data).
pub fn output_type(snarl: &Snarl<EditorNode>, id: NodeId) -> Option<graph_runtime::PortType> {
    let mut at = id;
    for _ in 0..=snarl.nodes().count() {
        let node = &snarl.nodes().find(|data| data.id == at)?.node;
        match node {
            Node::Reroute { input } => at = input.source()?,
            node => return Some(node.kind().output()),
        }
    }
    None
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

/// Adds `node` at `position` under a fresh graph id; returns that id.
pub fn add_node(snarl: &mut Snarl<EditorNode>, node: Node, position: Pos2) -> NodeId {
    let id = next_id(snarl);
    let snarl_id = snarl.insert_node(
        position,
        EditorNode {
            id,
            node,
            muted: false,
        },
    );
    rebuild_wires(snarl, snarl_id);
    id
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

/// Redraws every wire from the nodes' links.
pub fn rebuild_all_wires(snarl: &mut Snarl<EditorNode>) {
    let ids: Vec<SnarlId> = snarl.node_ids().map(|(id, _)| id).collect();
    for id in ids {
        rebuild_wires(snarl, id);
    }
}

/// Makes the widget show `graph`'s nodes, changing it in place: nodes that stay keep their
/// widget ids (and so their place in the widget's state), removed ones go, new ones come.
pub fn sync(snarl: &mut Snarl<EditorNode>, graph: &Graph) {
    let positions = graph
        .editor
        .as_ref()
        .map(|e| e.positions.clone())
        .unwrap_or_default();
    let collapsed = graph
        .editor
        .as_ref()
        .map(|e| e.collapsed.clone())
        .unwrap_or_default();
    let automatic = if positions.len() < graph.nodes.len() {
        automatic_layout(graph)
    } else {
        BTreeMap::new()
    };
    let gone: Vec<SnarlId> = snarl
        .node_ids()
        .filter(|(_, data)| !graph.nodes.contains_key(&data.id))
        .map(|(snarl_id, _)| snarl_id)
        .collect();
    for snarl_id in gone {
        snarl.remove_node(snarl_id);
    }
    let mut present: BTreeMap<NodeId, SnarlId> = snarl
        .node_ids()
        .map(|(snarl_id, data)| (data.id, snarl_id))
        .collect();
    for (id, node) in &graph.nodes {
        let position = positions
            .get(id)
            .or_else(|| automatic.get(id))
            .map_or(Pos2::ZERO, |p| Pos2::new(p.x, p.y));
        let muted = graph.muted.contains(id);
        let open = !collapsed.contains(id);
        match present.get(id).and_then(|s| snarl.get_node_info_mut(*s)) {
            Some(info) => {
                if info.value.node != *node {
                    info.value.node = node.clone();
                }
                info.value.muted = muted;
                info.pos = position;
                info.open = open;
            }
            None => {
                let snarl_id = snarl.insert_node(
                    position,
                    EditorNode {
                        id: *id,
                        node: node.clone(),
                        muted,
                    },
                );
                snarl.open_node(snarl_id, open);
                present.insert(*id, snarl_id);
            }
        }
    }
    rebuild_all_wires(snarl);
}

/// Columns by depth from the Output (inputs to the left), rows in id order: for graphs saved
/// without a layout.
fn automatic_layout(graph: &Graph) -> BTreeMap<NodeId, glam::Vec2> {
    let mut depth: BTreeMap<NodeId, usize> = BTreeMap::new();
    let mut frontier: Vec<(NodeId, usize)> = graph
        .nodes
        .iter()
        .filter(|(_, node)| matches!(node, Node::Output { .. }))
        .map(|(id, _)| (*id, 0))
        .collect();
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
