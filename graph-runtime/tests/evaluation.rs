//! How a compiled graph is evaluated: no recursion over the graph's depth (a valid chain of
//! any length runs on a default thread stack), each shared node at most once per tick (also
//! sensors and conditions), and lazy combiners that draw from the agent's RNG in the order
//! `BEHAVIORS.md` gives, not in the compiled order.

use glam::Vec2;
use graph_runtime::behaviors;
use graph_runtime::{
    AgentRng, AgentState, Bindings, ChanceInput, Comparison, Context, Graph, Link, Node, NodeId,
    NodeValue, Program, Scratch, SpatialGrid, TagTable, Target, Trace, Vehicle, VehicleParams,
    WeightedInput, World, compile,
};

/// Stack size of a thread spawned with `std::thread::spawn` and no builder: 2 MiB.
const DEFAULT_THREAD_STACK: usize = 2 * 1024 * 1024;

const PARAMS: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 8.0,
    max_speed: 5.0,
    radius: 0.5,
};

fn link(id: NodeId) -> Link {
    Link(Some(id))
}

/// One agent at the origin, at rest, facing +x, alone in an empty world.
struct Lone {
    program: Program,
    world: World,
    bindings: Bindings,
    vehicles: Vec<Vehicle>,
    grid: SpatialGrid,
}

impl Lone {
    fn new(graph: &Graph) -> Self {
        let program = compile(graph).expect("the test graph compiles");
        let world = World::default();
        let (bindings, errors) = Bindings::new(&program, &world, &TagTable::default());
        assert!(errors.is_empty());
        let vehicles = vec![Vehicle::new(Vec2::ZERO, Vec2::ZERO, PARAMS)];
        let mut grid = SpatialGrid::new(4.0);
        grid.rebuild(&vehicles);
        Self {
            program,
            world,
            bindings,
            vehicles,
            grid,
        }
    }

    /// Steers agent 0 once (traced when `trace` is given) with `state`.
    fn steer(&self, state: &mut AgentState, trace: Option<&mut Trace>) -> Vec2 {
        let params = self.program.default_parameters();
        let context = Context::new(
            &self.world,
            &self.vehicles,
            &self.grid,
            &self.bindings,
            &params,
            0.1,
        );
        let mut scratch = Scratch::default();
        match trace {
            Some(trace) => self
                .program
                .steer_traced(&context, 0, state, &mut scratch, trace),
            None => self.program.steer(&context, 0, state, &mut scratch),
        }
    }
}

/// Seek (3,4) from the origin at rest with `max_speed` 5 is exactly (3,4); then `links`
/// `Scale` nodes of factor -1 in a chain, ending in the Output.
fn scale_chain(links: usize) -> Graph {
    let mut graph = Graph::default();
    let mut previous = graph.add(Node::Seek {
        target: Target::Point(3.0.into(), 4.0.into()),
    });
    for _ in 0..links {
        previous = graph.add(Node::Scale {
            input: link(previous),
            factor: (-1.0).into(),
        });
    }
    graph.add(Node::Output {
        input: link(previous),
    });
    graph
}

/// Runs `work` on a thread with the default 2 MiB stack, as a game's worker thread would.
fn on_a_default_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(DEFAULT_THREAD_STACK)
        .spawn(work)
        .expect("spawns")
        .join()
        .expect("evaluation did not overflow the stack or panic")
}

#[test]
fn a_chain_of_9000_scale_nodes_evaluates_on_a_default_thread_stack() {
    // The case: the recursive evaluator overflowed the stack here. 9,001 factors of
    // -1 (odd) negate the seek force (3,4).
    let force = on_a_default_thread(|| {
        let lone = Lone::new(&scale_chain(9_001));
        let mut state = AgentState::new(&lone.program, 1, 0);
        let plain = lone.steer(&mut state, None);
        let mut trace = Trace::default();
        let traced = lone.steer(&mut state, Some(&mut trace));
        assert_eq!(plain, traced);
        // Seek, 9,001 scales and the Output, each recorded once.
        assert_eq!(trace.entries.len(), 9_003);
        plain
    });
    assert_eq!(force, Vec2::new(-3.0, -4.0));
}

