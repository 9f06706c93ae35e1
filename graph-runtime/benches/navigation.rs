//! What navigation costs (issue 44), on a level of 16 × 17 rooms of 10 × 10 units, each wall
//! between two rooms with a 2-unit door in its middle: 1,022 wall segments.
//!
//! - `navmesh_build_1022_segments`: building the mesh for agents of radius 0.5 (target: 50 ms).
//! - `route_query_rooms`: one route between two points of the level, 256 pairs drawn once
//!   (seeded), taken in turn; the median per query. The triangles each query expanded are
//!   printed once, beside the mesh's size.
//! - `route_query_halls`: the same on the halls preset (six rooms, `presets/halls.scene.ron`),
//!   the level the issue's target (a median under 20 µs) is for.
//!
//! - `routed_tick_10000_replan_1pct` and `routed_tick_10000_no_replan`: a tick of 10,000 agents
//!   on the rooms level (walls, Separation, Navigate to an own goal, on a pool of 2 threads),
//!   with 100 goals moved (1 % re-planning) before each tick, and with none moved: the
//!   difference is the planning. Each moved goal is a fresh point within 30 units of the
//!   agent, so a re-plan is a route across a few rooms. The routes each tick planned are
//!   checked (100, and 0).
//!
//! Run with `cargo bench -p graph-runtime --bench navigation`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec2;
use graph_runtime::{
    AgentRng, Crowd, Graph, NavMesh, Rect, RouteSearch, SceneAssets, Vehicle, VehicleParams, Wall,
    World, compile,
};

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
    queries(c, "route_query_rooms", &world, f32::INFINITY);
    queries(c, "route_query_rooms_within_30", &world, 30.0);
    hundred_in_parallel(c, &world);
    let halls = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets/halls.scene.ron");
    let assets = SceneAssets::load(&halls).expect("the halls preset loads");
    let world = World::from_scene(&assets.scene, &assets.flow_fields);
    queries(c, "route_query_halls", &world, f32::INFINITY);
    routed_ticks(c);
}

thread_local! {
    /// Each worker's search, reused from query to query, as the planner keeps one.
    static SEARCH: std::cell::RefCell<RouteSearch> = std::cell::RefCell::new(RouteSearch::default());
}

