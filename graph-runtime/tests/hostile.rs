//! The hostile corpus (`tests/fixtures/hostile/`): every file goes through load → compile →
//! simulate (a few ticks), and must end in a clean error naming its place, or in finite motion.
//! Nothing may panic, abort, allocate without bound or produce NaN.
//!
//! Huge inputs (65,537 names, 64 MiB files, …) are generated in `hostile_inputs.rs` instead
//! of being committed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use glam::Vec2;
use graph_runtime::{
    AgentGroup, AgentSpawn, FlowField, FlowFieldSource, Graph, Scene, SceneAssets, Simulation,
    Spawn, compile,
};

const TICKS: usize = 10;
const DT: f32 = 1.0 / 60.0;

/// How a file must end.
enum Expect {
    /// Refused; the message contains every string.
    Refused(&'static [&'static str]),
    /// Runs with finite motion and no warning.
    Runs,
    /// Runs with finite motion; the warnings contain every string.
    RunsWithWarning(&'static [&'static str]),
}

/// How a file ended.
#[derive(Debug)]
enum Outcome {
    Refused(String),
    Ran { warnings: Vec<String> },
}

const EXPECTED: &[(&str, Expect)] = &[
    // Helpers the scenes use; they run.
    ("seek.graph.ron", Expect::Runs),
    ("hunt_tagged.graph.ron", Expect::Runs),
    ("follow_path.graph.ron", Expect::Runs),
    // Read as something else: duplicated keys are errors at the duplicate.
    (
        "duplicate_node_id.graph.ron",
        Expect::Refused(&["duplicate_node_id.graph.ron:7:", "`#1` appears twice"]),
    ),
    (
        "duplicate_parameter.graph.ron",
        Expect::Refused(&["duplicate_parameter.graph.ron:6:", "`speed` appears twice"]),
    ),
    (
        "duplicate_editor_position.graph.ron",
        Expect::Refused(&[
            "duplicate_editor_position.graph.ron:8:",
            "`#1` appears twice",
        ]),
    ),
    (
        "duplicate_target.scene.ron",
        Expect::Refused(&["duplicate_target.scene.ron:7:", "`goal` appears twice"]),
    ),
    (
        "duplicate_path.scene.ron",
        Expect::Refused(&["duplicate_path.scene.ron:7:", "`route` appears twice"]),
    ),
    (
        "duplicate_flow_field.scene.ron",
        Expect::Refused(&["duplicate_flow_field.scene.ron:7:", "`wind` appears twice"]),
    ),
    (
        "duplicate_override.scene.ron",
        Expect::Refused(&["duplicate_override.scene.ron:6:", "`a` appears twice"]),
    ),
    (
        "duplicate_group_name.scene.ron",
        Expect::Refused(&[
            "duplicate_group_name.scene.ron",
            "groups[1] (\"seekers\"): the name is already used by groups[0]",
        ]),
    ),
    // Numbers out of range in graphs: compile errors naming node and field.
    (
        "point_target_1e39.graph.ron",
        Expect::Refused(&[
            "point_target_1e39.graph.ron",
            "node #1 field `target.x`: inf",
        ]),
    ),
    (
        "point_target_3e38.graph.ron",
        Expect::Refused(&["node #1 field `target.x`", "between -1e9 and 1e9"]),
    ),
    (
        "mass_1e-45.graph.ron",
        Expect::Refused(&["vehicle field `mass`", ">= 1e-6"]),
    ),
    (
        "prediction_time_3e38.graph.ron",
        Expect::Refused(&["node #1 field `prediction_time`", "at most 1e9"]),
    ),
    // Not an asset: refused without quoting it.
    (
        "passwd_lookalike.graph.ron",
        Expect::Refused(&["passwd_lookalike.graph.ron", "not a Steergraph graph file"]),
    ),
    // Allocation: sizes refused before allocating.
    (
        "width_4294967295.flow.ron",
        Expect::Refused(&["4294967295x2 field", "the limit is 16777216"]),
    ),
    (
        "short_rows_50000x50000.flow.ron",
        Expect::Refused(&["50000x50000 field", "the limit is 16777216"]),
    ),
    (
        "nan_vector.flow.ron",
        Expect::Refused(&["nan_vector.flow.ron", "vector 0 (column 0, row 0)"]),
    ),
    (
        "origin_3e38.flow.ron",
        Expect::Refused(&["origin_3e38.flow.ron", "beyond ±1e9 units"]),
    ),
    (
        "spawn_count_4294967295.scene.ron",
        Expect::Refused(&[
            "spawn_count_4294967295.scene.ron",
            "the scene spawns 4294967295 agents; the limit is 1000000",
        ]),
    ),
    // Spawns, paths, targets, obstacles, bounds, vehicles: every number validated.
    (
        "spawn_position_nan.scene.ron",
        Expect::Refused(&[
            "groups[0] (\"lost\").spawn.agents[0].position",
            "not a finite",
        ]),
    ),
    (
        "spawn_position_inf.scene.ron",
        Expect::Refused(&[
            "groups[0] (\"far\").spawn.agents[0].position",
            "not a finite",
        ]),
    ),
    (
        "spawn_velocity_1e39.scene.ron",
        Expect::Refused(&[
            "groups[0] (\"fast\").spawn.agents[0].velocity",
            "not a finite",
        ]),
    ),
    (
        "spawn_area_overflowing_corners.scene.ron",
        Expect::Refused(&["groups[0] (\"wide\").spawn.area.min", "out of range"]),
    ),
    (
        "spawn_speed_3e38.scene.ron",
        Expect::Refused(&["groups[0] (\"rocket\").spawn.speed", "at most 1e9"]),
    ),
    (
        "path_point_nan.scene.ron",
        Expect::Refused(&["path_point_nan.scene.ron", "paths[\"route\"].points[1]"]),
    ),
    (
        "path_point_1e39.scene.ron",
        Expect::Refused(&["path_point_1e39.scene.ron", "paths[\"route\"].points[2]"]),
    ),
    (
        "path_without_points.scene.ron",
        Expect::Refused(&["paths[\"route\"]: a path needs at least one point"]),
    ),
    (
        "target_nan.scene.ron",
        Expect::Refused(&["target_nan.scene.ron", "targets[\"goal\"]"]),
    ),
    (
        "obstacle_radius_inf.scene.ron",
        Expect::Refused(&["obstacles[0].radius", "not a finite number"]),
    ),
    (
        "bounds_3e38.scene.ron",
        Expect::Refused(&["bounds.min", "out of range"]),
    ),
    (
        "vehicle_mass_nan.scene.ron",
        Expect::Refused(&["groups[0] (\"heavy\").vehicle.mass", "not a finite number"]),
    ),
    // Referenced files stay inside the scene's folder; devices are never read.
    (
        "absolute_graph_path.scene.ron",
        Expect::Refused(&["groups[0] (\"thieves\").graph", "is an absolute path"]),
    ),
    (
        "parent_dir_escape.scene.ron",
        Expect::Refused(&["groups[0] (\"thieves\").graph", "leaves the scene's folder"]),
    ),
    (
        "device_flow_file.scene.ron",
        Expect::Refused(&["flow_fields[\"zero\"]", "is an absolute path"]),
    ),
    (
        "foreign_file_in_folder.scene.ron",
        Expect::Refused(&["passwd_lookalike.graph.ron", "not a Steergraph graph file"]),
    ),
    // A reference that is empty or names no file says which file refers to it, and where
    // (issue 46: ": cannot read", naming neither).
    (
        "empty_graph_path.scene.ron",
        Expect::Refused(&[
            "empty_graph_path.scene.ron: groups[0] (\"walkers\").graph: \"\" names no file",
        ]),
    ),
    (
        "missing_graph.scene.ron",
        Expect::Refused(&[
            "missing_graph.scene.ron: groups[0] (\"walkers\").graph: \"nowhere.graph.ron\" cannot be read",
        ]),
    ),
    (
        "missing_flow_file.scene.ron",
        Expect::Refused(&[
            "missing_flow_file.scene.ron: flow_fields[\"wind\"]: \"nowhere.flow.ron\" cannot be read",
        ]),
    ),
    (
        "missing_subgraph.scene.ron",
        Expect::Refused(&[
            "uses_missing_subgraph.graph.ron: node #4: \"nowhere.graph.ron\" cannot be read",
        ]),
    ),
    (
        "uses_missing_subgraph.graph.ron",
        Expect::Refused(&["node #4", "nowhere.graph.ron"]),
    ),
    // Versions count from 1.
    (
        "version_zero.graph.ron",
        Expect::Refused(&["version_zero.graph.ron: `version: 0` is not a format version"]),
    ),
    // A tag no agent carries yet: a warning, zero steering, not a refusal.
    (
        "tag_nobody_carries.scene.ron",
        Expect::RunsWithWarning(&["group \"hunters\"", "no agent carries the tag \"prey\" yet"]),
    ),
    // Navigation (issue 44): a goal inside a closed wall is unreachable (the agents walk to
    // the nearest point they can reach); walls that cross themselves, double back and have
    // zero-length segments still make a mesh; bounds with no room for the radius are refused.
    ("navigate.graph.ron", Expect::Runs),
    ("nav_goal_in_closed_wall.scene.ron", Expect::Runs),
    // The scene the hostile replays (`*.sgrec`, `replay_files.rs`) name.
    ("replayed.scene.ron", Expect::Runs),
    ("nav_crossing_walls.scene.ron", Expect::Runs),
    // Issue 46's fuzzer: walls heaped along one line made spade's triangulation panic.
    (
        "nav_heaped_walls.scene.ron",
        Expect::Refused(&[
            "nav_heaped_walls.scene.ron: group \"walkers\" navigates",
            "the triangulation failed on walls, gaps or obstacles that overlap or nearly coincide near (0.75, 2.98)",
        ]),
    ),
    (
        "nav_bounds_too_small.scene.ron",
        Expect::Refused(&[
            "nav_bounds_too_small.scene.ron: group \"walkers\" navigates",
            "leave no room for an agent of radius 0.5",
        ]),
    ),
];

