//! Property tests of invariants users rely on: a vehicle never exceeds its top speed and never
//! turns NaN, and a flocking graph gives finite forces for any cloud of agents.

use glam::Vec2;
use graph_runtime::{
    AgentState, Bindings, Context, Graph, Link, Node, Number, Obstacle, Program, Scratch,
    SpatialGrid, TagTable, Vehicle, VehicleParams, WeightedInput, World, compile,
};
use proptest::prelude::*;

/// `magnitude · 10^exponent` with a random sign: reaches tiny and subnormal values, which a
/// uniform range never does.
fn log_uniform(min_exponent: i32, max_exponent: i32) -> impl Strategy<Value = f32> {
    (any::<bool>(), min_exponent..max_exponent, 1.0f32..10.0).prop_map(
        |(negative, exponent, mantissa)| {
            let value = mantissa * 10f32.powi(exponent);
            if negative { -value } else { value }
        },
    )
}

/// Any finite number in `[-1e6, 1e6]`, tiny ones included.
fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -1e6f32..=1e6,
        2 => log_uniform(-40, 6),
        1 => Just(0.0f32),
    ]
}

fn vector() -> impl Strategy<Value = Vec2> {
    (coordinate(), coordinate()).prop_map(|(x, y)| Vec2::new(x, y))
}

/// A limit in `[0, 1e3]`, zero and tiny values included.
fn limit() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => 0.0f32..=1e3,
        2 => log_uniform(-40, 3).prop_map(f32::abs),
        1 => Just(0.0f32),
    ]
}

/// A mass in `(0.01, 100]`.
fn mass() -> impl Strategy<Value = f32> {
    prop_oneof![
        (0.01f32..=100.0).prop_filter("above 0.01", |&m| m > 0.01),
        (-2i32..2, 1.0f32..10.0).prop_map(
            |(exponent, mantissa)| (mantissa * 10f32.powi(exponent)).clamp(0.010_001, 100.0)
        ),
        Just(100.0f32),
    ]
}

/// A tick length in `(0, 1]`.
fn dt() -> impl Strategy<Value = f32> {
    prop_oneof![
        (0.0f32..=1.0).prop_filter("positive", |&dt| dt > 0.0),
        log_uniform(-30, 0).prop_map(f32::abs),
        Just(1.0f32),
    ]
}

fn params() -> impl Strategy<Value = VehicleParams> {
    (mass(), limit(), limit(), limit()).prop_map(|(mass, max_force, max_speed, radius)| {
        VehicleParams {
            mass,
            max_force,
            max_speed,
            radius,
        }
    })
}

