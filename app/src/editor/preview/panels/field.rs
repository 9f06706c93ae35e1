//! The flow-field panel: pick, create, resample, fill, clear and generate fields; brush
//! settings; save or load a field file (through the editor's file dialogs).

use egui::Ui;
use glam::Vec2;
use graph_runtime::{FlowField, StrokeKind, WallIndex};

use super::super::super::command::Command;
use super::super::super::file_dialog::Purpose;
use super::super::SceneDocument;
use super::super::{Preview, SceneEdit};

impl Preview {
    /// The panel shown with the paint tool; returns the file the user asked to save the field
    /// to or load it from (the editor's file dialogs ask where).
    pub fn field_panel(&mut self, document: &mut SceneDocument, ui: &mut Ui) -> Option<Command> {
        self.field_picker(document, ui);
        let Some(name) = self.paint.field.clone() else {
            ui.weak("No flow field: create one over the scene's bounds.");
            return None;
        };
        self.brush_settings(ui);
        // Operations work on a copy; a change goes in as one scene edit.
        let mut field = document.fields.get(&name).cloned()?;
        let mut changed = field_operations(ui, &mut field, &mut self.paint);
        changed |= self.generators(document, ui, &mut field);
        let asked = ui
            .horizontal(|ui| {
                if ui.button("Save field as…").clicked() {
                    Some(Command::Ask(Purpose::SaveField(name.clone())))
                } else if ui.button("Load field…").clicked() {
                    Some(Command::Ask(Purpose::LoadField(name.clone())))
                } else {
                    None
                }
            })
            .inner;
        if changed {
            self.push_edit(SceneEdit::Field(name, Box::new(field)));
        }
        asked
    }

    fn field_picker(&mut self, document: &mut SceneDocument, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label("field");
            let selected = self
                .paint
                .field
                .clone()
                .unwrap_or_else(|| "none".to_owned());
            egui::ComboBox::from_id_salt("paint-field")
                .selected_text(selected)
                .show_ui(ui, |ui| {
                    for name in document.fields.keys() {
                        ui.selectable_value(&mut self.paint.field, Some(name.clone()), name);
                    }
                });
            if let Some(field) = self
                .paint
                .field
                .as_ref()
                .and_then(|n| document.fields.get(n))
            {
                ui.weak(format!(
                    "{} × {} cells of {:.2} u",
                    field.width, field.height, field.cell_size
                ));
            }
        });
        ui.horizontal(|ui| {
            ui.add(
                egui::DragValue::new(&mut self.paint.cell_size)
                    .range(0.1..=100.0)
                    .speed(0.05)
                    .prefix("new cells ")
                    .suffix(" u"),
            )
            .on_hover_text("Cell size of a new field, and of Resample");
            if ui.button("New field over bounds").clicked() {
                self.new_field(document);
            }
        });
    }

    fn new_field(&mut self, document: &mut SceneDocument) {
        let fields = &document.fields;
        let name = (1..=fields.len() + 1)
            .map(|i| format!("field {i}"))
            .find(|n| !fields.contains_key(n))
            .unwrap_or_default();
        let field = FlowField::covering(document.scene.bounds, self.paint.cell_size);
        self.push_edit(SceneEdit::NewField(name, Box::new(field)));
    }

    fn brush_settings(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.paint.kind, StrokeKind::Paint, "Paint");
            ui.selectable_value(&mut self.paint.kind, StrokeKind::Erase, "Erase");
            ui.selectable_value(&mut self.paint.kind, StrokeKind::Smooth, "Smooth");
            let brush = &mut self.paint.brush;
            ui.add(
                egui::DragValue::new(&mut brush.radius)
                    .range(0.1..=200.0)
                    .speed(0.05)
                    .prefix("radius ")
                    .suffix(" u"),
            );
            ui.add(
                egui::DragValue::new(&mut brush.strength)
                    .range(0.0..=1.0)
                    .speed(0.01)
                    .prefix("strength "),
            );
            ui.add(
                egui::DragValue::new(&mut brush.softness)
                    .range(0.0..=1.0)
                    .speed(0.01)
                    .prefix("soft "),
            );
        });
    }

    /// "Toward target" and "Away from obstacles"; returns whether the field changed.
    fn generators(
        &mut self,
        document: &mut SceneDocument,
        ui: &mut Ui,
        field: &mut FlowField,
    ) -> bool {
        let mut changed = false;
        // Where each target is drawn: the running world's position (the cursor's follows
        // the mouse), else the scene's.
        let drawn = self.target_positions(document);
        let (scene, paint) = (&document.scene, &mut self.paint);
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("generate-target")
                .selected_text(paint.target.clone())
                .show_ui(ui, |ui| {
                    for target in drawn.keys() {
                        ui.selectable_value(&mut paint.target, target.clone(), target);
                    }
                });
            ui.add(
                egui::DragValue::new(&mut paint.clearance)
                    .range(0.0..=50.0)
                    .speed(0.05)
                    .prefix("clearance "),
            );
            let target = drawn.get(&paint.target).copied();
            let hover = match target {
                Some(at) => format!(
                    "Lead every reachable cell to \"{}\" at ({:.1}, {:.1}), around obstacles and walls",
                    paint.target, at.x, at.y
                ),
                None => format!("The scene has no target \"{}\"", paint.target),
            };
            if ui
                .add_enabled(target.is_some(), egui::Button::new("Toward target"))
                .on_hover_text(&hover)
                .on_disabled_hover_text(&hover)
                .clicked()
                && let Some(target) = target
            {
                let walls = WallIndex::new(&scene.walls);
                field.generate_toward_around(target, &scene.obstacles, &walls, paint.clearance);
                changed = true;
            }
        });
        ui.horizontal(|ui| {
            let (range, strength) = &mut paint.repulsion;
            ui.add(
                egui::DragValue::new(range)
                    .range(0.1..=100.0)
                    .speed(0.05)
                    .prefix("range "),
            );
            ui.add(
                egui::DragValue::new(strength)
                    .range(0.0..=1.0)
                    .speed(0.01)
                    .prefix("strength "),
            );
            if ui.button("Away from obstacles and walls").clicked() {
                let walls = WallIndex::new(&scene.walls);
                field.add_repulsion_from(&scene.obstacles, &walls, *range, *strength);
                changed = true;
            }
        });
        changed
    }
}

/// Resample, fill and clear; returns whether the field changed.
fn field_operations(
    ui: &mut Ui,
    field: &mut FlowField,
    paint: &mut super::super::tools::PaintSettings,
) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        if ui
            .button("Resample")
            .on_hover_text("Resample the field to the new-cell size")
            .clicked()
        {
            *field = field.resampled(paint.cell_size);
            changed = true;
        }
        ui.add(
            egui::DragValue::new(&mut paint.fill_angle)
                .range(-360.0..=360.0)
                .suffix("°"),
        );
        if ui.button("Fill").clicked() {
            field.fill(Vec2::from_angle(paint.fill_angle.to_radians()));
            changed = true;
        }
        if ui.button("Clear").clicked() {
            field.clear();
            changed = true;
        }
    });
    changed
}
