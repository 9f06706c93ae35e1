//! The hostile shapes of issue 28's round, made from the presets through the runtime's own
//! types (so they parse): long Reroute and Scale chains, muted nodes, stacked crowds, walls of
//! tiny extent, many own-goal names, fast vehicles against solid or passable walls, and
//! Subgraph nodes naming files in and out of the presets' folder; and issue 44's for
//! navigation: walls that cross themselves with zero-length segments, goals shut inside a
//! closed wall, walls of up to 150,000 points past the mesh's limit of 100,000 segments (in
//! the scenes whose groups navigate, where the mesh refuses them; elsewhere such a wall is
//! issue 46's, walls that bound the work), and bounds with no room for an agent's radius;
//! and issue 46's walls (`walls.rs`).

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    Area, Graph, Link, Node, NodeId, OwnPoints, Scene, Spawn, VehicleParams, Wall,
};

use super::Random;

/// Most Reroutes or Scales added to a chain.
const MAX_CHAIN: usize = 3_000;
/// Most agents of a stacked group (the fuzzer simulates scenes of at most 3,000 agents).
const MAX_STACKED: u32 = 3_000;
/// Most own-goal names given to a group.
const MAX_GOAL_NAMES: usize = 2_000;
/// Most points of a generated many-point wall (half again the mesh's segment limit).
const MAX_NAV_WALL_POINTS: usize = 150_000;
/// The graph the presets whose groups navigate run.
const NAVIGATOR: &str = "navigator.graph.ron";

/// Files a generated Subgraph node names: inside the folder, absolute, leaving it, another
/// kind of file, missing, empty.
pub const SUBGRAPH_FILES: &[&str] = &[
    "seek.graph.ron",
    "/seek.graph.ron",
    "../presets/seek.graph.ron",
    "boids.scene.ron",
    "river.flow.ron",
    "missing.graph.ron",
    "",
];

/// `text` (a graph) with one structural change, or `None` when it does not parse.
pub fn graph(text: &str, random: &mut Random) -> Option<String> {
    let mut graph = Graph::from_ron(text, "shape").ok()?;
    let (&output, _) = graph
        .nodes
        .iter()
        .find(|(_, node)| matches!(node, Node::Output { .. }))?;
    let Some(Node::Output { input }) = graph.nodes.get(&output).cloned() else {
        return None;
    };
    match random.below(4) {
        // A chain between the Output and what it reads.
        0 | 1 => {
            let mut at = input;
            let scale = random.below(2) == 0;
            for _ in 0..=random.below(MAX_CHAIN) {
                let node = if scale {
                    Node::Scale {
                        input: at,
                        factor: 1.0.into(),
                    }
                } else {
                    Node::Reroute { input: at }
                };
                at = Link(Some(graph.add(node)));
            }
            graph.nodes.insert(output, Node::Output { input: at });
        }
        // Some nodes muted (the Output never is).
        2 => {
            let ids: Vec<NodeId> = graph.nodes.keys().copied().collect();
            for _ in 0..=random.below(3) {
                if let Some(&id) = random.pick(&ids) {
                    graph.muted.insert(id);
                }
            }
        }
        // A Subgraph node read by the Output instead.
        _ => {
            let file = random.pick(SUBGRAPH_FILES).copied().unwrap_or_default();
            let sub = graph.add(Node::Subgraph {
                file: file.to_owned(),
                parameters: BTreeMap::new(),
            });
            graph.nodes.insert(
                output,
                Node::Output {
                    input: Link(Some(sub)),
                },
            );
        }
    }
    graph.to_ron().ok()
}

