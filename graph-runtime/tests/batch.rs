//! A simulation evaluates its agents in batches: a program without lazy combiners op by op
//! over the batch, any other agent by agent. Every force must be bit-identical to what the
//! per-agent evaluator gives the same agent from the same state, whatever the graph's shape:
//! shared inputs, two Wanders drawing from one RNG, parameters, several neighborhoods, a
//! query of neighbors one by one, lazy combiners and conditions, groups mixed in space.
//!
//! [`Simulation::trace`] runs the per-agent evaluator on a copy of an agent's state, so each
//! tick's forces are predicted agent by agent, then compared bit for bit with the step's.

use std::collections::BTreeMap;

use graph_runtime::{Graph, Scene, SceneAssets, Simulation, Trace};

/// Every kind of op a batch runs: behaviors of every family, Blend, Scale, Truncate, a Wander
/// read twice (directly and through a Scale: drawn once per tick), a second Wander, weights
/// from parameters, three neighborhoods and unaligned collision avoidance.
const BATCHED: &str = r#"(
    format: "steergraph.graph",
    version: 1,
    parameters: {"spread": 1.5, "near": 3.0},
    vehicle: (mass: 1.5, max_force: 6.0, max_speed: 4.0, radius: 0.5),
    nodes: {
        1: Separation(radius: "near", fov: 360.0),
        2: Cohesion(radius: 6.0, fov: 270.0),
        3: Alignment(radius: "near", fov: 360.0),
        4: Flocking(separation_weight: 2.0, cohesion_weight: 0.5, alignment_weight: "spread",
            radius: 6.0, fov: 270.0),
        5: Wander(distance: 2.0, radius: 1.0, jitter: 120.0),
        6: Scale(input: 5, factor: 0.3),
        7: Wander(distance: 3.0, radius: 2.0, jitter: 45.0),
        8: Seek(target: Named("home")),
        9: ObstacleAvoidance(min_length: 2.0, lookahead_time: 1.0),
        10: Containment(bounds: World, prediction_time: 1.0, margin: 4.0),
        11: UnalignedCollisionAvoidance(max_time: 1.5),
        12: Blend(inputs: [
            (node: 1, weight: "spread"), (node: 2, weight: 1.0), (node: 3, weight: 0.7),
            (node: 4, weight: 0.5), (node: 5, weight: 0.5), (node: 6, weight: 2.0),
            (node: 7, weight: 0.25), (node: 8, weight: 0.1), (node: 9, weight: 3.0),
            (node: 10, weight: 2.0), (node: 11, weight: 1.0),
        ]),
        13: Truncate(input: 12, max: 5.0),
        14: Output(input: 13),
    },
)"#;

/// A lazy graph (Priority) of another vehicle, mixed into the same batches.
const LAZY: &str = r#"(
    format: "steergraph.graph",
    version: 1,
    vehicle: (mass: 1.0, max_force: 8.0, max_speed: 5.0, radius: 0.5),
    nodes: {
        1: ObstacleAvoidance(min_length: 2.0, lookahead_time: 1.0),
        2: Flocking(separation_weight: 2.0, cohesion_weight: 1.0, alignment_weight: 1.0,
            radius: 4.0, fov: 300.0),
        3: Wander(distance: 2.0, radius: 1.0, jitter: 90.0),
        4: Blend(inputs: [(node: 2, weight: 1.0), (node: 3, weight: 0.5)]),
        5: Priority(inputs: [1, 4], epsilon: 0.001),
        6: Output(input: 5),
    },
)"#;

/// A scene of the given groups (name, graph, count) spread over a disc of radius `spread`.
/// Every combiner and condition, nested, with a Wander read by a Dither, a Budget and a Blend
/// (drawn once, when first reached: which node reaches it first depends on the Dither's
/// draws) and sensors that count neighbors, measure speed and distance. Evaluated agent by
/// agent inside the batches.
const COMBINERS: &str = r#"(
    format: "steergraph.graph",
    version: 1,
    parameters: {"chance": 0.6},
    vehicle: (mass: 1.0, max_force: 5.0, max_speed: 4.0, radius: 0.5),
    nodes: {
        1: Wander(distance: 2.0, radius: 1.0, jitter: 120.0),
        2: Seek(target: Named("home")),
        3: Flee(target: Point(0.0, 0.0), panic_distance: Some(6.0)),
        4: Separation(radius: 2.0, fov: 360.0),
        5: Cohesion(radius: 6.0, fov: 270.0),
        6: Dither(inputs: [(node: 3, probability: 0.5), (node: 1, probability: "chance"),
            (node: 2, probability: 0.9)], epsilon: 0.01),
        7: Speed,
        8: Compare(sensor: 7, test: Greater, threshold: 1.5),
        9: NeighborCount(radius: 3.0, fov: 360.0),
        10: Compare(sensor: 9, test: Greater, threshold: 2.0),
        11: Distance(target: Named("home")),
        12: Compare(sensor: 11, test: Less, threshold: 15.0),
        13: All(inputs: [8, 10]),
        14: Any(inputs: [13, 12]),
        15: Not(input: 14),
        16: Gate(input: 4, condition: 14),
        17: Gate(input: 5, condition: 15),
        18: Budget(inputs: [16, 17, 6, 1]),
        19: Blend(inputs: [(node: 18, weight: 1.0), (node: 1, weight: 0.3)]),
        20: Reciprocal(input: 19, time_horizon: 2.0, obstacle_time_horizon: 1.0,
            neighbor_radius: 4.0, max_neighbors: 8.0, clearance: 0.1, keep_right: 10.0),
        21: ObstacleAvoidance(min_length: 2.0, lookahead_time: 1.0),
        22: Priority(inputs: [21, 20], epsilon: 0.001),
        23: Output(input: 22),
    },
)"#;

