//! Work and memory bounded by the input's size (issue 28): each test builds a file of the
//! hostile round's kind in memory (`workloads/`), and checks what the load, compile or tick
//! gives, the memory it holds, or that it is refused with a message naming the limit. How long
//! the large ones take is a release check, `examples/time_bounds.rs` (`.ci/run`): a debug
//! build on a busy machine says nothing about speed.

#[expect(dead_code, reason = "each test file uses the workloads it checks")]
mod workloads;

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{Graph, OwnPoints, Scene, Simulation};
use workloads::{
    CHAIN_LENGTH, DIAMOND_LAYERS, TICK, seek_own, walkers as group, walkers_assets as assets,
};

const MIB: u64 = 1024 * 1024;

/// 125 agents with 8,000 goal names each: each agent's names were a list searched from the
/// front, 32 million string comparisons per agent to set them up (about 20 s for the scene in
/// a debug build); now a table by name, which `examples/time_bounds.rs` times.
#[test]
fn many_own_goal_names_are_set_up_for_every_agent() {
    let mut simulation = Simulation::new(&workloads::many_own_goal_names()).expect("builds");
    simulation.step(TICK);
    // Every agent has every name, the one its graph reads included: it seeks (7999, 0).
    let own = simulation.own(7).expect("agent 7");
    assert_eq!(own.goals().count(), 8_000);
    assert_eq!(own.goal("goal 7999"), Some(Vec2::new(7999.0, 0.0)));
    assert_eq!(own.goal("goal 8000"), None);
}

/// Agents × goal names is a product of inputs: refused before any table is made.
#[test]
fn more_own_goals_than_the_limit_are_refused_before_allocating() {
    let goals: BTreeMap<String, OwnPoints> = (0..1_000)
        .map(|i| (format!("g{i}"), OwnPoints::Each(vec![Vec2::ZERO])))
        .collect();
    let scene = Scene {
        groups: vec![group(10_000, goals)],
        ..Scene::default()
    };
    let assets = assets(scene, seek_own("g0"));
    let mut result = None;
    let held = allocation_counter::measure(|| result = Some(Simulation::new(&assets))).bytes_max;
    let errors = result.expect("ran").expect_err("over the limit");
    let text = errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        text.contains("10000000 own goals") && text.contains("4000000"),
        "{text}"
    );
    // The refusal holds its message (576 bytes, measured); a table of the 10,000,000 goals
    // would hold at least their points, 8 bytes each: 80 MB.
    assert!(held < 64 * 1024, "{held} bytes held before refusing");
}

/// How many ops `graph` compiles to (a Reroute makes none: its readers read its source).
fn compiled_ops(graph: &Graph) -> usize {
    let program = graph_runtime::compile(graph);
    assert!(program.is_ok(), "{:?}", program.err().map(|e| e.len()));
    program.map_or(0, |program| program.len())
}

/// The hostile round's chains: 20,000 Reroutes took 6.3 s (n^2.5: each Reroute's type was
/// found by walking the chain to its end); 50,000 of each kind compile, in time
/// `examples/time_bounds.rs` checks in release.
#[test]
fn long_chains_of_reroutes_and_scales_compile() {
    // Seek and Output; the Reroutes make no op, each Scale one.
    assert_eq!(compiled_ops(&workloads::chain(true)), 2);
    assert_eq!(compiled_ops(&workloads::chain(false)), CHAIN_LENGTH + 2);
}

/// Diamonds (each layer a Blend of two Reroutes of the layer before: 2^n paths) and a fan
/// (one node read through 30,000 Reroutes by one Blend): the shapes that multiply walks.
#[test]
fn diamonds_and_fans_compile() {
    // Seek, one Blend a layer, Output.
    assert_eq!(compiled_ops(&workloads::diamonds()), DIAMOND_LAYERS + 2);
    // Seek, the Blend, Output.
    assert_eq!(compiled_ops(&workloads::fan()), 3);
}