#[test]
fn a_chain_as_long_as_the_node_limit_evaluates_on_a_default_thread_stack() {
    // The Scale nodes, the Seek and the Output: exactly the most nodes a graph may have.
    let scales = graph_runtime::limits::MAX_NODES - 2;
    assert_eq!(scales % 2, 0);
    let force = on_a_default_thread(move || {
        let lone = Lone::new(&scale_chain(scales));
        let mut state = AgentState::new(&lone.program, 1, 0);
        lone.steer(&mut state, None)
    });
    // An even number of -1 factors: the seek force itself.
    assert_eq!(force, Vec2::new(3.0, 4.0));
}

#[test]
fn a_chain_of_20000_nested_combiners_and_conditions_evaluates_on_a_default_thread_stack() {
    // Priority[Gate[Priority[Gate[... Seek ...]]]] with each Gate on Not(Not(... Speed < 1))
    // chains: every combiner kind that waits for an input, nested 10,000 deep each way.
    let force = on_a_default_thread(|| {
        let mut graph = Graph::default();
        let speed = graph.add(Node::Speed);
        let mut condition = graph.add(Node::Compare {
            sensor: link(speed),
            test: Comparison::Less,
            threshold: 1.0.into(),
        });
        // 10,000 Nots (even): still "speed < 1", true at rest.
        for _ in 0..10_000 {
            condition = graph.add(Node::Not {
                input: link(condition),
            });
        }
        let mut force = graph.add(Node::Seek {
            target: Target::Point(3.0.into(), 4.0.into()),
        });
        for level in 0..10_000 {
            force = match level % 4 {
                0 => graph.add(Node::Gate {
                    input: link(force),
                    condition: link(condition),
                }),
                1 => graph.add(Node::Priority {
                    inputs: vec![link(force)],
                    epsilon: 1e-3.into(),
                }),
                2 => graph.add(Node::Budget {
                    inputs: vec![link(force)],
                }),
                _ => graph.add(Node::Blend {
                    inputs: vec![WeightedInput {
                        node: link(force),
                        weight: 1.0.into(),
                    }],
                }),
            };
        }
        graph.add(Node::Output { input: link(force) });
        let lone = Lone::new(&graph);
        let mut state = AgentState::new(&lone.program, 1, 0);
        lone.steer(&mut state, None)
    });
    // |(3,4)| = 5 <= max_force 8: Budget passes it whole; every gate is open.
    assert_eq!(force, Vec2::new(3.0, 4.0));
}

#[test]
fn a_diamond_chain_of_64_conditions_evaluates_each_condition_once() {
    // c_k = All[c_(k-1), c_(k-1)]: a walk that does not remember shared conditions runs the
    // first one 2^64 times. Each node is evaluated (and traced) once per tick.
    let mut graph = Graph::default();
    let speed = graph.add(Node::Speed);
    let mut condition = graph.add(Node::Compare {
        sensor: link(speed),
        test: Comparison::Less,
        threshold: 1.0.into(),
    });
    for _ in 0..64 {
        condition = graph.add(Node::All {
            inputs: vec![link(condition), link(condition)],
        });
    }
    let seek = graph.add(Node::Seek {
        target: Target::Point(3.0.into(), 4.0.into()),
    });
    let gate = graph.add(Node::Gate {
        input: link(seek),
        condition: link(condition),
    });
    graph.add(Node::Output { input: link(gate) });
    let lone = Lone::new(&graph);
    let mut state = AgentState::new(&lone.program, 1, 0);
    let mut trace = Trace::default();
    assert_eq!(
        lone.steer(&mut state, Some(&mut trace)),
        Vec2::new(3.0, 4.0)
    );
    // speed, compare, 64 Alls, seek, gate, output
    assert_eq!(trace.entries.len(), 69);
    assert_eq!(
        trace.get(condition).expect("evaluated").value,
        NodeValue::Condition(true)
    );
}

