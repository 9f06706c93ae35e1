//! Scene settings for the side panel: seed, bounds, the selected item and the groups.

use std::collections::BTreeMap;

use egui::Ui;
use graph_runtime::{AgentGroup, Area, Scene, Spawn};

use super::super::tools::Item;
use super::super::{Preview, SceneEdit};
use super::group::{GroupEdit, group_editor};

impl Preview {
    /// Seed, bounds, the selected item's settings and every group.
    pub fn scene_panel(&mut self, ui: &mut Ui) {
        // The panel edits a copy; a change goes in as one scene edit.
        let mut edited = self.document.scene.clone();
        let scene = &mut edited;
        ui.horizontal(|ui| {
            ui.label("seed");
            ui.add(egui::DragValue::new(&mut scene.seed));
        });
        ui.horizontal(|ui| {
            ui.label("bounds");
            for value in [
                &mut scene.bounds.min.x,
                &mut scene.bounds.min.y,
                &mut scene.bounds.max.x,
                &mut scene.bounds.max.y,
            ] {
                ui.add(egui::DragValue::new(value).speed(0.5));
            }
        });
        selected_item_settings(ui, scene, self.selected_item.as_ref());
        ui.separator();
        let host = &self.host;
        let estimate = |agents: usize| host.estimated_tick_ms(agents);
        groups(ui, scene, &estimate, &self.bound);
        if edited != self.document.scene {
            self.push_edit(SceneEdit::Scene(Box::new(edited)));
        }
    }
}

/// The settings of the selected obstacle or path.
fn selected_item_settings(ui: &mut Ui, scene: &mut Scene, item: Option<&Item>) {
    match item.cloned() {
        Some(Item::Obstacle(index)) => {
            if let Some(obstacle) = scene.obstacles.get_mut(index) {
                ui.horizontal(|ui| {
                    ui.label(format!("obstacle {index} radius"));
                    ui.add(
                        egui::DragValue::new(&mut obstacle.radius)
                            .range(0.1..=1000.0)
                            .speed(0.05)
                            .suffix(" u"),
                    );
                });
            }
        }
        Some(Item::Path(name, _)) => {
            if let Some(path) = scene.paths.get_mut(&name) {
                ui.horizontal(|ui| {
                    ui.label(format!("{name}: radius"));
                    ui.add(
                        egui::DragValue::new(&mut path.radius)
                            .range(0.0..=1000.0)
                            .speed(0.05)
                            .suffix(" u"),
                    );
                    ui.checkbox(&mut path.closed, "closed");
                });
            }
        }
        _ => {}
    }
}

/// Every group's editor, and "+ group".
fn groups(ui: &mut Ui, scene: &mut Scene, estimate: &dyn Fn(usize) -> Option<f32>, bound: &str) {
    let mut remove = None;
    for (index, group) in scene.groups.iter_mut().enumerate() {
        let edit = ui
            .push_id(index, |ui| group_editor(ui, index, group, estimate))
            .inner;
        if edit == Some(GroupEdit::Remove) {
            remove = Some(index);
        }
    }
    if let Some(index) = remove {
        scene.groups.remove(index);
    }
    if ui.button("+ group").clicked() {
        let graph = scene
            .groups
            .first()
            .map_or_else(|| bound.to_owned(), |g| g.graph.clone());
        scene.groups.push(AgentGroup {
            goals: std::collections::BTreeMap::new(),
            name: format!("group {}", scene.groups.len() + 1),
            graph,
            spawn: Spawn::Random {
                count: 20,
                area: Area::Rect {
                    min: scene.bounds.min,
                    max: scene.bounds.max,
                },
                speed: 0.0,
            },
            vehicle: None,
            tags: Vec::new(),
            parameters: BTreeMap::new(),
        });
    }
}
