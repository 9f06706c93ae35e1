//! Every steering behavior checked against numbers worked out by hand from the formulas of
//! `graph-runtime/BEHAVIORS.md` ("Behaviors"), through the pure functions of
//! `graph_runtime::behaviors` and through compiled one-node graphs.
//!
//! Conventions used in the comments: `p`, `v` are the agent's position and velocity, `f` its
//! forward and `side = (-f.y, f.x)`; unless said otherwise the agent has mass 1,
//! `max_force` 8, `max_speed` 4 and radius 0.5.

use glam::Vec2;
use graph_runtime::behaviors::{self, FieldOfView, Quarry};
use graph_runtime::{
    AgentRng, AgentState, BindError, Bindings, Context, FlowField, Graph, Link, Node, Obstacle,
    Path, PathDirection, Rect, Region, Scratch, SpatialGrid, TagMask, TagTable, Target, Vehicle,
    VehicleParams, World, compile,
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
            world: &self.world,
            vehicles: &self.vehicles,
            tags: &self.tags,
            grid: &self.grid,
            bindings: &self.bindings,
            params: &self.params,
            dt: self.dt,
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

// ---------------------------------------------------------------------------------------------
// Seek
// ---------------------------------------------------------------------------------------------

#[test]
fn seek_goes_at_full_speed_towards_the_target() {
    // p = (1,1), v = (1,0), target (1,6): normalize((0,5)) = (0,1), desired = (0,4),
    // F = (0,4) - (1,0) = (-1,4)
    let me = agent(v2(1.0, 1.0), v2(1.0, 0.0));
    assert_eq!(behaviors::seek(&me, v2(1.0, 6.0)), v2(-1.0, 4.0));
    // p = 0, v = 0, target (3,4): normalize = (0.6,0.8), desired = (2.4,3.2) = F
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_close(behaviors::seek(&still, v2(3.0, 4.0)), v2(2.4, 3.2));
}

#[test]
fn seek_on_the_target_only_cancels_the_velocity() {
    // target - p = 0 -> normalize = 0 (never NaN), F = 0 - v = (-1,1)
    let me = agent(v2(2.0, 2.0), v2(1.0, -1.0));
    assert_eq!(behaviors::seek(&me, v2(2.0, 2.0)), v2(-1.0, 1.0));
    // at rest on the target: F = 0 exactly
    let still = agent(v2(2.0, 2.0), Vec2::ZERO);
    assert_eq!(behaviors::seek(&still, v2(2.0, 2.0)), Vec2::ZERO);
}

#[test]
fn seek_graph_resolves_points_named_targets_and_nearest_tagged_agents() {
    let me = agent(v2(1.0, 1.0), v2(1.0, 0.0));
    // Fixed point (1,6): F = (-1,4) as in the function test.
    let force = graph_force(
        Node::Seek {
            target: point(1.0, 6.0),
        },
        World::default(),
        vec![me],
        &[],
    );
    assert_eq!(force, v2(-1.0, 4.0));
    assert_eq!(force, behaviors::seek(&me, v2(1.0, 6.0)));

    // Named point "goal" at (1,6): same force.
    let mut world = World::default();
    world.set_target("goal", v2(1.0, 6.0));
    let force = graph_force(
        Node::Seek {
            target: Target::Named("goal".into()),
        },
        world,
        vec![me],
        &[],
    );
    assert_eq!(force, v2(-1.0, 4.0));

    // Nearest agent tagged "goal": agent 1 at (1,6) (distance 5) beats agent 2 at (1,20);
    // agent 3 at (1,0) is closer but untagged. F = (-1,4).
    let vehicles = vec![
        me,
        agent(v2(1.0, 6.0), Vec2::ZERO),
        agent(v2(1.0, 20.0), Vec2::ZERO),
        agent(v2(1.0, 0.0), Vec2::ZERO),
    ];
    let force = graph_force(
        Node::Seek {
            target: tagged("goal"),
        },
        World::default(),
        vehicles,
        &["", "goal", "goal", "other"],
    );
    assert_eq!(force, v2(-1.0, 4.0));
}

#[test]
fn nearest_tagged_target_is_never_the_agent_itself() {
    // The contract says "the nearest agent carrying a tag"; the agent itself (distance 0)
    // is excluded, as implemented. Agent 0 (tagged "boid", at (1,1), v = (1,0)) seeks the
    // other boid at (1,6): F = (-1,4), not Seek(p) = -v = (-1,0).
    let vehicles = vec![
        agent(v2(1.0, 1.0), v2(1.0, 0.0)),
        agent(v2(1.0, 6.0), Vec2::ZERO),
    ];
    assert_eq!(
        graph_force(
            Node::Seek {
                target: tagged("boid"),
            },
            World::default(),
            vehicles,
            &["boid", "boid"],
        ),
        v2(-1.0, 4.0)
    );
}

#[test]
fn unresolved_targets_give_zero_and_are_reported() {
    let me = agent(v2(1.0, 1.0), v2(1.0, 0.0));
    let mut harness = Harness::new(
        &graph_of(Node::Seek {
            target: Target::Named("nowhere".into()),
        }),
        World::default(),
        vec![me],
        &[],
    );
    assert_eq!(
        harness.bind_errors,
        vec![BindError::UnknownTarget("nowhere".into())]
    );
    let mut state = harness.state(1, 0);
    assert_eq!(harness.steer(0, &mut state), Vec2::ZERO);

    // A tag nobody carries: zero, reported.
    let mut harness = Harness::new(
        &graph_of(Node::Seek {
            target: tagged("ghost"),
        }),
        World::default(),
        vec![me, agent(v2(5.0, 5.0), Vec2::ZERO)],
        &["", "other"],
    );
    assert_eq!(
        harness.bind_errors,
        vec![BindError::UnknownTag("ghost".into())]
    );
    let mut state = harness.state(1, 0);
    assert_eq!(harness.steer(0, &mut state), Vec2::ZERO);
}

// ---------------------------------------------------------------------------------------------
// Flee
// ---------------------------------------------------------------------------------------------

#[test]
fn flee_runs_away_at_full_speed() {
    // p = 0, v = (0,1), target (-3,0): normalize(p - t) = (1,0), desired (4,0), F = (4,-1)
    let me = agent(Vec2::ZERO, v2(0.0, 1.0));
    assert_eq!(behaviors::flee(&me, v2(-3.0, 0.0), None), v2(4.0, -1.0));
    // target (3,4) from (0,0) at rest: normalize((-3,-4)) * 4 = (-2.4,-3.2)
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_close(behaviors::flee(&still, v2(3.0, 4.0), None), v2(-2.4, -3.2));
}

#[test]
fn flee_panic_distance_ignores_far_targets() {
    let me = agent(Vec2::ZERO, v2(0.0, 1.0));
    // |p - target| = 3 > panic 2: zero exactly (not -v)
    assert_eq!(behaviors::flee(&me, v2(-3.0, 0.0), Some(2.0)), Vec2::ZERO);
    // 3 is not > 3: flee as without panic distance, F = (4,-1)
    assert_eq!(
        behaviors::flee(&me, v2(-3.0, 0.0), Some(3.0)),
        v2(4.0, -1.0)
    );
    // coincident target: normalize(0) = 0, F = -v = (0,-1)
    assert_eq!(behaviors::flee(&me, Vec2::ZERO, Some(1.0)), v2(0.0, -1.0));
}

#[test]
fn flee_graph_matches_the_formula() {
    let me = agent(Vec2::ZERO, v2(0.0, 1.0));
    let flee = |panic: Option<f32>| Node::Flee {
        target: point(-3.0, 0.0),
        panic_distance: panic.map(Into::into),
    };
    assert_eq!(
        graph_force(flee(None), World::default(), vec![me], &[]),
        v2(4.0, -1.0)
    );
    assert_eq!(
        graph_force(flee(Some(2.0)), World::default(), vec![me], &[]),
        Vec2::ZERO
    );
    assert_eq!(
        graph_force(flee(Some(5.0)), World::default(), vec![me], &[]),
        v2(4.0, -1.0)
    );
}

// ---------------------------------------------------------------------------------------------
// Arrival
// ---------------------------------------------------------------------------------------------

#[test]
fn arrival_slows_down_inside_the_slowing_distance() {
    // o = (3,4), d = 5, speed = min(4 * 5 / 10, 4) = 2, F = (3,4) * (2/5) - 0 = (1.2,1.6)
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_close(behaviors::arrival(&still, v2(3.0, 4.0), 10.0), v2(1.2, 1.6));
    // o = (0,8), d = 8, slowing 4: speed = min(8, 4) = 4, F = (0,8) * (4/8) - (1,0) = (-1,4)
    let moving = agent(Vec2::ZERO, v2(1.0, 0.0));
    assert_eq!(
        behaviors::arrival(&moving, v2(0.0, 8.0), 4.0),
        v2(-1.0, 4.0)
    );
    // o = (0,2), d = 2, slowing 4: speed = min(4 * 2 / 4, 4) = 2, F = (0,2) * 1 - (1,0)
    assert_eq!(
        behaviors::arrival(&moving, v2(0.0, 2.0), 4.0),
        v2(-1.0, 2.0)
    );
}

#[test]
fn arrival_on_the_target_brakes_and_zero_slowing_distance_is_seek() {
    // d = 0 < 1e-6: F = -v
    let me = agent(v2(5.0, 5.0), v2(0.5, -2.0));
    assert_eq!(behaviors::arrival(&me, v2(5.0, 5.0), 3.0), v2(-0.5, 2.0));
    // slowing_distance 0: speed = min(4 * 5 / 0 = inf, 4) = 4, F = (3,4) * (4/5) = (2.4,3.2)
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_close(behaviors::arrival(&still, v2(3.0, 4.0), 0.0), v2(2.4, 3.2));
}

#[test]
fn arrival_graph_matches_the_formula() {
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    let node = |slowing: f32| Node::Arrival {
        target: point(3.0, 4.0),
        slowing_distance: slowing.into(),
    };
    // as above: (1.2,1.6) with slowing 10, (2.4,3.2) with slowing 5 (speed = min(4, 4))
    let force = graph_force(node(10.0), World::default(), vec![still], &[]);
    assert_close(force, v2(1.2, 1.6));
    assert_eq!(force, behaviors::arrival(&still, v2(3.0, 4.0), 10.0));
    assert_close(
        graph_force(node(5.0), World::default(), vec![still], &[]),
        v2(2.4, 3.2),
    );
    // agent sitting on the target with v = (1,1): F = -v
    let on_target = agent(v2(3.0, 4.0), v2(1.0, 1.0));
    assert_eq!(
        graph_force(node(10.0), World::default(), vec![on_target], &[]),
        v2(-1.0, -1.0)
    );
}

// ---------------------------------------------------------------------------------------------
// Pursuit and evasion
// ---------------------------------------------------------------------------------------------

#[test]
fn prediction_time_is_distance_over_speed_capped() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    // D = 8, max_speed 4: T = min(2, 10) = 2; min(2, 1) = 1
    assert_eq!(behaviors::prediction_time(&me, v2(0.0, 8.0), 10.0), 2.0);
    assert_eq!(behaviors::prediction_time(&me, v2(0.0, 8.0), 1.0), 1.0);
    // coincident quarry: D = 0, T = 0
    assert_eq!(behaviors::prediction_time(&me, Vec2::ZERO, 10.0), 0.0);
    // max_speed = 0: T = max_prediction
    let mut stopped = me;
    stopped.max_speed = 0.0;
    assert_eq!(behaviors::prediction_time(&stopped, v2(0.0, 8.0), 3.0), 3.0);
}

