//! The steering behaviors and neighborhoods, as `BEHAVIORS.md` states them.

use super::{PARAMS, agent, close, one, says, steer, steer_ticks, v2};
use glam::Vec2;
use graph_runtime::behaviors::{self, FieldOfView, Quarry};
use graph_runtime::{
    AgentRng, FlowField, Node, Obstacle, Path, PathDirection, Rect, Region, Vehicle, VehicleParams,
    World,
};

// ---------------------------------------------------------------------------------------------
// Behaviors
// ---------------------------------------------------------------------------------------------

#[test]
fn seek_flee_and_arrival() {
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    says("Seek: `F = normalize(target - p) * max_speed - v`.");
    // (3,4) / 5 * 5 - (1,0) = (2,4)
    assert_eq!(behaviors::seek(&me, v2(3.0, 4.0)), v2(2.0, 4.0));
    says(
        "Flee: `F = normalize(p - target) * max_speed - v`. With a panic distance, the force is zero when `|p - target| > panic_distance` (strictly farther).",
    );
    // (-3,-4) - (1,0) = (-4,-4); at exactly the panic distance 5 it still flees
    assert_eq!(behaviors::flee(&me, v2(3.0, 4.0), None), v2(-4.0, -4.0));
    assert_eq!(
        behaviors::flee(&me, v2(3.0, 4.0), Some(5.0)),
        v2(-4.0, -4.0)
    );
    assert_eq!(behaviors::flee(&me, v2(3.0, 4.0), Some(4.9)), Vec2::ZERO);
    says(
        "Arrival: `o = target - p`, `d = |o|`; if `d < 1e-6` then `F = -v`, else `speed = min(max_speed * d / slowing_distance, max_speed)` and `F = o * (speed / d) - v`.",
    );
    // d = 5, slowing 10: speed 2.5, F = (3,4) / 2 - (1,0) = (0.5,2)
    assert_eq!(behaviors::arrival(&me, v2(3.0, 4.0), 10.0), v2(0.5, 2.0));
    assert_eq!(behaviors::arrival(&me, Vec2::ZERO, 10.0), v2(-1.0, 0.0));
    says("With `slowing_distance = 0` the division gives `+inf` and Arrival is Seek.");
    assert_eq!(behaviors::arrival(&me, v2(3.0, 4.0), 0.0), v2(2.0, 4.0));
}

#[test]
fn pursuit_evasion_and_offset_pursuit() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let quarry = Quarry {
        position: v2(10.0, 0.0),
        velocity: v2(0.0, 2.0),
        forward: Vec2::Y,
    };
    says(
        "Prediction time: `T = min(|q.p - p| / max_speed, max_prediction)`, and `T = max_prediction` when `max_speed <= 0`.",
    );
    says("Predicted position: `P = q.p + q.v * T`.");
    // T = min(10 / 5, 3) = 2, P = (10,4)
    assert_eq!(behaviors::prediction_time(&me, quarry.position, 3.0), 2.0);
    assert_eq!(
        behaviors::predicted_position(&me, &quarry, 3.0),
        v2(10.0, 4.0)
    );
    says(
        "Pursuit: `F = Seek(P)`. Evasion: `F = Flee(P)`, the optional panic distance measured to `P`.",
    );
    let away = v2(10.0, 4.0) / 116f32.sqrt() * 5.0;
    close(behaviors::pursuit(&me, &quarry, 3.0), away);
    close(behaviors::evasion(&me, &quarry, 3.0, None), -away);
    // |P - p| = sqrt 116 = 10.77 > 10.5: no panic yet
    assert_eq!(
        behaviors::evasion(&me, &quarry, 3.0, Some(10.5)),
        Vec2::ZERO
    );
    says(
        "OffsetPursuit: `l = local(P - p)`; `s = -1` if `l.y < 0`, else `+1`; `aim = P - side * s * offset`; `F = Seek(aim)`.",
    );
    // l = (10,4), s = +1, side = +y: aim = (10,4) - (0,2) = (10,2)
    assert_eq!(
        behaviors::offset_pursuit_aim(&me, &quarry, 2.0, 3.0),
        v2(10.0, 2.0)
    );
    close(
        behaviors::offset_pursuit(&me, &quarry, 2.0, 3.0),
        v2(10.0, 2.0) / 104f32.sqrt() * 5.0,
    );
}

