//! Going back in a recorded run (issue 45): the state a recording seeks to is the state the
//! straight run had at that tick, bit for bit, for every preset; a fork with no edit runs as
//! the original did, and a fork with an edit as a run edited at that tick; a world edited and
//! agents dragged while recording are put back as each step saw them (seeking, or advancing
//! tick by tick); the memory budget thins
//! the keyframes (or drops the oldest part) and the seeks stay exact, also when the designer
//! sets a lower budget part-way.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use glam::Vec2;
use graph_runtime::rewind::{Recording, SeekError};
use graph_runtime::{AgentRng, Simulation};
use tests::drivers::motion_bits;
use tests::{preset_scene_names, presets_dir, run_preset};

const DT: f32 = 1.0 / 60.0;

/// The bits of everything an agent shows: its vehicle, stuck clock and motion.
fn state_hash(simulation: &Simulation) -> u64 {
    let mut hasher = DefaultHasher::new();
    for (agent, vehicle) in simulation.vehicles().iter().enumerate() {
        motion_bits(vehicle).hash(&mut hasher);
        simulation.stuck_for(agent).to_bits().hash(&mut hasher);
        format!("{:?}", simulation.motion(agent)).hash(&mut hasher);
    }
    for force in simulation.forces() {
        force.to_array().map(f32::to_bits).hash(&mut hasher);
    }
    (
        simulation.tick(),
        simulation.wall_crossings(),
        simulation.falls(),
    )
        .hash(&mut hasher);
    hasher.finish()
}

/// Moves every target of the world a little, as a cursor would, by the tick.
fn move_targets(simulation: &mut Simulation) {
    let t = simulation.tick() as f32 * DT;
    let names: Vec<(String, Vec2)> = (simulation.world().targets())
        .map(|(name, at)| (name.to_owned(), at))
        .collect();
    for (name, at) in names {
        let moved = at + Vec2::new(t.sin(), t.cos()) * 0.05;
        assert!(simulation.move_target(&name, moved));
    }
}

/// Runs `simulation` for `ticks`, moving its targets before each step, recording it: the
/// recording, and the state's hash at each tick (index 0: the start).
fn record(simulation: &mut Simulation, ticks: u64, budget: usize) -> (Recording, Vec<u64>) {
    let mut recording = Recording::new(simulation, budget);
    let mut hashes = vec![state_hash(simulation)];
    for _ in 0..ticks {
        move_targets(simulation);
        recording.record(simulation, DT);
        simulation.step(DT);
        hashes.push(state_hash(simulation));
    }
    (recording, hashes)
}

#[test]
fn every_preset_seeks_to_the_state_its_straight_run_had() {
    let mut rng = AgentRng::new(45, 0);
    for name in preset_scene_names() {
        let (assets, mut simulation) = run_preset(&name);
        let (recording, hashes) = record(&mut simulation, 150, 64 << 20);
        assert_eq!((recording.first(), recording.last()), (0, 150), "{name}");
        // A simulation of the scene made afresh, sent to 8 ticks at random, and to the ends.
        let mut other = Simulation::new(&assets).expect("the preset runs");
        let mut ticks: Vec<u64> = (0..8).map(|_| (rng.unit() * 150.0) as u64).collect();
        ticks.extend([0, 150, 60, 59]);
        for tick in ticks {
            recording.seek(&mut other, tick).expect("recorded");
            assert_eq!(other.tick(), tick, "{name}");
            assert_eq!(
                state_hash(&other),
                hashes[tick as usize],
                "{name} at tick {tick}"
            );
        }
    }
}

#[test]
fn a_hundred_random_ticks_of_a_long_run_are_exact_and_forks_run_as_the_original() {
    let (assets, mut simulation) = run_preset("four_way.scene.ron");
    let (recording, hashes) = record(&mut simulation, 600, 64 << 20);
    // A keyframe every 60 ticks, each taken before its tick's step: 0 to 540.
    assert_eq!(recording.keyframe_count(), 10);
    let mut other = Simulation::new(&assets).expect("the preset runs");
    let mut rng = AgentRng::new(46, 0);
    for _ in 0..100 {
        let tick = (rng.unit() * 601.0).min(600.0) as u64;
        recording.seek(&mut other, tick).expect("recorded");
        assert_eq!(state_hash(&other), hashes[tick as usize], "tick {tick}");
    }
    // A fork with no edit from tick 250, recorded: it runs as the original did, and the
    // recording keeps being exact through the fork.
    let mut forked = recording.clone();
    forked.seek(&mut other, 250).expect("recorded");
    for (tick, &hash) in hashes.iter().enumerate().skip(251) {
        move_targets(&mut other);
        forked.record(&other, DT);
        other.step(DT);
        assert_eq!(state_hash(&other), hash, "fork at tick {tick}");
    }
    assert_eq!(forked.last(), 600);
    // Out of the recording: a clear error.
    assert_eq!(
        recording.seek(&mut other, 601),
        Err(SeekError::NotRecorded {
            tick: 601,
            first: 0,
            last: 600
        })
    );
}

