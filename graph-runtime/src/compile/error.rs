//! Compile errors, each naming its place: a node id and port, a field, a parameter.

use std::fmt;

use crate::graph::{Constraint, NodeId, PortType, Slot};

/// One problem found by [`crate::compile`]. Every error names its place: a node id and port or
/// field, a graph parameter, or the graph's vehicle section.
#[derive(Clone, Debug, PartialEq)]
pub enum CompileError {
    /// The graph has no `Output` node.
    NoOutput,
    /// The graph has more than one `Output` node.
    MultipleOutputs {
        /// Every `Output` node, in id order.
        nodes: Vec<NodeId>,
    },
    /// Links form a loop; the nodes on it, in id order.
    Cycle {
        /// The nodes of the loop.
        nodes: Vec<NodeId>,
    },
    /// A port links to a node id that does not exist.
    DanglingLink {
        /// The node with the port.
        node: NodeId,
        /// The port.
        port: Slot,
        /// The missing id.
        missing: NodeId,
    },
    /// A port that needs a connection has none.
    UnconnectedInput {
        /// The node with the port.
        node: NodeId,
        /// The port.
        port: Slot,
    },
    /// A port is fed a value of the wrong type (a steering force into a condition port, say).
    WrongPortType {
        /// The node with the port.
        node: NodeId,
        /// The port.
        port: Slot,
        /// What the port accepts.
        expected: PortType,
        /// What the linked node outputs.
        found: PortType,
        /// The linked node.
        source: NodeId,
    },
    /// A number is out of its range (NaN, infinite, negative distance, probability outside
    /// `[0, 1]`, mass `<= 0`, …). `node` is `None` for the graph's vehicle section.
    InvalidNumber {
        /// The node, or `None` for the vehicle section.
        node: Option<NodeId>,
        /// The field.
        field: Slot,
        /// The offending value.
        value: f32,
        /// The range it must lie in.
        constraint: Constraint,
        /// The graph parameter the value came from, if any.
        parameter: Option<String>,
    },
    /// A field names a graph parameter that is not declared.
    UnknownParameter {
        /// The node, or `None` for the vehicle section.
        node: Option<NodeId>,
        /// The field.
        field: Slot,
        /// The undeclared name.
        name: String,
    },
    /// An override names a parameter the graph does not declare.
    UnknownOverride {
        /// The undeclared name.
        name: String,
    },
    /// A graph parameter's default or override is not a finite number.
    NonFiniteParameter {
        /// The parameter.
        name: String,
        /// Its value.
        value: f32,
    },
    /// The graph is larger than the runtime accepts (see [`crate::limits`]).
    TooMany {
        /// What there is too much of (`nodes`, `graph parameters`, `target names`, …).
        what: &'static str,
        /// How many the graph has.
        count: usize,
        /// The most allowed.
        limit: usize,
    },
    /// A path, flow field, named target or tag is left empty.
    MissingName {
        /// The node.
        node: NodeId,
        /// The field that needs a name.
        field: &'static str,
    },
    /// A `ReachOrientation` turns to the facing of a point (a point has none: only an agent,
    /// `NearestTagged`, has a facing).
    NoFacing {
        /// The node.
        node: NodeId,
    },
    /// The graph's `muted` list names a node that is not in the graph.
    UnknownMuted {
        /// The id listed.
        node: NodeId,
    },
    /// A Subgraph node names a graph file that was not loaded (missing, or not given).
    SubgraphMissing {
        /// The Subgraph node.
        node: NodeId,
        /// The file, resolved against the using graph's folder.
        file: String,
    },
    /// Subgraphs use each other in a loop: the files from the first use back to it.
    SubgraphCycle {
        /// The Subgraph node that closes the loop.
        node: NodeId,
        /// The files on the loop, in order of use.
        files: Vec<String>,
    },
    /// A Subgraph node gives a value to a parameter its file does not declare.
    UnknownSubgraphParameter {
        /// The Subgraph node.
        node: NodeId,
        /// The parameter named.
        name: String,
        /// The subgraph's file.
        file: String,
    },
    /// A problem inside a subgraph's file (ids are that file's own).
    InSubgraph {
        /// The Subgraph node that uses the file.
        node: NodeId,
        /// The file.
        file: String,
        /// The problem, as compiling that file alone reports it.
        error: Box<CompileError>,
    },
}

impl CompileError {
    /// The node the error is about, if it is about one node.
    pub fn node(&self) -> Option<NodeId> {
        match self {
            Self::DanglingLink { node, .. }
            | Self::UnconnectedInput { node, .. }
            | Self::WrongPortType { node, .. }
            | Self::MissingName { node, .. }
            | Self::NoFacing { node }
            | Self::UnknownMuted { node }
            | Self::SubgraphMissing { node, .. }
            | Self::SubgraphCycle { node, .. }
            | Self::UnknownSubgraphParameter { node, .. }
            | Self::InSubgraph { node, .. } => Some(*node),
            Self::InvalidNumber { node, .. } | Self::UnknownParameter { node, .. } => *node,
            Self::Cycle { nodes } | Self::MultipleOutputs { nodes } => nodes.first().copied(),
            Self::NoOutput
            | Self::UnknownOverride { .. }
            | Self::NonFiniteParameter { .. }
            | Self::TooMany { .. } => None,
        }
    }
}

