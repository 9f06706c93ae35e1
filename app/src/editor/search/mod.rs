//! The node search: a filter box over every node kind, serving the right-click menu, the popup
//! (Shift+A or Space) and the menu of a wire dropped on empty space; only kinds that fit the
//! dragged wire are offered.
//!
//! With the box empty, every kind is listed, grouped by category. Typing turns the list into one
//! ranking, best first, as [`rank`] explains: fuzzy on the name or its initials ("obav",
//! "uca"), then a piece of the category or the description ("combiner", "orca"), then names
//! within a typo or two ("seperation"). The letters of the name that matched are underlined
//! in the accent colour, the top hit is filled in the selection colour, Enter adds it, and a
//! click adds any. "No node matches" says when nothing does. Every entry shows its one-line
//! description on hover.

mod rank;

use egui::text::{LayoutJob, TextFormat};
use egui::{Key, Ui};
use graph_runtime::{Category, NodeKind, PortType};

pub use rank::{Hit, rank};

/// Categories in menu order.
const CATEGORIES: [Category; 5] = [
    Category::Behavior,
    Category::GroupBehavior,
    Category::Combiner,
    Category::Condition,
    Category::Output,
];

/// Which kinds fit a wire being dragged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Anything.
    Any,
    /// Kinds with an input that accepts this type (the wire comes from an output).
    InputAccepting(PortType),
    /// Kinds whose output is this type (the wire comes from an input).
    OutputOf(PortType),
}

impl Fit {
    /// Whether `kind` fits. A Reroute fits every wire: it takes and passes on any type, and
    /// adding one connects it whatever the wire carries.
    pub fn admits(self, kind: NodeKind) -> bool {
        match self {
            Self::Any => true,
            _ if kind == NodeKind::Reroute => true,
            Self::InputAccepting(port) => kind
                .instantiate()
                .inputs()
                .iter()
                .any(|input| input.accepts == port),
            Self::OutputOf(port) => kind.output() == port,
        }
    }
}

/// The search's state: the text typed so far, and its ranking while the text stays the same.
#[derive(Debug, Default)]
pub struct NodeSearch {
    /// The filter text.
    pub query: String,
    focused_once: bool,
    ranked: Option<(String, Fit, Vec<Hit>)>,
    /// The pass that last drew the search: one that did not draw it in the pass before is a
    /// new opening, which starts empty and focused.
    shown_at: Option<u64>,
}

impl NodeSearch {
    /// The kinds `rank` finds for the query and the fit, best first (in catalogue order
    /// for an empty query).
    pub fn matches(&self, fit: Fit) -> Vec<NodeKind> {
        rank(&self.query, fit)
            .into_iter()
            .map(|hit| hit.kind)
            .collect()
    }

    /// The query's hits, ranked again only when the query or the fit changed.
    fn hits(&mut self, fit: Fit) -> Vec<Hit> {
        match &self.ranked {
            Some((query, was, hits)) if *query == self.query && *was == fit => hits.clone(),
            _ => {
                let hits = rank(&self.query, fit);
                self.ranked = Some((self.query.clone(), fit, hits.clone()));
                hits
            }
        }
    }

    /// Draws the filter box and the list; returns the kind picked (by click, or Enter for the
    /// top hit).
    pub fn ui(&mut self, ui: &mut Ui, fit: Fit) -> Option<NodeKind> {
        let pass = ui.ctx().cumulative_pass_nr();
        if self.shown_at.is_some_and(|at| pass > at + 1) {
            // Closed since (Escape, a click elsewhere): yesterday's query is not today's.
            self.query.clear();
            self.focused_once = false;
        }
        self.shown_at = Some(pass);
        let edit = ui.add(
            egui::TextEdit::singleline(&mut self.query)
                .hint_text("Search nodes…")
                .desired_width(220.0)
                .id_salt("node-search"),
        );
        // Typing goes straight into the search, as soon as it opens and while nothing else
        // holds the keyboard.
        if !self.focused_once || ui.memory(|m| m.focused().is_none()) {
            edit.request_focus();
            self.focused_once = true;
        }
        let hits = self.hits(fit);
        let mut picked = None;
        if (edit.has_focus() || edit.lost_focus()) && ui.input(|i| i.key_pressed(Key::Enter)) {
            picked = hits.first().map(|hit| hit.kind);
        }
        let ranked = !self.query.trim().is_empty();
        egui::ScrollArea::vertical()
            .max_height(360.0)
            .show(ui, |ui| {
                if hits.is_empty() {
                    ui.weak("No node matches");
                } else if ranked {
                    for (i, hit) in hits.iter().enumerate() {
                        if entry(ui, hit, i == 0).clicked() {
                            picked = Some(hit.kind);
                        }
                    }
                } else {
                    picked = picked.or(grouped(ui, &hits));
                }
            });
        picked
    }
}

