//! The worst case of every limit in `FORMAT.md`'s "Untrusted files": the input at its limit,
//! built in memory, and the time and peak memory of what a game does with it (load, compile,
//! build the simulation, one tick). Figures in `BENCHMARKS.md`.
//!
//! Run with `cargo bench -p graph-runtime --bench limits [SECTION]` (sections: `stacked`,
//! `tagged`, `nodes`, `names`, `agents`, `flow_field`, `walls_and_paths`, `own_goals`);
//! `STACKED_ONLY=Flocking` or `Reciprocal` narrows the stacked crowds, `STACKED_TIMES=1` prints
//! every tick, `STACKED_TICKS=40` ticks each crowd 40 times instead of 10 (and adds the median
//! of the ticks after the first two).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;

use glam::Vec2;
use graph_runtime::limits::{
    MAX_AGENTS, MAX_FLOW_FIELD_CELLS, MAX_NAMES, MAX_NODES, MAX_OWN_GOALS, MAX_PATH_POINTS,
    MAX_WALL_POINTS,
};
use graph_runtime::{
    AgentGroup, Area, FlowField, Graph, Link, Node, OwnPoints, Path, Rect, Scene, SceneAssets,
    Simulation, Spawn, Target, Wall, WeightedInput, compile,
};

const DT: f32 = 1.0 / 60.0;

/// Runs `work` once and prints its time and the most memory it held at once.
fn measure<T>(what: &str, work: impl FnOnce() -> T) -> T {
    let mut result = None;
    let started = Instant::now();
    let info = allocation_counter::measure(|| result = Some(work()));
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{what:<64} {:>10.1} ms {:>9.1} MiB peak",
        seconds * 1e3,
        info.bytes_max as f64 / (1024.0 * 1024.0)
    );
    result.expect("ran")
}

fn group(graph: &str, count: u32, area: Area) -> AgentGroup {
    AgentGroup::new(
        "g",
        graph,
        Spawn::Random {
            count,
            area,
            speed: 1.0,
        },
    )
}

fn square(half: f32) -> Area {
    Area::Rect {
        min: Vec2::splat(-half),
        max: Vec2::splat(half),
    }
}

fn assets_of(scene: Scene, graph: Graph) -> SceneAssets {
    SceneAssets {
        scene,
        origin: "limit.scene.ron".to_owned(),
        graphs: [("g.graph.ron".to_owned(), graph)].into(),
        flow_fields: BTreeMap::new(),
    }
}

fn one(node: Node) -> Graph {
    let mut graph = Graph::default();
    let id = graph.add(node);
    graph.add(Node::Output {
        input: Link(Some(id)),
    });
    graph
}

fn seek() -> Node {
    Node::Seek {
        target: Target::Point(1.0.into(), 0.0.into()),
    }
}

fn nodes() {
    for kind in ["Reroute chain", "Scale chain", "Blend of Seeks"] {
        let mut graph = Graph::default();
        let mut at = graph.add(seek());
        if kind == "Blend of Seeks" {
            let inputs = (0..MAX_NODES - 3)
                .map(|_| WeightedInput {
                    node: Link(Some(graph.add(seek()))),
                    weight: 1.0.into(),
                })
                .collect();
            at = graph.add(Node::Blend { inputs });
        } else {
            while graph.nodes.len() < MAX_NODES - 1 {
                let input = Link(Some(at));
                at = graph.add(if kind == "Reroute chain" {
                    Node::Reroute { input }
                } else {
                    Node::Scale {
                        input,
                        factor: 1.0.into(),
                    }
                });
            }
        }
        graph.add(Node::Output {
            input: Link(Some(at)),
        });
        let text = graph.to_ron().expect("saves");
        let parsed = measure(
            &format!(
                "{kind}: {} nodes, parse ({} MiB)",
                graph.nodes.len(),
                text.len() >> 20
            ),
            || Graph::from_ron(&text, "limit.graph.ron").expect("parses"),
        );
        measure(&format!("{kind}: compile"), || {
            compile(&parsed).expect("compiles")
        });
        let scene = Scene {
            bounds: Rect::new(Vec2::splat(-50.0), Vec2::splat(50.0)),
            groups: vec![group("g.graph.ron", 100, square(40.0))],
            ..Scene::default()
        };
        let mut simulation = Simulation::new(&assets_of(scene, parsed)).expect("runs");
        measure(&format!("{kind}: one tick of 100 agents"), || {
            simulation.step(DT);
        });
    }
}

