//! Tracing one agent records every evaluated node with the geometry guides need, and gives
//! exactly the force an untraced evaluation gives.

#[path = "../benches/boids_fixture.rs"]
#[expect(dead_code, reason = "this test only uses the fixture's flock setup")]
mod boids_fixture;

use glam::Vec2;
use graph_runtime::behaviors;
use graph_runtime::{
    AgentState, Bindings, Context, Graph, Guide, Link, Node, NodeId, NodeValue, Obstacle, Path,
    PathDirection, Rect, Region, Scratch, SpatialGrid, TagTable, Target, Trace, Vehicle,
    VehicleParams, World, compile,
};

#[test]
fn a_traced_evaluation_gives_the_same_force_and_records_guides() {
    let mut flock = boids_fixture::Flock::new(300);
    for _ in 0..20 {
        flock.tick_graph();
    }
    flock.grid.rebuild(&flock.vehicles);
    let context = Context::new(
        &flock.world,
        &flock.vehicles,
        &flock.grid,
        &flock.bindings,
        &flock.params,
        boids_fixture::DT,
    );
    let mut found_flock = false;
    for agent in 0..300 {
        let mut plain_state = flock.states[agent].clone();
        let mut traced_state = flock.states[agent].clone();
        let plain = flock
            .program
            .steer(&context, agent, &mut plain_state, &mut flock.scratch);
        let mut trace = Trace::default();
        let traced = flock.program.steer_traced(
            &context,
            agent,
            &mut traced_state,
            &mut flock.scratch,
            &mut trace,
        );
        assert_eq!(plain.to_array(), traced.to_array(), "agent {agent}");
        // Obstacle avoidance (node 1) is always evaluated first, with its corridor.
        let avoid = trace.get(NodeId(1)).expect("avoidance evaluated");
        let Guide::Corridor { length, half_width } = avoid.guide else {
            panic!("{avoid:?}")
        };
        let speed = flock.vehicles[agent].velocity.length();
        assert!((length - (2.0 + speed * 1.0)).abs() < 1e-5);
        assert_eq!(half_width, 0.5);
        // The Output's value is the returned force.
        assert_eq!(
            trace.get(NodeId(7)).expect("output").value,
            NodeValue::Force(traced)
        );
        if let Some(entry) = trace.get(NodeId(3)) {
            found_flock = true;
            assert_eq!(
                entry.guide,
                Guide::Neighborhood {
                    radius: 4.0,
                    fov: 270.0
                }
            );
            let Guide::Wander { radius, .. } = trace.get(NodeId(4)).expect("wander").guide else {
                panic!("wander guide")
            };
            assert_eq!(radius, 1.0);
        }
    }
    assert!(found_flock, "some agent reached the flocking branch");
}

// ---------------------------------------------------------------------------------------------
// Guides show what the force used
// ---------------------------------------------------------------------------------------------

const PARAMS: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 8.0,
    max_speed: 4.0,
    radius: 0.5,
};

/// Traces agent 0 of `vehicles` under the one-node graph `node`; returns that node's entry.
fn trace_one(node: Node, world: &World, vehicles: &[Vehicle], tags: &[&str]) -> (Vec2, Guide) {
    let mut graph = Graph::default();
    let id = graph.add(node);
    graph.add(Node::Output {
        input: Link(Some(id)),
    });
    let program = compile(&graph).expect("compiles");
    let mut table = TagTable::default();
    let masks: Vec<u64> = vehicles
        .iter()
        .enumerate()
        .map(|(i, _)| match tags.get(i) {
            Some(tag) if !tag.is_empty() => table.mask(&[tag]).expect("one tag"),
            _ => 0,
        })
        .collect();
    let (bindings, errors) = Bindings::new(&program, world, &table);
    assert!(errors.is_empty(), "{errors:?}");
    let params = program.default_parameters();
    let mut grid = SpatialGrid::new(4.0);
    grid.rebuild(vehicles);
    let context = Context {
        tags: &masks,
        ..Context::new(world, vehicles, &grid, &bindings, &params, 0.1)
    };
    let mut trace = Trace::default();
    let mut state = AgentState::new(&program, 3, 0);
    program.steer_traced(&context, 0, &mut state, &mut Scratch::default(), &mut trace);
    let entry = trace.get(id).expect("evaluated");
    let NodeValue::Force(force) = entry.value else {
        panic!("{entry:?}")
    };
    (force, entry.guide)
}

