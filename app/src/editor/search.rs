//! The node search: a filter box over every node kind, grouped by category, each with its
//! one-line description on hover. The same search serves the right-click menu, the popup
//! (Shift+A or Space) and the menu of a wire dropped on empty space.

use egui::{Key, Ui};
use graph_runtime::{Category, NodeKind, PortType};

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
    /// Whether `kind` fits.
    pub fn admits(self, kind: NodeKind) -> bool {
        match self {
            Self::Any => true,
            Self::InputAccepting(port) => kind
                .instantiate()
                .inputs()
                .iter()
                .any(|input| input.accepts == port),
            Self::OutputOf(port) => kind.output() == port,
        }
    }
}

/// The search's state: the text typed so far.
#[derive(Debug, Default)]
pub struct NodeSearch {
    /// The filter text.
    pub query: String,
    focused_once: bool,
}

impl NodeSearch {
    /// Kinds matching the query (case-insensitive, in the name, with or without spaces between
    /// its words, or in the description) and the fit, in catalogue order.
    pub fn matches(&self, fit: Fit) -> Vec<NodeKind> {
        let query = self.query.trim().to_lowercase();
        NodeKind::ALL
            .iter()
            .copied()
            .filter(|kind| fit.admits(*kind))
            .filter(|kind| {
                query.is_empty()
                    || kind.name().to_lowercase().contains(&query)
                    || spaced(kind.name()).to_lowercase().contains(&query)
                    || kind.description().to_lowercase().contains(&query)
            })
            .collect()
    }

    /// Draws the filter box and the grouped list; returns the kind picked (by click, or Enter
    /// for the first match).
    pub fn ui(&mut self, ui: &mut Ui, fit: Fit) -> Option<NodeKind> {
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
        let matches = self.matches(fit);
        let mut picked = None;
        if (edit.has_focus() || edit.lost_focus()) && ui.input(|i| i.key_pressed(Key::Enter)) {
            picked = matches.first().copied();
        }
        egui::ScrollArea::vertical()
            .max_height(360.0)
            .show(ui, |ui| {
                if matches.is_empty() {
                    ui.weak("No node matches");
                }
                for category in CATEGORIES {
                    let in_category: Vec<NodeKind> = matches
                        .iter()
                        .copied()
                        .filter(|k| k.category() == category)
                        .collect();
                    if in_category.is_empty() {
                        continue;
                    }
                    ui.label(egui::RichText::new(category.to_string()).strong().small());
                    for kind in in_category {
                        let button = ui
                            .add(egui::Button::new(spaced(kind.name())).frame(false))
                            .on_hover_text(kind.description());
                        if button.clicked() {
                            picked = Some(kind);
                        }
                    }
                }
            });
        picked
    }
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
    fn typing_filters_by_name() {
        let search = NodeSearch {
            query: "avoid".into(),
            ..NodeSearch::default()
        };
        assert_eq!(
            search.matches(Fit::Any),
            vec![
                NodeKind::ObstacleAvoidance,
                NodeKind::WallAvoidance,
                NodeKind::UnalignedCollisionAvoidance,
                NodeKind::Reciprocal
            ]
        );
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
                NodeKind::Value
            ]
        );
    }
}
