//! Separation, Cohesion, Alignment, Flocking, Leader following, Interpose and Hide against numbers
//! worked out by hand.

use super::{agent, assert_close, graph_force, tagged, v2};
use crate::obstacles_wander::circle;
use glam::Vec2;
use graph_runtime::behaviors::{self, Quarry};
use graph_runtime::{Node, Vehicle, World};

// ---------------------------------------------------------------------------------------------
// Separation, cohesion, alignment, flocking
// ---------------------------------------------------------------------------------------------

#[test]
fn separation_sums_inverse_distance_pushes() {
    // p = 0; q at (2,0): (-2,0)/4 = (-0.5,0); q at (0,-4): (0,4)/16 = (0,0.25)
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let a = agent(v2(2.0, 0.0), Vec2::ZERO);
    let b = agent(v2(0.0, -4.0), Vec2::ZERO);
    assert_eq!(behaviors::separation(&me, [&a, &b]), v2(-0.5, 0.25));
    // no neighbors: zero
    assert_eq!(behaviors::separation(&me, std::iter::empty()), Vec2::ZERO);
    // a coincident agent is skipped (no NaN, no contribution)
    let twin = agent(Vec2::ZERO, v2(1.0, 0.0));
    assert_eq!(behaviors::separation(&me, [&a, &twin, &b]), v2(-0.5, 0.25));
    assert_eq!(behaviors::separation(&me, [&twin]), Vec2::ZERO);
}

#[test]
fn separation_graph_filters_by_radius_and_field_of_view() {
    let node = |radius: f32, fov: f32| Node::Separation {
        radius: radius.into(),
        fov: fov.into(),
        max_neighbors: 64.0.into(),
    };
    let me = agent(Vec2::ZERO, v2(1.0, 0.0)); // forward +x
    let others = vec![
        me,
        agent(v2(2.0, 0.0), Vec2::ZERO),  // (-0.5, 0)
        agent(v2(0.0, -4.0), Vec2::ZERO), // (0, 0.25)
        agent(v2(3.0, 0.0), Vec2::ZERO),  // (-1/3, 0) when inside
    ];
    // radius 3: only (2,0) (|(3,0)| = 3 is not < 3): F = (-0.5,0)
    assert_eq!(
        graph_force(node(3.0, 360.0), World::default(), others.clone(), &[]),
        v2(-0.5, 0.0)
    );
    // radius 5: all three: (-0.5 - 1/3, 0.25)
    assert_close(
        graph_force(node(5.0, 360.0), World::default(), others.clone(), &[]),
        v2(-0.5 - 1.0 / 3.0, 0.25),
    );
    // fov: (2,0) ahead, (0,2) beside (90 deg, seen with 180), (-2,0) behind
    let fov_scene = vec![
        me,
        agent(v2(2.0, 0.0), Vec2::ZERO),  // (-0.5, 0)
        agent(v2(0.0, 2.0), Vec2::ZERO),  // (0, -0.5)
        agent(v2(-2.0, 0.0), Vec2::ZERO), // (0.5, 0)
    ];
    assert_eq!(
        graph_force(node(3.0, 180.0), World::default(), fov_scene.clone(), &[]),
        v2(-0.5, -0.5)
    );
    assert_eq!(
        graph_force(node(3.0, 360.0), World::default(), fov_scene.clone(), &[]),
        v2(0.0, -0.5)
    );
    // alone: zero
    assert_eq!(
        graph_force(node(3.0, 360.0), World::default(), vec![me], &[]),
        Vec2::ZERO
    );
}

