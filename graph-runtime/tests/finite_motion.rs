//! Finite always: whatever a game builds in code (a path with a NaN point, a vehicle with an
//! absurd mass, a huge tick), the runtime neither panics nor lets a NaN or an infinity into a
//! vehicle's state (issue 10). Files are validated where they are read; these tests feed the
//! values through the API, which is what a game can still do.

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::math::truncate;
use graph_runtime::{
    AgentGroup, AgentSpawn, Graph, Link, Node, Path, PathDirection, Scene, SceneAssets, Simulation,
    Spawn, Trace, Vehicle, VehicleParams,
};
use proptest::prelude::*;

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
        own: false,
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
        groups: vec![AgentGroup::new(
            "walkers",
            "walk.graph.ron",
            Spawn::Agents(vec![
                AgentSpawn {
                    position: Vec2::new(1.0, 2.0),
                    velocity: Vec2::new(1.0, 0.0),
                },
                AgentSpawn {
                    position: Vec2::new(-3.0, -1.0),
                    velocity: Vec2::ZERO,
                },
            ]),
        )],
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

// ---------------------------------------------------------------------------------------------
// The vehicle step and truncate
// ---------------------------------------------------------------------------------------------

fn vehicle(mass: f32, max_force: f32, max_speed: f32) -> Vehicle {
    Vehicle::new(
        Vec2::ZERO,
        Vec2::ZERO,
        VehicleParams {
            mass,
            max_force,
            max_speed,
            radius: 0.5,
        },
    )
}

#[test]
fn truncate_of_inf_and_zero_to_5_is_5_along_x() {
    // The case: it returned NaN, which Vehicle::step then kept.
    assert_eq!(
        truncate(Vec2::new(f32::INFINITY, 0.0), 5.0),
        Vec2::new(5.0, 0.0)
    );
}

#[test]
fn a_mass_of_1e_45_does_not_overflow_the_step() {
    // force 10 / mass 1e-45 = 1e46 overflows f32; the velocity still reaches exactly the top
    // speed along the force, and the position moves by speed * dt.
    let mut light = vehicle(1e-45, 10.0, 5.0);
    light.step(Vec2::new(0.0, 10.0), 0.5);
    assert_eq!(light.velocity, Vec2::new(0.0, 5.0));
    assert_eq!(light.position, Vec2::new(0.0, 2.5));
    assert_eq!(light.forward, Vec2::Y);
}

#[test]
fn a_dt_of_3e38_does_not_overflow_the_step() {
    // force 10 (mass 1) * 3e38 overflows; the velocity is capped at max_speed 5, and the
    // position 5 * 3e38 = 1.5e39 is beyond f32: it stops at f32::MAX.
    let mut slow = vehicle(1.0, 10.0, 5.0);
    slow.step(Vec2::new(-10.0, 0.0), 3e38);
    assert_eq!(slow.velocity, Vec2::new(-5.0, 0.0));
    assert_eq!(slow.position, Vec2::new(-f32::MAX, 0.0));
    assert_eq!(slow.forward, Vec2::NEG_X);
    // and the next tick from there is still finite
    slow.step(Vec2::new(10.0, 10.0), 3e38);
    assert!(slow.position.is_finite() && slow.velocity.is_finite());
}

#[test]
fn non_finite_inputs_to_the_step_are_neutralised() {
    let mut v = vehicle(1.0, 10.0, 5.0);
    v.velocity = Vec2::new(1.0, 0.0);
    // A NaN or infinite tick does nothing.
    let before = v;
    v.step(Vec2::new(1.0, 1.0), f32::NAN);
    v.step(Vec2::new(1.0, 1.0), f32::INFINITY);
    assert_eq!(v, before);
    // An infinite steering force counts as zero: the vehicle coasts 1 * 0.5.
    v.step(Vec2::new(f32::INFINITY, 0.0), 0.5);
    assert_eq!(v.velocity, Vec2::new(1.0, 0.0));
    assert_eq!(v.position, Vec2::new(0.5, 0.0));
    // A zero or NaN mass applies no force.
    for mass in [0.0, -1.0, f32::NAN] {
        let mut massless = vehicle(mass, 10.0, 5.0);
        massless.step(Vec2::new(3.0, 0.0), 0.5);
        assert_eq!(massless.velocity, Vec2::ZERO, "mass {mass}");
        assert_eq!(massless.position, Vec2::ZERO, "mass {mass}");
    }
    // A broken state set from outside is repaired before stepping.
    let mut broken = vehicle(1.0, 10.0, 5.0);
    broken.position = Vec2::new(f32::NAN, f32::NEG_INFINITY);
    broken.velocity = Vec2::new(f32::NAN, 1.0);
    broken.forward = Vec2::new(f32::NAN, 0.0);
    broken.step(Vec2::ZERO, 0.5);
    assert_eq!(broken.position, Vec2::new(0.0, -f32::MAX));
    assert_eq!(broken.velocity, Vec2::ZERO);
    assert_eq!(broken.forward, Vec2::X);
}

