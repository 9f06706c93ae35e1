//! Pursuit, Evasion and Offset Pursuit against numbers worked out by hand.

use super::{agent, assert_close, graph_force, tagged, v2};
use glam::Vec2;
use graph_runtime::behaviors::{self, Quarry};
use graph_runtime::{Node, Target, World};

// ---------------------------------------------------------------------------------------------
// Pursuit and evasion
// ---------------------------------------------------------------------------------------------

#[test]
fn prediction_time_is_distance_over_speed_capped() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    // D = 8, max_speed 4: T = min(2, 10) = 2; min(2, 1) = 1
    assert_eq!(behaviors::prediction_time(&me, v2(0.0, 8.0), 10.0), 2.0);
    assert_eq!(behaviors::prediction_time(&me, v2(0.0, 8.0), 1.0), 1.0);
    // coincident quarry: D = 0, T = 0
    assert_eq!(behaviors::prediction_time(&me, Vec2::ZERO, 10.0), 0.0);
    // max_speed = 0: T = max_prediction
    let mut stopped = me;
    stopped.max_speed = 0.0;
    assert_eq!(behaviors::prediction_time(&stopped, v2(0.0, 8.0), 3.0), 3.0);
}

#[test]
fn pursuit_seeks_the_predicted_position() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    // quarry (0,8) moving (3,0): D = 8, T = min(8/4, 10) = 2, P = (6,8),
    // F = normalize((6,8)) * 4 = (2.4,3.2)
    let quarry = Quarry {
        position: v2(0.0, 8.0),
        velocity: v2(3.0, 0.0),
        forward: Vec2::X,
    };
    assert_close(behaviors::pursuit(&me, &quarry, 10.0), v2(2.4, 3.2));
    // quarry moving (6,0) with max_prediction 1: T = min(2, 1) = 1, P = (6,8) again
    let fast = Quarry {
        velocity: v2(6.0, 0.0),
        ..quarry
    };
    assert_close(behaviors::pursuit(&me, &fast, 1.0), v2(2.4, 3.2));
}

#[test]
fn pursuit_degenerate_cases() {
    // quarry on top of us: D = 0, T = 0, P = p, seek(p) = -v
    let me = agent(v2(1.0, 1.0), v2(2.0, 0.0));
    let on_top = Quarry {
        position: v2(1.0, 1.0),
        velocity: v2(0.0, 5.0),
        forward: Vec2::Y,
    };
    assert_eq!(behaviors::pursuit(&me, &on_top, 10.0), v2(-2.0, 0.0));
    // max_speed 0: T = max_prediction, desired = normalize(..) * 0 = 0, F = -v
    let mut stopped = me;
    stopped.max_speed = 0.0;
    let quarry = Quarry {
        position: v2(9.0, 1.0),
        velocity: v2(0.0, 1.0),
        forward: Vec2::Y,
    };
    assert_eq!(behaviors::pursuit(&stopped, &quarry, 3.0), v2(-2.0, 0.0));
}

#[test]
fn pursuit_graph_uses_the_quarry_velocity_of_tagged_agents_only() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let node = |quarry: Target| Node::Pursuit {
        quarry,
        max_prediction: 10.0.into(),
    };
    // tagged agent at (0,8) moving (3,0): P = (6,8), F = (2.4,3.2)
    let prey = agent(v2(0.0, 8.0), v2(3.0, 0.0));
    let force = graph_force(
        node(tagged("prey")),
        World::default(),
        vec![me, prey],
        &["", "prey"],
    );
    assert_close(force, v2(2.4, 3.2));
    assert_eq!(force, behaviors::pursuit(&me, &Quarry::from(&prey), 10.0));
    // named point at (0,8) has velocity 0: P = (0,8), F = (0,4)
    let mut world = World::default();
    world.set_target("spot", v2(0.0, 8.0));
    assert_eq!(
        graph_force(node(Target::Named("spot".into())), world, vec![me], &[]),
        v2(0.0, 4.0)
    );
}

#[test]
fn evasion_flees_the_predicted_position() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let quarry = Quarry {
        position: v2(0.0, 8.0),
        velocity: v2(3.0, 0.0),
        forward: Vec2::X,
    };
    // T = 2, P = (6,8), F = normalize((-6,-8)) * 4 = (-2.4,-3.2)
    assert_close(behaviors::evasion(&me, &quarry, 10.0, None), v2(-2.4, -3.2));
    // max_prediction 0: P = (0,8), F = (0,-4)
    assert_eq!(behaviors::evasion(&me, &quarry, 0.0, None), v2(0.0, -4.0));
    // coincident still quarry: T = 0, P = p, F = -v
    let moving = agent(v2(2.0, 2.0), v2(1.0, 0.0));
    assert_eq!(
        behaviors::evasion(&moving, &Quarry::at(v2(2.0, 2.0)), 5.0, None),
        v2(-1.0, 0.0)
    );
}

