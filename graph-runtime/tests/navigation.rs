//! Navigation meshes and routes on small levels whose answers are worked out by hand: a room
//! with one door, an L-shaped corridor, an island reached only by a jump link, goals no walk
//! reaches, and levels the mesh refuses.

use glam::Vec2;
use graph_runtime::limits::MAX_NAV_SEGMENTS;
use graph_runtime::navigation::{Crowding, NavError};
use graph_runtime::{JumpLink, NavMesh, Reach, Rect, RouteSearch, Wall, World};

const RADIUS: f32 = 0.5;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-4
}

fn assert_points(actual: &[Vec2], expected: &[Vec2]) {
    assert_eq!(
        actual.len(),
        expected.len(),
        "{actual:?} against {expected:?}"
    );
    for (a, e) in actual.iter().zip(expected) {
        assert!(a.distance(*e) < 1e-4, "{actual:?} against {expected:?}");
    }
}

/// Two rooms, 20 × 10, split by a wall at x = 10 with a door from y = 4 to y = 6.
fn two_rooms() -> World {
    let mut world = World::new(Rect::new(v(0.0, 0.0), v(20.0, 10.0)));
    world.set_walls(vec![
        Wall::polyline(vec![v(10.0, 0.0), v(10.0, 4.0)]),
        Wall::polyline(vec![v(10.0, 6.0), v(10.0, 10.0)]),
    ]);
    world
}

/// A 10 × 10 level with the wall (0, 2)–(8, 2)–(8, 10): an L-shaped corridor along the bottom
/// and up the right side, and a room inside the L that no walk from the corridor reaches.
fn l_corridor() -> World {
    let mut world = World::new(Rect::new(v(0.0, 0.0), v(10.0, 10.0)));
    world.set_walls(vec![Wall::polyline(vec![
        v(0.0, 2.0),
        v(8.0, 2.0),
        v(8.0, 10.0),
    ])]);
    world
}

#[test]
fn the_mesh_is_the_bounds_less_the_walls_grown_by_the_radius() {
    // Two rooms: the bounds less 0.5 on each side (19 × 9 = 171) less the wall's two bands
    // inside them (1 wide, 4 long each): 163, one island.
    let mesh = NavMesh::build(&two_rooms(), RADIUS).expect("the level builds");
    assert!(close(mesh.area(), 163.0), "area {}", mesh.area());
    assert_eq!(mesh.island_count(), 1);
    // The L: 9 × 9 less the two bands' union (8 + 8 − 1): 66 in two islands, the corridor
    // (9 + 8) and the room inside the L (7 × 7).
    let mesh = NavMesh::build(&l_corridor(), RADIUS).expect("the level builds");
    assert!(close(mesh.area(), 66.0), "area {}", mesh.area());
    assert_eq!(mesh.island_count(), 2);
    assert!(mesh.is_walkable(v(9.0, 9.0)));
    assert!(
        !mesh.is_walkable(v(8.4, 5.0)),
        "within the radius of the wall"
    );
    assert!(
        !mesh.is_walkable(v(0.4, 5.0)),
        "within the radius of the bounds"
    );
}

#[test]
fn a_route_through_a_door_turns_at_its_jambs_grown_by_the_radius() {
    let mesh = NavMesh::build(&two_rooms(), RADIUS).expect("the level builds");
    let mut search = RouteSearch::default();
    // From high in the left room to high in the right: down to the upper jamb's corners,
    // (9.5, 5.5) and (10.5, 5.5), and up again. Length 2 × √(7.5² + 2.5²) + 1.
    let route = mesh.route(v(2.0, 8.0), v(18.0, 8.0), &mut search);
    assert_eq!(route.reach, Some(Reach::Goal));
    assert_points(
        &route.points,
        &[v(2.0, 8.0), v(9.5, 5.5), v(10.5, 5.5), v(18.0, 8.0)],
    );
    assert!(
        close(route.length(), 2.0 * 62.5f32.sqrt() + 1.0),
        "{}",
        route.length()
    );
    assert!(route.jumps.is_empty());
    // Level with the door, the walk is straight.
    let route = mesh.route(v(2.0, 5.0), v(18.0, 5.0), &mut search);
    assert_points(&route.points, &[v(2.0, 5.0), v(18.0, 5.0)]);
    assert!(close(route.length(), 16.0));
    // The same query again gives the same route, bit for bit.
    let again = mesh.route(v(2.0, 8.0), v(18.0, 8.0), &mut search);
    assert_eq!(
        again,
        mesh.route(v(2.0, 8.0), v(18.0, 8.0), &mut RouteSearch::default())
    );
    assert!(search.expanded <= mesh.search_places());
}