/// 100 route queries within 30 units on the rooms level, on a pool of 2 threads, each thread
/// on its own reused search: what a tick of 1 % re-planning among 10,000 agents plans.
fn hundred_in_parallel(c: &mut Criterion, world: &World) {
    use rayon::prelude::*;
    let mesh = NavMesh::build(world, 0.5).expect("the level builds");
    let mut rng = AgentRng::new(46, 0);
    let size = world.bounds.size();
    let pairs: Vec<(Vec2, Vec2)> = (0..REPLANS)
        .map(|_| {
            let from = Vec2::new(rng.unit() * size.x, rng.unit() * size.y);
            let to = from + Vec2::new(rng.signed_unit(), rng.signed_unit()) * 30.0;
            (from, to)
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool of 2");
    c.bench_function("plan_100_routes_within_30_on_2_threads", |b| {
        b.iter(|| {
            pool.install(|| {
                pairs
                    .par_iter()
                    .map(|&(from, to)| {
                        SEARCH.with_borrow_mut(|search| mesh.route(from, to, search).points.len())
                    })
                    .sum::<usize>()
            })
        });
    });
}

/// Walls, Separation, then Navigate to the agent's own goal: the navigator preset's graph.
const NAVIGATOR: &str = r#"(format: "steergraph.graph", version: 1,
    vehicle: (mass: 1.0, max_force: 20.0, max_speed: 6.0, radius: 0.5),
    nodes: {
        1: WallAvoidance(min_length: 1.0, lookahead_time: 0.4, whisker_angle: 35.0, margin: 0.4),
        2: Separation(radius: 1.6, fov: 360.0),
        3: Scale(input: 2, factor: 2.0),
        4: Navigate(target: Own("goal"), ahead_distance: 2.0, slowing_distance: 3.0,
                    replan_distance: 2.0, crowd_cost: 4.0),
        5: Budget(inputs: [1, 3, 4]),
        6: Output(input: 5),
    })"#;

const AGENTS: usize = 10_000;
const REPLANS: usize = AGENTS / 100;

/// Ticks of 10,000 routed agents on the rooms level, with 1 % re-planning and with none.
fn routed_ticks(c: &mut Criterion) {
    let mut world = rooms_level();
    world.build_navigation(0.5).expect("the rooms level builds");
    let mesh = world.navigation(0.5).expect("its mesh");
    let graph = Graph::from_ron(NAVIGATOR, "navigator.graph.ron").expect("parses");
    let program = compile(&graph).expect("compiles");
    let mut crowd =
        Crowd::new(program, &world, 44, &std::collections::BTreeMap::new()).expect("binds");
    let mut rng = AgentRng::new(45, 0);
    let size = world.bounds.size();
    let mut vehicles = Vec::with_capacity(AGENTS);
    while vehicles.len() < AGENTS {
        let at = Vec2::new(rng.unit() * size.x, rng.unit() * size.y);
        if mesh.is_walkable(at) {
            vehicles.push(Vehicle::new(at, Vec2::ZERO, VehicleParams::default()));
        }
    }
    // A goal within 30 units of `at`, on the mesh.
    let mut near = move |at: Vec2| loop {
        let goal = at + Vec2::new(rng.signed_unit(), rng.signed_unit()) * 30.0;
        if mesh.is_walkable(goal) {
            return goal;
        }
    };
    for (agent, vehicle) in vehicles.iter().enumerate() {
        crowd
            .set_goal(agent, "goal", near(vehicle.position))
            .expect("a finite goal");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool of 2");
    let dt = 1.0 / 60.0;
    // Every agent's first route, then the budget of 1 % a tick.
    crowd.set_route_budget(AGENTS);
    pool.install(|| {
        for _ in 0..2 {
            crowd.step(&world, &mut vehicles, &[], dt);
        }
    });
    crowd.set_route_budget(REPLANS);
    let mut next = 0;
    c.bench_function("routed_tick_10000_replan_1pct", |b| {
        b.iter(|| {
            for _ in 0..REPLANS {
                let agent = next % AGENTS;
                next += 1;
                let goal = near(vehicles[agent].position);
                crowd.set_goal(agent, "goal", goal).expect("a finite goal");
            }
            pool.install(|| crowd.step(&world, &mut vehicles, &[], dt));
            // The moved goals are seen by the evaluation, planned on the next tick.
        });
    });
    pool.install(|| crowd.step(&world, &mut vehicles, &[], dt));
    assert_eq!(crowd.routes_planned().0, REPLANS, "1 % re-planned a tick");
    c.bench_function("routed_tick_10000_no_replan", |b| {
        b.iter(|| pool.install(|| crowd.step(&world, &mut vehicles, &[], dt)));
    });
    let (planned, _) = crowd.routes_planned();
    println!("routed ticks: {planned} routes planned in the last tick without moved goals");
}

/// Route queries between 256 seeded pairs of points of `world`'s bounds, in turn, each pair
/// at most `within` apart along each axis.
fn queries(c: &mut Criterion, name: &str, world: &World, within: f32) {
    let mesh = NavMesh::build(world, 0.5).expect("the level builds");
    let mut rng = AgentRng::new(44, 0);
    let size = world.bounds.size();
    let mut point = || {
        Vec2::new(
            0.5 + rng.unit() * (size.x - 1.0),
            0.5 + rng.unit() * (size.y - 1.0),
        )
    };
    let pairs: Vec<(Vec2, Vec2)> = (0..256)
        .map(|_| {
            let from = point();
            let to = point();
            // Pulled toward `from` when farther than `within` along an axis.
            (
                from,
                from + (to - from).clamp(Vec2::splat(-within), Vec2::splat(within)),
            )
        })
        .collect();
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
