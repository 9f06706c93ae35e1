//! Widgets that edit a node's fields: numbers (with units, ranges, and binding to a graph
//! parameter), targets, names and the few kind-specific choices. Used on the nodes and in the
//! side panel alike, so both edit the same way.

mod choices;
mod names;

use choices::kind_specific;
use egui::{DragValue, Ui};
use graph_runtime::{Constraint, Node, Number, Slot, Target, Unit};
pub use names::{NameList, Names};

/// The suffix a number of `unit` is shown with.
pub fn unit(unit: Unit) -> &'static str {
    match unit {
        Unit::Length => " u",
        Unit::Speed => " u/s",
        Unit::Acceleration => " u/s²",
        Unit::Seconds => " s",
        Unit::Degrees => "°",
        Unit::DegreesPerSecond => "°/s",
        Unit::DegreesPerSecondSquared => "°/s²",
        Unit::Unitless => "",
    }
}

fn drag_speed(constraint: Constraint) -> f64 {
    match constraint {
        Constraint::Probability => 0.005,
        Constraint::Angle | Constraint::RightAngle => 1.0,
        Constraint::Count { .. } => 0.1,
        _ => 0.05,
    }
}

/// A human label: `slowing_distance` -> `slowing distance` (list entries by their name).
pub fn label(slot: Slot) -> String {
    slot.name.replace('_', " ")
}

/// Edits one number: a drag value with unit and range, or a graph parameter picked by name.
/// Returns whether it changed.
pub fn number(
    ui: &mut Ui,
    slot: Slot,
    number: &mut Number,
    (constraint, measures): (Constraint, Unit),
    names: &Names,
) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| match number {
        Number::Literal(value) => {
            let mut drag = DragValue::new(value)
                .speed(drag_speed(constraint))
                .suffix(unit(measures));
            drag = match constraint {
                Constraint::NonNegative => drag.range(0.0..=f32::MAX),
                Constraint::Positive => drag.range(1e-3..=f32::MAX),
                Constraint::Probability => drag.range(0.0..=1.0),
                Constraint::Angle => drag.range(0.0..=360.0),
                Constraint::RightAngle => drag.range(0.0..=90.0),
                Constraint::Count { max } => drag.range(1.0..=f32::from(max)).fixed_decimals(0),
                Constraint::Finite => drag,
            };
            changed |= ui.add(drag).on_hover_text(constraint.to_string()).changed();
            if !names.parameters.is_empty() {
                let button = ui.small_button("P").on_hover_text("Use a graph parameter");
                if button.clicked() {
                    *number = Number::Parameter(names.parameters[0].clone());
                    changed = true;
                }
            }
        }
        Number::Parameter(name) => {
            let mut picked = name.clone();
            let fitted = fitted_width(ui);
            // Where it is narrowed, the name alone: the list and its × say it is bound.
            let shown = match fitted {
                Some(_) => picked.clone(),
                None => format!("⚙ {picked}"),
            };
            let list = egui::ComboBox::from_id_salt(("parameter", slot.name, slot.index))
                .selected_text(shown);
            let mut choose = |ui: &mut Ui, list: egui::ComboBox| {
                list.show_ui(ui, |ui| {
                    for parameter in &names.parameters {
                        ui.selectable_value(&mut picked, parameter.clone(), parameter);
                    }
                })
                .response
                .on_hover_text(format!("Graph parameter \"{name}\""));
            };
            match fitted {
                // The list cuts its text at the width it is given room for, not at its own.
                Some(width) => {
                    let size = egui::vec2(width, ui.spacing().interact_size.y);
                    ui.allocate_ui(size, |ui| choose(ui, list.width(width).truncate()));
                }
                None => choose(ui, list),
            }
            if picked != *name {
                *name = picked;
                changed = true;
            }
            if ui
                .small_button("×")
                .on_hover_text("Use a fixed value")
                .clicked()
            {
                *number = Number::Literal(0.0);
                changed = true;
            }
        }
    });
    changed
}