#[test]
fn obstacle_avoidance_pushes_away_from_the_smallest_threat_distance() {
    says("Detection corridor length: `L = min_length + |v| * lookahead_time`.");
    says("skip it if `l.x + r < 0`, or `l.x - r > L`, or `|l.y| >= R`.");
    says("Threat distance: `x = l.x - sqrt(R² - l.y²)`, replaced by `l.x` when negative.");
    says("`F = -sign(l.y) * side * max_force`");
    // p = 0, v = (2,0): L = 3 + 2 * 1 = 5.
    // A (4,1) r 1: R = 1.5, x = 4 - sqrt(2.25 - 1) = 2.88. B (3,-0.5) r 0.5: R = 1,
    // x = 3 - sqrt(0.75) = 2.13, the smallest. C (6.2,0) r 1: 6.2 - 1 > 5, skipped.
    // B's l.y = -0.5: F = -(-1) * (0,1) * 8 = (0,8).
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let obstacle = |x, y, radius| Obstacle {
        center: v2(x, y),
        radius,
    };
    let obstacles = [
        obstacle(4.0, 1.0, 1.0),
        obstacle(3.0, -0.5, 0.5),
        obstacle(6.2, 0.0, 1.0),
    ];
    assert_eq!(behaviors::detection_length(&me, 3.0, 1.0), 5.0);
    assert_eq!(
        behaviors::most_threatening_obstacle(&me, &obstacles, 3.0, 1.0).map(|(i, _)| i),
        Some(1)
    );
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &obstacles, 3.0, 1.0),
        v2(0.0, 8.0)
    );
    // only C: nothing in the corridor
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &obstacles[2..], 3.0, 1.0),
        Vec2::ZERO
    );
}

#[test]
fn wander_turns_its_angle_by_one_draw_per_evaluation() {
    says(
        "θ = θ + signed_unit() * jitter.to_radians() * dt\naim = (p + forward * distance) + radius * rotate(forward, θ)\nF = Seek(aim)",
    );
    // Agent at (1,1) moving up at 2 (forward +y), distance 2, radius 1, jitter 90 deg/s,
    // dt 0.1: three ticks, each one draw from AgentRng(seed 42, agent 0).
    let me = agent(v2(1.0, 1.0), v2(0.0, 2.0));
    let graph = one(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 90.0.into(),
        face: false,
    });
    let forces = steer_ticks(&graph, &World::default(), &[me], &[], 42, 3);
    let mut rng = AgentRng::new(42, 0);
    let mut theta = 0.0f32;
    for force in forces {
        theta += rng.signed_unit() * 90f32.to_radians() * 0.1;
        // (1,1) + (0,1) * 2 + (-sin θ, cos θ)
        let aim = v2(1.0 - theta.sin(), 3.0 + theta.cos());
        close(force, (aim - v2(1.0, 1.0)).normalize() * 5.0 - v2(0.0, 2.0));
    }
    assert!(theta != 0.0);
}

fn road(points: Vec<Vec2>, closed: bool) -> Path {
    Path {
        points,
        radius: 1.0,
        closed,
    }
}

