//! Scene settings for the side panel: seed, bounds, the named targets and the groups.

use std::collections::BTreeMap;

use egui::Ui;
use graph_runtime::{AgentGroup, Area, Scene, Spawn};

use super::super::super::command::Command;
use super::super::super::widgets::committed_text;
use super::super::SceneDocument;
use super::super::tools::{CURSOR, Item};
use super::super::{Preview, SceneEdit};
use super::group::{GroupEdit, group_editor};

impl Preview {
    /// Seed, bounds, the selected item's settings and every group; returns the editing of a
    /// group's graph when its Edit button was clicked.
    pub fn scene_panel(&mut self, document: &mut SceneDocument, ui: &mut Ui) -> Option<Command> {
        // The panel edits a copy; a change goes in as one scene edit.
        let mut edited = document.scene.clone();
        let scene = &mut edited;
        ui.horizontal_wrapped(|ui| {
            ui.label("seed");
            ui.add(egui::DragValue::new(&mut scene.seed));
        });
        ui.horizontal_wrapped(|ui| {
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
        let mut solid = !scene.passable_walls;
        ui.checkbox(&mut solid, "solid walls").on_hover_text(
            "On: a step that would cross a wall is stopped and slides along it (counted as a \
             blocked step). Off: steps pass through walls, for a game whose own physics keeps \
             agents out; the crossings are counted.",
        );
        scene.passable_walls = !solid;
        ui.separator();
        let mut edits = Vec::new();
        targets(ui, scene, self.selected_item.as_ref(), &mut edits);
        ui.separator();
        jumps(ui, scene, self.selected_item.as_ref(), &mut edits);
        ui.separator();
        let host = &self.host;
        let estimate = |agents: usize| host.estimated_tick_ms(agents);
        let edit_graph = groups(ui, scene, &estimate, &self.bound);
        if edited != document.scene {
            self.push_edit(SceneEdit::Scene(Box::new(edited)));
        }
        for edit in edits {
            self.push_edit(edit);
        }
        edit_graph.map(Command::EditGroupGraph)
    }
}

/// The scene's named targets: rename (Enter), move, select, delete, add.
fn targets(ui: &mut Ui, scene: &Scene, selected: Option<&Item>, edits: &mut Vec<SceneEdit>) {
    ui.strong("Targets");
    ui.weak(format!("{CURSOR}: follows the mouse over the viewport"));
    for (name, position) in &scene.targets {
        if name == CURSOR {
            continue;
        }
        // Wrapped: at 1024 points the y field and × were cut off.
        ui.horizontal_wrapped(|ui| {
            let item = Item::Target(name.clone());
            if ui
                .selectable_label(selected == Some(&item), "◎")
                .on_hover_text("Select it in the viewport")
                .clicked()
            {
                edits.push(SceneEdit::Select(Some(item.clone())));
            }
            let id = ui.id().with(("scene-target", name));
            if let Some(new) = committed_text(ui, id, name, 100.0).1 {
                edits.push(SceneEdit::RenameTarget {
                    old: name.clone(),
                    new,
                });
            }
            let mut moved = *position;
            ui.add(egui::DragValue::new(&mut moved.x).speed(0.1).prefix("x "));
            ui.add(egui::DragValue::new(&mut moved.y).speed(0.1).prefix("y "));
            if moved != *position && moved.is_finite() {
                edits.push(SceneEdit::Move(item.clone(), moved));
            }
            if ui
                .small_button("×")
                .on_hover_text("Delete this target")
                .clicked()
            {
                edits.push(SceneEdit::Delete(item));
            }
        });
    }
    if ui
        .button("+ target")
        .on_hover_text(
            "Add a target at the centre of the bounds (or use Add target in the preview's toolbar)",
        )
        .clicked()
    {
        edits.push(SceneEdit::AddTarget(
            (scene.bounds.min + scene.bounds.max) * 0.5,
        ));
    }
}

/// The scene's jump links (rename on Enter, select, delete) and gaps (select, delete); both
/// are drawn with their tools in the preview's toolbar.
fn jumps(ui: &mut Ui, scene: &Scene, selected: Option<&Item>, edits: &mut Vec<SceneEdit>) {
    ui.strong("Jump links and gaps");
    if scene.jump_links.is_empty() && scene.gaps.is_empty() {
        ui.weak("None: add them with Add jump link and Draw gap in the preview's toolbar.");
        return;
    }
    for name in scene.jump_links.keys() {
        ui.horizontal_wrapped(|ui| {
            let item = Item::JumpLink(name.clone(), None);
            if ui
                .selectable_label(selected == Some(&item), "◎")
                .on_hover_text("Select it in the viewport")
                .clicked()
            {
                edits.push(SceneEdit::Select(Some(item.clone())));
            }
            let id = ui.id().with(("scene-link", name));
            if let Some(new) = committed_text(ui, id, name, 100.0).1 {
                edits.push(SceneEdit::RenameJumpLink {
                    old: name.clone(),
                    new,
                });
            }
            if ui
                .small_button("×")
                .on_hover_text("Delete this jump link")
                .clicked()
            {
                edits.push(SceneEdit::Delete(item));
            }
        });
    }
    for (index, gap) in scene.gaps.iter().enumerate() {
        ui.horizontal_wrapped(|ui| {
            let item = Item::Gap(index, None);
            if ui
                .selectable_label(
                    selected == Some(&item),
                    format!("gap {} ({} corners)", index + 1, gap.points.len()),
                )
                .clicked()
            {
                edits.push(SceneEdit::Select(Some(item.clone())));
            }
            if ui
                .small_button("×")
                .on_hover_text("Delete this gap")
                .clicked()
            {
                edits.push(SceneEdit::Delete(item));
            }
        });
    }
}

/// Every group's editor, and "+ group"; the graph a group's Edit button asks to edit.
fn groups(
    ui: &mut Ui,
    scene: &mut Scene,
    estimate: &dyn Fn(usize) -> Option<f32>,
    bound: &str,
) -> Option<String> {
    let mut remove = None;
    let mut edit_graph = None;
    for (index, group) in scene.groups.iter_mut().enumerate() {
        let edit = ui
            .push_id(index, |ui| group_editor(ui, index, group, estimate, bound))
            .inner;
        match edit {
            Some(GroupEdit::Remove) => remove = Some(index),
            Some(GroupEdit::EditGraph) => edit_graph = Some(group.graph.clone()),
            None => {}
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
            turning: None,
            tags: Vec::new(),
            avoidance: None,
            parameters: BTreeMap::new(),
        });
    }
    edit_graph
}