/// A closed path of two points runs a → b → a over the same segment twice. The projection's
/// documented rule (the first segment wins ties) must hold for every point, but the second
/// segment's nearest point, computed from b, rounded differently from the first's and often
/// won by a hair: agents then read an arc length on the way back, after about 2 s.
#[test]
fn a_closed_two_point_path_projects_onto_its_first_segment_on_the_tie() {
    let path = graph_runtime::Path {
        points: vec![Vec2::new(-7.3, 1.9), Vec2::new(11.7, -4.1)],
        radius: 1.0,
        closed: true,
    };
    let first_length = path.points[0].distance(path.points[1]);
    let mut second = 0;
    for i in 0..100 {
        for j in 0..100 {
            let point = Vec2::new(-20.0 + i as f32 * 0.37, -15.0 + j as f32 * 0.29);
            let projection = path.project(point).expect("usable");
            if projection.distance_along > first_length {
                second += 1;
            }
        }
    }
    assert_eq!(
        second, 0,
        "{second} of 10,000 points projected onto the way back"
    );
}

/// Walls about 1e-27 long and 3e-23 apart (ordinary finite numbers) made the wall grid ask
/// for 30,000 × 30,000 cells, twice (about 7 GB), and a game loading the level died. The
/// grid's cells are now bounded by the segment count: the whole scene builds in a few MB.
#[test]
fn a_scene_with_walls_of_tiny_extent_builds_in_bounded_memory() {
    let scene = Scene::from_ron(
        r#"(format: "steergraph.scene", version: 1,
            bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
            walls: [(points: [(0.0, 0.0), (1e-27, 0.0)]),
                    (points: [(3e-23, 3e-23), (3.0000001e-23, 3e-23)])],
            groups: [])"#,
        "tiny.scene.ron",
    )
    .expect("ordinary finite numbers parse");
    let peak = allocation_counter::measure(|| {
        let simulation = Simulation::new(&assets(scene, seek_own("goal"))).expect("builds");
        assert_eq!(simulation.world().walls().len(), 2);
    })
    .bytes_max;
    assert!(peak < 16 * MIB, "peak {peak} bytes");
}

/// Agents × neighbors kept is bounded before any tick runs (issue 46: Separation keeping
/// 4,096 neighbors took 2.9 s a tick for 20,000 stacked agents and 18.6 s for 100,000, and
/// nothing refused it). 40,000 agents × 4,096 = 163,840,000 is over the 128,000,000 limit and
/// refused, naming the numbers; 30,000 × 4,096 = 122,880,000 builds.
#[test]
fn agents_times_neighbors_kept_is_bounded_before_a_tick() {
    let separation = |most: f32| {
        workloads::one(graph_runtime::Node::Separation {
            radius: 2.0.into(),
            fov: 360.0.into(),
            max_neighbors: most.into(),
        })
    };
    let spread = |count: u32| graph_runtime::Spawn::Random {
        count,
        area: graph_runtime::Area::Rect {
            min: Vec2::splat(-90.0),
            max: Vec2::splat(90.0),
        },
        speed: 0.0,
    };
    let Err(errors) = Simulation::new(&workloads::crowd_scene(spread(40_000), separation(4_096.0)))
    else {
        panic!("40,000 × 4,096 is refused");
    };
    let message = errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        message.contains(
            "the agents would keep up to 163840000 neighbors a tick (group \"crowd\": 40000 agents × 4096;"
        ) && message.contains("the limit is 128000000"),
        "{message}"
    );
    assert!(Simulation::new(&workloads::crowd_scene(spread(30_000), separation(4_096.0))).is_ok());
    // The default 64 neighbors is far from it: 40,000 × 64 = 2,560,000.
    let mut simulation =
        Simulation::new(&workloads::crowd_scene(spread(40_000), separation(64.0))).expect("runs");
    // The editor's hot swap of the same group to 4,096 neighbors is refused the same way (it
    // was run, and the preview froze), and the group keeps its program: 64 neighbors.
    let swap = |most: f32| {
        let program =
            std::sync::Arc::new(graph_runtime::compile(&separation(most)).expect("compiles"));
        let params = program.parameters(&BTreeMap::new()).expect("no overrides");
        (program, params)
    };
    let (program, params) = swap(4_096.0);
    let error = simulation
        .set_program(0, program, params)
        .expect_err("40,000 × 4,096 is refused");
    assert_eq!(error.total, 163_840_000);
    assert_eq!(error.groups, [("crowd".to_owned(), 40_000, 4_096)]);
    let kept = &simulation.groups()[0];
    assert_eq!(kept.program.neighbor_work(&kept.params), 64);
    let (program, params) = swap(3_000.0);
    let bind_errors = simulation
        .set_program(0, program, params)
        .expect("120,000,000 fits");
    assert!(bind_errors.is_empty());
}