/// The key of what [`fit_to_visible`] notes while it lays out: the width to leave after a
/// list's own ×.
fn fit_key() -> egui::Id {
    egui::Id::new("fields: fit to the visible edge")
}

/// Lays out `add` with each bound parameter's list at most as wide as what is left of the
/// visible width beside it: the name alone (not `⚙ name`), cut short with "…" where it must
/// be, whole on hover. For the side panel, which scrolls sideways, so nothing else bounds its
/// rows: at 1280 × 720 a node with bound parameters (Flocking) ran its lists past the panel's
/// edge, and the rows below wrapped to that wider width. A node on the canvas keeps its lists
/// whole.
pub fn fit_to_visible<R>(ui: &mut Ui, add: impl FnOnce(&mut Ui) -> R) -> R {
    fit_leaving(ui, 0.0, add)
}

/// [`fit_to_visible`], leaving `width` more after each list's × (for the buttons a row has
/// after it, so that they stay on its line).
pub fn fit_leaving<R>(ui: &mut Ui, width: f32, add: impl FnOnce(&mut Ui) -> R) -> R {
    let key = fit_key();
    let before = ui.data(|d| d.get_temp::<f32>(key));
    ui.data_mut(|d| d.insert_temp(key, width));
    let added = add(ui);
    ui.data_mut(|d| match before {
        Some(before) => {
            d.insert_temp(key, before);
        }
        None => d.remove::<f32>(key),
    });
    added
}

/// The width a bound parameter's list may take here, inside [`fit_to_visible`]: what is
/// visible right of the cursor, less room for the × after it (and what the caller leaves),
/// at most egui's usual width and at least enough for a letter or two; `None` elsewhere.
fn fitted_width(ui: &Ui) -> Option<f32> {
    let leave = ui.data(|d| d.get_temp::<f32>(fit_key()))?;
    let spacing = ui.spacing();
    let after = spacing.interact_size.y + spacing.item_spacing.x + leave;
    // A wrapping row wraps at its own right edge, which may come before the visible one.
    let edge = ui.clip_rect().right().min(ui.max_rect().right());
    let visible = edge - ui.cursor().min.x - after;
    Some(visible.clamp(MIN_LIST_WIDTH, spacing.combo_width))
}

/// The narrowest a fitted parameter list gets: "ab…" and its arrow.
const MIN_LIST_WIDTH: f32 = 48.0;

/// The color of a name the open scene does not have.
const NOT_IN_SCENE: egui::Color32 = egui::Color32::from_rgb(235, 170, 80);

/// A name field with a list of the names there are: the open scene's first, then those only
/// the graph uses, marked as missing from the scene. A typed name is taken as it is; one the
/// scene lacks is flagged beside the field.
pub fn name(
    ui: &mut Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    value: &mut String,
    known: &NameList,
) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        changed |= ui
            .add(
                egui::TextEdit::singleline(value)
                    .desired_width(90.0)
                    .hint_text("name"),
            )
            .changed();
        egui::ComboBox::from_id_salt(id)
            .selected_text("")
            .width(18.0)
            .show_ui(ui, |ui| {
                if known.scene.is_empty() && known.graph_only.is_empty() {
                    ui.weak("The open scene has none");
                }
                for option in &known.scene {
                    if ui.selectable_label(value == option, option).clicked() {
                        value.clone_from(option);
                        changed = true;
                    }
                }
                if !known.graph_only.is_empty() {
                    ui.separator();
                    ui.weak("Named by the graph, not in this scene:");
                }
                for option in &known.graph_only {
                    let text =
                        egui::RichText::new(format!("{option}  (missing)")).color(NOT_IN_SCENE);
                    if ui.selectable_label(value == option, text).clicked() {
                        value.clone_from(option);
                        changed = true;
                    }
                }
            });
        if !value.is_empty() && !known.in_scene(value) {
            ui.colored_label(NOT_IN_SCENE, "(!)")
                .on_hover_text(format!("The open scene has nothing named \"{value}\""));
        }
    });
    changed
}

