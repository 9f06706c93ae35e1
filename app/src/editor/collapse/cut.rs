//! The cut itself, on graphs alone: which selections can become a subgraph, the new file
//! (its nodes, parameters and layout) and the user's graph with one Subgraph node in their
//! place; and how files name each other (`relative`, `key_in`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path};

use glam::Vec2;
use graph_runtime::{EditorSection, Graph, Link, Node, NodeId, Number, PortType, subgraph_key};

/// How far right of the selection's rightmost node the new file's Output goes.
const OUTPUT_GAP: f32 = 260.0;

/// The result of a cut: the new file and the user's graph with one node in place of many.
#[derive(Debug)]
pub struct Collapsed {
    /// The subgraph file's graph (ids from 1, an Output added).
    pub subgraph: Graph,
    /// The user's graph with the Subgraph node.
    pub user: Graph,
    /// The Subgraph node's id in `user`.
    pub node: NodeId,
}

/// Cuts `selected` out of `graph` (saved as `key`) into a file to be saved as `file` (a key
/// too: the path from `graph`'s folder with `/`). Every graph parameter the nodes use
/// becomes a parameter of the file with the same default, and the Subgraph node passes the
/// user's own parameter down, so scenes and games that override it still do.
///
/// # Errors
///
/// Why the selection cannot become a subgraph, in words for the status line.
pub fn collapse(
    graph: &Graph,
    selected: &[NodeId],
    key: &str,
    file: &str,
) -> Result<Collapsed, String> {
    let inside: BTreeSet<NodeId> = selected.iter().copied().collect();
    let out = check_cut(graph, &inside)?;
    let renumber: BTreeMap<NodeId, NodeId> = inside
        .iter()
        .enumerate()
        .map(|(index, id)| (*id, NodeId(index as u32 + 1)))
        .collect();
    let mut subgraph = Graph {
        description: format!("Cut from {key}."),
        vehicle: graph.vehicle.clone(),
        turning: graph.turning.clone(),
        ..Graph::default()
    };
    for id in &inside {
        let (Some(node), Some(&new)) = (graph.nodes.get(id), renumber.get(id)) else {
            continue;
        };
        let mut copy = node.clone();
        for port in node.inputs() {
            if let Some(link) = copy.input_mut(port.slot) {
                *link = Link(port.link.source().and_then(|s| renumber.get(&s).copied()));
            }
        }
        if let Node::Subgraph { file: named, .. } = &mut copy {
            *named = relative(file, &subgraph_key(key, named));
        }
        for field in node.numbers() {
            if let Number::Parameter(name) = field.number
                && let Some(default) = graph.parameters.get(name)
            {
                subgraph.parameters.insert(name.clone(), *default);
            }
        }
        subgraph.nodes.insert(new, copy);
        if graph.muted.contains(id) {
            subgraph.muted.insert(new);
        }
    }
    let output = subgraph.add(Node::Output {
        input: Link(renumber.get(&out).copied()),
    });
    subgraph.editor = layout(graph, &renumber, output);
    let user = replace(graph, &inside, out, &subgraph, key, file);
    let node = user.1;
    Ok(Collapsed {
        subgraph,
        user: user.0,
        node,
    })
}

/// The one selected node that feeds nodes outside, after checking the cut is possible.
fn check_cut(graph: &Graph, inside: &BTreeSet<NodeId>) -> Result<NodeId, String> {
    if inside.is_empty() {
        return Err("Select the nodes to put into a subgraph first.".to_owned());
    }
    let mut feeding = BTreeSet::new();
    for (id, node) in &graph.nodes {
        for port in node.inputs() {
            let Some(source) = port.link.source() else {
                continue;
            };
            match (inside.contains(id), inside.contains(&source)) {
                (true, false) => {
                    return Err(format!(
                        "Node {id} takes input from node {source}, outside the selection, and a subgraph has no inputs: select {source} too, or leave {id} out."
                    ));
                }
                (false, true) => {
                    feeding.insert(source);
                }
                _ => {}
            }
        }
    }
    if let Some(id) = inside
        .iter()
        .find(|id| matches!(graph.nodes.get(id), Some(Node::Output { .. })))
    {
        return Err(format!(
            "The Output (node {id}) stays in the graph: select the nodes that feed it."
        ));
    }
    let out = match feeding.len() {
        0 => return Err("Nothing outside the selection uses it: wire it to the graph first, so the subgraph's output is known.".to_owned()),
        1 => feeding.first().copied().unwrap_or(NodeId(0)),
        _ => {
            let list: Vec<String> = feeding.iter().map(ToString::to_string).collect();
            return Err(format!(
                "A subgraph has one output, but nodes {} of the selection feed nodes outside it.",
                list.join(" and ")
            ));
        }
    };
    match graph.output_type(out) {
        Some(PortType::Steering) | None => Ok(out),
        Some(found) => Err(format!(
            "A subgraph outputs a force, but node {out}, which feeds the rest of the graph, outputs a {found}."
        )),
    }
}

