//! One tick core for every driver (issue 43): each preset scene's agents stepped by
//! `Simulation` and, from the same start, by a `Crowd` holding the scene's programs as its
//! groups (`Crowd::step`: the game's own vehicles, stepped with walls, stuck clocks, jumps and
//! falls) move bit for bit alike every tick, with the same stuck clocks, motions and jump
//! events; the C interface's crowd (`sg_crowd_step`) too, by trajectory hash. A game that keeps each agent's crowd memory itself (`CrowdAgent`, moved in and
//! out around every step, as the Bevy plugin keeps it on entities) moves them the same, even
//! when its crowd is made again from nothing now and then.

use graph_runtime::{AgentState, CrowdAgent, compile_with};
use tests::drivers::{DT, c_hash, crowd_hash, crowd_of, motion_bits as bits, simulation_hash};
use tests::{preset_scene_names, run_preset};
/// Ten seconds: long enough for arrivals, jams, jumps and falls in the presets that have them.
const TICKS: u32 = 600;

#[test]
fn simulation_and_crowd_step_move_every_preset_alike() {
    let scenes = preset_scene_names();
    assert!(scenes.len() >= 20, "{} presets", scenes.len());
    let mut checked = Vec::new();
    for name in scenes.iter().cloned() {
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
    for name in preset_scene_names() {
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

/// A crowd's steering runs in parallel tasks as a simulation's does (tasks of 24 Reciprocal
/// agents, as many as the threads allow: `BENCHMARKS.md`, issue 47). The VIP preset's 301
/// Reciprocal agents, stepped by a `Crowd` on pools of 1, 3 and 16 threads (1, 15 and 13
/// tasks), move bit for bit as the simulation on one thread, every tick.
#[test]
fn a_crowds_steering_is_the_same_on_any_thread_count() {
    let (assets, simulation) = run_preset("vip.scene.ron");
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool")
    };
    let mut simulation = simulation;
    let tags = simulation.tags().to_vec();
    let mut runs: Vec<_> = [1, 3, 16]
        .into_iter()
        .map(|threads| (threads, on(threads), crowd_of(&assets, &simulation)))
        .collect();
    let one = on(1);
    for tick in 1..=120 {
        one.install(|| simulation.step(DT));
        for (threads, pool, (crowd, world, vehicles)) in &mut runs {
            pool.install(|| crowd.step(world, vehicles, &tags, DT));
            for (agent, (ours, theirs)) in vehicles.iter().zip(simulation.vehicles()).enumerate() {
                assert_eq!(
                    bits(ours),
                    bits(theirs),
                    "agent {agent} at tick {tick}, crowd on {threads} threads"
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

/// Five seconds of every preset, by the three drivers of this workspace (the Bevy plugin's
/// tests add the fourth, against the same hashes).
const HASHED_TICKS: u32 = 300;

#[test]
fn simulation_crowd_and_the_c_interface_give_every_preset_one_trajectory_hash() {
    let scenes = preset_scene_names();
    assert!(scenes.len() >= 20, "{} presets", scenes.len());
    for name in &scenes {
        let simulation = simulation_hash(name, HASHED_TICKS);
        assert_eq!(
            crowd_hash(name, HASHED_TICKS),
            simulation,
            "{name}: Crowd::step"
        );
        assert_eq!(
            c_hash(name, HASHED_TICKS),
            simulation,
            "{name}: sg_crowd_step"
        );
    }
}
