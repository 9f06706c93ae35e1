//! One agent group in the scene panel: name, agent count (applied on Enter or when the field
//! loses focus, with a warning when the preview cannot keep up), graph, tags, vehicle limits,
//! turning, avoidance (`avoidance.rs`) and parameter overrides.

use egui::Ui;
use graph_runtime::{AgentGroup, Spawn};

use super::super::view::group_color;

/// Most agents one group may have in the preview.
pub const MAX_PREVIEW_AGENTS: u32 = 100_000;
/// Milliseconds of ticks per frame that still give 30 frames per second (two 60 Hz ticks).
const TICKS_PER_FRAME_BUDGET_MS: f32 = 1000.0 / 30.0;

/// What the group editor asks of the scene panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupEdit {
    /// Remove this group.
    Remove,
    /// Open the graph this group runs in the editor.
    EditGraph,
}

/// Edits `group` in place; `estimate` gives the expected milliseconds per tick for a count,
/// `bound` is the open graph's file name.
pub fn group_editor(
    ui: &mut Ui,
    index: usize,
    group: &mut AgentGroup,
    estimate: &dyn Fn(usize) -> Option<f32>,
    bound: &str,
) -> Option<GroupEdit> {
    let mut edit = None;
    // Wrapped: at 1024 points the × was cut off.
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(group_color(index), "■");
        ui.add(egui::TextEdit::singleline(&mut group.name).desired_width(90.0));
        if let Spawn::Random { count, .. } = &mut group.spawn {
            count_field(ui, count);
        } else {
            ui.label(format!("{} agents", group.spawn.count()));
        }
        if ui
            .small_button("×")
            .on_hover_text("Remove the group")
            .clicked()
        {
            edit = Some(GroupEdit::Remove);
        }
    });
    let count = group.spawn.count();
    if let Some(ms) = estimate(count).filter(|ms| 2.0 * ms > TICKS_PER_FRAME_BUDGET_MS) {
        ui.colored_label(
            egui::Color32::from_rgb(235, 170, 80),
            format!(
                "Slow: about {ms:.0} ms per tick at {count} agents: the preview will run slower than real time."
            ),
        );
    }
    // The warning comes and goes with the ticks measured; the settings below have ids of their
    // own, so a click on one in the frame it appears is not lost (a busy CI machine lost one).
    let settings = egui::UiBuilder::new().id(ui.id().with("settings"));
    ui.scope_builder(settings, |ui| settings_rows(ui, group, bound))
        .inner
        .or(edit)
}

/// The group's graph (and its Edit button), tags, vehicle, turning, avoidance and overrides.
fn settings_rows(ui: &mut Ui, group: &mut AgentGroup, bound: &str) -> Option<GroupEdit> {
    let mut edit = None;
    // Wrapped, so the Edit button stays in a narrow panel (at 1024 points it was cut off).
    ui.horizontal_wrapped(|ui| {
        ui.label("graph");
        ui.add(egui::TextEdit::singleline(&mut group.graph).desired_width(130.0));
        if group.graph == bound {
            ui.weak("open")
                .on_hover_text("This is the graph in the editor");
        } else if ui
            .small_button("Edit")
            .on_hover_text("Open this graph in the editor; the scene keeps running")
            .clicked()
        {
            edit = Some(GroupEdit::EditGraph);
        }
    });
    tags(ui, group);
    vehicle(ui, group);
    turning(ui, group);
    super::avoidance::avoidance(ui, group);
    overrides(ui, group);
    ui.separator();
    edit
}

/// An agent count typed as text, applied on Enter or when the field loses focus, so a long
/// number is not spawned digit by digit.
fn count_field(ui: &mut Ui, count: &mut u32) {
    let id = ui.id().with("count");
    let mut text: String = ui
        .data_mut(|d| d.get_temp(id))
        .unwrap_or_else(|| count.to_string());
    let response = ui.add(
        egui::TextEdit::singleline(&mut text)
            .desired_width(64.0)
            .id(id),
    );
    ui.label("agents").on_hover_text(format!(
        "Press Enter to apply; at most {MAX_PREVIEW_AGENTS}"
    ));
    if response.lost_focus() {
        let cancelled = ui.input(|i| i.key_pressed(egui::Key::Escape));
        if !cancelled && let Ok(typed) = text.trim().replace(['_', ','], "").parse::<u32>() {
            *count = typed.min(MAX_PREVIEW_AGENTS);
        }
        ui.data_mut(|d| d.remove::<String>(id));
    } else if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, text));
    } else {
        ui.data_mut(|d| d.remove::<String>(id));
    }
}