#[test]
fn pursuit_seeks_the_predicted_position() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    // quarry (0,8) moving (3,0): D = 8, T = min(8/4, 10) = 2, P = (6,8),
    // F = normalize((6,8)) * 4 = (2.4,3.2)
    let quarry = Quarry {
        position: v2(0.0, 8.0),
        velocity: v2(3.0, 0.0),
        forward: Vec2::X,
    };
    assert_close(behaviors::pursuit(&me, &quarry, 10.0), v2(2.4, 3.2));
    // quarry moving (6,0) with max_prediction 1: T = min(2, 1) = 1, P = (6,8) again
    let fast = Quarry {
        velocity: v2(6.0, 0.0),
        ..quarry
    };
    assert_close(behaviors::pursuit(&me, &fast, 1.0), v2(2.4, 3.2));
}

#[test]
fn pursuit_degenerate_cases() {
    // quarry on top of us: D = 0, T = 0, P = p, seek(p) = -v
    let me = agent(v2(1.0, 1.0), v2(2.0, 0.0));
    let on_top = Quarry {
        position: v2(1.0, 1.0),
        velocity: v2(0.0, 5.0),
        forward: Vec2::Y,
    };
    assert_eq!(behaviors::pursuit(&me, &on_top, 10.0), v2(-2.0, 0.0));
    // max_speed 0: T = max_prediction, desired = normalize(..) * 0 = 0, F = -v
    let mut stopped = me;
    stopped.max_speed = 0.0;
    let quarry = Quarry {
        position: v2(9.0, 1.0),
        velocity: v2(0.0, 1.0),
        forward: Vec2::Y,
    };
    assert_eq!(behaviors::pursuit(&stopped, &quarry, 3.0), v2(-2.0, 0.0));
}

#[test]
fn pursuit_graph_uses_the_quarry_velocity_of_tagged_agents_only() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let node = |quarry: Target| Node::Pursuit {
        quarry,
        max_prediction: 10.0.into(),
    };
    // tagged agent at (0,8) moving (3,0): P = (6,8), F = (2.4,3.2)
    let prey = agent(v2(0.0, 8.0), v2(3.0, 0.0));
    let force = graph_force(
        node(tagged("prey")),
        World::default(),
        vec![me, prey],
        &["", "prey"],
    );
    assert_close(force, v2(2.4, 3.2));
    assert_eq!(force, behaviors::pursuit(&me, &Quarry::from(&prey), 10.0));
    // named point at (0,8) has velocity 0: P = (0,8), F = (0,4)
    let mut world = World::default();
    world.set_target("spot", v2(0.0, 8.0));
    assert_eq!(
        graph_force(node(Target::Named("spot".into())), world, vec![me], &[]),
        v2(0.0, 4.0)
    );
}

#[test]
fn evasion_flees_the_predicted_position() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let quarry = Quarry {
        position: v2(0.0, 8.0),
        velocity: v2(3.0, 0.0),
        forward: Vec2::X,
    };
    // T = 2, P = (6,8), F = normalize((-6,-8)) * 4 = (-2.4,-3.2)
    assert_close(behaviors::evasion(&me, &quarry, 10.0, None), v2(-2.4, -3.2));
    // max_prediction 0: P = (0,8), F = (0,-4)
    assert_eq!(behaviors::evasion(&me, &quarry, 0.0, None), v2(0.0, -4.0));
    // coincident still quarry: T = 0, P = p, F = -v
    let moving = agent(v2(2.0, 2.0), v2(1.0, 0.0));
    assert_eq!(
        behaviors::evasion(&moving, &Quarry::at(v2(2.0, 2.0)), 5.0, None),
        v2(-1.0, 0.0)
    );
}

#[test]
fn evasion_panic_distance_is_measured_to_the_predicted_position() {
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let quarry = Quarry {
        position: v2(0.0, 8.0),
        velocity: v2(3.0, 0.0),
        forward: Vec2::X,
    };
    // F = Flee(P = (6,8), panic): |p - P| = 10
    assert_eq!(
        behaviors::evasion(&me, &quarry, 10.0, Some(9.0)),
        Vec2::ZERO
    );
    assert_close(
        behaviors::evasion(&me, &quarry, 10.0, Some(10.0)),
        v2(-2.4, -3.2),
    );
    // through a graph
    let node = |panic: f32| Node::Evasion {
        quarry: tagged("hunter"),
        max_prediction: 10.0.into(),
        panic_distance: Some(panic.into()),
    };
    let hunter = agent(v2(0.0, 8.0), v2(3.0, 0.0));
    assert_eq!(
        graph_force(
            node(9.0),
            World::default(),
            vec![me, hunter],
            &["", "hunter"]
        ),
        Vec2::ZERO
    );
    assert_close(
        graph_force(
            node(11.0),
            World::default(),
            vec![me, hunter],
            &["", "hunter"],
        ),
        v2(-2.4, -3.2),
    );
}

#[test]
fn offset_pursuit_aims_beside_the_quarry_on_our_side() {
    // p = 0, forward +x, side +y, still quarry at (4,4): l = (4,4), s = +1,
    // aim = (4,4) - (0,1) * 1 = (4,3), F = (0.8,0.6) * 4 = (3.2,2.4)
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    assert_close(
        behaviors::offset_pursuit(&me, &Quarry::at(v2(4.0, 4.0)), 1.0, 5.0),
        v2(3.2, 2.4),
    );
    // quarry on our right at (4,-4): l.y = -4, s = -1, aim = (4,-4) + (0,1) = (4,-3),
    // F = (3.2,-2.4)
    assert_close(
        behaviors::offset_pursuit(&me, &Quarry::at(v2(4.0, -4.0)), 1.0, 5.0),
        v2(3.2, -2.4),
    );
    // dead ahead at (3,0): l.y = 0, s = +1, offset 4: aim = (3,0) - (0,4) = (3,-4),
    // F = (0.6,-0.8) * 4 = (2.4,-3.2)
    assert_close(
        behaviors::offset_pursuit(&me, &Quarry::at(v2(3.0, 0.0)), 4.0, 5.0),
        v2(2.4, -3.2),
    );
}

#[test]
fn offset_pursuit_uses_the_predicted_position_and_our_frame() {
    // p = 0, v = (2,0) (forward +x), quarry (8,0) moving (0,4), max_prediction 1:
    // D = 8, T = min(2, 1) = 1, P = (8,4), l = (8,4), s = +1, R = 4: aim = (8,4) - (0,4) = (8,0),
    // F = (4,0) - (2,0) = (2,0)
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let quarry = Quarry {
        position: v2(8.0, 0.0),
        velocity: v2(0.0, 4.0),
        forward: Vec2::Y,
    };
    assert_eq!(
        behaviors::offset_pursuit(&me, &quarry, 4.0, 1.0),
        v2(2.0, 0.0)
    );
    // facing +y (side = (-1,0)), still quarry at (-4,3): l = ((-4,3)·(0,1), (-4,3)·(-1,0))
    // = (3,4), s = +1, R = 2: aim = (-4,3) - (-1,0) * 2 = (-2,3)... from p = 0 that is
    // normalize((-2,3)) * 4 - (0,1)
    let up = agent(Vec2::ZERO, v2(0.0, 1.0));
    let expected = v2(-2.0, 3.0) / 13f32.sqrt() * 4.0 - v2(0.0, 1.0);
    assert_close(
        behaviors::offset_pursuit(&up, &Quarry::at(v2(-4.0, 3.0)), 2.0, 5.0),
        expected,
    );
    // through a graph with a tagged quarry: same (2,0)
    let leader = agent(v2(8.0, 0.0), v2(0.0, 4.0));
    assert_eq!(
        graph_force(
            Node::OffsetPursuit {
                quarry: tagged("lead"),
                offset: 4.0.into(),
                max_prediction: 1.0.into(),
            },
            World::default(),
            vec![me, leader],
            &["", "lead"],
        ),
        v2(2.0, 0.0)
    );
}

