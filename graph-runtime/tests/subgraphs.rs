//! Subgraphs (`BEHAVIORS.md`, "Subgraphs"): a graph file used as one node. The compiler writes
//! it out in place, so it computes exactly what the same nodes written by hand compute; its
//! parameters are the node's fields; missing files, loops of files and bad values are errors
//! naming the node and the file.

#[expect(dead_code, reason = "each test file uses the workloads it checks")]
mod workloads;

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    CompileError, Crowd, Graph, Link, Node, NodeId, Number, Subgraphs, Target, Vehicle,
    VehicleParams, World, compile, compile_with,
};

const DOC: &str = include_str!("../BEHAVIORS.md");

const PARAMS: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 100.0,
    max_speed: 5.0,
    radius: 0.5,
};

/// The force the program gives one agent at the origin at rest.
fn force_of(program: graph_runtime::Program) -> Vec2 {
    let world = World::default();
    let mut crowd = Crowd::new(program, &world, 1, &BTreeMap::new()).expect("names resolve");
    let me = [Vehicle::new(Vec2::ZERO, Vec2::ZERO, PARAMS)];
    let mut forces = Vec::new();
    crowd.steer(&world, &me, &[], 0.1, &mut forces);
    forces[0]
}

/// A Seek of the point (`x`, `y`) into the Output.
fn seek_graph(x: Number, y: Number) -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::Point(x, y),
    });
    graph.add(Node::Output {
        input: Link(Some(seek)),
    });
    graph
}

/// A graph whose Output is fed by one Subgraph node using `file` with `values`.
fn user(file: &str, values: &[(&str, Number)]) -> (Graph, NodeId) {
    let mut graph = Graph::default();
    let node = graph.add(Node::Subgraph {
        file: file.to_owned(),
        parameters: values
            .iter()
            .map(|(name, value)| ((*name).to_owned(), value.clone()))
            .collect(),
    });
    graph.add(Node::Output {
        input: Link(Some(node)),
    });
    (graph, node)
}

/// `seek.graph.ron`: Seek (x, y) with parameters x = 3, y = 4 by default.
fn seek_library() -> BTreeMap<String, Graph> {
    let mut seek = seek_graph(Number::from("x"), Number::from("y"));
    seek.parameters = BTreeMap::from([("x".to_owned(), 3.0), ("y".to_owned(), 4.0)]);
    BTreeMap::from([("seek.graph.ron".to_owned(), seek)])
}

fn compiled(graph: &Graph, library: &BTreeMap<String, Graph>) -> graph_runtime::Program {
    compile_with(graph, "main.graph.ron", library).expect("the graph compiles")
}

#[test]
fn behaviors_md_says_what_a_subgraph_is() {
    for quote in [
        "A Subgraph node stands for another graph file. Before compiling, the compiler writes the file",
        "A parameter the node gives no value keeps the default written in the subgraph's file.",
    ] {
        assert!(DOC.contains(quote), "BEHAVIORS.md no longer says: {quote}");
    }
}

#[test]
fn a_subgraph_takes_its_defaults_the_node_values_and_the_users_parameters() {
    // From rest at max_speed 5, Seek (x, y) gives 5 * (x, y) / |(x, y)|.
    let library = seek_library();
    // Defaults x = 3, y = 4: (3, 4), already of length 5.
    let (graph, _) = user("seek.graph.ron", &[]);
    assert_eq!(force_of(compiled(&graph, &library)), Vec2::new(3.0, 4.0));
    // The node gives y = -4: (3, -4).
    let (graph, _) = user("seek.graph.ron", &[("y", Number::Literal(-4.0))]);
    assert_eq!(force_of(compiled(&graph, &library)), Vec2::new(3.0, -4.0));
    // The node passes the user's own parameter `side` = 0 as x, and y = 2: (0, 2) -> (0, 5).
    let (mut graph, _) = user(
        "seek.graph.ron",
        &[("x", Number::from("side")), ("y", Number::Literal(2.0))],
    );
    graph.parameters.insert("side".to_owned(), 0.0);
    assert_eq!(force_of(compiled(&graph, &library)), Vec2::new(0.0, 5.0));
}

