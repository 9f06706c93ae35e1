//! The Reciprocal node (ORCA) in motion: agents that swap places head-on never overlap and
//! arrive; a crowd through it is bit-identical whatever the thread count; a warm tick
//! allocates nothing; the compiler checks its numbers.

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    AgentGroup, AgentSpawn, AgentState, Area, Bindings, CompileError, Constraint, Context, Graph,
    Guide, Link, Node, NodeId, Number, Obstacle, OwnPoints, Rect, Scene, SceneAssets, Scratch,
    Simulation, Slot, SpatialGrid, Spawn, TagTable, Target, Trace, Vehicle, VehicleSpec, Wall,
    World, compile,
};

const GRAPH_FILE: &str = "orca.graph.ron";
/// Tick length (s).
const DT: f32 = 1.0 / 60.0;
/// Agent radius (units).
const RADIUS: f32 = 0.5;

/// `Arrival(Own("goal")) -> Reciprocal -> Output`, top speed 2, radius 0.5.
fn orca_graph(max_neighbors: f32) -> (Graph, NodeId) {
    let mut graph = Graph {
        vehicle: VehicleSpec {
            mass: 1.0.into(),
            max_force: 20.0.into(),
            max_speed: 2.0.into(),
            radius: RADIUS.into(),
        },
        ..Graph::default()
    };
    let arrive = graph.add(Node::Arrival {
        target: Target::Own("goal".to_owned()),
        slowing_distance: 2.0.into(),
    });
    let reciprocal = graph.add(Node::Reciprocal {
        input: Link(Some(arrive)),
        time_horizon: 2.0.into(),
        obstacle_time_horizon: 1.0.into(),
        neighbor_radius: 6.0.into(),
        max_neighbors: Number::Literal(max_neighbors),
        clearance: 0.0.into(),
        keep_right: 0.0.into(),
    });
    graph.add(Node::Output {
        input: Link(Some(reciprocal)),
    });
    (graph, reciprocal)
}

fn scene(spawn: Spawn, goals: OwnPoints, obstacles: Vec<Obstacle>) -> Scene {
    Scene {
        bounds: Rect::new(Vec2::splat(-40.0), Vec2::splat(40.0)),
        seed: 3,
        obstacles,
        groups: vec![AgentGroup {
            goals: BTreeMap::from([("goal".to_owned(), goals)]),
            ..AgentGroup::new("walkers", GRAPH_FILE, spawn)
        }],
        ..Scene::default()
    }
}

fn simulation(scene: Scene) -> Simulation {
    let assets = SceneAssets {
        scene,
        origin: "orca.scene.ron".to_owned(),
        graphs: BTreeMap::from([(GRAPH_FILE.to_owned(), orca_graph(10.0).0)]),
        flow_fields: BTreeMap::new(),
    };
    Simulation::new(&assets).expect("a valid scene")
}

fn at_rest(position: Vec2) -> AgentSpawn {
    AgentSpawn {
        position,
        velocity: Vec2::ZERO,
    }
}

/// The smallest distance between two agents' centres.
fn closest_pair(vehicles: &[Vehicle]) -> f32 {
    let mut closest = f32::INFINITY;
    for (i, a) in vehicles.iter().enumerate() {
        for b in vehicles.iter().skip(i + 1) {
            closest = closest.min(a.position.distance(b.position));
        }
    }
    closest
}

#[test]
fn two_agents_swapping_places_head_on_never_overlap_and_both_arrive() {
    let (a, b) = (Vec2::new(-8.0, 0.0), Vec2::new(8.0, 0.0));
    let mut simulation = simulation(scene(
        Spawn::Agents(vec![at_rest(a), at_rest(b)]),
        OwnPoints::Each(vec![b, a]),
        Vec::new(),
    ));
    let mut closest = f32::INFINITY;
    for _ in 0..(20.0 / DT) as usize {
        simulation.step(DT);
        closest = closest.min(closest_pair(simulation.vehicles()));
    }
    // Never closer than the sum of the radii, less a small tolerance for the one tick the
    // force needs to reach the chosen velocity.
    assert!(closest >= 2.0 * RADIUS - 0.01, "closest approach {closest}");
    assert!(
        closest < 2.0 * RADIUS + 0.5,
        "they did pass close: {closest}"
    );
    let [first, second] = simulation.vehicles() else {
        panic!("two agents");
    };
    assert!(
        first.position.distance(b) < 0.1,
        "first at {}",
        first.position
    );
    assert!(
        second.position.distance(a) < 0.1,
        "second at {}",
        second.position
    );
}

