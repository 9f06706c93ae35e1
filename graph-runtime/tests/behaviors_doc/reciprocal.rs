//! Reciprocal avoidance (ORCA), as `BEHAVIORS.md` states it.

use super::{PARAMS, agent, close, link, point, says, steer, v2};
use glam::Vec2;
use graph_runtime::behaviors::{self};
use graph_runtime::{Graph, Node, Obstacle, Vehicle, VehicleParams, Wall, World};

// ---------------------------------------------------------------------------------------------
// Reciprocal (ORCA)
// ---------------------------------------------------------------------------------------------

fn orca_settings(time_horizon: f32, obstacle_time_horizon: f32) -> behaviors::ReciprocalSettings {
    behaviors::ReciprocalSettings {
        time_horizon,
        obstacle_time_horizon,
        neighbor_radius: 10.0,
        max_neighbors: 10,
        clearance: 0.0,
        keep_right: 0.0,
    }
}

/// `Reciprocal(Scale(Seek, 0))`: a zero preferred force, so `v_pref = v`.
fn reciprocal_graph(time_horizon: f32, obstacle_time_horizon: f32) -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: point(0.0, 0.0),
    });
    let nothing = graph.add(Node::Scale {
        input: link(seek),
        factor: 0.0.into(),
    });
    let reciprocal = graph.add(Node::Reciprocal {
        input: link(nothing),
        time_horizon: time_horizon.into(),
        obstacle_time_horizon: obstacle_time_horizon.into(),
        neighbor_radius: 10.0.into(),
        max_neighbors: 10.0.into(),
        clearance: 0.0.into(),
        keep_right: 0.0.into(),
    });
    graph.add(Node::Output {
        input: link(reciprocal),
    });
    graph
}

#[test]
fn reciprocal_two_agents_head_on_take_half_each_along_the_leg_of_the_cone() {
    says("v_pref = truncate(v + truncate(F_input, max_force) / mass * (1 s), max_speed)");
    says("F      = truncate((v_new - v) * mass / dt, max_force)");
    says("else:              direction = -(P.x * leg + P.y * R, -P.x * R + P.y * leg) / |P|²");
    says("        u = direction * (V · direction) - V");
    says("point = v + u * 0.5     for a neighbor (each agent takes half of the avoidance)");
    // A at the origin moving (1,0), B at (4,0) moving (-1,0), radii 0.5, τ = 2, dt = 0.1.
    // P = (4,0), V = (2,0), R = 1: |P|² = 16 > 1. w = (2,0) - (4,0) / 2 = (0,0), so w · P = 0
    // is not < 0: a leg. leg = sqrt(15); det(P, w) = 0 is not > 0: the right leg,
    // direction = -(4 sqrt 15, -4) / 16 = (-sqrt 15 / 4, 1/4) = (-0.9682458, 0.25).
    // V · direction = -sqrt 15 / 2; u = direction * (-sqrt 15 / 2) - (2,0)
    //   = (15/8, -sqrt 15 / 8) - (2,0) = (-1/8, -sqrt 15 / 8), |u| = 1/2.
    // point = (1,0) + u / 2 = (15/16, -sqrt 15 / 16) = (0.9375, -0.2420615).
    let sqrt15 = 15f32.sqrt();
    let a = agent(Vec2::ZERO, v2(1.0, 0.0));
    let b = agent(v2(4.0, 0.0), v2(-1.0, 0.0));
    let line = behaviors::agent_orca_line(&a, &b, 2.0, 0.0, 0.1, true);
    close(line.direction, v2(-sqrt15 / 4.0, 0.25));
    close(line.point, v2(0.9375, -sqrt15 / 16.0));
    // In normal form: normal (-1/4, -sqrt 15 / 4) (the left of the direction), offset
    // normal · point = -15/64 + 15/64 = 0: the permitted velocities are x + sqrt 15 y <= 0.
    let normal = line.direction.perp();
    assert!(normal.dot(line.point).abs() < 1e-6);
    // v_pref = v = (1,0) violates it; its nearest permitted velocity is the point itself
    // (u is perpendicular to the line), so F = (point - v) * 1 / 0.1 = (-0.625, -2.420615),
    // |F| = 2.5 <= 8: both agents turn to their right, B symmetrically.
    let lines = behaviors::orca_lines(
        &a,
        0,
        [(1, &b)],
        &World::default(),
        &orca_settings(2.0, 0.0),
        0.1,
    );
    let (chosen, fallback) = behaviors::solve_orca(&lines, 5.0, a.velocity);
    close(chosen, v2(0.9375, -sqrt15 / 16.0));
    assert!(!fallback);
    let expected = v2(-0.625, -sqrt15 * 0.625);
    let graph = reciprocal_graph(2.0, 0.0);
    close(steer(&graph, &World::default(), &[a, b], &[], 1), expected);
    let b_line = behaviors::agent_orca_line(&b, &a, 2.0, 0.0, 0.1, false);
    close(b_line.point, v2(-0.9375, sqrt15 / 16.0));
}

