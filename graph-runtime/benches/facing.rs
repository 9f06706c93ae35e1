//! The cost of independent facing (issue 26), on the Flock workload of `versus_fast_loop`
//! (`Blend[Separation, Cohesion, Alignment, Wander]`, 16,000 agents). Three simulations tick
//! in turn in one process, so all see the same load:
//!
//! - *plain*: the Flock graph;
//! - *look, facing off*: the same graph with a `LookWhereYouAreGoing` added to the Blend
//!   (values now carry an angular part), its vehicles facing where they move;
//! - *look, facing on*: that graph with independent facing, so every agent turns its own
//!   facing every tick.
//!
//! The cost of independent facing is *facing on* against *facing off* (the same graph); what
//! the whole angular layer costs is *facing on* against *plain*. On one thread and on two.
//!
//! Run with `cargo bench -p graph-runtime --bench facing`. `STEERGRAPH_BENCH_AGENTS` sets the
//! agent count (16,000 by default).

#[path = "fast_loop.rs"]
#[expect(
    dead_code,
    reason = "the fast loop itself is versus_fast_loop's; this uses its workload"
)]
mod fast_loop;

use std::time::{Duration, Instant};

use fast_loop::{DT, Workload};
use graph_runtime::{Graph, Link, Node, Simulation, WeightedInput};

/// Ticks before measuring.
const WARM_UP_TICKS: usize = 20;
/// Measured ticks of each simulation.
const MEASURED_TICKS: usize = 300;

/// The Flock graph; with `look`, a `LookWhereYouAreGoing` in its Blend; with `facing`,
/// independent facing.
fn graph(look: bool, facing: bool) -> Graph {
    let mut graph = Workload::Flock.graph();
    if look {
        let node = graph.add(Node::LookWhereYouAreGoing {
            align_tolerance: 1.0.into(),
            deceleration_radius: 30.0.into(),
            time_to_target: 0.1.into(),
        });
        for blend in graph.nodes.values_mut() {
            if let Node::Blend { inputs } = blend {
                inputs.push(WeightedInput {
                    node: Link(Some(node)),
                    weight: 1.0.into(),
                });
            }
        }
    }
    graph.turning.independent_facing = facing;
    graph
}

/// The Flock workload's scene of `agents` running `graph`.
fn simulation(graph: Graph, agents: usize) -> Simulation {
    Workload::Flock.simulation_of(graph, agents)
}

fn at(times: &[Duration], fraction: f64) -> Duration {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "an index into a few hundred sorted samples"
    )]
    let index = ((times.len() - 1) as f64 * fraction) as usize;
    times.get(index).copied().unwrap_or_default()
}

fn run(agents: usize, threads: usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut simulations = [
        simulation(graph(false, false), agents),
        simulation(graph(true, false), agents),
        simulation(graph(true, true), agents),
    ];
    let mut times: [Vec<Duration>; 3] = Default::default();
    let tick = |simulation: &mut Simulation| {
        let start = Instant::now();
        pool.install(|| simulation.step(DT));
        start.elapsed()
    };
    for round in 0..WARM_UP_TICKS + MEASURED_TICKS {
        // Each round starts with a different one, so none always follows the same other.
        for k in 0..3 {
            let which = (round + k) % 3;
            let elapsed = tick(&mut simulations[which]);
            if round >= WARM_UP_TICKS {
                times[which].push(elapsed);
            }
        }
    }
    // The facing agents did turn their own way, the others did not.
    let turned = |simulation: &Simulation| {
        simulation
            .vehicles()
            .iter()
            .filter(|v| v.angular_velocity != 0.0)
            .count()
    };
    assert_eq!(turned(&simulations[1]), 0);
    assert!(turned(&simulations[2]) > agents / 10);
    for list in &mut times {
        list.sort_unstable();
    }
    let ms = |duration: Duration| duration.as_secs_f64() * 1e3;
    println!(
        "{agents} agents, {threads} thread(s), {MEASURED_TICKS} interleaved ticks each (ms per tick):"
    );
    for (label, fraction) in [("min", 0.0), ("median", 0.5)] {
        let [plain, off, on] = [0, 1, 2].map(|i| ms(at(&times[i], fraction)));
        println!(
            "  {label:>6}: plain {plain:.3}, look with facing off {off:.3}, look with facing on \
             {on:.3}: independent facing +{:.1} %, the angular layer in all +{:.1} %",
            (on / off - 1.0) * 100.0,
            (on / plain - 1.0) * 100.0
        );
    }
}

fn main() {
    let agents = std::env::var("STEERGRAPH_BENCH_AGENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16_000);
    for threads in [1, 2] {
        run(agents, threads);
    }
}
