//! `BEHAVIORS.md`, "The angular layer" and "Jump": each test quotes a sentence or formula of it
//! verbatim (the test fails if the text changes) and checks the code against numbers worked out
//! by hand from that text.
//!
//! Unless said otherwise the agent has mass 1, `max_force` 8, `max_speed` 5 and radius 0.5.

use std::f32::consts::{FRAC_PI_2, PI};

use glam::Vec2;
use graph_runtime::behaviors::{self, Alignment, JumpSettings};
use graph_runtime::math::wrap;
use graph_runtime::{
    AgentGroup, AgentSpawn, AgentState, Bindings, Context, Crowd, Gap, Graph, Heading,
    JumpEventKind, JumpLink, Link, Motion, Node, NodeId, Rect, Scene, SceneAssets, Scratch,
    SpatialGrid, Spawn, Steering, TagTable, Target, Turning, TurningParams, Vehicle, VehicleParams,
    Wall, WeightedInput, World, compile,
};

const DOC: &str = include_str!("../BEHAVIORS.md");

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

#[track_caller]
fn close(actual: f32, expected: f32) {
    assert!(
        (actual - expected).abs() <= 1e-4,
        "expected {expected}, got {actual}"
    );
}

#[track_caller]
fn close2(actual: Vec2, expected: Vec2) {
    assert!(
        (actual - expected).abs().max_element() <= 1e-4,
        "expected {expected}, got {actual}"
    );
}

/// A vehicle with independent facing: 180°/s at most, 1000°/s² at most, facing `facing`
/// degrees and spinning at `spin` radians / s.
fn turner(position: Vec2, velocity: Vec2, facing: f32, spin: f32) -> Vehicle {
    let mut vehicle =
        Vehicle::new(position, velocity, PARAMS).with_turning(Turning::from(TurningParams {
            independent_facing: true,
            max_angular_speed: 180.0,
            max_angular_acceleration: 1000.0,
            max_turn_rate: None,
        }));
    vehicle.orientation = facing.to_radians();
    vehicle.angular_velocity = spin;
    vehicle
}

fn align() -> Alignment {
    Alignment {
        tolerance: 1f32.to_radians(),
        deceleration_radius: 30f32.to_radians(),
        time_to_target: 0.1,
    }
}

fn link(id: NodeId) -> Link {
    Link(Some(id))
}

fn point(x: f32, y: f32) -> Target {
    Target::Point(x.into(), y.into())
}

/// Agent 0's steering under `graph`, the others standing by, one tick of 0.1 s.
fn steering(graph: &Graph, vehicles: &[Vehicle]) -> Steering {
    let program = compile(graph).expect("the test graph compiles");
    let world = World::default();
    let (bindings, _) = Bindings::new(&program, &world, &TagTable::default());
    let params = program.default_parameters();
    let mut grid = SpatialGrid::new(4.0);
    grid.rebuild(vehicles);
    let context = Context::new(&world, vehicles, &grid, &bindings, &params, 0.1);
    let mut state = AgentState::new(&program, 1, 0);
    program.steering(&context, 0, &mut state, &mut Scratch::default())
}

fn face_node(x: f32, y: f32) -> Node {
    Node::Face {
        target: point(x, y),
        align_tolerance: 1.0.into(),
        deceleration_radius: 30.0.into(),
        time_to_target: 0.1.into(),
    }
}

// ---------------------------------------------------------------------------------------------
// Angles and the vehicle
// ---------------------------------------------------------------------------------------------

#[test]
fn wrap_counts_a_half_turn_as_counter_clockwise() {
    says(
        "An exact half turn is `+π`, so an agent facing exactly away from its aim turns counter-clockwise.",
    );
    assert_eq!(wrap(-PI), PI);
    assert_eq!(wrap(PI), PI);
    // 270° is a quarter turn clockwise.
    close(wrap(1.5 * PI), -FRAC_PI_2);
    assert_eq!(wrap(f32::NAN), 0.0);
}

#[test]
fn angle_is_the_documented_polynomial() {
    says("if |y| > |x| { r = π/2 - r };  if x < 0 { r = π - r };  if y < 0 { r = -r }");
    // (3, 4): a = 3 / 4, atan(0.75) = 0.6435011, and |y| > |x|: π/2 - 0.6435011 = 0.9272952.
    let at = graph_runtime::math::angle(Vec2::new(3.0, 4.0));
    assert!((at - 0.927_295_2).abs() < 2e-7, "{at}");
    // (-3, -4): π - 0.9272952 = 2.2142974, negated.
    let at = graph_runtime::math::angle(Vec2::new(-3.0, -4.0));
    assert!((at + 2.214_297_4).abs() < 2e-7, "{at}");
    assert_eq!(graph_runtime::math::angle(Vec2::ZERO), 0.0);
}