#[test]
fn reciprocal_prefers_the_velocity_its_input_asks_for_over_one_second() {
    says("v_pref = truncate(v + truncate(F_input, max_force) / mass * (1 s), max_speed)");
    // Alone, moving (4.5,0), seeking (100,0) at max_speed 5: Seek's force is desired - v =
    // (5,0) - (4.5,0) = (0.5,0), so v_pref = (4.5,0) + (0.5,0) / 1 * 1 = (5,0). No line
    // forbids it: v_new = (5,0) and F = ((5,0) - (4.5,0)) * 1 / 0.1 = (5,0), within
    // max_force 8. (Over one tick the preference would be (4.55,0) and F only (0.5,0).)
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: point(100.0, 0.0),
    });
    let reciprocal = graph.add(Node::Reciprocal {
        input: link(seek),
        time_horizon: 2.0.into(),
        obstacle_time_horizon: 1.0.into(),
        neighbor_radius: 10.0.into(),
        max_neighbors: 10.0.into(),
        clearance: 0.1.into(),
        keep_right: 10.0.into(),
    });
    graph.add(Node::Output {
        input: link(reciprocal),
    });
    let me = agent(Vec2::ZERO, v2(4.5, 0.0));
    close(
        behaviors::preferred_velocity(&me, v2(0.5, 0.0)),
        v2(5.0, 0.0),
    );
    close(
        steer(&graph, &World::default(), &[me], &[], 1),
        v2(5.0, 0.0),
    );
}

#[test]
fn reciprocal_keeps_right_only_when_the_preferred_velocity_is_forbidden() {
    says(
        "`aim = rotate(v_pref, -keep_right°)` instead (clockwise, the agent's right with y up); when",
    );
    says("v_new  = the ORCA velocity nearest aim (below)");
    // The head-on pair of the test above: A's line passes through (0.9375, -sqrt 15 / 16)
    // along (-sqrt 15 / 4, 1/4) and forbids v_pref = (1,0). With keep_right 10°, the aim is
    // (cos 10°, -sin 10°) = (0.9848078, -0.1736482). Its nearest point on the line:
    // t = direction · (aim - point) = -0.9682458 * 0.0473078 + 0.25 * 0.0684134 = -0.0287022,
    // point + direction * t = (0.9652908, -0.2492370): further right than plain ORCA's
    // (0.9375, -0.2420615), and F = (v_new - v) / 0.1 = (-0.3470920, -2.4923701).
    let a = agent(Vec2::ZERO, v2(1.0, 0.0));
    let b = agent(v2(4.0, 0.0), v2(-1.0, 0.0));
    let settings = behaviors::ReciprocalSettings {
        keep_right: 10f32.to_radians(),
        ..orca_settings(2.0, 0.0)
    };
    let lines = behaviors::orca_lines(&a, 0, [(1, &b)], &World::default(), &settings, 0.1);
    let aim = behaviors::orca_aim(&lines, 5.0, a.velocity, settings.keep_right);
    close(aim, v2(0.984_807_8, -0.173_648_2));
    let (chosen, fallback) = behaviors::solve_orca(&lines, 5.0, aim);
    close(chosen, v2(0.965_290_8, -0.249_237));
    assert!(!fallback);
    let solution = behaviors::reciprocal_velocity(
        &a,
        0,
        [(1, &b)],
        &World::default(),
        Vec2::ZERO,
        &settings,
        0.1,
    );
    close(solution.preferred, v2(1.0, 0.0));
    close(solution.chosen, chosen);
    // Nothing in the way: the aim is v_pref itself, unturned.
    let free = behaviors::OrcaLines::default();
    close(
        behaviors::orca_aim(&free, 5.0, v2(1.0, 0.0), 10f32.to_radians()),
        v2(1.0, 0.0),
    );
}

