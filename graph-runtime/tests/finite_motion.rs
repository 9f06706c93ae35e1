//! Finite always: whatever a game builds in code (a path with a NaN point, a vehicle with an
//! absurd mass, a huge tick), the runtime neither panics nor lets a NaN or an infinity into a
//! vehicle's state (issue 10). Files are validated where they are read; these tests feed the
//! values through the API, which is what a game can still do.

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    AgentGroup, AgentSpawn, Graph, Link, Node, Path, PathDirection, Scene, SceneAssets, Simulation,
    Spawn, Trace, Vehicle,
};

/// A scene of two agents that follow the path called `road` (set afterwards through
/// `world_mut`, so the test does not depend on what scene loading accepts).
fn path_following_simulation(direction: PathDirection) -> Simulation {
    let mut graph = Graph::default();
    let follow = graph.add(Node::PathFollowing {
        path: "road".into(),
        prediction_time: 0.5.into(),
        ahead_distance: 2.0.into(),
        direction,
        corrective: false,
    });
    graph.add(Node::Output {
        input: Link(Some(follow)),
    });
    let scene = Scene {
        paths: BTreeMap::from([(
            "road".to_owned(),
            Path {
                points: vec![Vec2::ZERO, Vec2::new(10.0, 0.0)],
                radius: 1.0,
                closed: false,
            },
        )]),
        groups: vec![AgentGroup {
            name: "walkers".to_owned(),
            graph: "walk.graph.ron".to_owned(),
            spawn: Spawn::Agents(vec![
                AgentSpawn {
                    position: Vec2::new(1.0, 2.0),
                    velocity: Vec2::new(1.0, 0.0),
                },
                AgentSpawn {
                    position: Vec2::new(-3.0, -1.0),
                    velocity: Vec2::ZERO,
                },
            ]),
            vehicle: None,
            tags: Vec::new(),
            parameters: BTreeMap::new(),
        }],
        ..Scene::default()
    };
    let assets = SceneAssets {
        scene,
        origin: "test".to_owned(),
        graphs: BTreeMap::from([("walk.graph.ron".to_owned(), graph)]),
        flow_fields: BTreeMap::new(),
    };
    Simulation::new(&assets).expect("a valid scene")
}

fn assert_all_finite(simulation: &Simulation) {
    for (index, vehicle) in simulation.vehicles().iter().enumerate() {
        assert!(
            vehicle.position.is_finite()
                && vehicle.velocity.is_finite()
                && vehicle.forward.is_finite(),
            "agent {index}: {vehicle:?}"
        );
    }
}

/// Puts `points` in as the road, then steps and traces: nothing may panic and the agents,
/// who cannot follow an unusable path, get no force (the path counts as having no points).
fn follow_a_broken_road(points: &[Vec2], closed: bool) {
    for direction in [PathDirection::Forward, PathDirection::Backward] {
        let mut simulation = path_following_simulation(direction);
        simulation.world_mut().set_path(
            "road",
            Path {
                points: points.to_vec(),
                radius: 1.0,
                closed,
            },
        );
        assert!(simulation.rebind().is_empty());
        let start: Vec<Vehicle> = simulation.vehicles().to_vec();
        for _ in 0..30 {
            simulation.step(1.0 / 60.0);
            let mut trace = Trace::default();
            // The preview's path: trace -> guide. It must not panic either.
            let force = simulation.trace(0, 1.0 / 60.0, &mut trace);
            assert_eq!(force, Some(Vec2::ZERO));
            assert!(!trace.entries.is_empty());
        }
        assert_all_finite(&simulation);
        assert_eq!(simulation.forces(), &[Vec2::ZERO, Vec2::ZERO]);
        // No force: they coast at their initial velocity.
        assert_eq!(
            simulation.vehicles()[0].position,
            (0..30).fold(start[0].position, |p, _| p + start[0].velocity
                * (1.0 / 60.0))
        );
    }
}

#[test]
fn a_path_with_a_nan_point_does_not_panic_path_following() {
    follow_a_broken_road(
        &[Vec2::ZERO, Vec2::new(f32::NAN, 3.0), Vec2::new(10.0, 0.0)],
        false,
    );
    follow_a_broken_road(&[Vec2::new(5.0, f32::NAN)], false);
}

#[test]
fn a_path_with_a_1e39_point_does_not_panic_path_following() {
    // 1e39 does not fit in an f32: read from text it becomes +inf.
    let huge: f32 = "1e39".parse().expect("parses to inf");
    assert_eq!(huge, f32::INFINITY);
    follow_a_broken_road(&[Vec2::ZERO, Vec2::new(huge, 0.0)], false);
    follow_a_broken_road(&[Vec2::new(-huge, 0.0), Vec2::new(1.0, 1.0)], true);
}

#[test]
fn a_path_whose_length_overflows_does_not_panic_path_following() {
    follow_a_broken_road(&[Vec2::new(-3e38, 0.0), Vec2::new(3e38, 0.0)], true);
    follow_a_broken_road(&[Vec2::new(0.0, -2e19), Vec2::new(0.0, 2e19)], false);
}

#[test]
fn a_healthy_road_still_moves_the_agents_after_the_broken_one_is_fixed() {
    // The guard is specific to broken paths: restore a good road and the agents follow it.
    let mut simulation = path_following_simulation(PathDirection::Forward);
    simulation.world_mut().set_path(
        "road",
        Path {
            points: vec![Vec2::ZERO, Vec2::new(f32::NAN, 0.0)],
            radius: 1.0,
            closed: false,
        },
    );
    simulation.step(0.1);
    assert_eq!(simulation.forces()[0], Vec2::ZERO);
    simulation.world_mut().set_path(
        "road",
        Path {
            points: vec![Vec2::ZERO, Vec2::new(10.0, 0.0)],
            radius: 1.0,
            closed: false,
        },
    );
    simulation.step(0.1);
    assert_ne!(simulation.forces()[0], Vec2::ZERO);
    assert_all_finite(&simulation);
}