fn assert_sound(vehicle: &Vehicle) -> Result<(), TestCaseError> {
    prop_assert!(vehicle.position.is_finite(), "position {vehicle:?}");
    prop_assert!(vehicle.velocity.is_finite(), "velocity {vehicle:?}");
    prop_assert!(vehicle.forward.is_finite(), "forward {vehicle:?}");
    // Measured in f64: squaring a tiny f32 velocity would lose the very precision checked.
    // Besides the relative 1e-5, allow two of the smallest f32 steps: a subnormal top speed
    // cannot be matched more closely than that.
    let speed = vehicle.velocity.as_dvec2().length();
    prop_assert!(
        speed <= f64::from(vehicle.max_speed) * (1.0 + 1e-5) + 3e-45,
        "speed {speed} above max_speed {} in {vehicle:?}",
        vehicle.max_speed
    );
    prop_assert!(
        (vehicle.forward.length() - 1.0).abs() < 1e-4,
        "forward is a unit vector: {vehicle:?}"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_vehicle_step_keeps_speed_within_max_speed_and_stays_finite(
        position in vector(),
        velocity in vector(),
        params in params(),
        steps in prop::collection::vec((vector(), dt()), 1..6),
    ) {
        let mut vehicle = Vehicle::new(position, velocity, params);
        for (force, dt) in steps {
            vehicle.step(force, dt);
            assert_sound(&vehicle)?;
        }
    }

    #[test]
    fn a_vehicle_step_never_exceeds_max_force_over_mass(
        velocity in vector(),
        params in params(),
        force in vector(),
        dt in dt(),
    ) {
        // With room to accelerate, the change of velocity is at most max_force / mass * dt.
        let mut vehicle = Vehicle::new(Vec2::ZERO, velocity, VehicleParams { max_speed: 1e9, ..params });
        let before = vehicle.velocity;
        vehicle.step(force, dt);
        // In f64, with slack for the f32 rounding of the new velocity and of subnormals.
        let change = (vehicle.velocity.as_dvec2() - before.as_dvec2()).length();
        let allowed = f64::from(params.max_force) / f64::from(params.mass) * f64::from(dt);
        prop_assert!(
            change <= allowed * (1.0 + 1e-4) + before.as_dvec2().length() * 1e-6 + 3e-45,
            "velocity changed by {change}, allowed {allowed}"
        );
    }
}

fn stopped_vehicle(max_force: f32, max_speed: f32) -> Vehicle {
    Vehicle::new(
        Vec2::ZERO,
        Vec2::ZERO,
        VehicleParams {
            mass: 1.0,
            max_force,
            max_speed,
            radius: 0.5,
        },
    )
}

#[test]
fn a_vehicle_with_zero_top_speed_does_not_move_even_under_a_tiny_force() {
    // |v|² of a tiny velocity underflows to 0 in f32; the vehicle must still stop.
    let mut vehicle = stopped_vehicle(10.0, 0.0);
    vehicle.velocity = Vec2::new(1e-30, -2e-25);
    vehicle.step(Vec2::new(1e-24, 0.0), 1.0);
    assert_eq!(vehicle.velocity, Vec2::ZERO);
    assert_eq!(vehicle.position, Vec2::ZERO);
}

#[test]
fn a_huge_finite_steering_force_is_truncated_to_max_force_not_dropped() {
    // |F|² of a huge force overflows f32; truncation must still give a force of max_force.
    let mut vehicle = stopped_vehicle(10.0, 100.0);
    vehicle.step(Vec2::new(3e20, 4e20), 0.5);
    assert!(
        (vehicle.velocity - Vec2::new(3.0, 4.0)).length() < 1e-5,
        "{vehicle:?}"
    );
    assert_eq!(vehicle.forward, vehicle.velocity.normalize());
    let huge = graph_runtime::math::truncate(Vec2::new(-f32::MAX, f32::MAX), 2.0);
    assert!(
        (huge - Vec2::new(-2.0f32.sqrt(), 2.0f32.sqrt())).length() < 1e-6,
        "{huge}"
    );
}

/// `Blend(ObstacleAvoidance, Flocking)` and a `Separation` summed in, with the given numbers.
fn flocking_graph(weights: [f32; 3], radius: f32, fov: f32) -> Graph {
    let mut graph = Graph::default();
    let avoid = graph.add(Node::ObstacleAvoidance {
        min_length: Number::Literal(2.0),
        lookahead_time: Number::Literal(1.0),
    });
    let flock = graph.add(Node::Flocking {
        separation_weight: Number::Literal(weights[0]),
        cohesion_weight: Number::Literal(weights[1]),
        alignment_weight: Number::Literal(weights[2]),
        radius: Number::Literal(radius),
        fov: Number::Literal(fov),
        max_neighbors: 64.0.into(),
    });
    let separate = graph.add(Node::Separation {
        radius: Number::Literal(radius),
        fov: Number::Literal(fov),
        max_neighbors: 64.0.into(),
    });
    let weighted = |node, weight| WeightedInput {
        node: Link(Some(node)),
        weight: Number::Literal(weight),
    };
    let blend = graph.add(Node::Blend {
        inputs: vec![
            weighted(avoid, 1.0),
            weighted(flock, 1.0),
            weighted(separate, 0.5),
        ],
    });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    graph
}

/// A cloud of agents: positions drawn from a few spots (so several agents coincide) or
/// anywhere; velocities anywhere, zero included.
fn cloud() -> impl Strategy<Value = Vec<(Vec2, Vec2)>> {
    let spots = prop::collection::vec(
        (-5.0f32..5.0, -5.0f32..5.0).prop_map(|(x, y)| Vec2::new(x, y)),
        1..4,
    );
    spots.prop_flat_map(|spots| {
        let position = prop_oneof![
            3 => prop::sample::select(spots),
            1 => vector(),
            1 => (-5.0f32..5.0, -5.0f32..5.0).prop_map(|(x, y)| Vec2::new(x, y)),
        ];
        let velocity = prop_oneof![
            2 => Just(Vec2::ZERO),
            3 => (-10.0f32..10.0, -10.0f32..10.0).prop_map(|(x, y)| Vec2::new(x, y)),
            1 => vector(),
        ];
        prop::collection::vec((position, velocity), 1..40)
    })
}

fn obstacles() -> impl Strategy<Value = Vec<Obstacle>> {
    prop::collection::vec(
        (
            -6.0f32..6.0,
            -6.0f32..6.0,
            prop_oneof![Just(0.0f32), 0.0f32..4.0],
        )
            .prop_map(|(x, y, radius)| Obstacle {
                center: Vec2::new(x, y),
                radius,
            }),
        0..5,
    )
}

/// Steers every agent once, returning the forces.
fn steer_all(program: &Program, world: &World, vehicles: &[Vehicle]) -> Vec<Vec2> {
    let params = program.default_parameters();
    let (bindings, unbound) = Bindings::new(program, world, &TagTable::default());
    assert!(unbound.is_empty(), "{unbound:?}");
    let mut grid = SpatialGrid::new(program.neighborhood_radius(&params));
    grid.rebuild(vehicles);
    let context = Context::new(world, vehicles, &grid, &bindings, &params, 1.0 / 60.0);
    let mut scratch = Scratch::default();
    (0..vehicles.len())
        .map(|agent| {
            let mut state = AgentState::new(program, 1, agent as u64);
            program.steer(&context, agent, &mut state, &mut scratch)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn flocking_with_obstacle_avoidance_gives_finite_forces_for_any_cloud(
        agents in cloud(),
        obstacles in obstacles(),
        weights in prop::array::uniform3(-10.0f32..10.0),
        radius in prop_oneof![Just(0.0f32), 0.0f32..20.0],
        fov in prop_oneof![Just(0.0f32), Just(360.0f32), 0.0f32..=360.0],
        params in params(),
    ) {
        let program = compile(&flocking_graph(weights, radius, fov)).expect("a valid graph");
        let mut world = World::default();
        world.obstacles = obstacles;
        let mut vehicles: Vec<Vehicle> = agents
            .iter()
            .map(|&(position, velocity)| Vehicle::new(position, velocity, params))
            .collect();
        // Flocking terms are normalized; Separation is not, but stays finite.
        for _ in 0..3 {
            let forces = steer_all(&program, &world, &vehicles);
            for (agent, force) in forces.iter().enumerate() {
                prop_assert!(force.is_finite(), "agent {agent}: force {force}");
            }
            for (vehicle, force) in vehicles.iter_mut().zip(&forces) {
                vehicle.step(*force, 1.0 / 60.0);
                assert_sound(vehicle)?;
            }
        }
    }

    #[test]
    fn coincident_agents_get_finite_bounded_flocking_forces(
        count in 2usize..30,
        spot in (-1e3f32..1e3, -1e3f32..1e3),
        velocity in (-5.0f32..5.0, -5.0f32..5.0),
    ) {
        // Every agent at the same place: separation has no direction, cohesion is zero.
        let program = compile(&flocking_graph([1.5, 1.0, 1.0], 5.0, 270.0)).expect("a valid graph");
        let spot = Vec2::new(spot.0, spot.1);
        let vehicles: Vec<Vehicle> = (0..count)
            .map(|i| {
                let v = if i % 2 == 0 { Vec2::new(velocity.0, velocity.1) } else { Vec2::ZERO };
                Vehicle::new(spot, v, VehicleParams::default())
            })
            .collect();
        for force in steer_all(&program, &World::default(), &vehicles) {
            prop_assert!(force.is_finite(), "{force}");
            // Each flocking term is normalized, so the force is at most the sum of the weights.
            prop_assert!(force.length() <= 3.5 + 1e-5, "{force}");
        }
    }
}