#[test]
fn reciprocal_a_circle_obstacle_is_a_still_agent_taking_no_share() {
    says("point = v + u           for an obstacle (it never moves, the agent takes all of it)");
    says(
        "    if w · P < 0 and (w · P)² > R² * |w|²:     // nearest exit through the cut-off circle",
    );
    says("        direction = (n.y, -n.x);  u = n * (R * (1 / τ) - |w|)");
    // Cut-off circle: the agent at the origin moving (2.5,0), obstacle (3,0) radius 0.5,
    // τ_o = 1. P = (3,0), V = (2.5,0), R = 1; w = (2.5,0) - (3,0) = (-0.5,0); w · P = -1.5 < 0
    // and 2.25 > 1 * 0.25. n = (-1,0), direction = (0,1), u = (-1,0) * (1 - 0.5) = (-0.5,0);
    // point = v + u = (2,0): the permitted velocities are x <= 2 (touching the circle after
    // exactly 1 s). The chosen velocity is (2,0) and F = (-0.5,0) / 0.1 = (-5,0).
    let me = agent(Vec2::ZERO, v2(2.5, 0.0));
    let rock = Obstacle {
        center: v2(3.0, 0.0),
        radius: 0.5,
    };
    let line = behaviors::obstacle_orca_line(&me, &rock, 1.0, 0.0, 0.1);
    close(line.direction, v2(0.0, 1.0));
    close(line.point, v2(2.0, 0.0));
    let mut world = World::default();
    world.obstacles.push(rock);
    close(
        steer(&reciprocal_graph(2.0, 1.0), &world, &[me], &[], 1),
        v2(-5.0, 0.0),
    );
    // A leg: moving (1,0) with τ_o = 4. w = (1,0) - (3,0) / 4 = (0.25,0), w · P = 0.75 >= 0.
    // leg = sqrt 8, det(P, w) = 0: direction = -(3 sqrt 8, -3) / 9 = (-sqrt 8 / 3, 1/3);
    // V · direction = -sqrt 8 / 3; u = (8/9, -sqrt 8 / 9) - (1,0) = (-1/9, -sqrt 8 / 9);
    // point = v + u = (8/9, -sqrt 8 / 9) = (0.8888889, -0.3142697): the whole u, not half.
    let slow = agent(Vec2::ZERO, v2(1.0, 0.0));
    let line = behaviors::obstacle_orca_line(&slow, &rock, 4.0, 0.0, 0.1);
    let sqrt8 = 8f32.sqrt();
    close(line.direction, v2(-sqrt8 / 3.0, 1.0 / 3.0));
    close(line.point, v2(8.0 / 9.0, -sqrt8 / 9.0));
}

