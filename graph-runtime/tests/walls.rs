//! Walls in scenes and worlds: reading, checking with places, saving byte-identically when
//! there are none, and queries that allocate nothing once built.

use std::path::Path;

use glam::Vec2;
use graph_runtime::{
    AgentState, Bindings, Comparison, Context, Graph, Link, Node, Scene, Scratch, SpatialGrid,
    TagTable, Vehicle, VehicleParams, Wall, World, compile, limits::MAX_WALL_POINTS,
};

fn scene_text(walls: &str) -> String {
    format!(
        r#"(
    format: "steergraph.scene",
    version: 1,
    bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
    {walls}
    groups: [],
)"#
    )
}

#[test]
fn walls_load_as_polylines_and_polygons_and_closed_defaults_to_false() {
    let text = scene_text(
        "walls: [(points: [(0.0, 0.0), (4.0, 0.0)]), (points: [(0.0, 1.0), (1.0, 1.0), (1.0, 2.0)], closed: true)],",
    );
    let scene = Scene::from_ron(&text, "walls.scene.ron").expect("walls load");
    assert_eq!(
        scene.walls,
        vec![
            Wall::polyline(vec![Vec2::ZERO, Vec2::new(4.0, 0.0)]),
            Wall::polygon(vec![
                Vec2::new(0.0, 1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(1.0, 2.0)
            ]),
        ]
    );
    assert!(scene.validate().is_empty());
    let saved = scene.to_ron().expect("saves");
    assert_eq!(
        Scene::from_ron(&saved, "again").expect("loads again"),
        scene
    );
}

#[test]
fn a_wall_point_that_is_not_finite_is_refused_at_load_with_its_place() {
    let text = scene_text("walls: [(points: [(0.0, 0.0), (NaN, 1.0)])],");
    let error = Scene::from_ron(&text, "bad.scene.ron").expect_err("refused");
    assert_eq!(
        error.to_string(),
        "bad.scene.ron: walls[0].points[1]: (NaN, 1) is not a finite point"
    );
}

#[test]
fn validation_names_short_walls_and_coordinates_out_of_range() {
    let text = scene_text("walls: [(points: [(0.0, 0.0)]), (points: [(0.0, 0.0), (2e9, 0.0)])],");
    let scene = Scene::from_ron(&text, "range.scene.ron").expect("finite numbers load");
    assert_eq!(
        scene.validate(),
        vec![
            "walls[0]: a wall needs at least two points".to_owned(),
            "walls[1].points[1]: (2e9, 0) is out of range: coordinates must lie within ±1e9"
                .to_owned(),
        ]
    );
}

#[test]
fn more_wall_points_than_the_limit_are_refused() {
    let scene = Scene {
        walls: vec![Wall::polyline(vec![Vec2::ZERO; MAX_WALL_POINTS / 2 + 1]); 2],
        ..Scene::default()
    };
    assert_eq!(
        scene.validate(),
        vec![format!(
            "walls: {} points in all; a scene's walls may have at most {MAX_WALL_POINTS}",
            MAX_WALL_POINTS + 2
        )]
    );
}

#[test]
fn a_scene_without_walls_is_written_without_a_walls_field() {
    let text = Scene::default().to_ron().expect("saves");
    assert!(!text.contains("walls"), "{text}");
}

/// Every scene of the frozen version-1 fixtures has no walls, and a preset scene writes a
/// `walls` field only when it has walls (the wall presets); each loads and saves back to the
/// same bytes it was read from, as before walls existed.
#[test]
fn version_1_fixtures_and_presets_save_byte_identically() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut scenes = 0;
    for (folder, fixtures) in [
        (root.join("tests/fixtures/v1"), true),
        (root.join("presets"), false),
    ] {
        let entries = std::fs::read_dir(&folder).expect("the folder exists");
        for entry in entries {
            let path = entry.expect("an entry").path();
            if !path.to_string_lossy().ends_with(".scene.ron") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            let scene = Scene::load(&path).expect("loads");
            assert!(!fixtures || scene.walls.is_empty(), "{}", path.display());
            assert_eq!(
                scene.walls.is_empty(),
                !text.contains("walls:"),
                "{}",
                path.display()
            );
            assert_eq!(scene.to_ron().expect("saves"), text, "{}", path.display());
            scenes += 1;
        }
    }
    assert!(scenes >= 20, "{scenes} scenes");
}

