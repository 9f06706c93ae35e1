//! Loading graphs, scenes and flow fields: every kind of `LoadError`, with the place it names,
//! and no input text that makes a loader panic.

use graph_runtime::{FlowField, Graph, LoadError, Scene, TextPosition};
use proptest::prelude::*;

/// The parts of a `LoadError::Syntax`, or a failure naming what came instead.
fn syntax(error: LoadError) -> (String, TextPosition, String) {
    match error {
        LoadError::Syntax {
            path,
            position,
            message,
        } => (path, position, message),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

fn at(line: usize, col: usize) -> TextPosition {
    TextPosition { line, col }
}

/// Asserts that `error` is a syntax error of file `path` at `line:col` whose message mentions
/// every word of `words`.
#[track_caller]
fn assert_syntax_at(error: LoadError, path: &str, (line, col): (usize, usize), words: &[&str]) {
    let (actual_path, position, message) = syntax(error);
    assert_eq!((actual_path.as_str(), position), (path, at(line, col)));
    assert_mentions(&message, words);
}

/// Asserts that `error` refuses a newer file: (path, kind, version found, newest supported).
#[track_caller]
fn assert_newer(error: LoadError, expected: (&str, &str, u32, u32)) {
    match error {
        LoadError::NewerVersion {
            path,
            kind,
            found,
            supported,
        } => assert_eq!((path.as_str(), kind, found, supported), expected),
        other => panic!("expected NewerVersion, got {other:?}"),
    }
}

/// Asserts that `message` mentions every word of `words`, ignoring case.
fn assert_mentions(message: &str, words: &[&str]) {
    let lower = message.to_lowercase();
    for word in words {
        assert!(
            lower.contains(&word.to_lowercase()),
            "message {message:?} should mention {word:?}"
        );
    }
}

const MISSING_COMMA: &str = r#"(
    format: "steergraph.graph",
    version: 1,
    nodes: {
        1: Seek(target: Named("cursor"))
        2: Output(input: 1),
    },
)
"#;

#[test]
fn a_syntax_error_names_the_line_and_column_where_it_starts() {
    let error = Graph::from_ron(MISSING_COMMA, "broken.graph.ron").expect_err("a comma is missing");
    assert_eq!(
        error.to_string(),
        "broken.graph.ron:6:9: Expected comma",
        "Display is `path:line:col: message`"
    );
    assert_syntax_at(error, "broken.graph.ron", (6, 9), &["comma"]);
}

#[test]
fn an_unclosed_file_is_a_syntax_error_not_a_panic() {
    let text = "(\n    format: \"steergraph.graph\",\n    version: 1,\n    nodes: {\n";
    let (path, position, message) =
        syntax(Graph::from_ron(text, "cut.graph.ron").expect_err("the file is cut short"));
    assert_eq!(path, "cut.graph.ron");
    assert_eq!(position.line, 5, "the end of the text: {message}");
}

#[test]
fn an_unknown_field_of_a_node_is_reported_at_the_field() {
    let text = r#"(
    format: "steergraph.graph",
    version: 1,
    nodes: {
        1: Seek(target: Named("cursor"), speed: 3.0),
        2: Output(input: 1),
    },
)
"#;
    let error = Graph::from_ron(text, "seek.graph.ron").expect_err("Seek has no `speed`");
    assert!(
        error.to_string().starts_with("seek.graph.ron:5:42: "),
        "{error}"
    );
    assert_syntax_at(
        error,
        "seek.graph.ron",
        (5, 42),
        &["speed", "Seek", "target"],
    );
}

#[test]
fn an_unknown_top_level_field_of_a_scene_is_reported_at_the_field() {
    let text = r#"(
    format: "steergraph.scene",
    version: 1,
    bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
    gravity: 9.81,
    groups: [],
)
"#;
    assert_syntax_at(
        Scene::from_ron(text, "world.scene.ron").expect_err("scenes have no gravity"),
        "world.scene.ron",
        (5, 5),
        &["gravity"],
    );
}

#[test]
fn an_unknown_field_of_a_flow_field_is_reported_at_the_field() {
    let text = r#"(
    format: "steergraph.flow",
    version: 1,
    origin: (0.0, 0.0),
    cell_size: 1.0,
    width: 1,
    height: 1,
    vectors: [(1.0, 0.0)],
    strength: 2.0,
)
"#;
    assert_syntax_at(
        FlowField::from_ron(text, "wind.flow.ron").expect_err("no `strength` field"),
        "wind.flow.ron",
        (9, 5),
        &["strength"],
    );
}

