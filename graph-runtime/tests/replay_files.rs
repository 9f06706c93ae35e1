//! Replay files (`*.sgrec`, issue 45): a recorded run replays to any tick bit for bit, a
//! changed scene or build is named (the first tick that differs), and every hostile file of
//! the corpus (`tests/fixtures/hostile/*.sgrec`) ends in a clear error naming its place.

use std::path::{Path, PathBuf};

use graph_runtime::replay::{ReplayError, ReplayFile, state_digest};
use graph_runtime::{FileAccess, SceneAssets, Simulation};

const DT: f32 = 1.0 / 60.0;

fn presets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets")
}

fn hostile() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile")
}

/// Every agent's position, velocity, facing and spin as bits: what two runs must share.
fn bits(simulation: &Simulation) -> Vec<[u32; 6]> {
    (simulation.vehicles().iter())
        .map(|v| {
            [
                v.position.x,
                v.position.y,
                v.velocity.x,
                v.velocity.y,
                v.facing(),
                v.spin(),
            ]
            .map(f32::to_bits)
        })
        .collect()
}

/// Records `scene` of the presets for `ticks`, as if saved beside it.
fn record(scene: &str, ticks: u64) -> (ReplayFile, PathBuf) {
    let assets = SceneAssets::load(&presets().join(scene)).expect("preset loads");
    let replay = ReplayFile::record(&assets, scene.to_owned(), ticks, DT, |_| {}).expect("records");
    (replay, presets().join("run.sgrec"))
}

#[test]
fn a_recorded_run_replays_to_any_tick_bit_for_bit() {
    let (replay, path) = record("river.scene.ron", 240);
    assert_eq!((replay.ticks(), replay.agents, replay.dt), (240, 60, DT));
    // The straight run, its state kept at some ticks.
    let assets = SceneAssets::load(&presets().join("river.scene.ron")).expect("loads");
    let mut straight = Simulation::new(&assets).expect("runs");
    let wanted = [0_u64, 1, 59, 60, 61, 137, 200, 240];
    let mut states = Vec::new();
    for tick in 0..=240 {
        if wanted.contains(&tick) {
            states.push(bits(&straight));
        }
        straight.step(DT);
    }
    // Forward through one replay, and each tick again from a fresh one.
    let mut replayed = replay.open(&path, FileAccess::SceneFolder).expect("opens");
    for (&tick, state) in wanted.iter().zip(&states) {
        replay
            .replay_to(&mut replayed, tick, "run.sgrec")
            .expect("replays");
        assert_eq!(replayed.tick(), tick);
        assert!(bits(&replayed) == *state, "tick {tick} differs");
        let mut fresh = replay.open(&path, FileAccess::SceneFolder).expect("opens");
        replay
            .replay_to(&mut fresh, tick, "run.sgrec")
            .expect("replays");
        assert!(bits(&fresh) == *state, "tick {tick} from the start differs");
    }
    // Not recorded: past the end, or behind the simulation.
    let past = replay.replay_to(&mut replayed, 241, "run.sgrec");
    assert!(matches!(
        past,
        Err(ReplayError::NotRecorded {
            tick: 241,
            ticks: 240,
            ..
        })
    ));
    let behind = replay.replay_to(&mut replayed, 100, "run.sgrec");
    assert!(matches!(
        behind,
        Err(ReplayError::NotRecorded { tick: 100, .. })
    ));
}

#[test]
fn a_replay_file_reads_back_as_written() {
    let (replay, _) = record("boids.scene.ron", 30);
    let text = replay.to_ron().expect("writes");
    assert!(text.starts_with("(\n    format: \"steergraph.replay\",\n    version: 1,\n"));
    let again = ReplayFile::from_ron(&text, "run.sgrec").expect("reads");
    assert_eq!(again, replay);
    assert_eq!(again.to_ron().expect("writes"), text);
    let folder = tempfile::tempdir().expect("a folder");
    let file = folder.path().join("run.sgrec");
    replay.save(&file).expect("saves");
    assert_eq!(ReplayFile::load(&file).expect("loads"), replay);
}

#[test]
fn a_run_that_differs_is_named_at_its_first_tick() {
    let (replay, path) = record("boids.scene.ron", 80);
    // A build whose steering differs from tick 50 on is what a changed digest there means.
    let text = replay.to_ron().expect("writes");
    let digest = format!("{:016x}", replay.digest(50).expect("recorded"));
    let tampered = text.replacen(&digest, "0123456789abcdef", 1);
    let tampered = ReplayFile::from_ron(&tampered, "run.sgrec").expect("reads");
    let mut simulation = tampered
        .open(&path, FileAccess::SceneFolder)
        .expect("opens");
    tampered
        .replay_to(&mut simulation, 49, "run.sgrec")
        .expect("same to 49");
    let error = tampered
        .replay_to(&mut simulation, 80, "run.sgrec")
        .expect_err("differs");
    assert!(
        matches!(error, ReplayError::Diverged { tick: 50, .. }),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("differs from the recorded run at tick 50"),
        "{message}"
    );
    assert!(message.contains("0123456789abcdef"), "{message}");
    // Another agent count is refused on opening.
    let mut more = replay.clone();
    more.agents += 1;
    let error = more
        .open(&path, FileAccess::SceneFolder)
        .expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("the run had 401 agents; its scene makes 400"),
        "{error}"
    );
}

