//! The wall-crossings metric, with passable walls (a game's own physics keeps agents out): a
//! step whose segment meets a wall counts once, the total is the same for any thread count,
//! and a metrics sample reports the crossings since the last one. Solid walls (the default)
//! are `tests/solid_walls.rs`.

use graph_runtime::{Graph, MetricsTracker, Scene, SceneAssets, Simulation};

const DT: f32 = 1.0 / 60.0;

/// Two agents arrive at targets 8 units to their right. A wall stands at `x = 0` from
/// `y = -5` to `y = 5`: the first agent (at `y = 0`) goes through it once, the second (at
/// `y = 8`) passes above its end. Arrival has no wall sense, so nothing stops the first.
fn assets() -> SceneAssets {
    let graph = Graph::from_ron(
        r#"(format: "steergraph.graph", version: 1,
            parameters: {"goal_y": 0.0},
            nodes: {1: Arrival(target: Point(4.0, "goal_y"), slowing_distance: 2.0),
                    2: Output(input: 1)})"#,
        "arrive.graph.ron",
    )
    .expect("graph parses");
    let scene = Scene::from_ron(
        r#"(format: "steergraph.scene", version: 2,
            bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
            walls: [(points: [(0.0, -5.0), (0.0, 5.0)])],
            passable_walls: true,
            groups: [
                (name: "through", graph: "arrive.graph.ron",
                 spawn: Agents([(position: (-4.0, 0.0))])),
                (name: "above", graph: "arrive.graph.ron",
                 spawn: Agents([(position: (-4.0, 8.0))]), parameters: {"goal_y": 8.0}),
            ])"#,
        "crossing.scene.ron",
    )
    .expect("scene parses");
    SceneAssets {
        scene,
        origin: "crossing.scene.ron".into(),
        graphs: [("arrive.graph.ron".to_owned(), graph)].into(),
        flow_fields: std::collections::BTreeMap::default(),
    }
}

fn run(threads: usize, seconds: f32) -> Simulation {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let mut simulation = Simulation::new(&assets()).expect("scene runs");
        for _ in 0..(seconds / DT).round() as usize {
            simulation.step(DT);
        }
        simulation
    })
}

#[test]
fn an_agent_walking_through_a_wall_counts_one_crossing_and_one_passing_its_end_none() {
    let simulation = run(1, 10.0);
    let through = simulation.vehicles()[0].position;
    let above = simulation.vehicles()[1].position;
    assert!(
        through.x > 3.0,
        "the first agent arrived beyond the wall: {through}"
    );
    assert!(above.x > 3.0, "the second agent arrived: {above}");
    assert_eq!(simulation.wall_crossings(), 1);
}

#[test]
fn the_crossing_count_is_the_same_for_any_thread_count() {
    let one = run(1, 10.0);
    let two = run(2, 10.0);
    let four = run(4, 10.0);
    assert_eq!(one.wall_crossings(), two.wall_crossings());
    assert_eq!(one.wall_crossings(), four.wall_crossings());
}

#[test]
fn a_sample_reports_the_crossings_since_the_previous_sample() {
    let mut tracker = MetricsTracker::default();
    let mut simulation = Simulation::new(&assets()).expect("scene runs");
    assert_eq!(tracker.observe(&simulation, 0.0).new_wall_crossings, 0);
    // The agent starts 4 units from the wall at speed 0; in 1 s it has not reached it.
    for _ in 0..60 {
        simulation.step(DT);
    }
    assert!(simulation.vehicles()[0].position.x < 0.0);
    assert_eq!(tracker.observe(&simulation, 1.0).new_wall_crossings, 0);
    for _ in 0..540 {
        simulation.step(DT);
    }
    assert_eq!(tracker.observe(&simulation, 10.0).new_wall_crossings, 1);
    assert_eq!(tracker.observe(&simulation, 10.0).new_wall_crossings, 0);
}