#[test]
fn a_subgraph_compiles_to_exactly_the_program_of_the_same_nodes_written_out() {
    // Blend(Subgraph(seek (3, 4)) * 1, Seek (-6, 8) * 2): the flat graph has the same nodes.
    let library = seek_library();
    let mut nested = Graph::default();
    let sub = nested.add(Node::Subgraph {
        file: "seek.graph.ron".to_owned(),
        parameters: BTreeMap::new(),
    });
    let other = nested.add(Node::Seek {
        target: Target::Point(Number::Literal(-6.0), Number::Literal(8.0)),
    });
    let blend = |a, b| Node::Blend {
        inputs: vec![
            graph_runtime::WeightedInput {
                node: Link(Some(a)),
                weight: Number::Literal(1.0),
            },
            graph_runtime::WeightedInput {
                node: Link(Some(b)),
                weight: Number::Literal(2.0),
            },
        ],
    };
    let top = nested.add(blend(sub, other));
    nested.add(Node::Output {
        input: Link(Some(top)),
    });
    let mut flat = Graph::default();
    let seek = flat.add(Node::Seek {
        target: Target::Point(Number::Literal(3.0), Number::Literal(4.0)),
    });
    let other = flat.add(Node::Seek {
        target: Target::Point(Number::Literal(-6.0), Number::Literal(8.0)),
    });
    let top = flat.add(blend(seek, other));
    flat.add(Node::Output {
        input: Link(Some(top)),
    });
    let (nested, flat) = (
        compiled(&nested, &library),
        compile(&flat).expect("compiles"),
    );
    // Three ops each (two Seeks and the Blend): the Subgraph node itself costs nothing.
    assert_eq!(nested.len(), flat.len());
    // (3, 4) + 2 * (-3, 4) = (-3, 12), bit for bit the same.
    assert_eq!(force_of(nested), Vec2::new(-3.0, 12.0));
    assert_eq!(force_of(flat), Vec2::new(-3.0, 12.0));
}

#[test]
fn subgraphs_nest_and_name_files_from_their_own_folder() {
    // main -> lib/wrap.graph.ron -> "seek.graph.ron" beside it, which is lib/seek.graph.ron.
    let mut library: BTreeMap<String, Graph> = seek_library()
        .into_iter()
        .map(|(key, graph)| (format!("lib/{key}"), graph))
        .collect();
    let (mut wrap, _) = user("seek.graph.ron", &[("x", Number::from("across"))]);
    wrap.parameters.insert("across".to_owned(), -3.0);
    library.insert("lib/wrap.graph.ron".to_owned(), wrap);
    let (graph, _) = user("lib/wrap.graph.ron", &[]);
    // across = -3 reaches x; y keeps 4: (-3, 4).
    assert_eq!(force_of(compiled(&graph, &library)), Vec2::new(-3.0, 4.0));
    assert_eq!(
        graph_runtime::subgraph_key("lib/wrap.graph.ron", "../seek.graph.ron"),
        "seek.graph.ron"
    );
    assert_eq!(
        graph_runtime::subgraph_key("a.graph.ron", "./lib\\b.graph.ron"),
        "lib/b.graph.ron"
    );
}

#[test]
fn a_missing_file_is_an_error_naming_the_node_and_the_file() {
    let (graph, node) = user("lib/none.graph.ron", &[]);
    let errors = compile_with(&graph, "main.graph.ron", &BTreeMap::new()).expect_err("refused");
    assert_eq!(
        errors,
        vec![CompileError::SubgraphMissing {
            node,
            file: "lib/none.graph.ron".to_owned()
        }]
    );
    assert_eq!(
        errors[0].to_string(),
        "node #1: subgraph file \"lib/none.graph.ron\" is not loaded (missing or unreadable)"
    );
    // A node added but not yet pointed at a file says so.
    let (unset, node) = user("", &[]);
    let errors = compile(&unset).expect_err("refused");
    assert_eq!(
        errors[0].to_string(),
        format!("node {node}: the Subgraph node names no graph file yet")
    );
    // Without a library (plain `compile`) it is the same error.
    assert_eq!(compile(&graph).expect_err("refused").len(), 1);
}