fn names() {
    let mut text = String::from("(format: \"steergraph.graph\", version: 1, parameters: {");
    for i in 0..MAX_NAMES {
        let _ = write!(text, "\"p{i}\": 1.0, ");
    }
    text.push_str("}, nodes: {1: Seek(target: Point(\"p0\", 0.0)), 2: Output(input: 1)})");
    let graph = measure(&format!("{MAX_NAMES} graph parameters: parse"), || {
        Graph::from_ron(&text, "names.graph.ron").expect("parses")
    });
    measure(&format!("{MAX_NAMES} graph parameters: compile"), || {
        compile(&graph).expect("compiles")
    });
    let mut scene = Scene {
        bounds: Rect::new(Vec2::splat(-50.0), Vec2::splat(50.0)),
        groups: vec![group("g.graph.ron", 100, square(40.0))],
        ..Scene::default()
    };
    for i in 0..MAX_NAMES {
        scene
            .targets
            .insert(format!("t{i}"), Vec2::new(i as f32 * 1e-3, 0.0));
    }
    let text = scene.to_ron().expect("saves");
    let scene = measure(&format!("{MAX_NAMES} scene targets: parse"), || {
        Scene::from_ron(&text, "names.scene.ron").expect("parses")
    });
    let graph = one(Node::Seek {
        target: Target::Named(format!("t{}", MAX_NAMES - 1)),
    });
    measure(
        &format!("{MAX_NAMES} scene targets: build the simulation"),
        || Simulation::new(&assets_of(scene, graph)).expect("runs"),
    );
}

fn agents() {
    let scene = Scene {
        bounds: Rect::new(Vec2::splat(-2_000.0), Vec2::splat(2_000.0)),
        groups: vec![group("g.graph.ron", MAX_AGENTS as u32, square(1_900.0))],
        ..Scene::default()
    };
    let assets = assets_of(scene, one(seek()));
    let mut simulation = measure(
        &format!("{MAX_AGENTS} agents: build the simulation"),
        || Simulation::new(&assets).expect("runs"),
    );
    measure(&format!("{MAX_AGENTS} agents seeking: one tick"), || {
        simulation.step(DT);
    });
}

fn flow_field() {
    let side = (MAX_FLOW_FIELD_CELLS as f64).sqrt() as u32;
    let mut field = FlowField::new(Vec2::ZERO, 1.0, side, side);
    for (i, v) in field.vectors.iter_mut().enumerate() {
        *v = Vec2::from_angle(i as f32 * 0.001);
    }
    let text = field.to_ron().expect("saves");
    measure(
        &format!(
            "flow field {side} x {side} cells: parse ({} MiB)",
            text.len() >> 20
        ),
        || FlowField::from_ron(&text, "limit.flow.ron").expect("parses"),
    );
}

