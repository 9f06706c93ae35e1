//! The compiler's phases in order: validate the graph as written, write its subgraphs out,
//! validate again (blaming what fails on the Subgraph node), lower, then plan.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::error::{CompileError, CompileWarning};
use super::program::Program;
use super::validate::{check, reached, validate};
use super::{lower, subgraph};
use crate::graph::{Graph, Node};

/// Compiles `graph` into a [`Program`], or reports every problem at once.
///
/// Checks: exactly one `Output`; no cycle; every link points at an existing node of the right
/// type; every port connected; every number finite and in range; every parameter declared;
/// every name given. Nodes the `Output` does not reach run nothing: they are not compiled,
/// and their problems do not stop the graph ([`warnings`] lists them).
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
    compile_flat(graph, key, library).map(|(program, _)| program)
}

/// [`compile_with`], the program keeping the graph it was compiled from ([`Program::source`]:
/// subgraphs written out, unreached nodes and the editor section left out), so that a run it
/// is swapped into can be written down as a replay file. What a [`crate::Simulation`] and the
/// editor compile with; the copy costs a graph of 500 nodes about 3.5 % of its compile
/// (`BENCHMARKS.md`, "Compiling a 500-node graph"), which [`compile_with`] does not pay.
pub fn compile_keeping_source(
    graph: &Graph,
    key: &str,
    library: &BTreeMap<String, Graph>,
) -> Result<Program, Vec<CompileError>> {
    let (mut program, flat) = compile_flat(graph, key, library)?;
    let source = match flat {
        Cow::Owned(graph) => Graph {
            description: String::new(),
            editor: None,
            ..graph
        },
        Cow::Borrowed(graph) => Graph {
            description: String::new(),
            parameters: graph.parameters.clone(),
            vehicle: graph.vehicle.clone(),
            turning: graph.turning.clone(),
            nodes: graph.nodes.clone(),
            muted: graph.muted.clone(),
            editor: None,
        },
    };
    program.source = Some(std::sync::Arc::new(source));
    Ok(program)
}

/// The program of `graph` (as [`compile_with`]) and the graph lowered: subgraphs written out,
/// without the nodes the Output does not reach.
fn compile_flat<'g>(
    graph: &'g Graph,
    key: &str,
    library: &BTreeMap<String, Graph>,
) -> Result<(Program, Cow<'g, Graph>), Vec<CompileError>> {
    // The graph as written first (a Subgraph node's values checked like any field), then
    // with its subgraphs written out: what fails only then is a value a subgraph's field
    // does not take, told about the Subgraph node that gave it.
    let errors = validate(graph);
    if !errors.is_empty() {
        return Err(errors);
    }
    let graph = reached_part(graph);
    if !graph
        .nodes
        .values()
        .any(|n| matches!(n, Node::Subgraph { .. }))
    {
        return Ok((lower::lower(&graph), graph));
    }
    let (flat, origins) = subgraph::inline_traced(&graph, key, library)?;
    let errors = validate(&flat);
    if !errors.is_empty() {
        let blame = |error| subgraph::blame(error, &origins);
        return Err(errors.into_iter().map(blame).collect());
    }
    Ok((lower::lower(&flat), Cow::Owned(flat)))
}

/// `graph` without the nodes its Output does not reach: they run nothing (a Subgraph node among
/// them reads no file).
fn reached_part(graph: &Graph) -> Cow<'_, Graph> {
    let reached = reached(graph);
    if reached.len() == graph.nodes.len() {
        return Cow::Borrowed(graph);
    }
    let mut part = graph.clone();
    part.nodes.retain(|id, _| reached.contains(id));
    part.muted.retain(|id| reached.contains(id));
    Cow::Owned(part)
}

/// What compiles but runs nothing: each node whose output nothing reads (other than the
/// `Output`), and every problem of the nodes the `Output` does not reach, which [`compile`]
/// leaves out. An editor shows them as warnings; a game may ignore them.
///
/// # Examples
///
/// ```
/// use graph_runtime::{compile, warnings, CompileWarning, Graph, Link, Node, NodeId, Target};
///
/// let mut graph = Graph::default();
/// let seek = graph.add(Node::Seek { target: Target::Named("cursor".into()) });
/// graph.add(Node::Output { input: Link(Some(seek)) });
/// let stray = graph.add(Node::Reroute { input: Link::NONE });
/// assert!(compile(&graph).is_ok(), "the stray Reroute does not stop the graph");
/// assert_eq!(warnings(&graph)[0], CompileWarning::FeedsNothing { node: stray });
/// ```
pub fn warnings(graph: &Graph) -> Vec<CompileWarning> {
    let reached = reached(graph);
    let read: std::collections::BTreeSet<_> = graph
        .nodes
        .values()
        .flat_map(Node::inputs)
        .filter_map(|port| port.link.source())
        .collect();
    let mut warnings: Vec<CompileWarning> = graph
        .nodes
        .iter()
        .filter(|(id, node)| {
            !reached.contains(id) && !read.contains(id) && !matches!(node, Node::Output { .. })
        })
        .map(|(id, _)| CompileWarning::FeedsNothing { node: *id })
        .collect();
    warnings.extend(
        check(graph)
            .unreached
            .into_iter()
            .map(CompileWarning::Unreached),
    );
    warnings
}