// ---------------------------------------------------------------------------------------------
// Obstacle avoidance
// ---------------------------------------------------------------------------------------------

fn circle(x: f32, y: f32, radius: f32) -> Obstacle {
    Obstacle {
        center: v2(x, y),
        radius,
    }
}

#[test]
fn obstacle_avoidance_pushes_sideways_away_from_the_threat() {
    // p = 0, v = (2,0), radius 0.5, min_length 2, lookahead 1: L = 2 + 2 * 1 = 4
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    // (3,0.5) r 1: l = (3,0.5), R = 1.5; 3+1 >= 0, 3-1 <= 4, 0.5 < 1.5: threat.
    // F = -sign(0.5) * side * 8 = (0,-8)
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(3.0, 0.5, 1.0)], 2.0, 1.0),
        v2(0.0, -8.0)
    );
    // mirrored: F = (0,8)
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(3.0, -0.5, 1.0)], 2.0, 1.0),
        v2(0.0, 8.0)
    );
    // dead ahead: sign(0) = +1, F = (0,-8)
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(3.0, 0.0, 1.0)], 2.0, 1.0),
        v2(0.0, -8.0)
    );
    // facing +y (v = (0,2)), side = (-1,0): obstacle at (0.5,3): l = (3, -0.5),
    // F = -(-1) * (-1,0) * 8 = (-8,0)
    let up = agent(Vec2::ZERO, v2(0.0, 2.0));
    assert_eq!(
        behaviors::obstacle_avoidance(&up, &[circle(0.5, 3.0, 1.0)], 2.0, 1.0),
        v2(-8.0, 0.0)
    );
}

#[test]
fn obstacle_avoidance_ignores_obstacles_outside_the_corridor() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0)); // L = 4
    // no obstacles: zero
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[], 2.0, 1.0),
        Vec2::ZERO
    );
    // behind: l.x + r = -2 + 1 < 0
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(-2.0, 0.0, 1.0)], 2.0, 1.0),
        Vec2::ZERO
    );
    // too far: l.x - r = 4.5 > 4
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(5.5, 0.0, 1.0)], 2.0, 1.0),
        Vec2::ZERO
    );
    // beside: |l.y| = 1.5 >= R = 1.5
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(2.0, 1.5, 1.0)], 2.0, 1.0),
        Vec2::ZERO
    );
    // zero speed shortens the corridor to L = min_length = 2: (3.5,0) r 1 has l.x - r = 2.5 > 2
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_eq!(
        behaviors::obstacle_avoidance(&still, &[circle(3.5, 0.0, 1.0)], 2.0, 1.0),
        Vec2::ZERO
    );
    // ... while at speed 2 (L = 4) the same obstacle is a threat: F = (0,-8)
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &[circle(3.5, 0.0, 1.0)], 2.0, 1.0),
        v2(0.0, -8.0)
    );
}

#[test]
fn obstacle_avoidance_picks_the_smallest_threat_distance() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0)); // L = 4, R = r_o + 0.5
    // A (2.5,0) r 1: x = 2.5 - sqrt(1.5^2 - 0) = 1.0
    // B (2.0,-1.4) r 1: x = 2.0 - sqrt(2.25 - 1.96) = 2.0 - 0.5385 = 1.4615
    // B's centre is nearer, but A is the most threatening: F = -sign(0) * side * 8 = (0,-8)
    // (B alone would give (0,8)).
    let obstacles = [circle(2.0, -1.4, 1.0), circle(2.5, 0.0, 1.0)];
    let (index, l) = behaviors::most_threatening_obstacle(&me, &obstacles, 2.0, 1.0)
        .expect("two obstacles in the corridor");
    assert_eq!(index, 1);
    assert_eq!(l, v2(2.5, 0.0));
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &obstacles, 2.0, 1.0),
        v2(0.0, -8.0)
    );
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &obstacles[..1], 2.0, 1.0),
        v2(0.0, 8.0)
    );
}

#[test]
fn obstacle_avoidance_uses_l_x_when_already_overlapping() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    // A (0.5,0) r 1: l.x - sqrt(2.25) = -1 < 0 -> x = l.x = 0.5
    // B (0.2,-1.0) r 1: 0.2 - sqrt(2.25 - 1) = -0.918 < 0 -> x = l.x = 0.2
    // With raw negative distances A (-1) would win; by the contract B (0.2) does:
    // F = -sign(-1) * side * 8 = (0,8)
    let obstacles = [circle(0.5, 0.0, 1.0), circle(0.2, -1.0, 1.0)];
    let (index, _) =
        behaviors::most_threatening_obstacle(&me, &obstacles, 2.0, 1.0).expect("threats");
    assert_eq!(index, 1);
    assert_eq!(
        behaviors::obstacle_avoidance(&me, &obstacles, 2.0, 1.0),
        v2(0.0, 8.0)
    );
}

#[test]
fn obstacle_avoidance_graph_reads_world_obstacles() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let node = || Node::ObstacleAvoidance {
        min_length: 2.0.into(),
        lookahead_time: 1.0.into(),
    };
    // empty world: zero
    assert_eq!(
        graph_force(node(), World::default(), vec![me], &[]),
        Vec2::ZERO
    );
    let mut world = World::default();
    world.obstacles = vec![circle(2.0, -1.4, 1.0), circle(2.5, 0.0, 1.0)];
    assert_eq!(
        graph_force(node(), world.clone(), vec![me], &[]),
        v2(0.0, -8.0)
    );
    assert_eq!(
        graph_force(node(), world.clone(), vec![me], &[]),
        behaviors::obstacle_avoidance(&me, &world.obstacles, 2.0, 1.0)
    );
}

// ---------------------------------------------------------------------------------------------
// Wander
// ---------------------------------------------------------------------------------------------

#[test]
fn wander_seeks_a_point_on_the_circle_ahead() {
    // p = (1,1), forward +x, v = 0, theta = pi/2, distance 3, radius 4:
    // aim = (1,1) + (3,0) + 4 * (0,1) = (4,5), aim - p = (3,4), F = (2.4,3.2)
    let me = agent(v2(1.0, 1.0), Vec2::ZERO);
    let theta = std::f32::consts::FRAC_PI_2;
    assert_close(behaviors::wander_aim(&me, theta, 3.0, 4.0), v2(4.0, 5.0));
    assert_close(behaviors::wander(&me, theta, 3.0, 4.0), v2(2.4, 3.2));
    // facing +y (v = (0,1)): rotate((0,1), pi/2) = (-1,0); distance 4, radius 3:
    // aim = (0,4) + (-3,0) = (-3,4), F = (-2.4,3.2) - (0,1) = (-2.4,2.2)
    let up = agent(Vec2::ZERO, v2(0.0, 1.0));
    assert_close(behaviors::wander(&up, theta, 4.0, 3.0), v2(-2.4, 2.2));
    // theta = 0: aim = p + f * (distance + radius) = (5,0) from p = 0 facing +x:
    // F = (4,0) - 0
    let still = agent(Vec2::ZERO, Vec2::ZERO);
    assert_eq!(behaviors::wander(&still, 0.0, 2.0, 3.0), v2(4.0, 0.0));
}

#[test]
fn wander_without_jitter_keeps_aiming_straight_ahead() {
    // jitter 0: theta stays 0; p = 0, v = (1,0), distance 2, radius 1: aim = (3,0),
    // F = (4,0) - (1,0) = (3,0) on every tick
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let graph = graph_of(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 0.0.into(),
        face: false,
    });
    let mut harness = Harness::new(&graph, World::default(), vec![me], &[]);
    let mut state = harness.state(99, 0);
    for _ in 0..5 {
        assert_eq!(harness.steer(0, &mut state), v2(3.0, 0.0));
    }
}

#[test]
fn wander_angle_drifts_by_the_agents_own_random_jitter() {
    // theta_k = theta_{k-1} + U_k(-1,1) * jitter * dt, U drawn from AgentRng(seed, agent);
    // jitter 90 deg/s, dt 0.5: each step is at most pi/4. p = 0, forward +x, v = (1,0),
    // distance 2, radius 1: aim = (2 + cos theta, sin theta), F = normalize(aim) * 4 - (1,0).
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let bystander = agent(v2(30.0, 0.0), Vec2::ZERO);
    let graph = graph_of(Node::Wander {
        distance: 2.0.into(),
        radius: 1.0.into(),
        jitter: 90.0.into(),
        face: false,
    });
    let mut harness = Harness::new(&graph, World::default(), vec![bystander, me], &[]);
    harness.dt = 0.5;
    let (seed, index) = (1234, 1);
    let mut state = harness.state(seed, index);
    let mut rng = AgentRng::new(seed, index as u64);
    let mut theta = 0.0f32;
    let mut distinct = 0;
    let mut previous = None;
    for tick in 0..20 {
        let step = rng.signed_unit() * 90f32.to_radians() * 0.5;
        assert!(step.abs() <= std::f32::consts::FRAC_PI_4 + 1e-6);
        theta += step;
        let aim = v2(2.0 + theta.cos(), theta.sin());
        let expected = aim / aim.length() * 4.0 - v2(1.0, 0.0);
        let force = harness.steer(index, &mut state);
        assert!(
            (force - expected).abs().max_element() <= 1e-4,
            "tick {tick}: expected {expected}, got {force}"
        );
        if previous != Some(force) {
            distinct += 1;
        }
        previous = Some(force);
    }
    assert!(distinct > 10, "the aim must actually wander");
}