#[test]
fn reciprocal_falls_back_to_the_least_violation_when_pressed_from_two_sides() {
    says(
        "else:                                            // overlapping: separate within one tick",
    );
    says("Each `lines'` entry is the bisector of lines `k` and `j`");
    // Agent 0 at the origin at rest, max_speed 0.5; agents 1 at (-0.9,0) and 2 at (0,-0.9) at
    // rest, all radius 0.5, dt 0.1: both overlap (0.81 < 1).
    // Agent 1: P = (-0.9,0), V = 0, w = -P * 10 = (9,0), n = (1,0), direction (0,-1),
    //   u = (1,0) * (1 * 10 - 9) = (1,0), point (0.5,0): x >= 0.5.
    // Agent 2: w = (0,9), n = (0,1), direction (1,0), u = (0,1), point (0,0.5): y >= 0.5.
    // Both at distance² 0.81: agent 1 first (lower index). (0.5,0.5) is 0.71 from the origin,
    // beyond max_speed: no permitted velocity. Line 0 moves x to (0.5,0) (disc = 0); on line 1
    // t_left = 0.5 > t_right = 0: the fallback from line 1. Its bisector with line 0 passes
    // through (0.5,0.5) along normalize((0,-1) - (1,0)) = (-1,-1) / sqrt 2; the velocity
    // farthest along (0,1) on it within the disc: a = -1/sqrt 2, disc = 0.5 + 0.25 - 0.5,
    // t_left = 1/sqrt 2 - 1/2, x = (0.5,0.5) - (1/sqrt 2 - 1/2) (1,1) / sqrt 2
    //   = (sqrt 2 / 4, sqrt 2 / 4) = (0.3535534, 0.3535534), violating both lines by 0.1464466.
    let params = VehicleParams {
        max_speed: 0.5,
        ..PARAMS
    };
    let me = Vehicle::new(Vec2::ZERO, Vec2::ZERO, params);
    let left = agent(v2(-0.9, 0.0), Vec2::ZERO);
    let below = agent(v2(0.0, -0.9), Vec2::ZERO);
    let lines = behaviors::orca_lines(
        &me,
        0,
        [(1, &left), (2, &below)],
        &World::default(),
        &orca_settings(2.0, 0.0),
        0.1,
    );
    let [first, second] = lines.as_slice() else {
        panic!("two lines, got {lines:?}");
    };
    close(first.direction, v2(0.0, -1.0));
    close(first.point, v2(0.5, 0.0));
    close(second.direction, v2(1.0, 0.0));
    close(second.point, v2(0.0, 0.5));
    let (chosen, fallback) = behaviors::solve_orca(&lines, 0.5, Vec2::ZERO);
    assert!(fallback);
    let corner = 2f32.sqrt() / 4.0;
    close(chosen, v2(corner, corner));
    assert!((first.violation(chosen) - (0.5 - corner)).abs() < 1e-5);
    // F = (x - 0) * 1 / 0.1 = (3.535534, 3.535534), |F| = 5 <= 8.
    close(
        steer(
            &reciprocal_graph(2.0, 0.0),
            &World::default(),
            &[me, left, below],
            &[],
            1,
        ),
        v2(corner, corner) * 10.0,
    );
}

#[test]
fn reciprocal_coincident_agents_separate_by_index_and_only_the_nearest_count() {
    says("the lower index takes `n = (-1, 0)` and the other `n = (1, 0)`");
    says("`max_neighbors` smallest by `(|q.p - p|², agent index)` are kept, nearest first");
    // Both at the origin at rest, dt 0.1: w = 0, the tie. Agent 0: n = (-1,0), direction
    // (0,1), u = (-1,0) * (1 * 10 - 0) = (-10,0), point (-5,0): x <= -5, reached exactly on
    // the disc of radius 5 (disc = 25 - 25 = 0). F = (-5,0) / 0.1 = (-50,0), truncated to 8.
    // Agent 1 mirrors it: x >= 5.
    let a = agent(Vec2::ZERO, Vec2::ZERO);
    let b = agent(Vec2::ZERO, Vec2::ZERO);
    let low = behaviors::agent_orca_line(&a, &b, 2.0, 0.0, 0.1, true);
    close(low.point, v2(-5.0, 0.0));
    close(low.direction, v2(0.0, 1.0));
    let high = behaviors::agent_orca_line(&b, &a, 2.0, 0.0, 0.1, false);
    close(high.point, v2(5.0, 0.0));
    close(
        steer(
            &reciprocal_graph(2.0, 0.0),
            &World::default(),
            &[a, b],
            &[],
            1,
        ),
        v2(-8.0, 0.0),
    );
    // max_neighbors 2 of three candidates: agents 3 and 1 tie at distance² 4, agent 2 is at
    // 9: agents 1 and 3 are kept, in that order.
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let one_ = agent(v2(0.0, 2.0), Vec2::ZERO);
    let two = agent(v2(3.0, 0.0), Vec2::ZERO);
    let three = agent(v2(0.0, -2.0), Vec2::ZERO);
    let settings = behaviors::ReciprocalSettings {
        max_neighbors: 2,
        ..orca_settings(2.0, 0.0)
    };
    let lines = behaviors::orca_lines(
        &me,
        0,
        [(1, &one_), (2, &two), (3, &three)],
        &World::default(),
        &settings,
        0.1,
    );
    assert_eq!(
        lines.as_slice(),
        [
            behaviors::agent_orca_line(&me, &one_, 2.0, 0.0, 0.1, true),
            behaviors::agent_orca_line(&me, &three, 2.0, 0.0, 0.1, true),
        ]
    );
}