#[test]
fn a_scene_changed_since_is_refused_and_a_reformatted_one_is_not() {
    let folder = tempfile::tempdir().expect("a folder");
    let copy = |name: &str| {
        std::fs::copy(hostile().join(name), folder.path().join(name)).expect("copies");
    };
    copy("replayed.scene.ron");
    copy("seek.graph.ron");
    let scene = folder.path().join("replayed.scene.ron");
    let mut assets = SceneAssets::load(&scene).expect("loads");
    // A --seed: the replay keeps it and opens with it.
    assets.scene.seed = 11;
    let replay =
        ReplayFile::record(&assets, "replayed.scene.ron".into(), 20, DT, |_| {}).expect("records");
    assert_eq!(replay.seed, 11);
    let path = folder.path().join("run.sgrec");
    replay
        .open(&path, FileAccess::SceneFolder)
        .expect("the same scene opens");
    // Re-indented and re-saved: the same scene.
    let text = std::fs::read_to_string(&scene).expect("reads");
    std::fs::write(&scene, text.replace("    ", "  ")).expect("writes");
    replay
        .open(&path, FileAccess::SceneFolder)
        .expect("a reformatted scene opens");
    // A goal moved by one unit in the graph's scene: not the scene recorded.
    std::fs::write(&scene, text.replace("(20.0, 10.0)", "(21.0, 10.0)")).expect("writes");
    let error = replay
        .open(&path, FileAccess::SceneFolder)
        .expect_err("refused");
    assert!(matches!(error, ReplayError::SceneChanged { .. }), "{error}");
    assert!(
        error.to_string().contains("is not the one recorded"),
        "{error}"
    );
    // And a graph it names, changed.
    std::fs::write(&scene, &text).expect("writes");
    let graph = folder.path().join("seek.graph.ron");
    let seek = std::fs::read_to_string(&graph).expect("reads");
    std::fs::write(&graph, seek.replace("Seek(", "Flee(")).expect("writes");
    let error = replay
        .open(&path, FileAccess::SceneFolder)
        .expect_err("refused");
    assert!(matches!(error, ReplayError::SceneChanged { .. }), "{error}");
}

#[test]
fn a_run_beyond_the_limits_is_refused_before_any_step() {
    let assets = SceneAssets::load(&hostile().join("replayed.scene.ron")).expect("loads");
    let steps = std::cell::Cell::new(0);
    let count = |_: &Simulation| steps.set(steps.get() + 1);
    let too_long = graph_runtime::limits::MAX_REPLAY_TICKS + 1;
    let error = ReplayFile::record(&assets, "s".into(), too_long, DT, count).expect_err("no");
    assert!(
        error.to_string().contains("a replay holds at most 1000000"),
        "{error}"
    );
    let error = ReplayFile::record(&assets, "s".into(), 10, 0.0, count).expect_err("no");
    assert!(
        error.to_string().contains("dt 0 is not a tick length"),
        "{error}"
    );
    assert_eq!(steps.get(), 0);
    // The digest of tick 0 is of the state the scene starts in.
    let replay = ReplayFile::record(&assets, "s".into(), 0, DT, count).expect("records");
    let start = Simulation::new(&assets).expect("runs");
    assert_eq!(replay.digest(0), Some(state_digest(&start)));
    assert_eq!((replay.ticks(), steps.get()), (0, 1));
}

#[test]
fn a_recording_stops_after_the_tick_its_caller_stops_it_at() {
    let assets = SceneAssets::load(&hostile().join("replayed.scene.ron")).expect("loads");
    // Told to stop on seeing tick 5 of 1,000: ticks 0 to 5 seen, no file, no step after.
    let mut seen = Vec::new();
    let stopped = ReplayFile::record_while(&assets, "s".into(), 1_000, DT, |simulation| {
        seen.push(simulation.tick());
        simulation.tick() < 5
    })
    .expect("runs");
    assert!(stopped.is_none());
    assert_eq!(seen, [0, 1, 2, 3, 4, 5]);
    // Never stopped, it is `record`'s file, digest for digest.
    let whole = ReplayFile::record_while(&assets, "s".into(), 20, DT, |_| true)
        .expect("runs")
        .expect("not stopped");
    let recorded = ReplayFile::record(&assets, "s".into(), 20, DT, |_| {}).expect("records");
    assert_eq!(whole.ticks(), 20);
    assert!((0..=20).all(|tick| whole.digest(tick) == recorded.digest(tick)));
    // Stopped on tick 0, before any step.
    let mut calls = 0;
    let none = ReplayFile::record_while(&assets, "s".into(), 20, DT, |_| {
        calls += 1;
        false
    })
    .expect("runs");
    assert!(none.is_none());
    assert_eq!(calls, 1);
}