// ---------------------------------------------------------------------------------------------
// Path following
// ---------------------------------------------------------------------------------------------

/// Open L: (0,0) -> (10,0) -> (10,10), length 20, radius 1.
fn l_path() -> Path {
    Path {
        points: vec![Vec2::ZERO, v2(10.0, 0.0), v2(10.0, 10.0)],
        radius: 1.0,
        closed: false,
    }
}

/// Square (0,0) (10,0) (10,10) (0,10), closed: length 40.
fn square(closed: bool) -> Path {
    Path {
        points: vec![Vec2::ZERO, v2(10.0, 0.0), v2(10.0, 10.0), v2(0.0, 10.0)],
        radius: 1.0,
        closed,
    }
}

#[test]
fn path_following_seeks_ahead_of_the_projection() {
    // p = (2,4), v = (0,-1), prediction 1: P = (2,3), nearest n = (2,0) at s = 2;
    // aim at s = 2 + 3 = 5: (5,0); aim - p = (3,-4), F = (2.4,-3.2) - (0,-1) = (2.4,-2.2)
    let me = agent(v2(2.0, 4.0), v2(0.0, -1.0));
    let path = l_path();
    assert_close(
        behaviors::path_following(&me, &path, 1.0, 3.0, 1.0, false),
        v2(2.4, -2.2),
    );
    // corrective but |P - n| = 3 > radius 1: same force
    assert_close(
        behaviors::path_following(&me, &path, 1.0, 3.0, 1.0, true),
        v2(2.4, -2.2),
    );
}

#[test]
fn corrective_path_following_rests_inside_the_path() {
    let path = l_path();
    // p = (5,0.8), v = 0: P = (5,0.8), n = (5,0), |P - n| = 0.8 <= 1: zero
    let me = agent(v2(5.0, 0.8), Vec2::ZERO);
    assert_eq!(
        behaviors::path_following(&me, &path, 1.0, 0.6, 1.0, true),
        Vec2::ZERO
    );
    // non-corrective: aim at s = 5.6: (5.6,0), aim - p = (0.6,-0.8), F = (2.4,-3.2)
    assert_close(
        behaviors::path_following(&me, &path, 1.0, 0.6, 1.0, false),
        v2(2.4, -3.2),
    );
    // exactly on the border: |P - n| = 1 <= 1: zero
    let border = agent(v2(5.0, 1.0), Vec2::ZERO);
    assert_eq!(
        behaviors::path_following(&border, &path, 1.0, 0.6, 1.0, true),
        Vec2::ZERO
    );
    // prediction takes it outside: p = (5,0.5), v = (0,1), prediction 1: P = (5,1.5),
    // |P - n| = 1.5 > 1: aim at s = 5.6 -> (5.6,0), aim - p = (0.6,-0.5)
    let leaving = agent(v2(5.0, 0.5), v2(0.0, 1.0));
    let expected = v2(0.6, -0.5) / 0.61f32.sqrt() * 4.0 - v2(0.0, 1.0);
    assert_close(
        behaviors::path_following(&leaving, &path, 1.0, 0.6, 1.0, true),
        expected,
    );
}

#[test]
fn open_path_end_is_an_arrival() {
    let path = l_path();
    // p = (10,8), v = 0: n = (10,8) at s = 18; aim s = 21 >= 20 -> clamped to the end:
    // F = Arrival((10,10), 3): o = (0,2), d = 2, speed = min(4 * 2 / 3, 4) = 8/3,
    // F = (0,2) * (8/3 / 2) = (0, 8/3)
    let me = agent(v2(10.0, 8.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&me, &path, 1.0, 3.0, 1.0, false),
        v2(0.0, 8.0 / 3.0),
    );
    // ahead 1: aim s = 19 < 20 -> Seek((10,9)) = (0,4) (not slowed)
    assert_eq!(
        behaviors::path_following(&me, &path, 1.0, 1.0, 1.0, false),
        v2(0.0, 4.0)
    );
    // exactly at the end, moving on: p = (10,10), v = (0,1): P = (10,11), n = (10,10),
    // s = 20, aim = end = p: Arrival with d = 0 gives F = -v = (0,-1)
    let done = agent(v2(10.0, 10.0), v2(0.0, 1.0));
    assert_eq!(
        behaviors::path_following(&done, &path, 1.0, 3.0, 1.0, false),
        v2(0.0, -1.0)
    );
}

#[test]
fn closed_path_wraps_around() {
    // p = (-1,4), v = 0: nearest point is (0,4) on the closing segment (0,10)->(0,0), at
    // s = 30 + 6 = 36; aim s = 36 + 6 = 42 -> 42 mod 40 = 2 -> (2,0);
    // aim - p = (3,-4), F = (2.4,-3.2)
    let me = agent(v2(-1.0, 4.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&me, &square(true), 0.0, 6.0, 1.0, false),
        v2(2.4, -3.2),
    );
    // the same points as an open path have no closing segment: n = (0,0), s = 0,
    // aim s = 6 -> (6,0), aim - p = (7,-4), F = (7,-4) / sqrt(65) * 4
    assert_close(
        behaviors::path_following(&me, &square(false), 0.0, 6.0, 1.0, false),
        v2(7.0, -4.0) / 65f32.sqrt() * 4.0,
    );
}

#[test]
fn a_closed_two_point_path_follows_its_closing_segment_back() {
    // (0,0) <-> (10,0), closed: 20 long, the way back is the segment (10,0) -> (0,0).
    // p = (9,1), v = 0: n = (9,0) at s = 9 (the way back ties at s = 11; the first wins);
    // ahead 3: s = 12 -> 2 units back from (10,0): (8,0). aim - p = (-1,-1),
    // F = (-1,-1) / sqrt(2) * 4. Open, the same points clamp to the end: Arrival((10,0), 3).
    let shuttle = |closed| Path {
        points: vec![Vec2::ZERO, v2(10.0, 0.0)],
        radius: 1.0,
        closed,
    };
    let me = agent(v2(9.0, 1.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&me, &shuttle(true), 0.0, 3.0, 1.0, false),
        v2(-1.0, -1.0) * (4.0 / 2f32.sqrt()),
    );
    // open: o = (1,-1), d = sqrt(2), speed = 4 * sqrt(2) / 3, F = o * (4 / 3)
    assert_close(
        behaviors::path_following(&me, &shuttle(false), 0.0, 3.0, 1.0, false),
        v2(1.0, -1.0) * (4.0 / 3.0),
    );
}

#[test]
fn backward_path_following_travels_towards_the_first_point() {
    let path = l_path();
    // p = (13,4), v = 0: n = (10,4) at s = 14. Backward, ahead 4: s = 10 -> (10,0),
    // aim - p = (-3,-4), F = (-2.4,-3.2). Forward: s = 18 -> (10,8), F = (-2.4,3.2).
    let me = agent(v2(13.0, 4.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&me, &path, 0.0, 4.0, -1.0, false),
        v2(-2.4, -3.2),
    );
    assert_close(
        behaviors::path_following(&me, &path, 0.0, 4.0, 1.0, false),
        v2(-2.4, 3.2),
    );
    // Backward near the start: p = (3,4), n = (3,0), s = 3, ahead 10: s = -7 -> clamped to
    // the first point, the end of travel: Arrival((0,0), 10): o = (-3,-4), d = 5,
    // speed = min(4 * 5 / 10, 4) = 2, F = (-3,-4) * 2/5 = (-1.2,-1.6)
    let near_start = agent(v2(3.0, 4.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&near_start, &path, 0.0, 10.0, -1.0, false),
        v2(-1.2, -1.6),
    );
    // Backward on a closed square wraps: p = (4,-1), n = (4,0), s = 4, ahead 6: s = -2
    // -> 38 -> (0,2) on the closing segment; aim - p = (-4,3), F = (-3.2,2.4)
    let below = agent(v2(4.0, -1.0), Vec2::ZERO);
    assert_close(
        behaviors::path_following(&below, &square(true), 0.0, 6.0, -1.0, false),
        v2(-3.2, 2.4),
    );
}

#[test]
fn path_following_graph_binds_the_named_path() {
    let node = |direction, corrective| Node::PathFollowing {
        own: false,
        path: "road".into(),
        prediction_time: 1.0.into(),
        ahead_distance: 3.0.into(),
        direction,
        corrective,
    };
    let mut world = World::default();
    world.set_path("road", l_path());
    // the first path case through a graph: (2.4,-2.2)
    let me = agent(v2(2.0, 4.0), v2(0.0, -1.0));
    let force = graph_force(
        node(PathDirection::Forward, false),
        world.clone(),
        vec![me],
        &[],
    );
    assert_close(force, v2(2.4, -2.2));
    assert_eq!(
        force,
        behaviors::path_following(&me, &l_path(), 1.0, 3.0, 1.0, false)
    );
    // Backward from p = (13,4), v = 0, ahead 3: s = 14 - 3 = 11 -> (10,1), aim - p = (-3,-3),
    // F = (-1,-1) / sqrt(2) * 4
    let east = agent(v2(13.0, 4.0), Vec2::ZERO);
    assert_close(
        graph_force(
            node(PathDirection::Backward, false),
            world.clone(),
            vec![east],
            &[],
        ),
        v2(-1.0, -1.0) * (4.0 / 2f32.sqrt()),
    );
    // corrective inside the path: zero
    let on_road = agent(v2(5.0, 0.5), Vec2::ZERO);
    assert_eq!(
        graph_force(
            node(PathDirection::Forward, true),
            world.clone(),
            vec![on_road],
            &[],
        ),
        Vec2::ZERO
    );
    // unknown path: zero, reported
    let mut harness = Harness::new(
        &graph_of(node(PathDirection::Forward, false)),
        World::default(),
        vec![me],
        &[],
    );
    assert_eq!(
        harness.bind_errors,
        vec![BindError::UnknownPath("road".into())]
    );
    let mut state = harness.state(1, 0);
    assert_eq!(harness.steer(0, &mut state), Vec2::ZERO);
}

