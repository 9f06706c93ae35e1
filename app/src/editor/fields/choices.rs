//! Choices that only some node kinds have: the names the node table marks (a flow field's, a
//! jump link's, from `Node::names`), a path's direction, a Containment's rectangle, a panic
//! distance, a comparison, a wall's side, where a `ReachOrientation` turns, what velocity a
//! `MatchVelocity` matches and Wander's facing variant.

use egui::Ui;
use graph_runtime::{
    Comparison, Constraint, Heading, NameKind, Node, Number, PathDirection, Region, Slot, Target,
    VelocitySource,
};

use super::{Names, name, number};

/// Choices that only some kinds have (the angular layer's and the jump's among them), by kind:
/// every kind is named, so a new one fails to build until it is decided here.
#[expect(
    clippy::too_many_lines,
    reason = "every node kind is named, most in one arm of kinds without choices"
)]
pub(super) fn kind_specific(ui: &mut Ui, node: &mut Node, names: &Names) -> bool {
    let mut changed = name_fields(ui, node, names);
    match node {
        Node::PathFollowing {
            path,
            direction,
            corrective,
            own,
            ..
        } => changed |= path_choices(ui, (path, direction, corrective, own), names),
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
        Node::Compare { test, .. } => changed |= comparison(ui, test),
        Node::ReachOrientation { orientation, .. } => changed |= heading(ui, orientation, names),
        Node::MatchVelocity { velocity, .. } => changed |= velocity_source(ui, velocity, names),
        Node::Wander { face, .. } => {
            changed |= ui
                .checkbox(face, "face the wander target")
                .on_hover_text(
                    "The seed's second variant, for a vehicle with independent facing: turn \
                     to face the wander target and drive along the facing at full force",
                )
                .changed();
        }
        // Every other kind: its fields (numbers, targets, inputs, names) are all it has.
        // Listed by name, so a new kind is decided here.
        Node::FlowFieldFollowing { .. }
        | Node::Jump { .. }
        | Node::JumpAchievable { .. }
        | Node::Seek { .. }
        | Node::Arrival { .. }
        | Node::Pursuit { .. }
        | Node::OffsetPursuit { .. }
        | Node::ObstacleAvoidance { .. }
        | Node::WallAvoidance { .. }
        | Node::UnalignedCollisionAvoidance { .. }
        | Node::Reciprocal { .. }
        | Node::Separation { .. }
        | Node::Cohesion { .. }
        | Node::Alignment { .. }
        | Node::Flocking { .. }
        | Node::LeaderFollowing { .. }
        | Node::Interpose { .. }
        | Node::Hide { .. }
        | Node::Face { .. }
        | Node::LookWhereYouAreGoing { .. }
        | Node::Blend { .. }
        | Node::Priority { .. }
        | Node::Dither { .. }
        | Node::Budget { .. }
        | Node::Gate { .. }
        | Node::Scale { .. }
        | Node::Truncate { .. }
        | Node::Distance { .. }
        | Node::NeighborCount { .. }
        | Node::Speed
        | Node::WallDistance
        | Node::Value { .. }
        | Node::WallAhead { .. }
        | Node::All { .. }
        | Node::Any { .. }
        | Node::Not { .. }
        | Node::Subgraph { .. }
        | Node::Reroute { .. }
        | Node::Output { .. } => {}
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
    let mut changed = false;
    for (field, kind) in fields {
        let (label, known) = match kind {
            NameKind::FlowField => ("field", &names.flow_fields),
            NameKind::JumpLink => ("jump link", &names.jump_links),
            NameKind::Path | NameKind::GraphFile => continue,
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

/// A path follower's path or own route, its direction and whether it corrects.
fn path_choices(
    ui: &mut Ui,
    (path, direction, corrective, own): (&mut String, &mut PathDirection, &mut bool, &mut bool),
    names: &Names,
) -> bool {
    let mut changed = false;
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
