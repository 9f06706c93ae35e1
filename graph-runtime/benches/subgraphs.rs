//! What a subgraph costs at run time (issue 14): nothing, since the compiler writes it out.
//! One tick of 10,000 boids on 2 threads across a 500 × 500 square (one agent per 25 u²),
//! `Priority(Containment, Blend(Flocking(spacing), Wander))`, built two ways:
//!
//! - `flat`: the nodes in one graph, the baseline;
//! - `subgraphs`: the same nodes in three files, each using the next: the top graph holds the
//!   Containment and a Subgraph node; `manners.graph.ron` holds the Blend with a Subgraph for
//!   the Flocking (its `spacing` passed down as a parameter) and the Wander.
//!
//! Both compile to the same number of ops (checked before timing) and run 60 ticks first.
//! `subgraph_compile` times compiling each (writing the files out is a compile-time cost).
//! Run with `cargo bench -p graph-runtime --bench subgraphs`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use graph_runtime::{
    AgentGroup, Area, Graph, Link, Node, NodeId, Number, Rect, Region, Scene, SceneAssets,
    Simulation, Spawn, WeightedInput, compile, compile_with,
};

const AGENTS: u32 = 10_000;
const HALF_SIZE: f32 = 250.0;
const DT: f32 = 1.0 / 60.0;
const THREADS: usize = 2;

fn subgraph(graph: &mut Graph, file: &str, values: &[(&str, Number)]) -> NodeId {
    graph.add(Node::Subgraph {
        file: file.to_owned(),
        parameters: values
            .iter()
            .map(|(name, value)| ((*name).to_owned(), value.clone()))
            .collect(),
    })
}

fn flocking(graph: &mut Graph, spacing: Number) -> NodeId {
    graph.add(Node::Flocking {
        separation_weight: spacing,
        cohesion_weight: 1.0.into(),
        alignment_weight: 1.0.into(),
        radius: 5.0.into(),
        fov: 360.0.into(),
        max_neighbors: 64.0.into(),
    })
}

fn blend(graph: &mut Graph, flock: NodeId) -> NodeId {
    let wander = graph.add(Node::Wander {
        distance: 3.0.into(),
        radius: 1.0.into(),
        jitter: 90.0.into(),
        face: false,
    });
    graph.add(Node::Blend {
        inputs: [(flock, 2.0), (wander, 0.5)]
            .map(|(node, weight)| WeightedInput {
                node: Link(Some(node)),
                weight: weight.into(),
            })
            .to_vec(),
    })
}

fn top(graph: &mut Graph, rest: NodeId) {
    let contain = graph.add(Node::Containment {
        bounds: Region::World,
        prediction_time: 1.0.into(),
        margin: 5.0.into(),
    });
    let priority = graph.add(Node::Priority {
        inputs: vec![Link(Some(contain)), Link(Some(rest))],
        epsilon: 1e-3.into(),
    });
    graph.add(Node::Output {
        input: Link(Some(priority)),
    });
}

fn output(mut graph: Graph, input: NodeId) -> Graph {
    graph.add(Node::Output {
        input: Link(Some(input)),
    });
    graph
}

/// The flat graph, and the top graph with its library of subgraph files.
fn graphs() -> (Graph, Graph, BTreeMap<String, Graph>) {
    let mut flat = Graph::default();
    let flock = flocking(&mut flat, 1.5.into());
    let rest = blend(&mut flat, flock);
    top(&mut flat, rest);

    let mut flock_file = Graph::default();
    flock_file.parameters.insert("spacing".to_owned(), 1.0);
    let flock = flocking(&mut flock_file, Number::from("spacing"));
    let flock_file = output(flock_file, flock);
    let mut manners = Graph::default();
    manners.parameters.insert("spacing".to_owned(), 1.0);
    let flock = subgraph(
        &mut manners,
        "flock.graph.ron",
        &[("spacing", Number::from("spacing"))],
    );
    let rest = blend(&mut manners, flock);
    let manners = output(manners, rest);
    let mut nested = Graph::default();
    let rest = subgraph(
        &mut nested,
        "parts/manners.graph.ron",
        &[("spacing", 1.5.into())],
    );
    top(&mut nested, rest);
    let library = BTreeMap::from([
        ("parts/flock.graph.ron".to_owned(), flock_file),
        ("parts/manners.graph.ron".to_owned(), manners),
    ]);
    (flat, nested, library)
}

fn simulation(graph: Graph, library: &BTreeMap<String, Graph>) -> Simulation {
    let area = Area::Rect {
        min: Vec2::splat(-HALF_SIZE),
        max: Vec2::splat(HALF_SIZE),
    };
    let scene = Scene {
        bounds: Rect::new(Vec2::splat(-HALF_SIZE), Vec2::splat(HALF_SIZE)),
        seed: 14,
        groups: vec![AgentGroup::new(
            "boids",
            "boids.graph.ron",
            Spawn::Random {
                count: AGENTS,
                area,
                speed: 1.0,
            },
        )],
        ..Scene::default()
    };
    let mut graphs = library.clone();
    graphs.insert("boids.graph.ron".to_owned(), graph);
    let assets = SceneAssets {
        scene,
        origin: "bench".to_owned(),
        graphs,
        flow_fields: BTreeMap::new(),
    };
    let mut simulation = Simulation::new(&assets).expect("bench scene");
    for _ in 0..60 {
        simulation.step(DT);
    }
    simulation
}

fn tick(c: &mut Criterion) {
    let (flat, nested, library) = graphs();
    let mut compiling = c.benchmark_group("subgraph_compile");
    compiling.bench_function("flat", |b| b.iter(|| compile(black_box(&flat))));
    compiling.bench_function("subgraphs", |b| {
        b.iter(|| compile_with(black_box(&nested), "boids.graph.ron", &library));
    });
    compiling.finish();
    let ops = compile(&flat).expect("flat compiles").len();
    let nested_ops = compile_with(&nested, "boids.graph.ron", &library)
        .expect("nested compiles")
        .len();
    assert_eq!(ops, nested_ops, "the same program");
    eprintln!("subgraphs: flat {ops} ops, with subgraphs {nested_ops} ops");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(THREADS)
        .build()
        .expect("a pool of 2 threads");
    let mut group = c.benchmark_group("subgraph_tick_10000_2_threads");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Elements(u64::from(AGENTS)));
    for (name, graph) in [("flat", flat), ("subgraphs", nested)] {
        let mut simulation = pool.install(|| simulation(graph, &library));
        group.bench_function(name, |b| {
            b.iter(|| pool.install(|| simulation.step(black_box(DT))));
        });
    }
    group.finish();
}

criterion_group!(benches, tick);
criterion_main!(benches);
