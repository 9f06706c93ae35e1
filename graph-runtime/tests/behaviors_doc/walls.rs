//! Wall queries and the wall behaviors, as `BEHAVIORS.md` states them.

use super::{agent, close, link, one, point, says, steer, v2};
use crate::sensors_combiners::compare;
use glam::Vec2;
use graph_runtime::behaviors::{self};
use graph_runtime::{
    AgentState, Bindings, Comparison, Context, Graph, Node, Rect, Region, Scratch, SpatialGrid,
    TagTable, Vehicle, Wall, WallSide, World, compile,
};

// ---------------------------------------------------------------------------------------------
// Walls
// ---------------------------------------------------------------------------------------------

fn world_with(walls: Vec<Wall>) -> World {
    let mut world = World::default();
    world.set_walls(walls);
    world
}

fn wall_avoidance(min_length: f32, lookahead_time: f32, whisker_angle: f32, margin: f32) -> Node {
    Node::WallAvoidance {
        min_length: min_length.into(),
        lookahead_time: lookahead_time.into(),
        whisker_angle: whisker_angle.into(),
        margin: margin.into(),
    }
}

#[track_caller]
fn near(actual: Vec2, expected: Vec2) {
    assert!(
        (actual - expected).abs().max_element() <= 1e-4,
        "expected {expected}, got {actual}"
    );
}

#[test]
fn wall_queries_are_the_documented_scans() {
    says("`den = cross(d, s)` with `cross(x, y) = x.x * y.y - x.y * y.x`.");
    says(
        "`u = cross(w, d) / den`, and the segment is hit when\n  `0 <= t <= 1` and `0 <= u <= 1`;",
    );
    says(
        "a segment whose bounding box does not meet the ray's\n  (from `o` to `o + d`) is not hit",
    );
    says("the smallest `|x - point|²` that is `<= r²` wins, the lower segment index on a tie.");
    // o = (0,0), e = (5,0): d = (5,0). Segment (4,0) → (0,2): s = (-4,2), den = 5*2 - 0 = 10,
    // w = (4,0), t = (4*2 - 0*(-4)) / 10 = 0.8, u = (4*0 - 0*5) / 10 = 0: a hit 4 units along.
    // Segment (4,0) → (0,-2) is hit at the same t: the lower index (0) wins.
    // n = normalize(perp(s)) = (-2,-4)/√20; n · (o - a) = 8/√20 > 0, so it stays.
    let world = world_with(vec![
        Wall::polyline(vec![v2(4.0, 0.0), v2(0.0, 2.0)]),
        Wall::polyline(vec![v2(4.0, 0.0), v2(0.0, -2.0)]),
    ]);
    let hit = world
        .wall_index()
        .ray_cast(Vec2::ZERO, v2(5.0, 0.0))
        .expect("a hit");
    assert_eq!(
        (hit.point, hit.distance, hit.segment),
        (v2(4.0, 0.0), 4.0, 0)
    );
    close(hit.normal, v2(-1.0, -2.0) / 5.0_f32.sqrt());
    // The boxes are closed: o = (0,0), e = (4,0) ends on the wall (4,-1) → (4,1), whose box
    // touches the ray's at x = 4; den = 4*2 - 0 = 8, w = (4,-1), t = (4*2 - (-1)*0) / 8 = 1,
    // u = (4*0 - (-1)*4) / 8 = 0.5: a hit 4 units along. The wall at x = 4.5 is beyond the
    // ray's box (and t = 1.125): no hit.
    let end_on = world_with(vec![Wall::polyline(vec![v2(4.0, -1.0), v2(4.0, 1.0)])]);
    let hit = end_on.wall_index().ray_cast(Vec2::ZERO, v2(4.0, 0.0));
    assert_eq!(
        hit.map(|h| (h.point, h.distance)),
        Some((v2(4.0, 0.0), 4.0))
    );
    let beyond = world_with(vec![Wall::polyline(vec![v2(4.5, -1.0), v2(4.5, 1.0)])]);
    assert!(
        beyond
            .wall_index()
            .ray_cast(Vec2::ZERO, v2(4.0, 0.0))
            .is_none()
    );
    // Nearest to (0,0) on segment 0: t = ((0,0) - (4,0)) · (-4,2) / 20 = 0.8, the point
    // (4,0) + (-4,2) * 0.8 = (0.8, 1.6), √3.2 = 1.7889 away; segment 1 ties at (0.8, -1.6) and
    // segment 0 wins.
    let nearest = world
        .wall_index()
        .nearest(Vec2::ZERO, 2.0)
        .expect("within 2");
    assert_eq!(nearest.segment, 0);
    close(nearest.point, v2(0.8, 1.6));
    assert!(world.wall_index().nearest(Vec2::ZERO, 1.7).is_none());
}