/// Agents × the points of the paths they follow is bounded before any tick runs (issue 46's
/// review: each `PathFollowing` agent projects itself onto every segment of its path each
/// tick, and the point and agent limits allowed 10^12 projections a tick). 1,000 agents on an
/// open path of 200,000 points (199,999 segments) = 199,999,000, over the 128,000,000 limit:
/// refused, naming the numbers; 600 agents = 119,999,400 build; a hot swap to a graph
/// following it is refused the same way.
#[test]
fn agents_times_path_points_followed_is_bounded_before_a_tick() {
    let follow = follower("long", false);
    let scene = |count: u32, graph: Graph| {
        let mut assets = workloads::crowd_scene(
            graph_runtime::Spawn::Random {
                count,
                area: graph_runtime::Area::Rect {
                    min: Vec2::splat(-90.0),
                    max: Vec2::splat(90.0),
                },
                speed: 0.0,
            },
            graph,
        );
        let points = (0..200_000).map(|i| Vec2::new(-90.0 + i as f32 * 9e-4, 0.0));
        let long = graph_runtime::Path {
            points: points.collect(),
            radius: 1.0,
            closed: false,
        };
        assets.scene.paths.insert("long".to_owned(), long);
        assets
    };
    let Err(errors) = Simulation::new(&scene(1_000, follow.clone())) else {
        panic!("1,000 × 199,999 is refused");
    };
    let message: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        message.iter().any(|m| m.contains(
            "the agents would project themselves onto 199999000 path segments a tick (group \"crowd\": 1000 agents × 199999;"
        ) && m.contains("the limit is 128000000")),
        "{message:?}"
    );
    assert!(Simulation::new(&scene(600, follow.clone())).is_ok());
    // The same 1,000 agents seeking build, and may not be swapped to the follower.
    let seek = workloads::one(graph_runtime::Node::Seek {
        target: graph_runtime::Target::Point(0.0.into(), 0.0.into()),
    });
    let mut simulation = Simulation::new(&scene(1_000, seek)).expect("seekers build");
    let program = std::sync::Arc::new(graph_runtime::compile(&follow).expect("compiles"));
    let params = program.parameters(&BTreeMap::new()).expect("no overrides");
    let error = simulation
        .set_program(0, program, params)
        .expect_err("1,000 × 199,999 is refused");
    assert_eq!(error.work, graph_runtime::Work::PathSegments);
    assert_eq!(error.total, 199_999_000);
}

/// Agents × the corners of the level's gaps is bounded the same way (issue 46's review: a
/// walking agent inside a gap's box tests every corner each tick, and the corner and agent
/// limits allowed 10^12 tests a tick). 1,000 agents by a gap of 200,000 corners =
/// 200,000,000: refused, naming the numbers; 600 agents = 120,000,000 build.
#[test]
fn agents_times_gap_corners_is_bounded_before_a_tick() {
    let scene = |count: u32| {
        let mut assets = workloads::crowd_scene(
            graph_runtime::Spawn::Random {
                count,
                area: graph_runtime::Area::Rect {
                    min: Vec2::splat(-90.0),
                    max: Vec2::splat(-50.0),
                },
                speed: 0.0,
            },
            workloads::one(graph_runtime::Node::Seek {
                target: graph_runtime::Target::Point(0.0.into(), 0.0.into()),
            }),
        );
        let corners = (0..200_000).map(|i| Vec2::from_angle(i as f32 * 3.14e-5) * 30.0);
        (assets.scene.gaps).push(graph_runtime::Gap::new(corners.collect()));
        assets
    };
    let Err(errors) = Simulation::new(&scene(1_000)) else {
        panic!("1,000 × 200,000 is refused");
    };
    let message: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        message.iter().any(|m| m.contains(
            "the agents could test up to 200000000 gap corners a tick (group \"crowd\": 1000 agents × 200000;"
        ) && m.contains("the limit is 128000000")),
        "{message:?}"
    );
    assert!(Simulation::new(&scene(600)).is_ok());
}

