//! The bounded-work inputs (issue 28's hostile round, the stacked crowds), built once: the
//! debug tests check what they give, `examples/time_bounds.rs` times them in release
//! (`.ci/run`), so no test run by `cargo test` asserts how fast something ran.

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    AgentGroup, AgentSpawn, Area, Bindings, Comparison, Graph, Link, Node, Number, OwnPoints,
    Scene, SceneAssets, Spawn, TagTable, Target, VehicleParams, WeightedInput, World, compile,
};

/// One tick, in seconds.
pub const TICK: f32 = 1.0 / 60.0;

/// How many agents the stacked crowds hold (issue 28: 20,000 flockers on one point took
/// 3.5 s per tick).
pub const STACKED_AGENTS: u32 = 20_000;

/// `node` wired into the Output.
pub fn one(node: Node) -> Graph {
    let mut graph = Graph::default();
    let id = graph.add(node);
    graph.add(Node::Output {
        input: Link(Some(id)),
    });
    graph
}

/// One group, "crowd", spawned by `spawn` and running `graph`, in a 200 × 200 scene.
pub fn crowd_scene(spawn: Spawn, graph: Graph) -> SceneAssets {
    SceneAssets {
        scene: Scene {
            bounds: graph_runtime::Rect::new(Vec2::splat(-100.0), Vec2::splat(100.0)),
            groups: vec![AgentGroup::new("crowd", "g.graph.ron", spawn)],
            ..Scene::default()
        },
        origin: "dense.scene.ron".to_owned(),
        graphs: [("g.graph.ron".to_owned(), graph)].into(),
        flow_fields: BTreeMap::new(),
    }
}

/// [`STACKED_AGENTS`] agents at rest on the one point (3, -2), running `graph`.
pub fn stacked(graph: Graph) -> SceneAssets {
    let point = Vec2::new(3.0, -2.0);
    crowd_scene(
        Spawn::Random {
            count: STACKED_AGENTS,
            area: Area::Rect {
                min: point,
                max: point,
            },
            speed: 0.0,
        },
        graph,
    )
}

/// [`stacked`], its crowd on avoidance layer 2 avoiding only layer 1, where ten more agents
/// of priority 100 stand on the same point (the fuzzer's stacked crowd beside a VIP, issue 46):
/// every agent of the crowd has ten neighbors among 20,000.
pub fn stacked_on_layers(graph: Graph) -> SceneAssets {
    let mut assets = stacked(graph);
    let point = Vec2::new(3.0, -2.0);
    let few = Spawn::Random {
        count: 10,
        area: Area::Rect {
            min: point,
            max: point,
        },
        speed: 0.0,
    };
    let mut vip = AgentGroup::new("vip", "g.graph.ron", few);
    vip.avoidance = Some(graph_runtime::AvoidanceSettings {
        priority: 100.0,
        ..Default::default()
    });
    if let Some(crowd) = assets.scene.groups.first_mut() {
        crowd.spawn = Spawn::Random {
            count: STACKED_AGENTS - 10,
            area: Area::Rect {
                min: point,
                max: point,
            },
            speed: 0.0,
        };
        crowd.avoidance = Some(graph_runtime::AvoidanceSettings {
            layers: vec![2],
            mask: vec![1],
            ..Default::default()
        });
    }
    assets.scene.groups.insert(0, vip);
    assets
}

/// Flocking within 5 units, at most its 64 nearest.
pub fn flocking() -> Graph {
    one(Node::Flocking {
        separation_weight: 1.5.into(),
        cohesion_weight: 1.0.into(),
        alignment_weight: 1.0.into(),
        radius: 5.0.into(),
        fov: 270.0.into(),
        max_neighbors: 64.0.into(),
    })
}