#[test]
fn wall_avoidance_pushes_along_the_normal_and_turns_left_on_a_tie() {
    says(
        "central `(forward, L)`, left `(rotate(forward, θ), L * 0.5)`, right `(rotate(forward, -θ), L * 0.5)`.",
    );
    says(
        "if hit: free = hit.distance; F = F + hit.normal * (max_force * max(len - free, 0) / len)",
    );
    says("turn = +1 if free_left >= free_right, else -1");
    says("F = F + (side * turn - forward) * (max_force * (L - free_central) / L)");
    // A wall across x = 3; p = 0, v = (2,0): L = 2 + 2 * 1 = 4, whiskers of 2 at ±45° reach
    // x = 1.41 and miss. The central feeler hits at 3: F = (-1,0) * 8 * (4 - 3) / 4 = (-2,0);
    // both whiskers are free (2 = 2), so it turns left and brakes:
    // + ((0,1) - (1,0)) * 8 * 1 / 4 = (-2, 2). R = 0.5 + 0.5 = 1 and the wall is 3 away: no
    // push from the nearest point. F = (-4, 2).
    let world = world_with(vec![Wall::polyline(vec![v2(3.0, -5.0), v2(3.0, 5.0)])]);
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let graph = one(wall_avoidance(2.0, 1.0, 45.0, 0.5));
    close(steer(&graph, &world, &[me], &[], 1), v2(-4.0, 2.0));
    // Without walls: zero.
    assert_eq!(steer(&graph, &World::default(), &[me], &[], 1), Vec2::ZERO);
}

#[test]
fn in_an_acute_corner_the_whiskers_brake_instead_of_cancelling() {
    says(
        "in a V their sideways parts\n  cancel but their parts against `forward` add up, so the agent brakes before the apex.",
    );
    // A V of 53° ahead: walls (4,0) → (0,2) and (4,0) → (0,-2). p = 0, v = (2,0),
    // min_length 3: L = 5; whiskers of 2.5 at ±45°. The left whisker meets y = 2 - x/2 at
    // x = y = 4/3, 4/3 * √2 = 1.8856 along: it pushes n1 * 8 * (2.5 - 1.8856) / 2.5 with
    // n1 = (-1,-2)/√5; the right one pushes the mirror image n2 = (-1,2)/√5 as much. Their sum
    // is (-2/√5 * 1.96602, 0) = (-1.75846, 0): the sideways parts cancel, the braking adds.
    // The central feeler meets both walls at the apex, 4 along; segment 0 wins the tie:
    // n1 * 8 * (5 - 4) / 5 = (-0.71554, -1.43108); the whiskers are equally free, so it turns
    // left and brakes: + ((0,1) - (1,0)) * 1.6. The walls are 1.79 away, beyond R = 1.
    // F = (-4.07400, 0.16892), shorter than 8.
    let world = world_with(vec![
        Wall::polyline(vec![v2(4.0, 0.0), v2(0.0, 2.0)]),
        Wall::polyline(vec![v2(4.0, 0.0), v2(0.0, -2.0)]),
    ]);
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let free = 4.0 / 3.0 * 2.0_f32.sqrt();
    let whisker = 8.0 * (2.5 - free) / 2.5;
    let n1 = v2(-1.0, -2.0) / 5.0_f32.sqrt();
    let n2 = v2(-1.0, 2.0) / 5.0_f32.sqrt();
    let expected = n1 * whisker + n2 * whisker + n1 * 1.6 + v2(-1.6, 1.6);
    near(expected, v2(-4.074_005, 0.168_916));
    let graph = one(wall_avoidance(3.0, 1.0, 45.0, 0.5));
    near(steer(&graph, &world, &[me], &[], 1), expected);
}