#[test]
fn cohesion_steers_to_the_neighbors_centre() {
    // neighbors (2,0), (0,4), (4,2): mean (2,2); from p = (1,1): F = (1,1)
    let me = agent(v2(1.0, 1.0), v2(3.0, 3.0));
    let a = agent(v2(2.0, 0.0), Vec2::ZERO);
    let b = agent(v2(0.0, 4.0), Vec2::ZERO);
    let c = agent(v2(4.0, 2.0), Vec2::ZERO);
    assert_eq!(behaviors::cohesion(&me, [&a, &b, &c]), v2(1.0, 1.0));
    // no neighbors: zero (velocity does not matter)
    assert_eq!(behaviors::cohesion(&me, std::iter::empty()), Vec2::ZERO);
    // a coincident neighbor still counts in the mean (only separation skips it):
    // neighbors (1,1) and (5,1): mean (3,1), F = (2,0)
    let twin = agent(v2(1.0, 1.0), Vec2::ZERO);
    let d = agent(v2(5.0, 1.0), Vec2::ZERO);
    assert_eq!(behaviors::cohesion(&me, [&twin, &d]), v2(2.0, 0.0));
    // through a graph with radius 4 around p = (1,1): (2,0), (0,4) and (4,2) are inside
    // (distances 1.41, 3.16, 3.16); (9,1) is not: F = (1,1)
    let far = agent(v2(9.0, 1.0), Vec2::ZERO);
    assert_eq!(
        graph_force(
            Node::Cohesion {
                radius: 4.0.into(),
                fov: 360.0.into(),
                max_neighbors: 64.0.into(),
            },
            World::default(),
            vec![me, a, far, b, c],
            &[],
        ),
        v2(1.0, 1.0)
    );
}

#[test]
fn alignment_matches_the_neighbors_mean_velocity() {
    // neighbor velocities (0,2) and (2,0): mean (1,1); v = (1,0): F = (0,1)
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let a = agent(v2(1.0, 0.0), v2(0.0, 2.0));
    let b = agent(v2(0.0, 1.0), v2(2.0, 0.0));
    assert_eq!(behaviors::alignment(&me, [&a, &b]), v2(0.0, 1.0));
    // no neighbors: zero, not -v
    assert_eq!(behaviors::alignment(&me, std::iter::empty()), Vec2::ZERO);
    // through a graph; fov 90 around +x keeps only a (at 0 deg), b is at 90 deg:
    // F = (0,2) - (1,0) = (-1,2)
    let node = |fov: f32| Node::Alignment {
        radius: 3.0.into(),
        fov: fov.into(),
        max_neighbors: 64.0.into(),
    };
    assert_eq!(
        graph_force(node(360.0), World::default(), vec![me, a, b], &[]),
        v2(0.0, 1.0)
    );
    assert_eq!(
        graph_force(node(90.0), World::default(), vec![me, a, b], &[]),
        v2(-1.0, 2.0)
    );
    assert_eq!(
        graph_force(node(360.0), World::default(), vec![me], &[]),
        Vec2::ZERO
    );
}

#[test]
fn flocking_blends_the_three_normalized_rules() {
    // p = 0, v = 0; A (2,0) v (0,2), B (4,0) v (0,2):
    // Sep = (-2,0)/4 + (-4,0)/16 = (-0.75,0) -> (-1,0); Coh = (3,0) -> (1,0);
    // Ali = (0,2) -> (0,1). Weights (2,1,3): F = (-2,0) + (1,0) + (0,3) = (-1,3)
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let a = agent(v2(2.0, 0.0), v2(0.0, 2.0));
    let b = agent(v2(4.0, 0.0), v2(0.0, 2.0));
    assert_eq!(
        behaviors::flocking(&me, [&a, &b], 2.0, 1.0, 3.0),
        v2(-1.0, 3.0)
    );
    // no neighbors: zero
    assert_eq!(
        behaviors::flocking(&me, std::iter::empty(), 2.0, 1.0, 3.0),
        Vec2::ZERO
    );
    // only a coincident neighbor moving (3,4): Sep skipped = 0, Coh = 0, Ali = (3,4) -> (0.6,0.8)
    let twin = agent(Vec2::ZERO, v2(3.0, 4.0));
    assert_close(
        behaviors::flocking(&me, [&twin], 2.0, 1.0, 1.0),
        v2(0.6, 0.8),
    );
    // through a graph (C at (10,0) is outside radius 5): (-1,3)
    let c = agent(v2(10.0, 0.0), v2(5.0, 5.0));
    assert_eq!(
        graph_force(
            Node::Flocking {
                separation_weight: 2.0.into(),
                cohesion_weight: 1.0.into(),
                alignment_weight: 3.0.into(),
                radius: 5.0.into(),
                fov: 360.0.into(),
                max_neighbors: 64.0.into(),
            },
            World::default(),
            vec![me, a, b, c],
            &[],
        ),
        v2(-1.0, 3.0)
    );
}