#[test]
fn an_agent_goes_round_a_circle_obstacle_without_touching_it() {
    // A little off the straight line: aimed exactly at its centre, ORCA brakes to a stop in
    // front of it (BEHAVIORS.md, "Reciprocal").
    let rock = Obstacle {
        center: Vec2::new(0.0, 0.2),
        radius: 1.5,
    };
    let (start, goal) = (Vec2::new(-8.0, 0.0), Vec2::new(8.0, 0.0));
    let mut simulation = simulation(scene(
        Spawn::Agents(vec![at_rest(start)]),
        OwnPoints::Each(vec![goal]),
        vec![rock],
    ));
    let mut clearance = f32::INFINITY;
    for _ in 0..(20.0 / DT) as usize {
        simulation.step(DT);
        let me = simulation.vehicles()[0];
        clearance = clearance.min(me.position.distance(rock.center) - rock.radius - me.radius);
    }
    assert!(
        clearance >= -0.01,
        "went into the obstacle by {}",
        -clearance
    );
    let me = simulation.vehicles()[0];
    assert!(
        me.position.distance(goal) < 0.1,
        "at {} moving {}",
        me.position,
        me.velocity
    );
}

#[test]
fn an_agent_driven_into_a_wall_at_an_angle_slides_along_it_without_crossing() {
    // The goal lies beyond a wall along x = 3; the agent heads there at an angle.
    let mut scene = scene(
        Spawn::Agents(vec![at_rest(Vec2::new(-4.0, -6.0))]),
        OwnPoints::Each(vec![Vec2::new(10.0, 6.0)]),
        Vec::new(),
    );
    scene.walls = vec![Wall::polyline(vec![
        Vec2::new(3.0, -20.0),
        Vec2::new(3.0, 20.0),
    ])];
    let mut simulation = simulation(scene);
    let mut farthest = f32::NEG_INFINITY;
    for _ in 0..(10.0 / DT) as usize {
        simulation.step(DT);
        farthest = farthest.max(simulation.vehicles()[0].position.x);
    }
    assert!(
        farthest <= 3.0 - RADIUS + 0.01,
        "reached x = {farthest} beyond the wall's clearance"
    );
    let me = simulation.vehicles()[0];
    assert!(
        me.position.y > 4.0,
        "slid along the wall up to {}",
        me.position
    );
}

/// Two rings of agents crossing to the opposite points: many meetings at once.
fn crossing_scene() -> Scene {
    crossing_ring(24, 12.0)
}

/// `count` agents on a ring of radius `ring`, each crossing to the opposite point, round an
/// obstacle near the middle.
fn crossing_ring(count: usize, ring: f32) -> Scene {
    let points: Vec<Vec2> = (0..count)
        .map(|i| {
            let angle = i as f32 / count as f32 * std::f32::consts::TAU;
            Vec2::new(angle.cos(), angle.sin()) * ring
        })
        .collect();
    let goals = points.iter().map(|p| -*p).collect();
    scene(
        Spawn::Agents(points.into_iter().map(at_rest).collect()),
        OwnPoints::Each(goals),
        vec![Obstacle {
            center: Vec2::new(0.5, 0.5),
            radius: 1.0,
        }],
    )
}

fn bits(vehicles: &[Vehicle]) -> Vec<[u32; 4]> {
    vehicles
        .iter()
        .map(|v| {
            [
                v.position.x.to_bits(),
                v.position.y.to_bits(),
                v.velocity.x.to_bits(),
                v.velocity.y.to_bits(),
            ]
        })
        .collect()
}

fn run(threads: usize) -> Vec<[u32; 4]> {
    run_scene(crossing_scene(), threads, 300)
}

fn run_scene(scene: Scene, threads: usize, ticks: usize) -> Vec<[u32; 4]> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let mut simulation = simulation(scene);
        for _ in 0..ticks {
            simulation.step(DT);
        }
        bits(simulation.vehicles())
    })
}

/// 200 Reciprocal agents (1.1 apart on the ring, closing in: every one meets its neighbors'
/// half-planes) are split into tasks by the thread count (one task on one thread; 10 of 20
/// on 2, 9 of 24 on 3, 12 of 17 on 4, 9 of 24 on 16: the split from the work,
/// `BENCHMARKS.md`, issue 47); the run is the same to the bit.
#[test]
fn a_ring_of_200_reciprocal_agents_is_bit_identical_however_its_tick_is_split() {
    let ring = || crossing_ring(200, 35.0);
    let one = run_scene(ring(), 1, 300);
    for threads in [2, 3, 4, 16] {
        let many = run_scene(ring(), threads, 300);
        assert!(one == many, "1 and {threads} threads differ");
    }
}