#[test]
fn the_nearest_wall_point_within_the_clearance_pushes_straight_away() {
    says("F = F + n * (max_force * (R - |p - q|) / R)");
    says("skipping a q equal to one already counted");
    // At rest with min_length 0: every feeler has length 0 and is skipped. A wall along
    // y = 0.6: q = (0, 0.6), R = 0.5 + 0.5 = 1, n = (0,-1): F = (0,-1) * 8 * 0.4 = (0,-3.2).
    let world = world_with(vec![Wall::polyline(vec![v2(-5.0, 0.6), v2(5.0, 0.6)])]);
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    close(
        steer(
            &graph_of(wall_avoidance(0.0, 1.0, 45.0, 0.5)),
            &world,
            &[me],
            &[],
            1,
        ),
        v2(0.0, -3.2),
    );
    // Margin 0: R = 0.5 < 0.6, nothing.
    assert_eq!(
        steer(
            &graph_of(wall_avoidance(0.0, 1.0, 45.0, 0.0)),
            &world,
            &[me],
            &[],
            1
        ),
        Vec2::ZERO
    );
}

fn graph_of(node: Node) -> Graph {
    one(node)
}

#[test]
fn wall_distance_reads_the_nearest_wall_and_infinity_without_walls() {
    says(
        "`WallDistance`: `|p - q|` for the nearest wall point `q` (see \"Walls\"); `+inf` without walls.",
    );
    // Gate(Seek((3,4)), WallDistance <test> threshold) for an agent at rest at the origin:
    // open gives (3,4). The wall x = 3 is 3 away.
    let gate = |world: &World, test, threshold| {
        let mut graph = Graph::default();
        let seek = graph.add(Node::Seek {
            target: point(3.0, 4.0),
        });
        let condition = compare(&mut graph, Node::WallDistance, test, threshold);
        let gate = graph.add(Node::Gate {
            input: link(seek),
            condition: link(condition),
        });
        graph.add(Node::Output { input: link(gate) });
        steer(&graph, world, &[agent(Vec2::ZERO, Vec2::ZERO)], &[], 1)
    };
    let world = world_with(vec![Wall::polygon(vec![
        v2(3.0, -1.0),
        v2(3.0, 1.0),
        v2(5.0, 0.0),
    ])]);
    assert_eq!(gate(&world, Comparison::LessOrEqual, 3.0), v2(3.0, 4.0));
    assert_eq!(gate(&world, Comparison::Less, 3.0), Vec2::ZERO);
    assert_eq!(
        gate(&World::default(), Comparison::Greater, 1e9),
        v2(3.0, 4.0)
    );
}

