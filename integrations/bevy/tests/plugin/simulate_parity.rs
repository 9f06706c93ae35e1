//! The boids preset stepped by the plugin in a headless app for 600 fixed ticks lands every
//! agent on the same bits as `steergraph simulate`: as the runtime's `Simulation` (what
//! `simulate` runs) and as a CSV written once by the `steergraph` binary.

use std::path::Path;

use bevy_ecs::entity::Entity;
use bevy_steergraph::{SteerAgent, SteerClock};
use bevy_transform::components::Transform;
use graph_runtime::{SceneAssets, Simulation, Vehicle};

use crate::common::{run_ticks, spawn};

const PRESETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../presets");
const SCENE: &str = "boids.scene.ron";
const TICKS: u64 = 600;
/// `steergraph simulate`'s default `--dt`.
const DT: f32 = 1.0 / 60.0;

/// Spawns the scene in a headless app, runs `TICKS` fixed ticks and returns the vehicles in
/// agent order, with their entities.
fn run_in_bevy(scene: &'static str) -> (Vec<(Entity, Vehicle)>, bevy_app::App) {
    let (mut app, entities) = spawn(Path::new(PRESETS), scene);
    run_ticks(&mut app, TICKS);
    assert_eq!(app.world().resource::<SteerClock>().ticks, TICKS);
    let vehicles = entities
        .iter()
        .map(|&entity| {
            let agent = app.world().get::<SteerAgent>(entity).expect("agent");
            (entity, agent.vehicle)
        })
        .collect();
    (vehicles, app)
}

#[test]
fn boids_in_bevy_match_steergraph_simulate_bit_for_bit_and_its_csv() {
    // The reference is exactly what `steergraph simulate SCENE --ticks 600` runs
    // (`app/src/cli/simulate.rs`: `SceneAssets::load`, `Simulation::new`, `step(dt)` per tick).
    let assets = SceneAssets::load(&Path::new(PRESETS).join(SCENE)).expect("preset loads");
    let mut simulation = Simulation::new(&assets).expect("preset runs");
    let start: Vec<_> = simulation.vehicles().iter().map(|v| v.position).collect();
    for _ in 0..TICKS {
        simulation.step(DT);
    }
    let expected = simulation.vehicles();

    let (actual, app) = run_in_bevy(SCENE);
    assert_eq!(actual.len(), 400, "the preset spawns 400 boids");
    assert_eq!(actual.len(), expected.len());
    for (agent, ((_, got), want)) in actual.iter().zip(expected).enumerate() {
        let bits = |v: &Vehicle| {
            [v.position.x, v.position.y, v.velocity.x, v.velocity.y].map(f32::to_bits)
        };
        assert_eq!(bits(got), bits(want), "agent {agent}: {got:?} != {want:?}");
    }
    // Not a flock standing still: in 10 s at about 3 units/s the boids travel tens of units
    // (every one more than 5).
    let least = start
        .iter()
        .zip(expected)
        .map(|(from, to)| from.distance(to.position))
        .fold(f32::INFINITY, f32::min);
    assert!(least > 5.0, "some boid moved only {least} units");

    // The Transform follows the vehicle in the XY plane.
    let (entity, vehicle) = actual[0];
    let transform = app.world().get::<Transform>(entity).expect("transform");
    assert_eq!(transform.translation.x, vehicle.position.x);
    assert_eq!(transform.translation.y, vehicle.position.y);

    // `tests/fixtures/boids.tick600.csv` is the header and the tick-600 rows of
    // `steergraph simulate presets/boids.scene.ron --ticks 600 --out boids.csv` (release build).
    let csv = include_str!("fixtures/boids.tick600.csv");
    let mut rows = 0;
    for line in csv.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let [tick, agent, x, y, vx, vy] = fields[..] else {
            panic!("bad row {line}");
        };
        assert_eq!(tick, "600");
        let agent: usize = agent.parse().expect("agent index");
        let (_, vehicle) = actual[agent];
        // Floats are written in shortest round-trip form, so printing ours must give the same text.
        let ours = [
            vehicle.position.x,
            vehicle.position.y,
            vehicle.velocity.x,
            vehicle.velocity.y,
        ]
        .map(|value| value.to_string());
        assert_eq!(ours, [x, y, vx, vy], "agent {agent}");
        rows += 1;
    }
    assert_eq!(rows, 400);
}

