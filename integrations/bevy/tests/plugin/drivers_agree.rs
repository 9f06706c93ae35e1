//! The plugin steps agents with the runtime's `Crowd::step`, as every other driver does: on
//! every preset scene it gives the same trajectory as `Simulation`, a game's `Crowd` and the
//! C interface's crowd (one hash each, over every tick); and a scene with tags and an agent
//! stuck at a wall keeps the same stuck clocks as the simulation, bit for bit.

use std::path::Path;

use bevy_app::App;
use bevy_ecs::entity::Entity;
use bevy_steergraph::{AgentBrain, SteerAgent};
use graph_runtime::{SceneAssets, Simulation, Vehicle};
use tests::drivers::{Trajectory, c_hash, crowd_hash, simulation_hash};

use crate::common::{run_ticks, spawn};

const PRESETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../presets");
/// Five seconds of every preset.
const TICKS: u64 = 300;

fn vehicles(app: &App, entities: &[Entity]) -> Vec<Vehicle> {
    entities
        .iter()
        .map(|&entity| {
            app.world()
                .get::<SteerAgent>(entity)
                .expect("agent")
                .vehicle
        })
        .collect()
}

/// The plugin's run of preset `scene`, `ticks` fixed ticks, hashed as the other drivers are.
fn bevy_hash(scene: &str, ticks: u64) -> u64 {
    let (mut app, entities) = spawn(Path::new(PRESETS), scene);
    let mut trajectory = Trajectory::default();
    for tick in 1..=ticks {
        run_ticks(&mut app, tick);
        trajectory.tick(vehicles(&app, &entities));
    }
    trajectory.finish()
}

#[test]
fn simulation_crowd_c_and_bevy_give_every_preset_one_trajectory_hash() {
    let scenes = tests::preset_scene_names();
    assert!(scenes.len() >= 20, "{} presets", scenes.len());
    let ticks = TICKS as u32;
    for scene in &scenes {
        let simulation = simulation_hash(scene, ticks);
        assert_eq!(crowd_hash(scene, ticks), simulation, "{scene}: Crowd::step");
        assert_eq!(c_hash(scene, ticks), simulation, "{scene}: sg_crowd_step");
        assert_eq!(
            bevy_hash(scene, TICKS),
            simulation,
            "{scene}: the Bevy plugin"
        );
    }
}

/// Hunters (the predator preset's graph) chase the nearest agent tagged "prey"; the prey
/// seek a goal behind a wall they cannot pass, and stand stuck against it.
const TAGGED_AND_STUCK: &str = r#"(
    format: "steergraph.scene",
    version: 1,
    bounds: (min: (-30.0, -20.0), max: (30.0, 20.0)),
    seed: 3,
    targets: {"goal": (20.0, 0.0)},
    walls: [(points: [(10.0, -8.0), (10.0, 8.0)], closed: false)],
    groups: [
        (
            name: "prey",
            graph: "seek_goal.graph.ron",
            spawn: Agents([
                (position: (2.0, 0.0), velocity: (1.0, 0.0)),
                (position: (0.0, 3.0), velocity: (1.0, 0.0)),
            ]),
            tags: ["prey"],
        ),
        (
            name: "hunters",
            graph: "predator.graph.ron",
            spawn: Agents([(position: (-20.0, -10.0), velocity: (0.0, 0.0))]),
        ),
    ],
)"#;

const SEEK_GOAL: &str = r#"(
    format: "steergraph.graph",
    version: 1,
    vehicle: (mass: 1.0, max_force: 8.0, max_speed: 4.0, radius: 0.5),
    nodes: {1: Seek(target: Named("goal")), 2: Output(input: 1)},
)"#;