#[test]
fn wall_ahead_holds_when_the_ray_along_the_heading_hits_a_wall() {
    says(
        "`WallAhead(distance)` is true when the ray cast from `p` to `p + forward * distance` hits a wall (see \"Walls\"; the heading `forward` is kept at rest); false without walls and when `distance <= 0` or is not finite.",
    );
    // Gate(Seek((3,4)), WallAhead(distance)) for an agent at the origin moving `velocity`:
    // open gives (3,4) - velocity, closed gives zero.
    let gate = |world: &World, velocity: Vec2, distance: f32| {
        let mut graph = Graph::default();
        let seek = graph.add(Node::Seek {
            target: point(3.0, 4.0),
        });
        let ahead = graph.add(Node::WallAhead {
            distance: distance.into(),
        });
        let gate = graph.add(Node::Gate {
            input: link(seek),
            condition: link(ahead),
        });
        graph.add(Node::Output { input: link(gate) });
        steer(&graph, world, &[agent(Vec2::ZERO, velocity)], &[], 1)
    };
    // A wall along y = 4 from x = -5 to 5, and a short one across x = 3 below the x axis.
    let world = world_with(vec![
        Wall::polyline(vec![v2(-5.0, 4.0), v2(5.0, 4.0)]),
        Wall::polyline(vec![v2(3.0, -1.0), v2(3.0, -0.5)]),
    ]);
    // Heading (0,1): the ray (0,0) → (0,d) meets y = 4 at t = 4 / d, inclusive at t = 1.
    let up = v2(0.0, 1.0);
    assert_eq!(gate(&world, up, 4.0), v2(3.0, 3.0));
    assert_eq!(gate(&world, up, 3.99), Vec2::ZERO);
    // Heading (0.6, 0.8): y = 0.8 * s reaches 4 at s = 5 along the ray, at x = 3.
    let diagonal = v2(0.6, 0.8);
    assert_eq!(gate(&world, diagonal, 5.01), v2(2.4, 3.2));
    assert_eq!(gate(&world, diagonal, 4.99), Vec2::ZERO);
    // At rest the agent faces +x: the ray along y = 0 passes above the short wall (y <= -0.5)
    // and hits nothing, however long.
    assert_eq!(gate(&world, Vec2::ZERO, 100.0), Vec2::ZERO);
    // Heading (0,1) with a distance of 0: false (the compiler refuses an infinite one; the
    // function answers false); no walls: false.
    assert_eq!(gate(&world, up, 0.0), Vec2::ZERO);
    let facing_up = agent(Vec2::ZERO, up);
    assert!(behaviors::wall_ahead(&facing_up, world.wall_index(), 4.0));
    assert!(!behaviors::wall_ahead(
        &facing_up,
        world.wall_index(),
        f32::INFINITY
    ));
    assert_eq!(gate(&World::default(), up, 100.0), Vec2::ZERO);
}

fn wall_following(side: WallSide, offset: f32, lookahead_time: f32, range: f32) -> Node {
    Node::WallFollowing {
        side,
        offset: offset.into(),
        lookahead_time: lookahead_time.into(),
        range: range.into(),
    }
}

#[test]
fn wall_following_seeks_a_point_off_the_wall_and_ahead_along_it() {
    says("t = s * n.perp()");
    says("a = max(|v| * lookahead_time, radius)");
    says("aim = q + n * offset + t * a");
    says("F = Seek(aim)");
    says("q = the nearest wall point to p within range (see \"Walls\"); none: F = 0");
    // A wall along y = 0 from x = -10 to 10; offset 1, lookahead_time 1, range 3.
    let world = world_with(vec![Wall::polyline(vec![v2(-10.0, 0.0), v2(10.0, 0.0)])]);
    let right = one(wall_following(WallSide::Right, 1.0, 1.0, 3.0));
    let left = one(wall_following(WallSide::Left, 1.0, 1.0, 3.0));
    let five = 5.0_f32.sqrt();
    // p = (0,2), v = (2,0): q = (0,0), n = (0,1), n.perp() = (-1,0); a = max(2, 0.5) = 2.
    // Right: t = (1,0), aim = (2,1), F = (2,-1) / √5 * 5 - (2,0) = (2√5 - 2, -√5).
    let me = agent(v2(0.0, 2.0), v2(2.0, 0.0));
    close(
        steer(&right, &world, &[me], &[], 1),
        v2(2.0 * five - 2.0, -five),
    );
    // Left: t = (-1,0), aim = (-2,1), F = (-2,-1) / √5 * 5 - (2,0) = (-2√5 - 2, -√5).
    close(
        steer(&left, &world, &[me], &[], 1),
        v2(-2.0 * five - 2.0, -five),
    );
    // At rest a = radius = 0.5: Right aims at (0.5,1), F = (0.5,-1) / √1.25 * 5 = (√5, -2√5).
    let resting = agent(v2(0.0, 2.0), Vec2::ZERO);
    close(
        steer(&right, &world, &[resting], &[], 1),
        v2(five, -2.0 * five),
    );
    // On the wall, p - q = 0: n is the segment's normal facing a ray along forward (1,0),
    // perp((20,0)) normalised = (0,1) (the ray runs along the wall: it stays). Right: aim
    // (2,1), F = (2,1) / √5 * 5 - (2,0) = (2√5 - 2, √5).
    let on_wall = agent(Vec2::ZERO, v2(2.0, 0.0));
    close(
        steer(&right, &world, &[on_wall], &[], 1),
        v2(2.0 * five - 2.0, five),
    );
    // The wall 4 away is beyond the range of 3: zero; no walls: zero.
    let far = agent(v2(0.0, 4.0), v2(2.0, 0.0));
    assert_eq!(steer(&right, &world, &[far], &[], 1), Vec2::ZERO);
    assert_eq!(steer(&right, &World::default(), &[me], &[], 1), Vec2::ZERO);
}

