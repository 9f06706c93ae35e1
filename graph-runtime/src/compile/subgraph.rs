//! Subgraphs: a `Subgraph` node stands for another graph file. Before compiling, every one is
//! written out in place (inlined), so a compiled graph runs exactly as fast as the same graph
//! built by hand (`BEHAVIORS.md`, "Subgraphs").
//!
//! Graph files are known by a key: their path relative to one folder (a scene's, or the root
//! graph's), with `/` between names. A Subgraph node's `file` is relative to the folder of
//! the graph that holds it; [`subgraph_key`] turns it into a key.

use std::collections::BTreeMap;

use super::error::CompileError;
use crate::graph::{Graph, Link, Node, NodeId, Number};
use crate::limits::{MAX_NODES, MAX_SUBGRAPH_DEPTH, MAX_SUBGRAPH_ERRORS};

/// The key of the file `file` that a graph saved as `parent` names: `file` joined to
/// `parent`'s folder, with `.` and `..` worked out (`"lib/a.graph.ron"` naming
/// `"../b.graph.ron"` gives `"b.graph.ron"`). A `..` above the top is kept, so such a file is
/// simply not found in a library keyed inside the folder.
pub fn subgraph_key(parent: &str, file: &str) -> String {
    // An absolute path stays absolute (loaders then refuse it by name, as scenes' references
    // are refused), never read as the folder's file of that name.
    let bytes = file.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if file.starts_with(['/', '\\']) || drive {
        return file.to_owned();
    }
    let mut parts: Vec<&str> = parent.split('/').collect();
    parts.pop();
    for part in file.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// `graph` (saved as `key`) with every `Subgraph` node written out from `library`, subgraphs
/// of subgraphs included. Each Subgraph node becomes a `Reroute` to the inlined copy of its
/// file's Output input (so the wires into it stay as they are and it costs nothing), the
/// copy's nodes get fresh ids above the graph's, its parameters take the node's values (or
/// their defaults), and its muted nodes stay muted. The subgraph's vehicle is not used.
///
/// # Errors
///
/// A missing file, a loop of files using each other, a value for a parameter the file does
/// not declare, a file that does not compile on its own ([`CompileError::InSubgraph`]), or
/// more than [`MAX_NODES`] nodes once written out or subgraphs nested deeper than
/// [`MAX_SUBGRAPH_DEPTH`]. At most [`MAX_SUBGRAPH_ERRORS`] problems are reported from inside
/// one use of a file. Each file is written out once, however often it is used.
pub fn inline_subgraphs(
    graph: &Graph,
    key: &str,
    library: &BTreeMap<String, Graph>,
) -> Result<Graph, Vec<CompileError>> {
    inline_traced(graph, key, library).map(|(flat, _)| flat)
}

/// Where a node of a written-out graph came from: the Subgraph node it stands in for, the
/// file, and its id in that file (written out itself).
#[derive(Clone, Debug)]
pub(super) struct Origin {
    pub node: NodeId,
    pub file: String,
    pub id: NodeId,
}

/// [`inline_subgraphs`], with the origin of every node it wrote in, by new id.
pub(super) fn inline_traced(
    graph: &Graph,
    key: &str,
    library: &BTreeMap<String, Graph>,
) -> Result<(Graph, BTreeMap<NodeId, Origin>), Vec<CompileError>> {
    let mut inliner = Inliner {
        library,
        stack: vec![key.to_owned()],
        done: BTreeMap::new(),
        origins: BTreeMap::new(),
    };
    let flat = inliner.inline(graph, key)?;
    Ok((flat, inliner.origins))
}

/// `error`, about a node that a subgraph wrote in (a value given to one of its parameters that
/// its field does not take), told about the Subgraph node; any other error as it is.
pub(super) fn blame(mut error: CompileError, origins: &BTreeMap<NodeId, Origin>) -> CompileError {
    let Some(origin) = error.node().and_then(|id| origins.get(&id)) else {
        return error;
    };
    let origin = origin.clone();
    if let CompileError::InvalidNumber { node, .. } | CompileError::UnknownParameter { node, .. } =
        &mut error
    {
        *node = Some(origin.id);
    }
    CompileError::InSubgraph {
        node: origin.node,
        file: origin.file,
        error: Box::new(error),
    }
}

/// A file written out and checked, or its problems (ids are the file's own).
type Flat = Result<Graph, Vec<CompileError>>;

struct Inliner<'l> {
    library: &'l BTreeMap<String, Graph>,
    /// The files being inlined, outermost first.
    stack: Vec<String>,
    /// The files already written out, by key.
    done: BTreeMap<String, Flat>,
    /// Where each node written into the outermost graph came from.
    origins: BTreeMap<NodeId, Origin>,
}

