//! The one node selection the user sees: the side panel shows its primary node, and every
//! command (delete, copy, cut, duplicate, comment) acts on it.
//!
//! Nodes are held by their graph id, which undo and redo keep, so a selection never points
//! at a different node after the graph changes under it.

use graph_runtime::NodeId;

/// Selected nodes in the order they were selected; the last is the primary one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    nodes: Vec<NodeId>,
}

impl Selection {
    /// Selects only `node`.
    pub fn only(node: NodeId) -> Self {
        Self { nodes: vec![node] }
    }

    /// Selects exactly `nodes` (the last becomes primary).
    pub fn set(&mut self, nodes: impl IntoIterator<Item = NodeId>) {
        self.nodes.clear();
        for node in nodes {
            self.add(node);
        }
    }

    /// Adds `node` as the primary node.
    pub fn add(&mut self, node: NodeId) {
        self.nodes.retain(|n| *n != node);
        self.nodes.push(node);
    }

    /// Removes `node` if selected.
    pub fn remove(&mut self, node: NodeId) {
        self.nodes.retain(|n| *n != node);
    }

    /// Selects nothing.
    pub fn clear(&mut self) {
        self.nodes.clear();
    }

    /// Keeps only the nodes for which `exists` holds (after a delete or an undo).
    pub fn retain(&mut self, exists: impl Fn(NodeId) -> bool) {
        self.nodes.retain(|n| exists(*n));
    }

    /// The node the side panel shows.
    pub fn primary(&self) -> Option<NodeId> {
        self.nodes.last().copied()
    }

    /// Every selected node, oldest first.
    pub fn nodes(&self) -> &[NodeId] {
        &self.nodes
    }

    /// Whether `node` is selected.
    pub fn contains(&self, node: NodeId) -> bool {
        self.nodes.contains(&node)
    }

    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Number of selected nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_selected_node_is_primary() {
        let mut selection = Selection::only(NodeId(3));
        selection.add(NodeId(5));
        selection.add(NodeId(3));
        assert_eq!(selection.nodes(), &[NodeId(5), NodeId(3)]);
        assert_eq!(selection.primary(), Some(NodeId(3)));
        selection.retain(|n| n != NodeId(3));
        assert_eq!(selection.primary(), Some(NodeId(5)));
    }
}