#[test]
fn a_route_along_an_l_corridor_turns_at_the_grown_inner_corner() {
    let mesh = NavMesh::build(&l_corridor(), RADIUS).expect("the level builds");
    let mut search = RouteSearch::default();
    // The inner corner (8, 2) grown by 0.5 each way: (8.5, 1.5). Length 2 × √(7.5² + 0.5²).
    let route = mesh.route(v(1.0, 1.0), v(9.0, 9.0), &mut search);
    assert_eq!(route.reach, Some(Reach::Goal));
    assert_points(&route.points, &[v(1.0, 1.0), v(8.5, 1.5), v(9.0, 9.0)]);
    assert!(
        close(route.length(), 2.0 * 56.5f32.sqrt()),
        "{}",
        route.length()
    );
}

#[test]
fn a_goal_no_walk_reaches_gives_the_nearest_point_one_does() {
    let mesh = NavMesh::build(&l_corridor(), RADIUS).expect("the level builds");
    let mut search = RouteSearch::default();
    // In the room inside the L: the corridor's nearest point is straight below, on its top
    // edge (y = 1.5), 4.5 away (the right leg's edge, x = 8.5, is 5.5 away).
    let route = mesh.route(v(1.0, 1.0), v(3.0, 6.0), &mut search);
    assert_eq!(route.reach, Some(Reach::Nearest));
    assert_points(&route.points, &[v(1.0, 1.0), v(3.0, 1.5)]);
    // Outside the bounds: the nearest point is 0.5 inside them.
    let route = mesh.route(v(9.0, 9.0), v(12.0, 5.0), &mut search);
    assert_eq!(route.reach, Some(Reach::Nearest));
    assert_points(&route.points, &[v(9.0, 9.0), v(9.5, 5.0)]);
    // On the wall itself: the nearest walkable point touches it (0.5 away): that counts.
    let route = mesh.route(v(9.0, 9.0), v(8.0, 5.0), &mut search);
    assert_eq!(route.reach, Some(Reach::Goal));
    assert_points(&route.points, &[v(9.0, 9.0), v(8.5, 5.0)]);
    // A start inside the wall's band begins from the nearest point beside it.
    let route = mesh.route(v(8.3, 5.0), v(9.0, 9.0), &mut search);
    assert_points(&route.points, &[v(8.5, 5.0), v(9.0, 9.0)]);
}

#[test]
fn a_jump_link_joins_an_island_one_way() {
    // The L's room is reached from the corridor by a link over the wall, from (4, 1) to (4, 3).
    let mut world = l_corridor();
    world.set_jump_link("over", JumpLink::new(v(4.0, 1.0), v(4.0, 3.0)));
    let mesh = NavMesh::build(&world, RADIUS).expect("the level builds");
    let mut search = RouteSearch::default();
    let route = mesh.route(v(1.0, 1.0), v(4.0, 8.0), &mut search);
    assert_eq!(route.reach, Some(Reach::Goal));
    assert_points(
        &route.points,
        &[v(1.0, 1.0), v(4.0, 1.0), v(4.0, 3.0), v(4.0, 8.0)],
    );
    assert_eq!(route.jumps, [1]);
    assert!(close(route.length(), 3.0 + 2.0 + 5.0));
    // Back is no jump: from the room the corridor is out of reach.
    let back = mesh.route(v(4.0, 8.0), v(1.0, 1.0), &mut search);
    assert_eq!(back.reach, Some(Reach::Nearest));
}

#[test]
fn levels_the_mesh_cannot_be_built_for_say_why() {
    let world = two_rooms();
    assert_eq!(
        NavMesh::build(&world, -1.0).expect_err("a negative radius"),
        NavError::Radius(-1.0)
    );
    assert!(matches!(
        NavMesh::build(&world, f32::NAN),
        Err(NavError::Radius(_))
    ));
    assert!(matches!(
        NavMesh::build(&world, 6.0),
        Err(NavError::BoundsTooSmall { .. })
    ));
    let mut huge = World::new(Rect::new(v(0.0, 0.0), v(100.0, 100.0)));
    let points = (0..=MAX_NAV_SEGMENTS + 1)
        .map(|i| v(i as f32 * 1e-4, 50.0))
        .collect();
    huge.set_walls(vec![Wall::polyline(points)]);
    let error = NavMesh::build(&huge, RADIUS).expect_err("too many segments");
    assert_eq!(
        error.to_string(),
        format!(
            "the level has {} wall segments, gap edges and obstacles; navigation builds over at most {MAX_NAV_SEGMENTS}",
            MAX_NAV_SEGMENTS + 1
        )
    );
}

