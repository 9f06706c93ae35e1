//! A graph exported for a game (no editor section) behaves exactly like the editor's file.

use graph_runtime::{Graph, SceneAssets, Simulation};

#[test]
fn with_and_without_the_editor_section_a_graph_moves_agents_identically() {
    let mut assets =
        SceneAssets::load(&tests::presets_dir().join("boids.scene.ron")).expect("scene");
    let with_layout = assets.graphs["boids.graph.ron"].clone();
    assert!(with_layout.editor.is_some());
    let exported_text = with_layout.without_editor().to_ron().expect("text");
    assert!(!exported_text.contains("editor"));
    let exported = Graph::from_ron(&exported_text, "exported.graph.ron").expect("loads");

    let mut editor_run = Simulation::new(&assets).expect("runs");
    assets.graphs.insert("boids.graph.ron".to_owned(), exported);
    let mut game_run = Simulation::new(&assets).expect("runs");
    for _ in 0..120 {
        editor_run.step(1.0 / 60.0);
        game_run.step(1.0 / 60.0);
    }
    assert_eq!(editor_run.vehicles(), game_run.vehicles());
}
