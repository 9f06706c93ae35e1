//! What the GPU refuses, and how it says so: nodes outside the family by kind, id and group;
//! a world it does not simulate (walls); never a panic.

mod common;

use common::simulation;
use steergraph_gpu::{Gpu, GpuCrowd, GpuError};

/// The halls preset's navigator graph: WallAvoidance (node 1) and Navigate (node 4) are
/// outside the family, named with their group; the family's Separation, Scale and Budget are
/// not named.
#[test]
fn nodes_outside_the_family_are_named_with_their_group() {
    let Err(error) = GpuCrowd::new(
        Gpu::new().expect("an adapter"),
        &simulation("halls.scene.ron"),
    ) else {
        panic!("the halls run on the GPU");
    };
    let GpuError::Unsupported(nodes) = &error else {
        panic!("{error}");
    };
    let expected: Vec<String> = simulation("halls.scene.ron")
        .groups()
        .iter()
        .flat_map(|group| {
            [
                format!("group \"{}\": WallAvoidance (node #1)", group.name),
                format!("group \"{}\": Navigate (node #4)", group.name),
            ]
        })
        .collect();
    assert_eq!(nodes, &expected);
    let words = error.to_string();
    assert!(
        words.starts_with("not supported on the GPU (run this scene on the CPU): "),
        "{words}"
    );
}

/// A world with walls is refused even when every graph is of the family: the CPU's tick
/// keeps agents out of solid walls, which the GPU tick does not do yet.
#[test]
fn a_world_with_walls_is_refused_saying_so() {
    let mut simulation = simulation("river.scene.ron");
    let mut scene = graph_runtime::Scene::from_ron(
        r#"(format: "steergraph.scene", version: 1,
        bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
        walls: [(points: [(0.0, -5.0), (0.0, 5.0)])], groups: [])"#,
        "walls.scene.ron",
    )
    .expect("parses");
    let walls = std::mem::take(&mut scene.walls);
    simulation.world_mut().set_walls(walls);
    let Err(error) = GpuCrowd::new(Gpu::new().expect("an adapter"), &simulation) else {
        panic!("walls run on the GPU");
    };
    assert!(matches!(error, GpuError::SceneUnsupported(_)), "{error}");
    assert_eq!(
        error.to_string(),
        "not supported on the GPU (run this scene on the CPU): the world has 1 walls"
    );
}