#[test]
fn tags_and_a_stuck_agent_move_and_count_as_in_the_simulation() {
    let folder = tempfile::tempdir().expect("temp dir");
    let root = folder.path();
    std::fs::write(root.join("tagged.scene.ron"), TAGGED_AND_STUCK).expect("write");
    std::fs::write(root.join("seek_goal.graph.ron"), SEEK_GOAL).expect("write");
    std::fs::copy(
        Path::new(PRESETS).join("predator.graph.ron"),
        root.join("predator.graph.ron"),
    )
    .expect("copy");

    let assets = SceneAssets::load(&root.join("tagged.scene.ron")).expect("the scene loads");
    let mut simulation = Simulation::new(&assets).expect("the scene runs");
    let hunter_start = simulation.vehicles()[2].position;
    for _ in 0..TICKS {
        simulation.step(1.0 / 60.0);
    }
    let (mut app, entities) = spawn(root, "tagged.scene.ron");
    run_ticks(&mut app, TICKS);
    let ours = vehicles(&app, &entities);
    for (agent, (got, want)) in ours.iter().zip(simulation.vehicles()).enumerate() {
        let bits = |v: &Vehicle| {
            [v.position.x, v.position.y, v.velocity.x, v.velocity.y].map(f32::to_bits)
        };
        assert_eq!(bits(got), bits(want), "agent {agent}: {got:?} != {want:?}");
        let brain = app
            .world()
            .get::<AgentBrain>(entities[agent])
            .expect("brain");
        assert_eq!(
            brain.stuck_for().to_bits(),
            simulation.stuck_for(agent).to_bits(),
            "agent {agent}'s stuck clock"
        );
    }
    // Prey 0 walks straight at the goal: it reaches the wall (x = 10) within about 2.5 s at
    // 4 units/s and stands there asking to go on for the rest of the 5 s, stuck for over a
    // second. Prey 1, 3 units off the line, slides along the wall toward it instead: moving,
    // so its clock stays lower.
    let stuck = |agent: usize| {
        app.world()
            .get::<AgentBrain>(entities[agent])
            .expect("brain")
            .stuck_for()
    };
    assert!(
        stuck(0) > 1.0,
        "prey 0 stuck for only {} s at {:?}",
        stuck(0),
        ours[0].position
    );
    assert!(stuck(1) < stuck(0), "{} against {}", stuck(1), stuck(0));
    assert!(
        ours[0].position.x < 10.0 && ours[1].position.x < 10.0,
        "a prey passed the wall: {:?}",
        &ours[..2]
    );
    // The hunter found the tagged prey: it started 22 units or more from both and closed in.
    let prey = ours[0].position;
    assert!(
        ours[2].position.distance(prey) < hunter_start.distance(prey) - 10.0,
        "the hunter did not chase: from {hunter_start} to {}, prey at {prey}",
        ours[2].position
    );
}

/// The jammed-door preset through the plugin: each agent's brain reads the routes the
/// simulation planned for it, point for point, with the same status and number of plans.
#[test]
fn a_routed_preset_reads_the_same_routes_from_each_agents_brain_as_the_simulation() {
    let assets =
        SceneAssets::load(&Path::new(PRESETS).join("jammed.scene.ron")).expect("the preset loads");
    let mut simulation = Simulation::new(&assets).expect("the preset runs");
    for _ in 0..TICKS {
        simulation.step(1.0 / 60.0);
    }
    let (mut app, entities) = spawn(Path::new(PRESETS), "jammed.scene.ron");
    run_ticks(&mut app, TICKS);
    let mut following = 0;
    for (agent, &entity) in entities.iter().enumerate() {
        let brain = app.world().get::<AgentBrain>(entity).expect("brain");
        assert_eq!(
            brain.routes(),
            simulation.routes(agent),
            "agent {agent}'s routes"
        );
        // The 30 walkers navigate; the 8 blockers (Errands) have no route.
        let status = brain.route_status();
        assert_eq!(status.is_some(), agent < 30, "agent {agent}: {status:?}");
        following += usize::from(status == Some(graph_runtime::RouteStatus::Following));
    }
    // Five seconds in, every walker is following its route (round the jam by door B).
    assert_eq!(following, 30);
}
