//! The gather scene the sweep and tune tests share (`fixtures/gather/`, which the editor's
//! sweep and tune window tests read too): twelve agents that arrive at one point, the graph
//! deciding how far apart Separation keeps them.

use graph_runtime::{Graph, Scene, SceneAssets};

/// Twelve agents spread over a disc of radius 8 around the point they all arrive at, running
/// `gather.graph.ron`.
pub const SCENE: &str = include_str!("../fixtures/gather/gather.scene.ron");

/// The gather scene running `graph` as `gather.graph.ron` (`fixtures/gather/gather.graph.ron`
/// is the plain one: Arrival blended with Separation weighted by `push` within `reach`).
pub fn assets(graph: &str) -> SceneAssets {
    SceneAssets {
        scene: Scene::from_ron(SCENE, "gather.scene.ron").expect("scene parses"),
        origin: "gather.scene.ron".to_owned(),
        graphs: [(
            "gather.graph.ron".to_owned(),
            Graph::from_ron(graph, "gather.graph.ron").expect("graph parses"),
        )]
        .into(),
        flow_fields: std::collections::BTreeMap::default(),
    }
}