#[test]
fn the_turn_rate_limit_keeps_the_speed_and_cuts_the_turn() {
    says(
        "when `s > 1e-6` and `|turn| > limit`, `velocity = direction(from + copysign(limit, turn)) * s`.",
    );
    // Heading +x at speed 2, limit 90°/s over dt 0.5: at most 45°. The force (0, 8) asks for
    // velocity (2, 4), 63.43° off: cut to 45° at speed sqrt(20) = 4.4721, so
    // (3.1623, 3.1623), and the position moves half of it.
    let mut car = Vehicle::new(Vec2::ZERO, Vec2::new(2.0, 0.0), PARAMS).with_turning(Turning {
        max_turn_rate: 90f32.to_radians(),
        ..Turning::DEFAULT
    });
    car.step(Vec2::new(0.0, 8.0), 0.5);
    close2(car.velocity, Vec2::new(3.1623, 3.1623));
    close2(car.position, Vec2::new(1.5811, 1.5811));
    close2(car.forward, Vec2::splat(std::f32::consts::FRAC_1_SQRT_2));
}

#[test]
fn a_stopped_vehicle_with_a_turn_limit_cannot_spin_on_the_spot() {
    says(
        "a stopped vehicle cannot spin on the spot (it can only set off within the limit of `forward`)",
    );
    // At rest facing +x, limit 90°/s, dt 0.1: 9°. The force (0, 8) asks for (0, 0.8), 90° off:
    // it sets off at 9°, (0.8 cos 9°, 0.8 sin 9°) = (0.79015, 0.12515).
    let mut car = Vehicle::new(Vec2::ZERO, Vec2::ZERO, PARAMS).with_turning(Turning {
        max_turn_rate: 90f32.to_radians(),
        ..Turning::DEFAULT
    });
    car.step(Vec2::new(0.0, 8.0), 0.1);
    close2(car.velocity, Vec2::new(0.79015, 0.12515));
    // Without the limit it goes straight up.
    let mut free = Vehicle::new(Vec2::ZERO, Vec2::ZERO, PARAMS);
    free.step(Vec2::new(0.0, 8.0), 0.1);
    close2(free.velocity, Vec2::new(0.0, 0.8));
}

#[test]
fn the_facing_step_clamps_acceleration_then_speed() {
    says("ω = clamp(ω + clamp(τ, ±max_angular_acceleration) * dt, ±max_angular_speed)");
    says("θ = wrap(θ + ω * dt)");
    // 180°/s = π, 1000°/s² = 17.4533. τ = 100 clamps to 17.4533; dt 0.1: ω = 1.74533,
    // θ = 0.174533. Again: ω = 3.49066 clamps to π, θ = 0.174533 + 0.314159 = 0.488692.
    let mut turner = turner(Vec2::ZERO, Vec2::ZERO, 0.0, 0.0);
    turner.step(Steering::angular(100.0), 0.1);
    close(turner.angular_velocity, 1.74533);
    close(turner.orientation, 0.174_533);
    turner.step(Steering::angular(100.0), 0.1);
    close(turner.angular_velocity, PI);
    close(turner.orientation, 0.488_692);
    close(turner.facing(), 0.488_692);
    // It faces its own way while it does not move.
    assert_eq!(turner.position, Vec2::ZERO);
}

#[test]
fn without_independent_facing_the_angular_part_is_ignored() {
    says("Without independent facing `τ` is ignored.");
    says("**The vehicle's facing** is `θ` with independent facing, else `angle(forward)`");
    let mut walker = Vehicle::new(Vec2::ZERO, Vec2::new(0.0, 1.0), PARAMS);
    let mut plain = walker;
    walker.step(
        Steering {
            force: Vec2::new(1.0, 0.0),
            angular: 50.0,
        },
        0.1,
    );
    plain.step(Vec2::new(1.0, 0.0), 0.1);
    assert_eq!(walker, plain, "bit for bit the force alone");
    close(walker.facing(), walker.forward.y.atan2(walker.forward.x));
    assert_eq!(walker.spin(), 0.0);
}

// ---------------------------------------------------------------------------------------------
// ReachOrientation, Face, LookWhereYouAreGoing, MatchVelocity, Wander's facing
// ---------------------------------------------------------------------------------------------

#[test]
fn reach_orientation_turns_at_full_speed_outside_the_slowing_zone() {
    says("τ = clamp(τ, ±max_angular_acceleration)        F = 0");
    // Facing 0°, target 90°: r = 1.5708 > 30°, speed = π, τ = π / 0.1 = 31.42, clamped to
    // 1000°/s² = 17.4533.
    let me = turner(Vec2::ZERO, Vec2::ZERO, 0.0, 0.0);
    close(
        behaviors::reach_orientation(&me, FRAC_PI_2, &align()),
        17.4533,
    );
}

#[test]
fn reach_orientation_slows_within_the_deceleration_radius() {
    says("if |r| <= deceleration_radius { speed = speed * (|r| / deceleration_radius) }");
    // Target 10°: speed = π * (10 / 30) = 1.0472, τ = (1.0472 - 0) / 0.1 = 10.472.
    let me = turner(Vec2::ZERO, Vec2::ZERO, 0.0, 0.0);
    close(
        behaviors::reach_orientation(&me, 10f32.to_radians(), &align()),
        10.472,
    );
    // Spinning at 0.5 already: τ = (1.0472 - 0.5) / 0.1 = 5.472.
    let spinning = turner(Vec2::ZERO, Vec2::ZERO, 0.0, 0.5);
    close(
        behaviors::reach_orientation(&spinning, 10f32.to_radians(), &align()),
        5.472,
    );
}