/// Seek (50, 0) through Reciprocal, at most its 10 nearest.
pub fn reciprocal() -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::Point(50.0.into(), 0.0.into()),
    });
    let orca = graph.add(Node::Reciprocal {
        input: Link(Some(seek)),
        time_horizon: 2.0.into(),
        obstacle_time_horizon: 1.0.into(),
        neighbor_radius: 5.0.into(),
        max_neighbors: 10.0.into(),
        clearance: 0.0.into(),
        keep_right: 0.0.into(),
    });
    graph.add(Node::Output {
        input: Link(Some(orca)),
    });
    graph
}

/// Unaligned collision avoidance looking 1.5 s ahead.
pub fn unaligned() -> Graph {
    one(Node::UnalignedCollisionAvoidance {
        max_time: 1.5.into(),
    })
}

/// `Gate(Seek, Compare(NeighborCount(5, 360), test, threshold))`.
pub fn counting(test: Comparison, threshold: f32) -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::Point(50.0.into(), 0.0.into()),
    });
    let count = graph.add(Node::NeighborCount {
        radius: 5.0.into(),
        fov: 360.0.into(),
    });
    let crowded = graph.add(Node::Compare {
        sensor: Link(Some(count)),
        test,
        threshold: threshold.into(),
    });
    let gate = graph.add(Node::Gate {
        input: Link(Some(seek)),
        condition: Link(Some(crowded)),
    });
    graph.add(Node::Output {
        input: Link(Some(gate)),
    });
    graph
}

/// Seek the agent's own goal `name`.
pub fn seek_own(name: &str) -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::Own(name.to_owned()),
    });
    graph.add(Node::Output {
        input: Link(Some(seek)),
    });
    graph
}

/// `count` agents at rest in a 100 × 100 square, each with every goal of `goals`.
pub fn walkers(count: u32, goals: BTreeMap<String, OwnPoints>) -> AgentGroup {
    AgentGroup {
        goals,
        ..AgentGroup::new(
            "walkers",
            "seek.graph.ron",
            Spawn::Random {
                count,
                area: Area::Rect {
                    min: Vec2::new(-50.0, -50.0),
                    max: Vec2::new(50.0, 50.0),
                },
                speed: 0.0,
            },
        )
    }
}

/// `scene` with `graph` as its walkers' `seek.graph.ron`.
pub fn walkers_assets(scene: Scene, graph: Graph) -> SceneAssets {
    SceneAssets {
        scene,
        origin: "hostile.scene.ron".to_owned(),
        graphs: [("seek.graph.ron".to_owned(), graph)].into(),
        flow_fields: BTreeMap::new(),
    }
}

/// 125 walkers with 8,000 own goals each, "goal 0000" at (0, 0) to "goal 7999" at
/// (7999, 0), seeking "goal 7999" (each agent's names were a list searched from the front:
/// 32 million string comparisons per agent to set them up).
pub fn many_own_goal_names() -> SceneAssets {
    let goals: BTreeMap<String, OwnPoints> = (0..8_000)
        .map(|i| {
            (
                format!("goal {i:04}"),
                OwnPoints::Each(vec![Vec2::new(i as f32, 0.0)]),
            )
        })
        .collect();
    let scene = Scene {
        groups: vec![walkers(125, goals)],
        ..Scene::default()
    };
    walkers_assets(scene, seek_own("goal 7999"))
}

/// How many nodes the long chains hold.
pub const CHAIN_LENGTH: usize = 50_000;

fn seek_point(graph: &mut Graph) -> graph_runtime::NodeId {
    graph.add(Node::Seek {
        target: Target::Point(1.0.into(), 0.0.into()),
    })
}