#[test]
fn reciprocal_a_wall_face_bounds_the_velocity_at_its_line_moved_in_by_r_over_tau() {
    says("left_of(a, b, p) = det(a - p, b - a) < 0");
    says(
        "    onto the cut-off line (0 <= t <= 1, first ≠ second), |v - (c_l + (c_r - c_l) * t)|²:",
    );
    says("        direction = -d, point = c_l + (-direction.y, direction.x) * R / τ");
    says("    0 <= s <= 1 and line² <= R²:  direction = -d");
    // A wall from (3,-5) to (3,5); the agent at the origin moving (3,0), R = 0.5, τ_o = 1,
    // dt 0.1. left_of((3,-5), (3,5), 0) = det((3,-5), (0,10)) = 30 > 0: the agent is on the
    // left, so the edge runs a = (3,5) to b = (3,-5); d = (0,-1); open ends, both convex.
    // P_a = (3,5), P_b = (3,-5); s = -(3,5) · (0,-10) / 100 = 0.5, line² = |(-3,0)|² = 9 > R².
    // Legs: |P_a|² = 34, L = sqrt(33.75) = 5.809475; left = (3L - 2.5, 1.5 + 5L) / 34 =
    // (0.4390728, 0.8984522), right(P_b) = (0.4390728, -0.8984522); neither foreign.
    // c_l = (3,5), c_r = (3,-5); t = (0,-5) · (0,-10) / 100 = 0.5; t_l = (0,-5) · left < 0,
    // t_r = (0,5) · right < 0: the cut-off line, |v - (3,0)|² = 0.
    // direction = (0,1), point = (3,5) + (-1,0) * 0.5 = (2.5,5): v.x <= 2.5.
    // The chosen velocity is (2.5,0): F = (-0.5,0) / 0.1.
    let mut world = World::default();
    world.set_walls(vec![Wall::polyline(vec![v2(3.0, -5.0), v2(3.0, 5.0)])]);
    let wall = (v2(3.0, -5.0), v2(3.0, 5.0));
    let me = agent(Vec2::ZERO, v2(3.0, 0.0));
    let edge = facing(&me, wall);
    assert_eq!((edge.a, edge.b), (v2(3.0, 5.0), v2(3.0, -5.0)));
    assert!(edge.a_convex && edge.b_convex);
    let line = behaviors::wall_orca_line(&me, &edge, &[], 1.0, 0.0).expect("a half-plane");
    close(line.point, v2(2.5, 5.0));
    close(line.direction, v2(0.0, 1.0));
    let lines = behaviors::orca_lines(&me, 0, [], &world, &orca_settings(2.0, 1.0), 0.1);
    assert_eq!(lines.as_slice(), [line]);
    assert_eq!(lines.obstacle_count(), 1);
    close(
        steer(&reciprocal_graph(2.0, 1.0), &world, &[me], &[], 1),
        v2(-5.0, 0.0),
    );
    // Overlapping it (at (2.8,0), at rest): s = 0.5, line² = 0.04 <= 0.25: a line through 0
    // along -d = (0,1): only moving further in (+x) is forbidden, v.x <= 0.
    let inside = agent(v2(2.8, 0.0), Vec2::ZERO);
    let edge = facing(&inside, wall);
    let line = behaviors::wall_orca_line(&inside, &edge, &[], 1.0, 0.0).expect("a half-plane");
    assert_eq!((line.point, line.direction), (Vec2::ZERO, v2(0.0, 1.0)));
    // With a clearance of 0.2, R = 0.7: the same projection, point (3,5) + (-1,0) * 0.7.
    let spaced = behaviors::wall_orca_line(&me, &facing(&me, wall), &[], 1.0, 0.2);
    close(spaced.expect("a half-plane").point, v2(2.3, 5.0));
    // On the wall's line, heading at its end: no side, so the edge runs a = (3,-5) to b = (3,5)
    // (says the rule below). At (3,7) moving (0,-2): P_a = (0,-12), P_b = (0,-2); s = 1.2,
    // line² = 0 <= R²: seen obliquely past b, convex (an open end): L = sqrt(3.75) = 1.9364917,
    // left = (1, -2L) / 4 = (0.25, -0.9682458), right = (-0.25, -0.9682458); neither foreign.
    // c_l = c_r = (0,-2), t = 0.5, t_l = t_r = 0 (v = c): the left leg, direction (0.25,
    // -0.9682458), point (0,-2) + (0.9682458, 0.25) * 0.5 = (0.4841229, -1.875);
    // det(direction, point - v) = 0.25 * 0.125 + 0.9682458 * 0.4841229 = 0.5 > 0: v forbidden.
    says("right of `a → b` when it moves along the line");
    let head_on = agent(v2(3.0, 7.0), v2(0.0, -2.0));
    let edge = facing(&head_on, wall);
    assert_eq!((edge.a, edge.b), wall);
    let line = behaviors::wall_orca_line(&head_on, &edge, &[], 1.0, 0.0).expect("a half-plane");
    close(line.direction, v2(0.25, -0.968_245_8));
    close(line.point, v2(0.484_122_9, -1.875));
    assert!((line.violation(head_on.velocity) - 0.5).abs() < 1e-5);
    // Beyond reach (5 * 1 + 0.5 = 5.5 from the wall): no line.
    let far = agent(v2(-3.0, 0.0), Vec2::ZERO);
    let none = behaviors::orca_lines(&far, 0, [], &world, &orca_settings(2.0, 1.0), 0.1);
    assert!(none.as_slice().is_empty());
}

