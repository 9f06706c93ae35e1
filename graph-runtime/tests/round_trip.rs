//! RON round trips of graphs, scenes and flow fields (equal values, byte-identical text on a
//! second save) and atomic saving.

use std::collections::BTreeMap;

use glam::Vec2;
mod common;

use common::{files_in, small_graph};
use graph_runtime::{
    AgentGroup, AgentSpawn, Area, Comment, Comparison, EditorSection, FlowField, FlowFieldSource,
    Graph, Link, Node, NodeId, NodeKind, Number, Obstacle, PathDirection, Rect, Region, SaveError,
    Scene, Slot, Spawn, Target, VehicleParams, VehicleSpec, Wall,
};
use proptest::prelude::*;

/// Gives a freshly instantiated node non-default values where its kind has options, so the
/// round trip covers every variant of every field type.
fn vary(node: &mut Node) {
    match node {
        Node::Seek { target } => *target = Target::Point(Number::Literal(0.1), "goal_y".into()),
        Node::Flee { panic_distance, .. } => *panic_distance = Some("panic".into()),
        Node::Evasion { panic_distance, .. } => *panic_distance = Some(Number::Literal(7.25)),
        Node::Arrival { target, .. } => *target = Target::NearestTagged("home".to_owned()),
        Node::PathFollowing {
            path, direction, ..
        } => {
            "patrol".clone_into(path);
            *direction = PathDirection::Backward;
        }
        Node::Containment { bounds, .. } => {
            *bounds = Region::Rect(
                Number::Literal(-10.0),
                Number::Literal(-5.5),
                "width".into(),
                Number::Literal(1e-7),
            );
        }
        Node::FlowFieldFollowing { field, .. } => "wind".clone_into(field),
        Node::Compare { test, .. } => *test = Comparison::GreaterOrEqual,
        Node::Value { value } => *value = Number::Literal(-1.0 / 3.0),
        _ => {}
    }
}

/// A graph with one node of every kind, parameters, a vehicle using a parameter and an editor
/// section. Ids follow `NodeKind::ALL`; some ports are wired, the rest stay unconnected.
fn every_kind_graph() -> Graph {
    let mut graph = Graph {
        description: "Every node kind, \"quoted\" and ünïcode.\nSecond line.".to_owned(),
        parameters: BTreeMap::from([
            ("goal_y".to_owned(), 2.5),
            ("panic".to_owned(), 8.0),
            ("speed".to_owned(), 0.1),
            ("width".to_owned(), 1e20),
        ]),
        vehicle: VehicleSpec {
            mass: Number::Literal(1.5),
            max_force: Number::Literal(12.0),
            max_speed: "speed".into(),
            radius: Number::Literal(0.25),
        },
        ..Graph::default()
    };
    for &kind in NodeKind::ALL {
        let mut node = kind.instantiate();
        assert_eq!(node.kind(), kind, "instantiate makes a node of its kind");
        vary(&mut node);
        graph.add(node);
    }
    // Wire the first input of every node with inputs to node #1 (a Seek).
    for node in graph.nodes.values_mut() {
        let Some(port) = node.inputs().first().map(|port| port.slot) else {
            continue;
        };
        *node.input_mut(port).expect("the port exists") = Link::to(1);
    }
    let positions = graph
        .nodes
        .keys()
        .map(|&id| (id, Vec2::new(id.0 as f32 * 120.5, -(id.0 as f32) / 3.0)))
        .collect();
    graph.editor = Some(EditorSection {
        positions,
        comments: vec![
            Comment {
                text: "Behaviors".to_owned(),
                position: Vec2::new(-20.0, 0.0),
                size: Vec2::new(800.0, 600.25),
            },
            Comment {
                text: String::new(),
                position: Vec2::ZERO,
                size: Vec2::ONE,
            },
        ],
        collapsed: std::collections::BTreeSet::new(),
    });
    graph
}

/// Asserts that `text` parses back to `value` and that saving it again gives the same bytes.
fn assert_stable<T: PartialEq + std::fmt::Debug>(
    value: &T,
    to_ron: impl Fn(&T) -> Result<String, SaveError>,
    from_ron: impl Fn(&str) -> Result<T, graph_runtime::LoadError>,
) {
    let text = to_ron(value).expect("serializable");
    let parsed = from_ron(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&parsed, value, "value after a round trip\n{text}");
    let again = to_ron(&parsed).expect("serializable");
    assert_eq!(again, text, "second save is byte-identical");
}

#[test]
fn a_graph_with_every_node_kind_round_trips() {
    let graph = every_kind_graph();
    assert_eq!(graph.nodes.len(), NodeKind::ALL.len());
    assert_stable(&graph, Graph::to_ron, |text| {
        Graph::from_ron(text, "all.graph.ron")
    });
}

