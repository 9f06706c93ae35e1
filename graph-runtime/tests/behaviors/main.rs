//! Every steering behavior checked against numbers worked out by hand from the formulas of
//! `graph-runtime/BEHAVIORS.md` ("Behaviors"), through the pure functions of
//! `graph_runtime::behaviors` and through compiled one-node graphs.
//!
//! Conventions used in the comments: `p`, `v` are the agent's position and velocity, `f` its
//! forward and `side = (-f.y, f.x)`; unless said otherwise the agent has mass 1,
//! `max_force` 8, `max_speed` 4 and radius 0.5.

use glam::Vec2;
use graph_runtime::{
    AgentState, BindError, Bindings, Context, Graph, Link, Node, Scratch, SpatialGrid, TagMask,
    TagTable, Target, Vehicle, VehicleParams, World, compile,
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

const TOLERANCE: f32 = 1e-5;

fn v2(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A vehicle with the default test limits; forward follows the velocity (+x at rest).
fn agent(position: Vec2, velocity: Vec2) -> Vehicle {
    Vehicle::new(position, velocity, PARAMS)
}

#[track_caller]
fn assert_close(actual: Vec2, expected: Vec2) {
    assert!(
        (actual - expected).abs().max_element() <= TOLERANCE,
        "expected {expected}, got {actual}"
    );
}

fn point(x: f32, y: f32) -> Target {
    Target::Point(x.into(), y.into())
}

fn tagged(tag: &str) -> Target {
    Target::NearestTagged(tag.to_owned())
}

/// A graph made of `node` wired into an `Output`.
fn graph_of(node: Node) -> Graph {
    let mut graph = Graph::default();
    let id = graph.add(node);
    graph.add(Node::Output {
        input: Link(Some(id)),
    });
    graph
}

/// A compiled graph with everything needed to evaluate it for the agents of one scene.
struct Harness {
    program: graph_runtime::Program,
    params: graph_runtime::ParamValues,
    world: World,
    bindings: Bindings,
    bind_errors: Vec<BindError>,
    vehicles: Vec<Vehicle>,
    tags: Vec<TagMask>,
    grid: SpatialGrid,
    scratch: Scratch,
    dt: f32,
}

impl Harness {
    /// `tags[i]` is agent `i`'s single tag (`""` for none); an empty slice means no tags.
    fn new(graph: &Graph, world: World, vehicles: Vec<Vehicle>, tags: &[&str]) -> Self {
        let program = compile(graph).expect("the test graph compiles");
        let params = program.default_parameters();
        let mut table = TagTable::default();
        let tags: Vec<TagMask> = (0..vehicles.len())
            .map(|i| match tags.get(i) {
                Some(tag) if !tag.is_empty() => table.mask(&[tag]).expect("few tags"),
                _ => 0,
            })
            .collect();
        let (bindings, bind_errors) = Bindings::new(&program, &world, &table);
        let mut grid = SpatialGrid::new(4.0);
        grid.rebuild(&vehicles);
        Self {
            program,
            params,
            world,
            bindings,
            bind_errors,
            vehicles,
            tags,
            grid,
            scratch: Scratch::default(),
            dt: 1.0 / 60.0,
        }
    }

    fn state(&self, seed: u64, agent: usize) -> AgentState {
        AgentState::new(&self.program, seed, agent as u64)
    }

    fn steer(&mut self, agent: usize, state: &mut AgentState) -> Vec2 {
        let context = Context {
            tags: &self.tags,
            ..Context::new(
                &self.world,
                &self.vehicles,
                &self.grid,
                &self.bindings,
                &self.params,
                self.dt,
            )
        };
        self.program
            .steer(&context, agent, state, &mut self.scratch)
    }
}

/// The force the one-node graph of `node` gives agent 0 of `vehicles` (tags as in
/// [`Harness::new`]).
fn graph_force(node: Node, world: World, vehicles: Vec<Vehicle>, tags: &[&str]) -> Vec2 {
    let mut harness = Harness::new(&graph_of(node), world, vehicles, tags);
    let mut state = harness.state(1, 0);
    harness.steer(0, &mut state)
}

mod collisions_neighbors;
mod group;
mod obstacles_wander;
mod paths_fields;
mod pursuit;
mod seek_flee_arrival;