#[test]
fn flocking_equals_the_weighted_normalized_separate_rules() {
    // Any configuration: F = ws n(Sep) + wc n(Coh) + wa n(Ali), with n = normalize
    let me = agent(v2(0.3, -0.2), v2(1.0, 0.5));
    let others = [
        agent(v2(1.0, 1.0), v2(0.0, 1.0)),
        agent(v2(-1.5, 0.5), v2(2.0, -1.0)),
        agent(v2(0.5, -2.0), v2(-1.0, 0.0)),
    ];
    let refs: Vec<&Vehicle> = others.iter().collect();
    let expected = 1.5 * graph_runtime::math::normalize(behaviors::separation(&me, refs.clone()))
        + 0.5 * graph_runtime::math::normalize(behaviors::cohesion(&me, refs.clone()))
        - 2.0 * graph_runtime::math::normalize(behaviors::alignment(&me, refs.clone()));
    assert_close(behaviors::flocking(&me, refs, 1.5, 0.5, -2.0), expected);
}

// ---------------------------------------------------------------------------------------------
// Leader following
// ---------------------------------------------------------------------------------------------

#[test]
fn leader_following_steps_out_of_the_leaders_sight() {
    // leader at 0 facing +x (side +y); behind 2, slowing 4, sight 5 x 2.
    let leader = Quarry {
        position: Vec2::ZERO,
        velocity: v2(2.0, 0.0),
        forward: Vec2::X,
    };
    let follow =
        |p: Vec2| behaviors::leader_following(&agent(p, Vec2::ZERO), &leader, 2.0, 4.0, 5.0, 2.0);
    // (3,0.5): l = (3,0.5), 0 < 3 < 5, 0.5 < 1: F = +1 * (0,1) * 8
    assert_eq!(follow(v2(3.0, 0.5)), v2(0.0, 8.0));
    // (3,-0.5): F = -1 * (0,1) * 8
    assert_eq!(follow(v2(3.0, -0.5)), v2(0.0, -8.0));
    // (3,0): sign(0) = +1
    assert_eq!(follow(v2(3.0, 0.0)), v2(0.0, 8.0));
    // leader facing +y (side (-1,0)); follower at (0.5,3): l = (3,-0.5): F = -(-1,0) * 8 = (8,0)
    let north = Quarry {
        position: Vec2::ZERO,
        velocity: v2(0.0, 2.0),
        forward: Vec2::Y,
    };
    assert_eq!(
        behaviors::leader_following(&agent(v2(0.5, 3.0), Vec2::ZERO), &north, 2.0, 4.0, 5.0, 2.0),
        v2(8.0, 0.0)
    );
}

#[test]
fn leader_following_otherwise_arrives_behind_the_leader() {
    let leader = Quarry {
        position: Vec2::ZERO,
        velocity: v2(2.0, 0.0),
        forward: Vec2::X,
    };
    let follow = |me: Vehicle| behaviors::leader_following(&me, &leader, 2.0, 4.0, 5.0, 2.0);
    // behind point = (0,0) - (1,0) * 2 = (-2,0). From (-5,0) at rest: o = (3,0), d = 3,
    // speed = min(4 * 3 / 4, 4) = 3, F = (3,0)
    assert_eq!(follow(agent(v2(-5.0, 0.0), Vec2::ZERO)), v2(3.0, 0.0));
    // on the behind point with v = (1,0): F = -v
    assert_eq!(follow(agent(v2(-2.0, 0.0), v2(1.0, 0.0))), v2(-1.0, 0.0));
    // l.x = 5 is not < sight_length 5: o = (-7,0), speed 4, F = (-4,0)
    assert_eq!(follow(agent(v2(5.0, 0.0), Vec2::ZERO)), v2(-4.0, 0.0));
    // |l.y| = 1 is not < 2/2: o = (-4,-1), d = sqrt(17), speed 4
    assert_close(
        follow(agent(v2(2.0, 1.0), Vec2::ZERO)),
        v2(-4.0, -1.0) * (4.0 / 17f32.sqrt()),
    );
    // (0,0.5): l.x = 0 is not > 0 (level with the leader): arrival from (0,0.5),
    // o = (-2,-0.5), d = sqrt(4.25) < 4, speed = 4 * d / 4 = d, F = o * (d / d) = (-2,-0.5)
    assert_close(follow(agent(v2(0.0, 0.5), Vec2::ZERO)), v2(-2.0, -0.5));
}