/// A game's crowd is held to the same limit (issue 46: the `Crowd` API ran any product): 31,250
/// agents × 4,096 neighbors is exactly 128,000,000, within it; one agent more is refused,
/// naming the group by its number, its agents and the neighbors each keeps. Agents the game
/// put in a second group count in that group's share.
#[test]
fn a_crowds_agents_times_neighbors_kept_is_bounded_too() {
    let program = |most: f32| {
        let graph = workloads::one(graph_runtime::Node::Separation {
            radius: 2.0.into(),
            fov: 360.0.into(),
            max_neighbors: most.into(),
        });
        std::sync::Arc::new(graph_runtime::compile(&graph).expect("compiles"))
    };
    let world = graph_runtime::World::default();
    let mut crowd =
        graph_runtime::Crowd::new(program(4_096.0), &world, 1, &BTreeMap::new()).expect("binds");
    assert!(crowd.check_work(&world, 31_250).is_ok());
    let error = crowd
        .check_work(&world, 31_251)
        .expect_err("one more is refused");
    assert_eq!(error.total, 128_004_096);
    assert_eq!(error.groups, [("0".to_owned(), 31_251, 4_096)]);
    assert!(
        error
            .to_string()
            .contains("group \"0\": 31251 agents × 4096")
            && error.to_string().contains("the limit is 128000000"),
        "{error}"
    );
    // Agent 0 runs a second program keeping 64: 31,250 × 4,096 + 64 is over the limit too.
    let second = crowd
        .add_program(program(64.0), &world, &BTreeMap::new())
        .expect("binds");
    assert!(crowd.set_group(0, second));
    let error = crowd.check_work(&world, 31_251).expect_err("still over");
    assert_eq!(error.total, 31_250 * 4_096 + 64);
    assert_eq!(
        error.groups,
        [("0".to_owned(), 31_250, 4_096), ("1".to_owned(), 1, 64)]
    );
    // 20,000 of them keeping 64: 11,251 × 4,096 + 20,000 × 64 = 47,364,096, within the limit,
    // although 31,251 agents each keeping the most any group keeps would not be: counted.
    for agent in 1..20_000 {
        assert!(crowd.set_group(agent, second));
    }
    assert!(crowd.check_work(&world, 31_251).is_ok());
}

/// The crowd holds itself to the limit too (issue 46: only a game that called `check_work`
/// was held): a step of 31,251 agents keeping 4,096 neighbors each is refused before any work,
/// the vehicles untouched and `refusal` naming the numbers; the steering of such a tick is
/// zero for every agent. With 31,250 (exactly the limit) the same crowd steps, and the
/// refusal is gone.
#[test]
fn a_crowd_refuses_a_step_over_the_work_limit_and_says_why() {
    let graph = workloads::one(graph_runtime::Node::Separation {
        radius: 2.0.into(),
        fov: 360.0.into(),
        max_neighbors: 4_096.0.into(),
    });
    let program = std::sync::Arc::new(graph_runtime::compile(&graph).expect("compiles"));
    let world = graph_runtime::World::default();
    let mut crowd = graph_runtime::Crowd::new(program, &world, 1, &BTreeMap::new()).expect("binds");
    let params = crowd.vehicle_params();
    // 10 apart on a grid, each moving at 1 u/s along +x: no neighbor within 2.
    let mut vehicles: Vec<graph_runtime::Vehicle> = (0..31_251_u32)
        .map(|i| {
            let at = Vec2::new((i % 200) as f32 * 10.0, (i / 200) as f32 * 10.0);
            graph_runtime::Vehicle::new(at, Vec2::new(1.0, 0.0), params)
        })
        .collect();
    let before: Vec<Vec2> = vehicles.iter().map(|v| v.position).collect();
    crowd.step(&world, &mut vehicles, &[], 0.5);
    assert!(
        vehicles.iter().zip(&before).all(|(v, b)| v.position == *b),
        "nothing moved"
    );
    let refusal = crowd.refusal().expect("refused");
    assert_eq!(refusal.total, 128_004_096);
    assert_eq!(refusal.groups, [("0".to_owned(), 31_251, 4_096)]);
    let mut steering = Vec::new();
    crowd.steering(&world, &vehicles, &[], 0.5, &mut steering);
    assert_eq!(steering.len(), 31_251);
    assert!(steering.iter().all(|s| *s == graph_runtime::Steering::ZERO));
    assert!(crowd.refusal().is_some());
    // One fewer: within the limit, it steps (0.5 s at 1 u/s along +x) and the refusal clears.
    vehicles.pop();
    crowd.step(&world, &mut vehicles, &[], 0.5);
    assert!(crowd.refusal().is_none());
    assert_eq!(vehicles[0].position, Vec2::new(0.5, 0.0));
    assert_eq!(vehicles[31_249].position, Vec2::new(490.5, 1_560.0));
}