#[test]
fn reach_orientation_brakes_within_the_tolerance() {
    says("if |r| <= align_tolerance:  τ = -spin / t");
    // 0.5° off (within 1°), spinning at 0.3: τ = -0.3 / 0.1 = -3.
    let me = turner(Vec2::ZERO, Vec2::ZERO, 0.0, 0.3);
    close(
        behaviors::reach_orientation(&me, 0.5f32.to_radians(), &align()),
        -3.0,
    );
}

#[test]
fn reach_orientation_turns_the_short_way_round() {
    says("r = wrap(θt - facing)");
    // Facing 170°, target -170°: r = wrap(-340°) = +20°, counter-clockwise through 180°.
    // speed = π * (20 / 30) = 2.0944, τ = 20.944, clamped to 17.4533.
    let me = turner(Vec2::ZERO, Vec2::ZERO, 170.0, 0.0);
    close(
        behaviors::reach_orientation(&me, (-170f32).to_radians(), &align()),
        17.4533,
    );
}

#[test]
fn face_and_look_where_you_are_going_delegate_to_reach_orientation() {
    says(
        "`Face(target)`: `o = target - p`; zero when `|o| < 1e-6`, else `ReachOrientation(angle(o))`.",
    );
    says("`LookWhereYouAreGoing`: zero when `|v| < 1e-6`, else `ReachOrientation(angle(v))`.");
    let me = turner(Vec2::ZERO, Vec2::new(0.0, 2.0), 0.0, 0.0);
    // The target straight up and the velocity straight up are both 90°: 17.4533.
    close(behaviors::face(&me, Vec2::new(0.0, 5.0), &align()), 17.4533);
    close(behaviors::look_where_you_are_going(&me, &align()), 17.4533);
    assert_eq!(behaviors::face(&me, Vec2::ZERO, &align()), 0.0);
    let still = turner(Vec2::ZERO, Vec2::ZERO, 0.0, 1.0);
    assert_eq!(behaviors::look_where_you_are_going(&still, &align()), 0.0);
}

#[test]
fn match_velocity_is_arrival_stripped_down() {
    says("`F = truncate((vt - v) * mass / time_to_target, max_force)`, `τ = 0`.");
    let heavy = Vehicle::new(
        Vec2::ZERO,
        Vec2::new(1.0, 0.0),
        VehicleParams {
            mass: 2.0,
            ..PARAMS
        },
    );
    // (0, 1) * 2 / 0.5 = (0, 4), within 8.
    close2(
        behaviors::match_velocity(&heavy, Vec2::new(1.0, 1.0), 0.5),
        Vec2::new(0.0, 4.0),
    );
    // (4, 1) * 2 / 0.5 = (16, 4), |16.4924| truncated to 8: (7.7611, 1.9403).
    close2(
        behaviors::match_velocity(&heavy, Vec2::new(5.0, 1.0), 0.5),
        Vec2::new(7.7611, 1.9403),
    );
}

#[test]
fn wander_with_face_drives_along_the_facing() {
    says("then `τ = Face(aim)` with an align tolerance of 1°, a deceleration radius of 30° and a");
    says(
        "time to target of 0.1 s, and `F = direction(facing) * max_force`: full force along the facing.",
    );
    // Default turning limits: 360°/s = 2π, 720°/s² = 4π. Heading +x, facing 0, wander angle
    // π/2, distance 3, radius 1: aim = (3, 0) + (0, 1) = (3, 1), at 18.435° = 0.32175 rad,
    // inside 30°: speed = 2π * (0.32175 / 0.52360) = 3.8609, τ = 38.609, clamped to 4π.
    let me = Vehicle::new(Vec2::ZERO, Vec2::new(1.0, 0.0), PARAMS).with_turning(Turning {
        independent_facing: true,
        ..Turning::DEFAULT
    });
    let steering = behaviors::wander_facing(&me, FRAC_PI_2, 3.0, 1.0);
    close(steering.angular, 4.0 * PI);
    close2(steering.force, Vec2::new(8.0, 0.0));
    // Wander angle 0: the aim (4, 0) is dead ahead, nothing to turn.
    assert_eq!(behaviors::wander_facing(&me, 0.0, 3.0, 1.0).angular, 0.0);
}