#[test]
fn backward_travel_on_an_open_path_arrives_at_the_first_point() {
    says(
        "Going backward on an open path, the end of travel is the first point: the agent arrives at the first point and stops there.",
    );
    says(
        "On an open path, when `wanted >= length` going forward or `wanted <= 0` going backward, the aim is the end of travel and the agent arrives there: `F = Arrival(end, ahead_distance)`.",
    );
    // Open (0,0) -> (10,0); p = (3,1) at rest, prediction 0: n = (3,0), s = 3.
    // Backward, ahead 5: wanted = -2 <= 0 -> Arrival((0,0), 5): o = (-3,-1), d = sqrt 10 < 5,
    // speed = 5 d / 5 = d, F = o = (-3,-1).
    let path = road(vec![Vec2::ZERO, v2(10.0, 0.0)], false);
    let me = agent(v2(3.0, 1.0), Vec2::ZERO);
    close(
        behaviors::path_following(&me, &path, 0.0, 5.0, -1.0, false),
        v2(-3.0, -1.0),
    );
    // Forward, ahead 5: wanted = 8 -> Seek((8,0)) = (5,-1) / sqrt 26 * 5
    close(
        behaviors::path_following(&me, &path, 0.0, 5.0, 1.0, false),
        v2(5.0, -1.0) / 26f32.sqrt() * 5.0,
    );
    // Standing on the first point going backward: Arrival with d = 0 is -v = 0: it stays.
    let arrived = agent(Vec2::ZERO, Vec2::ZERO);
    assert_eq!(
        behaviors::path_following(&arrived, &path, 0.0, 5.0, -1.0, false),
        Vec2::ZERO
    );
    // Through a graph, the Backward direction is -1.
    let mut world = World::default();
    world.set_path("road", path);
    let graph = one(Node::PathFollowing {
        path: "road".into(),
        prediction_time: 0.0.into(),
        ahead_distance: 5.0.into(),
        direction: PathDirection::Backward,
        corrective: false,
        own: false,
    });
    close(steer(&graph, &world, &[me], &[], 1), v2(-3.0, -1.0));
}

#[test]
fn a_closed_path_of_two_points_goes_back_along_its_closing_segment() {
    says(
        "a closed path of two or more points ends with the segment from its last point back to its first.",
    );
    // (0,0) <-> (10,0) closed: p = (9,1), n = (9,0) at s = 9, ahead 3: s = 12, 2 units back
    // from (10,0): (8,0). F = Seek((8,0)) = (-1,-1) / sqrt 2 * 5.
    let path = road(vec![Vec2::ZERO, v2(10.0, 0.0)], true);
    assert_eq!(path.length(), 20.0);
    let me = agent(v2(9.0, 1.0), Vec2::ZERO);
    close(
        behaviors::path_following(&me, &path, 0.0, 3.0, 1.0, false),
        v2(-1.0, -1.0) * (5.0 / 2f32.sqrt()),
    );
    says(
        "on a closed path `s` wraps (`s.rem_euclid(length)`); on an open path it is clamped to `[0, length]`.",
    );
    assert_eq!(path.point_at(-3.0), Some(v2(3.0, 0.0)));
    assert_eq!(path.point_at(23.0), Some(v2(3.0, 0.0)));
    assert_eq!(
        road(vec![Vec2::ZERO, v2(10.0, 0.0)], false).point_at(23.0),
        Some(v2(10.0, 0.0))
    );
    says("the first one wins ties");
    // (4,-1) is 1 from both (4,0) at s = 4 and (4,0) at s = 16 on the way back
    assert_eq!(
        path.project(v2(4.0, -1.0)).map(|p| p.distance_along),
        Some(4.0)
    );
}

#[test]
fn an_unusable_path_behaves_like_a_path_without_points() {
    says(
        "An unusable path (a NaN or infinite point, segments longer than about `1.8e19` units) behaves like a path without points: PathFollowing on it returns zero.",
    );
    let me = agent(v2(3.0, 1.0), v2(1.0, 0.0));
    for path in [
        road(vec![Vec2::ZERO, v2(f32::NAN, 0.0)], false),
        road(vec![Vec2::ZERO, v2(f32::INFINITY, 0.0)], true),
        road(vec![v2(0.0, -1e20), v2(0.0, 1e20)], false),
    ] {
        assert!(!path.is_usable());
        assert_eq!(
            behaviors::path_following(&me, &path, 1.0, 2.0, 1.0, false),
            Vec2::ZERO
        );
    }
}

