//! The combiners, sensors and conditions of `graph-runtime/BEHAVIORS.md` ("Combiners",
//! "Sensors and conditions"), evaluated through compiled graphs: results checked against
//! numbers worked out by hand, laziness observed with `Program::steer_traced`, and Dither's
//! choice frequencies checked statistically with a fixed seed.
//!
//! Unless said otherwise agent 0 sits at the origin at rest, facing +x, with mass 1,
//! `max_force` 8, `max_speed` 4 and radius 0.5, so `Seek(target)` gives
//! `normalize(target) * 4`: E = Seek((10,0)) = (4,0), N = Seek((0,10)) = (0,4),
//! W = Seek((-10,0)) = (-4,0), S = Seek((0,-10)) = (0,-4), and
//! Z = Flee((100,0), panic 1) = zero (the target is farther than the panic distance).

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    AgentRng, AgentState, Bindings, ChanceInput, Comparison, Context, Graph, Link, Node, NodeId,
    NodeValue, ParamValues, Program, Scratch, SpatialGrid, TagTable, Target, Trace, Vehicle,
    VehicleParams, WeightedInput, World, behaviors, compile,
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const PARAMS: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 8.0,
    max_speed: 4.0,
    radius: 0.5,
};

const E: Vec2 = Vec2::new(4.0, 0.0);
const N: Vec2 = Vec2::new(0.0, 4.0);
const W: Vec2 = Vec2::new(-4.0, 0.0);

fn v2(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn agent(position: Vec2, velocity: Vec2) -> Vehicle {
    Vehicle::new(position, velocity, PARAMS)
}

fn origin() -> Vehicle {
    agent(Vec2::ZERO, Vec2::ZERO)
}

#[track_caller]
fn assert_close(actual: Vec2, expected: Vec2) {
    assert!(
        (actual - expected).abs().max_element() <= 1e-5,
        "expected {expected}, got {actual}"
    );
}

fn link(id: NodeId) -> Link {
    Link(Some(id))
}

fn seek(graph: &mut Graph, x: f32, y: f32) -> NodeId {
    graph.add(Node::Seek {
        target: Target::Point(x.into(), y.into()),
    })
}

/// E, N, W, S and Z of the module docs.
fn east(graph: &mut Graph) -> NodeId {
    seek(graph, 10.0, 0.0)
}
fn north(graph: &mut Graph) -> NodeId {
    seek(graph, 0.0, 10.0)
}
fn west(graph: &mut Graph) -> NodeId {
    seek(graph, -10.0, 0.0)
}
fn south(graph: &mut Graph) -> NodeId {
    seek(graph, 0.0, -10.0)
}
fn zero(graph: &mut Graph) -> NodeId {
    graph.add(Node::Flee {
        target: Target::Point(100.0.into(), 0.0.into()),
        panic_distance: Some(1.0.into()),
    })
}

fn scale(graph: &mut Graph, input: NodeId, factor: f32) -> NodeId {
    graph.add(Node::Scale {
        input: link(input),
        factor: factor.into(),
    })
}

fn output(graph: &mut Graph, input: NodeId) -> NodeId {
    graph.add(Node::Output { input: link(input) })
}

/// A sensor that always reads `value`, and a condition on it.
fn value(graph: &mut Graph, value: f32) -> NodeId {
    graph.add(Node::Value {
        value: value.into(),
    })
}

fn compare(graph: &mut Graph, sensor: NodeId, test: Comparison, threshold: f32) -> NodeId {
    graph.add(Node::Compare {
        sensor: link(sensor),
        test,
        threshold: threshold.into(),
    })
}

/// A condition that holds iff `holds`: `Value(1) > 0` or `Value(0) > 0`.
fn constant(graph: &mut Graph, holds: bool) -> NodeId {
    let sensor = value(graph, if holds { 1.0 } else { 0.0 });
    compare(graph, sensor, Comparison::Greater, 0.0)
}

fn gate(graph: &mut Graph, input: NodeId, condition: NodeId) -> NodeId {
    graph.add(Node::Gate {
        input: link(input),
        condition: link(condition),
    })
}

/// A compiled graph with everything needed to evaluate it for the agents of one scene.
struct Harness {
    program: Program,
    params: ParamValues,
    world: World,
    bindings: Bindings,
    vehicles: Vec<Vehicle>,
    tags: Vec<u64>,
    grid: SpatialGrid,
    scratch: Scratch,
}

impl Harness {
    fn new(graph: &Graph, vehicles: Vec<Vehicle>) -> Self {
        let program = compile(graph).expect("the test graph compiles");
        let params = program.default_parameters();
        let world = World::default();
        let (bindings, errors) = Bindings::new(&program, &world, &TagTable::default());
        assert!(errors.is_empty(), "{errors:?}");
        let mut grid = SpatialGrid::new(4.0);
        grid.rebuild(&vehicles);
        Self {
            program,
            params,
            world,
            bindings,
            tags: vec![0; vehicles.len()],
            vehicles,
            grid,
            scratch: Scratch::default(),
        }
    }

    fn state(&self, seed: u64, agent: usize) -> AgentState {
        AgentState::new(&self.program, seed, agent as u64)
    }

    fn context(&self) -> Context<'_> {
        Context {
            tags: &self.tags,
            ..Context::new(
                &self.world,
                &self.vehicles,
                &self.grid,
                &self.bindings,
                &self.params,
                1.0 / 60.0,
            )
        }
    }

    fn steer(&mut self, agent: usize, state: &mut AgentState) -> Vec2 {
        let mut scratch = std::mem::take(&mut self.scratch);
        let force = self
            .program
            .steer(&self.context(), agent, state, &mut scratch);
        self.scratch = scratch;
        force
    }

    fn traced(&mut self, agent: usize, state: &mut AgentState) -> (Vec2, Trace) {
        let mut scratch = std::mem::take(&mut self.scratch);
        let mut trace = Trace::default();
        let force =
            self.program
                .steer_traced(&self.context(), agent, state, &mut scratch, &mut trace);
        self.scratch = scratch;
        (force, trace)
    }
}

