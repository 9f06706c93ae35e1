//! A node's fields that are neither numbers nor ports, each drawn by its type as the node
//! table lists it: the names (a path's or own route's, a flow field's, a jump link's, from
//! `Node::names`) and the choices (`Node::choices_mut`: a switch, a number that may be left
//! out, a wall's side, a path's direction, a comparison, a heading, a velocity, a rectangle).

use egui::Ui;
use graph_runtime::{
    Choice, Comparison, Constraint, Heading, NameKind, Node, Number, PathDirection, Region, Slot,
    Target, Unit, VelocitySource, WallSide,
};

use super::{Names, name, number};

/// The node's fields that are neither numbers nor ports: a picker per name field, then a
/// widget per choice the node table lists (`Node::choices_mut`), chosen by the field's type,
/// so a kind needs nothing here.
pub(super) fn kind_specific(ui: &mut Ui, node: &mut Node, names: &Names) -> bool {
    let mut changed = name_fields(ui, node, names);
    for choice in node.choices_mut() {
        changed |= match choice {
            Choice::Flag { label, hint, value } => flag(ui, label, hint, value),
            Choice::Optional { field, value } => optional(ui, field, value),
            Choice::Side(side) => one_of(
                ui,
                Some("wall on the"),
                side,
                &[(WallSide::Left, "Left"), (WallSide::Right, "Right")],
            ),
            Choice::Direction(direction) => one_of(
                ui,
                None,
                direction,
                &[
                    (PathDirection::Forward, "Forward"),
                    (PathDirection::Backward, "Backward"),
                ],
            ),
            Choice::Comparison(test) => comparison(ui, test),
            Choice::Heading(orientation) => heading(ui, orientation, names),
            Choice::Velocity(velocity) => velocity_source(ui, velocity, names),
            Choice::Region(bounds) => containment_bounds(ui, bounds, names),
            // Grown and shrunk on the node and in the side panel's input list.
            Choice::List(_) => false,
        };
    }
    changed
}

/// A picker for each name field the table gives the node (`Node::names`), offering the open
/// scene's names of that kind: a flow field's, a jump link's. A path's is drawn with its
/// direction and own-route switch ([`path_choices`]), a subgraph's file by its own row.
fn name_fields(ui: &mut Ui, node: &mut Node, names: &Names) -> bool {
    let fields: Vec<(&'static str, NameKind)> = node
        .names()
        .iter()
        .map(|named| (named.field, named.kind))
        .collect();
    let own_route = node.follows_own_path();
    let mut changed = false;
    for (field, kind) in fields {
        let (label, known) = match kind {
            NameKind::FlowField => ("field", &names.flow_fields),
            NameKind::JumpLink => ("jump link", &names.jump_links),
            // Each agent's own route of that name, or a world path.
            NameKind::Path if own_route => ("own route", &names.own),
            NameKind::Path => ("path", &names.paths),
            NameKind::GraphFile => continue,
        };
        if let Some(value) = node.name_mut(field) {
            ui.horizontal(|ui| {
                ui.label(label);
                changed |= name(ui, (field, "name"), value, known);
            });
        }
    }
    changed
}

/// A switch, with its hint when it has one.
fn flag(ui: &mut Ui, label: &str, hint: &str, value: &mut bool) -> bool {
    let response = ui.checkbox(value, label);
    let response = if hint.is_empty() {
        response
    } else {
        response.on_hover_text(hint)
    };
    response.changed()
}

/// A number that may be left out (a Flee's panic distance): switched on at 10, its value then
/// edited with the node's other numbers.
fn optional(ui: &mut Ui, field: &str, value: &mut Option<Number>) -> bool {
    let mut on = value.is_some();
    let label = format!("only within a {}", field.replace('_', " "));
    if ui.checkbox(&mut on, label).changed() {
        *value = on.then_some(Number::Literal(10.0));
        return true;
    }
    false
}

/// One of a few values, side by side after `label` (none: no label): a wall's side, a path's
/// direction.
fn one_of<T: PartialEq + Copy>(
    ui: &mut Ui,
    label: Option<&str>,
    value: &mut T,
    options: &[(T, &str)],
) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        if let Some(label) = label {
            ui.label(label);
        }
        for &(option, text) in options {
            changed |= ui.selectable_value(value, option, text).changed();
        }
    });
    changed
}

/// A Compare node's test.
fn comparison(ui: &mut Ui, test: &mut Comparison) -> bool {
    let mut changed = false;
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
    changed
}

fn heading(ui: &mut Ui, heading: &mut Heading, names: &Names) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("turn to");
        let angle = matches!(heading, Heading::Angle(_));
        let direction = matches!(heading, Heading::Direction(..));
        let agent = matches!(heading, Heading::Of(_));
        if ui.selectable_label(angle, "an angle").clicked() && !angle {
            *heading = Heading::Angle(Number::Literal(90.0));
            changed = true;
        }
        if ui.selectable_label(direction, "a direction").clicked() && !direction {
            *heading = Heading::Direction(Number::Literal(0.0), Number::Literal(1.0));
            changed = true;
        }
        if ui
            .selectable_label(agent, "an agent's facing")
            .on_hover_text("The facing of the nearest agent carrying a tag")
            .clicked()
            && !agent
        {
            let tag = names
                .tags
                .first()
                .cloned()
                .unwrap_or_else(|| "leader".to_owned());
            *heading = Heading::Of(Target::NearestTagged(tag));
            changed = true;
        }
    });
    changed
}

/// What velocity a `MatchVelocity` matches: a target's, or a fixed one.
fn velocity_source(ui: &mut Ui, velocity: &mut VelocitySource, names: &Names) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("match");
        let of = matches!(velocity, VelocitySource::Of(_));
        if ui
            .selectable_label(of, "a target's velocity")
            .on_hover_text("An agent's velocity (a point's is zero)")
            .clicked()
            && !of
        {
            let tag = names
                .tags
                .first()
                .cloned()
                .unwrap_or_else(|| "leader".to_owned());
            *velocity = VelocitySource::Of(Target::NearestTagged(tag));
            changed = true;
        }
        if ui.selectable_label(!of, "a fixed velocity").clicked() && of {
            *velocity = VelocitySource::Fixed(Number::Literal(1.0), Number::Literal(0.0));
            changed = true;
        }
    });
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
                let corner = (Constraint::Finite, Unit::Length);
                changed |= number(ui, Slot::field(slot), value, corner, names);
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