fn tags(ui: &mut Ui, group: &mut AgentGroup) {
    ui.horizontal_wrapped(|ui| {
        ui.label("tags");
        let mut tags = group.tags.join(", ");
        if ui
            .add(egui::TextEdit::singleline(&mut tags).desired_width(150.0))
            .changed()
        {
            group.tags = tags
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect();
        }
    });
}

fn vehicle(ui: &mut Ui, group: &mut AgentGroup) {
    let mut custom = group.vehicle.is_some();
    if ui.checkbox(&mut custom, "own vehicle limits").changed() {
        group.vehicle = custom.then(graph_runtime::VehicleParams::default);
    }
    let Some(vehicle) = &mut group.vehicle else {
        return;
    };
    ui.horizontal_wrapped(|ui| {
        for (value, range, speed, prefix) in [
            (&mut vehicle.mass, 0.01..=1000.0, 0.01, "mass "),
            (&mut vehicle.max_speed, 0.0..=1000.0, 0.05, "speed "),
            (&mut vehicle.max_force, 0.0..=10000.0, 0.05, "force "),
            (&mut vehicle.radius, 0.0..=100.0, 0.01, "radius "),
        ] {
            ui.add(
                egui::DragValue::new(value)
                    .range(range)
                    .speed(speed)
                    .prefix(prefix),
            );
        }
    });
}

/// The group's own turning: independent facing, its angular limits and a turn-rate limit,
/// replacing the graph's.
fn turning(ui: &mut Ui, group: &mut AgentGroup) {
    let mut custom = group.turning.is_some();
    if ui
        .checkbox(&mut custom, "own turning")
        .on_hover_text(
            "Replace the graph's turning (independent facing, angular limits, turn-rate limit)",
        )
        .changed()
    {
        group.turning = custom.then(graph_runtime::TurningParams::default);
    }
    let Some(turning) = &mut group.turning else {
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut turning.independent_facing, "independent facing");
        let mut limited = turning.max_turn_rate.is_some();
        if ui.checkbox(&mut limited, "turn-rate limit").changed() {
            turning.max_turn_rate = limited.then_some(90.0);
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::DragValue::new(&mut turning.max_angular_speed)
                .range(0.0..=100_000.0)
                .prefix("ω ")
                .suffix("°/s"),
        )
        .on_hover_text("Largest angular speed of the facing");
        ui.add(
            egui::DragValue::new(&mut turning.max_angular_acceleration)
                .range(0.0..=1_000_000.0)
                .prefix("α ")
                .suffix("°/s²"),
        )
        .on_hover_text("Largest angular acceleration of the facing");
        if let Some(rate) = &mut turning.max_turn_rate {
            ui.add(
                egui::DragValue::new(rate)
                    .range(0.0..=100_000.0)
                    .prefix("turn ")
                    .suffix("°/s"),
            )
            .on_hover_text("Largest turn of the direction of motion");
        }
    });
}

fn overrides(ui: &mut Ui, group: &mut AgentGroup) {
    ui.label("parameter overrides");
    let mut remove = None;
    for (name, value) in &mut group.parameters {
        ui.horizontal_wrapped(|ui| {
            ui.label(name.as_str());
            ui.add(egui::DragValue::new(value).speed(0.05));
            if ui.small_button("×").clicked() {
                remove = Some(name.clone());
            }
        });
    }
    if let Some(name) = remove {
        group.parameters.remove(&name);
    }
    let id = ui.id().with("new-override");
    let mut new_name: String = ui.data_mut(|d| d.get_temp(id).unwrap_or_default());
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut new_name)
                .hint_text("parameter")
                .desired_width(100.0),
        );
        if ui
            .add_enabled(!new_name.trim().is_empty(), egui::Button::new("override"))
            .clicked()
        {
            group.parameters.insert(new_name.trim().to_owned(), 1.0);
            new_name.clear();
        }
    });
    ui.data_mut(|d| d.insert_temp(id, new_name));
}