#[test]
fn reach_orientation_turns_to_another_agents_facing_or_a_direction() {
    says(
        "the nearest agent with a tag (`NearestTagged`; a point has no facing, which the compiler\nrefuses)",
    );
    // Agent 1 (tagged "leader") faces 90°: agent 0, facing 0°, turns at full acceleration.
    let mut graph = Graph::default();
    let reach = graph.add(Node::ReachOrientation {
        orientation: Heading::Of(Target::NearestTagged("leader".to_owned())),
        align_tolerance: 1.0.into(),
        deceleration_radius: 30.0.into(),
        time_to_target: 0.1.into(),
    });
    graph.add(Node::Output { input: link(reach) });
    let program = compile(&graph).expect("compiles");
    let world = World::default();
    let mut tags = TagTable::default();
    let leader_mask = tags.mask(&["leader"]).expect("one tag");
    let (bindings, _) = Bindings::new(&program, &world, &tags);
    let params = program.default_parameters();
    let vehicles = [
        turner(Vec2::ZERO, Vec2::ZERO, 0.0, 0.0),
        turner(Vec2::new(3.0, 0.0), Vec2::ZERO, 90.0, 0.0),
    ];
    let mut grid = SpatialGrid::new(4.0);
    grid.rebuild(&vehicles);
    let context = Context {
        tags: &[0, leader_mask],
        ..Context::new(&world, &vehicles, &grid, &bindings, &params, 0.1)
    };
    let mut state = AgentState::new(&program, 1, 0);
    let steering = program.steering(&context, 0, &mut state, &mut Scratch::default());
    assert_eq!(steering.force, Vec2::ZERO);
    close(steering.angular, 17.4533);
    // A point has no facing: refused.
    let mut pointed = graph.clone();
    pointed.nodes.insert(
        reach,
        Node::ReachOrientation {
            orientation: Heading::Of(point(1.0, 1.0)),
            align_tolerance: 1.0.into(),
            deceleration_radius: 30.0.into(),
            time_to_target: 0.1.into(),
        },
    );
    let errors = compile(&pointed).expect_err("a point has no facing");
    assert!(
        errors[0].to_string().contains("a point has no facing"),
        "{errors:?}"
    );
    // A direction (-1, 0) is 180°: +π, counter-clockwise, full acceleration.
    let mut direction = graph;
    direction.nodes.insert(
        reach,
        Node::ReachOrientation {
            orientation: Heading::Direction((-1.0).into(), 0.0.into()),
            align_tolerance: 1.0.into(),
            deceleration_radius: 30.0.into(),
            time_to_target: 0.1.into(),
        },
    );
    close(self::steering(&direction, &vehicles[..1]).angular, 17.4533);
}

// ---------------------------------------------------------------------------------------------
// Combiners over steering with an angular part
// ---------------------------------------------------------------------------------------------

#[test]
fn blend_weighs_both_parts_alike() {
    says("- `Blend` sums `F` and `τ` with the same weights; `Scale` multiplies both.");
    // Face (0, 5) gives τ = 17.4533; Seek (5, 0) from rest gives (5, 0). Blend 0.5 × Face +
    // 2 × Seek: F = (10, 0), τ = 8.7266.
    let mut graph = Graph::default();
    let face = graph.add(face_node(0.0, 5.0));
    let seek = graph.add(Node::Seek {
        target: point(5.0, 0.0),
    });
    let blend = graph.add(Node::Blend {
        inputs: vec![
            WeightedInput {
                node: link(face),
                weight: 0.5.into(),
            },
            WeightedInput {
                node: link(seek),
                weight: 2.0.into(),
            },
        ],
    });
    graph.add(Node::Output { input: link(blend) });
    let steering = steering(&graph, &[turner(Vec2::ZERO, Vec2::ZERO, 0.0, 0.0)]);
    close2(steering.force, Vec2::new(10.0, 0.0));
    close(steering.angular, 8.7266);
}

#[test]
fn priority_counts_a_node_that_only_turns() {
    says(
        "`Priority` and `Dither` compare `sqrt(|F|² + τ²)` with epsilon (`|F|` when `τ = 0`): a node that only turns counts as having something to do.",
    );
    // Priority[Face, Seek]: Face has no force but turns, so it answers.
    let mut graph = Graph::default();
    let face = graph.add(face_node(0.0, 5.0));
    let seek = graph.add(Node::Seek {
        target: point(5.0, 0.0),
    });
    let priority = graph.add(Node::Priority {
        inputs: vec![link(face), link(seek)],
        epsilon: 0.001.into(),
    });
    graph.add(Node::Output {
        input: link(priority),
    });
    let me = turner(Vec2::ZERO, Vec2::ZERO, 0.0, 0.0);
    let steering = steering(&graph, &[me]);
    assert_eq!(steering.force, Vec2::ZERO);
    close(steering.angular, 17.4533);
    // Already facing the target, at rest: Face has nothing to do, Seek answers.
    let facing = turner(Vec2::ZERO, Vec2::ZERO, 90.0, 0.0);
    let steering = self::steering(&graph, &[facing]);
    close2(steering.force, Vec2::new(5.0, 0.0));
    assert_eq!(steering.angular, 0.0);
}

