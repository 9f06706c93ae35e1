//! A warm tick allocates nothing: the spatial grid rebuild and every agent's evaluation reuse
//! their buffers (the promise "no heap allocation per agent per tick").

#[path = "../benches/boids_fixture.rs"]
#[expect(
    dead_code,
    reason = "this test only runs the graph side of the fixture"
)]
mod boids_fixture;

#[path = "../benches/fast_loop.rs"]
#[expect(dead_code, reason = "this test only builds the workload's simulation")]
mod fast_loop;

use glam::Vec2;
use graph_runtime::{
    AgentState, Bindings, ChanceInput, Context, Graph, Link, Node, Scratch, SpatialGrid, TagTable,
    Target, Vehicle, VehicleParams, WeightedInput, World, compile,
};

#[test]
fn a_warm_boids_tick_allocates_nothing() {
    let mut flock = boids_fixture::Flock::new(2_000);
    for _ in 0..5 {
        flock.tick_graph();
    }
    let info = allocation_counter::measure(|| {
        for _ in 0..5 {
            flock.tick_graph();
        }
    });
    assert_eq!(
        info.count_total, 0,
        "allocations in 5 warm ticks of 2,000 agents"
    );
}

/// The allocations on the stepping thread in `ticks` warm ticks of a 20,000-agent flock on a
/// pool of `threads`, each tick's agents read back as a game reads them every frame.
fn allocations_in_warm_flock_ticks(threads: usize, ticks: usize) -> u64 {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        // Enough agents for the simulation to keep them in cell order.
        let mut simulation = fast_loop::Workload::Flock.simulation(20_000);
        let mut read = 0.0;
        let mut tick = |simulation: &mut graph_runtime::Simulation| {
            simulation.step(fast_loop::DT);
            read += simulation.vehicles()[7].position.x + simulation.forces()[7].x;
        };
        // Warm: scratch buffers grow to the densest neighborhood seen, and the flock gathers
        // over the first ticks.
        for _ in 0..30 {
            tick(&mut simulation);
        }
        let info = allocation_counter::measure(|| {
            for _ in 0..ticks {
                tick(&mut simulation);
            }
        });
        assert!(read.is_finite());
        info.count_total
    })
}

#[test]
fn a_warm_simulation_tick_allocates_nothing() {
    // Re-sorting the agents into cell order, the neighbor queries, the evaluation, the
    // integration and writing agent order back (on the first read after each tick, as a game
    // reads its agents every frame) all reuse their buffers. One thread, so every allocation
    // would happen on the measured thread.
    assert_eq!(
        allocations_in_warm_flock_ticks(1, 5),
        0,
        "allocations in 5 warm ticks of 20,000 agents"
    );
}

#[test]
fn a_warm_tick_on_two_threads_allocates_only_the_warm_pools_job() {
    // On several threads the tick keeps the pool's other threads warm
    // (`graph-runtime/src/pool/warm.rs`): the flags they share and the job that sends them
    // rayon's broadcast are the tick's only allocations on the thread that steps it, two a
    // tick, three when that thread runs the job itself (a worker slow to wake), and a block
    // of rayon's job queues now and then. Everything else reuses its buffers as on one
    // thread.
    let ticks = 20;
    let count = allocations_in_warm_flock_ticks(2, ticks);
    assert!(
        count <= 3 * ticks as u64 + 2,
        "{count} allocations in {ticks} warm ticks of 20,000 agents on 2 threads"
    );
}

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one graph exercising every lazily evaluated feature, written out"
)]
fn dither_tags_sensors_and_shared_nodes_allocate_nothing_once_warm() {
    let mut graph = Graph::default();
    let wander = graph.add(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 90.0.into(),
        face: false,
    });
    let chase = graph.add(Node::Pursuit {
        quarry: Target::NearestTagged("prey".into()),
        max_prediction: 1.0.into(),
    });
    let uca = graph.add(Node::UnalignedCollisionAvoidance {
        max_time: 2.0.into(),
    });
    let dither = graph.add(Node::Dither {
        inputs: vec![
            ChanceInput {
                node: Link(Some(uca)),
                probability: 0.5.into(),
            },
            ChanceInput {
                node: Link(Some(wander)),
                probability: 1.0.into(),
            },
        ],
        epsilon: 1e-3.into(),
    });
    let count = graph.add(Node::NeighborCount {
        radius: 5.0.into(),
        fov: 360.0.into(),
    });
    let crowded = graph.add(Node::Compare {
        sensor: Link(Some(count)),
        test: graph_runtime::Comparison::Greater,
        threshold: 2.0.into(),
    });
    let gate = graph.add(Node::Gate {
        input: Link(Some(wander)),
        condition: Link(Some(crowded)),
    });
    let blend = graph.add(Node::Blend {
        inputs: vec![
            WeightedInput {
                node: Link(Some(dither)),
                weight: 1.0.into(),
            },
            WeightedInput {
                node: Link(Some(chase)),
                weight: 0.5.into(),
            },
            WeightedInput {
                node: Link(Some(gate)),
                weight: 0.5.into(),
            },
        ],
    });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    let program = compile(&graph).expect("compiles");

    let world = World::default();
    let mut tags = TagTable::default();
    let prey = tags.mask(&["prey"]).expect("one tag");
    let (bindings, errors) = Bindings::new(&program, &world, &tags);
    assert!(errors.is_empty());
    let params = program.default_parameters();
    let mut vehicles: Vec<Vehicle> = (0..300)
        .map(|i| {
            let position = Vec2::new((i % 20) as f32 * 1.5, (i / 20) as f32 * 1.5);
            Vehicle::new(position, Vec2::new(1.0, 0.5), VehicleParams::default())
        })
        .collect();
    let agent_tags: Vec<u64> = (0..300)
        .map(|i| if i % 3 == 0 { prey } else { 0 })
        .collect();
    let mut states: Vec<AgentState> = (0..300)
        .map(|i| AgentState::new(&program, 9, i as u64))
        .collect();
    let mut scratch = Scratch::default();
    let mut grid = SpatialGrid::new(5.0);
    let mut forces = vec![Vec2::ZERO; vehicles.len()];
    let mut tick = |vehicles: &mut Vec<Vehicle>| {
        grid.rebuild(vehicles);
        let context = Context {
            tags: &agent_tags,
            ..Context::new(&world, vehicles, &grid, &bindings, &params, 0.05)
        };
        for (agent, (force, state)) in forces.iter_mut().zip(&mut states).enumerate() {
            *force = program.steer(&context, agent, state, &mut scratch);
        }
        for (vehicle, force) in vehicles.iter_mut().zip(&forces) {
            vehicle.step(*force, 0.05);
        }
    };
    // Buffers grow to the largest neighborhood and grid seen, then stay.
    for _ in 0..40 {
        tick(&mut vehicles);
    }
    let info = allocation_counter::measure(|| {
        for _ in 0..10 {
            tick(&mut vehicles);
        }
    });
    assert_eq!(info.count_total, 0, "{info:?}");
}