/// `graph` without `inside`, a Subgraph node using `file` in their place (at their centre)
/// taking over every wire from `out`; and that node's id.
fn replace(
    graph: &Graph,
    inside: &BTreeSet<NodeId>,
    out: NodeId,
    subgraph: &Graph,
    key: &str,
    file: &str,
) -> (Graph, NodeId) {
    let mut user = graph.clone();
    let node = user.next_id();
    user.nodes.retain(|id, _| !inside.contains(id));
    user.muted.retain(|id| !inside.contains(id));
    let parameters = subgraph
        .parameters
        .keys()
        .map(|name| (name.clone(), Number::Parameter(name.clone())))
        .collect();
    user.nodes.insert(
        node,
        Node::Subgraph {
            file: relative(key, file),
            parameters,
        },
    );
    for other in user.nodes.values_mut() {
        let ports = other.inputs();
        for port in ports {
            if port.link.source() == Some(out)
                && let Some(link) = other.input_mut(port.slot)
            {
                *link = Link(Some(node));
            }
        }
    }
    if let Some(editor) = &mut user.editor {
        let cut: Vec<Vec2> = inside
            .iter()
            .filter_map(|id| editor.positions.get(id).copied())
            .collect();
        let centre = cut.iter().copied().sum::<Vec2>() / cut.len().max(1) as f32;
        editor.positions.retain(|id, _| !inside.contains(id));
        editor.collapsed.retain(|id| !inside.contains(id));
        editor.positions.insert(node, centre);
    }
    (user, node)
}

/// The file's canvas: the nodes where they were (moved to start at the origin), the Output
/// to the right of them.
fn layout(
    graph: &Graph,
    renumber: &BTreeMap<NodeId, NodeId>,
    output: NodeId,
) -> Option<EditorSection> {
    let editor = graph.editor.as_ref()?;
    let cut: Vec<(NodeId, Vec2)> = renumber
        .iter()
        .filter_map(|(old, new)| editor.positions.get(old).map(|p| (*new, *p)))
        .collect();
    let min = cut
        .iter()
        .fold(Vec2::splat(f32::MAX), |m, (_, p)| m.min(*p));
    let max = cut
        .iter()
        .fold(Vec2::splat(f32::MIN), |m, (_, p)| m.max(*p));
    let mut positions: BTreeMap<NodeId, Vec2> =
        cut.into_iter().map(|(id, p)| (id, p - min)).collect();
    if !positions.is_empty() {
        positions.insert(output, Vec2::new(max.x - min.x + OUTPUT_GAP, 0.0));
    }
    let collapsed = renumber
        .iter()
        .filter(|(old, _)| editor.collapsed.contains(old))
        .map(|(_, new)| *new)
        .collect();
    Some(EditorSection {
        positions,
        comments: Vec::new(),
        collapsed,
    })
}

/// How the file whose key is `from` names the file whose key is `to` (both paths from one
/// folder): `relative("lib/b.graph.ron", "lib/a.graph.ron")` is `"a.graph.ron"`.
pub fn relative(from: &str, to: &str) -> String {
    let from: Vec<&str> = from.split('/').collect();
    let from = &from[..from.len().saturating_sub(1)];
    let to: Vec<&str> = to.split('/').collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; from.len() - common];
    parts.extend(&to[common..]);
    parts.join("/")
}

/// `path` as a key from `folder` (`/` between names), when it lies inside it.
pub(super) fn key_in(folder: &Path, path: &Path) -> Option<String> {
    let absolute = |p: &Path| {
        let base = if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        };
        base.canonicalize().ok()
    };
    let folder = absolute(folder)?;
    let parent = absolute(path.parent()?)?;
    let inside = parent.strip_prefix(&folder).ok()?.join(path.file_name()?);
    let parts: Option<Vec<String>> = inside
        .components()
        .map(|c| match c {
            Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    parts.map(|p| p.join("/"))
}