#[test]
fn leader_following_graph_follows_the_tagged_leader() {
    let node = Node::LeaderFollowing {
        leader: tagged("leader"),
        behind: 2.0.into(),
        slowing_distance: 4.0.into(),
        sight_length: 5.0.into(),
        sight_width: 2.0.into(),
    };
    let leader = agent(Vec2::ZERO, v2(2.0, 0.0));
    // (-5,0): F = (3,0); (3,0.5): F = (0,8), as in the function tests
    assert_eq!(
        graph_force(
            node.clone(),
            World::default(),
            vec![agent(v2(-5.0, 0.0), Vec2::ZERO), leader],
            &["", "leader"],
        ),
        v2(3.0, 0.0)
    );
    assert_eq!(
        graph_force(
            node,
            World::default(),
            vec![agent(v2(3.0, 0.5), Vec2::ZERO), leader],
            &["", "leader"],
        ),
        v2(0.0, 8.0)
    );
}

// ---------------------------------------------------------------------------------------------
// Interpose and hide
// ---------------------------------------------------------------------------------------------

#[test]
fn interpose_arrives_at_the_predicted_midpoint() {
    // a (-2,0) v (0,1), b (2,0) v (0,1); p = (0,-4), max_speed 4: m = 0, T = 4/4 = 1,
    // predicted midpoint ((-2,1) + (2,1)) / 2 = (0,1); o = (0,5), d = 5, slowing 2:
    // speed = min(10, 4) = 4, F = (0,4)
    let me = agent(v2(0.0, -4.0), Vec2::ZERO);
    let a = Quarry {
        position: v2(-2.0, 0.0),
        velocity: v2(0.0, 1.0),
        forward: Vec2::Y,
    };
    let b = Quarry {
        position: v2(2.0, 0.0),
        ..a
    };
    assert_eq!(behaviors::interpose(&me, &a, &b, 2.0), v2(0.0, 4.0));
    // max_speed 3, p = (0,-3): T = 3/3 = 1; a v = (4,0) -> (2,0), b v = (2,2) -> (4,2);
    // midpoint (3,1), o = (3,4), d = 5, slowing 10: speed = min(3 * 5/10, 3) = 1.5,
    // F = (3,4) * 0.3 = (0.9,1.2)
    let mut slow = agent(v2(0.0, -3.0), Vec2::ZERO);
    slow.max_speed = 3.0;
    let a = Quarry {
        position: v2(-2.0, 0.0),
        velocity: v2(4.0, 0.0),
        forward: Vec2::X,
    };
    let b = Quarry {
        position: v2(2.0, 0.0),
        velocity: v2(2.0, 2.0),
        forward: Vec2::X,
    };
    assert_close(behaviors::interpose(&slow, &a, &b, 10.0), v2(0.9, 1.2));
}

#[test]
fn interpose_degenerate_cases() {
    // already at the midpoint of two still agents: T = 0, target = p, F = -v
    let me = agent(Vec2::ZERO, v2(1.0, 2.0));
    let a = Quarry::at(v2(-3.0, 0.0));
    let b = Quarry::at(v2(3.0, 0.0));
    assert_eq!(behaviors::interpose(&me, &a, &b, 2.0), v2(-1.0, -2.0));
    // max_speed 0: T = |m - p| / 0 is undefined; BEHAVIORS.md ("Interpose") fixes T = 0. Arrival speed is min(0 * d / s, 0) = 0, so F = -v
    // and never NaN.
    let mut stopped = agent(v2(0.0, -4.0), v2(1.0, 0.0));
    stopped.max_speed = 0.0;
    let moving = Quarry {
        position: v2(-2.0, 0.0),
        velocity: v2(0.0, 1.0),
        forward: Vec2::Y,
    };
    assert_eq!(
        behaviors::interpose(&stopped, &moving, &b, 2.0),
        v2(-1.0, 0.0)
    );
}