#[test]
fn a_value_of_the_wrong_type_is_reported_at_the_value() {
    let text = r#"(
    format: "steergraph.graph",
    version: 1,
    vehicle: (mass: true, max_force: 1.0, max_speed: 1.0, radius: 1.0),
    nodes: {},
)
"#;
    let error = Graph::from_ron(text, "car.graph.ron").expect_err("a mass is not a boolean");
    assert!(
        error.to_string().starts_with("car.graph.ron:4:21: "),
        "{error}"
    );
    assert_syntax_at(error, "car.graph.ron", (4, 21), &["number", "boolean"]);
}

#[test]
fn a_value_of_the_wrong_type_on_the_next_line_is_reported_on_that_line() {
    // ron's span starts right after the colon; the problem is the value, on line 5.
    let text = r#"(
    format: "steergraph.graph",
    version: 1,
    description:
        5,
    nodes: {},
)
"#;
    assert_syntax_at(
        Graph::from_ron(text, "g.graph.ron").expect_err("a description is text"),
        "g.graph.ron",
        (5, 9),
        &["string"],
    );
}

#[test]
fn wrong_types_in_every_asset_kind_point_at_the_offending_value() {
    let scene = r#"(
    format: "steergraph.scene",
    version: 1,
    bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
    seed:   "seven",
    groups: [],
)
"#;
    assert_syntax_at(
        Scene::from_ron(scene, "s.scene.ron").expect_err("a seed is a number"),
        "s.scene.ron",
        (5, 13),
        &["integer"],
    );

    let field = r#"(
    format: "steergraph.flow",
    version: 1,
    origin: (0.0, 0.0),
    cell_size: /* metres */ "big",
    width: 1,
    height: 1,
    vectors: [(1.0, 0.0)],
)
"#;
    assert_syntax_at(
        FlowField::from_ron(field, "f.flow.ron").expect_err("a cell size is a number"),
        "f.flow.ron",
        (5, 29),
        &["float"],
    );

    // Columns count characters, not bytes.
    let graph = "(format: \"steergraph.graph\", version: 1, description: \"Größe ½\", nodes: {1: Output(input: 1.5)})";
    let (_, position, message) =
        syntax(Graph::from_ron(graph, "u.graph.ron").expect_err("a node id is whole"));
    assert_eq!(position, at(1, 91));
    assert_mentions(&message, &["node id", "1.5"]);
}

#[test]
fn a_version_that_is_not_a_number_is_reported_at_the_value() {
    let text = "(\n    format: \"steergraph.graph\",\n    version: \"one\",\n    nodes: {},\n)\n";
    assert_syntax_at(
        Graph::from_ron(text, "v.graph.ron").expect_err("the version is a number"),
        "v.graph.ron",
        (3, 14),
        &["integer"],
    );
}

#[test]
fn a_missing_field_is_a_syntax_error_naming_the_field() {
    let text = "(\n    format: \"steergraph.graph\",\n    version: 1,\n)\n";
    assert_syntax_at(
        Graph::from_ron(text, "empty.graph.ron").expect_err("`nodes` is required"),
        "empty.graph.ron",
        (4, 1),
        &["missing", "nodes"],
    );
}

#[test]
fn a_newer_version_is_refused_with_a_clear_message_even_with_unknown_content() {
    let graph = r#"(
    format: "steergraph.graph",
    version: 3,
    layers: [Frob(1, 2), (a: "b")],
    nodes: {
        1: Hover(height: 3.0),
        2: Output(input: 1, smoothing: 0.5),
    },
)
"#;
    let error = Graph::from_ron(graph, "future.graph.ron").expect_err("version 3 is newer");
    assert_eq!(
        error.to_string(),
        "future.graph.ron: this graph file uses format version 3, but this Steergraph reads \
         versions up to 2; update Steergraph to open it"
    );
    assert_newer(error, ("future.graph.ron", "graph", 3, 2));

    let scene = r#"(format: "steergraph.scene", version: 7, weather: Rain(0.5), groups: ())"#;
    assert_newer(
        Scene::from_ron(scene, "future.scene.ron").expect_err("version 7 is newer"),
        ("future.scene.ron", "scene", 7, 2),
    );

    let field = r#"(format: "steergraph.flow", version: 3, vectors: "compressed")"#;
    assert_newer(
        FlowField::from_ron(field, "future.flow.ron").expect_err("version 3 is newer"),
        ("future.flow.ron", "flow field", 3, 2),
    );
}