#[test]
fn a_fork_with_an_edit_runs_as_a_run_edited_at_that_tick() {
    let (assets, mut simulation) = run_preset("four_way.scene.ron");
    let (recording, hashes) = record(&mut simulation, 300, 64 << 20);
    // The edit: a wall across the middle, and every group on the boids preset graph.
    let edit = |simulation: &mut Simulation| {
        let wall = graph_runtime::Wall::polyline(vec![Vec2::new(-3.0, 0.5), Vec2::new(3.0, 0.5)]);
        let mut walls = simulation.world().walls().to_vec();
        walls.push(wall);
        simulation.world_mut().set_walls(walls);
        let graph = graph_runtime::Graph::load(&presets_dir().join("boids.graph.ron"))
            .expect("the graph loads");
        let program = Arc::new(graph_runtime::compile(&graph).expect("compiles"));
        let params = program.parameters(&BTreeMap::new()).expect("no overrides");
        for group in 0..simulation.groups().len() {
            let _bind_errors =
                (simulation.set_program(group, Arc::clone(&program), params.clone()))
                    .expect("within the limits");
        }
    };
    // Edited in a straight run at tick 120, then 120 ticks on.
    let mut straight = Simulation::new(&assets).expect("the preset runs");
    for _ in 0..120 {
        move_targets(&mut straight);
        straight.step(DT);
    }
    edit(&mut straight);
    // Sent back to tick 120 from the end of the recording, edited, stepped and recorded on.
    let mut forked = recording.clone();
    recording.seek(&mut simulation, 120).expect("recorded");
    assert_eq!(state_hash(&simulation), state_hash(&straight));
    edit(&mut simulation);
    for _ in 0..120 {
        for run in [&mut straight, &mut simulation] {
            move_targets(run);
        }
        forked.record(&simulation, DT);
        for run in [&mut straight, &mut simulation] {
            run.step(DT);
        }
        assert_eq!(state_hash(&simulation), state_hash(&straight));
    }
    assert_ne!(
        state_hash(&simulation),
        hashes[240],
        "the edit changed the run"
    );
    // The fork's recording seeks within the fork.
    let mut again = Simulation::new(&assets).expect("the preset runs");
    forked.seek(&mut again, 200).expect("recorded");
    let mut straight_at_200 = Simulation::new(&assets).expect("the preset runs");
    for _ in 0..120 {
        move_targets(&mut straight_at_200);
        straight_at_200.step(DT);
    }
    edit(&mut straight_at_200);
    for _ in 120..200 {
        move_targets(&mut straight_at_200);
        straight_at_200.step(DT);
    }
    assert_eq!(state_hash(&again), state_hash(&straight_at_200));
}

#[test]
fn past_the_budget_the_keyframes_thin_out_and_seeks_stay_exact() {
    let (assets, mut simulation) = run_preset("four_way.scene.ron");
    let one = simulation.keyframe().bytes();
    // Room for about 4 keyframes: 600 ticks at one a second would take 11.
    let (recording, hashes) = record(&mut simulation, 600, one * 4 + one / 2);
    assert!(
        recording.bytes() <= one * 4 + one / 2 + 64 * 1024,
        "{}",
        recording.bytes()
    );
    assert_eq!(recording.keyframe_every(), 240);
    assert_eq!(recording.keyframe_count(), 3);
    let mut other = Simulation::new(&assets).expect("the preset runs");
    for tick in [0, 1, 239, 240, 241, 479, 480, 599, 600] {
        recording.seek(&mut other, tick).expect("recorded");
        assert_eq!(state_hash(&other), hashes[tick as usize], "tick {tick}");
    }
}

#[test]
fn a_budget_set_lower_part_way_thins_the_recording_at_once_and_seeks_stay_exact() {
    let (assets, mut simulation) = run_preset("four_way.scene.ron");
    let one = simulation.keyframe().bytes();
    // 600 ticks within a large budget: a keyframe a second, taken before the steps from
    // ticks 0, 60, … 540: 10 of them.
    let (mut recording, mut hashes) = record(&mut simulation, 600, one * 100);
    assert_eq!(recording.keyframe_count(), 10);
    // Room for about 4: every other one goes, twice (every 240 ticks: 0, 240, 480).
    recording.set_budget(one * 4 + one / 2);
    assert_eq!(recording.budget(), one * 4 + one / 2);
    assert!(
        recording.bytes() <= one * 4 + one / 2,
        "{}",
        recording.bytes()
    );
    assert_eq!(recording.keyframe_every(), 240);
    assert_eq!(recording.keyframe_count(), 3);
    // The run goes on within the new budget, as a recording that always had it.
    for _ in 0..121 {
        move_targets(&mut simulation);
        recording.record(&simulation, DT);
        simulation.step(DT);
        hashes.push(state_hash(&simulation));
    }
    assert_eq!(
        recording.keyframe_count(),
        4,
        "a keyframe before the step from 720"
    );
    assert!(
        recording.bytes() <= one * 4 + one / 2,
        "{}",
        recording.bytes()
    );
    let mut other = Simulation::new(&assets).expect("the preset runs");
    for tick in [0, 1, 239, 240, 359, 600, 719, 720, 721] {
        recording.seek(&mut other, tick).expect("recorded");
        assert_eq!(state_hash(&other), hashes[tick as usize], "tick {tick}");
    }
    // A larger budget thins nothing more.
    recording.set_budget(one * 100);
    assert_eq!(recording.keyframe_count(), 4);
}