#[test]
fn interpose_graph_between_two_tagged_agents() {
    let node = Node::Interpose {
        a: tagged("a"),
        b: tagged("b"),
        slowing_distance: 2.0.into(),
    };
    let vehicles = vec![
        agent(v2(0.0, -4.0), Vec2::ZERO),
        agent(v2(-2.0, 0.0), v2(0.0, 1.0)),
        agent(v2(2.0, 0.0), v2(0.0, 1.0)),
    ];
    // first interpose case: (0,4)
    assert_eq!(
        graph_force(node, World::default(), vehicles, &["", "a", "b"]),
        v2(0.0, 4.0)
    );
}

#[test]
fn hide_arrives_behind_the_nearest_obstacle() {
    // hunter at 0; obstacle (5,0) r 1, radius 0.5, margin 0.5:
    // spot = (5,0) + (1,0) * (1 + 0.5 + 0.5) = (7,0)
    // obstacle (0,5) r 1: spot (0,7)
    let obstacles = [circle(5.0, 0.0, 1.0), circle(0.0, 5.0, 1.0)];
    // from (7,4): |(7,0) - p| = 4 < |(0,7) - p| = 7.6 -> (7,0);
    // o = (0,-4), d = 4, slowing 2: speed = min(8, 4) = 4, F = (0,-4)
    let me = agent(v2(7.0, 4.0), Vec2::ZERO);
    assert_eq!(
        behaviors::hiding_spot(&me, Vec2::ZERO, &obstacles, 0.5),
        Some(v2(7.0, 0.0))
    );
    assert_eq!(
        behaviors::hide(&me, Vec2::ZERO, &obstacles, 0.5, 2.0),
        v2(0.0, -4.0)
    );
    // from (2,7): spot (0,7), o = (-2,0), d = 2, slowing 4: speed = min(2, 4) = 2, F = (-2,0)
    let other = agent(v2(2.0, 7.0), Vec2::ZERO);
    assert_eq!(
        behaviors::hide(&other, Vec2::ZERO, &obstacles, 0.5, 4.0),
        v2(-2.0, 0.0)
    );
    // hunter at (10,0) instead: the first spot flips to (5,0) + (-1,0) * 2 = (3,0)
    assert_eq!(
        behaviors::hiding_spot(&me, v2(10.0, 0.0), &obstacles[..1], 0.5),
        Some(v2(3.0, 0.0))
    );
}

#[test]
fn hide_degenerate_cases() {
    let me = agent(v2(7.0, 0.0), v2(1.0, 0.0));
    // no obstacles: zero
    assert_eq!(behaviors::hiding_spot(&me, Vec2::ZERO, &[], 0.5), None);
    assert_eq!(behaviors::hide(&me, Vec2::ZERO, &[], 0.5, 2.0), Vec2::ZERO);
    // already on the spot (7,0): F = -v
    assert_eq!(
        behaviors::hide(&me, Vec2::ZERO, &[circle(5.0, 0.0, 1.0)], 0.5, 2.0),
        v2(-1.0, 0.0)
    );
    // hunter at the obstacle's centre: normalize(0) = 0, the spot is the centre itself
    assert_eq!(
        behaviors::hiding_spot(&me, v2(5.0, 0.0), &[circle(5.0, 0.0, 1.0)], 0.5),
        Some(v2(5.0, 0.0))
    );
}

#[test]
fn hide_graph_reads_world_obstacles_and_the_tagged_hunter() {
    let node = || Node::Hide {
        hunter: tagged("hunter"),
        margin: 0.5.into(),
        slowing_distance: 2.0.into(),
    };
    let vehicles = vec![
        agent(v2(7.0, 4.0), Vec2::ZERO),
        agent(Vec2::ZERO, v2(1.0, 1.0)),
    ];
    let mut world = World::default();
    world.obstacles = vec![circle(5.0, 0.0, 1.0), circle(0.0, 5.0, 1.0)];
    assert_eq!(
        graph_force(node(), world, vehicles.clone(), &["", "hunter"]),
        v2(0.0, -4.0)
    );
    // no obstacles: zero
    assert_eq!(
        graph_force(node(), World::default(), vehicles, &["", "hunter"]),
        Vec2::ZERO
    );
}