/// Words of `passwd_lookalike.graph.ron` that no error may echo.
const PRIVATE: &[&str] = &["root:", "C0FFEE", "/bin/bash"];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile")
}

/// A small world for running a graph or flow field on its own: a target, a path, a field,
/// two agents carrying the tag `prey`.
fn harness(graph: Graph, field: Option<FlowField>) -> SceneAssets {
    let graph_name = "harness.graph.ron".to_owned();
    let mut scene = Scene::default();
    scene.targets.insert("goal".to_owned(), Vec2::new(5.0, 0.0));
    scene.paths.insert(
        "route".to_owned(),
        graph_runtime::Path {
            points: vec![Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)],
            radius: 1.0,
            closed: false,
        },
    );
    scene.groups.push(AgentGroup {
        tags: vec!["prey".to_owned()],
        ..AgentGroup::new(
            "probe",
            graph_name.clone(),
            Spawn::Agents(vec![
                AgentSpawn {
                    position: Vec2::ZERO,
                    velocity: Vec2::new(1.0, 0.0),
                },
                AgentSpawn {
                    position: Vec2::new(3.0, 1.0),
                    velocity: Vec2::ZERO,
                },
            ]),
        )
    });
    let mut flow_fields = BTreeMap::new();
    if let Some(field) = field {
        scene
            .flow_fields
            .insert("wind".to_owned(), FlowFieldSource::Inline(field.clone()));
        flow_fields.insert("wind".to_owned(), field);
    }
    SceneAssets {
        scene,
        origin: "harness.scene.ron".to_owned(),
        graphs: BTreeMap::from([(graph_name, graph)]),
        flow_fields,
    }
}

