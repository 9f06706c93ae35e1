//! What the route planner reads and counts each tick is bounded by what asks for it (issue
//! 44): agents whose Navigate nodes asked (a plan, or a look for a jammed door due) and stuck
//! ones, not every agent; and the crowds at the doors count the same on any thread count.

#[path = "levels/rooms.rs"]
#[expect(
    dead_code,
    reason = "the level at the segment limit is the benchmarks' and time bounds'"
)]
mod rooms;

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::navigation::Crowding;
use graph_runtime::{Crowd, Graph, NavMesh, Vehicle, VehicleParams, World, compile};

const DT: f32 = 1.0 / 60.0;

/// Navigate alone to the agent's own goal, paying nothing for crowds.
const NAVIGATE: &str = r#"(format: "steergraph.graph", version: 1,
    vehicle: (mass: 1.0, max_force: 20.0, max_speed: 3.0, radius: 0.5),
    nodes: {
        1: Navigate(target: Own("goal"), ahead_distance: 2.0, slowing_distance: 3.0,
                    replan_distance: 2.0, crowd_cost: 0.0),
        2: Output(input: 1),
    })"#;

/// The middle of room (`column`, `row`) of the rooms level.
fn middle(column: usize, row: usize) -> Vec2 {
    Vec2::new(column as f32 + 0.5, row as f32 + 0.5) * rooms::ROOM
}

/// One tick; the agents' routes read and planned in it.
fn tick(crowd: &mut Crowd, world: &World, vehicles: &mut [Vehicle]) -> (usize, usize) {
    crowd.step(world, vehicles, &[], DT);
    (crowd.routes_read(), crowd.routes_planned().0)
}

/// A crowd running `graph` for 16 agents resting in the middles of the 4 × 4 rooms of
/// `world`, each with its goal where it stands, and a budget of 100 routes a tick.
fn resting(world: &World, graph: &str) -> (Crowd, Vec<Vehicle>) {
    let graph = Graph::from_ron(graph, "navigate.graph.ron").expect("parses");
    let mut crowd = Crowd::new(
        compile(&graph).expect("compiles"),
        world,
        7,
        &BTreeMap::new(),
    )
    .expect("binds");
    crowd.set_route_budget(100);
    let vehicles: Vec<Vehicle> = (0..16)
        .map(|i| Vehicle::new(middle(i % 4, i / 4), Vec2::ZERO, VehicleParams::default()))
        .collect();
    for (agent, vehicle) in vehicles.iter().enumerate() {
        crowd
            .set_goal(agent, "goal", vehicle.position)
            .expect("a goal");
    }
    (crowd, vehicles)
}

#[test]
fn the_planner_reads_only_the_agents_that_ask() {
    // 4 × 4 rooms, one agent resting in the middle of each with its goal where it stands.
    let mut world = rooms::rooms_level(4, 4, 0);
    world.build_navigation(0.5).expect("the level builds");
    let (mut crowd, mut vehicles) = resting(&world, NAVIGATE);
    // The first tick reads everyone and plans nothing: no evaluation has seen a goal yet.
    assert_eq!(tick(&mut crowd, &world, &mut vehicles), (16, 0));
    // Each evaluation asked for its first route: all 16 read and planned.
    assert_eq!(tick(&mut crowd, &world, &mut vehicles), (16, 16));
    // At rest on their goals, nobody asks: a second of ticks reads no agent's routes.
    for t in 3..=62 {
        assert_eq!(tick(&mut crowd, &world, &mut vehicles), (0, 0), "tick {t}");
    }
    // Two goals move to other rooms: the next evaluation sees them, the tick after plans them
    // (two agents read), then nobody asks again while they walk.
    crowd.set_goal(3, "goal", middle(0, 3)).expect("a goal");
    crowd.set_goal(9, "goal", middle(3, 0)).expect("a goal");
    assert_eq!(tick(&mut crowd, &world, &mut vehicles), (0, 0));
    assert_eq!(tick(&mut crowd, &world, &mut vehicles), (2, 2));
    for t in 0..30 {
        assert_eq!(tick(&mut crowd, &world, &mut vehicles), (0, 0), "tick {t}");
    }
    // The walls are set again: the meshes are rebuilt, so every agent's routes are read and
    // every route (planned on the old meshes) planned again, once.
    let walls = world.walls().to_vec();
    world.set_walls(walls);
    assert_eq!(tick(&mut crowd, &world, &mut vehicles), (16, 16));
    assert_eq!(tick(&mut crowd, &world, &mut vehicles), (0, 0));
}

