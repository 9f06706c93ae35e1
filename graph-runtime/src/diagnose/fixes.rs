//! Fixes for stuck agents, proven before they are offered: each candidate change to a graph
//! or the scene is made on a copy, the run is taken on from the moment diagnosed (a fork) for
//! a few seconds, and the fix is kept only when it frees stuck agents without raising
//! overlaps or wall contacts against the same seconds run without it.

use glam::Vec2;

use super::Diagnosis;
use crate::metrics::ARRIVAL_RADII;
use crate::{Keyframe, MetricsTracker, Node, NodeId, Number, SceneAssets, Simulation, Slot};

/// A freed agent walking again has ended this many of its radii from where it was stuck.
pub const WALKING_RADII: f32 = 4.0;

/// Keep-right a fix gives Reciprocal nodes (degrees).
pub const KEEP_RIGHT: f32 = 15.0;

/// What a fix changes: one number of a node, a node replaced, or a wall's point moved.
#[derive(Clone, Debug, PartialEq)]
pub enum FixEdit {
    /// The number at `slot` of node `node` in the graph file `graph`.
    Number {
        /// The graph file (as the scene names it).
        graph: String,
        /// The node.
        node: NodeId,
        /// Which of its numbers.
        slot: Slot,
        /// The new value.
        value: f32,
    },
    /// The default of the graph parameter `name` of `graph` (a number set by the parameter;
    /// a scene group's override of it still wins).
    Parameter {
        /// The graph file.
        graph: String,
        /// The parameter.
        name: String,
        /// Its new default.
        value: f32,
    },
    /// Node `node` (a Seek or an Arrival) of `graph` replaced by a Navigate node to the same
    /// target: a route round the walls.
    Route {
        /// The graph file.
        graph: String,
        /// The node.
        node: NodeId,
    },
    /// A Reciprocal node (keep-right [`KEEP_RIGHT`]) put between `graph`'s Output and its
    /// input: the agents avoid each other, passing on the right.
    AvoidWithReciprocal {
        /// The graph file.
        graph: String,
    },
    /// Point `point` of the scene's wall `wall` moved to `to`.
    WallPoint {
        /// The wall, by its place in the scene's list.
        wall: usize,
        /// The point, by its place in the wall.
        point: usize,
        /// Where it goes.
        to: Vec2,
    },
}

impl FixEdit {
    /// Makes the change in `assets`; `false` (nothing changed) when what it names is not
    /// there.
    pub fn apply(&self, assets: &mut SceneAssets) -> bool {
        match self {
            Self::WallPoint { wall, point, to } => (assets.scene.walls.get_mut(*wall))
                .and_then(|wall| wall.points.get_mut(*point))
                .map(|at| *at = *to)
                .is_some(),
            _ => (self.graph())
                .and_then(|file| assets.graphs.get_mut(file))
                .is_some_and(|graph| self.apply_to_graph(graph)),
        }
    }

    /// The graph file the edit changes; `None` for an edit of the scene.
    pub fn graph(&self) -> Option<&str> {
        match self {
            Self::Number { graph, .. }
            | Self::Parameter { graph, .. }
            | Self::Route { graph, .. }
            | Self::AvoidWithReciprocal { graph } => Some(graph),
            Self::WallPoint { .. } => None,
        }
    }

    /// Makes a graph edit in `graph` (the file [`FixEdit::graph`] names); `false` (nothing
    /// changed) for a scene edit or a node that is not there.
    pub fn apply_to_graph(&self, graph: &mut crate::Graph) -> bool {
        match self {
            Self::Number {
                node, slot, value, ..
            } => (graph.nodes.get_mut(node))
                .and_then(|node| node.number_mut(*slot))
                .map(|number| *number = Number::Literal(*value))
                .is_some(),
            Self::Parameter { name, value, .. } => (graph.parameters.get_mut(name))
                .map(|default| *default = *value)
                .is_some(),
            Self::Route { node, .. } => {
                let Some(found) = graph.nodes.get_mut(node) else {
                    return false;
                };
                let (target, slowing) = match found {
                    Node::Seek { target } => (target.clone(), Number::Literal(3.0)),
                    Node::Arrival {
                        target,
                        slowing_distance,
                    } => (target.clone(), slowing_distance.clone()),
                    _ => return false,
                };
                *found = Node::Navigate {
                    target,
                    ahead_distance: 2.0.into(),
                    slowing_distance: slowing,
                    replan_distance: 2.0.into(),
                    crowd_cost: 4.0.into(),
                };
                true
            }
            Self::AvoidWithReciprocal { .. } => {
                let Some((output, input)) =
                    (graph.nodes.iter()).find_map(|(id, node)| match node {
                        Node::Output { input } => Some((*id, *input)),
                        _ => None,
                    })
                else {
                    return false;
                };
                let reciprocal = graph.add(Node::Reciprocal {
                    input,
                    time_horizon: 2.0.into(),
                    obstacle_time_horizon: 1.0.into(),
                    neighbor_radius: 5.0.into(),
                    max_neighbors: 10.0.into(),
                    clearance: 0.05.into(),
                    keep_right: KEEP_RIGHT.into(),
                });
                graph.nodes.insert(
                    output,
                    Node::Output {
                        input: crate::Link(Some(reciprocal)),
                    },
                );
                true
            }
            Self::WallPoint { .. } => false,
        }
    }
}

/// A candidate fix: what it does in words and its edits (one undo step in the editor).
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    /// What it does, in a designer's words.
    pub words: String,
    /// The changes.
    pub edits: Vec<FixEdit>,
}