// ---------------------------------------------------------------------------------------------
// Containment
// ---------------------------------------------------------------------------------------------

fn ten_by_ten() -> Rect {
    Rect::new(Vec2::ZERO, v2(10.0, 10.0))
}

#[test]
fn containment_does_nothing_while_the_prediction_is_inside() {
    // p = (5,5), v = (2,0), prediction 1: P = (7,5) inside: zero
    let me = agent(v2(5.0, 5.0), v2(2.0, 0.0));
    assert_eq!(
        behaviors::containment(&me, &ten_by_ten(), 1.0, 1.0),
        Vec2::ZERO
    );
    // P = (10,5) on the border counts as inside: zero
    let edge = agent(v2(8.0, 5.0), v2(2.0, 0.0));
    assert_eq!(
        behaviors::containment(&edge, &ten_by_ten(), 1.0, 1.0),
        Vec2::ZERO
    );
}

#[test]
fn containment_seeks_back_inside_the_shrunk_bounds() {
    // p = (6,5), v = (2,2), prediction 3: P = (12,11) outside; bounds shrunk by 1 = [1,9]^2,
    // clamp(P) = (9,9); aim - p = (3,4), F = (2.4,3.2) - (2,2) = (0.4,1.2)
    let me = agent(v2(6.0, 5.0), v2(2.0, 2.0));
    assert_close(
        behaviors::containment(&me, &ten_by_ten(), 3.0, 1.0),
        v2(0.4, 1.2),
    );
    // at rest outside: p = (12,5), P = p, aim = (9,5), F = (-4,0)
    let outside = agent(v2(12.0, 5.0), Vec2::ZERO);
    assert_eq!(
        behaviors::containment(&outside, &ten_by_ten(), 1.0, 1.0),
        v2(-4.0, 0.0)
    );
}

#[test]
fn containment_graph_uses_world_bounds_or_its_own_rect() {
    let outside = agent(v2(12.0, 5.0), Vec2::ZERO);
    // Region::World with world bounds [0,10]^2: F = (-4,0)
    let world = World::new(ten_by_ten());
    assert_eq!(
        graph_force(
            Node::Containment {
                bounds: Region::World,
                prediction_time: 1.0.into(),
                margin: 1.0.into(),
            },
            world,
            vec![outside],
            &[],
        ),
        v2(-4.0, 0.0)
    );
    // the default world bounds are [-50,50]^2: (12,5) is inside, zero
    assert_eq!(
        graph_force(
            Node::Containment {
                bounds: Region::World,
                prediction_time: 1.0.into(),
                margin: 1.0.into(),
            },
            World::default(),
            vec![outside],
            &[],
        ),
        Vec2::ZERO
    );
    // own rect [0,10]^2 margin 1 in the default world: the (0.4,1.2) case
    let me = agent(v2(6.0, 5.0), v2(2.0, 2.0));
    assert_close(
        graph_force(
            Node::Containment {
                bounds: Region::Rect(0.0.into(), 0.0.into(), 10.0.into(), 10.0.into()),
                prediction_time: 3.0.into(),
                margin: 1.0.into(),
            },
            World::default(),
            vec![me],
            &[],
        ),
        v2(0.4, 1.2),
    );
}

// ---------------------------------------------------------------------------------------------
// Flow field following
// ---------------------------------------------------------------------------------------------

/// 2x2 cells of size 2 at the origin; centres (1,1) (3,1) (1,3) (3,3) hold
/// +x, +y, -x and 0.
fn field() -> FlowField {
    let mut field = FlowField::new(Vec2::ZERO, 2.0, 2, 2);
    field.vectors = vec![Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::ZERO];
    field
}

#[test]
fn flow_field_following_matches_the_sampled_velocity() {
    // p = (0,1), v = (1,0), prediction 1: P = (1,1), w = (1,0), F = (4,0) - (1,0) = (3,0)
    let me = agent(v2(0.0, 1.0), v2(1.0, 0.0));
    assert_eq!(
        behaviors::flow_field_following(&me, &field(), 1.0),
        v2(3.0, 0.0)
    );
    // P = (2,1): halfway between (1,0) and (0,1): w = (0.5,0.5), desired (2,2)
    let between = agent(v2(2.0, 1.0), Vec2::ZERO);
    assert_eq!(
        behaviors::flow_field_following(&between, &field(), 1.0),
        v2(2.0, 2.0)
    );
    // P = (2,2), centre of the grid: w = mean of the four = (0,0.25), desired (0,1),
    // F = (0,1) - (1,0) = (-1,1)
    let centre = agent(v2(1.0, 2.0), v2(1.0, 0.0));
    assert_eq!(
        behaviors::flow_field_following(&centre, &field(), 1.0),
        v2(-1.0, 1.0)
    );
}

#[test]
fn flow_field_following_is_zero_where_the_field_is_zero_or_absent() {
    // P = (3,3): w = 0 -> zero exactly (not -v)
    let me = agent(v2(3.0, 2.0), v2(0.0, 1.0));
    assert_eq!(
        behaviors::flow_field_following(&me, &field(), 1.0),
        Vec2::ZERO
    );
    // P = (-1,1) outside the grid: zero
    let outside = agent(v2(-1.0, 1.0), v2(0.0, 1.0));
    assert_eq!(
        behaviors::flow_field_following(&outside, &field(), 0.0),
        Vec2::ZERO
    );
}

#[test]
fn flow_field_following_graph_binds_the_named_field() {
    let node = Node::FlowFieldFollowing {
        field: "wind".into(),
        prediction_time: 1.0.into(),
    };
    let mut world = World::default();
    world.set_flow_field("wind", field());
    let me = agent(v2(0.0, 1.0), v2(1.0, 0.0));
    assert_eq!(
        graph_force(node.clone(), world, vec![me], &[]),
        v2(3.0, 0.0)
    );
    let harness = Harness::new(&graph_of(node), World::default(), vec![me], &[]);
    assert_eq!(
        harness.bind_errors,
        vec![BindError::UnknownFlowField("wind".into())]
    );
}

// ---------------------------------------------------------------------------------------------
// Unaligned collision avoidance
// ---------------------------------------------------------------------------------------------

#[test]
fn unaligned_collision_avoidance_steers_from_the_predicted_collision() {
    // me p = 0, v = (2,0); q p = (4,-3), v = (0,2). dp = (4,-3), dv = (-2,2), |dv|^2 = 8,
    // t = -dp.dv / 8 = 14/8 = 1.75 <= 3; |dp + dv t| = |(0.5,0.5)| = 0.707 < 1.
    // away = (3.5,0) - (4,0.5) = (-0.5,-0.5), F = (-1,-1)/sqrt(2) * 8
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let q = agent(v2(4.0, -3.0), v2(0.0, 2.0));
    let diagonal = 8.0 / 2f32.sqrt();
    assert_close(
        behaviors::unaligned_collision_avoidance(&me, [&q], 3.0),
        v2(-diagonal, -diagonal),
    );
    // max_time 1.75: t <= max_time still holds
    assert_close(
        behaviors::unaligned_collision_avoidance(&me, [&q], 1.75),
        v2(-diagonal, -diagonal),
    );
    // max_time 1: t = 1.75 > 1, zero
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, [&q], 1.0),
        Vec2::ZERO
    );
}

#[test]
fn unaligned_collision_avoidance_takes_the_soonest_collision() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let q1 = agent(v2(4.0, -3.0), v2(0.0, 2.0)); // t = 1.75, F = (-1,-1)/sqrt2 * 8
    // q2 p = (2.5,2), v = (0,-2): dp.dv = -5 - 4 = -9, t = 9/8 = 1.125;
    // dp + dv t = (0.25,-0.25), |.| < 1; away = (2.25,0) - (2.5,-0.25) = (-0.25,0.25)
    let q2 = agent(v2(2.5, 2.0), v2(0.0, -2.0));
    let diagonal = 8.0 / 2f32.sqrt();
    assert_close(
        behaviors::unaligned_collision_avoidance(&me, [&q1, &q2], 3.0),
        v2(-diagonal, diagonal),
    );
    // through a graph: same answer
    let force = graph_force(
        Node::UnalignedCollisionAvoidance {
            max_time: 3.0.into(),
        },
        World::default(),
        vec![me, q1, q2],
        &[],
    );
    assert_close(force, v2(-diagonal, diagonal));
}

#[test]
fn unaligned_collision_avoidance_degenerate_cases() {
    let me = agent(Vec2::ZERO, v2(2.0, 0.0));
    let diagonal = 8.0 / 2f32.sqrt();
    // exact hit: q p = (4,-4), v = (0,2): t = 16/8 = 2, both at (4,0) -> away = 0,
    // use -dp = (-4,4): F = (-1,1)/sqrt2 * 8
    let head_on = agent(v2(4.0, -4.0), v2(0.0, 2.0));
    assert_close(
        behaviors::unaligned_collision_avoidance(&me, [&head_on], 3.0),
        v2(-diagonal, diagonal),
    );
    // same velocity (|dv| < 1e-6), even though overlapping: skipped, zero
    let convoy = agent(v2(0.5, 0.0), v2(2.0, 0.0));
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, [&convoy], 3.0),
        Vec2::ZERO
    );
    // receding: q p = (-4,0), v = (-2,0): dv = (-4,0), t = -16/16 = -1 <= 0, zero
    let receding = agent(v2(-4.0, 0.0), v2(-2.0, 0.0));
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, [&receding], 3.0),
        Vec2::ZERO
    );
    // near miss: q p = (6,-3), v = (0,2): t = 18/8 = 2.25, |dp + dv t| = |(1.5,1.5)| >= 1
    let miss = agent(v2(6.0, -3.0), v2(0.0, 2.0));
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, [&miss], 3.0),
        Vec2::ZERO
    );
    // nobody: zero
    assert_eq!(
        behaviors::unaligned_collision_avoidance(&me, std::iter::empty(), 3.0),
        Vec2::ZERO
    );
    assert_eq!(
        graph_force(
            Node::UnalignedCollisionAvoidance {
                max_time: 3.0.into()
            },
            World::default(),
            vec![me],
            &[],
        ),
        Vec2::ZERO
    );
}