#[test]
fn files_using_each_other_are_an_error_listing_the_loop() {
    // main uses a, a uses b, b uses a.
    let (a, _) = user("b.graph.ron", &[]);
    let (b, b_node) = user("a.graph.ron", &[]);
    let library = BTreeMap::from([("a.graph.ron".to_owned(), a), ("b.graph.ron".to_owned(), b)]);
    let (graph, node) = user("a.graph.ron", &[]);
    let errors = compile_with(&graph, "main.graph.ron", &library).expect_err("refused");
    let loop_in_b = CompileError::SubgraphCycle {
        node: b_node,
        files: vec![
            "a.graph.ron".into(),
            "b.graph.ron".into(),
            "a.graph.ron".into(),
        ],
    };
    let in_b = CompileError::InSubgraph {
        node: NodeId(1),
        file: "b.graph.ron".to_owned(),
        error: Box::new(loop_in_b),
    };
    let expected = CompileError::InSubgraph {
        node,
        file: "a.graph.ron".to_owned(),
        error: Box::new(in_b),
    };
    assert_eq!(errors, vec![expected]);
    assert!(
        errors[0]
            .to_string()
            .ends_with("loop: a.graph.ron -> b.graph.ron -> a.graph.ron"),
        "{}",
        errors[0]
    );
    // A file using itself.
    let (own, _) = user("main.graph.ron", &[]);
    let errors = compile_with(&own, "main.graph.ron", &BTreeMap::new()).expect_err("refused");
    assert!(matches!(&errors[0], CompileError::SubgraphCycle { files, .. } if files.len() == 2));
}

#[test]
fn bad_values_and_broken_files_are_told_about_the_subgraph_node() {
    let library = seek_library();
    // A parameter the file does not declare.
    let (graph, node) = user("seek.graph.ron", &[("z", Number::Literal(1.0))]);
    let errors = compile_with(&graph, "main.graph.ron", &library).expect_err("refused");
    assert_eq!(
        errors[0].to_string(),
        format!("node {node}: subgraph \"seek.graph.ron\" declares no parameter \"z\"")
    );
    // A value the user's graph does not declare: caught at the node itself.
    let (graph, node) = user("seek.graph.ron", &[("x", Number::from("nope"))]);
    let errors = compile_with(&graph, "main.graph.ron", &library).expect_err("refused");
    assert_eq!(errors[0].node(), Some(node));
    // A value out of the field's range: a Wander radius of -1 inside the file.
    let mut wander = Graph::default();
    wander.parameters.insert("size".to_owned(), 1.0);
    let w = wander.add(Node::Wander {
        distance: Number::Literal(2.0),
        radius: Number::from("size"),
        jitter: Number::Literal(10.0),
        face: false,
    });
    wander.add(Node::Output {
        input: Link(Some(w)),
    });
    let library = BTreeMap::from([("wander.graph.ron".to_owned(), wander)]);
    let (graph, node) = user("wander.graph.ron", &[("size", Number::Literal(-1.0))]);
    let errors = compile_with(&graph, "main.graph.ron", &library).expect_err("refused");
    assert_eq!(errors.len(), 1);
    let CompileError::InSubgraph {
        node: at,
        file,
        error,
    } = &errors[0]
    else {
        panic!("expected an error inside the subgraph, got {errors:?}");
    };
    assert_eq!((*at, file.as_str()), (node, "wander.graph.ron"));
    // The inner error names the Wander by its id in the file (1).
    assert_eq!(error.node(), Some(w));
    // A file that does not compile on its own (no Output).
    let library = BTreeMap::from([("empty.graph.ron".to_owned(), Graph::default())]);
    let (graph, node) = user("empty.graph.ron", &[]);
    let errors = compile_with(&graph, "main.graph.ron", &library).expect_err("refused");
    assert_eq!(
        errors,
        vec![CompileError::InSubgraph {
            node,
            file: "empty.graph.ron".to_owned(),
            error: Box::new(CompileError::NoOutput),
        }]
    );
}

#[test]
fn muting_a_subgraph_node_or_a_node_inside_it_silences_it() {
    let mut library = seek_library();
    let (mut graph, node) = user("seek.graph.ron", &[]);
    graph.muted.insert(node);
    assert_eq!(force_of(compiled(&graph, &library)), Vec2::ZERO);
    // The Seek muted inside the file stays muted where the file is used.
    let seek = library.get_mut("seek.graph.ron").expect("the seek file");
    seek.muted.insert(NodeId(1));
    let (graph, _) = user("seek.graph.ron", &[]);
    assert_eq!(force_of(compiled(&graph, &library)), Vec2::ZERO);
}

