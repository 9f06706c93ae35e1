//! Each agent's own goals and routes: set by the game through `Crowd`, or by a scene group;
//! an agent without one gets zero; they survive a hot swap; random ones are drawn from the
//! scene seed, and whatever the thread count the motion is the same.

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    AgentGroup, Area, Crowd, CrowdError, Graph, Link, Node, OwnPoints, Path, PathDirection, Scene,
    SceneAssets, Simulation, Spawn, Target, Vehicle, VehicleParams, World, behaviors, compile,
};

fn one(node: Node) -> Graph {
    let mut graph = Graph::default();
    let id = graph.add(node);
    graph.add(Node::Output {
        input: Link(Some(id)),
    });
    graph
}

fn seek_own() -> Graph {
    one(Node::Seek {
        target: Target::Own("goal".to_owned()),
    })
}

fn crowd(graph: &Graph) -> Crowd {
    let program = compile(graph).expect("compiles");
    Crowd::new(program, &World::default(), 1, &BTreeMap::new())
        .expect("binds: own names need no world")
}

/// `f` run on a pool of `threads` threads.
fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool");
    pool.install(f)
}

fn at_rest(x: f32, y: f32) -> Vehicle {
    Vehicle::new(Vec2::new(x, y), Vec2::ZERO, VehicleParams::default())
}

fn forces(crowd: &mut Crowd, vehicles: &[Vehicle]) -> Vec<Vec2> {
    let mut forces = Vec::new();
    crowd.steer(&World::default(), vehicles, &[], 1.0 / 60.0, &mut forces);
    forces
}

#[test]
fn seek_own_goal_steers_each_agent_to_its_own_point_and_without_one_gives_zero() {
    let mut crowd = crowd(&seek_own());
    let vehicles = [at_rest(0.0, 0.0), at_rest(1.0, 1.0)];
    assert_eq!(forces(&mut crowd, &vehicles), [Vec2::ZERO, Vec2::ZERO]);

    // Agent 1 at (1,1), at rest, max speed 5: its goal (4,5) is (3,4) away, so the desired
    // velocity is (0.6, 0.8) * 5 = (3, 4) and the force (3, 4). Agent 0 has none: zero.
    crowd
        .set_goal(1, "goal", Vec2::new(4.0, 5.0))
        .expect("a finite point");
    let f = forces(&mut crowd, &vehicles);
    assert_eq!(f[0], Vec2::ZERO);
    assert!((f[1] - Vec2::new(3.0, 4.0)).length() < 1e-5, "{}", f[1]);
    assert_eq!(
        crowd.own(1).and_then(|own| own.goal("goal")),
        Some(Vec2::new(4.0, 5.0))
    );

    // Another goal for agent 0 only changes agent 0.
    crowd
        .set_goal(0, "goal", Vec2::new(0.0, -2.0))
        .expect("a finite point");
    let f = forces(&mut crowd, &vehicles);
    assert!((f[0] - Vec2::new(0.0, -5.0)).length() < 1e-5, "{}", f[0]);
    assert!((f[1] - Vec2::new(3.0, 4.0)).length() < 1e-5);

    crowd.clear_goal(1, "goal");
    assert_eq!(forces(&mut crowd, &vehicles)[1], Vec2::ZERO);
}

/// Issue 46: a goal or route name none of the crowd's graphs reads (a misspelling) is refused
/// and names the ones they read, rather than kept and never used.
#[test]
fn a_goal_or_route_no_graph_reads_is_refused_naming_the_ones_read() {
    let mut crowd = crowd(&seek_own());
    let error = crowd
        .set_goal(0, "gaol", Vec2::new(1.0, 2.0))
        .expect_err("a name no graph reads");
    assert_eq!(
        error.to_string(),
        "agent 0's own goal \"gaol\": no graph of this crowd reads it (they read: \"goal\"); a graph that reads it must run first"
    );
    assert!(crowd.own(0).is_none_or(|own| own.goal("gaol").is_none()));
    let route = crowd.set_route(0, "rout", vec![Vec2::ZERO], 1.0);
    assert!(route.is_err_and(|e| e.to_string().contains("no graph of this crowd reads it")));
    crowd
        .set_goal(0, "goal", Vec2::new(1.0, 2.0))
        .expect("the name the graph reads");
}