fn walls_and_paths() {
    let points = |count: usize, radius: f32| -> Vec<Vec2> {
        (0..count)
            .map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / count as f32) * radius)
            .collect()
    };
    let mut scene = Scene {
        bounds: Rect::new(Vec2::splat(-1_100.0), Vec2::splat(1_100.0)),
        groups: vec![group("g.graph.ron", 1_000, square(900.0))],
        ..Scene::default()
    };
    // 1,000 closed rings of 1,000 points each: 1,000,000 wall points.
    let rings = 1_000;
    for ring in 0..rings {
        let center = Vec2::new(
            (ring % 40) as f32 * 50.0 - 975.0,
            (ring / 40) as f32 * 70.0 - 875.0,
        );
        let ring_points = points(MAX_WALL_POINTS / rings, 10.0)
            .into_iter()
            .map(|p| p + center)
            .collect();
        scene.walls.push(Wall::polygon(ring_points));
    }
    let text = scene.to_ron().expect("saves");
    let scene = measure(
        &format!(
            "{MAX_WALL_POINTS} wall points: parse ({} MiB)",
            text.len() >> 20
        ),
        || Scene::from_ron(&text, "walls.scene.ron").expect("parses"),
    );
    let graph = one(Node::WallAvoidance {
        min_length: 2.0.into(),
        lookahead_time: 1.0.into(),
        whisker_angle: 40.0.into(),
        margin: 0.5.into(),
    });
    let assets = assets_of(scene, graph);
    let mut simulation = measure(
        &format!("{MAX_WALL_POINTS} wall points: build the world and 1,000 agents"),
        || Simulation::new(&assets).expect("runs"),
    );
    measure(
        "1,000 agents with WallAvoidance among them: one tick",
        || simulation.step(DT),
    );

    let mut scene = Scene {
        bounds: Rect::new(Vec2::splat(-1_100.0), Vec2::splat(1_100.0)),
        groups: vec![group("g.graph.ron", 100, square(900.0))],
        ..Scene::default()
    };
    scene.paths.insert(
        "long".to_owned(),
        Path {
            points: points(MAX_PATH_POINTS, 1_000.0),
            radius: 2.0,
            closed: true,
        },
    );
    let text = scene.to_ron().expect("saves");
    let scene = measure(
        &format!(
            "path of {MAX_PATH_POINTS} points: parse ({} MiB)",
            text.len() >> 20
        ),
        || Scene::from_ron(&text, "path.scene.ron").expect("parses"),
    );
    let graph = one(Node::PathFollowing {
        path: "long".to_owned(),
        prediction_time: 0.5.into(),
        ahead_distance: 2.0.into(),
        direction: graph_runtime::PathDirection::Forward,
        corrective: false,
        own: false,
    });
    let mut simulation = Simulation::new(&assets_of(scene, graph)).expect("runs");
    measure(
        "100 agents following it: one tick (a projection scans every segment)",
        || simulation.step(DT),
    );
}

fn own_goals() {
    let names = 1_000;
    let agents = (MAX_OWN_GOALS / names) as u32;
    let goals = (0..names)
        .map(|i| (format!("goal {i}"), OwnPoints::Random(square(100.0))))
        .collect();
    let mut g = group("g.graph.ron", agents, square(100.0));
    g.goals = goals;
    let scene = Scene {
        bounds: Rect::new(Vec2::splat(-200.0), Vec2::splat(200.0)),
        groups: vec![g],
        ..Scene::default()
    };
    let graph = one(Node::Seek {
        target: Target::Own("goal 999".to_owned()),
    });
    let assets = assets_of(scene, graph);
    let mut simulation = measure(
        &format!("{MAX_OWN_GOALS} own goals ({agents} agents x {names} names): build"),
        || Simulation::new(&assets).expect("runs"),
    );
    measure("their agents seeking one of them: one tick", || {
        simulation.step(DT);
    });
}

