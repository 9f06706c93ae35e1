//! A tick over the runtime's work limits is not stepped (issue 46: a game's crowd ran any
//! agents × neighbors product; a scene over the limit does not load, but agents spawned one by
//! one were stepped whatever their number).

use bevy_asset::{AssetServer, Assets, Handle};
use bevy_ecs::entity::Entity;
use bevy_steergraph::{SteerAgent, SteerGraph};
use glam::Vec2;
use graph_runtime::{Vehicle, write_atomically};

use crate::common::{headless_app, run_ticks, wait_for_load};

/// Seek to (100, 0) blended with a Separation keeping up to 4,096 neighbors.
const GRAPH: &str = r#"(
    format: "steergraph.graph",
    version: 1,
    vehicle: (mass: 1.0, max_force: 8.0, max_speed: 4.0, radius: 0.5),
    nodes: {
        1: Seek(target: Point(100.0, 0.0)),
        2: Separation(radius: 2.0, fov: 360.0, max_neighbors: 4096.0),
        3: Blend(inputs: [(node: 1, weight: 1.0), (node: 2, weight: 1.0)]),
        4: Output(input: 3),
    },
)
"#;

#[test]
fn agents_over_the_neighbor_limit_stand_and_fewer_walk() {
    let folder = tempfile::tempdir().expect("temp dir");
    write_atomically(&folder.path().join("crowd.graph.ron"), GRAPH).expect("write");
    let mut app = headless_app(folder.path());
    let handle: Handle<SteerGraph> = app
        .world()
        .resource::<AssetServer>()
        .load("crowd.graph.ron");
    wait_for_load(&mut app, &handle);
    let params = {
        let graphs = app.world().resource::<Assets<SteerGraph>>();
        let program = &graphs.get(&handle).expect("loaded").program;
        program.vehicle(&program.default_parameters())
    };
    // 31,251 agents 3 units apart (none within Separation's 2): 31,251 × 4,096 neighbors is
    // 128,004,096, over the 128,000,000 the limit allows.
    let spawn = |app: &mut bevy_app::App, count: u64| -> Vec<Entity> {
        (0..count)
            .map(|i| {
                let [column, row] = [i % 200, i / 200]
                    .map(|n| f32::from(u16::try_from(n).expect("under 200 columns and rows")));
                let at = Vec2::new(column, row) * 3.0 - Vec2::splat(300.0);
                let agent =
                    SteerAgent::new(handle.clone(), Vehicle::new(at, Vec2::ZERO, params), 1, i);
                app.world_mut().spawn(agent).id()
            })
            .collect()
    };
    let entities = spawn(&mut app, 31_251);
    let x = |app: &bevy_app::App, entity: Entity| {
        app.world()
            .get::<SteerAgent>(entity)
            .expect("agent")
            .vehicle
            .position
            .x
    };
    let before = x(&app, entities[0]);
    run_ticks(&mut app, 3);
    assert_eq!(x(&app, entities[0]), before, "not stepped over the limit");
    // One agent fewer is within it: the crowd walks toward +x.
    let last = *entities.last().expect("agents");
    app.world_mut().despawn(last);
    run_ticks(&mut app, 6);
    assert!(x(&app, entities[0]) > before, "stepped within the limit");
}
