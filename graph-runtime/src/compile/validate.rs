//! The compiler's first phase: every problem of a graph at once, each with its place (limits,
//! outputs, cycles, links and port types, numbers and their ranges, parameters, names).

use std::collections::{BTreeMap, BTreeSet};

use super::error::CompileError;
use crate::graph::{Constraint, Graph, Heading, NameKind, Node, NodeId, Number, Slot, Target};
use crate::limits::{MAX_JUMP_LINKS, MAX_NAMES, MAX_NODES};

/// The sizes a program can address: nodes, parameters and each name table.
fn limits(graph: &Graph) -> Vec<CompileError> {
    let mut errors = Vec::new();
    let mut over = |what: &'static str, count: usize, limit: usize| {
        if count > limit {
            errors.push(CompileError::TooMany { what, count, limit });
        }
    };
    over("nodes", graph.nodes.len(), MAX_NODES);
    over("graph parameters", graph.parameters.len(), MAX_NAMES);
    let mut paths = BTreeSet::new();
    let mut fields = BTreeSet::new();
    let mut targets = BTreeSet::new();
    let mut tags = BTreeSet::new();
    let mut own = BTreeSet::new();
    let mut links = BTreeSet::new();
    for node in graph.nodes.values() {
        for (_, target) in node.targets() {
            match target {
                Target::Named(name) => targets.insert(name.as_str()),
                Target::NearestTagged(tag) => tags.insert(tag.as_str()),
                Target::Own(name) => own.insert(name.as_str()),
                Target::Point(..) => false,
            };
        }
        for named in node.names() {
            let table = match named.kind {
                NameKind::Path if node.follows_own_path() => &mut own,
                NameKind::Path => &mut paths,
                NameKind::FlowField => &mut fields,
                NameKind::JumpLink => &mut links,
                // Subgraph files are read before compiling, not named in the program.
                NameKind::GraphFile => continue,
            };
            table.insert(named.name);
        }
    }
    over("jump link names", links.len(), MAX_JUMP_LINKS);
    over("path names", paths.len(), MAX_NAMES);
    over("flow-field names", fields.len(), MAX_NAMES);
    over("target names", targets.len(), MAX_NAMES);
    over("tag names", tags.len(), MAX_NAMES);
    over("own goal and route names", own.len(), MAX_NAMES);
    errors
}

/// Every problem of `graph` that stops it compiling: those of the graph as a whole and of the
/// nodes its Output reaches.
pub(super) fn validate(graph: &Graph) -> Vec<CompileError> {
    check(graph).errors
}

/// What [`check`] found: the problems that stop the graph compiling, and those of nodes the
/// Output does not reach, which run nothing (warnings).
pub(super) struct Checked {
    /// The graph's own problems and those of the nodes the Output reaches.
    pub(super) errors: Vec<CompileError>,
    /// Problems of nodes the Output does not reach.
    pub(super) unreached: Vec<CompileError>,
}

/// The nodes the single Output reaches through inputs (muted nodes and what feeds them
/// included: unmuting them runs them); every node when there is not exactly one Output (that
/// is itself an error, and then every node's problems are).
pub(crate) fn reached(graph: &Graph) -> BTreeSet<NodeId> {
    let mut outputs = graph
        .nodes
        .iter()
        .filter(|(_, node)| matches!(node, Node::Output { .. }))
        .map(|(id, _)| *id);
    let (Some(output), None) = (outputs.next(), outputs.next()) else {
        return graph.nodes.keys().copied().collect();
    };
    let mut seen = BTreeSet::from([output]);
    let mut stack = vec![output];
    while let Some(id) = stack.pop() {
        for port in graph.nodes.get(&id).map(Node::inputs).unwrap_or_default() {
            if let Some(source) = port.link.source()
                && graph.nodes.contains_key(&source)
                && seen.insert(source)
            {
                stack.push(source);
            }
        }
    }
    seen
}

