//! Presets are valid, compile, and round-trip byte for byte.

use graph_runtime::{FlowField, Graph, Scene, SceneAssets, Simulation, compile};

#[test]
fn every_preset_graph_compiles_and_round_trips_byte_identical() {
    let graphs = tests::presets_with_suffix(".graph.ron");
    assert!(graphs.len() >= 2);
    for path in graphs {
        let text = std::fs::read_to_string(&path).expect("read");
        let graph = Graph::from_ron(&text, &path.display().to_string()).expect("parse");
        compile(&graph).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        assert_eq!(
            graph.to_ron().expect("write"),
            text,
            "{} round trip",
            path.display()
        );
    }
}

#[test]
fn every_preset_scene_loads_runs_and_round_trips_byte_identical() {
    let scenes = tests::presets_with_suffix(".scene.ron");
    assert!(scenes.len() >= 2);
    for path in scenes {
        let text = std::fs::read_to_string(&path).expect("read");
        let scene = Scene::from_ron(&text, &path.display().to_string()).expect("parse");
        assert_eq!(
            scene.to_ron().expect("write"),
            text,
            "{} round trip",
            path.display()
        );
        let assets =
            SceneAssets::load(&path).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let mut simulation =
            Simulation::new(&assets).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        for _ in 0..10 {
            simulation.step(1.0 / 60.0);
        }
        assert!(simulation.vehicles().iter().all(|v| v.position.is_finite()));
    }
}

#[test]
fn every_preset_flow_field_round_trips_byte_identical() {
    let fields = tests::presets_with_suffix(".flow.ron");
    assert!(!fields.is_empty());
    for path in fields {
        let text = std::fs::read_to_string(&path).expect("read");
        let field = FlowField::from_ron(&text, &path.display().to_string()).expect("parse");
        assert_eq!(
            field.to_ron().expect("write"),
            text,
            "{} round trip",
            path.display()
        );
    }
}
