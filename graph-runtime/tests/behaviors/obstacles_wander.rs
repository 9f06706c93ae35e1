//! Obstacle Avoidance and Wander against numbers worked out by hand.

use super::{Harness, agent, assert_close, graph_force, graph_of, v2};
use glam::Vec2;
use graph_runtime::behaviors::{self};
use graph_runtime::{AgentRng, Node, Obstacle, World};

// ---------------------------------------------------------------------------------------------
// Obstacle avoidance
// ---------------------------------------------------------------------------------------------

pub(crate) fn circle(x: f32, y: f32, radius: f32) -> Obstacle {
    Obstacle {
        center: v2(x, y),
        radius,
    }
}

#[test]
fn obstacle_avoidance_pushes_sideways_away_from_the_threat() {
    // p = 0, v = (2,0), radius 0.5, min_length 2, lookahead 1: L = 2 + 2 * 1 = 4
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    // (3,0.5) r 1: l = (3,0.5), R = 1.5; 3+1 >= 0, 3-1 <= 4, 0.5 < 1.5: threat.
    // F = -sign(0.5) * side * 8 = (0,-8)
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(3.0, 0.5, 1.0)], 2.0, 1.0),
        v2(0.0, -8.0)
    );
    // mirrored: F = (0,8)
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(3.0, -0.5, 1.0)], 2.0, 1.0),
        v2(0.0, 8.0)
    );
    // dead ahead: sign(0) = +1, F = (0,-8)
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(3.0, 0.0, 1.0)], 2.0, 1.0),
        v2(0.0, -8.0)
    );
    // facing +y (v = (0,2)), side = (-1,0): obstacle at (0.5,3): l = (3, -0.5),
    // F = -(-1) * (-1,0) * 8 = (-8,0)
    let up = agent(Vec2::ZERO, v2(0.0, 2.0));
    assert_eq!(
        behaviors::obstacle_avoidance(&up, &[circle(0.5, 3.0, 1.0)], 2.0, 1.0),
        v2(-8.0, 0.0)
    );
}

#[test]
fn obstacle_avoidance_ignores_obstacles_outside_the_corridor() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0)); // L = 4
    // no obstacles: zero
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[], 2.0, 1.0),
        Vec2::ZERO
    );
    // behind: l.x + r = -2 + 1 < 0
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(-2.0, 0.0, 1.0)], 2.0, 1.0),
        Vec2::ZERO
    );
    // too far: l.x - r = 4.5 > 4
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(5.5, 0.0, 1.0)], 2.0, 1.0),
        Vec2::ZERO
    );
    // beside: |l.y| = 1.5 >= R = 1.5
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(2.0, 1.5, 1.0)], 2.0, 1.0),
        Vec2::ZERO
    );
    // zero speed shortens the corridor to L = min_length = 2: (3.5,0) r 1 has l.x - r = 2.5 > 2
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_eq!(
        behaviors::obstacle_avoidance(&still, &[circle(3.5, 0.0, 1.0)], 2.0, 1.0),
        Vec2::ZERO
    );
    // ... while at speed 2 (L = 4) the same obstacle is a threat: F = (0,-8)
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(3.5, 0.0, 1.0)], 2.0, 1.0),
        v2(0.0, -8.0)
    );
}

#[test]
fn obstacle_avoidance_picks_the_smallest_threat_distance() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0)); // L = 4, R = r_o + 0.5
    // A (2.5,0) r 1: x = 2.5 - sqrt(1.5^2 - 0) = 1.0
    // B (2.0,-1.4) r 1: x = 2.0 - sqrt(2.25 - 1.96) = 2.0 - 0.5385 = 1.4615
    // B's centre is nearer, but A is the most threatening: F = -sign(0) * side * 8 = (0,-8)
    // (B alone would give (0,8)).
    let obstacles = [circle(2.0, -1.4, 1.0), circle(2.5, 0.0, 1.0)];
    let (index, l) = behaviors::most_threatening_obstacle(&me, &obstacles, 2.0, 1.0)
        .expect("two obstacles in the corridor");
    assert_eq!(index, 1);
    assert_eq!(l, v2(2.5, 0.0));
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &obstacles, 2.0, 1.0),
        v2(0.0, -8.0)
    );
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &obstacles[..1], 2.0, 1.0),
        v2(0.0, 8.0)
    );
}

#[test]
fn obstacle_avoidance_uses_l_x_when_already_overlapping() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    // A (0.5,0) r 1: l.x - sqrt(2.25) = -1 < 0 -> x = l.x = 0.5
    // B (0.2,-1.0) r 1: 0.2 - sqrt(2.25 - 1) = -0.918 < 0 -> x = l.x = 0.2
    // With raw negative distances A (-1) would win; by the contract B (0.2) does:
    // F = -sign(-1) * side * 8 = (0,8)
    let obstacles = [circle(0.5, 0.0, 1.0), circle(0.2, -1.0, 1.0)];
    let (index, _) =
        behaviors::most_threatening_obstacle(&me, &obstacles, 2.0, 1.0).expect("threats");
    assert_eq!(index, 1);
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &obstacles, 2.0, 1.0),
        v2(0.0, 8.0)
    );
}

