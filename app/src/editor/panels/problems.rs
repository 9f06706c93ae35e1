//! The problems list: compile errors and warnings, grouped by the node they are about.

use std::collections::BTreeMap;

use egui::{Color32, Ui};
use graph_runtime::{CompileError, CompileWarning, NodeId};

/// Problems grouped by the node they are about.
pub fn errors_by_node(problems: &[CompileError]) -> BTreeMap<NodeId, Vec<String>> {
    let mut by_node: BTreeMap<NodeId, Vec<String>> = BTreeMap::new();
    for problem in problems {
        match problem {
            CompileError::Cycle { nodes } | CompileError::MultipleOutputs { nodes } => {
                for node in nodes {
                    by_node.entry(*node).or_default().push(problem.to_string());
                }
            }
            _ => {
                if let Some(node) = problem.node() {
                    by_node.entry(node).or_default().push(problem.to_string());
                }
            }
        }
    }
    by_node
}

/// How problems that stop the graph are written and outlined.
pub const ERROR_COLOR: Color32 = Color32::from_rgb(235, 110, 90);
/// How warnings (the graph runs without the node) are written and outlined.
pub const WARNING_COLOR: Color32 = Color32::from_rgb(235, 185, 80);

/// Each node's warnings (it feeds nothing, or a problem while the Output does not reach it).
pub fn warnings_by_node(warnings: &[CompileWarning]) -> BTreeMap<NodeId, Vec<String>> {
    let mut by_node: BTreeMap<NodeId, Vec<String>> = BTreeMap::new();
    for warning in warnings {
        if let Some(node) = warning.node() {
            by_node.entry(node).or_default().push(warning.to_string());
        }
    }
    by_node
}

/// The problems list; returns the node of a clicked problem.
pub fn problems(
    ui: &mut Ui,
    problems: &[CompileError],
    warnings: &[CompileWarning],
) -> Option<NodeId> {
    let mut clicked = None;
    if problems.is_empty() && warnings.is_empty() {
        ui.colored_label(
            Color32::from_rgb(110, 190, 110),
            "No problems: the graph compiles.",
        );
        return None;
    }
    let lines = problems
        .iter()
        .map(|p| (p.to_string(), p.node(), ERROR_COLOR))
        .chain(
            warnings
                .iter()
                .map(|w| (format!("warning: {w}"), w.node(), WARNING_COLOR)),
        );
    egui::ScrollArea::vertical().show(ui, |ui| {
        for (text, node, color) in lines {
            let text = egui::RichText::new(format!("• {text}")).color(color);
            let response = ui.add(egui::Button::new(text).frame(false));
            if response.clicked() {
                clicked = node;
            }
            if node.is_some() {
                response.on_hover_text("Click to select and frame the node");
            }
        }
    });
    clicked
}