// ---------------------------------------------------------------------------------------------
// Neighborhood
// ---------------------------------------------------------------------------------------------

#[test]
fn neighborhood_radius_is_strict() {
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let all = FieldOfView::from_degrees(360.0);
    // |q.p - p| < radius
    assert!(behaviors::in_neighborhood(&me, v2(2.9, 0.0), 3.0, all));
    assert!(!behaviors::in_neighborhood(&me, v2(3.0, 0.0), 3.0, all));
    assert!(!behaviors::in_neighborhood(&me, v2(0.0, -3.0), 3.0, all));
    // 360 degrees sees behind
    assert!(behaviors::in_neighborhood(&me, v2(-2.0, 0.0), 3.0, all));
    // radius 0: nobody
    assert!(!behaviors::in_neighborhood(&me, v2(0.1, 0.0), 0.0, all));
}

#[test]
fn field_of_view_is_an_angle_around_forward() {
    let me = agent(Vec2::ZERO, v2(1.0, 0.0)); // forward +x
    // 180 degrees: angle <= 90 -> ahead and exactly beside are seen, behind is not
    let half = FieldOfView::from_degrees(180.0);
    assert!(behaviors::in_neighborhood(&me, v2(2.0, 0.0), 3.0, half));
    assert!(behaviors::in_neighborhood(&me, v2(0.0, 2.0), 3.0, half));
    assert!(behaviors::in_neighborhood(&me, v2(0.0, -2.0), 3.0, half));
    assert!(!behaviors::in_neighborhood(&me, v2(-0.1, 2.0), 3.0, half));
    assert!(!behaviors::in_neighborhood(&me, v2(-2.0, 0.0), 3.0, half));
    // 90 degrees: 44 degrees off forward is seen, 46 is not (either side)
    let quarter = FieldOfView::from_degrees(90.0);
    let at = |degrees: f32| Vec2::from_angle(degrees.to_radians()) * 2.0;
    assert!(behaviors::in_neighborhood(&me, at(44.0), 3.0, quarter));
    assert!(behaviors::in_neighborhood(&me, at(-44.0), 3.0, quarter));
    assert!(!behaviors::in_neighborhood(&me, at(46.0), 3.0, quarter));
    assert!(!behaviors::in_neighborhood(&me, at(-46.0), 3.0, quarter));
    // 0 degrees: only straight ahead
    let none = FieldOfView::from_degrees(0.0);
    assert!(behaviors::in_neighborhood(&me, v2(2.0, 0.0), 3.0, none));
    assert!(!behaviors::in_neighborhood(&me, v2(2.0, 0.1), 3.0, none));
    // the view turns with forward: facing +y, (0,2) is ahead and (2,0) is 90 degrees off
    let up = agent(Vec2::ZERO, v2(0.0, 1.0));
    assert!(behaviors::in_neighborhood(&up, v2(0.0, 2.0), 3.0, quarter));
    assert!(!behaviors::in_neighborhood(&up, v2(2.0, 0.0), 3.0, quarter));
    // the test is relative to the agent's position
    let away = agent(v2(10.0, 10.0), v2(1.0, 0.0));
    assert!(behaviors::in_neighborhood(&away, v2(12.0, 10.0), 3.0, half));
    assert!(!behaviors::in_neighborhood(&away, v2(8.0, 10.0), 3.0, half));
}