/// `text` (a scene) with one structural change, or `None` when it does not parse.
pub fn scene(text: &str, random: &mut Random) -> Option<String> {
    let mut scene = Scene::from_ron(text, "shape").ok()?;
    let group_count = scene.groups.len();
    let index = random.below(group_count);
    let group = scene.groups.get_mut(index)?;
    match random.below(10) {
        // The group stacked on one point.
        0 => {
            let point = Vec2::new(
                random.below(20) as f32 - 10.0,
                random.below(20) as f32 - 10.0,
            );
            group.spawn = Spawn::Random {
                count: 1 + random.below(MAX_STACKED as usize) as u32,
                area: Area::Rect {
                    min: point,
                    max: point,
                },
                speed: 0.0,
            };
        }
        // Walls of tiny or denormal extent beside the level's.
        1 => {
            let size = *random.pick(&[1e-27_f32, 1e-40, 1e-44, 1e-6, 3e-23])?;
            for i in 0..=random.below(4) {
                let at = Vec2::splat(i as f32 * size * 3.0);
                scene
                    .walls
                    .push(Wall::polyline(vec![at, at + Vec2::new(size, 0.0)]));
            }
        }
        // Many own-goal names.
        2 => {
            let names = 1 + random.below(MAX_GOAL_NAMES);
            group.goals = (0..names)
                .map(|i| {
                    (
                        format!("goal {i}"),
                        OwnPoints::Each(vec![Vec2::new(i as f32, 0.0)]),
                    )
                })
                .collect();
        }
        // Fast vehicles (the hostile round's speed 30, force 20), walls solid or passable.
        3 => {
            group.vehicle = Some(VehicleParams {
                mass: 1.0,
                max_force: 20.0,
                max_speed: 30.0,
                radius: 0.5,
            });
            scene.passable_walls = random.below(4) == 0;
        }
        // Issue 44's, for navigation.
        which @ 5..=8 => navigation(&mut scene, index, which, random)?,
        // Issue 46's: wedges, apexes, crossings and heaps of walls met at any speed.
        9 => super::walls::storm(&mut scene, index, random)?,
        // A wall straight across the level, then fast vehicles meet it.
        _ => wall_across(&mut scene),
    }
    scene.to_ron().ok()
}

/// Issue 44's navigation shape `which` (5 to 8) applied to `scene`, whose group `group` the
/// shape may read; `None` when the group is missing.
fn navigation(scene: &mut Scene, group: usize, which: usize, random: &mut Random) -> Option<()> {
    let group = scene.groups.get(group)?.clone();
    match which {
        // A wall crossing itself at every point, with repeated (zero-length) segments.
        5 => {
            let (min, max) = (scene.bounds.min, scene.bounds.max);
            let points = (0..=random.below(64))
                .flat_map(|i| {
                    let t = i as f32 / 64.0;
                    let top = Vec2::new(min.x + (max.x - min.x) * t, max.y);
                    let bottom = Vec2::new(max.x - (max.x - min.x) * t, min.y);
                    [top, top, bottom]
                })
                .collect();
            scene.walls.push(Wall::polyline(points));
        }
        // Each goal of the group shut inside a closed square wall.
        6 => {
            let goals: Vec<Vec2> = group
                .goals
                .values()
                .flat_map(|points| match points {
                    OwnPoints::Each(points) => points.clone(),
                    OwnPoints::Random(Area::Rect { min, max }) => vec![(*min + *max) * 0.5],
                    OwnPoints::Random(Area::Circle { center, .. }) => vec![*center],
                })
                .take(64)
                .collect();
            for goal in goals {
                let r = Vec2::splat(1.0 + random.below(3) as f32);
                let corners = vec![
                    goal - r,
                    Vec2::new(goal.x + r.x, goal.y - r.y),
                    goal + r,
                    Vec2::new(goal.x - r.x, goal.y + r.y),
                ];
                scene.walls.push(Wall {
                    points: corners,
                    closed: true,
                });
            }
        }
        // In a level whose group navigates, a wall of more points than the mesh's segment
        // limit: the mesh is refused before it is built.
        7 if group.graph == NAVIGATOR => {
            let limit = graph_runtime::limits::MAX_NAV_SEGMENTS;
            let count = limit + 2 + random.below(MAX_NAV_WALL_POINTS - limit);
            let (min, max) = (scene.bounds.min, scene.bounds.max);
            let step = (max.x - min.x) / count as f32;
            let points = (0..count)
                .map(|i| {
                    let y = (min.y + max.y) * 0.5 + if i % 2 == 0 { -0.01 } else { 0.01 };
                    Vec2::new(min.x + step * i as f32, y)
                })
                .collect();
            scene.walls.push(Wall::polyline(points));
        }
        // Bounds with little or no room for an agent's radius.
        8 => {
            let size = *random.pick(&[0.0_f32, 0.5, 1.0, 1.01, 2.0])?;
            scene.bounds.max = scene.bounds.min + Vec2::splat(size);
        }
        // Otherwise (a level whose group does not navigate, for 7): a wall straight across.
        _ => wall_across(scene),
    }
    Some(())
}

/// A wall straight across `scene`'s level, through its middle from bottom to top.
fn wall_across(scene: &mut Scene) {
    let (min, max) = (scene.bounds.min, scene.bounds.max);
    let x = (min.x + max.x) * 0.5;
    scene.walls.push(Wall::polyline(vec![
        Vec2::new(x, min.y),
        Vec2::new(x, max.y),
    ]));
}