#[test]
fn the_world_rebuilds_its_index_when_walls_are_set_and_queries_allocate_nothing() {
    let mut world = World::default();
    assert!(world.wall_index().is_empty());
    let walls: Vec<Wall> = (0..200_u8)
        .map(|i| {
            let x = f32::from(i);
            Wall::polygon(vec![
                Vec2::new(x, 0.0),
                Vec2::new(x + 0.5, 0.0),
                Vec2::new(x + 0.25, 3.0),
            ])
        })
        .collect();
    world.set_walls(walls.clone());
    assert_eq!(world.walls(), walls.as_slice());
    assert_eq!(world.wall_index().segments().len(), 600);
    let index = world.wall_index();
    let info = allocation_counter::measure(|| {
        for i in 0..100_u8 {
            let from = Vec2::new(f32::from(i) + 0.7, -5.0);
            std::hint::black_box(index.ray_cast(from, from + Vec2::new(0.1, 10.0)));
            std::hint::black_box(index.nearest(from, 8.0));
        }
    });
    assert_eq!(info.count_total, 0);
}

#[test]
fn wall_avoidance_and_wall_distance_allocate_nothing_once_warm() {
    let mut world = World::default();
    world.set_walls(vec![
        Wall::polygon(vec![
            Vec2::new(-10.0, -10.0),
            Vec2::new(10.0, -10.0),
            Vec2::new(10.0, 10.0),
            Vec2::new(-10.0, 10.0),
        ]),
        Wall::polyline(vec![Vec2::new(0.0, -10.0), Vec2::new(0.0, 5.0)]),
    ]);
    let mut graph = Graph::default();
    let avoid = graph.add(Node::WallAvoidance {
        min_length: 2.0.into(),
        lookahead_time: 1.0.into(),
        whisker_angle: 40.0.into(),
        margin: 0.5.into(),
    });
    let distance = graph.add(Node::WallDistance);
    let near = graph.add(Node::Compare {
        sensor: Link(Some(distance)),
        test: Comparison::Less,
        threshold: 3.0.into(),
    });
    let gate = graph.add(Node::Gate {
        input: Link(Some(avoid)),
        condition: Link(Some(near)),
    });
    graph.add(Node::Output {
        input: Link(Some(gate)),
    });
    let program = compile(&graph).expect("compiles");
    let (bindings, _) = Bindings::new(&program, &world, &TagTable::default());
    let params = program.default_parameters();
    let grid = SpatialGrid::new(4.0);
    let mut vehicles: Vec<Vehicle> = (0..50_u8)
        .map(|i| {
            let x = f32::from(i) * 0.35 - 9.0;
            Vehicle::new(
                Vec2::new(x, x * 0.5),
                Vec2::new(3.0, 1.0),
                VehicleParams::default(),
            )
        })
        .collect();
    let mut states: Vec<AgentState> = (0..vehicles.len())
        .map(|i| AgentState::new(&program, 1, i as u64))
        .collect();
    let mut scratch = Scratch::default();
    let mut forces = vec![Vec2::ZERO; vehicles.len()];
    let mut tick = |vehicles: &mut Vec<Vehicle>| {
        let context = Context::new(&world, vehicles, &grid, &bindings, &params, 0.05);
        for (agent, (state, force)) in states.iter_mut().zip(&mut forces).enumerate() {
            *force = program.steer(&context, agent, state, &mut scratch);
        }
        for (vehicle, force) in vehicles.iter_mut().zip(&forces) {
            vehicle.step(*force, 0.05);
        }
    };
    for _ in 0..5 {
        tick(&mut vehicles);
    }
    let info = allocation_counter::measure(|| {
        for _ in 0..5 {
            tick(&mut vehicles);
        }
    });
    assert_eq!(info.count_total, 0);
}