#[test]
fn a_world_edited_while_recording_is_put_back_as_each_step_saw_it() {
    let (assets, mut simulation) = run_preset("four_way.scene.ron");
    let mut recording = Recording::new(&simulation, 64 << 20);
    let mut hashes = vec![state_hash(&simulation)];
    for tick in 0..200 {
        // At ticks 90 and 150 (between keyframes), a wall across the middle is added, then
        // taken away.
        if tick == 90 || tick == 150 {
            let mut walls = simulation.world().walls().to_vec();
            if tick == 90 {
                let wall = Vec2::new(-4.0, -0.5);
                walls.push(graph_runtime::Wall::polyline(vec![
                    wall,
                    Vec2::new(4.0, -0.5),
                ]));
            } else {
                walls.pop();
            }
            simulation.world_mut().set_walls(walls);
        }
        move_targets(&mut simulation);
        recording.record(&simulation, DT);
        simulation.step(DT);
        hashes.push(state_hash(&simulation));
    }
    let mut other = Simulation::new(&assets).expect("the preset runs");
    // Advanced tick by tick from 80 across both edits (as the preview's ghosts are), every
    // tick is the run's.
    recording.seek(&mut other, 80).expect("recorded");
    let mut cursor = graph_runtime::rewind::Cursor::default();
    for (tick, hash) in hashes.iter().enumerate().skip(81) {
        recording
            .advance(&mut other, &mut cursor)
            .expect("recorded");
        assert_eq!(state_hash(&other), *hash, "advanced to tick {tick}");
    }
    let past = recording.advance(&mut other, &mut cursor);
    assert!(matches!(
        past,
        Err(SeekError::NotRecorded { tick: 201, .. })
    ));
    for tick in [89, 90, 91, 100, 119, 120, 149, 150, 151, 170, 200, 60, 0] {
        recording.seek(&mut other, tick).expect("recorded");
        assert_eq!(state_hash(&other), hashes[tick as usize], "tick {tick}");
        // The world as the last step to the tick saw it: the wall there from step 90 to 149.
        let walled = (91..=150).contains(&tick);
        let walls = other.world().walls().len();
        assert_eq!(
            walls,
            simulation.world().walls().len() + usize::from(walled),
            "tick {tick}"
        );
    }
}

#[test]
fn agents_dragged_while_recording_keep_their_ticks_and_the_oldest_part_goes_past_the_budget() {
    let (assets, mut simulation) = run_preset("four_way.scene.ron");
    let one = simulation.keyframe().bytes();
    // Room for about 25 keyframes; agent 0 is dragged on each of the 30 ticks from 100, so
    // each of those ticks keeps a keyframe of its own and the oldest part of the run goes.
    let mut recording = Recording::new(&simulation, one * 25);
    // The state each step started from (the drag done), then the end's.
    let mut hashes = Vec::new();
    for tick in 0..200_u64 {
        if (100..130).contains(&tick) {
            simulation.vehicles_mut()[0].position += Vec2::new(0.05, 0.0);
        }
        move_targets(&mut simulation);
        hashes.push(state_hash(&simulation));
        recording.record(&simulation, DT);
        simulation.step(DT);
    }
    hashes.push(state_hash(&simulation));
    assert!(
        recording.bytes() <= one * 25,
        "{} of {}",
        recording.bytes(),
        one * 25
    );
    // The 30 dragged ticks' keyframes alone pass the budget: the run before the drag went,
    // and some of the drag's first ticks.
    let first = recording.first();
    assert!((100..130).contains(&first), "{first}");
    assert_eq!(recording.last(), 200);
    let mut other = Simulation::new(&assets).expect("the preset runs");
    for tick in [first, first + 1, 115, 129, 130, 131, 160, 199, 200] {
        recording.seek(&mut other, tick).expect("recorded");
        assert_eq!(state_hash(&other), hashes[tick as usize], "tick {tick}");
    }
    assert_eq!(
        recording.seek(&mut other, 0),
        Err(SeekError::NotRecorded {
            tick: 0,
            first: recording.first(),
            last: 200
        })
    );
}
