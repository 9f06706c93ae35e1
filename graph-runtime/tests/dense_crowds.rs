//! Group nodes count at most `max_neighbors` neighbors: the nearest, the lower agent index on
//! a tie (`BEHAVIORS.md`, "Neighborhoods"), and a crowd stacked on one point costs each agent
//! that many, not the whole crowd (issue 28: 20,000 flockers stacked on one point took 3.5 s
//! per tick). The stacked crowds are `workloads/`'s; these tests check what they give, and
//! `examples/time_bounds.rs` times them in release.

#[expect(dead_code, reason = "each test file uses the workloads it checks")]
mod workloads;

use glam::Vec2;
use graph_runtime::{AgentSpawn, Graph, Node, Number, SceneAssets, Simulation, Spawn};
use workloads::{
    STACKED_AGENTS, TICK, counting, crowd_scene as scene, flocking, one, reciprocal, stacked,
    unaligned,
};

const MIB: u64 = 1024 * 1024;

fn cohesion(max_neighbors: f32) -> Graph {
    one(Node::Cohesion {
        radius: 10.0.into(),
        fov: 360.0.into(),
        max_neighbors: max_neighbors.into(),
    })
}

fn at(points: &[(f32, f32)]) -> Spawn {
    Spawn::Agents(
        points
            .iter()
            .map(|&(x, y)| AgentSpawn {
                position: Vec2::new(x, y),
                velocity: Vec2::ZERO,
            })
            .collect(),
    )
}

/// Agent 0's steering force after one tick.
fn force_of_agent_0(assets: &SceneAssets) -> Vec2 {
    let mut simulation = Simulation::new(assets).expect("runs");
    simulation.step(1.0 / 60.0);
    simulation.forces()[0]
}

#[test]
fn cohesion_counts_the_nearest_max_neighbors() {
    // Agent 0 at the origin; the others 1, 2, 3, 4 and about 7.07 units away, all within 10.
    let points = [
        (0.0, 0.0),
        (1.0, 0.0),
        (0.0, 2.0),
        (-3.0, 0.0),
        (0.0, -4.0),
        (5.0, 5.0),
    ];
    // The 3 nearest: (1, 0), (0, 2), (-3, 0): mean (-2/3, 2/3), minus p = (0, 0).
    let three = force_of_agent_0(&scene(at(&points), cohesion(3.0)));
    assert_eq!(three, Vec2::new(-2.0 / 3.0, 2.0 / 3.0));
    // Without a limit that bites (the default 64): all five, mean (3/5, 3/5).
    let all = force_of_agent_0(&scene(at(&points), cohesion(64.0)));
    assert_eq!(all, Vec2::new(3.0 / 5.0, 3.0 / 5.0));
}

#[test]
fn on_a_tie_the_lower_agent_indices_are_counted() {
    // Agents 1 to 4 all 1 unit from agent 0: with 2 kept, agents 1 and 2, mean (0.5, 0.5).
    let points = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
    let two = force_of_agent_0(&scene(at(&points), cohesion(2.0)));
    assert_eq!(two, Vec2::new(0.5, 0.5));
}

#[test]
fn a_group_node_saves_max_neighbors_only_when_it_is_not_the_default() {
    let default = cohesion(64.0).to_ron().expect("saves");
    assert!(!default.contains("max_neighbors"), "{default}");
    let three = cohesion(3.0).to_ron().expect("saves");
    assert!(three.contains("max_neighbors: 3.0"), "{three}");
    // A version-1 reader refuses the field: the file says version 2.
    assert!(three.contains("version: 2"), "{three}");
    assert!(default.contains("version: 1"), "{default}");
    let back = Graph::from_ron(&three, "again").expect("loads");
    assert_eq!(back, cohesion(3.0));
    // A parameter may set it, and 0 or 4,097 are refused by the compiler.
    let mut graph = cohesion(3.0);
    graph.parameters.insert("most".to_owned(), 0.0);
    if let Some(Node::Cohesion { max_neighbors, .. }) = graph.nodes.values_mut().next() {
        *max_neighbors = Number::Parameter("most".to_owned());
    }
    assert!(
        graph_runtime::compile(&graph).is_err(),
        "0 neighbors is refused"
    );
    assert!(graph_runtime::compile(&cohesion(4_097.0)).is_err());
}

/// 20,000 agents on one point, flocking, with Reciprocal and with Unaligned collision
/// avoidance: each agent counts its 64 (or 10) nearest, found in a k-d tree, and the result is
/// the same on 1 and 2 threads. (Unaligned collision avoidance looked at the whole crowd: a
/// fuzzed scene of 2,838 stacked agents took 10 s for 100 ticks.) How long the 3 ticks take is
/// a release check, `examples/time_bounds.rs`: a debug build's speed on a busy machine says
/// nothing.
#[test]
fn a_stacked_crowd_steps_the_same_on_any_thread_count() {
    for graph in [flocking(), reciprocal(), unaligned()] {
        let assets = stacked(graph);
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("pool");
            pool.install(|| {
                let mut simulation = Simulation::new(&assets).expect("runs");
                for _ in 0..3 {
                    simulation.step(TICK);
                }
                simulation
                    .vehicles()
                    .iter()
                    .map(|v| {
                        [v.position.x, v.position.y, v.velocity.x, v.velocity.y].map(f32::to_bits)
                    })
                    .collect::<Vec<[u32; 4]>>()
            })
        };
        let one_thread = run(1);
        assert_eq!(one_thread.len(), STACKED_AGENTS as usize);
        assert!(one_thread == run(2), "the same on 1 and 2 threads");
    }
}

