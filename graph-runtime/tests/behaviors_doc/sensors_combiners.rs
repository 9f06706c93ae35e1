//! Sensors, conditions and combiners, as `BEHAVIORS.md` states them.

use super::{agent, close, link, point, says, steer, steer_ticks, v2};
use glam::Vec2;
use graph_runtime::{
    AgentRng, ChanceInput, Comparison, Graph, Node, NodeId, Target, Vehicle, WeightedInput, World,
};

// ---------------------------------------------------------------------------------------------
// Sensors and conditions
// ---------------------------------------------------------------------------------------------

/// `Gate(Seek((3,4)), condition)` for agent 0 at the origin moving `velocity`, with the
/// condition built by `condition` (given the graph). Seek gives `(3,4) - v`.
fn gated(velocity: Vec2, others: &[Vehicle], condition: impl FnOnce(&mut Graph) -> NodeId) -> Vec2 {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: point(3.0, 4.0),
    });
    let condition = condition(&mut graph);
    let gate = graph.add(Node::Gate {
        input: link(seek),
        condition: link(condition),
    });
    graph.add(Node::Output { input: link(gate) });
    let mut vehicles = vec![agent(Vec2::ZERO, velocity)];
    vehicles.extend_from_slice(others);
    steer(&graph, &World::default(), &vehicles, &[], 1)
}

pub(crate) fn compare(graph: &mut Graph, sensor: Node, test: Comparison, threshold: f32) -> NodeId {
    let sensor = graph.add(sensor);
    graph.add(Node::Compare {
        sensor: link(sensor),
        test,
        threshold: threshold.into(),
    })
}

#[test]
fn sensors_and_comparisons_read_as_documented() {
    let open = v2(3.0, 4.0);
    says("`Distance(target)`: `|target - p|`; `+inf` when the target does not resolve.");
    let unresolved = Node::Distance {
        target: Target::Named("nowhere".into()),
    };
    assert_eq!(
        gated(Vec2::ZERO, &[], |g| compare(
            g,
            unresolved,
            Comparison::Greater,
            1e9
        )),
        open
    );
    let to_point = Node::Distance {
        target: point(0.0, 2.0),
    };
    assert_eq!(
        gated(Vec2::ZERO, &[], |g| compare(
            g,
            to_point,
            Comparison::GreaterOrEqual,
            2.0
        )),
        open
    );
    says(
        "`Less` is `sensor < threshold`, `LessOrEqual` is `sensor <= threshold`, `Greater` is `sensor > threshold`, `GreaterOrEqual` is `sensor >= threshold`.",
    );
    // Speed of (3,4) is exactly 5; Seek then gives (3,4) - (3,4) = 0, so use (0,5): also 5.
    let v = v2(0.0, 5.0);
    let through = open - v;
    for (test, holds) in [
        (Comparison::Less, false),
        (Comparison::LessOrEqual, true),
        (Comparison::Greater, false),
        (Comparison::GreaterOrEqual, true),
    ] {
        let force = gated(v, &[], |g| compare(g, Node::Speed, test, 5.0));
        assert_eq!(force, if holds { through } else { Vec2::ZERO }, "{test:?}");
    }
    says(
        "`NeighborCount(radius, fov)`: the number of neighbors within `radius` and the field of view, counted up to 1,024 (a denser neighborhood reads 1,024; counting stops there, so a stacked crowd costs each agent about that many tests).",
    );
    assert_eq!(graph_runtime::behaviors::MAX_COUNTED_NEIGHBORS, 1_024);
    // Neighbors at (1,0) and (-1,0); fov 180 sees only the one ahead (agent 0 faces +x).
    let others = [
        agent(v2(1.0, 0.0), Vec2::ZERO),
        agent(v2(-1.0, 0.0), Vec2::ZERO),
    ];
    let count = || Node::NeighborCount {
        radius: 2.0.into(),
        fov: 180.0.into(),
    };
    let moving = v2(1.0, 0.0);
    assert_eq!(
        gated(moving, &others, |g| compare(
            g,
            count(),
            Comparison::LessOrEqual,
            1.0
        )),
        open - moving
    );
    assert_eq!(
        gated(moving, &others, |g| compare(
            g,
            count(),
            Comparison::Less,
            1.0
        )),
        Vec2::ZERO
    );
}

