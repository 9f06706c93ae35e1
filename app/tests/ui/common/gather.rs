//! The gather scene the sweep and tune windows' tests share: twelve agents that arrive at one
//! point, each test's graph deciding how far apart Separation keeps them; the editor opened
//! on it, paused, and a graph parameter's right-click menu.

use std::path::Path;

use app::editor::EditorApp;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable as _};

use super::harness;

/// Twelve agents spread over a disc of radius 8 around the point they all arrive at, running
/// `gather.graph.ron`.
pub const GATHER_SCENE: &str =
    include_str!("../../../../graph-runtime/tests/fixtures/gather/gather.scene.ron");

/// Writes `graph` as `gather.graph.ron` and `scene` as `gather.scene.ron` into `dir`, and
/// opens the editor on the scene with its graph, the preview paused.
pub fn editor_on_gather(dir: &Path, graph: &str, scene: &str) -> Harness<'static, EditorApp> {
    std::fs::write(dir.join("gather.graph.ron"), graph).expect("write the graph");
    let file = dir.join("gather.scene.ron");
    std::fs::write(&file, scene).expect("write the scene");
    let mut harness = harness(dir);
    harness.state_mut().open_scene_with_its_graph(&file);
    harness.run_steps(4);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(2);
    harness
}

/// Opens the right-click menu of the graph parameter `name` (its name field in "Graph
/// parameters"; the field's text is a child node with the same value).
pub fn open_parameter_menu(harness: &mut Harness<'static, EditorApp>, name: &str) {
    harness
        .get(By::new().role(Role::TextInput).value(name))
        .click_secondary();
    harness.run_steps(2);
}