/// Crowds stacked on one point (issue 28's dense-crowd targets: 20,000 in under 20 ms per tick
/// on 2 threads, 100,000 in under 100 ms), flocking and with Reciprocal: the fastest and the
/// slowest of the first 10 ticks (the first tick builds the per-tick k-d tree from a single
/// point; the crowd then spreads).
fn stacked() {
    let flocking = one(Node::Flocking {
        separation_weight: 1.5.into(),
        cohesion_weight: 1.0.into(),
        alignment_weight: 1.0.into(),
        radius: 5.0.into(),
        fov: 270.0.into(),
        max_neighbors: 64.0.into(),
    });
    let mut reciprocal = Graph::default();
    let seek = reciprocal.add(seek());
    let orca = reciprocal.add(Node::Reciprocal {
        input: Link(Some(seek)),
        time_horizon: 2.0.into(),
        obstacle_time_horizon: 1.0.into(),
        neighbor_radius: 5.0.into(),
        max_neighbors: 10.0.into(),
        clearance: 0.0.into(),
        keep_right: 0.0.into(),
    });
    reciprocal.add(Node::Output {
        input: Link(Some(orca)),
    });
    for (name, graph) in [
        ("Flocking (64 neighbors)", flocking),
        ("Reciprocal (10 neighbors)", reciprocal),
    ] {
        if std::env::var("STACKED_ONLY").is_ok_and(|only| !name.starts_with(&only)) {
            continue;
        }
        for count in [20_000_u32, 100_000] {
            let point = Vec2::new(3.0, -2.0);
            let scene = Scene {
                bounds: Rect::new(Vec2::splat(-500.0), Vec2::splat(500.0)),
                groups: vec![group(
                    "g.graph.ron",
                    count,
                    Area::Rect {
                        min: point,
                        max: point,
                    },
                )],
                ..Scene::default()
            };
            let mut simulation = Simulation::new(&assets_of(scene, graph.clone())).expect("runs");
            let mut times = Vec::new();
            let ticks: usize = std::env::var("STACKED_TICKS")
                .ok()
                .and_then(|t| t.parse().ok())
                .unwrap_or(10);
            for _ in 0..ticks {
                let started = Instant::now();
                simulation.step(DT);
                times.push(started.elapsed().as_secs_f64() * 1e3);
            }
            let fastest = times.iter().copied().fold(f64::INFINITY, f64::min);
            let slowest = times.iter().copied().fold(0.0, f64::max);
            if std::env::var_os("STACKED_TIMES").is_some() {
                let spread = simulation
                    .vehicles()
                    .iter()
                    .map(|v| v.position.distance(point))
                    .fold(0.0, f32::max);
                println!("{times:.1?}, spread {spread}");
            }
            let mut settled = times.get(2..).unwrap_or_default().to_vec();
            settled.sort_by(f64::total_cmp);
            let median = settled.get(settled.len() / 2).copied().unwrap_or(f64::NAN);
            println!(
                "{name}, {count} agents stacked on one point: tick {fastest:.1} ms fastest, {slowest:.1} ms slowest of {ticks} (first {:.1} ms, median after the first two {median:.1} ms)",
                times[0]
            );
        }
    }
}

/// Crowds following the nearest tagged agent: 10,000 and 40,000 followers of 2 leaders, and
/// 10,000 followers of 1,000 leaders, each follower a Seek of `NearestTagged("leader")`; the
/// median of 10 ticks. In the same run, the same crowds seeking a fixed point instead: what a
/// tick of these agents costs without looking for anyone (the floor).
fn tagged() {
    let seek_leader = one(Node::Seek {
        target: Target::NearestTagged("leader".to_owned()),
    });
    for (followers, leaders) in [
        (10_000_u32, 2_u32),
        (40_000, 2),
        (10_000, 1_000),
        (40, 40_000),
    ] {
        for (what, graph) in [
            ("nearest leader", seek_leader.clone()),
            ("a fixed point (floor)", one(seek())),
        ] {
            let mut leader_group = group("g.graph.ron", leaders, square(200.0));
            "leaders".clone_into(&mut leader_group.name);
            leader_group.tags = vec!["leader".to_owned()];
            let scene = Scene {
                bounds: Rect::new(Vec2::splat(-500.0), Vec2::splat(500.0)),
                groups: vec![leader_group, group("g.graph.ron", followers, square(200.0))],
                ..Scene::default()
            };
            let mut simulation = Simulation::new(&assets_of(scene, graph)).expect("runs");
            let mut times: Vec<f64> = (0..10)
                .map(|_| {
                    let started = Instant::now();
                    simulation.step(DT);
                    started.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(f64::total_cmp);
            println!(
                "{followers} followers of {leaders} leaders seeking {what}: median tick {:.2} ms (fastest {:.2}, slowest {:.2})",
                times[5], times[0], times[9]
            );
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument picks sections by name.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let sections: [(&str, fn()); 8] = [
        ("stacked", stacked),
        ("tagged", tagged),
        ("nodes", nodes),
        ("names", names),
        ("agents", agents),
        ("flow_field", flow_field),
        ("walls_and_paths", walls_and_paths),
        ("own_goals", own_goals),
    ];
    println!("{} worker threads", rayon::current_num_threads());
    for (name, section) in sections {
        if filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str())) {
            section();
        }
    }
}
