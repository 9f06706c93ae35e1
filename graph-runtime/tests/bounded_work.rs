//! Work and memory bounded by the input's size (issue 28): each test builds a file of the
//! hostile round's kind in memory, and the load, compile or tick must finish in a few seconds
//! or be refused with a message naming the limit.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use glam::Vec2;
use graph_runtime::{
    AgentGroup, Area, Graph, Link, Node, OwnPoints, Scene, SceneAssets, Simulation, Spawn, Target,
};

/// A debug build is 10 to 30 times slower than release; this still leaves the old quadratic
/// behavior (minutes) far outside.
const FEW_SECONDS: Duration = Duration::from_secs(10);

fn seek_own(name: &str) -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::Own(name.to_owned()),
    });
    graph.add(Node::Output {
        input: Link(Some(seek)),
    });
    graph
}

fn group(count: u32, goals: BTreeMap<String, OwnPoints>) -> AgentGroup {
    AgentGroup {
        name: "walkers".to_owned(),
        graph: "seek.graph.ron".to_owned(),
        spawn: Spawn::Random {
            count,
            area: Area::Rect {
                min: Vec2::new(-50.0, -50.0),
                max: Vec2::new(50.0, 50.0),
            },
            speed: 0.0,
        },
        vehicle: None,
        tags: Vec::new(),
        parameters: BTreeMap::new(),
        goals,
        turning: None,
    }
}

fn assets(scene: Scene, graph: Graph) -> SceneAssets {
    SceneAssets {
        scene,
        origin: "hostile.scene.ron".to_owned(),
        graphs: [("seek.graph.ron".to_owned(), graph)].into(),
        flow_fields: BTreeMap::new(),
    }
}

/// 125 agents with 8,000 goal names each: each agent's names were a list searched from the
/// front, 32 million string comparisons per agent to set them up (about 20 s for the scene in
/// a debug build); now a table by name.
#[test]
fn many_own_goal_names_set_up_in_n_log_n() {
    let goals: BTreeMap<String, OwnPoints> = (0..8_000)
        .map(|i| {
            (
                format!("goal {i:04}"),
                OwnPoints::Each(vec![Vec2::new(i as f32, 0.0)]),
            )
        })
        .collect();
    let scene = Scene {
        groups: vec![group(125, goals)],
        ..Scene::default()
    };
    let started = Instant::now();
    let mut simulation = Simulation::new(&assets(scene, seek_own("goal 7999"))).expect("builds");
    simulation.step(1.0 / 60.0);
    assert!(
        started.elapsed() < FEW_SECONDS,
        "took {:?}",
        started.elapsed()
    );
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
    let started = Instant::now();
    let errors = Simulation::new(&assets(scene, seek_own("g0"))).expect_err("over the limit");
    let text = errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        text.contains("10000000 own goals") && text.contains("4000000"),
        "{text}"
    );
    assert!(started.elapsed() < FEW_SECONDS);
}

/// A graph of `shape`, ending in an Output: compile it and return how long that took.
fn compile_time(graph: &Graph) -> Duration {
    let started = Instant::now();
    let program = graph_runtime::compile(graph);
    let took = started.elapsed();
    assert!(program.is_ok(), "{:?}", program.err().map(|e| e.len()));
    took
}

fn seek(graph: &mut Graph) -> graph_runtime::NodeId {
    graph.add(Node::Seek {
        target: Target::Point(1.0.into(), 0.0.into()),
    })
}

/// The hostile round's chains: 20,000 Reroutes took 6.3 s (n^2.5: each Reroute's type was
/// found by walking the chain to its end); 50,000 of each kind now compile in a few seconds.
#[test]
fn long_chains_of_reroutes_and_scales_compile_in_near_linear_time() {
    for reroute in [true, false] {
        let mut graph = Graph::default();
        let mut at = seek(&mut graph);
        for _ in 0..50_000 {
            let input = Link(Some(at));
            at = graph.add(if reroute {
                Node::Reroute { input }
            } else {
                Node::Scale {
                    input,
                    factor: 1.0.into(),
                }
            });
        }
        graph.add(Node::Output {
            input: Link(Some(at)),
        });
        let took = compile_time(&graph);
        assert!(took < FEW_SECONDS, "chain (reroute: {reroute}): {took:?}");
    }
}

/// Diamonds (each layer a Blend of two Reroutes of the layer before: 2^n paths) and a fan
/// (one node read through 30,000 Reroutes by one Blend): the shapes that multiply walks.
#[test]
fn diamonds_and_fans_compile_in_near_linear_time() {
    let mut graph = Graph::default();
    let mut at = seek(&mut graph);
    for _ in 0..10_000 {
        let left = graph.add(Node::Reroute {
            input: Link(Some(at)),
        });
        let right = graph.add(Node::Reroute {
            input: Link(Some(at)),
        });
        at = graph.add(Node::Blend {
            inputs: vec![
                graph_runtime::WeightedInput {
                    node: Link(Some(left)),
                    weight: 0.5.into(),
                },
                graph_runtime::WeightedInput {
                    node: Link(Some(right)),
                    weight: 0.5.into(),
                },
            ],
        });
    }
    graph.add(Node::Output {
        input: Link(Some(at)),
    });
    let took = compile_time(&graph);
    assert!(took < FEW_SECONDS, "diamonds: {took:?}");

    let mut graph = Graph::default();
    let source = seek(&mut graph);
    let mut chain = source;
    let mut inputs = Vec::new();
    for _ in 0..30_000 {
        chain = graph.add(Node::Reroute {
            input: Link(Some(chain)),
        });
        inputs.push(graph_runtime::WeightedInput {
            node: Link(Some(chain)),
            weight: 1.0.into(),
        });
    }
    let blend = graph.add(Node::Blend { inputs });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    let took = compile_time(&graph);
    assert!(took < FEW_SECONDS, "fan of a chain: {took:?}");
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
    let started = Instant::now();
    let peak = allocation_counter::measure(|| {
        let simulation = Simulation::new(&assets(scene, seek_own("goal"))).expect("builds");
        assert_eq!(simulation.world().walls().len(), 2);
    })
    .bytes_max;
    assert!(peak < 16 * 1024 * 1024, "peak {peak} bytes");
    assert!(started.elapsed() < FEW_SECONDS);
}
