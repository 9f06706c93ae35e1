//! The conventions, the vehicle's integration, targets and quarries, as `BEHAVIORS.md` states them.

use super::{PARAMS, agent, close, link, one, point, says, steer, v2};
use glam::Vec2;
use graph_runtime::behaviors::Quarry;
use graph_runtime::math::{normalize, rotate, sign, truncate};
use graph_runtime::{Graph, Node, Target, Vehicle, VehicleParams, World};

// ---------------------------------------------------------------------------------------------
// Conventions
// ---------------------------------------------------------------------------------------------

#[test]
fn normalize_truncate_sign_and_rotate_are_the_documented_ones() {
    says("`normalize(v)` is `v / |v|`, or exactly zero when `|v| < 1e-6`.");
    assert_eq!(normalize(v2(3.0, 4.0)), v2(0.6, 0.8));
    assert_eq!(normalize(v2(9e-7, 0.0)), Vec2::ZERO);
    says(
        "`truncate(v, m)` is `v` when `|v| <= m`, else `v * (m / |v|)`. A negative or NaN `m` counts as `0`.",
    );
    assert_eq!(truncate(v2(3.0, 4.0), 5.0), v2(3.0, 4.0));
    assert_eq!(truncate(v2(3.0, 4.0), 2.5), v2(1.5, 2.0));
    assert_eq!(truncate(v2(3.0, 4.0), -1.0), Vec2::ZERO);
    says("`truncate((inf, 0), 5) = (5, 0)`");
    assert_eq!(truncate(v2(f32::INFINITY, 0.0), 5.0), v2(5.0, 0.0));
    says("`sign(x)` is `+1` for `x >= 0` (zero included) and `-1` for `x < 0`.");
    assert_eq!((sign(0.0), sign(2.0), sign(-0.1)), (1.0, 1.0, -1.0));
    says(
        "`rotate(f, θ) = (f.x cos θ - f.y sin θ, f.x sin θ + f.y cos θ)`: `f` turned counter-clockwise by `θ` radians.",
    );
    close(rotate(Vec2::X, std::f32::consts::FRAC_PI_2), Vec2::Y);
    close(rotate(v2(0.6, 0.8), std::f32::consts::PI), v2(-0.6, -0.8));
}

// ---------------------------------------------------------------------------------------------
// The vehicle
// ---------------------------------------------------------------------------------------------

#[test]
fn a_vehicle_at_rest_faces_x_and_keeps_its_last_heading() {
    says(
        "A vehicle created at rest (`|v| <= 1e-6`) faces +x; otherwise it faces `v * (1 / |v|)`. After that, a vehicle whose speed drops to `1e-6` or less keeps its last heading.",
    );
    assert_eq!(agent(Vec2::ZERO, Vec2::ZERO).forward, Vec2::X);
    assert_eq!(agent(Vec2::ZERO, v2(1e-6, 0.0)).forward, Vec2::X);
    assert_eq!(agent(Vec2::ZERO, v2(0.0, -2.0)).forward, Vec2::NEG_Y);
    // moving up at 1, braking at max_force 8 for 0.125 s: speed exactly 0, heading still +y
    let mut braking = agent(Vec2::ZERO, v2(0.0, 1.0));
    braking.step(v2(0.0, -10.0), 0.125);
    assert_eq!(braking.velocity, Vec2::ZERO);
    assert_eq!(braking.forward, Vec2::Y);
}

#[test]
fn the_vehicle_step_is_the_documented_integration() {
    says(
        "force    = truncate(steering, max_force)\naccel    = force / mass\nvelocity = truncate(velocity + accel * dt, max_speed)\nposition = position + velocity * dt\nif |velocity| > 1e-6 { forward = velocity / |velocity| }",
    );
    let mut v = Vehicle::new(
        Vec2::ZERO,
        Vec2::ZERO,
        VehicleParams {
            mass: 2.0,
            max_force: 4.0,
            max_speed: 3.0,
            radius: 0.5,
        },
    );
    // (10,0) -> force (4,0), accel (2,0), velocity (1,0), position (0.5,0)
    v.step(v2(10.0, 0.0), 0.5);
    assert_eq!(
        (v.velocity, v.position, v.forward),
        (v2(1.0, 0.0), v2(0.5, 0.0), Vec2::X)
    );
    // (0,-4) -> accel (0,-2), velocity (1,-2) (|v| = sqrt 5 <= 3), position (1.5,-2)
    v.step(v2(0.0, -4.0), 1.0);
    assert_eq!((v.velocity, v.position), (v2(1.0, -2.0), v2(1.5, -2.0)));
    close(v.forward, v2(1.0, -2.0) / 5f32.sqrt());
    // (0,8) is cut to (0,4), accel (0,2) for 3 s: (1,-2) + (0,6) = (1,4), |.| = sqrt 17 > 3,
    // truncated to (1,4) * 3 / sqrt 17
    v.step(v2(0.0, 8.0), 3.0);
    close(v.velocity, v2(1.0, 4.0) * (3.0 / 17f32.sqrt()));
}

