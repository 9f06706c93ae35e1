//! The stuck panel's commands, as `EditorApp::apply` carries them out: proving fixes for the
//! agents stuck now (on the scene and the open graph as the preview runs them), and applying
//! one: its graph edits on the open graph, its wall edits on the scene, one undo step.

use std::collections::BTreeMap;

use graph_runtime::diagnose::FixEdit;
use graph_runtime::{Link, NodeId};

use super::EditorApp;
use super::preview::{FixState, SceneEdit};

impl EditorApp {
    /// Starts proving fixes for every agent stuck now, from this moment of the preview.
    pub(super) fn find_fixes(&mut self) {
        let assets = self.with_open_graph(|app, open| app.workspace.scene.assets(open));
        let host = &self.preview.host;
        let Some(simulation) = host.simulation.as_ref() else {
            return;
        };
        self.preview.fixes = match assets {
            // A replay's run edited while it ran is proven on as edited by now.
            Ok(assets) => FixState::start(
                host.as_replayed(assets),
                simulation.keyframe(),
                host.held_diagnoses(),
                host.tick_length(),
            ),
            Err(problems) => FixState::Failed(problems.join("; ")),
        };
    }

    /// Applies the fix at `index` of the last search: its edits of the open graph on the
    /// graph, its wall edits on the scene. A fix that edits another graph file is refused
    /// with a message (the panel does not offer it).
    pub(super) fn apply_fix(&mut self, index: usize) {
        let Some(proven) = self.preview.fixes.fix(index).cloned() else {
            return;
        };
        let open = self.preview.bound.clone();
        if let Some(other) = (proven.fix.edits.iter())
            .filter_map(FixEdit::graph)
            .find(|graph| *graph != open)
        {
            self.status.set(format!(
                "This fix edits {other}, not the open graph: open {other} to apply it."
            ));
            return;
        }
        let mut graph = self.workspace.document.to_graph();
        let before = graph.clone();
        let mut scene = self.workspace.scene.scene.clone();
        for edit in &proven.fix.edits {
            match edit {
                FixEdit::WallPoint { wall, point, to } => {
                    if let Some(at) = scene
                        .walls
                        .get_mut(*wall)
                        .and_then(|w| w.points.get_mut(*point))
                    {
                        *at = *to;
                    }
                }
                graph_edit => {
                    graph_edit.apply_to_graph(&mut graph);
                }
            }
        }
        self.sync_document(&before, &graph);
        if scene != self.workspace.scene.scene {
            self.preview.push_edit(SceneEdit::Scene(Box::new(scene)));
        }
        self.preview.fixes = FixState::Idle;
        self.status.set(format!("Applied: {}", proven.fix.words));
    }

    /// Makes the open graph's document what `edited` is (edited from `before`, its copy):
    /// its parameters' defaults, changed nodes set, added nodes added below the Output with
    /// their links carried over.
    fn sync_document(&mut self, before: &graph_runtime::Graph, edited: &graph_runtime::Graph) {
        let document = &mut self.workspace.document;
        if edited.parameters != before.parameters {
            document.parameters.clone_from(&edited.parameters);
        }
        let output = (edited.nodes.iter())
            .find(|(_, node)| node.kind() == graph_runtime::NodeKind::Output)
            .map(|(id, _)| *id);
        let place = (output.and_then(|id| document.bounds_of(&[id])))
            .map_or(egui::Pos2::ZERO, |rect| {
                rect.left_bottom() + egui::vec2(0.0, 60.0)
            });
        // Nodes the edit added get the document's own ids.
        let mut renamed: BTreeMap<NodeId, NodeId> = BTreeMap::new();
        for (id, node) in &edited.nodes {
            if !before.nodes.contains_key(id) {
                renamed.insert(*id, document.add_node(node.clone(), place));
            }
        }
        for (id, node) in &edited.nodes {
            if before.nodes.get(id) == Some(node) {
                continue;
            }
            let mut node = node.clone();
            for port in node.inputs() {
                let Link(Some(from)) = port.link else {
                    continue;
                };
                if let (Some(new), Some(link)) = (renamed.get(&from), node.input_mut(port.slot)) {
                    *link = Link(Some(*new));
                }
            }
            let target = renamed.get(id).copied().unwrap_or(*id);
            document.set_node(target, node);
        }
    }
}
