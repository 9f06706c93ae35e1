//! The preview's agents go to the GPU as one paint callback when eframe paints with glow, and
//! stay an egui mesh otherwise (tests, other renderers): either way guides and selection are
//! painted over them.

use crate::common;

use app::editor::EditorApp;
use common::{click_at, harness};
use egui::epaint::Shape;
use egui_kittest::Harness;

/// The last frame's shapes: paint callbacks over `rect`, and the largest mesh's triangles.
fn painted(harness: &Harness<'_, EditorApp>, rect: egui::Rect) -> (usize, usize) {
    let shapes = &harness.output().shapes;
    let callbacks = shapes
        .iter()
        .filter(|clipped| matches!(&clipped.shape, Shape::Callback(c) if c.rect == rect))
        .count();
    let triangles = shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            Shape::Mesh(mesh) => Some(mesh.indices.len() / 3),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    (callbacks, triangles)
}

#[test]
fn without_glow_the_agents_are_a_mesh_and_with_it_one_gpu_callback() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = harness(dir.path());
    let rect = harness.state().preview.rect().expect("viewport");
    // The harness has no glow context: 400 boids are 400 triangles of one mesh.
    let (callbacks, triangles) = painted(&harness, rect);
    assert_eq!(callbacks, 0);
    assert!(triangles >= 400, "{triangles} triangles");
    assert_eq!(harness.state().preview.gpu_agents.instance_count(), (0, 0));

    // With glow (as the desktop window says every frame), one callback over the viewport and
    // an instance per agent, and no agent mesh.
    harness.state_mut().preview.gpu_agents.set_available(true);
    harness.run_steps(2);
    let (callbacks, triangles) = painted(&harness, rect);
    assert_eq!(callbacks, 1);
    assert!(
        triangles < 400,
        "the agents' mesh is gone: {triangles} triangles left"
    );
    assert_eq!(
        harness.state().preview.gpu_agents.instance_count(),
        (400, 0)
    );

    // Picking and the selection ring still work over GPU agents.
    let rings = |harness: &Harness<'_, EditorApp>| {
        harness
            .output()
            .shapes
            .iter()
            .filter(|c| matches!(&c.shape, Shape::Circle(circle) if circle.stroke.width == 1.5))
            .count()
    };
    let before = rings(&harness);
    let first = harness
        .state()
        .preview
        .host
        .simulation
        .as_ref()
        .expect("runs")
        .vehicles()[0];
    let at = harness.state().preview.view.to_screen(rect, first.position);
    click_at(&mut harness, at);
    assert!(harness.state().preview.host.selected_agent.is_some());
    assert_eq!(
        rings(&harness),
        before + 1,
        "the selected agent's ring is painted"
    );
}