/// Level k uses level k-1 twice: 2^40 nodes if written out naively. The compiler must give up
/// early with a size error instead of running out of time or memory: the memory it holds is
/// counted here, the time is a release check (`examples/time_bounds.rs`).
#[test]
fn files_used_many_times_deep_down_are_written_out_once_and_refused_when_too_big() {
    let (graph, library) = workloads::deep_subgraphs();
    let mut result = None;
    let held = allocation_counter::measure(|| {
        result = Some(compile_with(&graph, "main.graph.ron", &library));
    });
    let errors = result.expect("ran").expect_err("refused");
    // The 41 files, four nodes each, written out once each: 0.77 MiB held at most (measured).
    // Writing out the 100,000 nodes of the limit before refusing would hold at least 100,000
    // nodes of 168 bytes (a `Node`'s size), 16 MiB.
    assert!(
        held.bytes_max < 4 * 1024 * 1024,
        "{} bytes held at once",
        held.bytes_max
    );
    assert!(errors.len() <= 8, "{} errors", errors.len());
    let text = errors[0].to_string();
    assert!(
        text.contains("levels of subgraphs within subgraphs")
            || text.contains("nodes once subgraphs are written out"),
        "{text}"
    );
}

#[test]
fn a_graph_file_finds_its_subgraphs_on_disk_and_only_inside_its_folder() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let root = folder.path();
    std::fs::create_dir(root.join("lib")).expect("lib folder");
    let library = seek_library();
    library["seek.graph.ron"]
        .save(&root.join("lib/seek.graph.ron"))
        .expect("save the subgraph");
    let (graph, _) = user("lib/seek.graph.ron", &[("y", Number::Literal(-4.0))]);
    graph.save(&root.join("main.graph.ron")).expect("save");
    let loaded = Graph::load(&root.join("main.graph.ron")).expect("load");
    let subgraphs = Subgraphs::load(&loaded, &root.join("main.graph.ron"));
    assert!(subgraphs.problems.is_empty(), "{:?}", subgraphs.problems);
    assert_eq!(subgraphs.files(), vec![root.join("lib/seek.graph.ron")]);
    assert!(subgraphs.covers(&loaded));
    let program = subgraphs.compile(&loaded).expect("compiles");
    assert_eq!(force_of(program), Vec2::new(3.0, -4.0));
    // A graph naming a file outside its folder is refused, with the reason.
    let (outside, node) = user("../elsewhere.graph.ron", &[]);
    let subgraphs = Subgraphs::load(&outside, &root.join("main.graph.ron"));
    let problem = subgraphs.problems[0].to_string();
    assert!(problem.contains(&format!("node {node}")), "{problem}");
    assert!(problem.contains("leaves the scene's folder"), "{problem}");
    assert!(!subgraphs.covers(&user("lib/seek.graph.ron", &[]).0));
    // A missing file: reported, watched, and a compile error naming the node.
    let (missing, node) = user("lib/gone.graph.ron", &[]);
    let subgraphs = Subgraphs::load(&missing, &root.join("main.graph.ron"));
    assert_eq!(subgraphs.problems.len(), 1);
    assert_eq!(subgraphs.files(), vec![root.join("lib/gone.graph.ron")]);
    let errors = subgraphs.compile(&missing).expect_err("refused");
    assert_eq!(errors[0].node(), Some(node));
}

/// Positions and velocities of every agent, as bits, after `ticks` ticks of the scene file.
fn run_scene(path: &std::path::Path, ticks: usize) -> Vec<[u32; 4]> {
    let assets = graph_runtime::SceneAssets::load(path).expect("the scene loads");
    let mut simulation = graph_runtime::Simulation::new(&assets).expect("the scene runs");
    for _ in 0..ticks {
        simulation.step(1.0 / 60.0);
    }
    simulation
        .vehicles()
        .iter()
        .map(|v| [v.position.x, v.position.y, v.velocity.x, v.velocity.y].map(f32::to_bits))
        .collect()
}