/// The points of a game's own routes count in the path work too (issue 46's review: they were
/// not bounded, each up to 1,000,000 points and set per agent). 1,000 agents follow a world
/// path of 127,001 points (127,000 segments each: 127,000,000), so routes of 1,000,000 points
/// more reach the 128,000,000 limit exactly; one point more is over it, named. The crowd keeps
/// the count as routes are set, replaced, cleared and moved out and in with the agents.
#[test]
fn a_crowds_own_route_points_count_in_the_path_work() {
    let graph = follower("long", false);
    let program = std::sync::Arc::new(graph_runtime::compile(&graph).expect("compiles"));
    let line = |count: usize| -> Vec<Vec2> {
        (0..count)
            .map(|i| Vec2::new(i as f32 * 1e-3, 0.0))
            .collect()
    };
    let mut world = graph_runtime::World::default();
    let long = graph_runtime::Path {
        points: line(127_001),
        radius: 1.0,
        closed: false,
    };
    world.set_path("long", long);
    let mut crowd = graph_runtime::Crowd::new(program, &world, 1, &BTreeMap::new()).expect("binds");
    // A second group follows its own route "mine" (a route no graph reads is refused).
    let own = follower("mine", true);
    let own = std::sync::Arc::new(graph_runtime::compile(&own).expect("compiles"));
    crowd
        .add_program(own, &world, &BTreeMap::new())
        .expect("binds");
    assert!(crowd.check_work(&world, 1_000).is_ok());
    crowd
        .set_route(0, "mine", line(999_999), 1.0)
        .expect("a route");
    // Replaced by one a point longer: 1,000,000 points, not 1,999,999.
    crowd
        .set_route(0, "mine", line(1_000_000), 1.0)
        .expect("a route");
    assert!(crowd.check_work(&world, 1_000).is_ok(), "exactly the limit");
    crowd.set_route(1, "mine", line(1), 1.0).expect("a route");
    let error = crowd.check_work(&world, 1_000).expect_err("one point over");
    assert_eq!(error.work, graph_runtime::Work::PathSegments);
    assert_eq!(
        (error.total, error.own_route_points),
        (128_000_001, 1_000_001)
    );
    assert!(
        error
            .to_string()
            .contains("(group \"0\": 1000 agents × 127000, and their own routes' 1000001 points;"),
        "{error}"
    );
    crowd.clear_route(1, "mine");
    assert!(crowd.check_work(&world, 1_000).is_ok());
    // Agent 1 moved out with a route of 5 points of its own, and back in.
    let mut state =
        graph_runtime::AgentState::new(&graph_runtime::compile(&graph).expect("compiles"), 1, 1);
    state.own.set_route(
        "mine",
        graph_runtime::Path {
            points: line(5),
            radius: 1.0,
            closed: false,
        },
    );
    let mut kept = graph_runtime::CrowdAgent::new(state);
    assert!(crowd.swap_agent(1, &mut kept));
    assert!(
        crowd.check_work(&world, 1_000).is_err(),
        "its 5 points came in"
    );
    assert!(crowd.swap_agent(1, &mut kept));
    assert!(
        crowd.check_work(&world, 1_000).is_ok(),
        "and went out again"
    );
    let mut steering = Vec::new();
    let vehicles =
        vec![graph_runtime::Vehicle::new(Vec2::ZERO, Vec2::ZERO, crowd.vehicle_params()); 1_000];
    crowd.steering(&world, &vehicles, &[], 0.1, &mut steering);
    assert!(crowd.refusal().is_none());
}

/// `Output(PathFollowing(path))`: the world's path `path`, or with `own` the agent's own route
/// of that name.
fn follower(path: &str, own: bool) -> Graph {
    workloads::one(graph_runtime::Node::PathFollowing {
        path: path.into(),
        prediction_time: 0.5.into(),
        ahead_distance: 2.0.into(),
        direction: graph_runtime::PathDirection::Forward,
        corrective: false,
        own,
    })
}