/// Steps agent 0 alone under `graph` in `world` at 60 Hz for `ticks` ticks, calling `each`
/// with the position after every step.
fn run_alone(
    graph: &Graph,
    world: &World,
    start: Vehicle,
    ticks: usize,
    mut each: impl FnMut(Vec2),
) {
    let program = compile(graph).expect("compiles");
    let (bindings, _) = Bindings::new(&program, world, &TagTable::default());
    let params = program.default_parameters();
    let grid = SpatialGrid::new(4.0);
    let mut vehicles = vec![start];
    let mut state = AgentState::new(&program, 1, 0);
    let mut scratch = Scratch::default();
    let dt = 1.0 / 60.0;
    for _ in 0..ticks {
        let context = Context::new(world, &vehicles, &grid, &bindings, &params, dt);
        let force = program.steer(&context, 0, &mut state, &mut scratch);
        vehicles[0].step(force, dt);
        each(vehicles[0].position);
    }
}

/// Beside a long straight wall, starting 0.25 off the offset line at 3 units / s, an agent
/// following the wall (offset 1, `lookahead_time` 1) keeps within ±0.3 of its offset for at
/// least 95 % of 10 s at 60 Hz, on either hand, travelling the way its hand sets, and is within
/// ±0.05 over the last 5 s. (From 0.5 off it takes about 0.9 s to come within 0.3.)
#[test]
fn an_agent_beside_a_long_wall_keeps_its_offset() {
    says("the agent's `side` along `t` is `-n`");
    let world = world_with(vec![Wall::polyline(vec![v2(-100.0, 0.0), v2(100.0, 0.0)])]);
    // Above the wall moving +x the wall is on the right; below it, on the left.
    for (side, start_y) in [(WallSide::Right, 1.25), (WallSide::Left, -1.25)] {
        let graph = one(wall_following(side, 1.0, 1.0, 3.0));
        let start = agent(v2(0.0, start_y), v2(3.0, 0.0));
        let (mut within, mut ticks, mut last, mut settled) = (0, 0, Vec2::ZERO, 0.0_f32);
        run_alone(&graph, &world, start, 600, |p| {
            ticks += 1;
            let distance = behaviors::wall_distance(&agent(p, Vec2::ZERO), world.wall_index());
            if (distance - 1.0).abs() <= 0.3 {
                within += 1;
            }
            if ticks > 300 {
                settled = settled.max((distance - 1.0).abs());
            }
            assert!(p.y * start_y > 0.0, "{side:?}: crossed the wall at {p}");
            last = p;
        });
        assert!(
            within * 100 >= ticks * 95,
            "{side:?}: within ±0.3 of the offset for {within} of {ticks} ticks"
        );
        assert!(
            last.x > 30.0,
            "{side:?}: travelled +x along the wall, at {last}"
        );
        assert!(
            settled <= 0.05,
            "{side:?}: {settled} off the offset in the last 5 s"
        );
    }
}