#[test]
fn a_crossing_crowd_is_bit_identical_whatever_the_thread_count() {
    let one = run(1);
    assert_eq!(one, run(1), "the same inputs give the same bits");
    for threads in [2, 4] {
        assert_eq!(one, run(threads), "1 and {threads} threads differ");
    }
}

#[test]
fn a_crossing_crowd_keeps_apart() {
    let mut simulation = simulation(crossing_scene());
    let mut closest = f32::INFINITY;
    for _ in 0..(25.0 / DT) as usize {
        simulation.step(DT);
        closest = closest.min(closest_pair(simulation.vehicles()));
    }
    // The fallback may let agents pressed from all sides touch a little.
    assert!(closest >= 2.0 * RADIUS - 0.1, "closest approach {closest}");
}

#[test]
fn a_warm_reciprocal_tick_with_walls_allocates_nothing_and_the_trace_draws_its_half_planes() {
    let (graph, reciprocal) = orca_graph(32.0);
    let mut graph = graph;
    // Targets everyone can share: a point; own goals are tested above.
    if let Some(Node::Arrival { target, .. }) = graph.nodes.values_mut().next() {
        *target = Target::Point(0.0.into(), 0.0.into());
    }
    let program = compile(&graph).expect("compiles");
    let mut world = World::default();
    world.obstacles.push(Obstacle {
        center: Vec2::new(3.0, 3.0),
        radius: 1.0,
    });
    world.set_walls(vec![Wall::polyline(vec![
        Vec2::new(-14.0, -7.5),
        Vec2::new(14.0, -7.5),
    ])]);
    let (bindings, errors) = Bindings::new(&program, &world, &TagTable::default());
    assert!(errors.is_empty());
    let params = program.default_parameters();
    let mut vehicles: Vec<Vehicle> = (0..200)
        .map(|i| {
            let position = Vec2::new((i % 20) as f32 * 1.2 - 12.0, (i / 20) as f32 * 1.2 - 6.0);
            Vehicle::new(position, Vec2::new(0.5, 0.0), program.vehicle(&params))
        })
        .collect();
    let mut states: Vec<AgentState> = (0..vehicles.len())
        .map(|i| AgentState::new(&program, 1, i as u64))
        .collect();
    let mut scratch = Scratch::default();
    let mut grid = SpatialGrid::new(6.0);
    let mut forces = vec![Vec2::ZERO; vehicles.len()];
    let mut tick = |vehicles: &mut Vec<Vehicle>| {
        grid.rebuild(vehicles);
        let context = Context::new(&world, vehicles, &grid, &bindings, &params, DT);
        for (agent, (force, state)) in forces.iter_mut().zip(&mut states).enumerate() {
            *force = program.steer(&context, agent, state, &mut scratch);
        }
        for (vehicle, force) in vehicles.iter_mut().zip(&forces) {
            vehicle.step(*force, DT);
        }
    };
    for _ in 0..20 {
        tick(&mut vehicles);
    }
    let info = allocation_counter::measure(|| {
        for _ in 0..5 {
            tick(&mut vehicles);
        }
    });
    assert_eq!(info.count_total, 0, "{info:?}");

    // The traced force is the untraced one, and its guide carries the same solution.
    grid.rebuild(&vehicles);
    let context = Context::new(&world, &vehicles, &grid, &bindings, &params, DT);
    let agent = 110;
    let plain = program.steer(&context, agent, &mut states[agent].clone(), &mut scratch);
    let mut trace = Trace::default();
    let traced = program.steer_traced(
        &context,
        agent,
        &mut states[agent].clone(),
        &mut scratch,
        &mut trace,
    );
    assert_eq!(plain, traced);
    let entry = trace.get(reciprocal).expect("Reciprocal was evaluated");
    let Guide::Reciprocal {
        chosen,
        lines,
        count,
        total,
        ..
    } = entry.guide
    else {
        panic!("a Reciprocal guide, got {:?}", entry.guide);
    };
    assert!(count > 0 && total >= count);
    let me = vehicles[agent];
    let reached = graph_runtime::behaviors::reaching_force(&me, chosen, DT);
    assert_eq!(reached, traced);
    for line in lines.iter().take(usize::from(count)) {
        assert!((line.direction.length() - 1.0).abs() < 1e-4);
    }
}