#[test]
fn containment_margins_larger_than_half_the_rectangle_collapse_to_its_centre_line() {
    says(
        "a margin larger than half the rectangle's width (or height) collapses that axis to the rectangle's centre line.",
    );
    // Bounds (0,0)..(10,4), margin 3: x shrinks to 3..7; y (half height 2 < 3) collapses
    // to the centre line y = 2.
    let bounds = Rect::new(Vec2::ZERO, v2(10.0, 4.0));
    assert_eq!(bounds.shrink(3.0), Rect::new(v2(3.0, 2.0), v2(7.0, 2.0)));
    says(
        "F = 0 when P is inside bounds (borders included)\nelse F = Seek(clamp(P, bounds shrunk by margin))",
    );
    // p = (9,3), v = (2,0), prediction 1: P = (11,3) is outside; aim = clamp -> (7,2);
    // F = (-2,-1) / sqrt 5 * 5 - (2,0)
    let me = agent(v2(9.0, 3.0), v2(2.0, 0.0));
    close(
        behaviors::containment(&me, &bounds, 1.0, 3.0),
        v2(-2.0, -1.0) / 5f32.sqrt() * 5.0 - v2(2.0, 0.0),
    );
    // P = (10,3) on the border: inside, zero
    let on_border = agent(v2(9.0, 3.0), v2(1.0, 0.0));
    assert_eq!(
        behaviors::containment(&on_border, &bounds, 1.0, 3.0),
        Vec2::ZERO
    );
    // The same through a graph with the node's own rectangle
    let graph = one(Node::Containment {
        bounds: Region::Rect(0.0.into(), 0.0.into(), 10.0.into(), 4.0.into()),
        prediction_time: 1.0.into(),
        margin: 3.0.into(),
    });
    close(
        steer(&graph, &World::default(), &[me], &[], 1),
        v2(-2.0, -1.0) / 5f32.sqrt() * 5.0 - v2(2.0, 0.0),
    );
}

/// A 2 x 2 field of unit cells from the origin: (0,0) -> +x, (1,0) -> +y, (0,1) -> zero,
/// (1,1) -> -x.
fn field() -> FlowField {
    let mut field = FlowField::new(Vec2::ZERO, 1.0, 2, 2);
    field.vectors = vec![Vec2::X, Vec2::Y, Vec2::ZERO, Vec2::NEG_X];
    field
}

#[test]
fn flow_field_samples_bilinearly_and_clamps_within_half_a_cell_of_the_edge() {
    says(
        "The result is `lerp(lerp(w(c0,r0), w(c1,r0), fx), lerp(w(c0,r1), w(c1,r1), fx), fy)` with `lerp(a, b, t) = a * (1 - t) + b * t`.",
    );
    // Centre (1,1): u = (0.5,0.5), c0 = r0 = 0, fx = fy = 0.5:
    // lerp(lerp(+x, +y, .5), lerp(0, -x, .5), .5) = lerp((.5,.5), (-.5,0), .5) = (0,.25)
    let field = field();
    assert_eq!(field.sample(v2(1.0, 1.0)), v2(0.0, 0.25));
    says(
        "Within half a cell of the grid's edge the sample takes the edge cells' values (the cell index is clamped); beyond the grid's edge it is zero.",
    );
    // (0.2,0.3): u = (-0.3,-0.2), every index clamps to cell (0,0): +x
    close(field.sample(v2(0.2, 0.3)), Vec2::X);
    // (2,0.5): on the outer edge (inside); u = (1.5,0), columns clamp to 1, fy = 0: +y
    assert_eq!(field.sample(v2(2.0, 0.5)), Vec2::Y);
    assert_eq!(field.sample(v2(2.01, 0.5)), Vec2::ZERO);
    assert_eq!(field.sample(v2(0.5, -0.01)), Vec2::ZERO);
    says("F = 0 if |w| < 1e-6, else w * max_speed - v");
    let me = agent(v2(0.2, 0.3), Vec2::ZERO);
    close(
        behaviors::flow_field_following(&me, &field, 1.0),
        v2(5.0, 0.0),
    );
    // At (0.5,1.5) the cell is zero: no force even though the agent moves
    let idle = agent(v2(0.5, 1.5), Vec2::ZERO);
    assert_eq!(
        behaviors::flow_field_following(&idle, &field, 0.0),
        Vec2::ZERO
    );
}