/// Segment `wall` of an open wall as the edge `me` sees.
fn facing(me: &Vehicle, wall: (Vec2, Vec2)) -> behaviors::WallEdge {
    let either = behaviors::FacingSide::Either;
    behaviors::WallEdge::facing((me.position, me.forward), wall, (None, None), either)
        .expect("a side")
}

#[test]
fn reciprocal_an_agent_whose_path_clears_a_wall_end_keeps_its_velocity() {
    says("    left(P)  = (P.x * L - P.y * R,  P.x * R + P.y * L) / |P|²");
    says(
        "        nothing if it is foreign, else direction = left, point = c_l + (-left.y, left.x) * R / τ",
    );
    // A wall from a = (0,0) down to b = (0,-10); the agent at (-2,2) moving (1,0) passes 2
    // above its end. R = 0.5, τ_o = 10. left_of(a, b, p) = det((2,-2), (0,-10)) = -20 < 0:
    // the edge as given. P_a = (2,-2), P_b = (2,-12); s = -(2,-2) · (0,-10) / 100 = -0.2,
    // line² = |(-2,2) - (0,2)|² = 4 > R²: not oblique; both ends open, so convex.
    // left(P_a): L = sqrt(7.75) = 2.783882, (2L + 1, 1 - 2L) / 8 = (0.8209705, -0.5709705);
    // right(P_b): L = sqrt(147.75) = 12.155245, (2L - 6, -1 - 12L) / 148 = (0.1237195,
    // -0.9923171). Foreign? det(left, -before) = det(left, (0,-1)) = -0.82 < 0: no;
    // det(right, after) = det(right, (0,1)) = 0.124 > 0: no.
    // c_l = (0.2,-0.2), c_r = (0.2,-1.2); t = (0.8,0.2) · (0,-1) = -0.2; t_l = (0.8,0.2) ·
    // left = 0.5425822 >= 0; t_r = (0.8,1.2) · right = -1.0918 < 0. Not round c_l (t_l >= 0),
    // not round c_r (t < 1), the cut-off line out (t < 0), the right leg out (t_r < 0): the left
    // leg, direction (0.8209705, -0.5709705), point c_l + (0.5709705, 0.8209705) * 0.05 =
    // (0.2285485, -0.1589515). det(direction, point - v) = -0.5709705 <= 0: v is permitted, so
    // the agent keeps (1,0) and the force is zero. (A half-plane across the nearest point,
    // n = normalize(p - a), would have asked v · n >= (0.5 - 2.83) / 10 and slowed it.)
    let mut world = World::default();
    let wall = (v2(0.0, 0.0), v2(0.0, -10.0));
    world.set_walls(vec![Wall::polyline(vec![wall.0, wall.1])]);
    let me = agent(v2(-2.0, 2.0), v2(1.0, 0.0));
    let line =
        behaviors::wall_orca_line(&me, &facing(&me, wall), &[], 10.0, 0.0).expect("a half-plane");
    close(line.direction, v2(0.820_970_5, -0.570_970_5));
    close(line.point, v2(0.228_548_5, -0.158_951_5));
    assert!(line.violation(me.velocity) <= 0.0);
    close(
        steer(&reciprocal_graph(2.0, 10.0), &world, &[me], &[], 1),
        Vec2::ZERO,
    );
}
