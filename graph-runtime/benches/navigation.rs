//! What navigation costs (issue 44), on a level of 16 × 17 rooms of 10 × 10 units, each wall
//! between two rooms with a 2-unit door in its middle: 1,022 wall segments
//! (`tests/levels/rooms.rs`, shared with the tests).
//!
//! - `navmesh_build_1022_segments`: building the mesh for agents of radius 0.5 (target: 50 ms).
//! - `at_the_limit/…`: the same level grown to exactly the limit's 100,000 segments (158 × 158
//!   rooms and 194 pillars): its mesh's build, and a route from corner to corner.
//! - `route_query_rooms`: one route between two points of the level, 256 pairs drawn once
//!   (seeded), taken in turn; the median per query. The places each query expanded and the
//!   routes' average length are printed once, beside the mesh's size, landmarks and memory.
//!   Each `route_query_…` runs again as `…_straight_line`: the same search estimating by the
//!   straight line alone, without the mesh's landmarks (the baseline).
//! - `route_query_halls`: the same on the halls preset (six rooms, `presets/halls.scene.ron`),
//!   the level the target (a median under 20 µs) is for.
//!
//! - `routed_tick_10000_replan_1pct` and `routed_tick_10000_no_replan`: a tick of 10,000 agents
//!   on the rooms level (walls, Separation, Navigate to an own goal, on a pool of 2 threads),
//!   with 100 goals moved (1 % re-planning) before each tick, and with none moved. The two do
//!   not differ by the planning alone: with goals moving, most agents walk (a fresh goal each
//!   1.7 s), without, they have arrived and stand, and a walking agent's tick costs more.
//! - `plan_phase_10000_replan_1pct` and `plan_phase_10000_no_replan`: the planning alone
//!   (`Crowd::plan_routes`, what each tick does first), timed on its own after an untimed tick
//!   whose evaluation saw 100 moved goals (checked: each call plans 100), and after one that
//!   saw none (the scan of every agent's routes, and the looks for jammed doors due). Target:
//!   ≤ 0.5 ms.
//!
//! Run with `cargo bench -p graph-runtime --bench navigation`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec2;
use graph_runtime::{
    AgentRng, Crowd, Graph, NavMesh, RouteSearch, SceneAssets, Vehicle, VehicleParams, World,
    compile,
};

#[path = "../tests/levels/rooms.rs"]
mod rooms;

/// The rooms level of 16 × 17 rooms: 1,022 wall segments.
fn rooms_level() -> World {
    rooms::rooms_level(16, 17, 0)
}

fn navigation(c: &mut Criterion) {
    let world = rooms_level();
    assert_eq!(rooms::segments(&world), 1_022);
    c.bench_function("navmesh_build_1022_segments", |b| {
        b.iter(|| NavMesh::build(black_box(&world), 0.5).expect("the rooms level builds"));
    });
    at_the_limit(c);
    queries(c, "route_query_rooms", &world, f32::INFINITY);
    queries(c, "route_query_rooms_within_30", &world, 30.0);
    hundred_in_parallel(c, &world);
    let halls = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets/halls.scene.ron");
    let assets = SceneAssets::load(&halls).expect("the halls preset loads");
    let world = World::from_scene(&assets.scene, &assets.flow_fields);
    queries(c, "route_query_halls", &world, f32::INFINITY);
    routed_ticks(c, 4.0);
    routed_ticks(c, 0.0);
}