#[test]
fn unaligned_collision_avoidance_steers_from_the_soonest_collision() {
    says("t = -(dp · dv) / |dv|²");
    says(
        "The soonest collision (smallest `t`, the lower index on a tie) gives `away = (p + v * t) - (q.p + q.v * t)`, or `-dp` when that is shorter than `1e-6`, and `F = normalize(away) * max_force`.",
    );
    // p = 0, v = (1,0); q at (4,-3) moving (0,1); max_time 5: dp = (4,-3), dv = (-1,1),
    // t = 7 / 2 = 3.5; dp + dv t = (0.5,0.5), |.| = 0.71 < 1: collision.
    // away = (3.5,0) - (4,0.5) = (-0.5,-0.5): F = (-1,-1) / sqrt 2 * 8
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let other = agent(v2(4.0, -3.0), v2(0.0, 1.0));
    close(
        behaviors::unaligned_collision_avoidance(&me, [&other], 5.0),
        v2(-1.0, -1.0) * (8.0 / 2f32.sqrt()),
    );
    // max_time 3 < 3.5: no collision within the horizon
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, [&other], 3.0),
        Vec2::ZERO
    );
}

#[test]
fn separation_cohesion_alignment_and_flocking() {
    // p = 0, v = (1,0); neighbors a at (2,0) moving (0,1), b at (0,-1) moving (1,1).
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let a = agent(v2(2.0, 0.0), v2(0.0, 1.0));
    let b = agent(v2(0.0, -1.0), v2(1.0, 1.0));
    let neighbors = [a, b];
    says("Separation: `F = Σ (p - q.p) / |p - q.p|²`, skipping neighbors closer than `1e-6`.");
    // (-2,0) / 4 + (0,1) / 1 = (-0.5,1)
    assert_eq!(behaviors::separation(&me, &neighbors), v2(-0.5, 1.0));
    says("Cohesion: `F = (Σ q.p) / n - p`; no neighbors: zero.");
    assert_eq!(behaviors::cohesion(&me, &neighbors), v2(1.0, -0.5));
    says("Alignment: `F = (Σ q.v) / n - v`; no neighbors: zero.");
    assert_eq!(behaviors::alignment(&me, &neighbors), v2(-0.5, 1.0));
    says(
        "Flocking: `F = w_sep * normalize(Separation) + w_coh * normalize(Cohesion) + w_ali * normalize(Alignment)`, over one shared neighborhood; no neighbors: zero.",
    );
    // weights 1, 2, 3: ((-0.5,1) + 2 (1,-0.5) + 3 (-0.5,1)) / sqrt 1.25 = (0,3) / sqrt 1.25
    close(
        behaviors::flocking(&me, &neighbors, 1.0, 2.0, 3.0),
        v2(0.0, 3.0) / 1.25f32.sqrt(),
    );
    assert_eq!(
        behaviors::flocking(&me, std::iter::empty::<&Vehicle>(), 1.0, 2.0, 3.0),
        Vec2::ZERO
    );
}

#[test]
fn leader_following_steps_aside_in_the_leaders_sight() {
    says("    F = sign(l.y) * leader.side * max_force        (step out of the leader's way)");
    // Leader at 0 facing +x; follower at (3,-0.5): l = (3,-0.5), inside 0 < 3 < 4 and
    // |-0.5| < 2 / 2: F = -1 * (0,1) * 8 = (0,-8)
    let leader = Quarry {
        position: Vec2::ZERO,
        velocity: v2(2.0, 0.0),
        forward: Vec2::X,
    };
    let me = agent(v2(3.0, -0.5), Vec2::ZERO);
    assert_eq!(
        behaviors::leader_following(&me, &leader, 2.0, 3.0, 4.0, 2.0),
        v2(0.0, -8.0)
    );
    says("The point behind the leader is `leader.p - leader.forward * behind`.");
    assert_eq!(behaviors::leader_behind_point(&leader, 2.0), v2(-2.0, 0.0));
    // Out of sight (l.x = 5 > 4): arrive at (-2,0) from (5,-0.5): o = (-7,0.5), d > 3,
    // F = o / d * 5
    let far = agent(v2(5.0, -0.5), Vec2::ZERO);
    close(
        behaviors::leader_following(&far, &leader, 2.0, 3.0, 4.0, 2.0),
        v2(-7.0, 0.5) / 49.25f32.sqrt() * 5.0,
    );
}