/// A log-uniform positive number in `[10^low, 10^high]`, clamped to the finite f32 range.
fn log_uniform(low: f64, high: f64) -> impl Strategy<Value = f32> {
    (low..=high).prop_map(|exponent| {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "the value is clamped into the f32 range first"
        )]
        let value = 10f64
            .powf(exponent)
            .clamp(f64::from(f32::from_bits(1)), f64::from(f32::MAX)) as f32;
        value
    })
}

/// A force component anywhere from `-f32::MAX` to `f32::MAX`, most of them huge or tiny.
fn force_component() -> impl Strategy<Value = f32> {
    prop_oneof![
        log_uniform(-45.0, 38.53),
        log_uniform(-45.0, 38.53).prop_map(|x| -x),
        Just(0.0),
        Just(f32::MAX),
        Just(-f32::MAX),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_step_keeps_the_state_finite_for_extreme_masses_forces_and_dt(
        mass in log_uniform(-45.0, 38.0),
        max_force in prop_oneof![log_uniform(-45.0, 38.53), Just(0.0), Just(f32::MAX)],
        max_speed in prop_oneof![log_uniform(-45.0, 38.53), Just(0.0), Just(f32::MAX)],
        dt in prop_oneof![log_uniform(-45.0, 38.48), Just(0.0), Just(3e38f32)],
        forces in proptest::collection::vec((force_component(), force_component()), 1..8),
        start in (force_component(), force_component()),
    ) {
        let mut vehicle = vehicle(mass, max_force, max_speed);
        vehicle.position = Vec2::new(start.0, start.1);
        for tick in 0..64 {
            let (x, y) = forces[tick % forces.len()];
            vehicle.step(Vec2::new(x, y), dt);
            prop_assert!(vehicle.position.is_finite(), "tick {tick}: {vehicle:?}");
            prop_assert!(vehicle.velocity.is_finite(), "tick {tick}: {vehicle:?}");
            prop_assert!(vehicle.forward.is_finite(), "tick {tick}: {vehicle:?}");
            prop_assert!(
                (vehicle.forward.length() - 1.0).abs() < 1e-5,
                "tick {tick}: forward not unit: {vehicle:?}"
            );
            let speed = f64::from(vehicle.velocity.x).hypot(f64::from(vehicle.velocity.y));
            prop_assert!(
                speed <= f64::from(max_speed) * (1.0 + 1e-6) + 4.0 * f64::from(f32::from_bits(1)),
                "tick {tick}: speed {speed} above {max_speed}: {vehicle:?}"
            );
        }
    }

    #[test]
    fn truncate_is_finite_and_no_longer_than_max_for_any_finite_input(
        x in force_component(),
        y in force_component(),
        max in prop_oneof![log_uniform(-45.0, 38.53), Just(0.0), Just(f32::MAX)],
    ) {
        let truncated = truncate(Vec2::new(x, y), max);
        prop_assert!(truncated.is_finite(), "{x} {y} {max}: {truncated}");
        let length = f64::from(truncated.x).hypot(f64::from(truncated.y));
        // Up to rounding: a result in the subnormal range keeps only a few bits.
        let rounding = 4.0 * f64::from(f32::from_bits(1));
        prop_assert!(
            length <= f64::from(max) * (1.0 + 1e-6) + rounding,
            "{x} {y} {max}: {truncated}"
        );
    }
}