#[test]
fn each_agents_own_goal_from_its_scene_group_moves_it_as_in_steergraph_simulate() {
    // errands.scene.ron: every agent arrives at its own goal (random points of an area for
    // one group, a list of posts for the other), so this holds the goals handed over by
    // `spawn_scene` and `SteerGoals` to the runtime's own.
    let assets = SceneAssets::load(&Path::new(PRESETS).join("errands.scene.ron")).expect("loads");
    let mut simulation = Simulation::new(&assets).expect("runs");
    for _ in 0..TICKS {
        simulation.step(DT);
    }
    let (actual, app) = run_in_bevy("errands.scene.ron");
    assert_eq!(actual.len(), simulation.vehicles().len());
    for (agent, ((entity, got), want)) in actual.iter().zip(simulation.vehicles()).enumerate() {
        assert_eq!(
            got.position.to_array().map(f32::to_bits),
            want.position.to_array().map(f32::to_bits),
            "agent {agent}"
        );
        let goals = app
            .world()
            .get::<bevy_steergraph::SteerGoals>(*entity)
            .expect("own goals");
        assert_eq!(Some(&goals.0), simulation.own(agent), "agent {agent}");
    }
    // And they did go somewhere: agent 0 started in the west, 40 units or more from its goal
    // in the east field, and at up to 4 units/s it is more than 20 units closer after 10 s.
    let goal = simulation
        .own(0)
        .and_then(|own| own.goal("goal"))
        .expect("a goal");
    let start = Simulation::new(&assets).expect("runs").vehicles()[0].position;
    let (before, after) = (start.distance(goal), actual[0].1.position.distance(goal));
    assert!(
        before >= 40.0 && after < before - 20.0,
        "{before} -> {after}"
    );
}

#[test]
fn independent_facing_turns_the_transform_and_matches_steergraph_simulate() {
    // The sentry preset: the sentries' facing follows the intruder, not their motion.
    let assets = SceneAssets::load(&Path::new(PRESETS).join("sentry.scene.ron")).expect("loads");
    let mut simulation = Simulation::new(&assets).expect("runs");
    for _ in 0..TICKS {
        simulation.step(DT);
    }
    let (actual, app) = run_in_bevy("sentry.scene.ron");
    assert_eq!(actual.len(), simulation.vehicles().len());
    for (agent, ((entity, got), want)) in actual.iter().zip(simulation.vehicles()).enumerate() {
        let bits = |v: &Vehicle| {
            [
                v.position.x,
                v.position.y,
                v.velocity.x,
                v.velocity.y,
                v.orientation,
                v.angular_velocity,
            ]
            .map(f32::to_bits)
        };
        assert_eq!(bits(got), bits(want), "agent {agent}");
        assert!(got.turning.independent_facing, "agent {agent}");
        // The rotation is the facing about +z, not the heading.
        let transform = app.world().get::<Transform>(*entity).expect("transform");
        let expected = bevy_math::Quat::from_rotation_z(got.facing());
        assert!(
            transform.rotation.angle_between(expected) < 1e-4,
            "agent {agent}: {:?} against facing {}",
            transform.rotation,
            got.facing()
        );
    }
    // A sentry's facing is far from its heading at some point of this run (it looks at the
    // intruder while walking its beat): here, at the end, more than 10°.
    let (_, sentry) = actual[0];
    let apart = sentry
        .facing_direction()
        .angle_to(sentry.forward)
        .abs()
        .to_degrees();
    assert!(apart > 10.0, "{apart}°");
}