#[test]
fn zero_length_and_crossing_walls_still_make_a_mesh() {
    let mut world = World::new(Rect::new(v(0.0, 0.0), v(10.0, 10.0)));
    world.set_walls(vec![
        Wall::polyline(vec![v(5.0, 5.0), v(5.0, 5.0)]),
        Wall::polyline(vec![v(2.0, 2.0), v(8.0, 8.0), v(8.0, 2.0), v(2.0, 8.0)]),
    ]);
    let mesh = NavMesh::build(&world, RADIUS).expect("the level builds");
    assert!(mesh.triangle_count() > 0);
    let route = mesh.route(v(1.0, 5.0), v(9.0, 5.0), &mut RouteSearch::default());
    assert!(route.points.len() >= 2);
    assert!(route.length().is_finite());
}

#[test]
fn a_gap_splits_the_level_and_a_link_jumps_it() {
    // A chasm across a 10 × 10 level from x = 4 to x = 6: grown by 0.5, the walkable part is
    // 9 × 9 less 3 × 9, two islands.
    let mut world = World::new(Rect::new(v(0.0, 0.0), v(10.0, 10.0)));
    world.set_gaps(vec![graph_runtime::Gap::new(vec![
        v(4.0, -1.0),
        v(6.0, -1.0),
        v(6.0, 11.0),
        v(4.0, 11.0),
    ])]);
    let mesh = NavMesh::build(&world, RADIUS).expect("the level builds");
    assert!(close(mesh.area(), 54.0), "area {}", mesh.area());
    assert_eq!(mesh.island_count(), 2);
    let mut search = RouteSearch::default();
    let route = mesh.route(v(1.0, 5.0), v(9.0, 5.0), &mut search);
    assert_eq!(route.reach, Some(Reach::Nearest));
    assert_points(&route.points, &[v(1.0, 5.0), v(3.5, 5.0)]);
    world.set_jump_link("over", JumpLink::new(v(3.0, 5.0), v(7.0, 5.0)));
    let mesh = NavMesh::build(&world, RADIUS).expect("the level builds");
    let route = mesh.route(v(1.0, 5.0), v(9.0, 5.0), &mut search);
    assert_eq!(route.reach, Some(Reach::Goal));
    assert_points(
        &route.points,
        &[v(1.0, 5.0), v(3.0, 5.0), v(7.0, 5.0), v(9.0, 5.0)],
    );
    assert_eq!(route.jumps, [1]);
}

/// A 20 × 12 level split at x = 10 with door A (y from 4 to 6) and door B (y from 9 to 11).
fn two_doors() -> World {
    let mut world = World::new(Rect::new(v(0.0, 0.0), v(20.0, 12.0)));
    world.set_walls(vec![
        Wall::polyline(vec![v(10.0, 0.0), v(10.0, 4.0)]),
        Wall::polyline(vec![v(10.0, 6.0), v(10.0, 9.0)]),
        Wall::polyline(vec![v(10.0, 11.0), v(10.0, 12.0)]),
    ]);
    world
}

#[test]
fn a_door_full_of_standing_agents_is_routed_round_when_the_other_way_is_cheaper() {
    let mesh = NavMesh::build(&two_doors(), RADIUS).expect("the level builds");
    let mut search = RouteSearch::default();
    let (from, to) = (v(2.0, 5.0), v(18.0, 5.0));
    // Nobody standing: straight through door A, 16 long.
    let mut crowding = Crowding::default();
    crowding.count(&mesh, []);
    let free = mesh.route_around((from, to), (&crowding, 10.0), &mut search);
    assert_eq!(free, mesh.route(from, to, &mut search));
    assert_points(&free.points, &[from, to]);
    // One agent of radius 0.5 standing in door A's middle, (10, 5): the doorway for centres
    // is 1 wide (y from 4.5 to 5.5), so each edge of the triangle it stands in that crosses
    // the doorway lies within the two radii (1) of it and is filled whole: a fill of 1 per
    // such edge, of which a route pays for the half beyond the free half, on at most 3
    // edges of any route.
    crowding.count(&mesh, [(v(10.0, 5.0), 0.5)]);
    // Ignoring crowds: still through A.
    let ignoring = mesh.route_around((from, to), (&crowding, 0.0), &mut search);
    assert_points(&ignoring.points, &[from, to]);
    // At 10 units per door's width: door B is cheaper. Its lower jamb grown by the radius
    // is (9.5, 9.5) and (10.5, 9.5): 2 · √(7.5² + 4.5²) + 1 = 18.49 long, under 16 + 5.
    let round = mesh.route_around((from, to), (&crowding, 10.0), &mut search);
    assert_points(&round.points, &[from, v(9.5, 9.5), v(10.5, 9.5), to]);
    assert!(close(round.length(), 2.0 * (7.5_f32.hypot(4.5)) + 1.0));
    // At 0.5 units per door's width, the fill costs at most 3 · 0.25, under door B's longer
    // walk (2.49 more): door A.
    let cheap = mesh.route_around((from, to), (&crowding, 0.5), &mut search);
    assert_points(&cheap.points, &[from, to]);
}
