//! What Reciprocal (ORCA) costs (issue 13): one tick of 10,000 agents on 2 threads, each
//! arriving at its own random goal across a 300 × 300 square (one agent per 9 u², about nine
//! neighbors within 5 units), with
//!
//! - `reciprocal`: `Reciprocal(Arrival(Own goal))`, the settings of `presets/orca_crowd`
//!   (horizon 2 s, neighbors within 5, at most 10, clearance 0.1, keep right 10°);
//! - `separation`: the cheapest crowd avoidance the runtime has, the baseline:
//!   `Blend(Separation(1.5, 360°), Arrival(Own goal))`, same agents, goals and vehicle.
//!
//! Both run 60 ticks before timing, so the crowd is moving and the grid is warm.
//! Run with `cargo bench -p graph-runtime --bench reciprocal`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use graph_runtime::{
    AgentGroup, Area, Graph, Link, Node, OwnPoints, Rect, Scene, SceneAssets, Simulation, Spawn,
    Target, VehicleParams,
};

const AGENTS: u32 = 10_000;
const HALF_SIZE: f32 = 150.0;
const DT: f32 = 1.0 / 60.0;
const THREADS: usize = 2;

/// The vehicle of `presets/orca_crowd.graph.ron`.
const VEHICLE: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 240.0,
    max_speed: 4.0,
    radius: 0.5,
};

fn arrival(graph: &mut Graph) -> Link {
    Link(Some(graph.add(Node::Arrival {
        target: Target::Own("goal".to_owned()),
        slowing_distance: 4.0.into(),
    })))
}

fn reciprocal_graph() -> Graph {
    let mut graph = Graph::default();
    let input = arrival(&mut graph);
    let reciprocal = graph.add(Node::Reciprocal {
        input,
        time_horizon: 2.0.into(),
        obstacle_time_horizon: 1.0.into(),
        neighbor_radius: 5.0.into(),
        max_neighbors: 10.0.into(),
        clearance: 0.1.into(),
        keep_right: 10.0.into(),
    });
    graph.add(Node::Output {
        input: Link(Some(reciprocal)),
    });
    graph
}

fn separation_graph() -> Graph {
    let mut graph = Graph::default();
    let goal = arrival(&mut graph);
    let separation = graph.add(Node::Separation {
        radius: 1.5.into(),
        fov: 360.0.into(),
        max_neighbors: 64.0.into(),
    });
    let blend = graph.add(Node::Blend {
        inputs: vec![
            graph_runtime::WeightedInput {
                node: Link(Some(separation)),
                weight: 1.0.into(),
            },
            graph_runtime::WeightedInput {
                node: goal,
                weight: 1.0.into(),
            },
        ],
    });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    graph
}

fn simulation(graph: Graph) -> Simulation {
    let area = Area::Rect {
        min: Vec2::splat(-HALF_SIZE),
        max: Vec2::splat(HALF_SIZE),
    };
    let scene = Scene {
        bounds: Rect::new(Vec2::splat(-HALF_SIZE), Vec2::splat(HALF_SIZE)),
        seed: 13,
        groups: vec![AgentGroup {
            vehicle: Some(VEHICLE),
            goals: [("goal".to_owned(), OwnPoints::Random(area))].into(),
            ..AgentGroup::new(
                "crowd",
                "crowd.graph.ron",
                Spawn::Random {
                    count: AGENTS,
                    area,
                    speed: 0.0,
                },
            )
        }],
        ..Scene::default()
    };
    let assets = SceneAssets {
        scene,
        origin: "bench".to_owned(),
        graphs: [("crowd.graph.ron".to_owned(), graph)].into(),
        flow_fields: BTreeMap::new(),
    };
    let mut simulation = Simulation::new(&assets).expect("bench scene");
    for _ in 0..60 {
        simulation.step(DT);
    }
    simulation
}

fn tick(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(THREADS)
        .build()
        .expect("a pool of 2 threads");
    let mut group = c.benchmark_group("reciprocal_tick_10000_2_threads");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Elements(u64::from(AGENTS)));
    for (name, graph) in [
        ("separation", separation_graph()),
        ("reciprocal", reciprocal_graph()),
    ] {
        let mut simulation = pool.install(|| simulation(graph));
        group.bench_function(name, |b| {
            b.iter(|| pool.install(|| simulation.step(black_box(DT))));
        });
        eprintln!(
            "reciprocal_tick_10000_2_threads/{name}: {} agents stuck after {} ticks",
            simulation.stuck_count(),
            simulation.tick()
        );
    }
    group.finish();
}

criterion_group!(benches, tick);
criterion_main!(benches);
