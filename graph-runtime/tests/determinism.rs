//! A simulation is bit-identical whatever the number of threads, repeats itself for the same
//! seed and changes with the seed.

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    AgentGroup, AgentSpawn, Area, Graph, Link, Node, Number, Obstacle, Rect, Region, Scene,
    SceneAssets, Simulation, Spawn, Vehicle, WeightedInput,
};

/// Agents in the flock.
const AGENTS: u32 = 300;
/// Ticks per run.
const TICKS: usize = 200;
/// Tick length (s).
const DT: f32 = 1.0 / 60.0;
const GRAPH_FILE: &str = "boids.graph.ron";

/// Boids: `Priority(ObstacleAvoidance, Containment, Blend(Flocking, Wander))`.
fn boids_graph() -> Graph {
    let mut graph = Graph::default();
    graph.parameters.insert("flock_radius".to_owned(), 4.0);
    let avoid = graph.add(Node::ObstacleAvoidance {
        min_length: Number::Literal(2.0),
        lookahead_time: Number::Literal(1.0),
    });
    let contain = graph.add(Node::Containment {
        bounds: Region::World,
        prediction_time: Number::Literal(1.0),
        margin: Number::Literal(5.0),
    });
    let flock = graph.add(Node::Flocking {
        separation_weight: Number::Literal(2.0),
        cohesion_weight: Number::Literal(1.0),
        alignment_weight: Number::Literal(1.0),
        radius: Number::from("flock_radius"),
        fov: Number::Literal(270.0),
        max_neighbors: 64.0.into(),
    });
    let wander = graph.add(Node::Wander {
        distance: Number::Literal(3.0),
        radius: Number::Literal(1.0),
        jitter: Number::Literal(90.0),
        face: false,
    });
    let blend = graph.add(Node::Blend {
        inputs: vec![
            WeightedInput {
                node: Link(Some(flock)),
                weight: Number::Literal(4.0),
            },
            WeightedInput {
                node: Link(Some(wander)),
                weight: Number::Literal(0.5),
            },
        ],
    });
    let priority = graph.add(Node::Priority {
        inputs: vec![Link(Some(avoid)), Link(Some(contain)), Link(Some(blend))],
        epsilon: Number::Literal(1e-3),
    });
    graph.add(Node::Output {
        input: Link(Some(priority)),
    });
    graph
}

fn scene(seed: u64, spawn: Spawn) -> Scene {
    Scene {
        bounds: Rect::new(Vec2::splat(-60.0), Vec2::splat(60.0)),
        seed,
        obstacles: vec![
            Obstacle {
                center: Vec2::new(-20.0, 10.0),
                radius: 6.0,
            },
            Obstacle {
                center: Vec2::new(18.0, -15.0),
                radius: 8.0,
            },
            Obstacle {
                center: Vec2::new(25.0, 30.0),
                radius: 4.0,
            },
        ],
        groups: vec![AgentGroup {
            tags: vec!["boid".to_owned()],
            ..AgentGroup::new("boids", GRAPH_FILE, spawn)
        }],
        ..Scene::default()
    }
}

fn random_spawn() -> Spawn {
    Spawn::Random {
        count: AGENTS,
        area: Area::Circle {
            center: Vec2::ZERO,
            radius: 25.0,
        },
        speed: 3.0,
    }
}

fn simulation(scene: Scene) -> Simulation {
    let assets = SceneAssets {
        scene,
        origin: "determinism.scene.ron".to_owned(),
        graphs: BTreeMap::from([(GRAPH_FILE.to_owned(), boids_graph())]),
        flow_fields: BTreeMap::new(),
    };
    Simulation::new(&assets).expect("a valid scene")
}

/// Every coordinate of every vehicle, as bits.
fn bits(vehicles: &[Vehicle]) -> Vec<[u32; 6]> {
    vehicles
        .iter()
        .map(|v| {
            [
                v.position.x.to_bits(),
                v.position.y.to_bits(),
                v.velocity.x.to_bits(),
                v.velocity.y.to_bits(),
                v.forward.x.to_bits(),
                v.forward.y.to_bits(),
            ]
        })
        .collect()
}

/// Runs `TICKS` ticks of `scene` on a pool of `threads` threads; the final vehicle states.
fn run(scene: Scene, threads: usize) -> Vec<[u32; 6]> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        assert_eq!(rayon::current_num_threads(), threads);
        let mut simulation = simulation(scene);
        for _ in 0..TICKS {
            simulation.step(DT);
        }
        assert_eq!(simulation.tick(), TICKS as u64);
        bits(simulation.vehicles())
    })
}

#[test]
fn the_thread_count_does_not_change_a_single_bit() {
    let one = run(scene(7, random_spawn()), 1);
    assert_eq!(one.len(), AGENTS as usize);
    let start = bits(simulation(scene(7, random_spawn())).vehicles());
    assert_ne!(one, start, "the agents moved");
    for threads in [2, 4] {
        let many = run(scene(7, random_spawn()), threads);
        let first_difference = one.iter().zip(&many).position(|(a, b)| a != b);
        assert_eq!(
            first_difference, None,
            "agent states differ between 1 and {threads} threads"
        );
        assert_eq!(one, many);
    }
}