#[test]
fn all_any_and_not_of_no_inputs_and_of_answers() {
    says(
        "`All(inputs)` is true when every input holds (true for no inputs) and stops at the first false one; `Any(inputs)` is true when one holds (false for no inputs) and stops at the first true one; `Not(input)` negates.",
    );
    let open = v2(3.0, 4.0);
    assert_eq!(
        gated(Vec2::ZERO, &[], |g| g.add(Node::All { inputs: vec![] })),
        open
    );
    assert_eq!(
        gated(Vec2::ZERO, &[], |g| g.add(Node::Any { inputs: vec![] })),
        Vec2::ZERO
    );
    assert_eq!(
        gated(Vec2::ZERO, &[], |g| {
            let none = g.add(Node::Any { inputs: vec![] });
            g.add(Node::Not { input: link(none) })
        }),
        open
    );
    // Speed 0: "speed < 1" holds, "speed > 1" does not
    assert_eq!(
        gated(Vec2::ZERO, &[], |g| {
            let slow = compare(g, Node::Speed, Comparison::Less, 1.0);
            let fast = compare(g, Node::Speed, Comparison::Greater, 1.0);
            g.add(Node::Any {
                inputs: vec![link(fast), link(slow)],
            })
        }),
        open
    );
    assert_eq!(
        gated(Vec2::ZERO, &[], |g| {
            let slow = compare(g, Node::Speed, Comparison::Less, 1.0);
            let fast = compare(g, Node::Speed, Comparison::Greater, 1.0);
            g.add(Node::All {
                inputs: vec![link(slow), link(fast)],
            })
        }),
        Vec2::ZERO
    );
}

// ---------------------------------------------------------------------------------------------
// Combiners
// ---------------------------------------------------------------------------------------------

/// Seek from the origin at rest to a point 10 away along `direction`: `direction * 5`.
fn toward(graph: &mut Graph, direction: Vec2) -> NodeId {
    let target = direction * 10.0;
    graph.add(Node::Seek {
        target: point(target.x, target.y),
    })
}

fn at_rest() -> Vec<Vehicle> {
    vec![agent(Vec2::ZERO, Vec2::ZERO)]
}

#[test]
fn blend_priority_and_budget() {
    says(
        "`Blend`: `F = Σ w_i * F_i`, in input order, starting from zero; no truncation (the vehicle truncates).",
    );
    let mut graph = Graph::default();
    let east = toward(&mut graph, Vec2::X);
    let north = toward(&mut graph, Vec2::Y);
    let blend = graph.add(Node::Blend {
        inputs: vec![
            WeightedInput {
                node: link(east),
                weight: 2.0.into(),
            },
            WeightedInput {
                node: link(north),
                weight: (-1.0).into(),
            },
        ],
    });
    graph.add(Node::Output { input: link(blend) });
    // 2 (5,0) - (0,5) = (10,-5), longer than max_force 8 and kept
    assert_eq!(
        steer(&graph, &World::default(), &at_rest(), &[], 1),
        v2(10.0, -5.0)
    );

    says(
        "`Priority`: the first input with `|F_i| > epsilon`; none: zero. Later inputs are not evaluated.",
    );
    let mut graph = Graph::default();
    let nothing = graph.add(Node::Seek {
        target: Target::Named("nowhere".into()),
    });
    let east = toward(&mut graph, Vec2::X);
    let north = toward(&mut graph, Vec2::Y);
    let priority = graph.add(Node::Priority {
        inputs: vec![link(nothing), link(east), link(north)],
        epsilon: 1e-3.into(),
    });
    graph.add(Node::Output {
        input: link(priority),
    });
    assert_eq!(
        steer(&graph, &World::default(), &at_rest(), &[], 1),
        v2(5.0, 0.0)
    );

    says(
        "`Budget` (\"prioritized acceleration allocation\"): `left = max_force`, `F = 0`; for each input, first stop if `left <= 1e-6`; if `|F_i| <= left` then `F = F + F_i` and `left = left - |F_i|`, else `F = F + F_i * (left / |F_i|)` and stop.",
    );
    // max_force 8: east (5,0) fits, left 3; north (0,5) is cut to (0,3): F = (5,3)
    let mut graph = Graph::default();
    let east = toward(&mut graph, Vec2::X);
    let north = toward(&mut graph, Vec2::Y);
    let budget = graph.add(Node::Budget {
        inputs: vec![link(east), link(north)],
    });
    graph.add(Node::Output {
        input: link(budget),
    });
    close(
        steer(&graph, &World::default(), &at_rest(), &[], 1),
        v2(5.0, 3.0),
    );
}