#[test]
fn evasion_panic_distance_is_measured_to_the_predicted_position() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let quarry = Quarry {
        position: v2(0.0, 8.0),
        velocity: v2(3.0, 0.0),
        forward: Vec2::X,
    };
    // F = Flee(P = (6,8), panic): |p - P| = 10
    assert_eq!(
        behaviors::evasion(&me, &quarry, 10.0, Some(9.0)),
        Vec2::ZERO
    );
    assert_close(
        behaviors::evasion(&me, &quarry, 10.0, Some(10.0)),
        v2(-2.4, -3.2),
    );
    // through a graph
    let node = |panic: f32| Node::Evasion {
        quarry: tagged("hunter"),
        max_prediction: 10.0.into(),
        panic_distance: Some(panic.into()),
    };
    let hunter = agent(v2(0.0, 8.0), v2(3.0, 0.0));
    assert_eq!(
        graph_force(
            node(9.0),
            World::default(),
            vec![me, hunter],
            &["", "hunter"]
        ),
        Vec2::ZERO
    );
    assert_close(
        graph_force(
            node(11.0),
            World::default(),
            vec![me, hunter],
            &["", "hunter"],
        ),
        v2(-2.4, -3.2),
    );
}

#[test]
fn offset_pursuit_aims_beside_the_quarry_on_our_side() {
    // p = 0, forward +x, side +y, still quarry at (4,4): l = (4,4), s = +1,
    // aim = (4,4) - (0,1) * 1 = (4,3), F = (0.8,0.6) * 4 = (3.2,2.4)
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    assert_close(
        behaviors::offset_pursuit(&me, &Quarry::at(v2(4.0, 4.0)), 1.0, 5.0),
        v2(3.2, 2.4),
    );
    // quarry on our right at (4,-4): l.y = -4, s = -1, aim = (4,-4) + (0,1) = (4,-3),
    // F = (3.2,-2.4)
    assert_close(
        behaviors::offset_pursuit(&me, &Quarry::at(v2(4.0, -4.0)), 1.0, 5.0),
        v2(3.2, -2.4),
    );
    // dead ahead at (3,0): l.y = 0, s = +1, offset 4: aim = (3,0) - (0,4) = (3,-4),
    // F = (0.6,-0.8) * 4 = (2.4,-3.2)
    assert_close(
        behaviors::offset_pursuit(&me, &Quarry::at(v2(3.0, 0.0)), 4.0, 5.0),
        v2(2.4, -3.2),
    );
}

#[test]
fn offset_pursuit_uses_the_predicted_position_and_our_frame() {
    // p = 0, v = (2,0) (forward +x), quarry (8,0) moving (0,4), max_prediction 1:
    // D = 8, T = min(2, 1) = 1, P = (8,4), l = (8,4), s = +1, R = 4: aim = (8,4) - (0,4) = (8,0),
    // F = (4,0) - (2,0) = (2,0)
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let quarry = Quarry {
        position: v2(8.0, 0.0),
        velocity: v2(0.0, 4.0),
        forward: Vec2::Y,
    };
    assert_eq!(
        behaviors::offset_pursuit(&me, &quarry, 4.0, 1.0),
        v2(2.0, 0.0)
    );
    // facing +y (side = (-1,0)), still quarry at (-4,3): l = ((-4,3)·(0,1), (-4,3)·(-1,0))
    // = (3,4), s = +1, R = 2: aim = (-4,3) - (-1,0) * 2 = (-2,3)... from p = 0 that is
    // normalize((-2,3)) * 4 - (0,1)
    let up = agent(Vec2::ZERO, v2(0.0, 1.0));
    let expected = v2(-2.0, 3.0) / 13f32.sqrt() * 4.0 - v2(0.0, 1.0);
    assert_close(
        behaviors::offset_pursuit(&up, &Quarry::at(v2(-4.0, 3.0)), 2.0, 5.0),
        expected,
    );
    // through a graph with a tagged quarry: same (2,0)
    let leader = agent(v2(8.0, 0.0), v2(0.0, 4.0));
    assert_eq!(
        graph_force(
            Node::OffsetPursuit {
                quarry: tagged("lead"),
                offset: 4.0.into(),
                max_prediction: 1.0.into(),
            },
            World::default(),
            vec![me, leader],
            &["", "lead"],
        ),
        v2(2.0, 0.0)
    );
}