/// Force and trace of agent 0 (seed 1) of `vehicles` under `graph`.
fn run(graph: &Graph, vehicles: Vec<Vehicle>) -> (Vec2, Trace) {
    let mut harness = Harness::new(graph, vehicles);
    let mut state = harness.state(1, 0);
    harness.traced(0, &mut state)
}

fn evaluated(trace: &Trace, node: NodeId) -> bool {
    trace.get(node).is_some()
}

fn force_of(trace: &Trace, node: NodeId) -> Vec2 {
    match trace.get(node).map(|entry| entry.value) {
        Some(NodeValue::Force(force)) => force,
        other => panic!("node {node} has no force in the trace: {other:?}"),
    }
}

fn chosen(trace: &Trace, node: NodeId) -> Option<usize> {
    trace.get(node).and_then(|entry| entry.chosen)
}

// ---------------------------------------------------------------------------------------------
// Sources and Output
// ---------------------------------------------------------------------------------------------

#[test]
fn output_passes_its_input_and_the_sources_are_as_documented() {
    let mut graph = Graph::default();
    let ids = [
        east(&mut graph),
        north(&mut graph),
        west(&mut graph),
        south(&mut graph),
        zero(&mut graph),
    ];
    let expected = [E, N, W, v2(0.0, -4.0), Vec2::ZERO];
    for (&id, &force) in ids.iter().zip(&expected) {
        let mut single = graph.clone();
        let out = output(&mut single, id);
        let (result, trace) = run(&single, vec![origin()]);
        assert_eq!(result, force);
        assert_eq!(force_of(&trace, out), force);
        assert_eq!(force_of(&trace, id), force);
    }
    // the graph path and the pure function agree
    let me = agent(v2(1.0, 2.0), v2(0.5, -1.0));
    let mut single = Graph::default();
    let e = east(&mut single);
    output(&mut single, e);
    assert_eq!(
        run(&single, vec![me]).0,
        behaviors::seek(&me, v2(10.0, 0.0))
    );
}

// ---------------------------------------------------------------------------------------------
// Blend
// ---------------------------------------------------------------------------------------------

fn blend(graph: &mut Graph, inputs: &[(NodeId, f32)]) -> NodeId {
    graph.add(Node::Blend {
        inputs: inputs
            .iter()
            .map(|&(node, weight)| WeightedInput {
                node: link(node),
                weight: weight.into(),
            })
            .collect(),
    })
}

#[test]
fn blend_is_the_weighted_sum_without_truncation() {
    // 0.5 * E + 2 * S = (2,0) + (0,-8) = (2,-8); |F| = 8.25 > max_force 8 is not truncated
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let s = south(&mut graph);
    let b = blend(&mut graph, &[(e, 0.5), (s, 2.0)]);
    output(&mut graph, b);
    let (force, trace) = run(&graph, vec![origin()]);
    assert_eq!(force, v2(2.0, -8.0));
    assert!(evaluated(&trace, e) && evaluated(&trace, s));
}