#[test]
fn a_diagonal_neighbor_on_the_edge_of_a_270_degree_view_is_seen_on_a_grid() {
    // fov 270: half angle 135 degrees, exactly the angle of the two diagonal neighbors behind
    // an agent on a square grid that faces along the grid. The contract includes the edge
    // (angle <= fov / 2), so an agent inside the grid sees 7 of its 8 neighbors: all but the
    // one straight behind. Before the tolerance, f32's cos(135 degrees) and sqrt(2) left out
    // both diagonals behind on every exact grid.
    //
    // Grids whose f32 positions are exact (any origin, spacings that are binary fractions),
    // and grids with decimal spacings near the origin, whose position rounding stays within
    // the documented cosine tolerance (BEHAVIORS.md, "Neighborhoods").
    let exact = [
        (Vec2::ZERO, 1.0f32),
        (Vec2::ZERO, 0.5),
        (v2(-64.0, 32.0), 1.5),
        (v2(1000.0, -2000.0), 2.0),
        (v2(-3.25, 7.75), 0.25),
        (v2(4096.0, 4096.0), 8.0),
    ];
    let decimal = [
        (v2(0.1, 0.2), 0.7f32),
        (v2(-1.3, 2.9), 1.3),
        (v2(0.5, -0.5), 3.7),
        (v2(-4.9, -7.3), 2.2),
    ];
    let fov = FieldOfView::from_degrees(270.0);
    for (origin, spacing) in exact.into_iter().chain(decimal) {
        let at = |i: i32, j: i32| origin + v2(i as f32 * spacing, j as f32 * spacing);
        for heading in [Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::NEG_Y] {
            for (i, j) in [(1, 1), (2, 1), (1, 3), (3, 2)] {
                let me = agent(at(i, j), heading);
                let mut wrong = Vec::new();
                for (di, dj) in [
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                    (0, -1),
                    (0, 1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                ] {
                    let other = at(i + di, j + dj);
                    let behind = v2(di as f32, dj as f32) == -heading;
                    let seen = behaviors::in_neighborhood(&me, other, 1.5 * spacing, fov);
                    if seen == behind {
                        wrong.push((di, dj, seen));
                    }
                }
                assert!(
                    wrong.is_empty(),
                    "spacing {spacing}, origin {origin}, heading {heading}, agent ({i},{j}): \
                     wrong answers {wrong:?}"
                );
            }
        }
    }
    // Just beyond the edge is still out: 135.01 degrees off forward.
    let me = agent(Vec2::ZERO, Vec2::X);
    let beyond = Vec2::from_angle(135.01f32.to_radians()) * 2.0;
    assert!(!behaviors::in_neighborhood(&me, beyond, 3.0, fov));
    let inside = Vec2::from_angle(134.99f32.to_radians()) * 2.0;
    assert!(behaviors::in_neighborhood(&me, inside, 3.0, fov));
}

#[test]
fn separation_on_a_grid_with_a_270_degree_view_counts_the_diagonals_behind() {
    // Agent 0 at the centre of a 3 x 3 grid of spacing 2, facing +x, radius 3, fov 270.
    // The eight pushes (p - q) / |p - q|^2 cancel out; the view leaves out only the neighbor
    // straight behind, whose push is (2,0) / 4 = (0.5,0), so F = (-0.5,0). Dropping the two
    // diagonals behind as well would give (-1,0).
    let centre = v2(10.3, -4.1);
    let mut vehicles = vec![agent(centre, v2(1.0, 0.0))];
    for j in -1..=1 {
        for i in -1..=1 {
            if (i, j) != (0, 0) {
                vehicles.push(agent(
                    centre + v2(i as f32 * 2.0, j as f32 * 2.0),
                    Vec2::ZERO,
                ));
            }
        }
    }
    let force = graph_force(
        Node::Separation {
            radius: 3.0.into(),
            fov: 270.0.into(),
            max_neighbors: 64.0.into(),
        },
        World::default(),
        vehicles,
        &[],
    );
    assert_close(force, v2(-0.5, 0.0));
}

#[test]
fn coincident_agents_count_as_seen() {
    // The contract's angle is undefined for a zero offset; the implementation counts a
    // coincident agent as inside any field of view (tested as implemented).
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    assert!(behaviors::in_neighborhood(
        &me,
        Vec2::ZERO,
        1.0,
        FieldOfView::from_degrees(10.0)
    ));
}

// ---------------------------------------------------------------------------------------------
// Separation, cohesion, alignment, flocking
// ---------------------------------------------------------------------------------------------

#[test]
fn separation_sums_inverse_distance_pushes() {
    // p = 0; q at (2,0): (-2,0)/4 = (-0.5,0); q at (0,-4): (0,4)/16 = (0,0.25)
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let a = agent(v2(2.0, 0.0), Vec2::ZERO);
    let b = agent(v2(0.0, -4.0), Vec2::ZERO);
    assert_eq!(behaviors::separation(&me, [&a, &b]), v2(-0.5, 0.25));
    // no neighbors: zero
    assert_eq!(behaviors::separation(&me, std::iter::empty()), Vec2::ZERO);
    // a coincident agent is skipped (no NaN, no contribution)
    let twin = agent(Vec2::ZERO, v2(1.0, 0.0));
    assert_eq!(behaviors::separation(&me, [&a, &twin, &b]), v2(-0.5, 0.25));
    assert_eq!(behaviors::separation(&me, [&twin]), Vec2::ZERO);
}

#[test]
fn separation_graph_filters_by_radius_and_field_of_view() {
    let node = |radius: f32, fov: f32| Node::Separation {
        radius: radius.into(),
        fov: fov.into(),
        max_neighbors: 64.0.into(),
    };
    let me = agent(Vec2::ZERO, v2(1.0, 0.0)); // forward +x
    let others = vec![
        me,
        agent(v2(2.0, 0.0), Vec2::ZERO),  // (-0.5, 0)
        agent(v2(0.0, -4.0), Vec2::ZERO), // (0, 0.25)
        agent(v2(3.0, 0.0), Vec2::ZERO),  // (-1/3, 0) when inside
    ];
    // radius 3: only (2,0) (|(3,0)| = 3 is not < 3): F = (-0.5,0)
    assert_eq!(
        graph_force(node(3.0, 360.0), World::default(), others.clone(), &[]),
        v2(-0.5, 0.0)
    );
    // radius 5: all three: (-0.5 - 1/3, 0.25)
    assert_close(
        graph_force(node(5.0, 360.0), World::default(), others.clone(), &[]),
        v2(-0.5 - 1.0 / 3.0, 0.25),
    );
    // fov: (2,0) ahead, (0,2) beside (90 deg, seen with 180), (-2,0) behind
    let fov_scene = vec![
        me,
        agent(v2(2.0, 0.0), Vec2::ZERO),  // (-0.5, 0)
        agent(v2(0.0, 2.0), Vec2::ZERO),  // (0, -0.5)
        agent(v2(-2.0, 0.0), Vec2::ZERO), // (0.5, 0)
    ];
    assert_eq!(
        graph_force(node(3.0, 180.0), World::default(), fov_scene.clone(), &[]),
        v2(-0.5, -0.5)
    );
    assert_eq!(
        graph_force(node(3.0, 360.0), World::default(), fov_scene.clone(), &[]),
        v2(0.0, -0.5)
    );
    // alone: zero
    assert_eq!(
        graph_force(node(3.0, 360.0), World::default(), vec![me], &[]),
        Vec2::ZERO
    );
}

#[test]
fn cohesion_steers_to_the_neighbors_centre() {
    // neighbors (2,0), (0,4), (4,2): mean (2,2); from p = (1,1): F = (1,1)
    let me = agent(v2(1.0, 1.0), v2(3.0, 3.0));
    let a = agent(v2(2.0, 0.0), Vec2::ZERO);
    let b = agent(v2(0.0, 4.0), Vec2::ZERO);
    let c = agent(v2(4.0, 2.0), Vec2::ZERO);
    assert_eq!(behaviors::cohesion(&me, [&a, &b, &c]), v2(1.0, 1.0));
    // no neighbors: zero (velocity does not matter)
    assert_eq!(behaviors::cohesion(&me, std::iter::empty()), Vec2::ZERO);
    // a coincident neighbor still counts in the mean (only separation skips it):
    // neighbors (1,1) and (5,1): mean (3,1), F = (2,0)
    let twin = agent(v2(1.0, 1.0), Vec2::ZERO);
    let d = agent(v2(5.0, 1.0), Vec2::ZERO);
    assert_eq!(behaviors::cohesion(&me, [&twin, &d]), v2(2.0, 0.0));
    // through a graph with radius 4 around p = (1,1): (2,0), (0,4) and (4,2) are inside
    // (distances 1.41, 3.16, 3.16); (9,1) is not: F = (1,1)
    let far = agent(v2(9.0, 1.0), Vec2::ZERO);
    assert_eq!(
        graph_force(
            Node::Cohesion {
                radius: 4.0.into(),
                fov: 360.0.into(),
                max_neighbors: 64.0.into(),
            },
            World::default(),
            vec![me, a, far, b, c],
            &[],
        ),
        v2(1.0, 1.0)
    );
}

#[test]
fn alignment_matches_the_neighbors_mean_velocity() {
    // neighbor velocities (0,2) and (2,0): mean (1,1); v = (1,0): F = (0,1)
    let me = agent(Vec2::ZERO, v2(1.0, 0.0));
    let a = agent(v2(1.0, 0.0), v2(0.0, 2.0));
    let b = agent(v2(0.0, 1.0), v2(2.0, 0.0));
    assert_eq!(behaviors::alignment(&me, [&a, &b]), v2(0.0, 1.0));
    // no neighbors: zero, not -v
    assert_eq!(behaviors::alignment(&me, std::iter::empty()), Vec2::ZERO);
    // through a graph; fov 90 around +x keeps only a (at 0 deg), b is at 90 deg:
    // F = (0,2) - (1,0) = (-1,2)
    let node = |fov: f32| Node::Alignment {
        radius: 3.0.into(),
        fov: fov.into(),
        max_neighbors: 64.0.into(),
    };
    assert_eq!(
        graph_force(node(360.0), World::default(), vec![me, a, b], &[]),
        v2(0.0, 1.0)
    );
    assert_eq!(
        graph_force(node(90.0), World::default(), vec![me, a, b], &[]),
        v2(-1.0, 2.0)
    );
    assert_eq!(
        graph_force(node(360.0), World::default(), vec![me], &[]),
        Vec2::ZERO
    );
}

#[test]
fn flocking_blends_the_three_normalized_rules() {
    // p = 0, v = 0; A (2,0) v (0,2), B (4,0) v (0,2):
    // Sep = (-2,0)/4 + (-4,0)/16 = (-0.75,0) -> (-1,0); Coh = (3,0) -> (1,0);
    // Ali = (0,2) -> (0,1). Weights (2,1,3): F = (-2,0) + (1,0) + (0,3) = (-1,3)
    let me = agent(Vec2::ZERO, Vec2::ZERO);
    let a = agent(v2(2.0, 0.0), v2(0.0, 2.0));
    let b = agent(v2(4.0, 0.0), v2(0.0, 2.0));
    assert_eq!(
        behaviors::flocking(&me, [&a, &b], 2.0, 1.0, 3.0),
        v2(-1.0, 3.0)
    );
    // no neighbors: zero
    assert_eq!(
        behaviors::flocking(&me, std::iter::empty(), 2.0, 1.0, 3.0),
        Vec2::ZERO
    );
    // only a coincident neighbor moving (3,4): Sep skipped = 0, Coh = 0, Ali = (3,4) -> (0.6,0.8)
    let twin = agent(Vec2::ZERO, v2(3.0, 4.0));
    assert_close(
        behaviors::flocking(&me, [&twin], 2.0, 1.0, 1.0),
        v2(0.6, 0.8),
    );
    // through a graph (C at (10,0) is outside radius 5): (-1,3)
    let c = agent(v2(10.0, 0.0), v2(5.0, 5.0));
    assert_eq!(
        graph_force(
            Node::Flocking {
                separation_weight: 2.0.into(),
                cohesion_weight: 1.0.into(),
                alignment_weight: 3.0.into(),
                radius: 5.0.into(),
                fov: 360.0.into(),
                max_neighbors: 64.0.into(),
            },
            World::default(),
            vec![me, a, b, c],
            &[],
        ),
        v2(-1.0, 3.0)
    );
}

#[test]
fn flocking_equals_the_weighted_normalized_separate_rules() {
    // Any configuration: F = ws n(Sep) + wc n(Coh) + wa n(Ali), with n = normalize
    let me = agent(v2(0.3, -0.2), v2(1.0, 0.5));
    let others = [
        agent(v2(1.0, 1.0), v2(0.0, 1.0)),
        agent(v2(-1.5, 0.5), v2(2.0, -1.0)),
        agent(v2(0.5, -2.0), v2(-1.0, 0.0)),
    ];
    let refs: Vec<&Vehicle> = others.iter().collect();
    let expected = 1.5 * graph_runtime::math::normalize(behaviors::separation(&me, refs.clone()))
        + 0.5 * graph_runtime::math::normalize(behaviors::cohesion(&me, refs.clone()))
        - 2.0 * graph_runtime::math::normalize(behaviors::alignment(&me, refs.clone()));
    assert_close(behaviors::flocking(&me, refs, 1.5, 0.5, -2.0), expected);
}

// ---------------------------------------------------------------------------------------------
// Leader following
// ---------------------------------------------------------------------------------------------

#[test]
fn leader_following_steps_out_of_the_leaders_sight() {
    // leader at 0 facing +x (side +y); behind 2, slowing 4, sight 5 x 2.
    let leader = Quarry {
        position: Vec2::ZERO,
        velocity: v2(2.0, 0.0),
        forward: Vec2::X,
    };
    let follow =
        |p: Vec2| behaviors::leader_following(&agent(p, Vec2::ZERO), &leader, 2.0, 4.0, 5.0, 2.0);
    // (3,0.5): l = (3,0.5), 0 < 3 < 5, 0.5 < 1: F = +1 * (0,1) * 8
    assert_eq!(follow(v2(3.0, 0.5)), v2(0.0, 8.0));
    // (3,-0.5): F = -1 * (0,1) * 8
    assert_eq!(follow(v2(3.0, -0.5)), v2(0.0, -8.0));
    // (3,0): sign(0) = +1
    assert_eq!(follow(v2(3.0, 0.0)), v2(0.0, 8.0));
    // leader facing +y (side (-1,0)); follower at (0.5,3): l = (3,-0.5): F = -(-1,0) * 8 = (8,0)
    let north = Quarry {
        position: Vec2::ZERO,
        velocity: v2(0.0, 2.0),
        forward: Vec2::Y,
    };
    assert_eq!(
        behaviors::leader_following(&agent(v2(0.5, 3.0), Vec2::ZERO), &north, 2.0, 4.0, 5.0, 2.0),
        v2(8.0, 0.0)
    );
}

#[test]
fn leader_following_otherwise_arrives_behind_the_leader() {
    let leader = Quarry {
        position: Vec2::ZERO,
        velocity: v2(2.0, 0.0),
        forward: Vec2::X,
    };
    let follow = |me: Vehicle| behaviors::leader_following(&me, &leader, 2.0, 4.0, 5.0, 2.0);
    // behind point = (0,0) - (1,0) * 2 = (-2,0). From (-5,0) at rest: o = (3,0), d = 3,
    // speed = min(4 * 3 / 4, 4) = 3, F = (3,0)
    assert_eq!(follow(agent(v2(-5.0, 0.0), Vec2::ZERO)), v2(3.0, 0.0));
    // on the behind point with v = (1,0): F = -v
    assert_eq!(follow(agent(v2(-2.0, 0.0), v2(1.0, 0.0))), v2(-1.0, 0.0));
    // l.x = 5 is not < sight_length 5: o = (-7,0), speed 4, F = (-4,0)
    assert_eq!(follow(agent(v2(5.0, 0.0), Vec2::ZERO)), v2(-4.0, 0.0));
    // |l.y| = 1 is not < 2/2: o = (-4,-1), d = sqrt(17), speed 4
    assert_close(
        follow(agent(v2(2.0, 1.0), Vec2::ZERO)),
        v2(-4.0, -1.0) * (4.0 / 17f32.sqrt()),
    );
    // (0,0.5): l.x = 0 is not > 0 (level with the leader): arrival from (0,0.5),
    // o = (-2,-0.5), d = sqrt(4.25) < 4, speed = 4 * d / 4 = d, F = o * (d / d) = (-2,-0.5)
    assert_close(follow(agent(v2(0.0, 0.5), Vec2::ZERO)), v2(-2.0, -0.5));
}

#[test]
fn leader_following_graph_follows_the_tagged_leader() {
    let node = Node::LeaderFollowing {
        leader: tagged("leader"),
        behind: 2.0.into(),
        slowing_distance: 4.0.into(),
        sight_length: 5.0.into(),
        sight_width: 2.0.into(),
    };
    let leader = agent(Vec2::ZERO, v2(2.0, 0.0));
    // (-5,0): F = (3,0); (3,0.5): F = (0,8), as in the function tests
    assert_eq!(
        graph_force(
            node.clone(),
            World::default(),
            vec![agent(v2(-5.0, 0.0), Vec2::ZERO), leader],
            &["", "leader"],
        ),
        v2(3.0, 0.0)
    );
    assert_eq!(
        graph_force(
            node,
            World::default(),
            vec![agent(v2(3.0, 0.5), Vec2::ZERO), leader],
            &["", "leader"],
        ),
        v2(0.0, 8.0)
    );
}

// ---------------------------------------------------------------------------------------------
// Interpose and hide
// ---------------------------------------------------------------------------------------------

#[test]
fn interpose_arrives_at_the_predicted_midpoint() {
    // a (-2,0) v (0,1), b (2,0) v (0,1); p = (0,-4), max_speed 4: m = 0, T = 4/4 = 1,
    // predicted midpoint ((-2,1) + (2,1)) / 2 = (0,1); o = (0,5), d = 5, slowing 2:
    // speed = min(10, 4) = 4, F = (0,4)
    let me = agent(v2(0.0, -4.0), Vec2::ZERO);
    let a = Quarry {
        position: v2(-2.0, 0.0),
        velocity: v2(0.0, 1.0),
        forward: Vec2::Y,
    };
    let b = Quarry {
        position: v2(2.0, 0.0),
        ..a
    };
    assert_eq!(behaviors::interpose(&me, &a, &b, 2.0), v2(0.0, 4.0));
    // max_speed 3, p = (0,-3): T = 3/3 = 1; a v = (4,0) -> (2,0), b v = (2,2) -> (4,2);
    // midpoint (3,1), o = (3,4), d = 5, slowing 10: speed = min(3 * 5/10, 3) = 1.5,
    // F = (3,4) * 0.3 = (0.9,1.2)
    let mut slow = agent(v2(0.0, -3.0), Vec2::ZERO);
    slow.max_speed = 3.0;
    let a = Quarry {
        position: v2(-2.0, 0.0),
        velocity: v2(4.0, 0.0),
        forward: Vec2::X,
    };
    let b = Quarry {
        position: v2(2.0, 0.0),
        velocity: v2(2.0, 2.0),
        forward: Vec2::X,
    };
    assert_close(behaviors::interpose(&slow, &a, &b, 10.0), v2(0.9, 1.2));
}

#[test]
fn interpose_degenerate_cases() {
    // already at the midpoint of two still agents: T = 0, target = p, F = -v
    let me = agent(Vec2::ZERO, v2(1.0, 2.0));
    let a = Quarry::at(v2(-3.0, 0.0));
    let b = Quarry::at(v2(3.0, 0.0));
    assert_eq!(behaviors::interpose(&me, &a, &b, 2.0), v2(-1.0, -2.0));
    // max_speed 0: T = |m - p| / 0 is undefined; BEHAVIORS.md ("Interpose") fixes T = 0. Arrival speed is min(0 * d / s, 0) = 0, so F = -v
    // and never NaN.
    let mut stopped = agent(v2(0.0, -4.0), v2(1.0, 0.0));
    stopped.max_speed = 0.0;
    let moving = Quarry {
        position: v2(-2.0, 0.0),
        velocity: v2(0.0, 1.0),
        forward: Vec2::Y,
    };
    assert_eq!(
        behaviors::interpose(&stopped, &moving, &b, 2.0),
        v2(-1.0, 0.0)
    );
}

#[test]
fn interpose_graph_between_two_tagged_agents() {
    let node = Node::Interpose {
        a: tagged("a"),
        b: tagged("b"),
        slowing_distance: 2.0.into(),
    };
    let vehicles = vec![
        agent(v2(0.0, -4.0), Vec2::ZERO),
        agent(v2(-2.0, 0.0), v2(0.0, 1.0)),
        agent(v2(2.0, 0.0), v2(0.0, 1.0)),
    ];
    // first interpose case: (0,4)
    assert_eq!(
        graph_force(node, World::default(), vehicles, &["", "a", "b"]),
        v2(0.0, 4.0)
    );
}

#[test]
fn hide_arrives_behind_the_nearest_obstacle() {
    // hunter at 0; obstacle (5,0) r 1, radius 0.5, margin 0.5:
    // spot = (5,0) + (1,0) * (1 + 0.5 + 0.5) = (7,0)
    // obstacle (0,5) r 1: spot (0,7)
    let obstacles = [circle(5.0, 0.0, 1.0), circle(0.0, 5.0, 1.0)];
    // from (7,4): |(7,0) - p| = 4 < |(0,7) - p| = 7.6 -> (7,0);
    // o = (0,-4), d = 4, slowing 2: speed = min(8, 4) = 4, F = (0,-4)
    let me = agent(v2(7.0, 4.0), Vec2::ZERO);
    assert_eq!(
        behaviors::hiding_spot(&me, Vec2::ZERO, &obstacles, 0.5),
        Some(v2(7.0, 0.0))
    );
    assert_eq!(
        behaviors::hide(&me, Vec2::ZERO, &obstacles, 0.5, 2.0),
        v2(0.0, -4.0)
    );
    // from (2,7): spot (0,7), o = (-2,0), d = 2, slowing 4: speed = min(2, 4) = 2, F = (-2,0)
    let other = agent(v2(2.0, 7.0), Vec2::ZERO);
    assert_eq!(
        behaviors::hide(&other, Vec2::ZERO, &obstacles, 0.5, 4.0),
        v2(-2.0, 0.0)
    );
    // hunter at (10,0) instead: the first spot flips to (5,0) + (-1,0) * 2 = (3,0)
    assert_eq!(
        behaviors::hiding_spot(&me, v2(10.0, 0.0), &obstacles[..1], 0.5),
        Some(v2(3.0, 0.0))
    );
}

#[test]
fn hide_degenerate_cases() {
    let me = agent(v2(7.0, 0.0), v2(1.0, 0.0));
    // no obstacles: zero
    assert_eq!(behaviors::hiding_spot(&me, Vec2::ZERO, &[], 0.5), None);
    assert_eq!(behaviors::hide(&me, Vec2::ZERO, &[], 0.5, 2.0), Vec2::ZERO);
    // already on the spot (7,0): F = -v
    assert_eq!(
        behaviors::hide(&me, Vec2::ZERO, &[circle(5.0, 0.0, 1.0)], 0.5, 2.0),
        v2(-1.0, 0.0)
    );
    // hunter at the obstacle's centre: normalize(0) = 0, the spot is the centre itself
    assert_eq!(
        behaviors::hiding_spot(&me, v2(5.0, 0.0), &[circle(5.0, 0.0, 1.0)], 0.5),
        Some(v2(5.0, 0.0))
    );
}

#[test]
fn hide_graph_reads_world_obstacles_and_the_tagged_hunter() {
    let node = || Node::Hide {
        hunter: tagged("hunter"),
        margin: 0.5.into(),
        slowing_distance: 2.0.into(),
    };
    let vehicles = vec![
        agent(v2(7.0, 4.0), Vec2::ZERO),
        agent(Vec2::ZERO, v2(1.0, 1.0)),
    ];
    let mut world = World::default();
    world.obstacles = vec![circle(5.0, 0.0, 1.0), circle(0.0, 5.0, 1.0)];
    assert_eq!(
        graph_force(node(), world, vehicles.clone(), &["", "hunter"]),
        v2(0.0, -4.0)
    );
    // no obstacles: zero
    assert_eq!(
        graph_force(node(), World::default(), vehicles, &["", "hunter"]),
        Vec2::ZERO
    );
}