#[test]
fn interpose_and_zero_speeds() {
    says("`m = (a.p + b.p) * 0.5`; `T = |m - p| / max_speed`, or `T = 0` when `max_speed <= 0`.");
    says("`F = Arrival(((a.p + a.v * T) + (b.p + b.v * T)) * 0.5, slowing_distance)`.");
    // a at 0 moving (2,0), b at (4,0) moving (0,2), p = (2,5): m = (2,0), T = 5 / 5 = 1,
    // aim = ((2,0) + (4,2)) / 2 = (3,1); Arrival slowing 2: o = (1,-4), d = sqrt 17 > 2
    let a = Quarry {
        position: Vec2::ZERO,
        velocity: v2(2.0, 0.0),
        forward: Vec2::X,
    };
    let b = Quarry {
        position: v2(4.0, 0.0),
        velocity: v2(0.0, 2.0),
        forward: Vec2::Y,
    };
    let me = agent(v2(2.0, 5.0), Vec2::ZERO);
    assert_eq!(behaviors::interpose_point(&me, &a, &b), v2(3.0, 1.0));
    close(
        behaviors::interpose(&me, &a, &b, 2.0),
        v2(1.0, -4.0) / 17f32.sqrt() * 5.0,
    );
    says(
        "With `max_speed = 0`, Pursuit and Evasion predict `max_prediction` seconds ahead and Interpose predicts `0` seconds ahead. Seek and Flee then give `-v` (brake), and so does Arrival.",
    );
    let stuck = Vehicle::new(
        v2(2.0, 5.0),
        v2(1.0, 0.0),
        VehicleParams {
            max_speed: 0.0,
            ..PARAMS
        },
    );
    assert_eq!(behaviors::interpose_point(&stuck, &a, &b), v2(2.0, 0.0));
    assert_eq!(behaviors::prediction_time(&stuck, v2(9.0, 9.0), 1.5), 1.5);
    assert_eq!(behaviors::seek(&stuck, v2(9.0, 9.0)), v2(-1.0, 0.0));
    assert_eq!(behaviors::flee(&stuck, v2(9.0, 9.0), None), v2(-1.0, 0.0));
    assert_eq!(behaviors::arrival(&stuck, v2(9.0, 9.0), 2.0), v2(-1.0, 0.0));
}

#[test]
fn hide_arrives_at_the_nearest_spot_behind_an_obstacle() {
    says(
        "For each obstacle `(c, r)`, the hiding spot is `c + normalize(c - hunter.p) * (r + radius + margin)`: behind the obstacle as seen from the hunter.",
    );
    // Hunter at 0; obstacles (5,0) r 1 and (0,8) r 2; radius 0.5, margin 0.5:
    // spots (5,0) + (1,0) * 2 = (7,0) and (0,8) + (0,1) * 3 = (0,11). From (7,1) the first is
    // nearer: Arrival((7,0), 2): o = (0,-1), d = 1, speed = 5 / 2, F = (0,-2.5).
    let obstacles = [
        Obstacle {
            center: v2(5.0, 0.0),
            radius: 1.0,
        },
        Obstacle {
            center: v2(0.0, 8.0),
            radius: 2.0,
        },
    ];
    let me = agent(v2(7.0, 1.0), Vec2::ZERO);
    assert_eq!(
        behaviors::hiding_spot(&me, Vec2::ZERO, &obstacles, 0.5),
        Some(v2(7.0, 0.0))
    );
    assert_eq!(
        behaviors::hide(&me, Vec2::ZERO, &obstacles, 0.5, 2.0),
        v2(0.0, -2.5)
    );
    assert_eq!(behaviors::hide(&me, Vec2::ZERO, &[], 0.5, 2.0), Vec2::ZERO);
}

// ---------------------------------------------------------------------------------------------
// Neighborhoods
// ---------------------------------------------------------------------------------------------