#[test]
fn dither_draws_for_an_input_before_a_shared_wander_below_it_draws() {
    // Blend[(Dither[(W, 0.0)], 1), (W, 1)] with one Wander W shared by both. The compiled order
    // puts W before the Dither (inputs first), but the contract evaluates lazily in listed
    // order: the Dither draws u0 for its input (u0 < 0 never holds, so W is skipped there),
    // then the Blend's second input runs W, whose jitter step uses the *second* draw:
    // theta = (2 u1 - 1) * 90 deg/s * 0.1 s. The force is Seek(aim) with
    // aim = p + forward * 2 + 1 * (cos theta, sin theta), p = 0, forward +x, max_speed 5.
    let mut graph = Graph::default();
    let wander = graph.add(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 90.0.into(),
        face: false,
    });
    let dither = graph.add(Node::Dither {
        inputs: vec![ChanceInput {
            node: link(wander),
            probability: 0.0.into(),
        }],
        epsilon: 1e-3.into(),
    });
    let blend = graph.add(Node::Blend {
        inputs: vec![
            WeightedInput {
                node: link(dither),
                weight: 1.0.into(),
            },
            WeightedInput {
                node: link(wander),
                weight: 1.0.into(),
            },
        ],
    });
    let output = graph.add(Node::Output { input: link(blend) });
    let lone = Lone::new(&graph);
    let (seed, agent) = (77, 0);
    assert!(
        lone.program.nodes().iter().position(|&n| n == wander)
            < lone.program.nodes().iter().position(|&n| n == dither),
        "the compiled order has the wander first"
    );
    let mut rng = AgentRng::new(seed, agent);
    let _dither_draw = rng.unit();
    let theta = rng.signed_unit() * 90f32.to_radians() * 0.1;
    let aim = Vec2::new(2.0 + theta.cos(), theta.sin());
    let expected = aim / aim.length() * 5.0;

    let mut state = AgentState::new(&lone.program, seed, agent);
    let mut trace = Trace::default();
    let force = lone.steer(&mut state, Some(&mut trace));
    assert!(
        (force - expected).abs().max_element() < 1e-5,
        "expected {expected}, got {force}"
    );
    // The order of the trace is the order of evaluation: the Dither finished (with nothing)
    // before the wander ran.
    let order: Vec<NodeId> = trace.entries.iter().map(|e| e.node).collect();
    assert_eq!(order, vec![dither, wander, blend, output]);
    // And the plain evaluation is the traced one.
    let mut again = AgentState::new(&lone.program, seed, agent);
    assert_eq!(lone.steer(&mut again, None), force);
}

#[test]
fn the_wander_angle_of_the_deep_chain_agent_is_the_formulas() {
    // A Wander at the bottom of a 20,000-deep Scale chain still draws exactly once per tick
    // (factors of 1): its force is the wander formula's for the first draw.
    let mut graph = Graph::default();
    let mut previous = graph.add(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 90.0.into(),
        face: false,
    });
    for _ in 0..20_000 {
        previous = graph.add(Node::Scale {
            input: link(previous),
            factor: 1.0.into(),
        });
    }
    graph.add(Node::Output {
        input: link(previous),
    });
    let (force, expected) = on_a_default_thread(move || {
        let lone = Lone::new(&graph);
        let mut state = AgentState::new(&lone.program, 5, 0);
        let force = lone.steer(&mut state, None);
        let theta = AgentRng::new(5, 0).signed_unit() * 90f32.to_radians() * 0.1;
        let expected = behaviors::wander(&lone.vehicles[0], theta, 2.0, 1.0);
        (force, expected)
    });
    assert_eq!(force, expected);
}