#[test]
fn dither_draws_once_per_input_considered_in_order() {
    says(
        "`Dither`: for each input in order, one draw `u = unit()` from the agent's RNG, whether or not an earlier input was skipped; the input is evaluated when `u < probability` and returned when `|F_i| > epsilon`; none: zero.",
    );
    // Dither[(east, 0.5), (north, 0.5)] over 40 ticks with seed 9: the stream decides, and
    // a tick that takes east draws once, one that skips it draws twice.
    let mut graph = Graph::default();
    let east = toward(&mut graph, Vec2::X);
    let north = toward(&mut graph, Vec2::Y);
    let dither = graph.add(Node::Dither {
        inputs: vec![
            ChanceInput {
                node: link(east),
                probability: 0.5.into(),
            },
            ChanceInput {
                node: link(north),
                probability: 0.5.into(),
            },
        ],
        epsilon: 1e-3.into(),
    });
    graph.add(Node::Output {
        input: link(dither),
    });
    let forces = steer_ticks(&graph, &World::default(), &at_rest(), &[], 9, 40);
    let mut rng = AgentRng::new(9, 0);
    let mut seen = [0; 3];
    for force in forces {
        // The first input draws; only when it is skipped does the second draw.
        let expected = if rng.unit() < 0.5 {
            v2(5.0, 0.0)
        } else {
            let second = rng.unit();
            if second < 0.5 {
                v2(0.0, 5.0)
            } else {
                Vec2::ZERO
            }
        };
        assert_eq!(force, expected);
        seen[usize::from(expected.x > 0.0) + 2 * usize::from(expected.y > 0.0)] += 1;
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "every outcome occurs: {seen:?}"
    );
}

#[test]
fn gate_and_a_shared_wander_evaluated_once() {
    says(
        "`Gate`: the condition is evaluated first; the input only when the condition holds, else zero.",
    );
    says("A shared Wander draws once.");
    // Blend[(Wd, 1), (Gate(Wd, All[]), 1)]: the gate is open, the wander shared: 2 * Wander
    // with a single draw per tick. Agent at rest facing +x, distance 2, radius 1, jitter 90.
    let mut graph = Graph::default();
    let wander = graph.add(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 90.0.into(),
        face: false,
    });
    let always = graph.add(Node::All { inputs: vec![] });
    let gate = graph.add(Node::Gate {
        input: link(wander),
        condition: link(always),
    });
    let blend = graph.add(Node::Blend {
        inputs: vec![
            WeightedInput {
                node: link(wander),
                weight: 1.0.into(),
            },
            WeightedInput {
                node: link(gate),
                weight: 1.0.into(),
            },
        ],
    });
    graph.add(Node::Output { input: link(blend) });
    let forces = steer_ticks(&graph, &World::default(), &at_rest(), &[], 3, 5);
    let mut rng = AgentRng::new(3, 0);
    let mut theta = 0.0f32;
    for force in forces {
        theta += rng.signed_unit() * 90f32.to_radians() * 0.1;
        let aim = v2(2.0 + theta.cos(), theta.sin());
        close(force, 2.0 * (aim.normalize() * 5.0));
    }
}
