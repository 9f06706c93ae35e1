//! Where every Reroute chain ends, found once per compile in time linear in the graph: the
//! type checks and the lowering ask it instead of walking a chain per question (a chain of
//! 20,000 Reroutes took 6.3 s to compile when each one's type was found by walking to the
//! end, n² steps; `tests/bounded_work.rs`, timed by `examples/time_bounds.rs`).

use std::collections::{BTreeSet, HashMap};

use crate::graph::{Graph, Node, NodeId, PortType};

/// The end of one Reroute chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct End {
    /// The first node that is not a Reroute; `None` when the chain is unconnected, dangles or
    /// loops (validation reports each where it is).
    pub(crate) source: Option<NodeId>,
    /// Whether a node on the way (the source included) is muted.
    pub(crate) muted: bool,
}

/// The end of every Reroute of a graph.
#[derive(Debug, Default)]
pub(crate) struct Reroutes {
    ends: HashMap<NodeId, End>,
}

impl Reroutes {
    /// Resolves every chain of `graph`; `is_muted` says which nodes count as muted. Each
    /// Reroute is walked over once: a walk stops at a Reroute already resolved.
    pub(crate) fn new(graph: &Graph, is_muted: impl Fn(NodeId) -> bool) -> Self {
        let mut ends: HashMap<NodeId, End> = HashMap::new();
        let mut path = Vec::new();
        let mut on_path = BTreeSet::new();
        for (&start, node) in &graph.nodes {
            if !matches!(node, Node::Reroute { .. }) || ends.contains_key(&start) {
                continue;
            }
            path.clear();
            on_path.clear();
            let mut at = Some(start);
            let mut end = loop {
                let Some(id) = at else {
                    break End {
                        source: None,
                        muted: false,
                    };
                };
                if let Some(&known) = ends.get(&id) {
                    break known;
                }
                match graph.nodes.get(&id) {
                    Some(Node::Reroute { input }) => {
                        if !on_path.insert(id) {
                            break End {
                                source: None,
                                muted: false,
                            };
                        }
                        path.push(id);
                        at = input.source();
                    }
                    Some(_) => {
                        break End {
                            source: Some(id),
                            muted: is_muted(id),
                        };
                    }
                    None => {
                        break End {
                            source: None,
                            muted: false,
                        };
                    }
                }
            };
            for &id in path.iter().rev() {
                end.muted |= is_muted(id);
                ends.insert(id, end);
            }
        }
        Self { ends }
    }

    /// The node `id` stands for: the end of its chain for a Reroute, itself otherwise.
    pub(crate) fn source(&self, id: NodeId) -> Option<NodeId> {
        match self.ends.get(&id) {
            Some(end) => end.source,
            None => Some(id),
        }
    }

    /// What node `id` outputs, through any Reroutes ([`Graph::output_type`], answered in
    /// constant time).
    pub(crate) fn output_type(&self, graph: &Graph, id: NodeId) -> Option<PortType> {
        let source = self.source(id)?;
        graph.nodes.get(&source).map(|node| node.kind().output())
    }

    /// Whether the chain from Reroute `id` passes a muted node; `None` for a node that is no
    /// Reroute.
    pub(crate) fn muted_on_the_way(&self, id: NodeId) -> Option<bool> {
        self.ends.get(&id).map(|end| end.muted)
    }
}