#[test]
fn blend_with_negative_zero_and_no_weights() {
    // -1 * E + 1 * N + 3 * Z = (-4,4)
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let n = north(&mut graph);
    let z = zero(&mut graph);
    let b = blend(&mut graph, &[(e, -1.0), (n, 1.0), (z, 3.0)]);
    output(&mut graph, b);
    assert_eq!(run(&graph, vec![origin()]).0, v2(-4.0, 4.0));
    // weight 0 on everything: zero
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let b = blend(&mut graph, &[(e, 0.0)]);
    output(&mut graph, b);
    assert_eq!(run(&graph, vec![origin()]).0, Vec2::ZERO);
    // no inputs: the empty sum
    let mut graph = Graph::default();
    let b = blend(&mut graph, &[]);
    output(&mut graph, b);
    assert_eq!(run(&graph, vec![origin()]).0, Vec2::ZERO);
}

#[test]
fn an_input_shared_twice_is_evaluated_once_per_tick() {
    // Blend[(Wd, 1), (Wd, 1)] with the same Wander node Wd twice. The contract's wander angle
    // moves once per tick: theta += U(-1,1) * 90 deg/s * dt from AgentRng(seed, agent), so the
    // blend is 2 * Seek(aim) with aim = (2 + cos theta, sin theta) (p = 0, forward +x,
    // distance 2, radius 1). Drawing twice in one tick would break the replay.
    let mut graph = Graph::default();
    let wd = graph.add(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 90.0.into(),
        face: false,
    });
    let b = blend(&mut graph, &[(wd, 1.0), (wd, 1.0)]);
    output(&mut graph, b);
    let mut harness = Harness::new(&graph, vec![origin()]);
    let mut state = harness.state(31, 0);
    let mut rng = AgentRng::new(31, 0);
    let mut theta = 0.0f32;
    for tick in 0..30 {
        theta += rng.signed_unit() * 90f32.to_radians() * (1.0 / 60.0);
        let aim = v2(2.0 + theta.cos(), theta.sin());
        let expected = 2.0 * (aim / aim.length() * 4.0);
        let force = harness.steer(0, &mut state);
        assert!(
            (force - expected).abs().max_element() <= 1e-4,
            "tick {tick}: expected {expected}, got {force}"
        );
    }
    assert!(theta != 0.0);
}

// ---------------------------------------------------------------------------------------------
// Priority
// ---------------------------------------------------------------------------------------------

fn priority(graph: &mut Graph, inputs: &[NodeId], epsilon: f32) -> NodeId {
    graph.add(Node::Priority {
        inputs: inputs.iter().copied().map(link).collect(),
        epsilon: epsilon.into(),
    })
}

#[test]
fn priority_takes_the_first_non_zero_input_and_skips_the_rest() {
    // [Z, E, N]: Z = 0 -> next; |E| = 4 > 1e-3 -> E; N is never evaluated
    let mut graph = Graph::default();
    let z = zero(&mut graph);
    let e = east(&mut graph);
    let n = north(&mut graph);
    let p = priority(&mut graph, &[z, e, n], 1e-3);
    output(&mut graph, p);
    let (force, trace) = run(&graph, vec![origin()]);
    assert_eq!(force, E);
    assert_eq!(force_of(&trace, z), Vec2::ZERO);
    assert_eq!(force_of(&trace, e), E);
    assert!(!evaluated(&trace, n), "N is not needed and must not run");
    assert_eq!(chosen(&trace, p), Some(1));
}

#[test]
fn priority_with_nothing_to_do_is_zero() {
    // [Z, Z']: both evaluated, both zero -> zero, nothing chosen
    let mut graph = Graph::default();
    let z1 = zero(&mut graph);
    let z2 = zero(&mut graph);
    let p = priority(&mut graph, &[z1, z2], 1e-3);
    output(&mut graph, p);
    let (force, trace) = run(&graph, vec![origin()]);
    assert_eq!(force, Vec2::ZERO);
    assert!(evaluated(&trace, z1) && evaluated(&trace, z2));
    assert_eq!(chosen(&trace, p), None);
}