#[test]
fn budget_spends_the_force_only_and_truncate_passes_the_turn() {
    says("`Budget` spends `|F|` only: an input with `|F| <= left` is added whole (its `τ` too)");
    says("`Truncate` truncates `F` and passes `τ`");
    // Budget (max_force 8) of Seek (5, 0) and Face: Seek spends 5, Face (no force) is added
    // whole: F = (5, 0), τ = 17.4533.
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: point(5.0, 0.0),
    });
    let face = graph.add(face_node(0.0, 5.0));
    let budget = graph.add(Node::Budget {
        inputs: vec![link(seek), link(face)],
    });
    let truncate = graph.add(Node::Truncate {
        input: link(budget),
        max: 1.0.into(),
    });
    let output = graph.add(Node::Output {
        input: link(budget),
    });
    let me = [turner(Vec2::ZERO, Vec2::ZERO, 0.0, 0.0)];
    let steering = steering(&graph, &me);
    close2(steering.force, Vec2::new(5.0, 0.0));
    close(steering.angular, 17.4533);
    // Truncate to 1: F = (1, 0), τ unchanged.
    graph.nodes.insert(
        output,
        Node::Output {
            input: link(truncate),
        },
    );
    let steering = self::steering(&graph, &me);
    close2(steering.force, Vec2::new(1.0, 0.0));
    close(steering.angular, 17.4533);
}

#[test]
fn a_graph_without_angular_nodes_has_no_angular_part() {
    says("A graph without angular nodes carries forces alone, as\nbefore: its `τ` is `0`.");
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: point(5.0, 0.0),
    });
    graph.add(Node::Output { input: link(seek) });
    let program = compile(&graph).expect("compiles");
    assert!(!program.turns());
    let steering = steering(&graph, &[turner(Vec2::ZERO, Vec2::ZERO, 0.0, 0.0)]);
    assert_eq!(steering.angular, 0.0);
    close2(steering.force, Vec2::new(5.0, 0.0));
}

// ---------------------------------------------------------------------------------------------
// Jump
// ---------------------------------------------------------------------------------------------

fn level_link() -> JumpLink {
    JumpLink::new(Vec2::ZERO, Vec2::new(6.0, 0.0))
}

#[test]
fn the_flight_takes_the_larger_root_on_level_ground() {
    says("d = vmax² - 2 * g * Δh                 (no flight when d < 0)");
    // g 20, vmax 8, level: d = 64, t1 = 0 (not > 0), t2 = 16 / 20 = 0.8, Δ / t = (7.5, 0).
    let plan = behaviors::jump_plan(&level_link(), 20.0, 8.0, 10.0).expect("achievable");
    close(plan.flight_time, 0.8);
    close2(plan.velocity, Vec2::new(7.5, 0.0));
    assert_eq!(plan.vertical_velocity, 8.0);
    // With a top speed of 5 the 7.5 it needs is too much.
    assert!(behaviors::jump_plan(&level_link(), 20.0, 8.0, 5.0).is_none());
}

#[test]
fn a_higher_landing_takes_the_larger_root_when_the_smaller_is_too_fast() {
    says("t = t1 if t1 > 0 and |Δ / t1| <= max_speed, else t2 if t2 > 0 and |Δ / t2| <= max_speed");
    // Landing 1 up: d = 64 - 40 = 24, t1 = (8 - 4.89898) / 20 = 0.155051 needs 38.7 > 10;
    // t2 = 12.89898 / 20 = 0.644949 needs 6 / 0.644949 = 9.30306.
    let up = JumpLink {
        to_height: 1.0,
        ..level_link()
    };
    let plan = behaviors::jump_plan(&up, 20.0, 8.0, 10.0).expect("achievable");
    close(plan.flight_time, 0.644_949);
    close2(plan.velocity, Vec2::new(9.30306, 0.0));
    // Two up: d = 64 - 80 < 0, no flight.
    let too_high = JumpLink {
        to_height: 2.0,
        ..level_link()
    };
    assert!(behaviors::jump_plan(&too_high, 20.0, 8.0, 10.0).is_none());
}

#[test]
fn a_lower_landing_never_picks_the_negative_root() {
    says("No `t` passing the test: the jump is **not achievable**");
    // Landing 3 down: d = 64 + 120 = 184, t1 = (8 - 13.5647) / 20 < 0, t2 = 21.5647 / 20 =
    // 1.07823, needing 6 / 1.07823 = 5.5647: achievable at top speed 6, not at 5.
    let down = JumpLink {
        to_height: -3.0,
        ..level_link()
    };
    let plan = behaviors::jump_plan(&down, 20.0, 8.0, 6.0).expect("achievable");
    close(plan.flight_time, 1.07823);
    assert!(behaviors::jump_plan(&down, 20.0, 8.0, 5.0).is_none());
}

fn jump_settings() -> JumpSettings {
    JumpSettings {
        gravity: 20.0,
        max_vertical_velocity: 8.0,
        position_tolerance: 0.6,
        velocity_tolerance: 1.0,
        run_up: 4.0,
        time_to_target: 0.1,
    }
}

fn jumper(position: Vec2, velocity: Vec2) -> Vehicle {
    Vehicle::new(
        position,
        velocity,
        VehicleParams {
            max_speed: 10.0,
            ..PARAMS
        },
    )
}