/// Every hit under its category's heading, in menu order; returns the kind clicked.
fn grouped(ui: &mut Ui, hits: &[Hit]) -> Option<NodeKind> {
    let mut picked = None;
    for category in CATEGORIES {
        let in_category: Vec<&Hit> = hits
            .iter()
            .filter(|hit| hit.kind.category() == category)
            .collect();
        if in_category.is_empty() {
            continue;
        }
        ui.label(egui::RichText::new(category.to_string()).strong().small());
        for hit in in_category {
            if entry(ui, hit, false).clicked() {
                picked = Some(hit.kind);
            }
        }
    }
    picked
}

/// One kind as a selectable button: its name with the matched letters underlined in the accent
/// colour (the strong text colour on the top hit), filled in the selection colour as the one
/// Enter adds when `top`.
fn entry(ui: &mut Ui, hit: &Hit, top: bool) -> egui::Response {
    let name = spaced(hit.kind.name());
    let font_id = egui::TextStyle::Button.resolve(ui.style());
    let plain = TextFormat::simple(font_id.clone(), ui.visuals().text_color());
    // Underlined too, and brightest on the top hit, whose selection fill the accent colour
    // would barely stand out from.
    let accent = if top {
        ui.visuals().strong_text_color()
    } else {
        ui.visuals().hyperlink_color
    };
    let matched = TextFormat {
        underline: egui::Stroke::new(1.0, accent),
        ..TextFormat::simple(font_id, accent)
    };
    let mut job = LayoutJob::default();
    for (i, c) in name.chars().enumerate() {
        let format = if hit.name_indices.contains(&(i as u32)) {
            &matched
        } else {
            &plain
        };
        job.append(c.encode_utf8(&mut [0; 4]), 0.0, format.clone());
    }
    let hover = if top {
        format!("{}\n(Enter adds it)", hit.kind.description())
    } else {
        hit.kind.description().to_owned()
    };
    // Framed (in the selection colour) only when selected: a frameless button's `selected` is
    // not drawn, and the name's own colours hide the text-colour change.
    ui.add(egui::Button::selectable(top, job))
        .on_hover_text(hover)
}

/// `ObstacleAvoidance` -> `Obstacle Avoidance`.
pub fn spaced(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if i > 0 && c.is_uppercase() {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typing_ranks_name_matches_before_description_matches() {
        let search = NodeSearch {
            query: "avoid".into(),
            ..NodeSearch::default()
        };
        let found = search.matches(Fit::Any);
        assert_eq!(found.len(), 4);
        for kind in [
            NodeKind::ObstacleAvoidance,
            NodeKind::WallAvoidance,
            NodeKind::UnalignedCollisionAvoidance,
        ] {
            assert!(found[..3].contains(&kind), "{kind} is a name match");
        }
        // "collision avoidance" is only in its description.
        assert_eq!(found[3], NodeKind::Reciprocal);
        let search = NodeSearch {
            query: "obstacle av".into(),
            ..NodeSearch::default()
        };
        assert_eq!(search.matches(Fit::Any), vec![NodeKind::ObstacleAvoidance]);
    }

    #[test]
    fn a_dragged_wire_only_offers_kinds_that_fit() {
        let search = NodeSearch::default();
        let from_condition = search.matches(Fit::InputAccepting(PortType::Condition));
        assert!(from_condition.contains(&NodeKind::Gate));
        assert!(from_condition.contains(&NodeKind::Not));
        assert!(!from_condition.contains(&NodeKind::Blend));
        let into_sensor = search.matches(Fit::OutputOf(PortType::Scalar));
        assert_eq!(
            into_sensor,
            vec![
                NodeKind::Distance,
                NodeKind::NeighborCount,
                NodeKind::Speed,
                NodeKind::WallDistance,
                NodeKind::Value,
                NodeKind::Reroute
            ]
        );
    }

    #[test]
    fn a_reroute_is_found_by_name_and_fits_every_wire() {
        let found = |query: &str| {
            NodeSearch {
                query: query.into(),
                ..NodeSearch::default()
            }
            .matches(Fit::Any)
        };
        for query in ["reroute", "rer", "rrt", "reruote"] {
            assert_eq!(found(query)[0], NodeKind::Reroute, "{query}");
        }
        // "bend" is only in its description (and Blend's letters rank first).
        assert!(found("bend").contains(&NodeKind::Reroute));
        let search = NodeSearch {
            query: "rer".into(),
            ..NodeSearch::default()
        };
        for port in [PortType::Steering, PortType::Scalar, PortType::Condition] {
            for fit in [Fit::InputAccepting(port), Fit::OutputOf(port)] {
                assert_eq!(
                    search.matches(fit).first(),
                    Some(&NodeKind::Reroute),
                    "{fit:?}"
                );
            }
        }
    }
}