#[test]
fn an_overflowing_step_is_redone_in_f64() {
    says(
        "the velocity is computed in `f64` as `v + force / mass * dt`, truncated to\n  `max_speed`",
    );
    // force 8 / mass 1e-45 overflows f32; the velocity is the top speed along the force
    let mut light = Vehicle::new(
        Vec2::ZERO,
        Vec2::ZERO,
        VehicleParams {
            mass: 1e-45,
            ..PARAMS
        },
    );
    light.step(v2(0.0, 8.0), 0.5);
    assert_eq!(
        (light.velocity, light.position),
        (v2(0.0, 5.0), v2(0.0, 2.5))
    );
    says(
        "When `position + velocity * dt` is not finite, the position is computed in `f64` and clamped to `±f32::MAX` per component.",
    );
    let mut far = agent(v2(3e38, 0.0), v2(5.0, 0.0));
    far.step(Vec2::ZERO, 1e38);
    assert_eq!(far.position, v2(f32::MAX, 0.0));
    says(
        "a non-finite `dt` leaves the vehicle unchanged; a mass that is not `> 0` applies no force (the vehicle coasts).",
    );
    let mut coasting = Vehicle::new(
        Vec2::ZERO,
        v2(1.0, 0.0),
        VehicleParams {
            mass: 0.0,
            ..PARAMS
        },
    );
    coasting.step(v2(0.0, 8.0), 0.5);
    assert_eq!(
        (coasting.velocity, coasting.position),
        (v2(1.0, 0.0), v2(0.5, 0.0))
    );
    coasting.step(v2(0.0, 8.0), f32::NAN);
    assert_eq!(coasting.position, v2(0.5, 0.0));
}

#[test]
fn a_force_that_is_not_finite_is_replaced_by_zero() {
    says("A force that comes out of a graph not finite is replaced by zero before the step.");
    // Seek (3,4) from the origin is (3,4); scaled by 1e9 (the largest number a graph may hold)
    // five times it is 5e45 long, past f32::MAX (3.4e38): infinity.
    let mut graph = Graph::default();
    let mut twice = graph.add(Node::Seek {
        target: point(3.0, 4.0),
    });
    for _ in 0..5 {
        twice = graph.add(Node::Scale {
            input: link(twice),
            factor: 1e9.into(),
        });
    }
    graph.add(Node::Output { input: link(twice) });
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    assert_eq!(steer(&graph, &World::default(), &[me], &[], 1), Vec2::ZERO);
}

// ---------------------------------------------------------------------------------------------
// Targets and quarries
// ---------------------------------------------------------------------------------------------

#[test]
fn a_point_used_as_a_quarry_stands_still_and_faces_x() {
    says(
        "A point used as a quarry (a fixed point, a named target or an own point) has velocity zero and faces +x. So Pursuit of a point is Seek of it, and a point used as a leader has its \"behind\" on the −x side.",
    );
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let pursuit = one(Node::Pursuit {
        quarry: point(3.0, 4.0),
        max_prediction: 2.0.into(),
    });
    // Seek (3,4) at max_speed 5: (3,4)
    assert_eq!(
        steer(&pursuit, &World::default(), &[me], &[], 1),
        v2(3.0, 4.0)
    );
    // Leader at the point (10,0), behind 2: arrive at (8,0). From (9,3) (behind the point,
    // l = (-1,3), not in its sight): o = (-1,-3), d = sqrt 10 < 4, speed = 5 d / 4,
    // F = o * 5/4 = (-1.25,-3.75). A leader facing -x would put the point at (12,0).
    let follower = agent(v2(9.0, 3.0), Vec2::ZERO);
    let leader = one(Node::LeaderFollowing {
        leader: point(10.0, 0.0),
        behind: 2.0.into(),
        slowing_distance: 4.0.into(),
        sight_length: 4.0.into(),
        sight_width: 2.0.into(),
    });
    close(
        steer(&leader, &World::default(), &[follower], &[], 1),
        v2(-1.25, -3.75),
    );
    assert_eq!(Quarry::at(v2(1.0, 2.0)).forward, Vec2::X);
}

#[test]
fn nearest_tagged_picks_the_lower_index_on_a_tie_and_never_the_agent_itself() {
    says(
        "`NearestTagged` picks, among the *other* agents carrying the tag, the one with the smallest `|q.p - p|²`; on a tie the lower agent index wins. An agent never targets itself.",
    );
    // Agent 0 (itself "prey") at the origin; agents 1 at (0,5) and 2 at (0,-5) are equally
    // near: agent 1 wins, Seek gives (0,5).
    let graph = one(Node::Seek {
        target: Target::NearestTagged("prey".into()),
    });
    let vehicles = [
        agent(Vec2::ZERO, Vec2::ZERO),
        agent(v2(0.0, 5.0), Vec2::ZERO),
        agent(v2(0.0, -5.0), Vec2::ZERO),
    ];
    let force = steer(
        &graph,
        &World::default(),
        &vehicles,
        &["prey", "prey", "prey"],
        1,
    );
    assert_eq!(force, v2(0.0, 5.0));
    says(
        "A target that does not resolve (an unknown name, no other agent with the tag) makes the node return zero",
    );
    assert_eq!(
        steer(&graph, &World::default(), &vehicles[..1], &["prey"], 1),
        Vec2::ZERO
    );
}