#[test]
fn crowds_at_doors_count_the_same_on_one_and_two_threads() {
    // 4,096 standing agents on 8 × 8 rooms, enough to be counted in parallel chunks.
    let world = rooms::rooms_level(8, 8, 0);
    let mesh = NavMesh::build(&world, 0.5).expect("the level builds");
    let standing: Vec<(Vec2, f32)> = (0..4_096)
        .map(|i| {
            // A lattice of 64 × 64 points 1.25 apart, 0.1 in from the level's corner.
            let (x, y) = ((i % 64) as f32, (i / 64) as f32);
            (Vec2::new(0.1 + x * 1.25, 0.1 + y * 1.25), 0.5)
        })
        .collect();
    let count_on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        let mut crowding = Crowding::default();
        pool.install(|| crowding.count(&mesh, standing.iter().copied()));
        crowding
    };
    let one = count_on(1);
    assert_eq!(one, count_on(2));
    // Counted again, each agent's triangle from the first count tried first: the same fill.
    let mut again = one.clone();
    again.count(&mesh, standing.iter().copied());
    assert_eq!(again, one);
    // Not all empty: the agents standing in the doorways fill them.
    let full = (0..mesh.triangle_count() as u32)
        .flat_map(|t| (0..3).map(move |e| (t, e)))
        .filter(|&(t, e)| one.at(t, e) > 0.0)
        .count();
    assert!(full > 0);
}

#[test]
fn the_crowds_at_doors_are_worked_out_again_only_for_agents_that_moved() {
    // The 16 agents of the rooms above, resting on their goals, now paying for crowds: each
    // route looks for a jammed door every half second, and each look reads the crowds.
    let mut world = rooms::rooms_level(4, 4, 0);
    world.build_navigation(0.5).expect("the level builds");
    let paying = NAVIGATE.replace("crowd_cost: 0.0", "crowd_cost: 4.0");
    let (mut crowd, mut vehicles) = resting(&world, &paying);
    let step = |crowd: &mut Crowd, vehicles: &mut [Vehicle]| {
        let (read, planned) = tick(crowd, &world, vehicles);
        (read, planned, crowd.agents_counted())
    };
    // No route yet, nothing counted; then the 16 first routes pay for crowds: all 16, standing,
    // are worked out.
    assert_eq!(step(&mut crowd, &mut vehicles), (16, 0, 0));
    assert_eq!(step(&mut crowd, &mut vehicles), (16, 16, 16));
    // At rest for two seconds: the routes look (and the crowds are counted) every half
    // second, and nobody has changed cell or standing: nobody is worked out again.
    let mut looked = 0;
    for t in 0..120 {
        let (read, planned, counted) = step(&mut crowd, &mut vehicles);
        assert_eq!((planned, counted), (0, 0), "tick {t}");
        looked += read;
    }
    // Each route looks 3 times in the 2 s (or 4, by the phase of its clock).
    assert!((16 * 3..=16 * 4).contains(&looked), "{looked}");
    // One agent walks off to another room: the first count after it starts walking (its new
    // route's plan counts while it still stands; the next look, within half a second, counts
    // again) works it out again (it no longer stands), and no count of the others.
    crowd.set_goal(3, "goal", middle(0, 3)).expect("a goal");
    let mut counted = Vec::new();
    for _ in 0..40 {
        counted.push(step(&mut crowd, &mut vehicles).2);
    }
    assert_eq!(counted.iter().sum::<usize>(), 1, "{counted:?}");
}