#[test]
fn the_saved_text_names_each_kind_and_keeps_parameter_references() {
    let text = every_kind_graph().to_ron().expect("serializable");
    // Every kind includes the angular layer's, which need format version 2.
    assert!(text.starts_with("(\n    format: \"steergraph.graph\",\n    version: 2,\n"));
    assert!(text.ends_with(")\n"));
    for kind in NodeKind::ALL {
        assert!(
            text.contains(&format!(": {}", kind.name())),
            "{kind} in\n{text}"
        );
    }
    assert!(text.contains("max_speed: \"speed\""), "{text}");
    assert!(text.contains("panic_distance: Some(\"panic\")"), "{text}");
}

#[test]
fn a_minimal_graph_round_trips_without_optional_sections() {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::default(),
    });
    graph.add(Node::Output {
        input: Link(Some(seek)),
    });
    let text = graph.to_ron().expect("serializable");
    assert!(!text.contains("editor"), "no editor section: {text}");
    assert!(
        !text.contains("description"),
        "no empty description: {text}"
    );
    assert_stable(&graph, Graph::to_ron, |text| Graph::from_ron(text, "min"));
}

fn field(width: u32, height: u32) -> FlowField {
    let mut field = FlowField::new(Vec2::new(-3.5, 0.1), 0.75, width, height);
    for (index, vector) in field.vectors.iter_mut().enumerate() {
        let angle = index as f32 * 0.7;
        *vector = Vec2::from_angle(angle) * (index % 3) as f32 / 3.0;
    }
    field
}

#[expect(
    clippy::too_many_lines,
    reason = "one scene using every feature of the format, written out"
)]
fn every_feature_scene() -> Scene {
    Scene {
        description: "Every scene feature".to_owned(),
        bounds: Rect::new(Vec2::new(-60.0, -40.5), Vec2::new(60.0, 40.5)),
        seed: u64::MAX - 6,
        targets: BTreeMap::from([
            ("cursor".to_owned(), Vec2::new(1.0, 2.0)),
            ("goal".to_owned(), Vec2::new(-0.1, 1e-3)),
        ]),
        obstacles: vec![
            Obstacle {
                center: Vec2::new(-20.0, 10.0),
                radius: 6.0,
            },
            Obstacle {
                center: Vec2::new(18.0, -15.0),
                radius: 0.0,
            },
        ],
        walls: vec![
            Wall::polyline(vec![Vec2::new(-30.0, 20.0), Vec2::new(-10.0, 20.5)]),
            Wall::polygon(vec![
                Vec2::new(30.0, 0.0),
                Vec2::new(40.0, 0.0),
                Vec2::new(35.0, 8.25),
            ]),
        ],
        passable_walls: true,
        paths: BTreeMap::from([
            (
                "loop".to_owned(),
                graph_runtime::Path {
                    points: vec![Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)],
                    radius: 1.5,
                    closed: true,
                },
            ),
            (
                "road".to_owned(),
                graph_runtime::Path {
                    points: vec![Vec2::new(-1.0, -1.0), Vec2::new(2.0, 3.0)],
                    radius: 0.5,
                    closed: false,
                },
            ),
        ]),
        flow_fields: BTreeMap::from([
            (
                "river".to_owned(),
                FlowFieldSource::File("fields/river.flow.ron".to_owned()),
            ),
            ("wind".to_owned(), FlowFieldSource::Inline(field(3, 2))),
        ]),
        groups: vec![
            AgentGroup {
                tags: vec!["boid".to_owned(), "prey".to_owned()],
                parameters: BTreeMap::from([("flock_radius".to_owned(), 5.5)]),
                ..AgentGroup::new(
                    "flock",
                    "boids.graph.ron",
                    Spawn::Random {
                        count: 400,
                        area: Area::Circle {
                            center: Vec2::new(0.5, -0.5),
                            radius: 45.0,
                        },
                        speed: 3.0,
                    },
                )
            },
            AgentGroup::new(
                "herd",
                "graphs/herd.graph.ron",
                Spawn::Random {
                    count: 0,
                    area: Area::Rect {
                        min: Vec2::new(-5.0, -5.0),
                        max: Vec2::new(5.0, 5.0),
                    },
                    speed: 0.0,
                },
            ),
            AgentGroup {
                vehicle: Some(VehicleParams {
                    mass: 2.0,
                    max_force: 20.0,
                    max_speed: 7.5,
                    radius: 0.8,
                }),
                tags: vec!["wolf".to_owned()],
                parameters: BTreeMap::from([
                    ("hunger".to_owned(), 0.9),
                    ("sight".to_owned(), 12.0),
                ]),
                ..AgentGroup::new(
                    "wolves",
                    "wolf.graph.ron",
                    Spawn::Agents(vec![
                        AgentSpawn {
                            position: Vec2::new(30.0, 30.0),
                            velocity: Vec2::new(-1.0, 0.5),
                        },
                        AgentSpawn {
                            position: Vec2::new(-30.0, 30.0),
                            velocity: Vec2::ZERO,
                        },
                    ]),
                )
            },
        ],
        gaps: Vec::new(),
        jump_links: BTreeMap::default(),
    }
}

