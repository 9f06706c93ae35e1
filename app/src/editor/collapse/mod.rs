//! "Collapse into subgraph": the selected nodes become a new graph file, and one Subgraph
//! node takes their place, wired to what they fed. And "Choose file…" on a Subgraph node.
//!
//! The cut is refused, with the reason, where a subgraph could not compute what the nodes did:
//! a subgraph has no inputs (so nothing outside may feed the selection) and one force output
//! (so exactly one selected node may feed the rest, and it must output a force).

mod cut;

use std::path::Path;

use graph_runtime::{Node, NodeId};

use super::EditorApp;
use super::file_dialog::Purpose;
use cut::key_in;
pub use cut::{collapse, relative};

impl EditorApp {
    /// "Collapse into subgraph": checks the cut, then asks where to save the new file.
    pub(super) fn collapse_selection(&mut self) {
        self.record_changes();
        if self.workspace.document.path.is_none() {
            self.status
                .set("Save the graph first: a subgraph file is named from the graph's folder.");
            return;
        }
        let graph = self.workspace.document.to_graph();
        match collapse(&graph, self.workspace.selection.nodes(), "a", "b") {
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
        let graph = self.workspace.document.to_graph();
        let collapsed = match collapse(&graph, self.workspace.selection.nodes(), &key, &file) {
            Ok(collapsed) => collapsed,
            Err(why) => return self.status.set(why),
        };
        if let Err(error) = collapsed.subgraph.save(path) {
            return self.error("Could not save the subgraph.", &error.to_string());
        }
        self.services.disk.saved(path);
        let count = self.workspace.selection.len();
        let cut: Vec<NodeId> = self.workspace.selection.nodes().to_vec();
        let taken: Vec<egui::Rect> = self
            .view
            .canvas
            .node_screen_rects()
            .filter(|(id, _)| !cut.contains(id))
            .map(|(_, rect)| self.view.canvas.transform().inverse() * rect)
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
        self.workspace.document.replace_graph(&user);
        self.record_changes();
        self.after_structure_change();
        self.workspace.selection.set([collapsed.node]);
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
        let Some(Node::Subgraph { parameters, .. }) = self.workspace.document.node(node).cloned()
        else {
            return;
        };
        let named = relative(&key, &file);
        self.workspace.document.set_node(
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
        let Some(own) = self.workspace.document.path.clone() else {
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