/// How each hostile replay must end: refused, the message holding every string.
const EXPECTED: &[(&str, &[&str])] = &[
    (
        "replay_absolute_scene.sgrec",
        &["scene \"/etc/passwd\" is an absolute path"],
    ),
    (
        "replay_digest_count.sgrec",
        &["digests: 3 listed; a replay of 5 ticks has 6"],
    ),
    ("replay_dt_nan.sgrec", &["dt: NaN is not a tick length"]),
    ("replay_dt_zero.sgrec", &["dt: 0 is not a tick length"]),
    (
        "replay_edit_after_last_tick.sgrec",
        &["changes[0].tick: tick 3 is not before the run's last tick (3)"],
    ),
    (
        "replay_edit_foreign_graph.sgrec",
        &[
            "graphs[0]: expected a graph file (format: \"steergraph.graph\"), found format: \"steergraph.scene\"",
        ],
    ),
    (
        "replay_edit_graph_does_not_compile.sgrec",
        &["graphs[0]: does not compile: the graph has no Output node"],
    ),
    (
        "replay_edit_graph_index.sgrec",
        &["changes[0].graphs[0].graph: graph 3 is not among the file's 0 graphs"],
    ),
    (
        "replay_edit_group_missing.sgrec",
        &["the change at tick 1: graphs[0]: group 5 is not among the scene's 1"],
    ),
    (
        "replay_edit_in_version_1.sgrec",
        &["version: 1 holds no graphs or changes"],
    ),
    (
        "replay_edit_parameter_count.sgrec",
        &["changes[0].graphs[0].parameters: 2 values; its graph has 0 parameters"],
    ),
    (
        "replay_edit_tick_order.sgrec",
        &["changes[1]: tick 1 is not after the change before it"],
    ),
    (
        "replay_edit_vehicle_mass.sgrec",
        &["changes[0].graphs[0].vehicle.mass: -1 must be a finite number >= 1e-6 and at most 1e9"],
    ),
    (
        "replay_edit_wall_nan.sgrec",
        &["changes[0].scene: walls[0].points[1]: (inf, 1) is not a finite point"],
    ),
    (
        "replay_graph_as_scene.sgrec",
        &[
            "expected a scene file",
            "found format: \"steergraph.graph\"",
        ],
    ),
    (
        "replay_huge_agents.sgrec",
        &["agents: 18446744073709551615 is more than a scene may have"],
    ),
    (
        "replay_huge_ticks.sgrec",
        &["ticks: 1000000000000000 is more than a replay may hold"],
    ),
    (
        "replay_missing_scene.sgrec",
        &["missing.scene.ron: cannot read"],
    ),
    (
        "replay_newer_version.sgrec",
        &["uses format version 9", "reads versions up to"],
    ),
    (
        "replay_not_hex.sgrec",
        &["digests[1]: \"zz\" is not a digest"],
    ),
    ("replay_parent_escape.sgrec", &["leaves the scene's folder"]),
    (
        "replay_scene_tag.sgrec",
        &[
            "expected a replay file",
            "found format: \"steergraph.scene\"",
        ],
    ),
    (
        "replay_ticks_u64_max.sgrec",
        &["ticks: 18446744073709551615 is more than a replay may hold"],
    ),
    ("replay_truncated.sgrec", &["replay_truncated.sgrec:12:"]),
    (
        "replay_unknown_field.sgrec",
        &["replay_unknown_field.sgrec:9:", "extra"],
    ),
    (
        "replay_version_zero.sgrec",
        &["`version: 0` is not a format version"],
    ),
    (
        "replay_wrong_scene.sgrec",
        &["replayed.scene.ron is not the one recorded"],
    ),
];

#[test]
fn every_hostile_replay_is_refused_naming_its_place() {
    let mut on_disk: Vec<String> = graph_runtime_files(&hostile(), "sgrec");
    on_disk.sort();
    let listed: Vec<String> = EXPECTED
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .collect();
    assert_eq!(on_disk, listed, "every hostile replay has an expectation");
    let mut failures = Vec::new();
    for (name, words) in EXPECTED {
        let path = hostile().join(name);
        let outcome = std::panic::catch_unwind(|| {
            let replay = ReplayFile::load(&path).map_err(ReplayError::from)?;
            // The scene must stay in the replay's folder, as for a game's downloaded files.
            let mut simulation = replay.open(&path, FileAccess::SceneFolder)?;
            replay.replay_to(&mut simulation, replay.ticks(), name)
        });
        match outcome {
            Err(_) => failures.push(format!("{name}: panicked")),
            Ok(Ok(())) => failures.push(format!("{name}: replayed")),
            Ok(Err(error)) => {
                let message = error.to_string();
                if let Some(word) = words.iter().find(|word| !message.contains(*word)) {
                    failures.push(format!("{name}: message lacks {word:?}: {message}"));
                }
                if message.contains("root:") {
                    failures.push(format!("{name}: echoes a foreign file: {message}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The names of the files in `folder` ending in `.{extension}`.
fn graph_runtime_files(folder: &Path, extension: &str) -> Vec<String> {
    (std::fs::read_dir(folder).expect("the corpus folder"))
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| Path::new(name).extension().is_some_and(|e| e == extension))
        .collect()
}