#[test]
fn a_scene_with_every_feature_round_trips() {
    assert_stable(&every_feature_scene(), Scene::to_ron, |text| {
        Scene::from_ron(text, "all.scene.ron")
    });
}

#[test]
fn an_empty_scene_round_trips() {
    assert_stable(&Scene::default(), Scene::to_ron, |text| {
        Scene::from_ron(text, "empty.scene.ron")
    });
}

#[test]
fn a_flow_field_round_trips() {
    assert_stable(&field(4, 3), FlowField::to_ron, |text| {
        FlowField::from_ron(text, "wind.flow.ron")
    });
    assert_stable(
        &FlowField::new(Vec2::ZERO, 1.0, 0, 0),
        FlowField::to_ron,
        |text| FlowField::from_ron(text, "empty.flow.ron"),
    );
}

#[test]
fn saved_files_load_back_equal_with_the_same_bytes() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let graph = every_kind_graph();
    let scene = every_feature_scene();
    let flow = field(2, 2);
    let graph_path = directory.path().join("all.graph.ron");
    let scene_path = directory.path().join("all.scene.ron");
    let flow_path = directory.path().join("wind.flow.ron");
    graph.save(&graph_path).expect("save the graph");
    scene.save(&scene_path).expect("save the scene");
    flow.save(&flow_path).expect("save the flow field");
    assert_eq!(Graph::load(&graph_path).expect("load the graph"), graph);
    assert_eq!(Scene::load(&scene_path).expect("load the scene"), scene);
    assert_eq!(FlowField::load(&flow_path).expect("load the field"), flow);
    assert_eq!(
        std::fs::read_to_string(&graph_path).expect("read"),
        graph.to_ron().expect("serializable")
    );
    // Saving over an existing file replaces it and leaves nothing else behind.
    let mut changed = graph.clone();
    changed.description = "changed".to_owned();
    changed.save(&graph_path).expect("save over the graph");
    assert_eq!(Graph::load(&graph_path).expect("load the graph"), changed);
    assert_eq!(
        files_in(directory.path()).len(),
        3,
        "no temporary files left"
    );
}

#[test]
fn saving_into_a_missing_directory_is_an_io_error() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let path = directory.path().join("missing").join("a.graph.ron");
    let error = small_graph().save(&path).expect_err("no such directory");
    match &error {
        SaveError::Io {
            path: shown,
            source,
        } => {
            assert_eq!(shown, &path.display().to_string());
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("expected SaveError::Io, got {other:?}"),
    }
    assert!(
        error
            .to_string()
            .starts_with(&format!("{}: cannot save: ", path.display())),
        "{error}"
    );
    assert!(!path.exists());
    assert!(files_in(directory.path()).is_empty(), "nothing was created");
}

#[test]
fn saving_under_a_regular_file_is_an_io_error() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let not_a_directory = directory.path().join("plain.txt");
    std::fs::write(&not_a_directory, "keep me").expect("write a file");
    let error = small_graph()
        .save(&not_a_directory.join("a.graph.ron"))
        .expect_err("a file is not a directory");
    assert!(matches!(error, SaveError::Io { .. }), "{error:?}");
    assert_eq!(
        std::fs::read_to_string(&not_a_directory).expect("read"),
        "keep me"
    );
}

#[test]
fn a_long_but_legal_file_name_saves() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    // 255 bytes, the longest name most file systems accept.
    let name = format!("{}.graph.ron", "g".repeat(245));
    let path = directory.path().join(&name);
    let graph = small_graph();
    graph.save(&path).expect("a long name saves");
    assert_eq!(Graph::load(&path).expect("loads"), graph);
    assert_eq!(
        files_in(directory.path()),
        vec![name],
        "no temporary file left"
    );
}