#[test]
fn the_run_up_matches_the_take_off_velocity_and_closes_on_the_line() {
    says("On the line (`e = 0`) this is exactly `MatchVelocity(Δ / t)`.");
    let (link, settings) = (level_link(), jump_settings());
    let plan = behaviors::jump_plan(&link, 20.0, 8.0, 10.0).expect("achievable");
    // On the line at (-4, 0) going 3 (room enough: 4 + 0.6 >= (56.25 - 9) / 12.8 = 3.69):
    // (7.5 - 3, 0) / 0.1 = (45, 0), truncated to 8.
    let on_line = jumper(Vec2::new(-4.0, 0.0), Vec2::new(3.0, 0.0));
    close2(
        behaviors::jump_run_up(&on_line, &link, &plan, &settings),
        Vec2::new(8.0, 0.0),
    );
    // One unit off the line at take-off speed: T = max(4 / 7.5, 0.1) = 0.53333, aim at
    // (7.5, 0) - (0, 1) / 0.53333 = (7.5, -1.875): (0, -18.75) truncated to (0, -8).
    let off_line = jumper(Vec2::new(-2.0, 1.0), Vec2::new(7.5, 0.0));
    close2(
        behaviors::jump_run_up(&off_line, &link, &plan, &settings),
        Vec2::new(0.0, -8.0),
    );
}

#[test]
fn an_agent_too_close_to_reach_the_take_off_speed_goes_back_to_the_run_up() {
    says(
        "`-s + position_tolerance < R`, with `w = v · u` its speed along the line, `A = 0.8 * max_force / mass`",
    );
    says("`R = |V² - w²| / (2 * A)` for `w >= 0`, `R = (V² - w²) / (2 * A)` for `w < 0`");
    let (link, settings) = (level_link(), jump_settings());
    let plan = behaviors::jump_plan(&link, 20.0, 8.0, 10.0).expect("achievable");
    // V = 7.5, A = 0.8 * 8 / 1 = 6.4: from rest R = 56.25 / 12.8 = 4.39.
    // At rest at (-2, 0): 2 + 0.6 < 4.39, Seek (-4, 0) at top speed 10: (-10, 0).
    let close_by = jumper(Vec2::new(-2.0, 0.0), Vec2::ZERO);
    close2(
        behaviors::jump_run_up(&close_by, &link, &plan, &settings),
        Vec2::new(-10.0, 0.0),
    );
    // At rest at (-5, 0): 5.6 >= 4.39, the run-up: (7.5, 0) / 0.1 truncated to (8, 0).
    let room = jumper(Vec2::new(-5.0, 0.0), Vec2::ZERO);
    close2(
        behaviors::jump_run_up(&room, &link, &plan, &settings),
        Vec2::new(8.0, 0.0),
    );
    // At (-2, 0) backing away at 8: R = (56.25 - 64) / 12.8 = -0.61, so the run-up: (15.5,
    // 0) / 0.1 truncated to (8, 0); it turns as it slows, far enough back.
    let backing = jumper(Vec2::new(-2.0, 0.0), Vec2::new(-8.0, 0.0));
    close2(
        behaviors::jump_run_up(&backing, &link, &plan, &settings),
        Vec2::new(8.0, 0.0),
    );
    close(
        behaviors::run_up_room(&backing, Vec2::X, 7.5),
        (56.25 - 64.0) / 12.8,
    );
}

#[test]
fn an_agent_past_the_take_off_point_goes_back_to_the_run_up() {
    says("`F = Seek(a - u * run_up)`, back to the start of the run-up;");
    // At (1, 0), past by 1 > 0.6, going 2: Seek (-4, 0) at top speed 10 is (-10, 0) - (2, 0).
    let (link, settings) = (level_link(), jump_settings());
    let plan = behaviors::jump_plan(&link, 20.0, 8.0, 10.0).expect("achievable");
    let past = jumper(Vec2::new(1.0, 0.0), Vec2::new(2.0, 0.0));
    close2(
        behaviors::jump_run_up(&past, &link, &plan, &settings),
        Vec2::new(-12.0, 0.0),
    );
}

/// A scene with one jumper on the line just before the take-off point of "leap", at take-off
/// speed, running `Jump(leap)`; `walls` and `gaps` added as given.
fn jump_scene(walls: Vec<Wall>, gaps: Vec<Gap>) -> SceneAssets {
    let mut graph = Graph {
        vehicle: graph_runtime::VehicleSpec {
            mass: 1.0.into(),
            max_force: 8.0.into(),
            max_speed: 10.0.into(),
            radius: 0.5.into(),
        },
        ..Graph::default()
    };
    let jump = graph.add(Node::Jump {
        link: "leap".to_owned(),
        gravity: 20.0.into(),
        max_vertical_velocity: 8.0.into(),
        position_tolerance: 0.6.into(),
        velocity_tolerance: 1.0.into(),
        run_up: 4.0.into(),
        time_to_target: 0.1.into(),
    });
    graph.add(Node::Output { input: link(jump) });
    let scene = Scene {
        bounds: Rect::new(Vec2::splat(-20.0), Vec2::splat(20.0)),
        walls,
        gaps,
        jump_links: [("leap".to_owned(), level_link())].into(),
        groups: vec![AgentGroup::new(
            "jumper",
            "jump.graph.ron",
            Spawn::Agents(vec![AgentSpawn {
                position: Vec2::new(-0.05, 0.0),
                velocity: Vec2::new(7.5, 0.0),
            }]),
        )],
        ..Scene::default()
    };
    SceneAssets {
        scene,
        origin: "jump.scene.ron".to_owned(),
        graphs: [("jump.graph.ron".to_owned(), graph)].into(),
        flow_fields: std::collections::BTreeMap::new(),
    }
}

