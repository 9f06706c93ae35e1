//! The selected scene item's settings, under the toolbar where the designer is looking: a
//! target's name and position, an obstacle's radius, a path's width and closing, a wall's
//! closing, a gap's corners, a jump link's name, ends and heights; and Delete.

use egui::Ui;
use glam::Vec2;
use graph_runtime::Scene;

use super::super::super::widgets::committed_text;
use super::super::SceneDocument;
use super::super::tools::Item;
use super::super::{Preview, SceneEdit};

impl Preview {
    /// The settings of the selected item, when one is selected, else the tool's hint: always
    /// two lines high, so the viewport below never moves, and wrapped to the preview's width,
    /// so every field shows (a jump link's landing was cut off at the right).
    pub fn selected_item_bar(&mut self, document: &mut SceneDocument, ui: &mut Ui) {
        let spacing = ui.spacing();
        let height = 2.0 * spacing.interact_size.y + spacing.item_spacing.y;
        let (rect, _) = ui.allocate_exact_size(
            egui::vec2(ui.available_width(), height),
            egui::Sense::hover(),
        );
        let mut bar = ui.new_child(
            egui::UiBuilder::new()
                .max_rect(rect)
                .layout(egui::Layout::top_down(egui::Align::Min)),
        );
        bar.set_clip_rect(rect.intersect(ui.clip_rect()));
        // More than two lines hold (a jump link in a narrow preview): it scrolls.
        egui::ScrollArea::vertical()
            .id_salt("selected-item")
            .max_height(height)
            .auto_shrink([false, false])
            .show(&mut bar, |ui| self.item_settings(document, ui));
    }

    fn item_settings(&mut self, document: &mut SceneDocument, ui: &mut Ui) {
        let Some(item) = self.selected_item.clone() else {
            ui.add(egui::Label::new(egui::RichText::new(self.tool.hint()).weak()).wrap());
            return;
        };
        let mut edits = Vec::new();
        let mut edited = document.scene.clone();
        ui.horizontal_wrapped(|ui| {
            match &item {
                Item::Target(name) => target_settings(ui, &edited, name, &mut edits),
                Item::Obstacle(index) => obstacle_settings(ui, &mut edited, *index),
                Item::Path(name, _) => path_settings(ui, &mut edited, name),
                Item::Wall(index, _) => wall_settings(ui, &mut edited, *index),
                Item::Gap(index, _) => gap_settings(ui, &edited, *index),
                Item::JumpLink(name, _) => link_settings(ui, &mut edited, name, &mut edits),
            }
            if ui
                .small_button("Delete")
                .on_hover_text(format!("Delete the {} (Del)", item.describe()))
                .clicked()
            {
                edits.push(SceneEdit::Delete(item.clone()));
            }
        });
        if edited != document.scene {
            self.push_edit(SceneEdit::Scene(Box::new(edited)));
        }
        for edit in edits {
            self.push_edit(edit);
        }
    }
}

/// A target's name (renamed on Enter) and position.
fn target_settings(ui: &mut Ui, scene: &Scene, name: &str, edits: &mut Vec<SceneEdit>) {
    let Some(position) = scene.targets.get(name).copied() else {
        return;
    };
    ui.label("target");
    if let Some(new) = committed_text(ui, ui.id().with(("target-name", name)), name, 110.0).1 {
        edits.push(SceneEdit::RenameTarget {
            old: name.to_owned(),
            new,
        });
    }
    let mut moved = position;
    ui.add(egui::DragValue::new(&mut moved.x).speed(0.1).prefix("x "));
    ui.add(egui::DragValue::new(&mut moved.y).speed(0.1).prefix("y "));
    if moved != position && moved.is_finite() {
        edits.push(SceneEdit::Move(Item::Target(name.to_owned()), moved));
    }
}

fn obstacle_settings(ui: &mut Ui, scene: &mut Scene, index: usize) {
    if let Some(obstacle) = scene.obstacles.get_mut(index) {
        ui.label(format!("obstacle {}", index + 1));
        ui.add(
            egui::DragValue::new(&mut obstacle.radius)
                .range(0.1..=1000.0)
                .speed(0.05)
                .prefix("radius ")
                .suffix(" u"),
        );
        position(ui, &mut obstacle.center);
    }
}

fn path_settings(ui: &mut Ui, scene: &mut Scene, name: &str) {
    if let Some(path) = scene.paths.get_mut(name) {
        ui.label(format!("path \"{name}\""));
        ui.add(
            egui::DragValue::new(&mut path.radius)
                .range(0.0..=1000.0)
                .speed(0.05)
                .prefix("radius ")
                .suffix(" u"),
        );
        ui.checkbox(&mut path.closed, "closed");
    }
}

fn wall_settings(ui: &mut Ui, scene: &mut Scene, index: usize) {
    if let Some(wall) = scene.walls.get_mut(index) {
        ui.label(format!(
            "wall {} ({} corners)",
            index + 1,
            wall.points.len()
        ));
        if wall.points.len() >= 3 {
            ui.checkbox(&mut wall.closed, "closed");
        }
    }
}

fn gap_settings(ui: &mut Ui, scene: &Scene, index: usize) {
    if let Some(gap) = scene.gaps.get(index) {
        ui.label(format!(
            "gap {} ({} corners): walkers fall in, jumps fly over",
            index + 1,
            gap.points.len()
        ));
    }
}

/// A jump link's name (renamed on Enter), its two ends and their heights.
fn link_settings(ui: &mut Ui, scene: &mut Scene, name: &str, edits: &mut Vec<SceneEdit>) {
    let Some(link) = scene.jump_links.get_mut(name) else {
        return;
    };
    ui.label("jump link");
    if let Some(new) = committed_text(ui, ui.id().with(("link-name", name)), name, 90.0).1 {
        edits.push(SceneEdit::RenameJumpLink {
            old: name.to_owned(),
            new,
        });
    }
    ui.label("take-off");
    position(ui, &mut link.from);
    ui.add(
        egui::DragValue::new(&mut link.from_height)
            .speed(0.05)
            .prefix("h ")
            .suffix(" u"),
    )
    .on_hover_text("Height of the take-off point");
    ui.label("landing");
    position(ui, &mut link.to);
    ui.add(
        egui::DragValue::new(&mut link.to_height)
            .speed(0.05)
            .prefix("h ")
            .suffix(" u"),
    )
    .on_hover_text("Height of the landing point");
}

fn position(ui: &mut Ui, point: &mut Vec2) {
    ui.add(egui::DragValue::new(&mut point.x).speed(0.1).prefix("x "));
    ui.add(egui::DragValue::new(&mut point.y).speed(0.1).prefix("y "));
}
