//! Solid walls (the default): no step crosses a wall, at any speed, force and `dt`. A step
//! that would cross is stopped at the wall and slides along it, and is counted as a blocked
//! step (`Simulation::wall_crossings`), so the designer still sees that the steering failed.

use glam::Vec2;
use graph_runtime::{
    Graph, Scene, SceneAssets, Simulation, Steering, Vehicle, VehicleParams, Wall, World,
};

/// 40 agents at 30 units/s with a force of 20 (the hostile round's 80 crossings) seek a point
/// 20 units beyond a wall at `x = 0` that spans the whole world.
fn fast_crowd(passable: bool) -> SceneAssets {
    let graph = Graph::from_ron(
        r#"(format: "steergraph.graph", version: 1,
            vehicle: (mass: 1.0, max_force: 20.0, max_speed: 30.0, radius: 0.5),
            nodes: {1: Seek(target: Point(20.0, 0.0)), 2: Output(input: 1)})"#,
        "dash.graph.ron",
    )
    .expect("graph parses");
    let text = format!(
        r#"(format: "steergraph.scene", version: 2, seed: 3,
            bounds: (min: (-60.0, -60.0), max: (60.0, 60.0)),
            walls: [(points: [(0.0, -60.0), (0.0, 60.0)])],
            passable_walls: {passable},
            groups: [(name: "dash", graph: "dash.graph.ron",
                      spawn: Random(count: 40, area: Rect(min: (-40.0, -40.0), max: (-5.0, 40.0)), speed: 0.0))])"#
    );
    SceneAssets {
        scene: Scene::from_ron(&text, "dash.scene.ron").expect("scene parses"),
        origin: "dash.scene.ron".into(),
        graphs: [("dash.graph.ron".to_owned(), graph)].into(),
        flow_fields: std::collections::BTreeMap::default(),
    }
}

#[test]
fn fast_agents_never_step_through_a_solid_wall_at_any_dt() {
    for dt in [1.0 / 60.0, 0.1, 0.5, 2.0] {
        let mut simulation = Simulation::new(&fast_crowd(false)).expect("runs");
        for tick in 0..(6.0 / dt) as usize {
            simulation.step(dt);
            for (agent, vehicle) in simulation.vehicles().iter().enumerate() {
                assert!(
                    vehicle.position.x < 0.0,
                    "dt {dt}, tick {tick}: agent {agent} is through the wall at {}",
                    vehicle.position
                );
                assert!(vehicle.position.is_finite() && vehicle.velocity.is_finite());
            }
        }
        // Pressed against the wall: x just short of it, no velocity into it.
        for vehicle in simulation.vehicles() {
            assert!(
                vehicle.position.x > -0.01,
                "dt {dt}: reached the wall: {}",
                vehicle.position
            );
            assert!(vehicle.velocity.x <= 1e-3, "dt {dt}: {}", vehicle.velocity);
        }
        assert!(simulation.wall_crossings() > 0, "blocked steps are counted");
    }
    // With passable walls (the game's physics would stop them) every agent goes through.
    let mut simulation = Simulation::new(&fast_crowd(true)).expect("runs");
    for _ in 0..360 {
        simulation.step(1.0 / 60.0);
    }
    assert!(simulation.vehicles().iter().all(|v| v.position.x > 0.0));
    assert_eq!(simulation.wall_crossings(), 40, "each agent crossed once");
}

/// A step into a wall at 45° stops a skin's width before it and slides along it: the part
/// of the step along the wall is kept, the part into it is not, and so for the velocity.
#[test]
fn a_blocked_step_slides_along_the_wall() {
    let mut world = World::default();
    world.set_walls(vec![Wall::polyline(vec![
        Vec2::new(1.0, -10.0),
        Vec2::new(1.0, 10.0),
    ])]);
    let params = VehicleParams {
        mass: 1.0,
        max_force: 0.0,
        max_speed: 10.0,
        radius: 0.5,
    };
    // At (0, 0) moving (4, 4): the step of 1 s would end at (4, 4), 3 units beyond the wall.
    let mut vehicle = Vehicle::new(Vec2::ZERO, Vec2::new(4.0, 4.0), params);
    assert!(
        world.step_vehicle(&mut vehicle, Steering::ZERO, 1.0),
        "blocked"
    );
    // Stopped at (1 - skin, 1), then the rest (3, 3) without its x part: (0, 3).
    let skin = graph_runtime::WALL_SKIN;
    assert!(
        (vehicle.position - Vec2::new(1.0 - skin, 4.0)).length() < 1e-5,
        "{}",
        vehicle.position
    );
    assert_eq!(vehicle.velocity, Vec2::new(0.0, 4.0));
    // Passable: the same step goes through and is counted as a crossing.
    world.set_passable_walls(true);
    let mut vehicle = Vehicle::new(Vec2::ZERO, Vec2::new(4.0, 4.0), params);
    assert!(
        world.step_vehicle(&mut vehicle, Steering::ZERO, 1.0),
        "crossed"
    );
    assert_eq!(vehicle.position, Vec2::new(4.0, 4.0));
}