#[test]
fn priority_epsilon_is_a_strict_threshold() {
    // T = 0.125 * E = (0.5,0), |T| = 0.5. epsilon 0.5: not > 0.5 -> N. epsilon 0.4: T.
    for (epsilon, expected, index) in [(0.5, N, 1), (0.4, v2(0.5, 0.0), 0)] {
        let mut graph = Graph::default();
        let e = east(&mut graph);
        let t = scale(&mut graph, e, 0.125);
        let n = north(&mut graph);
        let p = priority(&mut graph, &[t, n], epsilon);
        output(&mut graph, p);
        let (force, trace) = run(&graph, vec![origin()]);
        assert_eq!(force, expected, "epsilon {epsilon}");
        assert_eq!(chosen(&trace, p), Some(index));
        assert_eq!(evaluated(&trace, n), index == 1);
    }
}

#[test]
fn priority_default_epsilon_is_one_thousandth() {
    // Written without epsilon in RON: 1e-3. Tiny = 1e-4 * E = (4e-4,0), |Tiny| < 1e-3 -> N;
    // Small = 5e-4 * E = (2e-3,0) > 1e-3 -> Small.
    let ron = |factor: f32| {
        format!(
            r#"(
                format: "steergraph.graph",
                version: 1,
                vehicle: (mass: 1.0, max_force: 8.0, max_speed: 4.0, radius: 0.5),
                nodes: {{
                    1: Seek(target: Point(10.0, 0.0)),
                    2: Scale(input: 1, factor: {factor:?}),
                    3: Seek(target: Point(0.0, 10.0)),
                    4: Priority(inputs: [2, 3]),
                    5: Output(input: 4),
                }},
            )"#
        )
    };
    let graph = Graph::from_ron(&ron(1e-4), "tiny.graph.ron").expect("valid RON");
    assert_eq!(run(&graph, vec![origin()]).0, N);
    let graph = Graph::from_ron(&ron(5e-4), "small.graph.ron").expect("valid RON");
    assert_close(run(&graph, vec![origin()]).0, v2(2e-3, 0.0));
}

// ---------------------------------------------------------------------------------------------
// Dither
// ---------------------------------------------------------------------------------------------

fn dither(graph: &mut Graph, inputs: &[(NodeId, f32)], epsilon: f32) -> NodeId {
    graph.add(Node::Dither {
        inputs: inputs
            .iter()
            .map(|&(node, probability)| ChanceInput {
                node: link(node),
                probability: probability.into(),
            })
            .collect(),
        epsilon: epsilon.into(),
    })
}

#[test]
fn dither_never_evaluates_an_input_that_was_not_drawn() {
    // [(E, 0), (N, 1)]: u < 0 never holds, so E is never evaluated; u < 1 always does -> N
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let n = north(&mut graph);
    let d = dither(&mut graph, &[(e, 0.0), (n, 1.0)], 1e-3);
    output(&mut graph, d);
    let mut harness = Harness::new(&graph, vec![origin()]);
    let mut state = harness.state(5, 0);
    for _ in 0..50 {
        let (force, trace) = harness.traced(0, &mut state);
        assert_eq!(force, N);
        assert!(!evaluated(&trace, e));
        assert_eq!(chosen(&trace, d), Some(1));
    }
}

#[test]
fn dither_with_no_input_drawn_is_zero() {
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let n = north(&mut graph);
    let d = dither(&mut graph, &[(e, 0.0), (n, 0.0)], 1e-3);
    output(&mut graph, d);
    let (force, trace) = run(&graph, vec![origin()]);
    assert_eq!(force, Vec2::ZERO);
    assert!(!evaluated(&trace, e) && !evaluated(&trace, n));
    assert_eq!(chosen(&trace, d), None);
}

#[test]
fn dither_passes_over_inputs_with_nothing_to_do() {
    // [(Tiny, 1), (N, 1)] with Tiny = 1e-4 * E: Tiny is drawn and evaluated, |Tiny| <= 1e-3
    // -> N. With epsilon 1e-5, Tiny = (4e-4,0) is returned.
    for (epsilon, tiny_wins) in [(1e-3, false), (1e-5, true)] {
        let mut graph = Graph::default();
        let e = east(&mut graph);
        let tiny = scale(&mut graph, e, 1e-4);
        let n = north(&mut graph);
        let d = dither(&mut graph, &[(tiny, 1.0), (n, 1.0)], epsilon);
        output(&mut graph, d);
        let (force, trace) = run(&graph, vec![origin()]);
        assert!(evaluated(&trace, tiny));
        if tiny_wins {
            assert_close(force, v2(4e-4, 0.0));
            assert!(!evaluated(&trace, n));
        } else {
            assert_eq!(force, N);
            assert_eq!(chosen(&trace, d), Some(1));
        }
    }
}

