//! Seek, Flee and Arrival against numbers worked out by hand.

use super::{Harness, agent, assert_close, graph_force, graph_of, point, tagged, v2};
use glam::Vec2;
use graph_runtime::behaviors::{self};
use graph_runtime::{BindError, Node, Target, World};

// ---------------------------------------------------------------------------------------------
// Seek
// ---------------------------------------------------------------------------------------------

#[test]
fn seek_goes_at_full_speed_towards_the_target() {
    // p = (1,1), v = (1,0), target (1,6): normalize((0,5)) = (0,1), desired = (0,4),
    // F = (0,4) - (1,0) = (-1,4)
    let me = agent(v2(1.0, 1.0), v2(1.0, 0.0));
    assert_eq!(behaviors::seek(&me, v2(1.0, 6.0)), v2(-1.0, 4.0));
    // p = 0, v = 0, target (3,4): normalize = (0.6,0.8), desired = (2.4,3.2) = F
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_close(behaviors::seek(&still, v2(3.0, 4.0)), v2(2.4, 3.2));
}

#[test]
fn seek_on_the_target_only_cancels_the_velocity() {
    // target - p = 0 -> normalize = 0 (never NaN), F = 0 - v = (-1,1)
    let me = agent(v2(2.0, 2.0), v2(1.0, -1.0));
    assert_eq!(behaviors::seek(&me, v2(2.0, 2.0)), v2(-1.0, 1.0));
    // at rest on the target: F = 0 exactly
    let still = agent(v2(2.0, 2.0), Vec2::ZERO);
    assert_eq!(behaviors::seek(&still, v2(2.0, 2.0)), Vec2::ZERO);
}

#[test]
fn seek_graph_resolves_points_named_targets_and_nearest_tagged_agents() {
    let me = agent(v2(1.0, 1.0), v2(1.0, 0.0));
    // Fixed point (1,6): F = (-1,4) as in the function test.
    let force = graph_force(
        Node::Seek {
            target: point(1.0, 6.0),
        },
        World::default(),
        vec![me],
        &[],
    );
    assert_eq!(force, v2(-1.0, 4.0));
    assert_eq!(force, behaviors::seek(&me, v2(1.0, 6.0)));

    // Named point "goal" at (1,6): same force.
    let mut world = World::default();
    world.set_target("goal", v2(1.0, 6.0));
    let force = graph_force(
        Node::Seek {
            target: Target::Named("goal".into()),
        },
        world,
        vec![me],
        &[],
    );
    assert_eq!(force, v2(-1.0, 4.0));

    // Nearest agent tagged "goal": agent 1 at (1,6) (distance 5) beats agent 2 at (1,20);
    // agent 3 at (1,0) is closer but untagged. F = (-1,4).
    let vehicles = vec![
        me,
        agent(v2(1.0, 6.0), Vec2::ZERO),
        agent(v2(1.0, 20.0), Vec2::ZERO),
        agent(v2(1.0, 0.0), Vec2::ZERO),
    ];
    let force = graph_force(
        Node::Seek {
            target: tagged("goal"),
        },
        World::default(),
        vehicles,
        &["", "goal", "goal", "other"],
    );
    assert_eq!(force, v2(-1.0, 4.0));
}

#[test]
fn nearest_tagged_target_is_never_the_agent_itself() {
    // The contract says "the nearest agent carrying a tag"; the agent itself (distance 0)
    // is excluded, as implemented. Agent 0 (tagged "boid", at (1,1), v = (1,0)) seeks the
    // other boid at (1,6): F = (-1,4), not Seek(p) = -v = (-1,0).
    let vehicles = vec![
        agent(v2(1.0, 1.0), v2(1.0, 0.0)),
        agent(v2(1.0, 6.0), Vec2::ZERO),
    ];
    assert_eq!(
        graph_force(
            Node::Seek {
                target: tagged("boid"),
            },
            World::default(),
            vehicles,
            &["boid", "boid"],
        ),
        v2(-1.0, 4.0)
    );
}

#[test]
fn unresolved_targets_give_zero_and_are_reported() {
    let me = agent(v2(1.0, 1.0), v2(1.0, 0.0));
    let mut harness = Harness::new(
        &graph_of(Node::Seek {
            target: Target::Named("nowhere".into()),
        }),
        World::default(),
        vec![me],
        &[],
    );
    assert_eq!(
        harness.bind_errors,
        vec![BindError::UnknownTarget("nowhere".into())]
    );
    let mut state = harness.state(1, 0);
    assert_eq!(harness.steer(0, &mut state), Vec2::ZERO);

    // A tag nobody carries: zero, reported.
    let mut harness = Harness::new(
        &graph_of(Node::Seek {
            target: tagged("ghost"),
        }),
        World::default(),
        vec![me, agent(v2(5.0, 5.0), Vec2::ZERO)],
        &["", "other"],
    );
    assert_eq!(
        harness.bind_errors,
        vec![BindError::UnknownTag("ghost".into())]
    );
    let mut state = harness.state(1, 0);
    assert_eq!(harness.steer(0, &mut state), Vec2::ZERO);
}

