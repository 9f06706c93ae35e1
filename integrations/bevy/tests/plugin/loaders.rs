//! The asset loaders read what the runtime reads, and fail with the runtime's places.

use std::path::Path;

use bevy_app::App;
use bevy_asset::{Asset, AssetServer, Assets, Handle, LoadState};
use bevy_steergraph::{SteerFlowField, SteerScene};
use graph_runtime::{FlowField, SceneAssets};

use crate::common::{headless_app, update_until, wait_for_load};

const PRESETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../presets");

/// Loads `path` and waits until it has loaded or failed; the failure's text, if any.
fn load<A: Asset>(app: &mut App, path: &str) -> (Handle<A>, Option<String>) {
    let handle: Handle<A> = app.world().resource::<AssetServer>().load(path.to_owned());
    let mut failure = None;
    update_until(app, path, |app| {
        match app.world().resource::<AssetServer>().load_state(&handle) {
            LoadState::Failed(error) => {
                failure = Some(error.to_string());
                true
            }
            LoadState::Loaded => true,
            _ => false,
        }
    });
    (handle, failure)
}

#[test]
fn the_river_preset_loads_as_the_runtime_loads_it() {
    let mut app = headless_app(Path::new(PRESETS));
    let (field, _) = load::<SteerFlowField>(&mut app, "river.flow.ron");
    wait_for_load(&mut app, &field);
    let expected = FlowField::load(&Path::new(PRESETS).join("river.flow.ron")).expect("loads");
    let loaded = app
        .world()
        .resource::<Assets<SteerFlowField>>()
        .get(&field)
        .cloned();
    assert_eq!(loaded.map(|asset| asset.field), Some(expected));

    let (scene, _) = load::<SteerScene>(&mut app, "river.scene.ron");
    wait_for_load(&mut app, &scene);
    let expected = SceneAssets::load(&Path::new(PRESETS).join("river.scene.ron")).expect("loads");
    let scenes = app.world().resource::<Assets<SteerScene>>();
    let loaded = scenes.get(&scene).expect("loaded");
    assert_eq!(loaded.assets.scene, expected.scene);
    assert_eq!(loaded.assets.graphs, expected.graphs);
    assert_eq!(loaded.assets.flow_fields, expected.flow_fields);
    assert_eq!(loaded.group_graphs.len(), expected.scene.groups.len());
    assert_eq!(
        loaded.start.vehicles().len(),
        expected.scene.agent_count() as usize
    );
}

#[test]
fn scene_errors_name_the_file_and_place() {
    let folder = tempfile::tempdir().expect("temp dir");
    let scene = |groups: &str| {
        format!(
            "(format: \"steergraph.scene\", version: 1,\n bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),\n groups: [{groups}])\n"
        )
    };
    let group = |name: &str, graph: &str| {
        format!("(name: \"{name}\", graph: \"{graph}\", spawn: Agents([(position: (0.0, 0.0))]))")
    };
    std::fs::write(
        folder.path().join("escape.scene.ron"),
        scene(&group("a", "../outside.graph.ron")),
    )
    .expect("write");
    // Line 3, where the third field's name starts, is an unknown field.
    std::fs::write(
        folder.path().join("broken.graph.ron"),
        "(format: \"steergraph.graph\", version: 1,\n nodes: {},\n colour: 3)\n",
    )
    .expect("write");
    std::fs::write(
        folder.path().join("broken.scene.ron"),
        scene(&group("b", "broken.graph.ron")),
    )
    .expect("write");

    let mut app = headless_app(folder.path());
    let (_, failure) = load::<SteerScene>(&mut app, "escape.scene.ron");
    let failure = failure.expect("refused");
    assert!(
        failure.contains(
            "escape.scene.ron: groups[0] (\"a\").graph: \"../outside.graph.ron\" leaves the scene's folder"
        ),
        "{failure}"
    );
    let (_, failure) = load::<SteerScene>(&mut app, "broken.scene.ron");
    let failure = failure.expect("refused");
    assert!(failure.contains("broken.graph.ron:3:2: "), "{failure}");
}

#[test]
fn a_graph_and_a_scene_load_the_subgraph_files_they_use() {
    let folder = tempfile::tempdir().expect("temp dir");
    let root = folder.path();
    std::fs::create_dir_all(root.join("graphs/parts")).expect("folders");
    // graphs/parts/seek.graph.ron: Seek (x, 0) with x = 3; graphs/user.graph.ron uses it
    // ("parts/seek.graph.ron", from its own folder) with x = -3.
    std::fs::write(
        root.join("graphs/parts/seek.graph.ron"),
        "(format: \"steergraph.graph\", version: 1, parameters: {\"x\": 3.0},\n nodes: {1: Seek(target: Point(\"x\", 0.0)), 2: Output(input: 1)})\n",
    )
    .expect("write");
    std::fs::write(
        root.join("graphs/user.graph.ron"),
        "(format: \"steergraph.graph\", version: 1,\n nodes: {1: Subgraph(file: \"parts/seek.graph.ron\", parameters: {\"x\": -3.0}), 2: Output(input: 1)})\n",
    )
    .expect("write");
    std::fs::write(
        root.join("missing.graph.ron"),
        "(format: \"steergraph.graph\", version: 1,\n nodes: {1: Subgraph(file: \"none.graph.ron\"), 2: Output(input: 1)})\n",
    )
    .expect("write");
    std::fs::write(
        root.join("walk.scene.ron"),
        "(format: \"steergraph.scene\", version: 1,\n bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),\n groups: [(name: \"a\", graph: \"graphs/user.graph.ron\", spawn: Agents([(position: (0.0, 0.0))]))])\n",
    )
    .expect("write");
    let mut app = headless_app(root);
    let (graph, failure) = load::<bevy_steergraph::SteerGraph>(&mut app, "graphs/user.graph.ron");
    assert_eq!(failure, None);
    wait_for_load(&mut app, &graph);
    let user = graph_runtime::Graph::load(&root.join("graphs/user.graph.ron")).expect("loads");
    let expected = graph_runtime::Subgraphs::load(&user, &root.join("graphs/user.graph.ron"));
    assert_eq!(expected.library.len(), 1);
    let expected = expected.compile(&user).expect("compiles");
    let graphs = app
        .world()
        .resource::<Assets<bevy_steergraph::SteerGraph>>();
    let loaded = graphs.get(&graph).expect("loaded");
    // The Seek and the Output, as the runtime compiles it: the Subgraph node costs nothing.
    assert_eq!(loaded.program.len(), 2);
    assert_eq!(loaded.program.len(), expected.len());

    let (scene, failure) = load::<SteerScene>(&mut app, "walk.scene.ron");
    assert_eq!(failure, None);
    wait_for_load(&mut app, &scene);
    let runtime = SceneAssets::load(&root.join("walk.scene.ron")).expect("loads");
    let scenes = app.world().resource::<Assets<SteerScene>>();
    assert_eq!(
        scenes.get(&scene).expect("loaded").assets.graphs,
        runtime.graphs
    );

    let (_, failure) = load::<bevy_steergraph::SteerGraph>(&mut app, "missing.graph.ron");
    let failure = failure.expect("a missing subgraph fails the load");
    assert!(failure.contains("none.graph.ron"), "{failure}");
}