fn chasm() -> Gap {
    Gap::new(vec![
        Vec2::new(1.0, -3.0),
        Vec2::new(5.0, -3.0),
        Vec2::new(5.0, 3.0),
        Vec2::new(1.0, 3.0),
    ])
}

#[test]
fn a_jumper_takes_off_flies_over_the_gap_and_lands_exactly() {
    says(
        "Once `t` seconds have passed it lands: `p = b` exactly, `v = Δ / t`, and it walks again.",
    );
    says("Its height `s` seconds after take-off is `ha + vmax * s - g * s² / 2`.");
    let mut simulation =
        graph_runtime::Simulation::new(&jump_scene(Vec::new(), vec![chasm()])).expect("builds");
    let dt = 1.0 / 60.0;
    // Tick 1: within 0.6 of (0, 0) at exactly the take-off velocity: it takes off.
    simulation.step(dt);
    assert_eq!(simulation.motion(0), Motion::Airborne);
    assert!(matches!(
        simulation.jump_events(),
        [event] if matches!(event.kind, JumpEventKind::TakeOff { flight_time, .. } if (flight_time - 0.8).abs() < 1e-6)
    ));
    // Half the flight, 0.4 s (24 ticks): the top, 8 * 0.4 - 10 * 0.16 = 1.6 up.
    for _ in 0..24 {
        simulation.step(dt);
    }
    let flight = simulation.flight(0).expect("in the air");
    close(flight.elapsed, 0.4);
    assert!((flight.height() - 1.6).abs() < 1e-3, "{}", flight.height());
    // Over the gap, not fallen.
    assert!(simulation.world().in_gap(simulation.vehicles()[0].position));
    let mut landed = None;
    for tick in 0..30 {
        simulation.step(dt);
        if let Some(event) = simulation.jump_events().first() {
            landed = Some((tick, event.clone()));
            break;
        }
    }
    let (_, event) = landed.expect("it lands within 30 more ticks");
    assert!(matches!(
        event.kind,
        JumpEventKind::Landed {
            completed: true,
            ..
        }
    ));
    assert_eq!(simulation.vehicles()[0].position, Vec2::new(6.0, 0.0));
    assert_eq!(simulation.vehicles()[0].velocity, Vec2::new(7.5, 0.0));
    assert_eq!(simulation.motion(0), Motion::Walking);
    assert_eq!(simulation.falls(), 0);
    // The link is made: the Jump node gives nothing now.
    simulation.step(dt);
    assert_eq!(simulation.forces()[0], Vec2::ZERO);
}

/// Issue 46: the height on the take-off tick's row, and the facing in the air, were not said;
/// the CSV reported the take-off angular velocity through the flight while the facing stood
/// still. A jumper with an independent facing, turning at 2 rad/s as it takes off: from the
/// take-off tick on, its angular velocity is 0 and its angle holds until it lands; the flight
/// already has a height on the take-off tick, `ha` = 0.
#[test]
fn in_the_air_the_facing_holds_still_and_the_take_off_tick_has_a_height() {
    says("that tick's row already has a height: `ha`, 0 s into the flight;");
    says(
        "its angular velocity is set to zero at take-off (the CSV's `angular_velocity` reads 0 through the flight)",
    );
    let mut assets = jump_scene(Vec::new(), vec![chasm()]);
    if let Some(graph) = assets.graphs.get_mut("jump.graph.ron") {
        graph.turning.independent_facing = true;
    }
    let mut simulation = graph_runtime::Simulation::new(&assets).expect("builds");
    simulation.vehicles_mut()[0].angular_velocity = 2.0;
    let angle = simulation.vehicles()[0].facing();
    let dt = 1.0 / 60.0;
    simulation.step(dt);
    assert_eq!(simulation.motion(0), Motion::Airborne);
    assert_eq!(
        simulation.flight(0).map(graph_runtime::Flight::height),
        Some(0.0)
    );
    assert_eq!(simulation.vehicles()[0].spin(), 0.0);
    // The take-off tick turned it (2 rad/s for one tick, at most); from then on it holds.
    let held = simulation.vehicles()[0].facing();
    assert!((held - angle).abs() <= 2.0 * dt + 1e-6, "{angle} -> {held}");
    while simulation.motion(0) == Motion::Airborne {
        simulation.step(dt);
        if simulation.motion(0) == Motion::Airborne {
            assert_eq!(simulation.vehicles()[0].facing(), held);
            assert_eq!(simulation.vehicles()[0].spin(), 0.0);
        }
    }
    assert!(
        simulation.flight(0).is_none(),
        "landed: no height on the landing tick"
    );
}

