//! Benchmarks: the boids workload (flocking with obstacle avoidance by priority) at 1,000,
//! 4,000 and 16,000 agents through the full parallel simulation; the compiled graph against
//! the same behavior written by hand; and compiling a 500-node graph.

#[path = "boids_fixture.rs"]
mod boids_fixture;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use graph_runtime::{Graph, Link, Node, NodeId, Simulation, Target, WeightedInput, compile};

/// Agent counts of the scaling benchmark.
const AGENT_COUNTS: [usize; 3] = [1_000, 4_000, 16_000];
/// Agents in the graph-versus-hand-written comparison.
const COMPARISON_AGENTS: usize = 4_000;
/// Nodes in the compile-time benchmark.
const COMPILE_NODES: u32 = 500;

fn boids_simulation(agents: usize) -> Simulation {
    let assets = boids_fixture::scene_assets(agents, boids_fixture::graph(), Vec::new());
    let mut simulation = Simulation::new(&assets).expect("bench scene");
    // Let the flock form before measuring.
    for _ in 0..30 {
        simulation.step(boids_fixture::DT);
    }
    simulation
}

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("boids_tick");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(6));
    for agents in AGENT_COUNTS {
        let mut simulation = boids_simulation(agents);
        group.throughput(Throughput::Elements(agents as u64));
        group.bench_with_input(BenchmarkId::from_parameter(agents), &agents, |b, _| {
            b.iter(|| simulation.step(black_box(boids_fixture::DT)));
        });
    }
    group.finish();
}

fn graph_versus_hand_written(c: &mut Criterion) {
    let mut group = c.benchmark_group("graph_vs_hand_written_4000_single_thread");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Elements(COMPARISON_AGENTS as u64));
    let mut graph = boids_fixture::Flock::new(COMPARISON_AGENTS);
    let mut hand = boids_fixture::Flock::new(COMPARISON_AGENTS);
    for _ in 0..30 {
        graph.tick_graph();
        hand.tick_hand_written();
    }
    assert_eq!(
        graph.vehicles, hand.vehicles,
        "both evaluators must compute the same motion"
    );
    group.bench_function("compiled_graph", |b| b.iter(|| graph.tick_graph()));
    group.bench_function("hand_written", |b| b.iter(|| hand.tick_hand_written()));
    group.finish();
}

/// A graph of `nodes` nodes: behaviors fed four at a time, with the previous blend, into a
/// chain of blends ending in the Output.
fn large_graph(nodes: u32) -> Graph {
    let mut graph = Graph::default();
    graph.parameters.insert("gain".to_owned(), 1.0);
    let mut previous: Option<NodeId> = None;
    while (graph.nodes.len() as u32) + 6 <= nodes {
        let mut inputs = Vec::new();
        for k in 0..4u32 {
            let id = graph.next_id().0;
            let leaf = match (id + k) % 4 {
                0 => Node::Seek {
                    target: Target::Point((id as f32).into(), 0.0.into()),
                },
                1 => Node::Separation {
                    radius: 2.0.into(),
                    fov: 270.0.into(),
                    max_neighbors: 64.0.into(),
                },
                2 => Node::Arrival {
                    target: Target::Named("cursor".into()),
                    slowing_distance: "gain".into(),
                },
                _ => Node::Wander {
                    distance: 2.0.into(),
                    radius: 1.0.into(),
                    jitter: 45.0.into(),
                    face: false,
                },
            };
            let leaf = graph.add(leaf);
            inputs.push(WeightedInput {
                node: Link(Some(leaf)),
                weight: "gain".into(),
            });
        }
        if let Some(previous) = previous {
            inputs.push(WeightedInput {
                node: Link(Some(previous)),
                weight: 1.0.into(),
            });
        }
        previous = Some(graph.add(Node::Blend { inputs }));
    }
    while (graph.nodes.len() as u32) + 1 < nodes {
        graph.add(Node::Speed);
    }
    graph.add(Node::Output {
        input: Link(previous),
    });
    graph
}

fn compile_time(c: &mut Criterion) {
    let graph = large_graph(COMPILE_NODES);
    assert_eq!(graph.nodes.len(), COMPILE_NODES as usize);
    compile(&graph).expect("the large graph compiles");
    c.bench_function("compile_500_nodes", |b| {
        b.iter(|| compile(black_box(&graph)));
    });
    // As a Simulation and the editor compile: the program keeps the graph (for replay files).
    let library = std::collections::BTreeMap::new();
    c.bench_function("compile_500_nodes_keeping_source", |b| {
        b.iter(|| graph_runtime::compile_keeping_source(black_box(&graph), "", &library));
    });
}

/// A 256 × 256 field like a generated one: unit vectors in every direction.
fn field_256() -> graph_runtime::FlowField {
    let mut field = graph_runtime::FlowField::new(glam::Vec2::ZERO, 1.0, 256, 256);
    for (index, vector) in field.vectors.iter_mut().enumerate() {
        *vector = glam::Vec2::from_angle(index as f32 * 0.618_034);
    }
    field
}

fn flow_field_files(c: &mut Criterion) {
    let field = field_256();
    let text = field.to_ron().expect("serializable");
    eprintln!("flow_field_256: {} bytes as .flow.ron text", text.len());
    c.bench_function("flow_field_256_load", |b| {
        b.iter(|| graph_runtime::FlowField::from_ron(black_box(&text), "bench").expect("loads"));
    });
    c.bench_function("flow_field_256_save_text", |b| {
        b.iter(|| black_box(&field).to_ron());
    });
}

criterion_group!(
    benches,
    scaling,
    graph_versus_hand_written,
    compile_time,
    flow_field_files
);
criterion_main!(benches);
