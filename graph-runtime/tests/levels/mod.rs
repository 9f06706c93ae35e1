//! Levels the routing tests build in memory: a scene and the graphs it names, as
//! `Simulation::new` takes them.

use graph_runtime::{Graph, Scene, SceneAssets};

/// The scene `scene` (saved as `origin`) with the graphs `graphs` (file name, RON).
pub fn assets(scene: &str, origin: &str, graphs: &[(&str, &str)]) -> SceneAssets {
    SceneAssets {
        scene: Scene::from_ron(scene, origin).expect("scene parses"),
        origin: origin.to_owned(),
        graphs: (graphs.iter())
            .map(|&(name, graph)| {
                let graph = Graph::from_ron(graph, name).expect("graph parses");
                (name.to_owned(), graph)
            })
            .collect(),
        flow_fields: std::collections::BTreeMap::default(),
    }
}