#[test]
fn dither_draws_once_per_input_in_order_from_the_agents_rng() {
    // Inputs [(E, 0.0), (Z, 1.0), (W, 0.5), (N, 0.25)]. Per tick, from AgentRng(seed, agent):
    // u1 (drawn even though p = 0, E never runs), u2 (< 1: Z runs, is zero, go on),
    // u3 < 0.5 -> W, else u4 < 0.25 -> N, else zero. A draw skipped or added anywhere would
    // shift the stream and break the replay.
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let z = zero(&mut graph);
    let w = west(&mut graph);
    let n = north(&mut graph);
    let d = dither(&mut graph, &[(e, 0.0), (z, 1.0), (w, 0.5), (n, 0.25)], 1e-3);
    output(&mut graph, d);
    let vehicles = vec![agent(v2(50.0, 50.0), Vec2::ZERO), origin()];
    let mut harness = Harness::new(&graph, vehicles);
    let (seed, index) = (2024, 1);
    let mut state = harness.state(seed, index);
    let mut rng = AgentRng::new(seed, index as u64);
    let mut counts = [0u32; 3];
    for tick in 0..2000 {
        let _never = rng.unit();
        let _zero = rng.unit();
        let expected = if rng.unit() < 0.5 {
            counts[0] += 1;
            W
        } else if rng.unit() < 0.25 {
            counts[1] += 1;
            N
        } else {
            counts[2] += 1;
            Vec2::ZERO
        };
        assert_eq!(harness.steer(index, &mut state), expected, "tick {tick}");
    }
    // the replay itself exercised every branch
    assert!(counts.iter().all(|&count| count > 100), "{counts:?}");
}

/// Fraction of `agents * ticks` evaluations of `graph` that returned each of `forces`.
fn frequencies(graph: &Graph, forces: &[Vec2], agents: usize, ticks: usize) -> Vec<f64> {
    // every agent at the origin at rest, so E, N and W are the same for all of them
    let vehicles = vec![origin(); agents];
    let mut harness = Harness::new(graph, vehicles);
    let mut states: Vec<AgentState> = (0..agents).map(|i| harness.state(77, i)).collect();
    let mut counts = vec![0u32; forces.len()];
    for _ in 0..ticks {
        for (i, state) in states.iter_mut().enumerate() {
            let force = harness.steer(i, state);
            let slot = forces
                .iter()
                .position(|&f| (force - f).length() < 1e-4)
                .unwrap_or_else(|| panic!("unexpected force {force}"));
            counts[slot] += 1;
        }
    }
    let total = (agents * ticks) as f64;
    counts
        .into_iter()
        .map(|count| f64::from(count) / total)
        .collect()
}

#[track_caller]
fn assert_frequency(observed: f64, expected: f64, samples: usize) {
    // within 5 standard deviations of a binomial proportion
    let sigma = (expected * (1.0 - expected) / samples as f64).sqrt();
    assert!(
        (observed - expected).abs() <= 5.0 * sigma,
        "observed {observed}, expected {expected} +- {}",
        5.0 * sigma
    );
}

#[test]
fn dither_picks_inputs_with_their_probabilities() {
    // [(E, 0.3), (N, 1.0)] over 100 agents x 200 ticks = 20,000 agent-ticks, each agent with
    // its own RNG (seed 77): E with P = 0.3, N with 0.7 (sigma = sqrt(0.21 / 20000) = 0.0032).
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let n = north(&mut graph);
    let d = dither(&mut graph, &[(e, 0.3), (n, 1.0)], 1e-3);
    output(&mut graph, d);
    let samples = 20_000;
    let fractions = frequencies(&graph, &[E, N], 100, 200);
    assert_frequency(fractions[0], 0.3, samples);
    assert_frequency(fractions[1], 0.7, samples);
    assert_eq!(fractions[0] + fractions[1], 1.0);
}

#[test]
fn dither_priorities_compound() {
    // [(E, 0.5), (N, 0.4), (W, 1.0)]: E 0.5; N (1 - 0.5) * 0.4 = 0.2; W 0.5 * 0.6 = 0.3.
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let n = north(&mut graph);
    let w = west(&mut graph);
    let d = dither(&mut graph, &[(e, 0.5), (n, 0.4), (w, 1.0)], 1e-3);
    output(&mut graph, d);
    let samples = 20_000;
    let fractions = frequencies(&graph, &[E, N, W], 100, 200);
    assert_frequency(fractions[0], 0.5, samples);
    assert_frequency(fractions[1], 0.2, samples);
    assert_frequency(fractions[2], 0.3, samples);
}