/// Makes the target a kind starts as, from the names known.
type NewTarget = fn(&Names) -> Target;

/// The kinds of target, as the picker offers them, with the target each starts as.
const TARGET_KINDS: [(&str, NewTarget); 4] = [
    ("Point", |_| Target::Point(0.0.into(), 0.0.into())),
    ("Named point", |names| {
        Target::Named(names.targets.first().cloned().unwrap_or_default())
    }),
    ("Nearest tagged agent", |names| {
        Target::NearestTagged(names.tags.first().cloned().unwrap_or_default())
    }),
    ("Agent's own point", |names| {
        Target::Own(
            names
                .own
                .first()
                .cloned()
                .unwrap_or_else(|| "goal".to_owned()),
        )
    }),
];

/// Edits a target: a point, a named world point, the nearest agent with a tag, or the
/// agent's own point of a name (set by the game or the scene group).
pub fn target(ui: &mut Ui, field: &str, target: &mut Target, names: &Names) -> bool {
    let mut changed = false;
    let current = match target {
        Target::Point(..) => 0,
        Target::Named(_) => 1,
        Target::NearestTagged(_) => 2,
        Target::Own(_) => 3,
    };
    ui.horizontal(|ui| {
        ui.label(field);
        egui::ComboBox::from_id_salt(("target-kind", field))
            .selected_text(TARGET_KINDS[current].0)
            .show_ui(ui, |ui| {
                for (index, (label, make)) in TARGET_KINDS.iter().enumerate() {
                    if ui.selectable_label(index == current, *label).clicked() && index != current {
                        *target = make(names);
                        changed = true;
                    }
                }
            });
    });
    match target {
        Target::Point(x, y) => {
            let point = (Constraint::Finite, Unit::Length);
            changed |= number(ui, Slot::field("x"), x, point, names);
            changed |= number(ui, Slot::field("y"), y, point, names);
        }
        Target::Named(name_value) => {
            changed |= name(ui, ("target-name", field), name_value, &names.targets);
        }
        Target::NearestTagged(tag) => {
            changed |= name(ui, ("target-tag", field), tag, &names.tags);
        }
        Target::Own(own) => {
            changed |= name(ui, ("target-own", field), own, &names.own);
        }
    }
    changed
}

/// Every field of `node` except list inputs' weights: numbers, targets, names and choices.
pub fn node_fields(ui: &mut Ui, node: &mut Node, names: &Names) -> bool {
    let mut changed = kind_specific(ui, node, names);
    let targets: Vec<&'static str> = node.targets().iter().map(|(field, _)| *field).collect();
    for field in targets {
        if let Some(target_value) = node.target_mut(field) {
            changed |= target(ui, field, target_value, names);
        }
    }
    let fields: Vec<(Slot, Constraint, Unit)> = node
        .numbers()
        .iter()
        .filter(|f| f.slot.index.is_none() && !f.slot.name.contains('.'))
        .map(|f| (f.slot, f.constraint, f.unit))
        .collect();
    if !fields.is_empty() {
        egui::Grid::new(("fields", ui.id()))
            .num_columns(2)
            .show(ui, |ui| {
                for (slot, constraint, measures) in fields {
                    ui.label(label(slot));
                    if let Some(value) = node.number_mut(slot) {
                        changed |= number(ui, slot, value, (constraint, measures), names);
                    }
                    ui.end_row();
                }
            });
    }
    changed
}

/// The weight (Blend) or probability (Dither) that goes with input `index`, with its range.
pub fn list_weight(node: &Node, index: usize) -> Option<(Slot, Constraint)> {
    let slot = match node {
        Node::Blend { .. } => Slot::item("weight", index),
        Node::Dither { .. } => Slot::item("probability", index),
        _ => return None,
    };
    let constraint = node
        .numbers()
        .iter()
        .find(|f| f.slot == slot)
        .map_or(Constraint::Finite, |f| f.constraint);
    Some((slot, constraint))
}