#[test]
fn the_same_seed_gives_the_same_run() {
    assert_eq!(
        run(scene(11, random_spawn()), 2),
        run(scene(11, random_spawn()), 2)
    );
}

#[test]
fn a_different_seed_gives_a_different_spawn_and_run() {
    let spawn_a = bits(simulation(scene(1, random_spawn())).vehicles());
    let spawn_b = bits(simulation(scene(2, random_spawn())).vehicles());
    assert_ne!(spawn_a, spawn_b, "random spawns depend on the seed");
    assert_ne!(
        run(scene(1, random_spawn()), 2),
        run(scene(2, random_spawn()), 2)
    );
}

#[test]
fn the_seed_drives_each_agents_own_random_stream() {
    // Same explicit start, different seeds: only Wander's draws can tell the runs apart.
    let grid: Vec<AgentSpawn> = (0..100)
        .map(|i| AgentSpawn {
            position: Vec2::new((i % 10) as f32 * 3.0 - 15.0, (i / 10) as f32 * 3.0 - 15.0),
            velocity: Vec2::new(1.0, 0.5),
        })
        .collect();
    let start_a = bits(simulation(scene(1, Spawn::Agents(grid.clone()))).vehicles());
    let start_b = bits(simulation(scene(2, Spawn::Agents(grid.clone()))).vehicles());
    assert_eq!(start_a, start_b, "explicit spawns ignore the seed");
    let a = run(scene(1, Spawn::Agents(grid.clone())), 2);
    assert_eq!(a, run(scene(1, Spawn::Agents(grid.clone())), 1));
    assert_ne!(a, run(scene(2, Spawn::Agents(grid)), 2));
}

/// The boids' Blend alone: without a lazy combiner, it is evaluated op by op in batches.
fn blend_graph() -> Graph {
    let mut graph = boids_graph();
    let blend = graph
        .nodes
        .iter()
        .find_map(|(&id, node)| matches!(node, Node::Blend { .. }).then_some(id))
        .expect("the boids graph has a Blend");
    for node in graph.nodes.values_mut() {
        if let Node::Output { input } = node {
            *input = Link(Some(blend));
        }
    }
    graph
}

#[test]
fn a_crowd_large_enough_for_the_parallel_grid_is_the_same_on_any_thread_count() {
    // 10,000 agents: the grid is built in two parts a thread (up to 8) and the
    // simulation keeps its agents in cell order. Half run the lazy boids graph (agent by
    // agent), half its Blend alone (in batches), mixed in space.
    let group = |name: &str, graph: &str| {
        AgentGroup::new(
            name,
            graph,
            Spawn::Random {
                count: 5_000,
                area: Area::Circle {
                    center: Vec2::ZERO,
                    radius: 280.0,
                },
                speed: 3.0,
            },
        )
    };
    let crowd = |threads: usize| {
        let scene = Scene {
            bounds: Rect::new(Vec2::splat(-300.0), Vec2::splat(300.0)),
            groups: vec![
                group("boids", GRAPH_FILE),
                group("blend", "blend.graph.ron"),
            ],
            ..scene(5, random_spawn())
        };
        let assets = SceneAssets {
            scene,
            origin: "determinism.scene.ron".to_owned(),
            graphs: BTreeMap::from([
                (GRAPH_FILE.to_owned(), boids_graph()),
                ("blend.graph.ron".to_owned(), blend_graph()),
            ]),
            flow_fields: BTreeMap::new(),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        pool.install(|| {
            let mut simulation = Simulation::new(&assets).expect("a valid scene");
            let start = bits(simulation.vehicles());
            for _ in 0..8 {
                simulation.step(DT);
            }
            let end = bits(simulation.vehicles());
            assert_ne!(start, end, "the agents moved");
            end
        })
    };
    let one = crowd(1);
    assert_eq!(one.len(), 10_000);
    for threads in [2, 3, 8] {
        let many = crowd(threads);
        let first_difference = one.iter().zip(&many).position(|(a, b)| a != b);
        assert_eq!(first_difference, None, "1 against {threads} threads");
    }
}

/// A tick observed phase by phase (`Simulation::step_observed`, what the `phases` bench
/// times) reports every phase once, in order, and moves the agents to the same bits as
/// `Simulation::step`.
#[test]
fn an_observed_tick_reports_its_phases_in_order_and_changes_no_bit() {
    let plain = run(scene(7, random_spawn()), 2);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool");
    let observed = pool.install(|| {
        let mut simulation = simulation(scene(7, random_spawn()));
        for _ in 0..TICKS {
            let mut phases = Vec::new();
            simulation.step_observed(DT, |phase| phases.push(phase));
            assert_eq!(phases, graph_runtime::TickPhase::ALL);
        }
        bits(simulation.vehicles())
    });
    assert_eq!(observed, plain);
}
