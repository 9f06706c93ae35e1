//! The generated corpus of stuck scenes (issue 45): five scenes per cause a diagnosis names,
//! each a small level whose `subject` group gets stuck for that cause, written to
//! `tests/stuck/` by `cargo run -p tests --example stuck_corpus -- write` and checked against
//! this generator by `tests/stuck_corpus.rs`. Other groups (a crowd pressing, agents holding a
//! place) set the scene; the subject's stuck agents are diagnosed and fixed.

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    AgentGroup, AgentSpawn, Graph, Link, Node, NodeId, OwnPoints, Rect, Scene, SceneAssets, Spawn,
    Target, VehicleSpec, Wall, WeightedInput,
};

/// One scene of the corpus and the cause its subject is stuck for.
#[derive(Clone, Debug)]
pub struct StuckScene {
    /// The file name's stem (`head_on_1`).
    pub name: String,
    /// The cause, as [`graph_runtime::diagnose::Cause::name`] writes it.
    pub cause: &'static str,
    /// The scene with its graphs.
    pub assets: SceneAssets,
}

/// The group whose stuck agents are diagnosed.
pub const SUBJECT: &str = "subject";

/// Every scene: five per cause, in [`graph_runtime::diagnose::Cause::NAMES`]' order.
pub fn scenes() -> Vec<StuckScene> {
    let mut all = Vec::new();
    for variant in 0..5 {
        all.push(head_on(variant));
    }
    for variant in 0..5 {
        all.push(jammed(variant));
    }
    for variant in 0..5 {
        all.push(pinned(variant));
    }
    for variant in 0..5 {
        all.push(behind_wall(variant));
    }
    for variant in 0..5 {
        all.push(no_safe_velocity(variant));
    }
    for variant in 0..5 {
        all.push(forces_cancel(variant));
    }
    all.sort_by_key(|scene| {
        let order = graph_runtime::diagnose::Cause::NAMES;
        (
            order.iter().position(|name| *name == scene.cause),
            scene.name.clone(),
        )
    });
    all
}

/// A graph with the vehicle every corpus agent has: radius 0.5, top speed 4, force 20.
fn graph() -> Graph {
    Graph {
        vehicle: VehicleSpec {
            mass: 1.0.into(),
            max_force: 20.0.into(),
            max_speed: 4.0.into(),
            radius: 0.5.into(),
        },
        ..Graph::default()
    }
}

/// `Output(Blend(inputs))` of `graph`.
fn blend(graph: &mut Graph, inputs: &[(NodeId, f32)]) {
    let inputs = (inputs.iter())
        .map(|&(node, weight)| WeightedInput {
            node: Link(Some(node)),
            weight: weight.into(),
        })
        .collect();
    let blend = graph.add(Node::Blend { inputs });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
}

fn own_goal() -> Target {
    Target::Own("goal".to_owned())
}

fn arrival(graph: &mut Graph) -> NodeId {
    graph.add(Node::Arrival {
        target: own_goal(),
        slowing_distance: 2.0.into(),
    })
}

fn separation(graph: &mut Graph) -> NodeId {
    graph.add(Node::Separation {
        radius: 1.5.into(),
        fov: 360.0.into(),
        max_neighbors: 16.0.into(),
    })
}

fn wall_avoidance(graph: &mut Graph) -> NodeId {
    graph.add(Node::WallAvoidance {
        min_length: 1.5.into(),
        lookahead_time: 0.5.into(),
        whisker_angle: 40.0.into(),
        margin: 0.2.into(),
    })
}

/// `Reciprocal(Arrival(own goal))` with these settings.
fn reciprocal(time_horizon: f32, clearance: f32) -> Graph {
    let mut graph = graph();
    let arrive = arrival(&mut graph);
    let reciprocal = graph.add(Node::Reciprocal {
        input: Link(Some(arrive)),
        time_horizon: time_horizon.into(),
        obstacle_time_horizon: 1.0.into(),
        neighbor_radius: 6.0.into(),
        max_neighbors: 16.0.into(),
        clearance: clearance.into(),
        keep_right: 0.0.into(),
    });
    graph.add(Node::Output {
        input: Link(Some(reciprocal)),
    });
    graph
}

/// Arrival(own goal) + Separation + `WallAvoidance`, blended with these weights.
fn walker(weights: [f32; 3]) -> Graph {
    let mut graph = graph();
    let arrive = arrival(&mut graph);
    let separate = separation(&mut graph);
    let walls = wall_avoidance(&mut graph);
    blend(
        &mut graph,
        &[
            (arrive, weights[0]),
            (separate, weights[1]),
            (walls, weights[2]),
        ],
    );
    graph
}

