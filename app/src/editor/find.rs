//! Find a node (Ctrl+F): a box over the canvas that lists the graph's nodes matching what is
//! typed, by title (`Separation #9`), id (`9`, `#9`) or a name the node holds (its flow
//! field, path, target or subgraph file); Enter or a click selects the node and frames it.

use egui::{Id, Key};
use graph_runtime::{Node, NodeId, Target};
use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::EditorApp;
use super::command::Command;
use super::search::spaced;

/// Most matches listed.
const LISTED: usize = 12;

/// What a node can be found by: its title and the names it holds.
pub fn node_words(id: NodeId, node: &Node) -> String {
    let mut words = format!("{} {id}", spaced(node.kind().name()));
    for (_, target) in node.targets() {
        match target {
            Target::Named(name) | Target::NearestTagged(name) | Target::Own(name) => {
                words.push(' ');
                words.push_str(name);
            }
            Target::Point(..) => {}
        }
    }
    for named in node.names() {
        words.push(' ');
        words.push_str(named.name);
    }
    words
}

/// The nodes matching `query`, best first: an id typed as `9` or `#9` first, then fuzzy
/// matches of the words (ties by id). An empty query lists every node by id.
pub fn find_nodes<'a>(
    query: &str,
    nodes: impl Iterator<Item = (NodeId, &'a Node)>,
) -> Vec<(NodeId, String)> {
    let query = query.trim();
    let mut all: Vec<(NodeId, String)> = nodes.map(|(id, n)| (id, node_words(id, n))).collect();
    all.sort_by_key(|(id, _)| *id);
    if query.is_empty() {
        return all;
    }
    let wanted_id: Option<u32> = query.trim_start_matches('#').parse().ok();
    let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut buffer = Vec::new();
    let mut hits: Vec<(bool, u32, NodeId, String)> = all
        .into_iter()
        .filter_map(|(id, words)| {
            let exact = wanted_id == Some(id.0);
            let score = pattern.score(Utf32Str::new(&words, &mut buffer), &mut matcher);
            (exact || score.is_some()).then(|| (exact, score.unwrap_or(0), id, words))
        })
        .collect();
    hits.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    hits.into_iter()
        .map(|(_, _, id, words)| (id, words))
        .collect()
}

/// The find box's state.
#[derive(Clone, Debug, Default)]
pub struct Find {
    /// Whether the box is open.
    pub open: bool,
    /// What is typed.
    pub query: String,
}

impl EditorApp {
    /// The find box, while open: at the top of the canvas.
    pub(super) fn find_popup(&mut self, ctx: &egui::Context) {
        if !self.view.find.open {
            return;
        }
        let hits = find_nodes(
            &self.view.find.query,
            self.workspace
                .document
                .snarl
                .nodes()
                .map(|n| (n.id, &n.node)),
        );
        let mut picked = None;
        let at = self.view.canvas.rect().center_top() + egui::vec2(-160.0, 8.0);
        let area = egui::Area::new(Id::new("find-node"))
            .fixed_pos(at)
            .order(egui::Order::Foreground)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_width(320.0);
                    ui.label("Find node (name or id)");
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut self.view.find.query)
                            .id(Id::new("find-node-query"))
                            .hint_text("e.g. separation, 9, river")
                            .desired_width(300.0),
                    );
                    field.request_focus();
                    if hits.is_empty() {
                        ui.weak("No node matches");
                    }
                    for (index, (id, words)) in hits.iter().take(LISTED).enumerate() {
                        let label = if index == 0 {
                            egui::RichText::new(words).strong()
                        } else {
                            egui::RichText::new(words)
                        };
                        if ui.selectable_label(false, label).clicked() {
                            picked = Some(*id);
                        }
                    }
                    if ui.input(|i| i.key_pressed(Key::Enter)) {
                        picked = hits.first().map(|(id, _)| *id);
                    }
                });
            });
        if let Some(node) = picked {
            self.push(Command::Select {
                nodes: vec![node],
                add: false,
            });
            self.push(Command::Frame(vec![node]));
            self.view.find = Find::default();
        } else if ctx.input(|i| i.key_pressed(Key::Escape))
            || (ctx.input(|i| i.pointer.any_pressed()) && !area.response.contains_pointer())
        {
            self.view.find = Find::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use graph_runtime::{NodeKind, Number};

    #[test]
    fn nodes_are_found_by_id_title_and_the_names_they_hold() {
        let separation = Node::Separation {
            radius: Number::Literal(1.0),
            fov: Number::Literal(360.0),
            max_neighbors: 64.0.into(),
        };
        let field = Node::FlowFieldFollowing {
            field: "river".to_owned(),
            prediction_time: Number::Literal(0.2),
        };
        let mut jump = NodeKind::Jump.instantiate();
        if let Node::Jump { link, .. } = &mut jump {
            "north ledge".clone_into(link);
        }
        let nodes = [
            (NodeId(3), &separation),
            (NodeId(9), &field),
            (NodeId(12), &separation),
            (NodeId(15), &jump),
        ];
        let ids = |query: &str| -> Vec<u32> {
            find_nodes(query, nodes.iter().copied())
                .into_iter()
                .map(|(id, _)| id.0)
                .collect()
        };
        assert_eq!(ids(""), [3, 9, 12, 15]);
        assert_eq!(ids("#9"), [9]);
        assert_eq!(ids("9")[0], 9);
        assert_eq!(ids("12")[0], 12);
        assert_eq!(ids("river"), [9]);
        assert_eq!(ids("ledge")[0], 15, "a jump by the link it names, first");
        assert_eq!(ids("sep"), [3, 12]);
        assert!(ids("zebra").is_empty());
    }
}
