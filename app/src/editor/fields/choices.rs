//! Choices that only some node kinds have: a path's direction, a field's name, a
//! Containment's rectangle, a panic distance, a comparison, a wall's side.

use egui::Ui;
use graph_runtime::{Comparison, Constraint, Node, Number, PathDirection, Region, Slot};

use super::{Names, name, number};

/// Choices that only some kinds have.
pub(super) fn kind_specific(ui: &mut Ui, node: &mut Node, names: &Names) -> bool {
    let mut changed = false;
    match node {
        Node::PathFollowing {
            path,
            direction,
            corrective,
            own,
            ..
        } => {
            ui.horizontal(|ui| {
                ui.label(if *own { "own route" } else { "path" });
                let known = if *own { &names.own } else { &names.paths };
                changed |= name(ui, "path-name", path, known);
            });
            changed |= ui
                .checkbox(own, "the agent's own route")
                .on_hover_text(
                    "Each agent follows its own route of this name, set by the game \
                     (Crowd::set_route); an agent without one gets zero",
                )
                .changed();
            ui.horizontal(|ui| {
                changed |= ui
                    .selectable_value(direction, PathDirection::Forward, "Forward")
                    .changed();
                changed |= ui
                    .selectable_value(direction, PathDirection::Backward, "Backward")
                    .changed();
                changed |= ui.checkbox(corrective, "corrective").changed();
            });
        }
        Node::WallFollowing { side, .. } => {
            ui.horizontal(|ui| {
                ui.label("wall on the");
                changed |= ui
                    .selectable_value(side, graph_runtime::WallSide::Left, "Left")
                    .changed();
                changed |= ui
                    .selectable_value(side, graph_runtime::WallSide::Right, "Right")
                    .changed();
            });
        }
        Node::FlowFieldFollowing { field, .. } => {
            ui.horizontal(|ui| {
                ui.label("field");
                changed |= name(ui, "field-name", field, &names.flow_fields);
            });
        }
        Node::Containment { bounds, .. } => changed |= containment_bounds(ui, bounds, names),
        Node::Flee { panic_distance, .. } | Node::Evasion { panic_distance, .. } => {
            let mut limited = panic_distance.is_some();
            if ui
                .checkbox(&mut limited, "only within a panic distance")
                .changed()
            {
                *panic_distance = limited.then_some(Number::Literal(10.0));
                changed = true;
            }
        }
        Node::Compare { test, .. } => {
            egui::ComboBox::from_id_salt("compare-test")
                .selected_text(comparison_symbol(*test))
                .show_ui(ui, |ui| {
                    for option in [
                        Comparison::Less,
                        Comparison::LessOrEqual,
                        Comparison::Greater,
                        Comparison::GreaterOrEqual,
                    ] {
                        changed |= ui
                            .selectable_value(test, option, comparison_symbol(option))
                            .changed();
                    }
                });
        }
        _ => {}
    }
    changed
}

/// The rectangle a Containment keeps agents in: the world's bounds or its own.
fn containment_bounds(ui: &mut Ui, bounds: &mut Region, names: &Names) -> bool {
    let mut changed = false;
    let mut own = matches!(bounds, Region::Rect(..));
    if ui
        .checkbox(&mut own, "own rectangle")
        .on_hover_text("Off: the world's bounds")
        .changed()
    {
        *bounds = if own {
            Region::Rect((-10.0).into(), (-10.0).into(), 10.0.into(), 10.0.into())
        } else {
            Region::World
        };
        changed = true;
    }
    if let Region::Rect(min_x, min_y, max_x, max_y) = bounds {
        for (slot, value) in [
            ("min_x", min_x),
            ("min_y", min_y),
            ("max_x", max_x),
            ("max_y", max_y),
        ] {
            ui.horizontal(|ui| {
                ui.label(slot);
                changed |= number(ui, Slot::field(slot), value, Constraint::Finite, names);
            });
        }
    }
    changed
}

fn comparison_symbol(test: Comparison) -> &'static str {
    match test {
        Comparison::Less => "sensor <",
        Comparison::LessOrEqual => "sensor ≤",
        Comparison::Greater => "sensor >",
        Comparison::GreaterOrEqual => "sensor ≥",
    }
}
