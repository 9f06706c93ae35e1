//! Replay files of runs edited while they ran (format version 2, issue 45): a run recorded
//! as the editor records it ([`Recording`]), with a graph swapped in, a wall drawn, a target
//! moved, and a fork from a past tick with an edit, written down as changes by tick
//! ([`Edits::of_recording`]), replays to the same bits at every tick, through a file read
//! back; what a replay cannot hold is refused in words.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::Vec2;
use graph_runtime::replay::{Edits, ReplayFile, state_digest};
use graph_runtime::rewind::{DEFAULT_BUDGET, Recording};
use graph_runtime::{
    FileAccess, Graph, Node, Number, SceneAssets, Simulation, Turning, Wall, compile_keeping_source,
};

const DT: f32 = 1.0 / 60.0;

fn presets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets")
}

/// The scene `scene` of the presets, loaded.
fn assets(scene: &str) -> SceneAssets {
    SceneAssets::load(&presets().join(scene)).expect("preset loads")
}

/// Steps `simulation` to `tick`, each step recorded first as the editor records it.
fn run_to(simulation: &mut Simulation, recording: &mut Recording, tick: u64) {
    while simulation.tick() < tick {
        recording.record(simulation, DT);
        simulation.step(DT);
    }
}

/// The river's graph with its Separation weighted `weight` (the second input of its Blend),
/// compiled, swapped in for the river's one group as the editor swaps an edited graph in.
fn swap_separation_weight(simulation: &mut Simulation, assets: &SceneAssets, weight: f32) {
    let mut graph: Graph = assets.graphs.values().next().expect("a graph").clone();
    for node in graph.nodes.values_mut() {
        if let Node::Blend { inputs } = node {
            inputs[1].weight = Number::Literal(weight);
        }
    }
    let compiled = compile_keeping_source(&graph, "", &std::collections::BTreeMap::new());
    let program = Arc::new(compiled.expect("compiles"));
    let params = program.default_parameters();
    let vehicle = program.vehicle(&params);
    let turning = Turning::from(program.turning(&params));
    simulation
        .swap_program(0, (program, params), (vehicle, turning))
        .expect("swaps");
}

/// The river's scene with a wall across its middle, as the editor's scene document would
/// hold it after the wall was drawn.
fn wall_drawn(assets: &SceneAssets) -> graph_runtime::Scene {
    let mut scene = assets.scene.clone();
    scene.walls.push(Wall {
        points: vec![Vec2::new(0.0, -10.0), Vec2::new(0.0, 10.0)],
        closed: false,
    });
    scene
}

/// `edits` written down, read back as a file beside the river preset, and replayed from
/// tick 0 to `ticks`, recorded as the editor records the replay it plays: the state's digest
/// at every tick. The replay's own recording, written down again, holds the same edits (a
/// replay opened in the editor can be saved again).
fn replayed(edits: Edits, ticks: u64) -> Vec<u64> {
    let assets = assets("river.scene.ron");
    let file = ReplayFile::record_edited(
        &assets,
        "river.scene.ron".to_owned(),
        (ticks, DT),
        edits,
        |_| true,
    )
    .expect("records")
    .expect("not stopped");
    let text = file.to_ron().expect("writes");
    assert!(text.contains("version: 2"), "an edited run is version 2");
    let path = presets().join("run.sgrec");
    let read = ReplayFile::from_ron(&text, "run.sgrec").expect("reads back");
    assert_eq!(read, file, "read back as written");
    let mut simulation = read.open(&path, FileAccess::SceneFolder).expect("opens");
    let mut recording = Recording::new(&simulation, DEFAULT_BUDGET);
    let mut digests = vec![state_digest(&simulation)];
    for tick in 1..=ticks {
        read.put_edits(&mut simulation, "run.sgrec").expect("fits");
        recording.record(&simulation, DT);
        simulation.step(DT);
        read.check(&simulation, "run.sgrec")
            .expect("every tick as recorded");
        assert_eq!(simulation.tick(), tick);
        digests.push(state_digest(&simulation));
    }
    let fresh = Simulation::new(&assets).expect("runs");
    let again = Edits::of_recording(&recording, &fresh, &assets.scene.groups, (ticks, DT))
        .expect("the replay's run holds its edits");
    assert_eq!(again, read.edits, "saved again, the same edits");
    digests
}