// ---------------------------------------------------------------------------------------------
// Budget
// ---------------------------------------------------------------------------------------------

fn budget(graph: &mut Graph, inputs: &[NodeId]) -> NodeId {
    graph.add(Node::Budget {
        inputs: inputs.iter().copied().map(link).collect(),
    })
}

#[test]
fn budget_allocates_max_force_in_priority_order() {
    // max_force 8. A = 0.75 * E = (3,0): 3 <= 8 -> F = (3,0), left 5.
    // N = (0,4): 4 <= 5 -> F = (3,4), left 1. W = (-4,0): 4 > 1 -> F += (-4,0) * 1/4 = (-1,0),
    // F = (2,4), stop: S is never evaluated.
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let a = scale(&mut graph, e, 0.75);
    let n = north(&mut graph);
    let w = west(&mut graph);
    let s = south(&mut graph);
    let b = budget(&mut graph, &[a, n, w, s]);
    output(&mut graph, b);
    let (force, trace) = run(&graph, vec![origin()]);
    assert_eq!(force, v2(2.0, 4.0));
    assert!(evaluated(&trace, w));
    assert!(!evaluated(&trace, s), "the budget ran out before S");
}

#[test]
fn budget_stops_when_exactly_spent_and_skips_zero_inputs() {
    // Z = 0 uses nothing; 2 * E = (8,0) uses all 8 -> left = 0 <= 1e-6: stop, N never runs
    let mut graph = Graph::default();
    let z = zero(&mut graph);
    let e = east(&mut graph);
    let twice = scale(&mut graph, e, 2.0);
    let n = north(&mut graph);
    let b = budget(&mut graph, &[z, twice, n]);
    output(&mut graph, b);
    let (force, trace) = run(&graph, vec![origin()]);
    assert_eq!(force, v2(8.0, 0.0));
    assert!(evaluated(&trace, z));
    assert!(!evaluated(&trace, n));
}

#[test]
fn budget_with_no_force_to_spend_evaluates_nothing() {
    // max_force 0: left = 0 from the start -> zero, no input evaluated
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let b = budget(&mut graph, &[e]);
    output(&mut graph, b);
    let mut weak = origin();
    weak.max_force = 0.0;
    let (force, trace) = run(&graph, vec![weak]);
    assert_eq!(force, Vec2::ZERO);
    assert!(!evaluated(&trace, e));
    // a budget smaller than the first input scales it: max_force 2, E = (4,0) -> (2,0)
    let mut small = origin();
    small.max_force = 2.0;
    assert_eq!(run(&graph, vec![small]).0, v2(2.0, 0.0));
}

// ---------------------------------------------------------------------------------------------
// Gate, sensors and conditions
// ---------------------------------------------------------------------------------------------

#[test]
fn gate_on_distance_evaluates_its_input_only_when_open() {
    // Distance((3,4)) from the origin = 5.
    for (test, threshold, open) in [
        (Comparison::Less, 6.0, true),
        (Comparison::Less, 5.0, false),
        (Comparison::LessOrEqual, 5.0, true),
        (Comparison::Greater, 5.0, false),
        (Comparison::GreaterOrEqual, 5.0, true),
    ] {
        let mut graph = Graph::default();
        let e = east(&mut graph);
        let distance = graph.add(Node::Distance {
            target: Target::Point(3.0.into(), 4.0.into()),
        });
        let condition = compare(&mut graph, distance, test, threshold);
        let g = gate(&mut graph, e, condition);
        output(&mut graph, g);
        let (force, trace) = run(&graph, vec![origin()]);
        let case = format!("{test:?} {threshold}");
        assert_eq!(
            trace.get(distance).map(|entry| entry.value),
            Some(NodeValue::Scalar(5.0)),
            "{case}"
        );
        assert_eq!(
            trace.get(condition).map(|entry| entry.value),
            Some(NodeValue::Condition(open)),
            "{case}"
        );
        assert_eq!(force, if open { E } else { Vec2::ZERO }, "{case}");
        assert_eq!(
            evaluated(&trace, e),
            open,
            "{case}: input evaluated iff open"
        );
    }
}