// ---------------------------------------------------------------------------------------------
// Flee
// ---------------------------------------------------------------------------------------------

#[test]
fn flee_runs_away_at_full_speed() {
    // p = 0, v = (0,1), target (-3,0): normalize(p - t) = (1,0), desired (4,0), F = (4,-1)
    let me = agent(Vec2::ZERO, v2(0.0, 1.0));
    assert_eq!(behaviors::flee(&me, v2(-3.0, 0.0), None), v2(4.0, -1.0));
    // target (3,4) from (0,0) at rest: normalize((-3,-4)) * 4 = (-2.4,-3.2)
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_close(behaviors::flee(&still, v2(3.0, 4.0), None), v2(-2.4, -3.2));
}

#[test]
fn flee_panic_distance_ignores_far_targets() {
    let me = agent(Vec2::ZERO, v2(0.0, 1.0));
    // |p - target| = 3 > panic 2: zero exactly (not -v)
    assert_eq!(behaviors::flee(&me, v2(-3.0, 0.0), Some(2.0)), Vec2::ZERO);
    // 3 is not > 3: flee as without panic distance, F = (4,-1)
    assert_eq!(
        behaviors::flee(&me, v2(-3.0, 0.0), Some(3.0)),
        v2(4.0, -1.0)
    );
    // coincident target: normalize(0) = 0, F = -v = (0,-1)
    assert_eq!(behaviors::flee(&me, Vec2::ZERO, Some(1.0)), v2(0.0, -1.0));
}

#[test]
fn flee_graph_matches_the_formula() {
    let me = agent(Vec2::ZERO, v2(0.0, 1.0));
    let flee = |panic: Option<f32>| Node::Flee {
        target: point(-3.0, 0.0),
        panic_distance: panic.map(Into::into),
    };
    assert_eq!(
        graph_force(flee(None), World::default(), vec![me], &[]),
        v2(4.0, -1.0)
    );
    assert_eq!(
        graph_force(flee(Some(2.0)), World::default(), vec![me], &[]),
        Vec2::ZERO
    );
    assert_eq!(
        graph_force(flee(Some(5.0)), World::default(), vec![me], &[]),
        v2(4.0, -1.0)
    );
}

// ---------------------------------------------------------------------------------------------
// Arrival
// ---------------------------------------------------------------------------------------------

#[test]
fn arrival_slows_down_inside_the_slowing_distance() {
    // o = (3,4), d = 5, speed = min(4 * 5 / 10, 4) = 2, F = (3,4) * (2/5) - 0 = (1.2,1.6)
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_close(behaviors::arrival(&still, v2(3.0, 4.0), 10.0), v2(1.2, 1.6));
    // o = (0,8), d = 8, slowing 4: speed = min(8, 4) = 4, F = (0,8) * (4/8) - (1,0) = (-1,4)
    let moving = agent(Vec2::ZERO, v2(1.0, 0.0));
    assert_eq!(
        behaviors::arrival(&moving, v2(0.0, 8.0), 4.0),
        v2(-1.0, 4.0)
    );
    // o = (0,2), d = 2, slowing 4: speed = min(4 * 2 / 4, 4) = 2, F = (0,2) * 1 - (1,0)
    assert_eq!(
        behaviors::arrival(&moving, v2(0.0, 2.0), 4.0),
        v2(-1.0, 2.0)
    );
}

#[test]
fn arrival_on_the_target_brakes_and_zero_slowing_distance_is_seek() {
    // d = 0 < 1e-6: F = -v
    let me = agent(v2(5.0, 5.0), v2(0.5, -2.0));
    assert_eq!(behaviors::arrival(&me, v2(5.0, 5.0), 3.0), v2(-0.5, 2.0));
    // slowing_distance 0: speed = min(4 * 5 / 0 = inf, 4) = 4, F = (3,4) * (4/5) = (2.4,3.2)
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_close(behaviors::arrival(&still, v2(3.0, 4.0), 0.0), v2(2.4, 3.2));
}

#[test]
fn arrival_graph_matches_the_formula() {
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    let node = |slowing: f32| Node::Arrival {
        target: point(3.0, 4.0),
        slowing_distance: slowing.into(),
    };
    // as above: (1.2,1.6) with slowing 10, (2.4,3.2) with slowing 5 (speed = min(4, 4))
    let force = graph_force(node(10.0), World::default(), vec![still], &[]);
    assert_close(force, v2(1.2, 1.6));
    assert_eq!(force, behaviors::arrival(&still, v2(3.0, 4.0), 10.0));
    assert_close(
        graph_force(node(5.0), World::default(), vec![still], &[]),
        v2(2.4, 3.2),
    );
    // agent sitting on the target with v = (1,1): F = -v
    let on_target = agent(v2(3.0, 4.0), v2(1.0, 1.0));
    assert_eq!(
        graph_force(node(10.0), World::default(), vec![on_target], &[]),
        v2(-1.0, -1.0)
    );
}