/// Versions count from 1: `version: 0` is refused, naming the file (issue 46: it was read as
/// version 1), and a missing version is still reported by the parse, with its place.
#[test]
fn version_zero_is_refused_and_a_missing_version_is_named_where_it_is_missing() {
    let graph = r#"(format: "steergraph.graph", version: 0, nodes: {1: Output(input: None)})"#;
    let error = Graph::from_ron(graph, "zero.graph.ron").expect_err("version 0 is refused");
    assert_eq!(
        error.to_string(),
        "zero.graph.ron: `version: 0` is not a format version: graph files are version 1 to 2"
    );
    let scene = r#"(format: "steergraph.scene", version: 0, groups: [])"#;
    let error = Scene::from_ron(scene, "zero.scene.ron").expect_err("version 0 is refused");
    assert!(
        error
            .to_string()
            .starts_with("zero.scene.ron: `version: 0`"),
        "{error}"
    );
    // The same graph at version 1 loads.
    Graph::from_ron(&graph.replace("version: 0", "version: 1"), "one.graph.ron")
        .expect("version 1 loads");
    let missing = Graph::from_ron(
        r#"(format: "steergraph.graph", nodes: {1: Output(input: None)})"#,
        "none.graph.ron",
    )
    .expect_err("a version is required");
    assert!(
        missing.to_string().starts_with("none.graph.ron:1:")
            && missing.to_string().contains("version"),
        "{missing}"
    );
}

const SCENE: &str = r#"(
    format: "steergraph.scene",
    version: 1,
    bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
    groups: [],
)
"#;

#[test]
fn a_scene_opened_as_a_graph_is_the_wrong_kind() {
    let error = Graph::from_ron(SCENE, "level.scene.ron").expect_err("a scene is not a graph");
    assert_eq!(
        error.to_string(),
        r#"level.scene.ron: expected a graph file (format: "steergraph.graph"), found format: "steergraph.scene""#
    );
    match error {
        LoadError::WrongKind {
            path,
            expected,
            expected_tag,
            found,
        } => assert_eq!(
            (path.as_str(), expected, expected_tag, found.as_str()),
            (
                "level.scene.ron",
                "graph",
                "steergraph.graph",
                "steergraph.scene"
            )
        ),
        other => panic!("expected WrongKind, got {other:?}"),
    }
    match FlowField::from_ron(SCENE, "level.scene.ron").expect_err("a scene is not a field") {
        LoadError::WrongKind {
            expected, found, ..
        } => assert_eq!(
            (expected, found.as_str()),
            ("flow field", "steergraph.scene")
        ),
        other => panic!("expected WrongKind, got {other:?}"),
    }
}

/// A 2 × 2 flow field of unit cells at the origin whose vectors are `vectors`.
fn two_by_two(vectors: &str) -> String {
    format!(
        r#"(format: "steergraph.flow", version: 1, origin: (0.0, 0.0), cell_size: 1.0,
    width: 2, height: 2, vectors: [{vectors}])"#
    )
}

fn invalid(error: LoadError) -> (String, String) {
    match error {
        LoadError::Invalid { path, message } => (path, message),
        other => panic!("expected LoadError::Invalid, got {other:?}"),
    }
}

#[test]
fn a_flow_field_with_the_wrong_number_of_vectors_is_invalid() {
    let text = two_by_two("(1.0, 0.0), (0.0, 1.0), (0.0, 0.0)");
    let error = FlowField::from_ron(&text, "short.flow.ron").expect_err("3 vectors for 4 cells");
    assert_eq!(
        error.to_string(),
        "short.flow.ron: a 2x2 field needs 4 vectors, found 3"
    );
    assert_eq!(
        invalid(error),
        (
            "short.flow.ron".to_owned(),
            "a 2x2 field needs 4 vectors, found 3".to_owned()
        )
    );
}