#[test]
fn gate_on_own_speed() {
    // v = (3,4): Speed = 5. Greater 4: open, Seek((10,0)) from p = 0 with v = (3,4) =
    // (4,0) - (3,4) = (1,-4). Greater 5: closed, zero.
    for (threshold, expected) in [(4.0, v2(1.0, -4.0)), (5.0, Vec2::ZERO)] {
        let mut graph = Graph::default();
        let e = east(&mut graph);
        let speed = graph.add(Node::Speed);
        let condition = compare(&mut graph, speed, Comparison::Greater, threshold);
        let g = gate(&mut graph, e, condition);
        output(&mut graph, g);
        let (force, trace) = run(&graph, vec![agent(Vec2::ZERO, v2(3.0, 4.0))]);
        assert_eq!(force, expected);
        assert_eq!(
            trace.get(speed).map(|entry| entry.value),
            Some(NodeValue::Scalar(5.0))
        );
    }
    // at rest: Speed = 0, Less 0.1 -> open, F = E
    let mut graph = Graph::default();
    let e = east(&mut graph);
    let speed = graph.add(Node::Speed);
    let condition = compare(&mut graph, speed, Comparison::Less, 0.1);
    let g = gate(&mut graph, e, condition);
    output(&mut graph, g);
    assert_eq!(run(&graph, vec![origin()]).0, E);
}

#[test]
fn gate_on_neighbor_count_uses_radius_and_field_of_view() {
    // Others at (2,0) ahead, (0,2) beside (90 deg), (-2,0) behind and (5,0) far.
    // radius 3, 360 deg: 3; radius 3, 180 deg: 2; radius 2: 0 (distances are not < 2).
    let vehicles = vec![
        origin(),
        agent(v2(2.0, 0.0), Vec2::ZERO),
        agent(v2(0.0, 2.0), Vec2::ZERO),
        agent(v2(-2.0, 0.0), Vec2::ZERO),
        agent(v2(5.0, 0.0), Vec2::ZERO),
    ];
    for (radius, fov, count) in [(3.0, 360.0, 3.0), (3.0, 180.0, 2.0), (2.0, 360.0, 0.0)] {
        let mut graph = Graph::default();
        let e = east(&mut graph);
        let sensor = graph.add(Node::NeighborCount {
            radius: f32::into(radius),
            fov: f32::into(fov),
        });
        let condition = compare(&mut graph, sensor, Comparison::GreaterOrEqual, 2.0);
        let g = gate(&mut graph, e, condition);
        output(&mut graph, g);
        let (force, trace) = run(&graph, vehicles.clone());
        assert_eq!(
            trace.get(sensor).map(|entry| entry.value),
            Some(NodeValue::Scalar(count)),
            "radius {radius}, fov {fov}"
        );
        assert_eq!(force, if count >= 2.0 { E } else { Vec2::ZERO });
    }
}

#[test]
fn gate_on_a_graph_parameter_value() {
    // Value("enabled") > 0.5: default 1 -> open (E); overridden to 0 -> closed (zero)
    let mut graph = Graph::default();
    graph.parameters.insert("enabled".into(), 1.0);
    let e = east(&mut graph);
    let sensor = graph.add(Node::Value {
        value: "enabled".into(),
    });
    let condition = compare(&mut graph, sensor, Comparison::Greater, 0.5);
    let g = gate(&mut graph, e, condition);
    output(&mut graph, g);
    let mut harness = Harness::new(&graph, vec![origin()]);
    let mut state = harness.state(1, 0);
    assert_eq!(harness.steer(0, &mut state), E);
    harness.params = harness
        .program
        .parameters(&BTreeMap::from([("enabled".to_owned(), 0.0)]))
        .expect("a declared parameter");
    let (force, trace) = harness.traced(0, &mut state);
    assert_eq!(force, Vec2::ZERO);
    assert!(!evaluated(&trace, e));
    assert_eq!(
        trace.get(sensor).map(|entry| entry.value),
        Some(NodeValue::Scalar(0.0))
    );
}