#[test]
fn a_wall_stops_a_flight_where_it_was() {
    says("ends the flight where it was (velocity zero, landing not reached)");
    says("a flight step that meets a wall (crosses it, touches it or ends on it, decided exactly");
    let wall = Wall::polyline(vec![Vec2::new(3.0, -5.0), Vec2::new(3.0, 5.0)]);
    let mut simulation =
        graph_runtime::Simulation::new(&jump_scene(vec![wall], Vec::new())).expect("builds");
    let dt = 1.0 / 60.0;
    let mut stopped = None;
    for _ in 0..60 {
        simulation.step(dt);
        if let Some(event) = simulation
            .jump_events()
            .iter()
            .find(|event| matches!(event.kind, JumpEventKind::Landed { .. }))
        {
            stopped = Some(event.clone());
            break;
        }
    }
    let event = stopped.expect("the wall ends the flight");
    assert!(matches!(
        event.kind,
        JumpEventKind::Landed {
            completed: false,
            ..
        }
    ));
    let me = simulation.vehicles()[0];
    assert!(
        me.position.x < 3.0 && me.position.x > 2.8,
        "{}",
        me.position
    );
    assert_eq!(me.velocity, Vec2::ZERO);
    assert_eq!(simulation.wall_crossings(), 0);
}

#[test]
fn a_walker_that_steps_into_a_gap_falls_and_stays() {
    says(
        "A walking agent whose step ends inside a gap has fallen: it stops there (velocity zero) and no longer moves.",
    );
    // A Seek across the chasm, no Jump: it walks in and falls.
    let mut assets = jump_scene(Vec::new(), vec![chasm()]);
    let graph = assets.graphs.get_mut("jump.graph.ron").expect("the graph");
    graph.nodes.insert(
        NodeId(1),
        Node::Seek {
            target: point(10.0, 0.0),
        },
    );
    let mut simulation = graph_runtime::Simulation::new(&assets).expect("builds");
    let dt = 1.0 / 60.0;
    let mut fell_at = None;
    for _ in 0..60 {
        simulation.step(dt);
        if simulation.falls() > 0 {
            fell_at = Some(simulation.vehicles()[0].position);
            break;
        }
    }
    let fell_at = fell_at.expect("it falls");
    assert!(fell_at.x > 1.0 && fell_at.x < 1.2, "{fell_at}");
    assert_eq!(simulation.motion(0), Motion::Fallen);
    assert!(matches!(
        simulation.jump_events(),
        [event] if event.kind == JumpEventKind::Fell
    ));
    for _ in 0..10 {
        simulation.step(dt);
    }
    assert_eq!(simulation.vehicles()[0].position, fell_at);
    assert_eq!(simulation.falls(), 1);
}

#[test]
fn a_game_gets_the_take_off_and_the_landing_through_crowd() {
    says(
        "a game that flies its own agents gets the take-offs and landings from `Crowd::jump_events`, the steering being zero while an agent is in the air.",
    );
    let assets = jump_scene(Vec::new(), Vec::new());
    let program = compile(&assets.graphs["jump.graph.ron"]).expect("compiles");
    let mut world = World::new(assets.scene.bounds);
    world.set_jump_link("leap", level_link());
    let mut crowd =
        Crowd::new(program, &world, 1, &std::collections::BTreeMap::new()).expect("binds");
    let mut vehicles = vec![jumper(Vec2::new(-0.05, 0.0), Vec2::new(7.5, 0.0))];
    let mut out = Vec::new();
    let dt = 0.1;
    crowd.steering(&world, &vehicles, &[], dt, &mut out);
    let [event] = crowd.jump_events() else {
        panic!("one take-off: {:?}", crowd.jump_events());
    };
    assert!(matches!(
        event.kind,
        JumpEventKind::TakeOff { velocity, vertical_velocity, flight_time, .. }
            if velocity == Vec2::new(7.5, 0.0) && vertical_velocity == 8.0 && (flight_time - 0.8).abs() < 1e-6
    ));
    assert!(crowd.is_airborne(0));
    // The game flies it; the crowd steers it not at all until the flight time has passed
    // (0.8 s: the eighth call after the take-off lands it).
    for call in 1..=8 {
        vehicles[0].position += Vec2::new(0.75, 0.0);
        crowd.steering(&world, &vehicles, &[], dt, &mut out);
        if call < 8 {
            assert_eq!(out[0], Steering::ZERO, "call {call}");
            assert!(crowd.jump_events().is_empty(), "call {call}");
        }
    }
    assert!(matches!(
        crowd.jump_events(),
        [event] if matches!(event.kind, JumpEventKind::Landed { completed: true, .. })
    ));
    assert!(!crowd.is_airborne(0));
    // Made: the Jump gives nothing now.
    crowd.steering(&world, &vehicles, &[], dt, &mut out);
    assert_eq!(out[0], Steering::ZERO);
}