/// The preview's metrics over 20,000 agents on one point: every pair overlaps, and listing the
/// 200 million pairs took the editor minutes and gigabytes per sample (found in the editor
/// under Xvfb). In a crowd each agent counts its 16 nearest: a sample holds a few MiB at most,
/// the smallest spacing is still exact (0), and the overlaps are a lower bound between 16 / 2
/// and 16 per agent (each pair once, found by one side or both). The time two samples take is
/// a release check (`examples/time_bounds.rs`).
#[test]
fn metrics_of_a_stacked_crowd_take_bounded_work() {
    let simulation = Simulation::new(&stacked(flocking())).expect("runs");
    let mut tracker = graph_runtime::MetricsTracker::default();
    // On one thread, so that the allocation counter (which counts its own thread's) sees all.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let mut samples = Vec::new();
    let held = pool.install(|| {
        allocation_counter::measure(|| {
            samples.push(tracker.observe(&simulation, 0.0));
            samples.push(tracker.observe(&simulation, 0.0));
        })
        .bytes_max
    });
    let [first, second] = [samples[0], samples[1]];
    // The memory is the work's witness: the 200 million pairs alone were 1.6 GB (8 bytes a
    // pair). Now a sample's pair set holds at most 20,000 × 16 = 320,000 pairs, in a table of
    // 2^19 slots of 9 bytes (4.5 MiB); the first sample's is kept while the second's grows
    // from 2^18 slots to 2^19 (2.25 + 4.5 MiB): 11.25 MiB, and the grid and its tree. 12.6 MiB
    // measured.
    assert!(held < 32 * MIB, "two samples held {held} bytes at once");
    let all = STACKED_AGENTS as usize;
    assert_eq!(first.min_spacing, Some(0.0));
    let neighbors = graph_runtime::MetricsTracker::CROWD_NEIGHBORS;
    assert!(
        (all * neighbors / 2..=all * neighbors).contains(&first.agent_overlaps),
        "{} pairs",
        first.agent_overlaps
    );
    assert_eq!(first.new_agent_overlaps, first.agent_overlaps);
    // Nothing moved: the same pairs, none new.
    assert_eq!(second.agent_overlaps, first.agent_overlaps);
    assert_eq!(second.new_agent_overlaps, 0);
}

/// 300 agents: 299 in a blob 2 units wide moving together with agent 0 at (1, 0) (no relative
/// motion, so no collision with them), and agent 299 six units ahead coming head-on at 3 u/s.
/// Agent 0's query visits all 300, more than 256, so Unaligned collision avoidance looks at its
/// 64 nearest, all in the blob: no predicted collision, zero. Over the whole crowd the oncoming
/// agent would have been seen: the limit is what the force shows.
#[test]
fn unaligned_collision_avoidance_in_a_crowd_looks_at_the_64_nearest() {
    let mut agents: Vec<AgentSpawn> = (0..299_u32)
        .map(|i| {
            let angle = i as f32 * 2.399;
            let reach = (i as f32 / 299.0).sqrt();
            AgentSpawn {
                position: Vec2::new(angle.cos(), angle.sin()) * reach,
                velocity: Vec2::new(1.0, 0.0),
            }
        })
        .collect();
    agents.push(AgentSpawn {
        position: Vec2::new(6.0, 0.0),
        velocity: Vec2::new(-3.0, 0.0),
    });
    let assets = scene(Spawn::Agents(agents), unaligned());
    let simulation = Simulation::new(&assets).expect("runs");
    let vehicles = simulation.vehicles().to_vec();
    let me = vehicles[0];
    let mut nearest: Vec<(f32, usize)> = vehicles
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, v)| (v.position.distance_squared(me.position), i))
        .collect();
    nearest.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<usize> = nearest.iter().take(64).map(|&(_, i)| i).collect();
    chosen.sort_unstable();
    assert!(
        !chosen.contains(&299),
        "the oncoming agent is not among the 64 nearest"
    );
    let over = |others: &mut dyn Iterator<Item = &graph_runtime::Vehicle>| {
        graph_runtime::behaviors::unaligned_collision_avoidance(&me, others, 1.5)
    };
    let expected = over(&mut chosen.iter().map(|&i| &vehicles[i]));
    assert_eq!(expected, Vec2::ZERO, "the blob moves with agent 0");
    assert_ne!(
        over(&mut vehicles.iter().skip(1)),
        Vec2::ZERO,
        "over the whole crowd, agent 299 is a predicted collision"
    );
    assert_eq!(force_of_agent_0(&assets), expected);
}

/// 20,000 agents on one point, at rest, each counting its neighbors: every agent has 19,999
/// within 5 units, and the count reads 1,024, the most it counts (`BEHAVIORS.md`), so a gate
/// on `count >= 1,024` lets Seek through for every agent and one on `count > 1,024` for none.
/// Counted in full, one tick took 0.35 s in a release build (each agent listed and sorted the
/// whole crowd); now a tick stops each count after about 1,024 tests (timed in release by
/// `examples/time_bounds.rs`).
#[test]
fn neighbor_count_in_a_stacked_crowd_stops_at_its_limit() {
    use graph_runtime::Comparison::{Greater, GreaterOrEqual};
    for (test, moves) in [(GreaterOrEqual, true), (Greater, false)] {
        let mut simulation = Simulation::new(&stacked(counting(test, 1_024.0))).expect("runs");
        simulation.step(TICK);
        let moving = simulation
            .vehicles()
            .iter()
            .filter(|v| v.velocity != Vec2::ZERO)
            .count();
        let all = STACKED_AGENTS as usize;
        assert_eq!(moving, if moves { all } else { 0 }, "{test:?}");
    }
}