#[test]
fn the_compiler_checks_reciprocals_numbers() {
    for (bad, slot, constraint) in [
        (0.0, "max_neighbors", Constraint::Count { max: 32 }),
        (33.0, "max_neighbors", Constraint::Count { max: 32 }),
        (2.5, "max_neighbors", Constraint::Count { max: 32 }),
    ] {
        let (graph, reciprocal) = orca_graph(bad);
        let errors = compile(&graph).expect_err("refused");
        assert_eq!(
            errors,
            vec![CompileError::InvalidNumber {
                node: Some(reciprocal),
                field: Slot::field(slot),
                value: bad,
                constraint,
                parameter: None,
            }]
        );
    }
    let (mut graph, reciprocal) = orca_graph(32.0);
    if let Some(Node::Reciprocal { time_horizon, .. }) = graph.nodes.get_mut(&reciprocal) {
        *time_horizon = (-1.0).into();
    }
    let errors = compile(&graph).expect_err("refused");
    assert_eq!(
        errors,
        vec![CompileError::InvalidNumber {
            node: Some(reciprocal),
            field: Slot::field("time_horizon"),
            value: -1.0,
            constraint: Constraint::NonNegative,
            parameter: None,
        }]
    );
    assert_eq!(
        Constraint::Count { max: 32 }.to_string(),
        "must be a whole number from 1 to 32"
    );
    // A parameter override is held to the same range.
    let (mut graph, reciprocal) = orca_graph(1.0);
    graph.parameters.insert("crowd".to_owned(), 8.0);
    if let Some(Node::Reciprocal { max_neighbors, .. }) = graph.nodes.get_mut(&reciprocal) {
        *max_neighbors = Number::from("crowd");
    }
    let program = compile(&graph).expect("8 neighbors is fine");
    assert!(
        program
            .parameters(&BTreeMap::from([("crowd".to_owned(), 40.0)]))
            .is_err()
    );
    assert!(
        program
            .parameters(&BTreeMap::from([("crowd".to_owned(), 32.0)]))
            .is_ok()
    );
}

#[test]
fn a_reciprocal_graph_round_trips_through_ron() {
    let (graph, _) = orca_graph(10.0);
    let text = graph.to_ron().expect("saves");
    assert!(text.contains("Reciprocal("), "{text}");
    assert_eq!(Graph::from_ron(&text, "orca").expect("loads"), graph);
}

#[test]
fn a_random_crowd_of_reciprocal_agents_stays_finite() {
    let mut simulation = simulation(scene(
        Spawn::Random {
            count: 120,
            area: Area::Circle {
                center: Vec2::ZERO,
                radius: 6.0,
            },
            speed: 2.0,
        },
        OwnPoints::Random(Area::Circle {
            center: Vec2::ZERO,
            radius: 6.0,
        }),
        Vec::new(),
    ));
    for _ in 0..200 {
        simulation.step(DT);
    }
    assert!(
        simulation
            .vehicles()
            .iter()
            .all(|v| v.position.is_finite() && v.velocity.is_finite())
    );
}

/// 196 agents 0.6 apart (a square 7.8 units wide): every query's cells hold more than
/// 8 × 10 agents, so each agent's 10 nearest come from the k-d tree. The forces are the
/// formula's over every other agent of the crowd (`behaviors::reciprocal`, which keeps the
/// 10 nearest by squared distance and index itself), to the bit.
#[test]
fn a_crowd_too_dense_for_a_scan_steers_as_the_formula_over_every_agent_says() {
    let starts: Vec<Vec2> = (0..196)
        .map(|i| Vec2::new((i % 14) as f32 * 0.6, (i / 14) as f32 * 0.6))
        .collect();
    let goals: Vec<Vec2> = starts.iter().map(|p| Vec2::new(20.0, 0.0) - *p).collect();
    let mut simulation = simulation(scene(
        Spawn::Agents(
            starts
                .iter()
                .enumerate()
                .map(|(i, &p)| AgentSpawn {
                    position: p,
                    velocity: Vec2::new(0.3, (i % 5) as f32 * 0.1 - 0.2),
                })
                .collect(),
        ),
        OwnPoints::Each(goals.clone()),
        Vec::new(),
    ));
    let before = simulation.vehicles().to_vec();
    simulation.step(DT);
    let settings = graph_runtime::behaviors::ReciprocalSettings {
        time_horizon: 2.0,
        obstacle_time_horizon: 1.0,
        neighbor_radius: 6.0,
        max_neighbors: 10,
        clearance: 0.0,
        keep_right: 0.0,
    };
    let world = simulation.world().clone();
    for (index, vehicle) in before.iter().enumerate() {
        let input = graph_runtime::behaviors::arrival(vehicle, goals[index], 2.0);
        let others = before.iter().enumerate();
        let expected = graph_runtime::behaviors::reciprocal(
            vehicle, index, others, &world, input, &settings, DT,
        );
        assert_eq!(simulation.forces()[index], expected, "agent {index}");
    }
}