fn scene(groups: &[(&str, &str, u32)], spread: f32) -> Scene {
    let groups: Vec<String> = groups
        .iter()
        .map(|(name, graph, count)| {
            format!(
                r#"(name: "{name}", graph: "{graph}",
                    spawn: Random(count: {count}, area: Circle(center: (0.0, 0.0), radius: {spread:?}),
                        speed: 2.0))"#
            )
        })
        .collect();
    let text = format!(
        r#"(
            format: "steergraph.scene",
            version: 1,
            bounds: (min: ({low:?}, {low:?}), max: ({high:?}, {high:?})),
            seed: 11,
            targets: {{"home": (10.0, -5.0)}},
            obstacles: [(center: (-8.0, 6.0), radius: 3.0), (center: (12.0, 12.0), radius: 2.0)],
            groups: [{}],
        )"#,
        groups.join(", "),
        low = -spread - 15.0,
        high = spread + 15.0,
    );
    Scene::from_ron(&text, "batch.scene.ron").expect("the test scene parses")
}

fn simulation(scene: Scene) -> Simulation {
    let graphs: BTreeMap<String, Graph> = [
        ("batched.graph.ron", BATCHED),
        ("lazy.graph.ron", LAZY),
        ("combiners.graph.ron", COMBINERS),
    ]
    .into_iter()
    .map(|(name, text)| {
        let graph = Graph::from_ron(text, name).expect("the test graph parses");
        (name.to_owned(), graph)
    })
    .collect();
    let assets = SceneAssets {
        scene,
        origin: "batch.scene.ron".to_owned(),
        graphs,
        flow_fields: BTreeMap::new(),
    };
    Simulation::new(&assets).expect("the test scene builds")
}

/// Steps `ticks` times; before each step, predicts the forces of `checked` agents with the
/// per-agent evaluator; after it, compares. Returns how many forces were compared and how many
/// of them were not zero.
fn compare(simulation: &mut Simulation, ticks: u32, checked: impl Fn(usize) -> bool) -> (u32, u32) {
    let dt = 1.0 / 60.0;
    let (mut compared, mut moving) = (0, 0);
    let mut trace = Trace::default();
    for tick in 0..ticks {
        let agents = simulation.vehicles().len();
        let expected: Vec<(usize, [u32; 2])> = (0..agents)
            .filter(|&agent| checked(agent))
            .map(|agent| {
                let force = simulation
                    .trace(agent, dt, &mut trace)
                    .expect("agent exists");
                (agent, force.to_array().map(f32::to_bits))
            })
            .collect();
        simulation.step(dt);
        for (agent, bits) in expected {
            let force = simulation.forces()[agent];
            assert_eq!(
                force.to_array().map(f32::to_bits),
                bits,
                "tick {tick}, agent {agent}: batch {force} against the per-agent evaluator"
            );
            compared += 1;
            moving += u32::from(force != glam::Vec2::ZERO);
        }
    }
    (compared, moving)
}

#[test]
fn a_batched_program_gives_every_agent_the_per_agent_evaluators_force() {
    let mut simulation = simulation(scene(&[("batched", "batched.graph.ron", 300)], 25.0));
    let (compared, moving) = compare(&mut simulation, 40, |_| true);
    assert_eq!(compared, 300 * 40);
    assert_eq!(moving, compared, "every agent steers every tick");
}

#[test]
fn a_lazy_program_gives_every_agent_of_a_batch_its_own_force() {
    let mut simulation = simulation(scene(&[("mixed", "combiners.graph.ron", 300)], 20.0));
    let (compared, moving) = compare(&mut simulation, 60, |_| true);
    assert_eq!(compared, 300 * 60);
    assert!(
        moving > compared / 2,
        "{moving} of {compared} forces moving"
    );
}

#[test]
fn batches_that_mix_groups_split_by_group() {
    // Interleaved groups: consecutive slots belong to different groups.
    let mut simulation = simulation(scene(
        &[
            ("batched", "batched.graph.ron", 150),
            ("lazy", "lazy.graph.ron", 150),
            ("combiners", "combiners.graph.ron", 60),
            ("batched again", "batched.graph.ron", 40),
        ],
        25.0,
    ));
    let (compared, moving) = compare(&mut simulation, 30, |_| true);
    assert_eq!(compared, 400 * 30);
    assert!(
        moving > compared * 9 / 10,
        "{moving} of {compared} forces moving"
    );
}

#[test]
fn in_the_cell_ordered_layout_batches_take_the_right_agents() {
    // From 8,192 agents the simulation keeps its agents in grid-cell order, so a batch's
    // slots hold agents of scattered indices. One agent in 89 is checked (the per-agent
    // evaluator rebuilds the grid for each).
    let mut simulation = simulation(scene(&[("batched", "batched.graph.ron", 9_000)], 140.0));
    let (compared, _) = compare(&mut simulation, 2, |agent| agent % 89 == 0);
    assert_eq!(compared, 2 * 9_000_u32.div_ceil(89));
}
