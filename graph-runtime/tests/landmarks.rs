//! The route search's landmarks (issue 44's planning target): the estimate they give never
//! makes a route longer in the search's own measure than the straight line's estimate finds,
//! and on a level of rooms it spares a good part of the work; and the mesh's numbering, which
//! keeps the places a search reaches near each other in memory. Work is counted (places
//! expanded, distances), not timed.

#[path = "levels/rooms.rs"]
#[expect(
    dead_code,
    reason = "the level at the segment limit is the benchmarks' and time bounds'"
)]
mod rooms;

use glam::Vec2;
use graph_runtime::{AgentRng, NavMesh, Rect, RouteSearch, World};

/// The search's ordering step: a route's cost is the least within it.
const ORDER_STEP: f32 = 1.0 / 16.0;

#[test]
fn landmarks_find_routes_as_cheap_as_the_straight_line_with_under_a_third_the_work() {
    let world = rooms::rooms_level(16, 17, 0);
    let mesh = NavMesh::build(&world, 0.5).expect("the rooms level builds");
    assert_eq!(mesh.landmark_count(), 8);
    let mut with = RouteSearch::default();
    let mut without = RouteSearch::default();
    without.straight_line_only = true;
    let mut rng = AgentRng::new(44, 0);
    let size = world.bounds.size();
    let mut point = || Vec2::new(rng.unit() * size.x, rng.unit() * size.y);
    let (mut expanded_with, mut expanded_without) = (0, 0);
    for pair in 0..200 {
        let (from, to) = (point(), point());
        let route = mesh.route(from, to, &mut with);
        let baseline = mesh.route(from, to, &mut without);
        // Both are the least the search can find, each within one ordering step: an estimate
        // that overshot would have found a dearer route.
        let (cost, least) = (with.cost(), without.cost());
        assert!(
            (cost - least).abs() <= ORDER_STEP + 1e-3 * least,
            "pair {pair}: {from} → {to} costs {cost} with landmarks, {least} without"
        );
        assert_eq!(route.reach, baseline.reach, "pair {pair}");
        expanded_with += with.expanded;
        expanded_without += without.expanded;
    }
    println!("{expanded_with} places expanded with landmarks, {expanded_without} without");
    // Measured with 8 landmarks: 36,398 against 162,424 places over these 200 pairs (182
    // against 812 a query; with 4 landmarks it was about half).
    assert!(
        expanded_with * 3 < expanded_without,
        "{expanded_with} places expanded with landmarks, {expanded_without} without"
    );
}

#[test]
fn a_level_of_one_crossing_has_one_landmark_and_an_open_room_none_needed() {
    // An empty rectangle is two triangles: one crossing, so one landmark (the next farthest
    // place is the landmark itself).
    let world = World::new(Rect::new(Vec2::ZERO, Vec2::new(10.0, 4.0)));
    let mesh = NavMesh::build(&world, 0.5).expect("builds");
    assert_eq!(mesh.triangle_count(), 2);
    assert_eq!(mesh.landmark_count(), 1);
    let mut search = RouteSearch::default();
    let route = mesh.route(Vec2::new(1.0, 1.0), Vec2::new(9.0, 3.0), &mut search);
    // Straight across: the walk from (1, 1) to the crossing's middle (5, 2) and on to (9, 3),
    // √17 each way.
    assert_eq!(route.points, [Vec2::new(1.0, 1.0), Vec2::new(9.0, 3.0)]);
    let expected = 2.0 * 17.0_f32.sqrt();
    assert!((search.cost() - expected).abs() < 1e-4, "{}", search.cost());
}

/// The mesh numbers its triangles along a space-filling curve, so that a search's places near
/// each other share cache lines (`BENCHMARKS.md`, "Navigation": a route across the mesh at the
/// segment limit took half the time). Counted, not timed: on the 272-room level (27,200 square
/// units, 3,610 triangles: about 7.5 square units, under 3 units across, each) consecutive
/// triangles' centres lie 4.1 units apart on average and 44 of the 3,609 steps are longer than
/// 20 units (where the curve turns into the next quarter); in the triangulation's own order
/// they lay 16.1 apart, 1,013 of them longer than 20.
#[test]
fn triangles_near_each_other_get_near_numbers() {
    let world = rooms::rooms_level(16, 17, 0);
    let mesh = NavMesh::build(&world, 0.5).expect("the rooms level builds");
    let centres: Vec<Vec2> = mesh
        .triangles()
        .map(|[a, b, c]| (a + b + c) / 3.0)
        .collect();
    let steps: Vec<f32> = centres.windows(2).map(|w| w[0].distance(w[1])).collect();
    let mean = steps.iter().sum::<f32>() / steps.len() as f32;
    let long = steps.iter().filter(|&&d| d > 20.0).count();
    assert!(
        mean < 6.0,
        "consecutive triangles lie {mean} apart on average"
    );
    assert!(
        long < 100,
        "{long} of {} steps are longer than 20",
        steps.len()
    );
}