/// Seek (1, 0) through a chain of [`CHAIN_LENGTH`] Reroutes (or Scales by 1), then the
/// Output: 20,000 Reroutes took 6.3 s to compile (each Reroute's type was found by walking
/// the chain to its end).
pub fn chain(reroute: bool) -> Graph {
    let mut graph = Graph::default();
    let mut at = seek_point(&mut graph);
    for _ in 0..CHAIN_LENGTH {
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
    graph
}

/// How many layers [`diamonds`] stacks.
pub const DIAMOND_LAYERS: usize = 10_000;

/// Seek, then [`DIAMOND_LAYERS`] layers each a Blend of two Reroutes of the layer before
/// (2^10,000 paths from the Output to the Seek), then the Output.
pub fn diamonds() -> Graph {
    let mut graph = Graph::default();
    let mut at = seek_point(&mut graph);
    for _ in 0..DIAMOND_LAYERS {
        let left = graph.add(Node::Reroute {
            input: Link(Some(at)),
        });
        let right = graph.add(Node::Reroute {
            input: Link(Some(at)),
        });
        at = graph.add(Node::Blend {
            inputs: vec![
                WeightedInput {
                    node: Link(Some(left)),
                    weight: 0.5.into(),
                },
                WeightedInput {
                    node: Link(Some(right)),
                    weight: 0.5.into(),
                },
            ],
        });
    }
    graph.add(Node::Output {
        input: Link(Some(at)),
    });
    graph
}

/// How many inputs the Blend of [`fan`] has.
pub const FAN_WIDTH: usize = 30_000;

/// Seek, a chain of [`FAN_WIDTH`] Reroutes and one Blend reading every Reroute of the
/// chain (weight 1 each), then the Output.
pub fn fan() -> Graph {
    let mut graph = Graph::default();
    let mut chain = seek_point(&mut graph);
    let mut inputs = Vec::new();
    for _ in 0..FAN_WIDTH {
        chain = graph.add(Node::Reroute {
            input: Link(Some(chain)),
        });
        inputs.push(WeightedInput {
            node: Link(Some(chain)),
            weight: 1.0.into(),
        });
    }
    let blend = graph.add(Node::Blend { inputs });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    graph
}

/// A graph blending Seeks at `count` distinct named targets; only the last has weight 1.
pub fn many_targets_graph(count: usize) -> Graph {
    let mut graph = Graph::default();
    let mut inputs = Vec::with_capacity(count);
    for index in 0..count {
        let seek = graph.add(Node::Seek {
            target: Target::Named(format!("t{index}")),
        });
        inputs.push(WeightedInput {
            node: Link(Some(seek)),
            weight: Number::Literal(if index + 1 == count { 1.0 } else { 0.0 }),
        });
    }
    let blend = graph.add(Node::Blend { inputs });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    graph
}

/// `names` distinct target names in one graph (built beforehand), compiled and bound to a
/// world holding each of them (before issue 10's fix, quadratic in the names: 19.5 s in
/// release for 40,000).
pub fn compile_and_bind(graph: &Graph, names: usize) {
    let program = compile(graph).expect("compiles");
    let mut world = World::default();
    for index in 0..names {
        world.set_target(&format!("t{index}"), Vec2::ZERO);
    }
    let (_, errors) = Bindings::new(&program, &world, &TagTable::default());
    assert!(errors.is_empty(), "{} errors", errors.len());
}

/// The hostile fixture `tag_nobody_carries.scene.ron` with 65,537 targets, `t0` to `t65536`,
/// all at (-10, 0) but the last, at (10, 0), and one agent at (0, 5) running
/// `last.graph.ron`: one target over the limit of names in a map.
pub fn many_targets_scene() -> Scene {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile/tag_nobody_carries.scene.ron");
    let mut scene = Scene::load(&file).expect("loads");
    let last = graph_runtime::limits::MAX_NAMES;
    for index in 0..=last {
        scene.targets.insert(
            format!("t{index}"),
            Vec2::new(if index == last { 10.0 } else { -10.0 }, 0.0),
        );
    }
    scene.groups = vec![AgentGroup::new(
        "seekers",
        "last.graph.ron",
        Spawn::Agents(vec![AgentSpawn {
            position: Vec2::new(0.0, 5.0),
            velocity: Vec2::ZERO,
        }]),
    )];
    scene
}

/// `scene` (loaded from [`many_targets_scene`] less a target) with `last.graph.ron` seeking
/// the target `t65536` by name.
pub fn seek_the_last_target(scene: Scene) -> SceneAssets {
    let graph = one(Node::Seek {
        target: Target::Named(format!("t{}", graph_runtime::limits::MAX_NAMES)),
    });
    SceneAssets {
        scene,
        origin: "many.scene.ron".into(),
        graphs: BTreeMap::from([("last.graph.ron".to_owned(), graph)]),
        flow_fields: BTreeMap::new(),
    }
}

/// The vehicle of the tagged crowds: at rest, max speed 5.
pub const FOLLOWER: VehicleParams = VehicleParams {
    mass: 1.0,
    max_force: 100.0,
    max_speed: 5.0,
    radius: 0.5,
};

/// How many followers [`followers_of_two_leaders`] holds.
pub const FOLLOWERS: u32 = 40_000;

/// Two leaders (tag "leader") at (10, 0) and (-10, 0) and [`FOLLOWERS`] untagged followers at
/// rest in a 400 × 400 square, every agent seeking the nearest other leader (reading every
/// agent for every follower was 40,000² = 1.6 billion distance tests a tick).
pub fn followers_of_two_leaders() -> SceneAssets {
    let group = |name: &str, tags: &[&str], spawn: Spawn| AgentGroup {
        vehicle: Some(FOLLOWER),
        tags: tags.iter().map(|&tag| (*tag).to_owned()).collect(),
        ..AgentGroup::new(name, "seek_leader.graph.ron", spawn)
    };
    let leaders = [Vec2::new(10.0, 0.0), Vec2::new(-10.0, 0.0)]
        .into_iter()
        .map(|position| AgentSpawn {
            position,
            velocity: Vec2::ZERO,
        })
        .collect();
    let followers = Spawn::Random {
        count: FOLLOWERS,
        area: Area::Rect {
            min: Vec2::new(-200.0, -200.0),
            max: Vec2::new(200.0, 200.0),
        },
        speed: 0.0,
    };
    let scene = Scene {
        seed: 3,
        groups: vec![
            group("leaders", &["leader"], Spawn::Agents(leaders)),
            group("followers", &[], followers),
        ],
        ..Scene::default()
    };
    let seek = one(Node::Seek {
        target: Target::NearestTagged("leader".to_owned()),
    });
    SceneAssets {
        scene,
        origin: "nearest_tagged.scene.ron".to_owned(),
        graphs: [("seek_leader.graph.ron".to_owned(), seek)].into(),
        flow_fields: BTreeMap::new(),
    }
}

/// How many levels [`deep_subgraphs`] nests.
pub const SUBGRAPH_LEVELS: usize = 40;

/// A graph using `level39.graph.ron` once, and the library it reads: `seek.graph.ron` (Seek
/// (3, 4)) and levels 0 to 39, level k blending two uses of level k-1 (of the Seek file for
/// level 0): 2^40 nodes if written out naively.
pub fn deep_subgraphs() -> (Graph, BTreeMap<String, Graph>) {
    let mut library = BTreeMap::from([(
        "seek.graph.ron".to_owned(),
        one(Node::Seek {
            target: Target::Point(3.0.into(), 4.0.into()),
        }),
    )]);
    let mut below = "seek.graph.ron".to_owned();
    for level in 0..SUBGRAPH_LEVELS {
        let mut graph = Graph::default();
        let [a, b] = [(), ()].map(|()| {
            graph.add(Node::Subgraph {
                file: below.clone(),
                parameters: BTreeMap::new(),
            })
        });
        let sum = graph.add(Node::Blend {
            inputs: [a, b]
                .map(|n| WeightedInput {
                    node: Link(Some(n)),
                    weight: Number::Literal(1.0),
                })
                .to_vec(),
        });
        graph.add(Node::Output {
            input: Link(Some(sum)),
        });
        below = format!("level{level}.graph.ron");
        library.insert(below.clone(), graph);
    }
    let user = one(Node::Subgraph {
        file: below,
        parameters: BTreeMap::new(),
    });
    (user, library)
}