/// What a fix did, against the same seconds run on without it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixEffect {
    /// The stuck agents it was tried for.
    pub stuck: usize,
    /// Of those, how many were freed: came [`ARRIVAL_RADII`] radii closer to their goal (or
    /// reached it), or walk again (the run ended with them [`WALKING_RADII`] radii or more
    /// from where they were stuck, moving at over [`crate::diagnose::HELD_SPEED`] of their top
    /// speed: an agent on a detour round a wall first walks away from its goal).
    pub freed: usize,
    /// How many the run without the fix freed.
    pub freed_without: usize,
    /// Overlapping pairs of agents, the mean over the seconds run: without the fix, with it.
    pub overlaps: [f32; 2],
    /// Agents touching a wall (closer than their radius), the mean: without, with.
    pub wall_contacts: [f32; 2],
}

/// A fix and what it did.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvenFix {
    /// The fix.
    pub fix: Fix,
    /// What it did.
    pub effect: FixEffect,
}

/// The fixes for the agents `diagnoses` name, each run on from `keyframe` (the simulation of
/// `assets` at the moment diagnosed) for `seconds` of ticks of `dt`: those that free more
/// stuck agents than the run without them, without raising overlaps or wall contacts (by
/// more than a tenth, or 0.05), most freed first.
pub fn propose_fixes(
    assets: &SceneAssets,
    keyframe: &Keyframe,
    diagnoses: &[Diagnosis],
    dt: f32,
    seconds: f32,
) -> Vec<ProvenFix> {
    let Ok(simulation) = Simulation::new(assets) else {
        return Vec::new();
    };
    let watched: Vec<Watched> = (diagnoses.iter())
        .filter_map(|d| {
            let vehicle = keyframe.vehicle(d.agent)?;
            Some(Watched {
                agent: d.agent,
                goal: d.goal?,
                radius: vehicle.radius,
                at: vehicle.position,
                from: vehicle.position.distance(d.goal?),
            })
        })
        .collect();
    let ticks = (seconds / dt).ceil().max(1.0) as u64;
    let Some(without) = run_on(assets, keyframe, &watched, dt, ticks) else {
        return Vec::new();
    };
    let mut proven: Vec<ProvenFix> = super::candidates::candidates(assets, &simulation, diagnoses)
        .into_iter()
        .filter_map(|fix| {
            let mut edited = assets.clone();
            if !fix.edits.iter().all(|edit| edit.apply(&mut edited)) {
                return None;
            }
            let with = run_on(&edited, keyframe, &watched, dt, ticks)?;
            let no_worse = |before: f32, after: f32| after <= before + (0.1 * before).max(0.05);
            let effect = FixEffect {
                stuck: watched.len(),
                freed: with.freed,
                freed_without: without.freed,
                overlaps: [without.overlaps, with.overlaps],
                wall_contacts: [without.wall_contacts, with.wall_contacts],
            };
            (with.freed > without.freed
                && no_worse(without.overlaps, with.overlaps)
                && no_worse(without.wall_contacts, with.wall_contacts))
            .then_some(ProvenFix { fix, effect })
        })
        .collect();
    proven.sort_by_key(|fix| std::cmp::Reverse(fix.effect.freed));
    proven
}

/// A stuck agent a fix is measured on.
struct Watched {
    agent: usize,
    goal: Vec2,
    radius: f32,
    /// Where it was stuck.
    at: Vec2,
    /// Its distance to the goal at the moment diagnosed.
    from: f32,
}

/// What a run on from the moment did.
struct Outcome {
    freed: usize,
    overlaps: f32,
    wall_contacts: f32,
}

/// Runs `assets` on from `keyframe` for `ticks` ticks: the watched agents freed, the mean
/// overlapping pairs and agents touching a wall.
fn run_on(
    assets: &SceneAssets,
    keyframe: &Keyframe,
    watched: &[Watched],
    dt: f32,
    ticks: u64,
) -> Option<Outcome> {
    let mut simulation = Simulation::new(assets).ok()?;
    simulation.restore(keyframe).ok()?;
    let mut tracker = MetricsTracker::default();
    let (mut overlaps, mut contacts) = (0_u64, 0_u64);
    let mut nearest: Vec<f32> = watched.iter().map(|w| w.from).collect();
    for tick in 1..=ticks {
        simulation.step(dt);
        let sample = tracker.observe(&simulation, tick as f32 * dt);
        overlaps += sample.agent_overlaps as u64;
        let walls = simulation.world().wall_index();
        let vehicles = simulation.vehicles();
        contacts += (vehicles.iter())
            .filter(|v| walls.nearest(v.position, v.radius * 0.999).is_some())
            .count() as u64;
        for (watch, near) in watched.iter().zip(&mut nearest) {
            if let Some(vehicle) = vehicles.get(watch.agent) {
                *near = near.min(vehicle.position.distance(watch.goal));
            }
        }
    }
    let vehicles = simulation.vehicles();
    let freed = (watched.iter().zip(&nearest))
        .filter(|(w, near)| {
            let closer =
                **near <= w.from - ARRIVAL_RADII * w.radius || **near <= ARRIVAL_RADII * w.radius;
            let walking = vehicles.get(w.agent).is_some_and(|v| {
                v.position.distance(w.at) >= WALKING_RADII * w.radius
                    && v.velocity.length() > super::HELD_SPEED * v.max_speed
            });
            closer || walking
        })
        .count();
    Some(Outcome {
        freed,
        overlaps: overlaps as f32 / ticks as f32,
        wall_contacts: contacts as f32 / ticks as f32,
    })
}
