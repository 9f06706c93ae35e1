//! What navigation costs (issue 44), on a level of 16 × 17 rooms of 10 × 10 units, each wall
//! between two rooms with a 2-unit door in its middle: 1,022 wall segments.
//!
//! - `navmesh_build_1022_segments`: building the mesh for agents of radius 0.5 (target: 50 ms).
//! - `route_query_rooms`: one route between two points of the level, 256 pairs drawn once
//!   (seeded), taken in turn; the median per query. The triangles each query expanded are
//!   printed once, beside the mesh's size.
//! - `route_query_halls`: the same on the halls preset (six rooms, `presets/halls.scene.ron`),
//!   the level the target (a median under 20 µs) is for.
//!
//! Run with `cargo bench -p graph-runtime --bench navigation`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec2;
use graph_runtime::{AgentRng, NavMesh, Rect, RouteSearch, SceneAssets, Wall, World};

const ROOM: f32 = 10.0;
const DOOR: f32 = 2.0;
const COLUMNS: usize = 16;
const ROWS: usize = 17;

/// The rooms level: each inner wall line split into one piece per room it bounds, each piece
/// two segments either side of its door.
fn rooms_level() -> World {
    let (width, height) = (COLUMNS as f32 * ROOM, ROWS as f32 * ROOM);
    let mut world = World::new(Rect::new(Vec2::ZERO, Vec2::new(width, height)));
    let mut walls = Vec::new();
    let half = (ROOM - DOOR) / 2.0;
    for column in 1..COLUMNS {
        let x = column as f32 * ROOM;
        for row in 0..ROWS {
            let y = row as f32 * ROOM;
            walls.push(Wall::polyline(vec![
                Vec2::new(x, y),
                Vec2::new(x, y + half),
            ]));
            walls.push(Wall::polyline(vec![
                Vec2::new(x, y + ROOM - half),
                Vec2::new(x, y + ROOM),
            ]));
        }
    }
    for row in 1..ROWS {
        let y = row as f32 * ROOM;
        for column in 0..COLUMNS {
            let x = column as f32 * ROOM;
            walls.push(Wall::polyline(vec![
                Vec2::new(x, y),
                Vec2::new(x + half, y),
            ]));
            walls.push(Wall::polyline(vec![
                Vec2::new(x + ROOM - half, y),
                Vec2::new(x + ROOM, y),
            ]));
        }
    }
    world.set_walls(walls);
    world
}

fn navigation(c: &mut Criterion) {
    let world = rooms_level();
    let segments: usize = world.walls().iter().map(|w| w.segments().count()).sum();
    assert_eq!(segments, 1_022);
    c.bench_function("navmesh_build_1022_segments", |b| {
        b.iter(|| NavMesh::build(black_box(&world), 0.5).expect("the rooms level builds"));
    });
    queries(c, "route_query_rooms", &world);
    let halls = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets/halls.scene.ron");
    let assets = SceneAssets::load(&halls).expect("the halls preset loads");
    let world = World::from_scene(&assets.scene, &assets.flow_fields);
    queries(c, "route_query_halls", &world);
}

/// Route queries between 256 seeded pairs of points of `world`'s bounds, in turn.
fn queries(c: &mut Criterion, name: &str, world: &World) {
    let mesh = NavMesh::build(world, 0.5).expect("the level builds");
    let mut rng = AgentRng::new(44, 0);
    let size = world.bounds.size();
    let mut point = || {
        Vec2::new(
            0.5 + rng.unit() * (size.x - 1.0),
            0.5 + rng.unit() * (size.y - 1.0),
        )
    };
    let pairs: Vec<(Vec2, Vec2)> = (0..256).map(|_| (point(), point())).collect();
    let mut search = RouteSearch::default();
    let (mut expanded, mut corners) = (0, 0);
    for &(from, to) in &pairs {
        corners += mesh.route(from, to, &mut search).points.len();
        expanded += search.expanded;
    }
    println!(
        "{name}: {} triangles, {} islands; a query expands {:.0} triangles and gives {:.1} points on average",
        mesh.triangle_count(),
        mesh.island_count(),
        expanded as f64 / pairs.len() as f64,
        corners as f64 / pairs.len() as f64,
    );
    let mut next = 0;
    c.bench_function(name, |b| {
        b.iter(|| {
            let (from, to) = pairs[next % pairs.len()];
            next += 1;
            mesh.route(black_box(from), black_box(to), &mut search)
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(5));
    targets = navigation
}
criterion_main!(benches);
