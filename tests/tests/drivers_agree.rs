//! One tick core for every driver (issue 43): each preset scene's agents stepped by
//! `Simulation` and, from the same start, by a `Crowd` holding the scene's programs as its
//! groups (`Crowd::step`: the game's own vehicles, stepped with walls, stuck clocks, jumps and
//! falls) move bit for bit alike every tick, with the same stuck clocks, motions and jump
//! events. A game that keeps each agent's crowd memory itself (`CrowdAgent`, moved in and
//! out around every step, as the Bevy plugin keeps it on entities) moves them the same, even
//! when its crowd is made again from nothing now and then.

use graph_runtime::{
    AgentState, Crowd, CrowdAgent, Simulation, TagTable, Vehicle, World, compile_with,
};
use tests::{presets_with_suffix, run_preset};

/// The tick of the editor and `steergraph simulate`.
const DT: f32 = 1.0 / 60.0;
/// Ten seconds: long enough for arrivals, jams, jumps and falls in the presets that have them.
const TICKS: u32 = 600;

/// The bits of a vehicle that motion changes.
fn bits(vehicle: &Vehicle) -> [u32; 8] {
    let [px, py] = vehicle.position.to_array();
    let [vx, vy] = vehicle.velocity.to_array();
    let [fx, fy] = vehicle.forward.to_array();
    [
        px,
        py,
        vx,
        vy,
        fx,
        fy,
        vehicle.orientation,
        vehicle.angular_velocity,
    ]
    .map(f32::to_bits)
}

/// A crowd running `simulation`'s scene as it stands (its start): the scene's programs as its
/// groups, every agent in its group with its own goals, and the vehicles and tags to step.
fn crowd_of(
    assets: &graph_runtime::SceneAssets,
    simulation: &Simulation,
) -> (Crowd, World, Vec<Vehicle>) {
    let scene = &assets.scene;
    let world = World::from_scene(scene, &assets.flow_fields);
    let mut tags = TagTable::default();
    for group in &scene.groups {
        tags.mask(&group.tags).expect("the preset's tags fit");
    }
    let program = |index: usize| {
        let group = &scene.groups[index];
        let graph = &assets.graphs[&group.graph];
        compile_with(graph, &group.graph, &assets.graphs).expect("the preset compiles")
    };
    let first = &scene.groups[0];
    let mut crowd = Crowd::with_tags(program(0), &world, &tags, scene.seed, &first.parameters)
        .expect("the crowd binds");
    for (index, group) in scene.groups.iter().enumerate().skip(1) {
        let added = crowd
            .add_program(program(index), &world, &group.parameters)
            .expect("the group binds");
        assert_eq!(added, index);
    }
    for agent in 0..simulation.vehicles().len() {
        let group = simulation.group_of(agent).expect("every agent has a group");
        assert!(crowd.set_group(agent, group));
        let own = simulation.own(agent).expect("every agent has a state");
        for (name, point) in own.goals() {
            crowd
                .set_goal(agent, name, point)
                .expect("a scene's goal is valid");
        }
    }
    (crowd, world, simulation.vehicles().to_vec())
}

#[test]
fn simulation_and_crowd_step_move_every_preset_alike() {
    let scenes = presets_with_suffix(".scene.ron");
    assert!(scenes.len() >= 20, "{} presets", scenes.len());
    let mut checked = Vec::new();
    for scene in &scenes {
        let name = scene
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let (assets, mut simulation) = run_preset(&name);
        let (mut crowd, world, mut vehicles) = crowd_of(&assets, &simulation);
        let tags = simulation.tags().to_vec();
        let mut moved = 0.0_f32;
        for tick in 1..=TICKS {
            simulation.step(DT);
            crowd.step(&world, &mut vehicles, &tags, DT);
            for (agent, (ours, theirs)) in vehicles.iter().zip(simulation.vehicles()).enumerate() {
                assert_eq!(
                    bits(ours),
                    bits(theirs),
                    "{name}: agent {agent} parts at tick {tick}: crowd {ours:?}, simulation {theirs:?}"
                );
                assert_eq!(
                    crowd.stuck_for(agent).to_bits(),
                    simulation.stuck_for(agent).to_bits(),
                    "{name}: agent {agent}'s stuck clock at tick {tick}"
                );
                assert_eq!(
                    crowd.motion(agent),
                    simulation.motion(agent),
                    "{name}: agent {agent}'s motion at tick {tick}"
                );
            }
            assert_eq!(
                crowd.jump_events(),
                simulation.jump_events(),
                "{name}: jump events at tick {tick}"
            );
            assert_eq!(
                crowd.wall_crossings(),
                simulation.wall_crossings(),
                "{name}"
            );
            moved = moved.max(
                vehicles
                    .iter()
                    .map(|v| v.velocity.length())
                    .fold(0.0, f32::max),
            );
        }
        assert!(moved > 0.1, "{name}: nothing moved (fastest {moved})");
        checked.push(name);
    }
    assert_eq!(checked.len(), scenes.len());
}

