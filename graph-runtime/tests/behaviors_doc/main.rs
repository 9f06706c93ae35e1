//! `BEHAVIORS.md` is the specification a game engine in another language follows, so each test
//! here quotes a sentence or formula of it verbatim (the test fails if the text changes) and
//! checks the code against numbers worked out by hand from that text.
//!
//! Unless said otherwise the agent has mass 1, `max_force` 8, `max_speed` 5 and radius 0.5.

use glam::Vec2;
use graph_runtime::{
    AgentState, Bindings, Context, Graph, Link, Node, NodeId, Scratch, SpatialGrid, TagMask,
    TagTable, Target, Vehicle, VehicleParams, World, compile,
};

const DOC: &str = include_str!("../../BEHAVIORS.md");

const PARAMS: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 8.0,
    max_speed: 5.0,
    radius: 0.5,
};

/// Asserts that `BEHAVIORS.md` says `quote`, word for word.
#[track_caller]
fn says(quote: &str) {
    assert!(DOC.contains(quote), "BEHAVIORS.md no longer says: {quote}");
}

fn v2(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn agent(position: Vec2, velocity: Vec2) -> Vehicle {
    Vehicle::new(position, velocity, PARAMS)
}

#[track_caller]
fn close(actual: Vec2, expected: Vec2) {
    assert!(
        (actual - expected).abs().max_element() <= 1e-5,
        "expected {expected}, got {actual}"
    );
}

fn link(id: NodeId) -> Link {
    Link(Some(id))
}

/// Agent 0's force under `graph` among `vehicles` (`tags[i]` is agent `i`'s tag, `""` for
/// none), with RNG seed `seed`, `ticks` ticks of 0.1 s without moving anyone.
fn steer(graph: &Graph, world: &World, vehicles: &[Vehicle], tags: &[&str], seed: u64) -> Vec2 {
    steer_ticks(graph, world, vehicles, tags, seed, 1)
        .pop()
        .expect("one tick")
}

fn steer_ticks(
    graph: &Graph,
    world: &World,
    vehicles: &[Vehicle],
    tags: &[&str],
    seed: u64,
    ticks: usize,
) -> Vec<Vec2> {
    let program = compile(graph).expect("the test graph compiles");
    let mut table = TagTable::default();
    let masks: Vec<TagMask> = (0..vehicles.len())
        .map(|i| match tags.get(i) {
            Some(tag) if !tag.is_empty() => table.mask(&[tag]).expect("few tags"),
            _ => 0,
        })
        .collect();
    let (bindings, _) = Bindings::new(&program, world, &table);
    let params = program.default_parameters();
    let mut grid = SpatialGrid::new(4.0);
    grid.rebuild(vehicles);
    let context = Context {
        tags: &masks,
        ..Context::new(world, vehicles, &grid, &bindings, &params, 0.1)
    };
    let mut state = AgentState::new(&program, seed, 0);
    let mut scratch = Scratch::default();
    (0..ticks)
        .map(|_| program.steer(&context, 0, &mut state, &mut scratch))
        .collect()
}

/// A graph of `node` into the Output.
fn one(node: Node) -> Graph {
    let mut graph = Graph::default();
    let id = graph.add(node);
    graph.add(Node::Output { input: link(id) });
    graph
}

fn point(x: f32, y: f32) -> Target {
    Target::Point(x.into(), y.into())
}

mod conventions;
mod fields;
mod randomness;
mod reciprocal;
mod sensors_combiners;
mod steering;
mod walls;

/// Kinds whose formula no test here calls, and where they are checked instead.
const TESTED_ELSEWHERE: &[(&str, &str)] = &[
    (
        "Value",
        "a constant or a parameter: combiners.rs reads it through Compare",
    ),
    (
        "JumpAchievable",
        "jump_plan is tested under Jump here; the jumper preset's gate in facing_presets.rs",
    ),
    (
        "Subgraph",
        "written out before compiling: the subgraph tests",
    ),
    (
        "Navigate",
        "its formula is route_following, quoted in steering.rs; the node runs in navigate.rs",
    ),
    (
        "Reroute",
        "a bend point that compiles to nothing: mute_reroute.rs",
    ),
];

/// Every kind of the node table is held to `BEHAVIORS.md` by a test here (or in
/// `angular_doc.rs`): one calls its formula (`behaviors::seek(`) or builds a node of it
/// (`Node::Seek`). A new kind without such a test fails here, unless it is listed above with
/// where it is checked instead.
#[test]
fn every_kind_has_a_test_that_quotes_its_formula() {
    let sources = [
        include_str!("conventions.rs"),
        include_str!("randomness.rs"),
        include_str!("reciprocal.rs"),
        include_str!("sensors_combiners.rs"),
        include_str!("steering.rs"),
        include_str!("walls.rs"),
        include_str!("../angular_doc.rs"),
    ]
    .concat();
    let mut missing = Vec::new();
    for &kind in graph_runtime::NodeKind::ALL {
        let name = kind.name();
        let mut snake = String::new();
        for (index, c) in name.chars().enumerate() {
            if c.is_uppercase() && index > 0 {
                snake.push('_');
            }
            snake.push(c.to_ascii_lowercase());
        }
        let tested = sources.contains(&format!("behaviors::{snake}("))
            || sources.contains(&format!("Node::{name} "))
            || sources.contains(&format!("Node::{name},"))
            || sources.contains(&format!("Node::{name})"));
        let exempt = TESTED_ELSEWHERE.iter().any(|(k, _)| *k == name);
        if tested == exempt {
            missing.push(if tested {
                format!("{name}: tested here now: take it off TESTED_ELSEWHERE")
            } else {
                format!("{name}: no test here calls its formula or builds its node")
            });
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