fn flow_graph() -> Graph {
    Graph::from_ron(
        r#"(format: "steergraph.graph", version: 1, nodes: {
            1: FlowFieldFollowing(field: "wind", prediction_time: 0.5), 2: Output(input: 1)})"#,
        "flow-follower.graph.ron",
    )
    .expect("the harness graph loads")
}

fn simulate(assets: &SceneAssets) -> Outcome {
    let mut simulation = match Simulation::new(assets) {
        Ok(simulation) => simulation,
        Err(errors) => return Outcome::Refused(joined(&errors)),
    };
    for tick in 0..TICKS {
        simulation.step(DT);
        for (agent, vehicle) in simulation.vehicles().iter().enumerate() {
            assert!(
                vehicle.position.is_finite() && vehicle.velocity.is_finite(),
                "{}: agent {agent} is not finite after tick {tick}: {vehicle:?}",
                assets.origin
            );
        }
    }
    Outcome::Ran {
        warnings: simulation
            .warnings()
            .iter()
            .map(ToString::to_string)
            .collect(),
    }
}

fn joined<E: ToString>(errors: &[E]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// load → compile → simulate, whatever the kind of file.
fn run(path: &Path) -> Outcome {
    let name = path.display().to_string();
    if name.ends_with(".graph.ron") {
        let graph = match Graph::load(path) {
            Ok(graph) => graph,
            Err(error) => return Outcome::Refused(error.to_string()),
        };
        if let Err(errors) = compile(&graph) {
            return Outcome::Refused(format!("{name}: {}", joined(&errors)));
        }
        simulate(&harness(graph, None))
    } else if name.ends_with(".flow.ron") {
        match FlowField::load(path) {
            Ok(field) => simulate(&harness(flow_graph(), Some(field))),
            Err(error) => Outcome::Refused(error.to_string()),
        }
    } else {
        match SceneAssets::load(path) {
            Ok(assets) => simulate(&assets),
            Err(errors) => Outcome::Refused(joined(&errors)),
        }
    }
}

#[test]
fn every_hostile_file_is_refused_cleanly_or_runs_finite() {
    let mut on_disk: Vec<String> = std::fs::read_dir(corpus())
        .expect("the corpus folder")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| Path::new(name).extension().is_some_and(|e| e == "ron"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = EXPECTED
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .collect();
    listed.sort();
    assert_eq!(on_disk, listed, "every corpus file has an expectation");

    let mut failures = Vec::new();
    for (name, expect) in EXPECTED {
        let path = corpus().join(name);
        let outcome = std::panic::catch_unwind(|| run(&path));
        let Ok(outcome) = outcome else {
            failures.push(format!("{name}: panicked"));
            continue;
        };
        let problem = match (expect, &outcome) {
            (Expect::Refused(words), Outcome::Refused(message)) => words
                .iter()
                .find(|word| !message.contains(*word))
                .map(|word| format!("message lacks {word:?}: {message}"))
                .or_else(|| {
                    PRIVATE
                        .iter()
                        .find(|word| message.contains(*word))
                        .map(|word| format!("message echoes a foreign file ({word:?}): {message}"))
                }),
            (Expect::Runs, Outcome::Ran { warnings }) if warnings.is_empty() => None,
            (Expect::RunsWithWarning(words), Outcome::Ran { warnings }) => {
                let all = warnings.join("\n");
                words
                    .iter()
                    .find(|word| !all.contains(*word))
                    .map(|word| format!("warnings lack {word:?}: {all:?}"))
            }
            _ => Some(format!("unexpected outcome {outcome:?}")),
        };
        if let Some(problem) = problem {
            failures.push(format!("{name}: {problem}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The stack-overflow input of issue 10, generated rather than committed (about 300 KB): a
/// valid chain of 9,000 Scale nodes, saved and loaded as a file, runs with finite motion.
#[test]
fn a_graph_file_with_a_9000_node_scale_chain_runs_through_load_compile_and_simulate() {
    let mut graph = Graph::default();
    let mut previous = graph.add(graph_runtime::Node::Seek {
        target: graph_runtime::Target::Point(3.0.into(), 4.0.into()),
    });
    for _ in 0..9_000 {
        previous = graph.add(graph_runtime::Node::Scale {
            input: graph_runtime::Link(Some(previous)),
            factor: 1.0.into(),
        });
    }
    graph.add(graph_runtime::Node::Output {
        input: graph_runtime::Link(Some(previous)),
    });
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("scale_chain_9000.graph.ron");
    graph.save(&path).expect("saved");
    // On a thread with the default 2 MiB stack (no size given), as a game's worker would have.
    let outcome = std::thread::Builder::new()
        .name("deep-chain".to_owned())
        .spawn(move || run(&path))
        .expect("a thread")
        .join()
        .expect("no stack overflow or panic");
    assert!(
        matches!(&outcome, Outcome::Ran { warnings } if warnings.is_empty()),
        "{outcome:?}"
    );
}