#[test]
fn a_save_onto_a_folder_is_refused_and_leaves_it_untouched_with_no_temporary_file() {
    // A folder is not a regular file: the save refuses it before writing anything, which no
    // permission setting can hide, so this holds whoever runs the test.
    let directory = tempfile::tempdir().expect("a temporary directory");
    let target = directory.path().join("taken.graph.ron");
    std::fs::create_dir(&target).expect("a directory where the file would go");
    let inside = target.join("keep.graph.ron");
    let original = small_graph();
    original.save(&inside).expect("save inside");
    let before = std::fs::read(&inside).expect("read");

    let error = original
        .save(&target)
        .expect_err("cannot replace a directory");
    assert!(
        matches!(
            error,
            SaveError::NotARegularFile {
                kind: "a folder",
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("taken.graph.ron"), "{error}");
    assert_eq!(std::fs::read(&inside).expect("read again"), before);
    assert_eq!(
        files_in(directory.path()),
        vec!["taken.graph.ron".to_owned()],
        "no temporary file left"
    );
}

fn finite() -> impl Strategy<Value = f32> {
    prop_oneof![
        -1e6f32..1e6,
        any::<f32>().prop_filter("finite", |x| x.is_finite()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Any finite number survives saving and loading, as a literal, a parameter default, a
    /// coordinate or a scene value, and the text is stable.
    #[test]
    fn any_finite_number_round_trips(values in prop::collection::vec(finite(), 6)) {
        let mut graph = small_graph();
        graph.parameters.insert("p".to_owned(), values[0]);
        graph.vehicle.max_force = Number::Literal(values[1]);
        graph.nodes.insert(
            NodeId(9),
            Node::Seek { target: Target::Point(Number::Literal(values[2]), Number::Literal(values[3])) },
        );
        graph.editor = Some(EditorSection {
            positions: BTreeMap::from([(NodeId(1), Vec2::new(values[4], values[5]))]),
            comments: Vec::new(),
            collapsed: std::collections::BTreeSet::from([NodeId(1)]),
        });
        graph.muted.insert(NodeId(1));
        let text = graph.to_ron().expect("serializable");
        let parsed = Graph::from_ron(&text, "p").expect("parses");
        prop_assert_eq!(&parsed, &graph);
        prop_assert_eq!(parsed.to_ron().expect("serializable"), text);

        let mut scene = Scene::default();
        scene.obstacles.push(Obstacle { center: Vec2::new(values[0], values[1]), radius: values[2] });
        scene.targets.insert("t".to_owned(), Vec2::new(values[3], values[4]));
        let text = scene.to_ron().expect("serializable");
        let parsed = Scene::from_ron(&text, "s").expect("parses");
        prop_assert_eq!(&parsed, &scene);
    }
}

#[test]
fn slots_of_every_kind_can_be_wired_through_input_mut() {
    // The generic port view that the round trip relies on to wire ports covers every port.
    for &kind in NodeKind::ALL {
        let mut node = kind.instantiate();
        for port in node.inputs() {
            *node
                .input_mut(port.slot)
                .expect("every listed port is editable") = Link::to(5);
        }
        assert!(
            node.inputs().iter().all(|port| port.link == Link::to(5)),
            "{kind}"
        );
        assert!(
            node.input_mut(Slot::field("no_such_port")).is_none(),
            "{kind}"
        );
    }
}

#[test]
fn a_file_is_written_with_the_oldest_version_that_holds_it() {
    // A graph without the angular layer stays version 1.
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::default(),
    });
    graph.add(Node::Output {
        input: Link(Some(seek)),
    });
    let text = graph.to_ron().expect("serializable");
    assert!(text.contains("version: 1,"), "{text}");
    assert!(!text.contains("turning"), "{text}");
    // Independent facing needs version 2, and survives the round trip.
    graph.turning.independent_facing = true;
    graph.turning.max_turn_rate = Some(90.0.into());
    let text = graph.to_ron().expect("serializable");
    assert!(text.contains("version: 2,"), "{text}");
    let back = Graph::from_ron(&text, "turning.graph.ron").expect("loads");
    assert_eq!(back.turning, graph.turning);
    // A scene with a gap or a jump link is version 2; one without is version 1.
    let mut scene = Scene {
        bounds: Rect::new(Vec2::splat(-10.0), Vec2::splat(10.0)),
        ..Scene::default()
    };
    assert!(scene.to_ron().expect("text").contains("version: 1,"));
    scene.jump_links.insert(
        "leap".to_owned(),
        graph_runtime::JumpLink::new(Vec2::ZERO, Vec2::X),
    );
    scene
        .gaps
        .push(graph_runtime::Gap::new(vec![Vec2::ZERO, Vec2::X, Vec2::Y]));
    let text = scene.to_ron().expect("text");
    assert!(text.contains("version: 2,"), "{text}");
    let back = Scene::from_ron(&text, "jumps.scene.ron").expect("loads");
    assert_eq!(back, scene);
}