#[test]
fn a_goal_or_route_that_is_not_finite_or_for_an_impossible_agent_is_refused_by_name() {
    let mut crowd = crowd(&seek_own());
    let error = crowd
        .set_goal(3, "goal", Vec2::new(f32::NAN, 0.0))
        .expect_err("NaN is refused");
    let text = error.to_string();
    assert!(text.contains("agent 3's own goal \"goal\""), "{text}");
    assert!(matches!(error, CrowdError::Own { agent: 3, .. }));
    assert!(
        crowd.set_goal(usize::MAX, "goal", Vec2::ZERO).is_err(),
        "no state is made for an index no crowd can have"
    );
    assert!(crowd.set_route(0, "route", Vec::new(), 1.0).is_err());
    assert!(
        crowd
            .set_route(
                0,
                "route",
                vec![Vec2::ZERO, Vec2::splat(f32::INFINITY)],
                1.0
            )
            .is_err()
    );
    assert!(crowd.set_route(0, "route", vec![Vec2::ZERO], -1.0).is_err());
    assert!(crowd.own(0).is_none_or(|own| own.route("route").is_none()));
}

#[test]
fn path_following_an_own_route_follows_the_agents_route_as_for_a_world_path() {
    let graph = one(Node::PathFollowing {
        path: "route".to_owned(),
        prediction_time: 0.5.into(),
        ahead_distance: 2.0.into(),
        direction: PathDirection::Forward,
        corrective: false,
        own: true,
    });
    let program = compile(&graph).expect("compiles");
    assert_eq!(program.own_names(), ["route"]);
    assert!(program.path_names().is_empty(), "not a world path");
    let mut crowd = crowd(&graph);
    let me = Vehicle::new(
        Vec2::new(0.0, 1.0),
        Vec2::new(1.0, 0.0),
        VehicleParams::default(),
    );
    let vehicles = [me, me];
    let points = vec![Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0)];
    crowd
        .set_route(0, "route", points.clone(), 0.5)
        .expect("a usable route");
    let f = forces(&mut crowd, &vehicles);
    let path = Path {
        points,
        radius: 0.5,
        closed: false,
    };
    // The same force as the formula on that path; the agent without a route gets zero.
    assert_eq!(
        f[0],
        behaviors::path_following(&me, &path, 0.5, 2.0, 1.0, false)
    );
    assert_ne!(f[0], Vec2::ZERO);
    assert_eq!(f[1], Vec2::ZERO);
}

fn scene(goals: BTreeMap<String, OwnPoints>) -> SceneAssets {
    let scene = Scene {
        seed: 5,
        groups: vec![AgentGroup {
            goals,
            ..AgentGroup::new(
                "walkers",
                "seek.graph.ron",
                Spawn::Random {
                    count: 5,
                    area: Area::Rect {
                        min: Vec2::new(-5.0, -5.0),
                        max: Vec2::new(5.0, 5.0),
                    },
                    speed: 0.0,
                },
            )
        }],
        ..Scene::default()
    };
    SceneAssets {
        scene,
        origin: "own.scene.ron".to_owned(),
        graphs: [("seek.graph.ron".to_owned(), seek_own())].into(),
        flow_fields: BTreeMap::new(),
    }
}

#[test]
fn a_scene_group_gives_each_agent_a_point_of_its_list_in_turn() {
    let list = vec![Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0)];
    let goals = [("goal".to_owned(), OwnPoints::Each(list))].into();
    let simulation = Simulation::new(&scene(goals)).expect("runs");
    let goal = |agent| simulation.own(agent).and_then(|own| own.goal("goal"));
    // Agents 0..5 get points 0, 1, 0, 1, 0.
    for agent in 0..5 {
        let expected = if agent % 2 == 0 {
            Vec2::new(10.0, 0.0)
        } else {
            Vec2::new(0.0, 10.0)
        };
        assert_eq!(goal(agent), Some(expected), "agent {agent}");
    }
}