/// The mesh of a level of exactly the limit's 100,000 wall segments (158 × 158 rooms and 194
/// pillars), and a route across it, corner to corner.
fn at_the_limit(c: &mut Criterion) {
    let world = rooms::level_at_the_segment_limit();
    assert_eq!(
        rooms::segments(&world),
        graph_runtime::limits::MAX_NAV_SEGMENTS
    );
    let mut group = c.benchmark_group("at_the_limit");
    group.sample_size(10);
    group.bench_function("navmesh_build_100000_segments", |b| {
        b.iter(|| NavMesh::build(black_box(&world), 0.5).expect("the level at the limit builds"));
    });
    let mesh = NavMesh::build(&world, 0.5).expect("the level at the limit builds");
    let mut search = RouteSearch::default();
    let (from, to) = (
        world.bounds.min + Vec2::splat(2.0),
        world.bounds.max - Vec2::splat(2.0),
    );
    let route = mesh.route(from, to, &mut search);
    println!(
        "at the limit: {} triangles, {} islands, {} landmarks, {:.1} MiB; corner to corner expands {} triangles, {} points, {:.0} units",
        mesh.triangle_count(),
        mesh.island_count(),
        mesh.landmark_count(),
        mesh.heap_bytes() as f64 / (1024.0 * 1024.0),
        search.expanded,
        route.points.len(),
        route.length(),
    );
    group.bench_function("route_query_corner_to_corner_100000_segments", |b| {
        b.iter(|| mesh.route(black_box(from), black_box(to), &mut search));
    });
    group.finish();
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

/// The navigator preset's graph (walls, Separation, then Navigate to the agent's own goal)
/// with its Navigate paying `crowd_cost` per standing agent at a door instead of the preset's 4.
fn navigator(crowd_cost: f32) -> String {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets/navigator.graph.ron");
    let preset = std::fs::read_to_string(path).expect("the navigator preset reads");
    assert_eq!(
        preset.matches("crowd_cost: 4.0,").count(),
        1,
        "the preset pays 4 once"
    );
    preset.replace("crowd_cost: 4.0,", &format!("crowd_cost: {crowd_cost:?},"))
}

const AGENTS: usize = 10_000;
const REPLANS: usize = AGENTS / 100;

/// 10,000 routed agents on the rooms level, each with its own goal within 30 units, on a pool
/// of 2 threads.
struct Routed {
    world: World,
    crowd: Crowd,
    vehicles: Vec<Vehicle>,
    goals: Vec<Vec2>,
    rng: AgentRng,
    /// The next agent whose goal moves.
    next: usize,
    pool: rayon::ThreadPool,
}

impl Routed {
    /// The crowd, every agent's first route planned, then a budget of 1 % a tick.
    fn new(crowd_cost: f32) -> Self {
        let mut world = rooms_level();
        world.build_navigation(0.5).expect("the rooms level builds");
        let graph = Graph::from_ron(&navigator(crowd_cost), "navigator.graph.ron").expect("parses");
        let program = compile(&graph).expect("compiles");
        let crowd =
            Crowd::new(program, &world, 44, &std::collections::BTreeMap::new()).expect("binds");
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool of 2");
        let mut routed = Self {
            world,
            crowd,
            vehicles: Vec::with_capacity(AGENTS),
            goals: Vec::with_capacity(AGENTS),
            rng: AgentRng::new(45, 0),
            next: 0,
            pool,
        };
        let size = routed.world.bounds.size();
        while routed.vehicles.len() < AGENTS {
            let at = Vec2::new(routed.rng.unit() * size.x, routed.rng.unit() * size.y);
            if routed.walkable(at) {
                let vehicle = Vehicle::new(at, Vec2::ZERO, VehicleParams::default());
                routed.vehicles.push(vehicle);
            }
        }
        for agent in 0..AGENTS {
            let goal = routed.near(routed.vehicles[agent].position);
            routed.goals.push(goal);
            (routed.crowd)
                .set_goal(agent, "goal", goal)
                .expect("a goal");
        }
        routed.crowd.set_route_budget(AGENTS);
        routed.step();
        routed.step();
        routed.crowd.set_route_budget(REPLANS);
        routed
    }

    fn walkable(&self, at: Vec2) -> bool {
        (self.world.navigation(0.5)).is_some_and(|mesh| mesh.is_walkable(at))
    }

    /// A goal within 30 units of `at` along each axis, on the mesh.
    fn near(&mut self, at: Vec2) -> Vec2 {
        loop {
            let goal = at + Vec2::new(self.rng.signed_unit(), self.rng.signed_unit()) * 30.0;
            if self.walkable(goal) {
                return goal;
            }
        }
    }

    /// Moves the goals of the next 100 agents, each farther than the node's re-plan
    /// distance (2) from where it was, so that each asks.
    fn move_goals(&mut self) {
        for _ in 0..REPLANS {
            let agent = self.next % AGENTS;
            self.next += 1;
            let goal = loop {
                let goal = self.near(self.vehicles[agent].position);
                if goal.distance(self.goals[agent]) > 3.0 {
                    break goal;
                }
            };
            self.goals[agent] = goal;
            self.crowd.set_goal(agent, "goal", goal).expect("a goal");
        }
    }

    fn step(&mut self) {
        let (crowd, world, vehicles) = (&mut self.crowd, &self.world, &mut self.vehicles);
        self.pool
            .install(|| crowd.step(world, vehicles, &[], 1.0 / 60.0));
    }

    /// The planning phase alone, timed on a thread of the pool, as a tick's steps run (the
    /// pool's waking to the call is not the planning's).
    fn timed_planning(&mut self) -> Duration {
        let (crowd, world, vehicles) = (&mut self.crowd, &self.world, &self.vehicles);
        self.pool.install(|| {
            let start = Instant::now();
            crowd.plan_routes(black_box(world), vehicles);
            start.elapsed()
        })
    }
}

/// Ticks of 10,000 routed agents on the rooms level, with 1 % re-planning and with none,
/// paying `crowd_cost` per standing agent at a door (the runs with 0 are named `…_no_crowds`).
fn routed_ticks(c: &mut Criterion, crowd_cost: f32) {
    let name = |what: &str| {
        if crowd_cost > 0.0 {
            what.to_owned()
        } else {
            format!("{what}_no_crowds")
        }
    };
    let mut routed = Routed::new(crowd_cost);
    c.bench_function(&name("routed_tick_10000_replan_1pct"), |b| {
        b.iter(|| {
            routed.move_goals();
            // The moved goals are seen by the evaluation, planned on the next tick.
            routed.step();
        });
    });
    // The planning alone, timed on its own: each iteration moves 100 goals and steps (the
    // evaluation sees them and asks), untimed, then times `plan_routes`, which plans them.
    // The fewest and most routes a call planned, and the sum over how many calls.
    let mut planned: (usize, usize, usize, usize) = (usize::MAX, 0, 0, 0);
    // The agents the calls' counts of the crowds at doors worked out, together.
    let mut counted = 0;
    c.bench_function(&name("plan_phase_10000_replan_1pct"), |b| {
        b.iter_custom(|iterations| {
            let mut spent = Duration::ZERO;
            for _ in 0..iterations {
                routed.move_goals();
                routed.step();
                spent += routed.timed_planning();
                let (count, _) = routed.crowd.routes_planned();
                counted += routed.crowd.agents_counted();
                planned = (
                    planned.0.min(count),
                    planned.1.max(count),
                    planned.2 + count,
                    planned.3 + 1,
                );
            }
            spent
        });
    });
    // (Unless a filter left the benchmark out.)
    if planned.0 != usize::MAX {
        println!(
            "{}: {} to {} routes planned a call, {:.1} on average",
            name("plan phase"),
            planned.0,
            planned.1,
            planned.2 as f64 / planned.3 as f64
        );
        println!(
            "{}: {:.1} agents of {AGENTS} worked out at doors a call on average",
            name("plan phase"),
            counted as f64 / planned.3 as f64
        );
        // A moved goal is seen only when the agent's Budget leaves Navigate some force (in a
        // crush, walls and Separation can take it all), so some calls plan fewer than 100.
        assert!(planned.0 >= REPLANS / 2, "a call planned {}", planned.0);
    }
    // The same with no goal moved: the scan of the agents that ask, stuck agents' re-plans,
    // and the looks for jammed doors that fall due.
    c.bench_function(&name("plan_phase_10000_no_replan"), |b| {
        b.iter_custom(|iterations| {
            let mut spent = Duration::ZERO;
            for _ in 0..iterations {
                routed.step();
                spent += routed.timed_planning();
            }
            spent
        });
    });
    c.bench_function(&name("routed_tick_10000_no_replan"), |b| {
        b.iter(|| routed.step());
    });
    let (planned, _) = routed.crowd.routes_planned();
    println!(
        "{}: {planned} routes planned in the last tick without moved goals",
        name("routed ticks")
    );
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
    // The same queries estimated by the straight line alone (the search before landmarks),
    // the baseline: the routes are as long, the work is what differs.
    for straight_line_only in [false, true] {
        let mut search = RouteSearch::default();
        search.straight_line_only = straight_line_only;
        let (mut expanded, mut corners, mut length) = (0, 0, 0.0);
        for &(from, to) in &pairs {
            let route = mesh.route(from, to, &mut search);
            corners += route.points.len();
            length += f64::from(route.length());
            expanded += search.expanded;
        }
        let name = if straight_line_only {
            format!("{name}_straight_line")
        } else {
            name.to_owned()
        };
        println!(
            "{name}: {} triangles, {} islands, {} landmarks, {:.0} KiB; a query expands {:.0} triangles and gives {:.1} points, {:.2} units on average",
            mesh.triangle_count(),
            mesh.island_count(),
            mesh.landmark_count(),
            mesh.heap_bytes() as f64 / 1024.0,
            expanded as f64 / pairs.len() as f64,
            corners as f64 / pairs.len() as f64,
            length / pairs.len() as f64,
        );
        let mut next = 0;
        c.bench_function(&name, |b| {
            b.iter(|| {
                let (from, to) = pairs[next % pairs.len()];
                next += 1;
                mesh.route(black_box(from), black_box(to), &mut search)
            });
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(5));
    targets = navigation
}
criterion_main!(benches);