#[test]
fn a_run_edited_while_it_ran_replays_bit_for_bit() {
    let assets = assets("river.scene.ron");
    let mut live = Simulation::new(&assets).expect("runs");
    let mut recording = Recording::new(&live, DEFAULT_BUDGET);
    let mut digests = vec![state_digest(&live)];
    let mut step_to = |live: &mut Simulation, recording: &mut Recording, tick: u64| {
        while live.tick() < tick {
            recording.record(live, DT);
            live.step(DT);
            digests.push(state_digest(live));
        }
    };
    step_to(&mut live, &mut recording, 30);
    swap_separation_weight(&mut live, &assets, 6.0);
    // The same graph swapped in again (the editor swaps on any edit of the open graph, a
    // node moved on the canvas too): no change to hold, and the run the same without it.
    step_to(&mut live, &mut recording, 40);
    swap_separation_weight(&mut live, &assets, 6.0);
    step_to(&mut live, &mut recording, 50);
    live.follow_scene(&wall_drawn(&assets));
    // The cursor first put in the world (as the preview does when the mouse first moves
    // over it), then moved.
    step_to(&mut live, &mut recording, 70);
    assert!(
        !live.move_target("cursor", Vec2::new(5.0, 5.0)),
        "no cursor yet"
    );
    live.world_mut().set_target("cursor", Vec2::new(5.0, 5.0));
    step_to(&mut live, &mut recording, 80);
    assert!(live.move_target("cursor", Vec2::new(6.0, 5.0)));
    step_to(&mut live, &mut recording, 90);
    let fresh = Simulation::new(&assets).expect("runs");
    let edits = Edits::of_recording(&recording, &fresh, &assets.scene.groups, (90, DT))
        .expect("a replay holds these edits");
    let ticks: Vec<u64> = edits.changes().iter().map(|c| c.tick).collect();
    assert_eq!(
        ticks,
        [30, 50, 70, 80],
        "graph, wall, cursor put in, cursor moved"
    );
    assert_eq!(edits.graphs().len(), 1);
    assert_eq!(edits.changes()[0].graphs.len(), 1);
    let wall = edits.changes()[1].scene.as_ref().expect("the scene edit");
    assert_eq!(wall.walls.len(), assets.scene.walls.len() + 1);
    let cursor = |c: usize| edits.changes()[c].targets.clone();
    assert_eq!(
        cursor(2),
        Some(vec![("cursor".to_owned(), Vec2::new(5.0, 5.0))])
    );
    assert_eq!(
        cursor(3),
        Some(vec![("cursor".to_owned(), Vec2::new(6.0, 5.0))])
    );
    assert_eq!(
        replayed(edits, 90),
        digests,
        "every tick as the live run had it"
    );
}

#[test]
fn a_fork_with_an_edit_replays_as_the_fork_not_as_the_run_it_left() {
    let assets = assets("river.scene.ron");
    let mut live = Simulation::new(&assets).expect("runs");
    let mut recording = Recording::new(&live, DEFAULT_BUDGET);
    run_to(&mut live, &mut recording, 120);
    let original = state_digest(&live);
    // Back to tick 40, the Separation weighted 6 there, on to 120: the fork.
    recording.seek(&mut live, 40).expect("recorded");
    swap_separation_weight(&mut live, &assets, 6.0);
    let mut fork = Vec::new();
    while live.tick() < 120 {
        recording.record(&live, DT);
        live.step(DT);
        fork.push(state_digest(&live));
    }
    assert_ne!(state_digest(&live), original, "the edit changed the run");
    let fresh = Simulation::new(&assets).expect("runs");
    let edits = Edits::of_recording(&recording, &fresh, &assets.scene.groups, (120, DT))
        .expect("holds the fork");
    let ticks: Vec<u64> = edits.changes().iter().map(|c| c.tick).collect();
    assert_eq!(ticks, [40], "only the fork's edit");
    let digests = replayed(edits, 120);
    assert_eq!(digests[41..], fork[..], "the fork's ticks, bit for bit");
    // A fork without an edit is the original run: no changes, a version 1 file.
    let mut again = Simulation::new(&assets).expect("runs");
    let mut recording = Recording::new(&again, DEFAULT_BUDGET);
    run_to(&mut again, &mut recording, 120);
    recording.seek(&mut again, 40).expect("recorded");
    run_to(&mut again, &mut recording, 120);
    assert_eq!(state_digest(&again), original);
    let edits = Edits::of_recording(&recording, &fresh, &assets.scene.groups, (120, DT))
        .expect("holds the run");
    assert!(edits.is_empty(), "{:?}", edits.changes());
}

