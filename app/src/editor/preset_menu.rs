//! File > Presets: a submenu per family of behaviors, each listing its graphs (hovering one
//! shows the graph's description) and the scenes that show them, so every preset is one
//! pointer move away in any window from 1024 × 640 up.

use std::sync::OnceLock;

use egui::Ui;

use super::command::Command;
use super::{EditorApp, presets};

/// Each preset graph's description, read once from the embedded files.
fn descriptions() -> &'static Vec<String> {
    static DESCRIPTIONS: OnceLock<Vec<String>> = OnceLock::new();
    DESCRIPTIONS.get_or_init(|| {
        presets::GRAPHS
            .iter()
            .map(|preset| {
                graph_runtime::Graph::from_ron(preset.text, preset.file)
                    .map(|graph| graph.description)
                    .unwrap_or_default()
            })
            .collect()
    })
}

/// What opening a preset scene brings: the graph its first group runs.
fn scene_hover(preset: &presets::Preset) -> String {
    graph_runtime::Scene::from_ron(preset.text, preset.file)
        .ok()
        .and_then(|scene| scene.groups.first().map(|g| g.graph.clone()))
        .map_or_else(
            || preset.file.to_owned(),
            |graph| format!("{}: opens with the graph {graph}", preset.file),
        )
}

impl EditorApp {
    /// The Presets submenu: one submenu per family.
    pub(super) fn presets_menu(&mut self, ui: &mut Ui) {
        for (family, files) in presets::FAMILIES {
            ui.menu_button(*family, |ui| {
                // Taller than the window (a very small one): scroll rather than run off it.
                let room = ui.ctx().content_rect().height() - 40.0;
                egui::ScrollArea::vertical()
                    .max_height(room.max(120.0))
                    .show(ui, |ui| self.family_menu(ui, files));
            });
        }
    }

    fn family_menu(&mut self, ui: &mut Ui, files: &[&str]) {
        ui.weak("Graphs");
        for (index, preset) in presets::GRAPHS.iter().enumerate() {
            if !files.contains(&preset.file) {
                continue;
            }
            let description = descriptions().get(index).map_or("", String::as_str);
            let hover = format!("{}\n\n{description}", preset.file);
            if ui.button(preset.name).on_hover_text(hover).clicked() {
                self.push(Command::OpenPreset(index));
                ui.close();
            }
        }
        ui.separator();
        ui.weak("Scenes (with the graph they run)");
        for (index, preset) in presets::SCENES.iter().enumerate() {
            if !files.contains(&preset.file) {
                continue;
            }
            let button = ui.button(preset.name);
            let clicked = button.clicked();
            button.on_hover_ui(|ui| {
                ui.label(scene_hover(preset));
            });
            if clicked {
                self.push(Command::OpenPresetScene(index));
                ui.close();
            }
        }
    }
}