#[test]
fn a_flow_field_vector_longer_than_one_is_invalid_and_named_by_cell() {
    let text = two_by_two("(1.0, 0.0), (0.0, 1.0), (0.0, 0.0), (0.8, 0.8)");
    let (path, message) =
        invalid(FlowField::from_ron(&text, "strong.flow.ron").expect_err("|(0.8, 0.8)| > 1"));
    assert_eq!(path, "strong.flow.ron");
    assert_mentions(&message, &["vector 3", "column 1, row 1", "length <= 1"]);

    // The same check applies to a field stored inline in a scene, named by its key.
    let scene = r#"(
    format: "steergraph.scene",
    version: 1,
    bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
    flow_fields: {
        "wind": Inline((
            origin: (0.0, 0.0),
            cell_size: 1.0,
            width: 1,
            height: 1,
            vectors: [(2.0, 0.0)],
        )),
    },
    groups: [],
)
"#;
    let (path, message) =
        invalid(Scene::from_ron(scene, "windy.scene.ron").expect_err("|(2, 0)| > 1"));
    assert_eq!(path, "windy.scene.ron");
    assert!(
        message.starts_with("flow field \"wind\": vector 0 (column 0, row 0)"),
        "{message}"
    );
}

#[test]
fn loading_a_missing_file_is_an_io_error_naming_the_file() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let path = directory.path().join("nowhere.graph.ron");
    let error = Graph::load(&path).expect_err("the file does not exist");
    let shown = path.display().to_string();
    assert!(
        error
            .to_string()
            .starts_with(&format!("{shown}: cannot read: ")),
        "{error}"
    );
    assert_eq!(error.path(), shown);
    match error {
        LoadError::Io { path, source } => {
            assert_eq!(path, shown);
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("expected LoadError::Io, got {other:?}"),
    }
}

#[test]
fn load_reads_the_file_and_names_it_in_errors() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let path = directory.path().join("broken.graph.ron");
    std::fs::write(&path, MISSING_COMMA).expect("write the file");
    let (origin, position, _) = syntax(Graph::load(&path).expect_err("a comma is missing"));
    assert_eq!((origin, position), (path.display().to_string(), at(6, 9)));
}

const VALID_GRAPH: &str = r#"(
    format: "steergraph.graph",
    version: 1,
    description: "fuzz seed",
    parameters: {"r": 4.0, "w": 1.5},
    vehicle: (mass: 1.0, max_force: 8.0, max_speed: "w", radius: 0.5),
    nodes: {
        1: Flocking(separation_weight: 2.0, cohesion_weight: 1.0, alignment_weight: 1.0, radius: "r", fov: 270.0),
        2: Seek(target: Point(1.0, -2.5)),
        3: Flee(target: NearestTagged("wolf"), panic_distance: Some(5.0)),
        4: Blend(inputs: [(node: 1, weight: 1.0), (node: 2, weight: "w")]),
        5: Dither(inputs: [(node: 3, probability: 0.5), (node: 4, probability: 1.0)], epsilon: 0.001),
        6: Priority(inputs: [5, None], epsilon: 0.01),
        7: Gate(input: 6, condition: 8),
        8: Compare(sensor: 9, test: GreaterOrEqual, threshold: 2.0),
        9: NeighborCount(radius: 3.0, fov: 360.0),
        10: Output(input: 7),
    },
    editor: Some((
        positions: {1: (0.0, 0.0), 10: (300.0, 40.5)},
        comments: [(text: "hi // /* */ \"quoted\"", position: (1.0, 2.0), size: (3.0, 4.0))],
    )),
)
"#;

const VALID_SCENE: &str = r#"(
    format: "steergraph.scene",
    version: 1,
    bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
    seed: 42,
    targets: {"goal": (1.0, 2.0)},
    obstacles: [(center: (0.0, 0.0), radius: 1.0)],
    paths: {"loop": (points: [(0.0, 0.0), (5.0, 0.0)], radius: 1.0, closed: true)},
    flow_fields: {
        "a": File("a.flow.ron"),
        "b": Inline((origin: (0.0, 0.0), cell_size: 1.0, width: 1, height: 1, vectors: [(0.5, 0.0)])),
    },
    groups: [
        (name: "g", graph: "g.graph.ron", spawn: Random(count: 3, area: Circle(center: (0.0, 0.0), radius: 2.0), speed: 1.0), tags: ["x"], parameters: {"r": 2.0}),
        (name: "h", graph: "g.graph.ron", spawn: Agents([(position: (1.0, 1.0), velocity: (0.0, 1.0))]), vehicle: Some((mass: 1.0, max_force: 1.0, max_speed: 1.0, radius: 0.1))),
    ],
)
"#;