/// Agent 0 cruising into the apex of a V `(0, 10 * half_slope) → (10, 0) → (0, -10 * half_slope)`
/// from `(2, y)` at 4 units / s under `Priority(WallAvoidance, cruise)`, stepped at 60 Hz: the
/// tick at which it leaves the V through its mouth (`x < 0`), asserting that no step crosses a
/// wall.
fn ticks_to_leave_a_corner(half_slope: f32, y: f32) -> Option<usize> {
    let world = world_with(vec![Wall::polyline(vec![
        v2(0.0, 10.0 * half_slope),
        v2(10.0, 0.0),
        v2(0.0, -10.0 * half_slope),
    ])]);
    let mut graph = Graph::default();
    let avoid = graph.add(wall_avoidance(1.0, 1.0, 40.0, 0.5));
    // Wander without radius or jitter seeks a point straight ahead: a constant cruise.
    let cruise = graph.add(Node::Wander {
        distance: 2.0.into(),
        radius: 0.0.into(),
        jitter: 0.0.into(),
        face: false,
    });
    let priority = graph.add(Node::Priority {
        inputs: vec![link(avoid), link(cruise)],
        epsilon: 0.001.into(),
    });
    graph.add(Node::Output {
        input: link(priority),
    });
    let program = compile(&graph).expect("compiles");
    let (bindings, _) = Bindings::new(&program, &world, &TagTable::default());
    let params = program.default_parameters();
    let grid = SpatialGrid::new(4.0);
    let mut vehicles = vec![agent(v2(2.0, y), v2(4.0, 0.0))];
    let mut state = AgentState::new(&program, 1, 0);
    let mut scratch = Scratch::default();
    let dt = 1.0 / 60.0;
    for tick in 0..1_200 {
        let context = Context::new(&world, &vehicles, &grid, &bindings, &params, dt);
        let force = program.steer(&context, 0, &mut state, &mut scratch);
        let before = vehicles[0].position;
        vehicles[0].step(force, dt);
        let after = vehicles[0].position;
        assert!(
            world.wall_index().ray_cast(before, after).is_none(),
            "V of slope {half_slope}, start y {y}, tick {tick}: the step {before} -> {after} crosses a wall"
        );
        if after.x < 0.0 {
            return Some(tick);
        }
    }
    None
}

/// Cruising into acute corners of 44°, 23° and 11°, on the bisector and off it: the agent
/// never crosses a wall and leaves each corner within 10 s instead of staying in it.
#[test]
fn an_agent_driven_into_an_acute_corner_turns_round_and_leaves_it() {
    says(
        "so the braked agent in a symmetric V still turns round instead of\n  resting in an equilibrium facing the apex.",
    );
    says("Give WallAvoidance precedence in a graph: first in a `Priority` or `Budget`.");
    for half_slope in [0.4, 0.2, 0.1] {
        for y in [0.0, 0.2 * half_slope, -0.5 * half_slope] {
            let ticks = ticks_to_leave_a_corner(half_slope, y);
            assert!(
                ticks.is_some_and(|t| t < 600),
                "V of slope {half_slope}, start y {y}: left after {ticks:?} ticks"
            );
        }
    }
}

#[test]
fn obstacle_avoidance_and_containment_ignore_walls_and_wall_avoidance_sees_them() {
    says(
        "ObstacleAvoidance and Containment ignore walls; WallAvoidance is the node that sees them.",
    );
    // A wall across the way 2 units ahead of an agent at the origin heading +x at speed 2,
    // inside the world's bounds.
    let mut world = World::new(Rect::new(v2(-10.0, -10.0), v2(10.0, 10.0)));
    world.set_walls(vec![Wall::polyline(vec![v2(2.0, -3.0), v2(2.0, 3.0)])]);
    let me = agent(v2(0.0, 0.0), v2(2.0, 0.0));
    let avoid = one(Node::ObstacleAvoidance {
        min_length: 3.0.into(),
        lookahead_time: 1.0.into(),
    });
    assert_eq!(steer(&avoid, &world, &[me], &[], 1), Vec2::ZERO);
    let contain = one(Node::Containment {
        bounds: Region::World,
        prediction_time: 1.0.into(),
        margin: 1.0.into(),
    });
    assert_eq!(steer(&contain, &world, &[me], &[], 1), Vec2::ZERO);
    // WallAvoidance's central feeler, 3 + 2 * 1 = 5 long, hits the wall at distance 2: the
    // normal push (-1, 0) * 8 * (5 - 2) / 5 = (-4.8, 0), plus the turn (side - forward) *
    // 8 * 3 / 5 = (-4.8, 4.8) with side (0, 1), both whiskers (along +y and -y, 2.5 long) being
    // free; the wall is beyond radius + margin = 0.5. Together (-9.6, 4.8), truncated to 8.
    let walls = one(wall_avoidance(3.0, 1.0, 90.0, 0.0));
    let expected = v2(-9.6, 4.8).normalize() * 8.0;
    near(steer(&walls, &world, &[me], &[], 1), expected);
}