#[test]
fn random_own_points_lie_in_their_area_and_leave_the_spawn_places_as_they_were() {
    let area = Area::Circle {
        center: Vec2::new(20.0, 0.0),
        radius: 3.0,
    };
    let goals = [("goal".to_owned(), OwnPoints::Random(area))].into();
    let with = Simulation::new(&scene(goals)).expect("runs");
    let without = Simulation::new(&scene(BTreeMap::new())).expect("runs");
    let again = Simulation::new(&scene(
        [("goal".to_owned(), OwnPoints::Random(area))].into(),
    ))
    .expect("runs");
    let mut points = Vec::new();
    for agent in 0..5 {
        let point = with
            .own(agent)
            .and_then(|own| own.goal("goal"))
            .expect("one each");
        assert!(
            point.distance(Vec2::new(20.0, 0.0)) <= 3.0 + 1e-5,
            "{point}"
        );
        assert_eq!(
            again.own(agent).and_then(|own| own.goal("goal")),
            Some(point)
        );
        points.push(point);
        assert_eq!(
            with.vehicles()[agent].position,
            without.vehicles()[agent].position,
            "own points draw from a stream of their own"
        );
    }
    points.dedup();
    assert_eq!(points.len(), 5, "five different points");
}

#[test]
fn own_goals_survive_a_hot_swap_and_the_motion_is_the_same_on_any_thread_count() {
    let area = Area::Rect {
        min: Vec2::new(-20.0, -20.0),
        max: Vec2::new(20.0, 20.0),
    };
    let goals: BTreeMap<String, OwnPoints> = [("goal".to_owned(), OwnPoints::Random(area))].into();
    let run = |threads: usize| {
        on_threads(threads, || {
            let mut simulation = Simulation::new(&scene(goals.clone())).expect("runs");
            for _ in 0..120 {
                simulation.step(1.0 / 60.0);
            }
            simulation.vehicles().to_vec()
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));

    // An Arrival to the same own goal swapped in keeps each agent's goal.
    let mut simulation = Simulation::new(&scene(goals.clone())).expect("runs");
    let before = simulation.own(2).and_then(|own| own.goal("goal"));
    let arrival = one_arrival();
    let program = std::sync::Arc::new(compile(&arrival).expect("compiles"));
    let params = program.default_parameters();
    assert!(
        simulation
            .set_program(0, program, params)
            .expect("within the neighbor limit")
            .is_empty()
    );
    assert_eq!(simulation.own(2).and_then(|own| own.goal("goal")), before);
    for _ in 0..600 {
        simulation.step(1.0 / 60.0);
    }
    let goal = before.expect("a goal");
    assert!(
        simulation.vehicles()[2].position.distance(goal) < 0.5,
        "agent 2 arrived at its own goal {goal}: {}",
        simulation.vehicles()[2].position
    );
}

fn one_arrival() -> Graph {
    one(Node::Arrival {
        target: Target::Own("goal".to_owned()),
        slowing_distance: 3.0.into(),
    })
}

#[test]
fn own_targets_routes_and_group_goals_are_written_and_read_back_as_written() {
    let mut graph = one_arrival();
    graph.add(Node::PathFollowing {
        path: "route".to_owned(),
        prediction_time: 0.5.into(),
        ahead_distance: 2.0.into(),
        direction: PathDirection::Forward,
        corrective: false,
        own: true,
    });
    let text = graph.to_ron().expect("writes");
    assert!(text.contains("target: Own(\"goal\")"), "{text}");
    assert!(text.contains("own: true"), "{text}");
    let read = Graph::from_ron(&text, "own.graph.ron").expect("reads");
    assert_eq!(read.to_ron().expect("writes"), text);

    let goals = [
        (
            "goal".to_owned(),
            OwnPoints::Each(vec![Vec2::new(10.0, 0.0)]),
        ),
        (
            "spot".to_owned(),
            OwnPoints::Random(Area::Circle {
                center: Vec2::ZERO,
                radius: 2.0,
            }),
        ),
    ]
    .into();
    let scene = scene(goals).scene;
    let text = scene.to_ron().expect("writes");
    assert!(text.contains("\"goal\": Each(["), "{text}");
    assert!(text.contains("\"spot\": Random(Circle("), "{text}");
    let read = Scene::from_ron(&text, "own.scene.ron").expect("reads");
    assert_eq!(read, scene);
    assert_eq!(read.to_ron().expect("writes"), text);
}

#[test]
fn a_group_goal_list_without_a_point_or_with_a_bad_number_is_refused_with_its_place() {
    let text = |goals: &str| {
        format!(
            r#"(format: "steergraph.scene", version: 1,
                bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
                groups: [(name: "a", graph: "g.graph.ron",
                          spawn: Agents([(position: (0.0, 0.0))]), goals: {goals})])"#
        )
    };
    // The editor may hold an unfinished scene; running or checking it says what is wrong.
    let problems = |goals: &str| {
        Scene::from_ron(&text(goals), "s.scene.ron")
            .expect("loads")
            .validate()
    };
    assert_eq!(
        problems(r#"{"goal": Each([])}"#),
        [r#"groups[0] ("a").goals["goal"]: Each needs at least one point"#]
    );
    let far = problems(r#"{"goal": Each([(1e12, 0.0)])}"#);
    assert_eq!(far.len(), 1);
    assert!(
        far[0].starts_with(r#"groups[0] ("a").goals["goal"][0]: "#),
        "{far:?}"
    );
    assert!(far[0].contains("out of range"), "{far:?}");
    let nan = Scene::from_ron(&text(r#"{"goal": Each([(NaN, 0.0)])}"#), "s.scene.ron")
        .expect_err("a number that is not finite is refused at once")
        .to_string();
    assert!(nan.contains(r#"goals["goal"][0]"#), "{nan}");
}

/// Seek to the own goal, blended with separation: the agents read their neighbors, so the
/// crowd is kept in cell order and re-sorted every 8 ticks.
fn seek_own_apart() -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::Own("goal".to_owned()),
    });
    let apart = graph.add(Node::Separation {
        radius: 2.0.into(),
        fov: 360.0.into(),
        max_neighbors: 8.0.into(),
    });
    let blend = graph.add(Node::Blend {
        inputs: vec![
            graph_runtime::WeightedInput {
                node: Link(Some(seek)),
                weight: 1.0.into(),
            },
            graph_runtime::WeightedInput {
                node: Link(Some(apart)),
                weight: 2.0.into(),
            },
        ],
    });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    graph
}

/// 33,000 agents each with its own goal (a crowd large enough that its states' goals are
/// handed to their new slots by pointer at each re-sort, not moved with the states in
/// cycles): after three re-sorts every agent still has its own goal, and the motion is the
/// same on one thread and on two.
#[test]
fn a_large_crowd_keeps_each_agents_own_goal_through_its_re_sorts() {
    // Past the runtime's 32,768 (`simulation/layout.rs`, `HANDED_OVER_MIN_AGENTS`).
    const AGENTS: usize = 33_000;
    let area = Area::Rect {
        min: Vec2::new(-150.0, -150.0),
        max: Vec2::new(150.0, 150.0),
    };
    let goals: BTreeMap<String, OwnPoints> = [("goal".to_owned(), OwnPoints::Random(area))].into();
    let mut assets = scene(goals);
    let group = &mut assets.scene.groups[0];
    group.spawn = Spawn::Random {
        count: AGENTS as u32,
        area,
        speed: 0.0,
    };
    assets.graphs = [("seek.graph.ron".to_owned(), seek_own_apart())].into();
    let run = |threads: usize| {
        on_threads(threads, || {
            let mut simulation = Simulation::new(&assets).expect("runs");
            let goal = |simulation: &Simulation, agent: usize| {
                simulation.own(agent).and_then(|own| own.goal("goal"))
            };
            let before: Vec<Option<Vec2>> = (0..AGENTS).map(|a| goal(&simulation, a)).collect();
            assert!(before.iter().all(Option::is_some), "every agent has a goal");
            // Re-sorted at ticks 0, 8 and 16.
            for _ in 0..17 {
                simulation.step(1.0 / 60.0);
            }
            let after: Vec<Option<Vec2>> = (0..AGENTS).map(|a| goal(&simulation, a)).collect();
            assert_eq!(after, before, "{threads} threads");
            simulation.vehicles().to_vec()
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
}