impl Inliner<'_> {
    fn inline(&mut self, graph: &Graph, key: &str) -> Result<Graph, Vec<CompileError>> {
        let uses: Vec<(NodeId, String, BTreeMap<String, Number>)> = graph
            .nodes
            .iter()
            .filter_map(|(id, node)| match node {
                Node::Subgraph { file, parameters } => {
                    // No file named yet: no key (an empty one could be taken for the graph's
                    // own in a library without keys).
                    let file = if file.trim().is_empty() {
                        String::new()
                    } else {
                        subgraph_key(key, file)
                    };
                    Some((*id, file, parameters.clone()))
                }
                _ => None,
            })
            .collect();
        if uses.is_empty() {
            return Ok(graph.clone());
        }
        let mut flat = graph.clone();
        let mut errors = Vec::new();
        for (node, file, values) in uses {
            match self.flat_subgraph(node, &file) {
                Ok(sub) => match splice(&mut flat, node, &sub, &values, &file) {
                    Ok(ids) if self.stack.len() == 1 => {
                        for (id, new) in ids {
                            let file = file.clone();
                            self.origins.insert(new, Origin { node, file, id });
                        }
                    }
                    Ok(_) => {}
                    Err(error) => errors.push(error),
                },
                Err(mut found) => errors.append(&mut found),
            }
        }
        if errors.is_empty() {
            Ok(flat)
        } else {
            Err(errors)
        }
    }

    /// The file `file` used by node `node`, itself inlined and checked on its own.
    fn flat_subgraph(&mut self, node: NodeId, file: &str) -> Result<Graph, Vec<CompileError>> {
        if file.is_empty() {
            return Err(vec![CompileError::SubgraphMissing {
                node,
                file: String::new(),
            }]);
        }
        if let Some(start) = self.stack.iter().position(|k| k == file) {
            let mut files = self.stack.get(start..).unwrap_or(&[]).to_vec();
            files.push(file.to_owned());
            return Err(vec![CompileError::SubgraphCycle { node, files }]);
        }
        if !self.library.contains_key(file) {
            return Err(vec![CompileError::SubgraphMissing {
                node,
                file: file.to_owned(),
            }]);
        }
        if self.stack.len() > MAX_SUBGRAPH_DEPTH {
            return Err(vec![CompileError::TooMany {
                what: "levels of subgraphs within subgraphs",
                count: self.stack.len(),
                limit: MAX_SUBGRAPH_DEPTH,
            }]);
        }
        let flat = match self.done.get(file) {
            Some(flat) => flat.clone(),
            None => {
                let flat = self.write_out(file);
                self.done.insert(file.to_owned(), flat.clone());
                flat
            }
        };
        flat.map_err(|errors| {
            errors
                .into_iter()
                .take(MAX_SUBGRAPH_ERRORS)
                .map(|error| CompileError::InSubgraph {
                    node,
                    file: file.to_owned(),
                    error: Box::new(error),
                })
                .collect()
        })
    }

    /// The library's file `file` with its own subgraphs written out, checked on its own.
    fn write_out(&mut self, file: &str) -> Flat {
        let Some(sub) = self.library.get(file) else {
            return Ok(Graph::default());
        };
        self.stack.push(file.to_owned());
        let inlined = self.inline(sub, file);
        self.stack.pop();
        let flat = inlined?;
        let problems = super::validate::validate(&flat);
        if problems.is_empty() {
            Ok(flat)
        } else {
            Err(problems)
        }
    }
}

/// Writes `sub` (flat, checked) into `graph` in place of its Subgraph node `node`; the new id
/// of each of `sub`'s nodes.
fn splice(
    graph: &mut Graph,
    node: NodeId,
    sub: &Graph,
    values: &BTreeMap<String, Number>,
    file: &str,
) -> Result<BTreeMap<NodeId, NodeId>, CompileError> {
    if let Some(name) = values
        .keys()
        .find(|name| !sub.parameters.contains_key(*name))
    {
        return Err(CompileError::UnknownSubgraphParameter {
            node,
            name: name.clone(),
            file: file.to_owned(),
        });
    }
    let total = graph.nodes.len() + sub.nodes.len();
    if total > MAX_NODES {
        return Err(CompileError::TooMany {
            what: "nodes once subgraphs are written out",
            count: total,
            limit: MAX_NODES,
        });
    }
    let first = graph.next_id().0;
    let ids: BTreeMap<NodeId, NodeId> = sub
        .nodes
        .keys()
        .enumerate()
        .map(|(offset, id)| (*id, NodeId(first + offset as u32)))
        .collect();
    let mut output = Link::NONE;
    for (id, original) in &sub.nodes {
        if let Node::Output { input } = original {
            output = Link(input.source().and_then(|s| ids.get(&s).copied()));
            continue;
        }
        let mut copy = original.clone();
        for port in original.inputs() {
            if let Some(link) = copy.input_mut(port.slot) {
                *link = Link(port.link.source().and_then(|s| ids.get(&s).copied()));
            }
        }
        let slots: Vec<_> = original.numbers().iter().map(|f| f.slot).collect();
        for slot in slots {
            if let Some(Number::Parameter(name)) = copy.number_mut(slot).map(|n| n.clone())
                && let Some(number) = copy.number_mut(slot)
            {
                *number = values.get(&name).cloned().unwrap_or_else(|| {
                    Number::Literal(sub.parameters.get(&name).copied().unwrap_or(0.0))
                });
            }
        }
        if let Some(&new) = ids.get(id) {
            graph.nodes.insert(new, copy);
            if sub.muted.contains(id) {
                graph.muted.insert(new);
            }
        }
    }
    graph.nodes.insert(node, Node::Reroute { input: output });
    Ok(ids)
}