#[test]
fn a_scene_runs_a_graph_with_subgraphs_bit_for_bit_like_the_flat_graph() {
    // Flocking + Wander blended, as one subgraph file in graphs/parts/ used by
    // graphs/boids.graph.ron, against the same nodes written into one graph.
    let flock = |graph: &mut Graph| {
        let f = graph.add(Node::Flocking {
            separation_weight: Number::from("spacing"),
            cohesion_weight: Number::Literal(1.0),
            alignment_weight: Number::Literal(1.0),
            radius: Number::Literal(4.0),
            fov: Number::Literal(270.0),
            max_neighbors: 64.0.into(),
        });
        let w = graph.add(Node::Wander {
            distance: Number::Literal(3.0),
            radius: Number::Literal(1.0),
            jitter: Number::Literal(90.0),
            face: false,
        });
        graph.add(Node::Blend {
            inputs: [(f, 4.0), (w, 0.5)]
                .map(|(n, weight)| graph_runtime::WeightedInput {
                    node: Link(Some(n)),
                    weight: Number::Literal(weight),
                })
                .to_vec(),
        })
    };
    let folder = tempfile::tempdir().expect("a temporary folder");
    let root = folder.path();
    std::fs::create_dir_all(root.join("graphs/parts")).expect("folders");
    let mut part = Graph::default();
    part.parameters.insert("spacing".to_owned(), 1.0);
    let out = flock(&mut part);
    part.add(Node::Output {
        input: Link(Some(out)),
    });
    part.save(&root.join("graphs/parts/flock.graph.ron"))
        .expect("save");
    let (mut user_graph, _) = user("parts/flock.graph.ron", &[("spacing", Number::from("sep"))]);
    user_graph.parameters.insert("sep".to_owned(), 2.0);
    user_graph
        .save(&root.join("graphs/boids.graph.ron"))
        .expect("save");
    let mut flat = Graph::default();
    flat.parameters.insert("spacing".to_owned(), 2.0);
    let out = flock(&mut flat);
    flat.add(Node::Output {
        input: Link(Some(out)),
    });
    flat.save(&root.join("flat.graph.ron")).expect("save");
    let scene = |graph: &str| {
        format!(
            r#"(format: "steergraph.scene", version: 1, seed: 9,
    bounds: (min: (-40.0, -40.0), max: (40.0, 40.0)),
    groups: [(name: "boids", graph: "{graph}",
        spawn: Random(count: 120, area: Circle(center: (0.0, 0.0), radius: 15.0), speed: 2.0))],
)"#
        )
    };
    std::fs::write(root.join("sub.scene.ron"), scene("graphs/boids.graph.ron")).expect("write");
    std::fs::write(root.join("flat.scene.ron"), scene("flat.graph.ron")).expect("write");
    let with_subgraph = run_scene(&root.join("sub.scene.ron"), 240);
    assert_eq!(with_subgraph.len(), 120);
    assert_eq!(with_subgraph, run_scene(&root.join("flat.scene.ron"), 240));
}

#[test]
fn an_absolute_subgraph_path_stays_absolute_and_is_refused_by_name() {
    assert_eq!(
        graph_runtime::subgraph_key("main.graph.ron", "/name.graph.ron"),
        "/name.graph.ron"
    );
    assert_eq!(
        graph_runtime::subgraph_key("lib/main.graph.ron", "C:\\x.graph.ron"),
        "C:\\x.graph.ron"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    // The folder's own name.graph.ron must not stand in for "/name.graph.ron".
    std::fs::write(
        dir.path().join("name.graph.ron"),
        r#"(format: "steergraph.graph", version: 1, nodes: {1: Seek(target: Point(1.0, 0.0)), 2: Output(input: 1)})"#,
    )
    .expect("written");
    let graph = Graph::from_ron(
        r#"(format: "steergraph.graph", version: 1, nodes: {1: Subgraph(file: "/name.graph.ron"), 2: Output(input: 1)})"#,
        "main.graph.ron",
    )
    .expect("parses");
    let subgraphs = graph_runtime::Subgraphs::load(&graph, &dir.path().join("main.graph.ron"));
    assert!(subgraphs.library.is_empty(), "nothing loaded");
    let errors = subgraphs.compile(&graph).expect_err("refused");
    let messages = subgraphs.messages("main.graph.ron", &errors).join("\n");
    assert!(
        messages.contains("\"/name.graph.ron\" is an absolute path"),
        "{messages}"
    );
}