/// How often the kept-agents driver makes its crowd again from nothing (as the Bevy plugin
/// does when the world changes): a prime, so the rebuilds fall on every phase of a preset.
const REBUILD_EVERY: u32 = 97;

#[test]
fn agents_kept_by_the_game_move_as_in_the_simulation() {
    let scenes = presets_with_suffix(".scene.ron");
    for scene in &scenes {
        let name = scene
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let (assets, mut simulation) = run_preset(&name);
        let (mut crowd, world, mut vehicles) = crowd_of(&assets, &simulation);
        let tags = simulation.tags().to_vec();
        let placeholder = || {
            let graph = &assets.graphs[&assets.scene.groups[0].graph];
            let program = compile_with(graph, "placeholder", &assets.graphs).expect("compiles");
            CrowdAgent::new(AgentState::new(&program, 0, 0))
        };
        // The game takes every agent's memory out of the crowd that set it up.
        let mut kept: Vec<CrowdAgent> = (0..vehicles.len())
            .map(|agent| {
                let mut slot = placeholder();
                assert!(crowd.swap_agent(agent, &mut slot));
                slot
            })
            .collect();
        for tick in 1..=TICKS {
            if tick % REBUILD_EVERY == 0 {
                crowd = crowd_of(&assets, &simulation).0;
            }
            for (agent, memory) in kept.iter_mut().enumerate() {
                assert!(crowd.swap_agent(agent, memory));
            }
            simulation.step(DT);
            crowd.step(&world, &mut vehicles, &tags, DT);
            for (agent, memory) in kept.iter_mut().enumerate() {
                assert!(crowd.swap_agent(agent, memory));
            }
            for (agent, ((ours, theirs), memory)) in vehicles
                .iter()
                .zip(simulation.vehicles())
                .zip(&kept)
                .enumerate()
            {
                assert_eq!(
                    bits(ours),
                    bits(theirs),
                    "{name}: agent {agent} parts at tick {tick}"
                );
                assert_eq!(
                    memory.stuck_for.to_bits(),
                    simulation.stuck_for(agent).to_bits(),
                    "{name}: agent {agent}'s kept stuck clock at tick {tick}"
                );
                assert_eq!(
                    memory.motion,
                    simulation.motion(agent),
                    "{name}: agent {agent}'s kept motion at tick {tick}"
                );
            }
        }
    }
}

#[test]
fn a_held_agent_stays_put_and_is_still_a_neighbor() {
    let (assets, simulation) = run_preset("boids.scene.ron");
    let (mut crowd, world, mut vehicles) = crowd_of(&assets, &simulation);
    let held = 3;
    let start = vehicles[held];
    assert!(crowd.hold(held));
    assert!(crowd.is_held(held));
    for _ in 0..60 {
        crowd.step(&world, &mut vehicles, &[], DT);
    }
    assert_eq!(bits(&vehicles[held]), bits(&start), "a held agent moved");
    assert_eq!(
        crowd.stuck_for(held),
        0.0,
        "a held agent is waiting, not stuck"
    );
    // The same run with the agent gone from the world: the others move differently, so they
    // saw the held agent as a neighbor.
    let (mut alone, _, mut without) = crowd_of(&assets, &simulation);
    without[held].position = glam::Vec2::splat(1.0e4);
    assert!(alone.hold(held));
    for _ in 0..60 {
        alone.step(&world, &mut without, &[], DT);
    }
    let parted = (0..vehicles.len())
        .filter(|&a| a != held && bits(&vehicles[a]) != bits(&without[a]))
        .count();
    assert!(parted > 0, "no agent noticed the held one");
    // Given its group back, it moves again.
    assert!(crowd.set_group(held, 0));
    for _ in 0..30 {
        crowd.step(&world, &mut vehicles, &[], DT);
    }
    assert_ne!(
        bits(&vehicles[held]),
        bits(&start),
        "released, it still stands"
    );
}