#[test]
fn what_a_replay_cannot_hold_is_refused_in_words() {
    let assets = assets("river.scene.ron");
    let fresh = Simulation::new(&assets).expect("runs");
    // A flow field painted while the run ran.
    let mut live = Simulation::new(&assets).expect("runs");
    let mut recording = Recording::new(&live, DEFAULT_BUDGET);
    run_to(&mut live, &mut recording, 10);
    let field = live
        .world()
        .flow_fields()
        .next()
        .expect("the river")
        .0
        .to_owned();
    let painted = live.world_mut().flow_field_mut(&field).expect("a field");
    painted.fill(Vec2::Y);
    run_to(&mut live, &mut recording, 20);
    let why = Edits::of_recording(&recording, &fresh, &assets.scene.groups, (20, DT))
        .expect_err("no painted field in a replay");
    assert!(
        why.contains("A flow field was painted") && why.contains("tick 10"),
        "{why}"
    );
    // A tick length that changed.
    let mut live = Simulation::new(&assets).expect("runs");
    let mut recording = Recording::new(&live, DEFAULT_BUDGET);
    run_to(&mut live, &mut recording, 10);
    recording.record(&live, DT * 2.0);
    live.step(DT * 2.0);
    let why = Edits::of_recording(&recording, &fresh, &assets.scene.groups, (11, DT))
        .expect_err("one tick length");
    assert!(
        why.contains("tick length changed") && why.contains("tick 10"),
        "{why}"
    );
}

#[test]
fn a_file_naming_more_targets_than_a_scene_may_have_is_refused() {
    let names = graph_runtime::limits::MAX_NAMES + 1;
    let targets: Vec<String> = (0..names)
        .map(|i| format!("(\"t{i}\", (0.0, 0.0))"))
        .collect();
    // Two changes, the second's names new: the bound is on the names of all changes.
    let (first, second) = targets.split_at(names / 2);
    let text = format!(
        r#"(format: "steergraph.replay", version: 2, scene: "replayed.scene.ron",
            scene_digest: "0000000000000000", seed: 5, dt: 0.016666668, agents: 3, ticks: 2,
            changes: [(tick: 0, targets: Some([{}])), (tick: 1, targets: Some([{}]))],
            digests: ["0000000000000000", "0000000000000000", "0000000000000000"])"#,
        first.join(", "),
        second.join(", ")
    );
    let error = ReplayFile::from_ron(&text, "many.sgrec").expect_err("too many names");
    assert!(
        error
            .to_string()
            .contains("changes[1].targets: the changes name more than 65536 targets"),
        "{error}"
    );
}

#[test]
fn the_scene_as_the_run_had_it_at_a_tick_runs_on_as_the_replay_does() {
    // Separation weighted 6 at tick 30, a wall drawn at 50: at tick 60 the scene with both
    // written into it, built afresh and put in the replay's state, steps as the replay does.
    let assets = assets("river.scene.ron");
    let mut live = Simulation::new(&assets).expect("runs");
    let mut recording = Recording::new(&live, DEFAULT_BUDGET);
    run_to(&mut live, &mut recording, 30);
    swap_separation_weight(&mut live, &assets, 6.0);
    run_to(&mut live, &mut recording, 50);
    live.follow_scene(&wall_drawn(&assets));
    run_to(&mut live, &mut recording, 90);
    let fresh = Simulation::new(&assets).expect("runs");
    let edits = Edits::of_recording(&recording, &fresh, &assets.scene.groups, (90, DT))
        .expect("holds them");
    let file =
        ReplayFile::record_edited(&assets, "river.scene.ron".into(), (90, DT), edits, |_| true)
            .expect("records")
            .expect("whole");
    let path = presets().join("run.sgrec");
    let mut replayed = file.open(&path, FileAccess::SceneFolder).expect("opens");
    file.replay_to(&mut replayed, 60, "run.sgrec")
        .expect("as recorded");
    let at = file.assets_at(assets.clone(), 60);
    assert_eq!(
        at.scene.walls.len(),
        assets.scene.walls.len() + 1,
        "the wall"
    );
    let group = &at.scene.groups[0];
    assert_eq!(group.graph, "river.graph.ron (as edited at tick 30)");
    assert!(at.graphs.contains_key(&group.graph));
    let mut afresh = Simulation::new(&at).expect("the edited scene runs");
    afresh
        .restore(&replayed.keyframe())
        .expect("the same agents");
    file.replay_to(&mut replayed, 75, "run.sgrec")
        .expect("as recorded");
    for _ in 60..75 {
        afresh.step(DT);
    }
    assert_eq!(state_digest(&afresh), state_digest(&replayed));
    // The scene on disk, unedited, goes elsewhere from the same state.
    let mut unedited = Simulation::new(&assets).expect("runs");
    unedited
        .restore(&live_at(&file, &path, 60).keyframe())
        .expect("the same agents");
    for _ in 60..75 {
        unedited.step(DT);
    }
    assert_ne!(state_digest(&unedited), state_digest(&replayed));
    assert_eq!(
        file.assets_at(assets.clone(), 29),
        assets,
        "nothing edited before tick 30"
    );
}

/// The replay `file` (at `path`) opened and replayed to `tick`.
fn live_at(file: &ReplayFile, path: &Path, tick: u64) -> Simulation {
    let mut simulation = file.open(path, FileAccess::SceneFolder).expect("opens");
    file.replay_to(&mut simulation, tick, "run.sgrec")
        .expect("as recorded");
    simulation
}
