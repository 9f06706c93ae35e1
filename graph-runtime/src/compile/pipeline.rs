//! The compiler's phases in order: validate the graph as written, write its subgraphs out,
//! validate again (blaming what fails on the Subgraph node), lower, then plan.

use std::collections::BTreeMap;

use super::error::CompileError;
use super::program::Program;
use super::validate::validate;
use super::{lower, subgraph};
use crate::graph::{Graph, Node};

/// Compiles `graph` into a [`Program`], or reports every problem at once.
///
/// Checks: exactly one `Output`; no cycle; every link points at an existing node of the right
/// type; every port connected; every number finite and in range; every parameter declared;
/// every name given. Nodes not reachable from the `Output` are checked but not compiled.
///
/// # Examples
///
/// ```
/// use graph_runtime::{compile, Graph, Link, Node, Target};
///
/// let mut graph = Graph::default();
/// let seek = graph.add(Node::Seek { target: Target::Named("cursor".into()) });
/// graph.add(Node::Output { input: Link(Some(seek)) });
/// let program = compile(&graph).expect("a valid graph");
/// assert_eq!(program.len(), 2);
///
/// graph.add(Node::Output { input: Link::NONE });
/// let errors = compile(&graph).unwrap_err();
/// assert_eq!(errors.len(), 2); // two Outputs, and one of them is unconnected
/// ```
pub fn compile(graph: &Graph) -> Result<Program, Vec<CompileError>> {
    compile_with(graph, "", &BTreeMap::new())
}

/// Compiles `graph`, saved as `key`, inlining its `Subgraph` nodes from `library` (graphs by
/// path, relative to one folder, with `/` between names; see [`super::inline_subgraphs`]).
/// The compiled program is the one of the graph with every subgraph written out.
pub fn compile_with(
    graph: &Graph,
    key: &str,
    library: &BTreeMap<String, Graph>,
) -> Result<Program, Vec<CompileError>> {
    // The graph as written first (a Subgraph node's values checked like any field), then
    // with its subgraphs written out: what fails only then is a value a subgraph's field
    // does not take, told about the Subgraph node that gave it.
    let errors = validate(graph);
    if !errors.is_empty() {
        return Err(errors);
    }
    if !graph
        .nodes
        .values()
        .any(|n| matches!(n, Node::Subgraph { .. }))
    {
        return Ok(lower::lower(graph));
    }
    let (flat, origins) = subgraph::inline_traced(graph, key, library)?;
    let errors = validate(&flat);
    if !errors.is_empty() {
        let blame = |error| subgraph::blame(error, &origins);
        return Err(errors.into_iter().map(blame).collect());
    }
    Ok(lower::lower(&flat))
}