#[test]
fn the_path_guide_shows_the_projection_and_the_aim_the_force_seeks() {
    // Open L (0,0) -> (10,0) -> (10,10). p = (2,4), v = (0,-1), prediction 1: P = (2,3),
    // projection (2,0) at s = 2; ahead 3: aim (5,0); F = Seek((5,0)) = (2.4,-2.2).
    let mut world = World::default();
    world.set_path(
        "road",
        Path {
            points: vec![Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)],
            radius: 1.0,
            closed: false,
        },
    );
    let me = Vehicle::new(Vec2::new(2.0, 4.0), Vec2::new(0.0, -1.0), PARAMS);
    let node = |ahead: f32| Node::PathFollowing {
        path: "road".into(),
        prediction_time: 1.0.into(),
        ahead_distance: ahead.into(),
        direction: PathDirection::Forward,
        corrective: false,
        own: false,
    };
    let (force, guide) = trace_one(node(3.0), &world, &[me], &[]);
    assert_eq!(
        guide,
        Guide::Path {
            predicted: Vec2::new(2.0, 3.0),
            projection: Vec2::new(2.0, 0.0),
            aim: Some(Vec2::new(5.0, 0.0)),
        }
    );
    assert_eq!(force, behaviors::seek(&me, Vec2::new(5.0, 0.0)));
    assert!((force - Vec2::new(2.4, -2.2)).abs().max_element() < 1e-5);
    // Ahead 30: the aim is the end of travel (10,10), which the force arrives at, slowing
    // within 30: o = (8,6), d = 10, speed = 4 * 10 / 30, F = o * (4/3 / 10) - v.
    let (force, guide) = trace_one(node(30.0), &world, &[me], &[]);
    let Guide::Path { aim: Some(aim), .. } = guide else {
        panic!("{guide:?}")
    };
    assert_eq!(aim, Vec2::new(10.0, 10.0));
    assert_eq!(force, behaviors::arrival(&me, aim, 30.0));
    let expected = Vec2::new(8.0, 6.0) * (4.0 / 30.0) - Vec2::new(0.0, -1.0);
    assert!((force - expected).abs().max_element() < 1e-5);
}

#[test]
fn the_corridor_guide_is_the_length_the_force_searched() {
    // min_length 2, lookahead 1, speed 3: L = 2 + 3 * 1 = 5. An obstacle of radius 1 ahead at
    // x = 5.9 reaches into the corridor (5.9 - 1 <= 5): full lateral force; at x = 6.1 it
    // does not (5.1 > 5): zero. The guide's length is that boundary.
    let node = Node::ObstacleAvoidance {
        min_length: 2.0.into(),
        lookahead_time: 1.0.into(),
    };
    let me = Vehicle::new(Vec2::ZERO, Vec2::new(3.0, 0.0), PARAMS);
    for (x, threatened) in [(5.9, true), (6.1, false)] {
        let mut world = World::default();
        world.obstacles.push(Obstacle {
            center: Vec2::new(x, 0.0),
            radius: 1.0,
        });
        let (force, guide) = trace_one(node.clone(), &world, &[me], &[]);
        assert_eq!(
            guide,
            Guide::Corridor {
                length: 5.0,
                half_width: 0.5
            }
        );
        assert_eq!(behaviors::detection_length(&me, 2.0, 1.0), 5.0);
        // sign(0) = +1: pushed to -side = (0,-1) at max_force 8
        let expected = if threatened {
            Vec2::new(0.0, -8.0)
        } else {
            Vec2::ZERO
        };
        assert_eq!(force, expected, "obstacle at x = {x}");
    }
}

#[test]
fn the_leader_guide_is_the_point_behind_the_leader_the_follower_arrives_at() {
    // Leader at (10,0) facing +x (velocity (2,0)); behind 3: the point (7,0). The follower at
    // (0,4), outside the sight zone, arrives there with slowing distance 2: o = (7,-4),
    // d = sqrt(65) > 2, so F = o / d * 4.
    let leader = Vehicle::new(Vec2::new(10.0, 0.0), Vec2::new(2.0, 0.0), PARAMS);
    let me = Vehicle::new(Vec2::new(0.0, 4.0), Vec2::ZERO, PARAMS);
    let (force, guide) = trace_one(
        Node::LeaderFollowing {
            leader: Target::NearestTagged("boss".into()),
            behind: 3.0.into(),
            slowing_distance: 2.0.into(),
            sight_length: 4.0.into(),
            sight_width: 2.0.into(),
        },
        &World::default(),
        &[me, leader],
        &["", "boss"],
    );
    assert_eq!(guide, Guide::Aim(Vec2::new(7.0, 0.0)));
    assert_eq!(force, behaviors::arrival(&me, Vec2::new(7.0, 0.0), 2.0));
    let expected = Vec2::new(7.0, -4.0) / 65f32.sqrt() * 4.0;
    assert!((force - expected).abs().max_element() < 1e-5);
}

