//! "Collapse into subgraph": the selected nodes become a new graph file, and one Subgraph
//! node takes their place, wired to what they fed. And "Choose file…" on a Subgraph node.
//!
//! The cut is refused, with the reason, where a subgraph could not compute what the nodes did:
//! a subgraph has no inputs (so nothing outside may feed the selection) and one force output
//! (so exactly one selected node may feed the rest, and it must output a force).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path};

use glam::Vec2;
use graph_runtime::{EditorSection, Graph, Link, Node, NodeId, Number, PortType, subgraph_key};

use super::EditorApp;
use super::file_dialog::Purpose;

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
fn key_in(folder: &Path, path: &Path) -> Option<String> {
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

impl EditorApp {
    /// "Collapse into subgraph": checks the cut, then asks where to save the new file.
    pub(super) fn collapse_selection(&mut self) {
        self.record_changes();
        if self.document.path.is_none() {
            self.status
                .set("Save the graph first: a subgraph file is named from the graph's folder.");
            return;
        }
        let graph = self.document.to_graph();
        match collapse(&graph, self.selection.nodes(), "a", "b") {
            Ok(_) => self.ask(Purpose::SaveSubgraph),
            Err(why) => self.status.set(why),
        }
    }

    /// Writes the selection to `path` as a subgraph and puts one node in its place (one undo
    /// step; the file stays written).
    pub(super) fn collapse_into(&mut self, path: &Path) {
        let Some((key, file)) = self.keys_for(path) else {
            return;
        };
        self.record_changes();
        let graph = self.document.to_graph();
        let collapsed = match collapse(&graph, self.selection.nodes(), &key, &file) {
            Ok(collapsed) => collapsed,
            Err(why) => return self.status.set(why),
        };
        if let Err(error) = collapsed.subgraph.save(path) {
            return self.error("Could not save the subgraph.", &error.to_string());
        }
        self.disk.saved(path);
        let count = self.selection.len();
        let cut: Vec<NodeId> = self.selection.nodes().to_vec();
        let taken: Vec<egui::Rect> = self
            .canvas
            .node_screen_rects()
            .filter(|(id, _)| !cut.contains(id))
            .map(|(_, rect)| self.canvas.transform().inverse() * rect)
            .collect();
        let mut user = collapsed.user;
        let parameters = collapsed.subgraph.parameters.len();
        if let Some(at) = user
            .editor
            .as_mut()
            .and_then(|e| e.positions.get_mut(&collapsed.node))
        {
            // Estimated size of the new node: its file line, buttons and one row per parameter.
            let size = egui::vec2(280.0, 90.0 + 24.0 * parameters as f32);
            let spot = clear_spot(egui::pos2(at.x, at.y), size, &taken);
            *at = glam::Vec2::new(spot.x, spot.y);
        }
        self.document.replace_graph(&user);
        self.record_changes();
        self.after_structure_change();
        self.selection.set([collapsed.node]);
        self.status.set(format!(
            "Collapsed {} into {file} (double-click the node to open it; undo puts them back, the file stays)",
            super::plural(count, "node")
        ));
    }

    /// Makes Subgraph node `node` use the graph file at `path`.
    pub(super) fn choose_subgraph(&mut self, node: NodeId, path: &Path) {
        let Some((key, file)) = self.keys_for(path) else {
            return;
        };
        let Some(Node::Subgraph { parameters, .. }) = self.document.node(node).cloned() else {
            return;
        };
        let named = relative(&key, &file);
        self.document.set_node(
            node,
            Node::Subgraph {
                file: named.clone(),
                parameters,
            },
        );
        self.record_changes();
        self.status.set(format!("Node {node} uses {named}"));
    }

    /// The open graph's key and `path`'s, both from the graph's folder; `None` (with the
    /// reason in the status line) when the graph is unsaved, `path` is outside its folder,
    /// or is the graph itself.
    fn keys_for(&mut self, path: &Path) -> Option<(String, String)> {
        let Some(own) = self.document.path.clone() else {
            self.status
                .set("Save the graph first: a subgraph file is named from the graph's folder.");
            return None;
        };
        let folder = own.parent().unwrap_or(Path::new(""));
        let key = own.file_name()?.to_string_lossy().into_owned();
        let Some(file) = key_in(folder, path) else {
            self.status.set(format!(
                "{} is outside the graph's folder; a subgraph file must be in it or below it, so scenes and games find it.",
                path.display()
            ));
            return None;
        };
        if file == key {
            self.status.set("A graph cannot be its own subgraph.");
            return None;
        }
        Some((key, file))
    }
}

/// Where a node of `size` goes at or nearest `wanted` (graph space) without overlapping any
/// of `taken` (with a gap): `wanted` itself when it is free, else the nearest free point of a
/// grid 40 units apart within 800 units.
pub fn clear_spot(wanted: egui::Pos2, size: egui::Vec2, taken: &[egui::Rect]) -> egui::Pos2 {
    const STEP: f32 = 40.0;
    const REACH: i32 = 20;
    let free = |at: egui::Pos2| {
        let rect = egui::Rect::from_min_size(at, size).expand(8.0);
        !taken.iter().any(|t| t.intersects(rect))
    };
    let mut offsets: Vec<(i32, i32)> = (-REACH..=REACH)
        .flat_map(|x| (-REACH..=REACH).map(move |y| (x, y)))
        .collect();
    offsets.sort_by_key(|(x, y)| (x * x + y * y, *x, *y));
    offsets
        .into_iter()
        .map(|(x, y)| wanted + egui::vec2(x as f32 * STEP, y as f32 * STEP))
        .find(|at| free(*at))
        .unwrap_or(wanted)
}

#[cfg(test)]
mod tests {
    use super::{clear_spot, relative};

    #[test]
    fn a_new_node_goes_to_the_nearest_free_spot() {
        let size = egui::vec2(100.0, 50.0);
        let taken = [egui::Rect::from_min_size(
            egui::pos2(0.0, 0.0),
            egui::vec2(200.0, 100.0),
        )];
        // Free already: stays.
        assert_eq!(
            clear_spot(egui::pos2(400.0, 0.0), size, &taken),
            egui::pos2(400.0, 0.0)
        );
        // On top of the node: the nearest grid point clear of it (with an 8-unit gap) is
        // 160 units up, (0, -160) (the rect spans -160..-110, 8 + 102 = 110 clear).
        let spot = clear_spot(egui::pos2(0.0, 0.0), size, &taken);
        let rect = egui::Rect::from_min_size(spot, size).expand(8.0);
        assert!(!taken[0].intersects(rect), "{spot:?}");
        assert!(spot.distance(egui::pos2(0.0, 0.0)) <= 160.0, "{spot:?}");
    }

    #[test]
    fn files_are_named_from_the_folder_of_the_file_naming_them() {
        assert_eq!(
            relative("main.graph.ron", "lib/a.graph.ron"),
            "lib/a.graph.ron"
        );
        assert_eq!(
            relative("lib/b.graph.ron", "lib/a.graph.ron"),
            "a.graph.ron"
        );
        assert_eq!(relative("lib/b.graph.ron", "c.graph.ron"), "../c.graph.ron");
        assert_eq!(
            relative("x/y/b.graph.ron", "x/z/a.graph.ron"),
            "../z/a.graph.ron"
        );
    }
}
