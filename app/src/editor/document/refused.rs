//! Why the document refused an edit.

use graph_runtime::{NodeId, PortType, Slot};

/// Why a wire was not made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The output's type is not what the input takes.
    #[error(
        "Cannot connect: {target_kind} {target} port `{slot}` takes a {accepts}, but {from_kind} {from} outputs a {found}."
    )]
    Mismatch {
        /// The node fed.
        target: NodeId,
        /// Its kind's name.
        target_kind: graph_runtime::NodeKind,
        /// The input port.
        slot: Slot,
        /// What the port takes.
        accepts: PortType,
        /// The feeding node.
        from: NodeId,
        /// Its kind's name.
        from_kind: graph_runtime::NodeKind,
        /// What it outputs.
        found: PortType,
    },
    /// A node named is not in the graph.
    #[error("Cannot connect: there is no node {0}.")]
    NoNode(NodeId),
    /// The node has no input at that position.
    #[error("Cannot connect: {kind} {node} has no input {number}.", number = input + 1)]
    NoInput {
        /// The node.
        node: NodeId,
        /// Its kind.
        kind: graph_runtime::NodeKind,
        /// The input's position (0-based).
        input: usize,
    },
    /// The Output node has no output to take from.
    #[error("Cannot connect: the Output node {0} has no output.")]
    FromOutput(NodeId),
}