#[test]
fn the_containment_guide_is_the_return_point_the_force_seeks() {
    // Bounds (-5,-5)..(5,5), margin 1, prediction 1. p = (3,1), v = (3,0): P = (6,1) is
    // outside; the return point is P clamped into (-4,-4)..(4,4): (4,1);
    // F = normalize((4,1) - p) * 4 - v = (4,0) - (3,0) = (1,0).
    let node = Node::Containment {
        bounds: Region::Rect((-5.0).into(), (-5.0).into(), 5.0.into(), 5.0.into()),
        prediction_time: 1.0.into(),
        margin: 1.0.into(),
    };
    let me = Vehicle::new(Vec2::new(3.0, 1.0), Vec2::new(3.0, 0.0), PARAMS);
    let (force, guide) = trace_one(node.clone(), &World::default(), &[me], &[]);
    assert_eq!(guide, Guide::Aim(Vec2::new(4.0, 1.0)));
    assert_eq!(force, Vec2::new(1.0, 0.0));
    let bounds = Rect::new(Vec2::splat(-5.0), Vec2::splat(5.0));
    assert_eq!(
        behaviors::containment_aim(&me, &bounds, 1.0, 1.0),
        Some(Vec2::new(4.0, 1.0))
    );
    // Inside: no force; the guide shows the predicted position that was checked, (1,1).
    let inside = Vehicle::new(Vec2::new(0.0, 1.0), Vec2::new(1.0, 0.0), PARAMS);
    let (force, guide) = trace_one(node, &World::default(), &[inside], &[]);
    assert_eq!(force, Vec2::ZERO);
    assert_eq!(guide, Guide::Aim(Vec2::new(1.0, 1.0)));
}

#[test]
fn the_feeler_guide_shows_the_feelers_their_hits_and_the_nearest_wall_point() {
    // A wall across x = 3 and one along y = -0.8. Agent at the origin moving (2,0):
    // L = 2 + 2 * 1 = 4, whiskers of 2 at ±90° reach (0, ±2). The central feeler meets x = 3
    // at (3,0); the right whisker meets y = -0.8 at (0,-0.8); the left one is free. The nearest
    // wall point within 0.5 + 0.5 = 1 is (0,-0.8).
    let mut world = World::default();
    world.set_walls(vec![
        graph_runtime::Wall::polyline(vec![Vec2::new(3.0, -5.0), Vec2::new(3.0, 5.0)]),
        graph_runtime::Wall::polyline(vec![Vec2::new(-5.0, -0.8), Vec2::new(2.0, -0.8)]),
    ]);
    let node = Node::WallAvoidance {
        min_length: 2.0.into(),
        lookahead_time: 1.0.into(),
        whisker_angle: 90.0.into(),
        margin: 0.5.into(),
    };
    let me = Vehicle::new(Vec2::ZERO, Vec2::new(2.0, 0.0), VehicleParams::default());
    let (force, guide) = trace_one(node, &world, &[me], &[]);
    let Guide::Feelers {
        tips,
        hits,
        nearest,
    } = guide
    else {
        panic!("{guide:?}")
    };
    let close = |a: Vec2, b: Vec2| (a - b).abs().max_element() < 1e-5;
    assert!(close(tips[0], Vec2::new(4.0, 0.0)), "{tips:?}");
    assert!(close(tips[1], Vec2::new(0.0, 2.0)), "{tips:?}");
    assert!(close(tips[2], Vec2::new(0.0, -2.0)), "{tips:?}");
    assert_eq!(hits[0], Some(Vec2::new(3.0, 0.0)));
    assert_eq!(hits[1], None);
    assert!(
        hits[2].is_some_and(|hit| close(hit, Vec2::new(0.0, -0.8))),
        "{hits:?}"
    );
    assert_eq!(nearest, Some(Vec2::new(0.0, -0.8)));
    assert_eq!(
        force,
        behaviors::wall_avoidance(&me, world.wall_index(), 2.0, 1.0, 90.0, 0.5)
    );
}

#[test]
fn the_wall_following_guide_is_the_nearest_wall_point_and_the_point_it_seeks() {
    // A wall along y = 0; agent at (0,2) moving (2,0), wall on its right, offset 1,
    // lookahead_time 1: q = (0,0), n = (0,1), t = (1,0), a = 2, aim (2,1). Beyond the range:
    // no guide and no force.
    let mut world = World::default();
    world.set_walls(vec![graph_runtime::Wall::polyline(vec![
        Vec2::new(-10.0, 0.0),
        Vec2::new(10.0, 0.0),
    ])]);
    let node = |range: f32| Node::WallFollowing {
        side: graph_runtime::WallSide::Right,
        offset: 1.0.into(),
        lookahead_time: 1.0.into(),
        range: range.into(),
    };
    let me = Vehicle::new(
        Vec2::new(0.0, 2.0),
        Vec2::new(2.0, 0.0),
        VehicleParams::default(),
    );
    let (force, guide) = trace_one(node(3.0), &world, &[me], &[]);
    assert_eq!(
        guide,
        Guide::WallFollow {
            nearest: Vec2::ZERO,
            aim: Vec2::new(2.0, 1.0)
        }
    );
    let expected = (Vec2::new(2.0, 1.0) - me.position).normalize() * 5.0 - me.velocity;
    assert!((force - expected).length() < 1e-5, "{force} != {expected}");
    assert_eq!(
        trace_one(node(1.5), &world, &[me], &[]),
        (Vec2::ZERO, Guide::None)
    );
}