const VALID_FIELD: &str = r#"(
    format: "steergraph.flow",
    version: 1,
    origin: (-1.0, -1.0),
    cell_size: 0.5,
    width: 2,
    height: 1,
    vectors: [(1.0, 0.0), (0.0, -0.5)],
)
"#;

#[test]
fn the_fuzzing_seeds_are_valid() {
    Graph::from_ron(VALID_GRAPH, "seed.graph.ron").expect("a valid graph");
    Scene::from_ron(VALID_SCENE, "seed.scene.ron").expect("a valid scene");
    FlowField::from_ron(VALID_FIELD, "seed.flow.ron").expect("a valid flow field");
}

/// Runs every loader on `text`; any panic fails the property test. Errors must name the origin.
fn load_everything(text: &str) {
    for result in [
        Graph::from_ron(text, "fuzz").map(drop),
        Scene::from_ron(text, "fuzz").map(drop),
        FlowField::from_ron(text, "fuzz").map(drop),
    ] {
        if let Err(error) = result {
            assert_eq!(error.path(), "fuzz");
            let _ = error.to_string();
        }
    }
    let _ = graph_runtime::sniff_kind(text);
}

#[derive(Clone, Debug)]
enum Edit {
    Delete { at: usize, len: usize },
    Insert { at: usize, text: String },
}

/// Characters that matter to RON, plus a few that do not.
fn interesting_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            ",",
            ":",
            "\"",
            "'",
            "/*",
            "*/",
            "//",
            "\n",
            "-",
            ".",
            "e",
            "1",
            "0",
            "r#",
            "#",
            "Some(",
            "None",
            "inf",
            "NaN",
            "b'",
            "\\",
            "é",
            "\u{0}",
            "99999999999999999999",
            "1e40",
            "version: 2,",
            "format: \"steergraph.scene\",",
        ])
        .prop_map(str::to_owned),
        any::<String>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1usize..8).prop_map(|(at, len)| Edit::Delete { at, len }),
        (any::<usize>(), interesting_text()).prop_map(|(at, text)| Edit::Insert { at, text }),
    ]
}

/// Applies `edits` to `text` at character boundaries.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        match edit {
            Edit::Delete { at, len } => {
                if chars.is_empty() {
                    continue;
                }
                let start = at % chars.len();
                let end = (start + len).min(chars.len());
                chars.drain(start..end);
            }
            Edit::Insert { at, text } => {
                let start = at % (chars.len() + 1);
                chars.splice(start..start, text.chars());
            }
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_random_string_makes_a_loader_panic(text in any::<String>()) {
        load_everything(&text);
    }

    #[test]
    fn no_random_ron_like_string_makes_a_loader_panic(
        text in "[(){}\\[\\],:\"a-zA-Z0-9_. \n/*#'-]{0,200}",
    ) {
        load_everything(&text);
    }

    #[test]
    fn no_mutation_of_a_valid_graph_makes_a_loader_panic(
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        load_everything(&mutate(VALID_GRAPH, &edits));
    }

    #[test]
    fn no_mutation_of_a_valid_scene_or_field_makes_a_loader_panic(
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        load_everything(&mutate(VALID_SCENE, &edits));
        load_everything(&mutate(VALID_FIELD, &edits));
    }
}

/// Every kind of asset is told from its text (`sniff_kind`, which `steergraph check` and the
/// editor use on files without the usual name), the version field read as the loader reads it.
#[test]
fn each_kind_is_told_from_its_text() {
    use graph_runtime::{AssetKind, sniff_kind};
    let graph = r#"(format: "steergraph.graph", version: 1, nodes: {1: Output(input: None)})"#;
    assert_eq!(sniff_kind(graph), Some(AssetKind::Graph));
    assert_eq!(sniff_kind(SCENE), Some(AssetKind::Scene));
    assert_eq!(
        sniff_kind(r#"(format: "steergraph.tune", version: 1)"#),
        Some(AssetKind::Tune)
    );
    assert_eq!(
        sniff_kind(r#"(format: "steergraph.graph")"#),
        Some(AssetKind::Graph)
    );
    assert_eq!(sniff_kind("(name: \"not ours\")"), None);
}