fn owner(node: Option<NodeId>) -> String {
    node.map_or_else(|| "vehicle".to_owned(), |id| format!("node {id}"))
}

fn list(nodes: &[NodeId]) -> String {
    nodes
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoOutput => f.write_str("the graph has no Output node"),
            Self::MultipleOutputs { nodes } => {
                write!(
                    f,
                    "the graph has {} Output nodes ({}); keep exactly one",
                    nodes.len(),
                    list(nodes)
                )
            }
            Self::Cycle { nodes } => write!(f, "links form a cycle through nodes {}", list(nodes)),
            Self::DanglingLink {
                node,
                port,
                missing,
            } => {
                write!(
                    f,
                    "node {node} port `{port}`: linked to node {missing}, which does not exist"
                )
            }
            Self::UnconnectedInput { node, port } => {
                write!(f, "node {node} port `{port}`: not connected")
            }
            Self::WrongPortType {
                node,
                port,
                expected,
                found,
                source,
            } => write!(
                f,
                "node {node} port `{port}`: expects a {expected} but node {source} outputs a {found}"
            ),
            Self::InvalidNumber {
                node,
                field,
                value,
                constraint,
                parameter,
            } => {
                write!(f, "{} field `{field}`: {value} {constraint}", owner(*node))?;
                if let Some(name) = parameter {
                    write!(f, " (value of graph parameter \"{name}\")")?;
                }
                Ok(())
            }
            Self::UnknownParameter { node, field, name } => write!(
                f,
                "{} field `{field}`: graph parameter \"{name}\" is not declared",
                owner(*node)
            ),
            Self::UnknownOverride { name } => {
                write!(
                    f,
                    "override of \"{name}\": the graph declares no such parameter"
                )
            }
            Self::NonFiniteParameter { name, value } => {
                write!(
                    f,
                    "graph parameter \"{name}\": {value} is not a finite number"
                )
            }
            Self::TooMany { what, count, limit } => {
                write!(f, "the graph has {count} {what}; the limit is {limit}")
            }
            Self::MissingName { node, field } => {
                write!(f, "node {node} field `{field}`: no name given")
            }
            Self::NoFacing { node } => write!(
                f,
                "node {node} field `orientation`: a point has no facing; turn to an agent's \
                 (NearestTagged), an angle or a direction"
            ),
            Self::UnknownMuted { node } => {
                write!(f, "`muted` lists node {node}, which is not in the graph")
            }
            Self::SubgraphMissing { node, file } if file.is_empty() => {
                write!(f, "node {node}: the Subgraph node names no graph file yet")
            }
            Self::SubgraphMissing { node, file } => {
                write!(
                    f,
                    "node {node}: subgraph file \"{file}\" is not loaded (missing or unreadable)"
                )
            }
            Self::SubgraphCycle { node, files } => write!(
                f,
                "node {node}: subgraphs use each other in a loop: {}",
                files.join(" -> ")
            ),
            Self::UnknownSubgraphParameter { node, name, file } => write!(
                f,
                "node {node}: subgraph \"{file}\" declares no parameter \"{name}\""
            ),
            Self::InSubgraph { node, file, error } => {
                write!(f, "node {node}: in subgraph \"{file}\": {error}")
            }
        }
    }
}

impl std::error::Error for CompileError {}

/// What compiles but may not do what the designer expects ([`crate::warnings`]): a node the
/// `Output` does not reach runs nothing, and its problems do not stop the graph.
#[derive(Clone, Debug, PartialEq)]
pub enum CompileWarning {
    /// Nothing reads this node's output, and it is not the `Output`: it (and whatever feeds
    /// only it) runs nothing.
    FeedsNothing {
        /// The node.
        node: NodeId,
    },
    /// A problem of a node the `Output` does not reach; the graph runs without the node.
    Unreached(CompileError),
}

impl CompileWarning {
    /// The node the warning is about.
    pub fn node(&self) -> Option<NodeId> {
        match self {
            Self::FeedsNothing { node } => Some(*node),
            Self::Unreached(error) => error.node(),
        }
    }
}

impl fmt::Display for CompileWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::FeedsNothing { node } => write!(
                f,
                "node {node} feeds nothing, so it does not run: wire its output into the graph, or delete it"
            ),
            Self::Unreached(error) => {
                write!(
                    f,
                    "{error} (it does not reach the Output: the graph runs without it)"
                )
            }
        }
    }
}