/// Every problem of `graph` at once, each with its place, split by whether the Output reaches
/// its node.
#[expect(
    clippy::too_many_lines,
    reason = "every check of the compiler in order, one short block each"
)]
pub(super) fn check(graph: &Graph) -> Checked {
    let mut errors = limits(graph);
    if !errors.is_empty() {
        // A graph over a limit is refused before the per-node checks, which it could flood.
        return Checked {
            errors,
            unreached: Vec::new(),
        };
    }
    let reached = reached(graph);
    let mut unreached = Vec::new();
    for &node in &graph.muted {
        if !graph.nodes.contains_key(&node) {
            errors.push(CompileError::UnknownMuted { node });
        }
    }
    for (name, &value) in &graph.parameters {
        if !value.is_finite() {
            errors.push(CompileError::NonFiniteParameter {
                name: name.clone(),
                value,
            });
        }
    }
    let outputs: Vec<NodeId> = graph
        .nodes
        .iter()
        .filter(|(_, node)| matches!(node, Node::Output { .. }))
        .map(|(id, _)| *id)
        .collect();
    match outputs.len() {
        0 => errors.push(CompileError::NoOutput),
        1 => {}
        _ => errors.push(CompileError::MultipleOutputs { nodes: outputs }),
    }
    for nodes in cycles(graph) {
        let runs = nodes.iter().any(|node| reached.contains(node));
        let cycle = CompileError::Cycle { nodes };
        if runs {
            errors.push(cycle);
        } else {
            unreached.push(cycle);
        }
    }

    for field in graph
        .vehicle
        .numbers()
        .into_iter()
        .chain(graph.turning.numbers())
    {
        check_number(
            graph,
            None,
            field.slot,
            field.number,
            field.constraint,
            &mut errors,
        );
    }

    let reroutes = super::reroutes::Reroutes::new(graph, |_| false);
    for (&id, node) in &graph.nodes {
        // A node the Output does not reach runs nothing: its problems are warnings.
        let errors = if reached.contains(&id) {
            &mut errors
        } else {
            &mut unreached
        };
        for port in node.inputs() {
            let Some(source) = port.link.source() else {
                errors.push(CompileError::UnconnectedInput {
                    node: id,
                    port: port.slot,
                });
                continue;
            };
            match (
                graph.nodes.get(&source),
                reroutes.output_type(graph, source),
            ) {
                (None, _) => errors.push(CompileError::DanglingLink {
                    node: id,
                    port: port.slot,
                    missing: source,
                }),
                // A Reroute takes any type; its readers check what comes through it.
                _ if matches!(node, Node::Reroute { .. }) => {}
                (Some(_), Some(found)) if found != port.accepts => {
                    errors.push(CompileError::WrongPortType {
                        node: id,
                        port: port.slot,
                        expected: port.accepts,
                        found,
                        source,
                    });
                }
                // Fed through a Reroute chain that is itself unconnected (reported there) or
                // loops (reported as a cycle).
                _ => {}
            }
        }
        for field in node.numbers() {
            check_number(
                graph,
                Some(id),
                field.slot,
                field.number,
                field.constraint,
                errors,
            );
        }
        for (field, target) in node.targets() {
            if let Target::Named(name) | Target::NearestTagged(name) | Target::Own(name) = target
                && name.trim().is_empty()
            {
                errors.push(CompileError::MissingName { node: id, field });
            }
        }
        for named in node.names() {
            // A subgraph's file is checked where subgraphs are read (an empty one is a file
            // that cannot be found, with its path).
            let needed = match named.kind {
                NameKind::Path | NameKind::FlowField | NameKind::JumpLink => true,
                NameKind::GraphFile => false,
            };
            if needed && named.name.trim().is_empty() {
                errors.push(CompileError::MissingName {
                    node: id,
                    field: named.field,
                });
            }
        }
        match node {
            Node::ReachOrientation {
                orientation: Heading::Of(target),
                ..
            } if !matches!(target, Target::NearestTagged(_)) => {
                errors.push(CompileError::NoFacing { node: id });
            }
            _ => {}
        }
    }
    Checked { errors, unreached }
}

fn check_number(
    graph: &Graph,
    node: Option<NodeId>,
    field: Slot,
    number: &Number,
    constraint: Constraint,
    errors: &mut Vec<CompileError>,
) {
    let (value, parameter) = match number {
        Number::Literal(value) => (*value, None),
        Number::Parameter(name) => match graph.parameters.get(name) {
            Some(value) => (*value, Some(name.clone())),
            None => {
                errors.push(CompileError::UnknownParameter {
                    node,
                    field,
                    name: name.clone(),
                });
                return;
            }
        },
    };
    // A non-finite default is reported once, on the parameter itself.
    if parameter.is_some() && !value.is_finite() {
        return;
    }
    if !constraint.accepts(value) {
        errors.push(CompileError::InvalidNumber {
            node,
            field,
            value,
            constraint,
            parameter,
        });
    }
}

/// Every cycle (strongly connected component with a loop), each as its sorted node ids.
/// Iterative Tarjan, so a huge graph cannot overflow the stack.
fn cycles(graph: &Graph) -> Vec<Vec<NodeId>> {
    let ids: Vec<NodeId> = graph.nodes.keys().copied().collect();
    let dense: BTreeMap<NodeId, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let edges: Vec<Vec<usize>> = graph
        .nodes
        .values()
        .map(|node| {
            node.inputs()
                .iter()
                .filter_map(|port| port.link.source().and_then(|s| dense.get(&s).copied()))
                .collect()
        })
        .collect();
    let count = ids.len();
    let mut index: Vec<Option<usize>> = vec![None; count];
    let mut low = vec![0usize; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut found = Vec::new();

    for start in 0..count {
        if index.get(start).copied().flatten().is_some() {
            continue;
        }
        let mut calls: Vec<(usize, usize)> = vec![(start, 0)];
        index[start] = Some(next_index);
        low[start] = next_index;
        next_index += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut edge)) = calls.last_mut() {
            if let Some(&w) = edges[v].get(*edge) {
                *edge += 1;
                match index[w] {
                    None => {
                        index[w] = Some(next_index);
                        low[w] = next_index;
                        next_index += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        calls.push((w, 0));
                    }
                    Some(w_index) if on_stack[w] => low[v] = low[v].min(w_index),
                    Some(_) => {}
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if Some(low[v]) == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(ids[w]);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 || edges[v].contains(&v) {
                    component.sort_unstable();
                    found.push(component);
                }
            }
        }
    }
    found.sort();
    found
}