/// A group of agents at `starts` (at rest) with own goals `goals`, running `graph_file`.
fn group(name: &str, graph_file: &str, starts: &[Vec2], goals: &[Vec2]) -> AgentGroup {
    let spawn = Spawn::Agents(
        (starts.iter())
            .map(|&position| AgentSpawn {
                position,
                velocity: Vec2::ZERO,
            })
            .collect(),
    );
    AgentGroup {
        goals: [("goal".to_owned(), OwnPoints::Each(goals.to_vec()))].into(),
        ..AgentGroup::new(name, graph_file, spawn)
    }
}

/// A scene of `groups` (each with its graph) and `walls` in a 40 × 40 level.
fn scene(
    name: String,
    cause: &'static str,
    walls: Vec<Wall>,
    groups: Vec<(AgentGroup, Graph)>,
) -> StuckScene {
    let mut graphs = BTreeMap::new();
    let mut listed = Vec::new();
    for (group, graph) in groups {
        graphs.insert(group.graph.clone(), graph);
        listed.push(group);
    }
    let scene = Scene {
        description: format!("A corpus scene whose subject is stuck: {cause}."),
        bounds: Rect::new(Vec2::splat(-20.0), Vec2::splat(20.0)),
        seed: 1,
        walls,
        groups: listed,
        ..Scene::default()
    };
    StuckScene {
        assets: SceneAssets {
            scene,
            origin: format!("{name}.scene.ron"),
            graphs,
            flow_fields: BTreeMap::new(),
        },
        name,
        cause,
    }
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Pairs meeting exactly head on, each agent's Separation holding it off the other's:
/// `variant + 1` pairs.
fn head_on(variant: usize) -> StuckScene {
    let pairs = variant + 1;
    let half = 4.0;
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    for pair in 0..pairs {
        let y = -12.0 + 6.0 * pair as f32;
        starts.extend([v(-half, y), v(half, y)]);
        goals.extend([v(half, y), v(-half, y)]);
    }
    let file = "head_on.graph.ron";
    scene(
        format!("head_on_{}", variant + 1),
        "head_on",
        Vec::new(),
        vec![(group(SUBJECT, file, &starts, &goals), keep_off())],
    )
}

/// Arrival(own goal) and a wide, strong Separation: agents that stop well apart.
fn keep_off() -> Graph {
    let mut graph = graph();
    let arrive = arrival(&mut graph);
    let separate = graph.add(Node::Separation {
        radius: 3.0.into(),
        fov: 360.0.into(),
        max_neighbors: 16.0.into(),
    });
    blend(&mut graph, &[(arrive, 1.0), (separate, 4.0)]);
    graph
}

/// A crowd before a door one agent wide in a wall across the level, their goals beyond it.
fn jammed(variant: usize) -> StuckScene {
    let door = 1.2 + 0.1 * variant as f32;
    let rows = 3 + variant % 3;
    let walls = vec![
        Wall::polyline(vec![v(0.0, -20.0), v(0.0, -door / 2.0)]),
        Wall::polyline(vec![v(0.0, door / 2.0), v(0.0, 20.0)]),
    ];
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    for row in 0..rows {
        for column in 0..6 {
            let y = -3.0 + 1.2 * column as f32;
            starts.push(v(-2.0 - 1.2 * row as f32, y));
            goals.push(v(8.0 + 1.2 * row as f32, y));
        }
    }
    let file = "jammed.graph.ron";
    scene(
        format!("jammed_{}", variant + 1),
        "jammed",
        walls,
        vec![(
            group(SUBJECT, file, &starts, &goals),
            walker([1.0, 2.0, 2.0]),
        )],
    )
}

/// An agent at the back of an alcove, its goal straight out of it, held against the back
/// wall by agents standing on their own points across the alcove's mouth.
fn pinned(variant: usize) -> StuckScene {
    let y = -10.0 + 4.0 * variant as f32;
    let half = 1.2;
    let walls = vec![Wall::polyline(vec![
        v(-half, y + 2.0),
        v(-half, y),
        v(half, y),
        v(half, y + 2.0),
    ])];
    let subject = group(
        SUBJECT,
        "pinned.graph.ron",
        &[v(0.0, y + 0.6)],
        &[v(0.0, y + 9.0)],
    );
    // An odd count: one holder stands right over the subject.
    let holders = [3, 5, 3, 5, 7][variant];
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    for index in 0..holders {
        let x = (index as f32 - (holders - 1) as f32 / 2.0) * 1.0;
        starts.push(v(x, y + 2.2));
        goals.push(v(x, y + 1.7));
    }
    let holders = group("holders", "holders.graph.ron", &starts, &goals);
    scene(
        format!("pinned_{}", variant + 1),
        "pinned",
        walls,
        vec![
            (subject, walker([1.0, 4.0, 2.0])),
            (holders, walker([4.0, 1.0, 1.0])),
        ],
    )
}

/// Agents steering straight at goals behind a wall with no way round in sight.
fn behind_wall(variant: usize) -> StuckScene {
    let walls = match variant {
        // A long wall across.
        0 | 3 => vec![Wall::polyline(vec![v(-6.0, 0.0), v(6.0, 0.0)])],
        // A cup open away from the goal.
        1 | 4 => vec![Wall::polyline(vec![
            v(-3.0, -2.5),
            v(-3.0, 0.0),
            v(3.0, 0.0),
            v(3.0, -2.5),
        ])],
        // A slanted wall.
        _ => vec![Wall::polyline(vec![v(-6.0, -1.0), v(6.0, 1.0)])],
    };
    let count = 1 + variant / 2;
    let starts: Vec<Vec2> = (0..count).map(|i| v(-1.5 + 1.5 * i as f32, -1.5)).collect();
    let goals: Vec<Vec2> = (0..count).map(|i| v(-1.5 + 1.5 * i as f32, 4.0)).collect();
    let file = "behind_wall.graph.ron";
    scene(
        format!("behind_wall_{}", variant + 1),
        "behind_wall",
        walls,
        vec![(
            group(SUBJECT, file, &starts, &goals),
            walker([1.0, 1.0, 2.0]),
        )],
    )
}

/// Agents under Reciprocal before a corridor their body fits but their clearance does not:
/// its walls' half-planes leave no velocity into it.
fn no_safe_velocity(variant: usize) -> StuckScene {
    let width = 1.4;
    let clearance = 0.3 + 0.05 * variant as f32;
    let walls = vec![
        Wall::polyline(vec![v(0.0, -width / 2.0), v(8.0, -width / 2.0)]),
        Wall::polyline(vec![v(0.0, width / 2.0), v(8.0, width / 2.0)]),
    ];
    let count = 1 + variant % 3;
    let starts: Vec<Vec2> = (0..count).map(|i| v(-3.0 - 1.5 * i as f32, 0.0)).collect();
    let goals: Vec<Vec2> = (0..count).map(|i| v(14.0 - 1.5 * i as f32, 0.0)).collect();
    let file = format!("no_safe_velocity_{}.graph.ron", variant + 1);
    scene(
        format!("no_safe_velocity_{}", variant + 1),
        "no_safe_velocity",
        walls,
        vec![(
            group(SUBJECT, &file, &starts, &goals),
            reciprocal(2.0, clearance),
        )],
    )
}

/// Agents pulled to their goal and pushed away as hard by another node.
fn forces_cancel(variant: usize) -> StuckScene {
    let mut graph = graph();
    let goal = v(8.0, 0.0);
    let toward = arrival(&mut graph);
    let away = match variant {
        // Fleeing a point past the goal, always.
        0 | 1 => graph.add(Node::Flee {
            target: Target::Point(12.0.into(), 0.0.into()),
            panic_distance: None,
        }),
        // Fleeing a point past the goal within 12 units.
        2 => graph.add(Node::Flee {
            target: Target::Point(12.0.into(), 0.0.into()),
            panic_distance: Some(12.0.into()),
        }),
        // Seeking a point behind.
        _ => graph.add(Node::Seek {
            target: Target::Point((-12.0).into(), 0.0.into()),
        }),
    };
    blend(&mut graph, &[(toward, 1.0), (away, 1.0)]);
    let count = 1 + variant % 3;
    let starts: Vec<Vec2> = (0..count).map(|i| v(-4.0, -4.0 + 4.0 * i as f32)).collect();
    let goals: Vec<Vec2> = (0..count)
        .map(|i| goal + v(0.0, -4.0 + 4.0 * i as f32))
        .collect();
    let file = format!("forces_cancel_{}.graph.ron", variant + 1);
    scene(
        format!("forces_cancel_{}", variant + 1),
        "forces_cancel",
        Vec::new(),
        vec![(group(SUBJECT, &file, &starts, &goals), graph)],
    )
}