#[test]
fn neighbors_are_strictly_within_the_radius_and_in_view_with_an_inclusive_edge() {
    says("`|q.p - p|² < radius²` (strictly)");
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let all = FieldOfView::from_degrees(360.0);
    assert!(behaviors::in_neighborhood(&me, v2(2.99, 0.0), 3.0, all));
    assert!(!behaviors::in_neighborhood(&me, v2(3.0, 0.0), 3.0, all));
    says(
        "the neighbor is in view when `|o| < 1e-6` (coincident agents count as seen) or `forward · o >= (cos(fov / 2) - 1e-6) * |o|`.",
    );
    says(
        "with the default fov of 270 degrees, the two diagonal neighbors behind an agent on a grid (at exactly 135 degrees) are seen.",
    );
    let fov = FieldOfView::from_degrees(270.0);
    for spacing in [1.0f32, 1.5, 2.0] {
        assert!(behaviors::in_neighborhood(
            &me,
            v2(-spacing, spacing),
            3.5,
            fov
        ));
        assert!(behaviors::in_neighborhood(
            &me,
            v2(-spacing, -spacing),
            3.5,
            fov
        ));
        assert!(!behaviors::in_neighborhood(
            &me,
            v2(-spacing, 0.0),
            3.5,
            fov
        ));
    }
    assert!(behaviors::in_neighborhood(
        &me,
        v2(0.0, 0.0),
        3.0,
        FieldOfView::from_degrees(0.0)
    ));
    says("a negative or NaN `fov` counts as `0` (only straight ahead).");
    let blind = FieldOfView::from_degrees(-30.0);
    assert!(behaviors::in_neighborhood(&me, v2(2.0, 0.0), 3.0, blind));
    assert!(!behaviors::in_neighborhood(&me, v2(2.0, 0.1), 3.0, blind));
}

/// Navigate's route following, on a route (0, 0) → (4, 0) → (4, 4) quoted from BEHAVIORS.md:
/// the leg moves on once the next leg is as near; the aim is `ahead_distance` along the leg
/// from its nearest point, never past its corner; past the end, Arrival with the slowing
/// distance.
#[test]
fn navigate_seeks_ahead_along_its_route_and_arrives_at_the_end() {
    let route = [Vec2::ZERO, Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0)];
    // At (1, 0.5) the first leg is 0.5 away, the second 3.04: still leg 0.
    assert_eq!(behaviors::route_leg(Vec2::new(1.0, 0.5), &route, 0), 0);
    // At (3.8, 0.5) the second leg (0.2 away) is nearer than the first (0.5): leg 1.
    assert_eq!(behaviors::route_leg(Vec2::new(3.8, 0.5), &route, 0), 1);
    // It never goes back.
    assert_eq!(behaviors::route_leg(Vec2::new(1.0, 0.0), &route, 1), 1);
    // From (1, 0.5) on leg 0: X = (1, 0); 2 ahead is (3, 0). At rest, max speed 5:
    // Seek (3, 0) from (1, 0.5) is normalize(2, -0.5) * 5.
    let me = Vehicle::new(Vec2::new(1.0, 0.5), Vec2::ZERO, VehicleParams::default());
    let force = behaviors::route_following(&me, &route, 0, 2.0, 3.0);
    let expected = Vec2::new(2.0, -0.5).normalize() * 5.0;
    assert!((force - expected).length() < 1e-5, "{force}");
    // From (1, 0) with 4 ahead: X = (1, 0), the corner 3 away is nearer than 4: the aim
    // stops at the corner, (4, 0), not 1 past it.
    assert_eq!(
        behaviors::route_aim(Vec2::new(1.0, 0.0), &route, 0, 4.0),
        Some(behaviors::PathSteer::Seek(Vec2::new(4.0, 0.0)))
    );
    // At (4, 3) on leg 1 the aim 2 ahead is past the end: Arrival at (4, 4) slowing within
    // 3: the desired speed is 5 * 1 / 3 straight up.
    let near = Vehicle::new(Vec2::new(4.0, 3.0), Vec2::ZERO, VehicleParams::default());
    let force = behaviors::route_following(&near, &route, 1, 2.0, 3.0);
    assert!(
        (force - Vec2::new(0.0, 5.0 / 3.0)).length() < 1e-5,
        "{force}"
    );
    // No route: no force.
    assert_eq!(
        behaviors::route_following(&me, &[], 0, 2.0, 3.0),
        Vec2::ZERO
    );
}