#[test]
fn obstacle_avoidance_graph_reads_world_obstacles() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let node = || Node::ObstacleAvoidance {
        min_length: 2.0.into(),
        lookahead_time: 1.0.into(),
    };
    // empty world: zero
    assert_eq!(
        graph_force(node(), World::default(), vec![me], &[]),
        Vec2::ZERO
    );
    let mut world = World::default();
    world.obstacles = vec![circle(2.0, -1.4, 1.0), circle(2.5, 0.0, 1.0)];
    assert_eq!(
        graph_force(node(), world.clone(), vec![me], &[]),
        v2(0.0, -8.0)
    );
    assert_eq!(
        graph_force(node(), world.clone(), vec![me], &[]),
        behaviors::obstacle_avoidance(&me, &world.obstacles, 2.0, 1.0)
    );
}

// ---------------------------------------------------------------------------------------------
// Wander
// ---------------------------------------------------------------------------------------------

#[test]
fn wander_seeks_a_point_on_the_circle_ahead() {
    // p = (1,1), forward +x, v = 0, theta = pi/2, distance 3, radius 4:
    // aim = (1,1) + (3,0) + 4 * (0,1) = (4,5), aim - p = (3,4), F = (2.4,3.2)
    let me = agent(v2(1.0, 1.0), Vec2::ZERO);
    let theta = std::f32::consts::FRAC_PI_2;
    assert_close(behaviors::wander_aim(&me, theta, 3.0, 4.0), v2(4.0, 5.0));
    assert_close(behaviors::wander(&me, theta, 3.0, 4.0), v2(2.4, 3.2));
    // facing +y (v = (0,1)): rotate((0,1), pi/2) = (-1,0); distance 4, radius 3:
    // aim = (0,4) + (-3,0) = (-3,4), F = (-2.4,3.2) - (0,1) = (-2.4,2.2)
    let up = agent(Vec2::ZERO, v2(0.0, 1.0));
    assert_close(behaviors::wander(&up, theta, 4.0, 3.0), v2(-2.4, 2.2));
    // theta = 0: aim = p + f * (distance + radius) = (5,0) from p = 0 facing +x:
    // F = (4,0) - 0
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_eq!(behaviors::wander(&still, 0.0, 2.0, 3.0), v2(4.0, 0.0));
}

#[test]
fn wander_without_jitter_keeps_aiming_straight_ahead() {
    // jitter 0: theta stays 0; p = 0, v = (1,0), distance 2, radius 1: aim = (3,0),
    // F = (4,0) - (1,0) = (3,0) on every tick
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let graph = graph_of(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 0.0.into(),
        face: false,
    });
    let mut harness = Harness::new(&graph, World::default(), vec![me], &[]);
    let mut state = harness.state(99, 0);
    for _ in 0..5 {
        assert_eq!(harness.steer(0, &mut state), v2(3.0, 0.0));
    }
}

#[test]
fn wander_angle_drifts_by_the_agents_own_random_jitter() {
    // theta_k = theta_{k-1} + U_k(-1,1) * jitter * dt, U drawn from AgentRng(seed, agent);
    // jitter 90 deg/s, dt 0.5: each step is at most pi/4. p = 0, forward +x, v = (1,0),
    // distance 2, radius 1: aim = (2 + cos theta, sin theta), F = normalize(aim) * 4 - (1,0).
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let bystander = agent(v2(30.0, 0.0), Vec2::ZERO);
    let graph = graph_of(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 90.0.into(),
        face: false,
    });
    let mut harness = Harness::new(&graph, World::default(), vec![bystander, me], &[]);
    harness.dt = 0.5;
    let (seed, index) = (1234, 1);
    let mut state = harness.state(seed, index);
    let mut rng = AgentRng::new(seed, index as u64);
    let mut theta = 0.0f32;
    let mut distinct = 0;
    let mut previous = None;
    for tick in 0..20 {
        let step = rng.signed_unit() * 90f32.to_radians() * 0.5;
        assert!(step.abs() <= std::f32::consts::FRAC_PI_4 + 1e-6);
        theta += step;
        let aim = v2(2.0 + theta.cos(), theta.sin());
        let expected = aim / aim.length() * 4.0 - v2(1.0, 0.0);
        let force = harness.steer(index, &mut state);
        assert!(
            (force - expected).abs().max_element() <= 1e-4,
            "tick {tick}: expected {expected}, got {force}"
        );
        if previous != Some(force) {
            distinct += 1;
        }
        previous = Some(force);
    }
    assert!(distinct > 10, "the aim must actually wander");
}