#[test]
fn all_any_not_combine_conditions() {
    // Gate(E, cond): E when the condition holds, zero otherwise
    type Build = fn(&mut Graph) -> NodeId;
    let cases: [(&str, Build, bool); 8] = [
        (
            "All[t, t]",
            |g| {
                let a = constant(g, true);
                let b = constant(g, true);
                g.add(Node::All {
                    inputs: vec![link(a), link(b)],
                })
            },
            true,
        ),
        (
            "All[t, f]",
            |g| {
                let a = constant(g, true);
                let b = constant(g, false);
                g.add(Node::All {
                    inputs: vec![link(a), link(b)],
                })
            },
            false,
        ),
        ("All[]", |g| g.add(Node::All { inputs: vec![] }), true),
        (
            "Any[f, t]",
            |g| {
                let a = constant(g, false);
                let b = constant(g, true);
                g.add(Node::Any {
                    inputs: vec![link(a), link(b)],
                })
            },
            true,
        ),
        (
            "Any[f, f]",
            |g| {
                let a = constant(g, false);
                let b = constant(g, false);
                g.add(Node::Any {
                    inputs: vec![link(a), link(b)],
                })
            },
            false,
        ),
        ("Any[]", |g| g.add(Node::Any { inputs: vec![] }), false),
        (
            "Not f",
            |g| {
                let a = constant(g, false);
                g.add(Node::Not { input: link(a) })
            },
            true,
        ),
        (
            "Not t",
            |g| {
                let a = constant(g, true);
                g.add(Node::Not { input: link(a) })
            },
            false,
        ),
    ];
    for (name, build, holds) in cases {
        let mut graph = Graph::default();
        let e = east(&mut graph);
        let condition = build(&mut graph);
        let g = gate(&mut graph, e, condition);
        output(&mut graph, g);
        let (force, trace) = run(&graph, vec![origin()]);
        assert_eq!(force, if holds { E } else { Vec2::ZERO }, "{name}");
        assert_eq!(
            trace.get(condition).map(|entry| entry.value),
            Some(NodeValue::Condition(holds)),
            "{name}"
        );
        assert_eq!(evaluated(&trace, e), holds, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Scale and Truncate
// ---------------------------------------------------------------------------------------------

#[test]
fn scale_multiplies_the_force() {
    for (factor, expected) in [
        (0.5, v2(2.0, 0.0)),
        (-2.0, v2(-8.0, 0.0)),
        (0.0, Vec2::ZERO),
        (3.0, v2(12.0, 0.0)), // no truncation at max_force
    ] {
        let mut graph = Graph::default();
        let e = east(&mut graph);
        let s = scale(&mut graph, e, factor);
        output(&mut graph, s);
        assert_eq!(run(&graph, vec![origin()]).0, expected, "factor {factor}");
    }
}

#[test]
fn truncate_limits_the_length_only() {
    // Seek((3,4)) = (2.4,3.2), |F| = 4. max 2: (2.4,3.2) * 2/4 = (1.2,1.6);
    // max 4: unchanged (|F| <= max); max 10: unchanged; max 0: zero
    for (max, expected) in [
        (2.0, v2(1.2, 1.6)),
        (4.0, v2(2.4, 3.2)),
        (10.0, v2(2.4, 3.2)),
        (0.0, Vec2::ZERO),
    ] {
        let mut graph = Graph::default();
        let d = seek(&mut graph, 3.0, 4.0);
        let t = graph.add(Node::Truncate {
            input: link(d),
            max: f32::into(max),
        });
        output(&mut graph, t);
        assert_close(run(&graph, vec![origin()]).0, expected);
    }
}

// ---------------------------------------------------------------------------------------------
// Nesting
// ---------------------------------------------------------------------------------------------

#[test]
fn combiners_nest() {
    // Priority[Gate(W, false), Truncate(Blend(E * 1, N * 1), 2), S]:
    // Gate closed -> 0; Blend = (4,4), truncated to 2: (4,4) * 2 / sqrt(32) = (sqrt2, sqrt2);
    // S never evaluated
    let mut graph = Graph::default();
    let w = west(&mut graph);
    let closed = constant(&mut graph, false);
    let g = gate(&mut graph, w, closed);
    let e = east(&mut graph);
    let n = north(&mut graph);
    let b = blend(&mut graph, &[(e, 1.0), (n, 1.0)]);
    let t = graph.add(Node::Truncate {
        input: link(b),
        max: 2.0.into(),
    });
    let s = south(&mut graph);
    let p = priority(&mut graph, &[g, t, s], 1e-3);
    output(&mut graph, p);
    let (force, trace) = run(&graph, vec![origin()]);
    let root2 = 2f32.sqrt();
    assert_close(force, v2(root2, root2));
    assert_eq!(force_of(&trace, g), Vec2::ZERO);
    assert!(!evaluated(&trace, w));
    assert!(!evaluated(&trace, s));
    assert_eq!(chosen(&trace, p), Some(1));
}
