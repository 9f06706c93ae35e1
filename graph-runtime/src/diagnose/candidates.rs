//! The fixes worth trying for each cause (`BEHAVIORS.md`, "Why an agent is stuck"): changes
//! to the agent's graph, the graphs of the agents pressing it, or the scene's walls, found from
//! the diagnosis. `fixes.rs` proves them.

use std::collections::BTreeSet;

use glam::Vec2;

use super::fixes::{Fix, FixEdit, KEEP_RIGHT};
use super::{Cause, Diagnosis};
use crate::{Node, NodeId, NodeKind, Number, SceneAssets, Simulation, Slot};

/// The fixes worth trying for `diagnoses`, each once.
pub(super) fn candidates(
    assets: &SceneAssets,
    simulation: &Simulation,
    diagnoses: &[Diagnosis],
) -> Vec<Fix> {
    let mut fixes: Vec<Fix> = Vec::new();
    for diagnosis in diagnoses {
        let Some(own) = Graphed::of(assets, simulation, diagnosis.agent) else {
            continue;
        };
        let found = match &diagnosis.cause {
            Cause::HeadOn { .. } => {
                let mut found = own.reciprocal_fixes(false);
                if own.nodes_of(NodeKind::Reciprocal).is_empty() {
                    found.push(Fix {
                        words: "avoid other agents with Reciprocal, keeping right: a Reciprocal node (keep_right 15°) before the Output".to_owned(),
                        edits: vec![FixEdit::AvoidWithReciprocal {
                            graph: own.file.clone(),
                        }],
                    });
                }
                found
            }
            Cause::NoSafeVelocity { .. } => own.reciprocal_fixes(true),
            Cause::Pinned { others, .. } => {
                // It presses on (its own Separation weaker), the agents pressing it give way
                // (theirs stronger), or both.
                let mut found = Vec::new();
                let mine: Vec<Fix> = (own.nodes_of(NodeKind::Separation).into_iter())
                    .flat_map(|node| own.reweigh(node, "press on: its", &[0.25]))
                    .collect();
                let groups: BTreeSet<usize> = (others.iter())
                    .filter_map(|&other| simulation.group_of(other))
                    .collect();
                for group in groups {
                    let Some(pressing) = Graphed::in_group(assets, group) else {
                        continue;
                    };
                    for node in pressing.nodes_of(NodeKind::Separation) {
                        for theirs in pressing.reweigh(node, "give way: the pressing agents'", &[4.0]) {
                            for mine in &mine {
                                found.push(Fix {
                                    words: format!("{}; and {}", mine.words, theirs.words),
                                    edits: [mine.edits.clone(), theirs.edits.clone()].concat(),
                                });
                            }
                            found.push(theirs);
                        }
                    }
                }
                found.extend(mine);
                found
            }
            Cause::ForcesCancel { forces } => {
                let at = simulation.vehicles().get(diagnosis.agent).map(|v| v.position);
                let mut found = Vec::new();
                for (node, _, force) in forces {
                    // The forces pulling away from the goal are the ones to weaken.
                    let away = diagnosis.goal.zip(at).is_none_or(|(goal, at)| force.dot(goal - at) < 0.0);
                    if away {
                        found.extend(own.reweigh(*node, "weaken", &[0.5, 0.25]));
                    }
                }
                found
            }
            Cause::BehindWall { .. } => [NodeKind::Arrival, NodeKind::Seek]
                .into_iter()
                .flat_map(|kind| own.nodes_of(kind).into_iter().map(move |node| (kind, node)))
                .map(|(kind, node)| Fix {
                    words: format!(
                        "route round the walls: {} (node {node}) becomes Navigate to the same target",
                        kind.name()
                    ),
                    edits: vec![FixEdit::Route {
                        graph: own.file.clone(),
                        node,
                    }],
                })
                .collect(),
            Cause::Jammed { at, .. } => [4.0, 8.0]
                .into_iter()
                .filter_map(|radii| widen_opening(assets, *at, diagnosis, simulation, radii))
                .collect(),
            Cause::Walking { .. } | Cause::Unknown => Vec::new(),
        };
        for fix in found {
            // The same edits found from another agent's diagnosis are tried once.
            if !fixes.iter().any(|known| known.edits == fix.edits) {
                fixes.push(fix);
            }
        }
    }
    fixes
}

/// Where a node's number is set: its own field, or the graph parameter it names.
enum Setting {
    Field(Slot),
    Parameter(String),
}

impl Setting {
    /// The field's name in a fix's words, with the parameter it is set by.
    fn named(&self, field: &str) -> String {
        match self {
            Self::Field(_) => field.to_owned(),
            Self::Parameter(name) => format!("{field} (graph parameter \"{name}\")"),
        }
    }
}

/// A group's graph, by the file the scene names.
struct Graphed<'a> {
    file: String,
    graph: &'a crate::Graph,
}

impl<'a> Graphed<'a> {
    /// The graph agent `agent` runs.
    fn of(assets: &'a SceneAssets, simulation: &Simulation, agent: usize) -> Option<Self> {
        Self::in_group(assets, simulation.group_of(agent)?)
    }

    /// The graph group `group` runs.
    fn in_group(assets: &'a SceneAssets, group: usize) -> Option<Self> {
        let file = assets.scene.groups.get(group)?.graph.clone();
        let graph = assets.graphs.get(&file)?;
        Some(Self { file, graph })
    }

    /// The graph's nodes of `kind`, ascending.
    fn nodes_of(&self, kind: NodeKind) -> Vec<NodeId> {
        (self.graph.nodes.iter())
            .filter(|(_, node)| node.kind() == kind)
            .map(|(id, _)| *id)
            .collect()
    }

    /// The number `name` of `node`: where it is set (the field, or the graph parameter it
    /// names) and its value (the parameter's default).
    fn number(&self, node: NodeId, name: &str) -> Option<(Setting, f32)> {
        let found = self.graph.nodes.get(&node)?.numbers();
        let field = found
            .iter()
            .find(|f| f.slot.name == name && f.slot.index.is_none())?;
        match field.number {
            Number::Literal(value) => Some((Setting::Field(field.slot), *value)),
            Number::Parameter(parameter) => {
                let value = *self.graph.parameters.get(parameter)?;
                Some((Setting::Parameter(parameter.clone()), value))
            }
        }
    }

    /// Setting `node`'s number (at `setting`) to `value`.
    fn set(&self, node: NodeId, setting: &Setting, value: f32) -> FixEdit {
        match setting {
            Setting::Field(slot) => FixEdit::Number {
                graph: self.file.clone(),
                node,
                slot: *slot,
                value,
            },
            Setting::Parameter(name) => FixEdit::Parameter {
                graph: self.file.clone(),
                name: name.clone(),
                value,
            },
        }
    }

    /// For each Reciprocal node: keep right, a shorter time horizon, and (with `clearance`)
    /// no clearance.
    fn reciprocal_fixes(&self, clearance: bool) -> Vec<Fix> {
        let mut found = Vec::new();
        for node in self.nodes_of(NodeKind::Reciprocal) {
            if let Some((setting, now)) = self.number(node, "keep_right")
                && now < KEEP_RIGHT
            {
                found.push(Fix {
                    words: format!(
                        "keep right: Reciprocal (node {node}) {} from {now} to {KEEP_RIGHT}°, so agents meeting head on pass each other on the right",
                        setting.named("keep_right")
                    ),
                    edits: vec![self.set(node, &setting, KEEP_RIGHT)],
                });
            }
            if let Some((setting, now)) = self.number(node, "time_horizon")
                && now > 0.5
            {
                found.push(Fix {
                    words: format!(
                        "look less far ahead: Reciprocal (node {node}) {} from {now} to {} s, so fewer neighbors constrain it",
                        setting.named("time_horizon"),
                        now / 2.0
                    ),
                    edits: vec![self.set(node, &setting, now / 2.0)],
                });
            }
            if clearance
                && let Some((setting, now)) = self.number(node, "clearance")
                && now > 0.0
            {
                found.push(Fix {
                    words: format!(
                        "keep no extra distance: Reciprocal (node {node}) {} from {now} to 0, so it fits where its body fits",
                        setting.named("clearance")
                    ),
                    edits: vec![self.set(node, &setting, 0.0)],
                });
            }
        }
        found
    }

    /// `node`'s weight in each Blend that takes it, times each of `shares` (`verb` says what
    /// that does).
    fn reweigh(&self, node: NodeId, verb: &str, shares: &[f32]) -> Vec<Fix> {
        let kind = self
            .graph
            .nodes
            .get(&node)
            .map_or("node", |n| n.kind().name());
        let mut found = Vec::new();
        for (blend, slot, weight) in weights_of(self.graph, node) {
            for share in shares {
                found.push(Fix {
                    words: format!(
                        "{verb} {kind} (node {node}): its weight in Blend (node {blend}) from {weight} to {} ({})",
                        weight * share,
                        self.file
                    ),
                    edits: vec![self.set(blend, &Setting::Field(slot), weight * share)],
                });
            }
        }
        found
    }
}

/// Each Blend of `graph` that takes `node`, with the weight's slot and its value.
fn weights_of(graph: &crate::Graph, node: NodeId) -> Vec<(NodeId, Slot, f32)> {
    let mut found = Vec::new();
    for (id, candidate) in &graph.nodes {
        let Node::Blend { inputs } = candidate else {
            continue;
        };
        for (index, input) in inputs.iter().enumerate() {
            if input.node.0 != Some(node) {
                continue;
            }
            let slot = (candidate.numbers().iter())
                .find(|field| field.slot.index == Some(index))
                .map(|field| field.slot);
            if let (Some(slot), Some(weight)) = (slot, input.weight.literal()) {
                found.push((*id, slot, weight));
            }
        }
    }
    found
}

/// Widens the opening at a jam: every open wall's end within the jam's reach of `at` drawn
/// back along its wall by `radii` of the agent's radii.
fn widen_opening(
    assets: &SceneAssets,
    at: Vec2,
    diagnosis: &Diagnosis,
    simulation: &Simulation,
    radii: f32,
) -> Option<Fix> {
    let radius = simulation.vehicles().get(diagnosis.agent)?.radius;
    let reach = super::JAM_RADII * radius;
    let by = radii * radius;
    let mut edits = Vec::new();
    let mut walls = BTreeSet::new();
    for (index, wall) in assets.scene.walls.iter().enumerate() {
        let n = wall.points.len();
        if wall.closed || n < 2 {
            continue;
        }
        for (end, next) in [(0, 1), (n - 1, n - 2)] {
            let (tip, inner) = (wall.points[end], wall.points[next]);
            let length = tip.distance(inner);
            if tip.distance(at) <= reach && length > 2.0 * by {
                edits.push(FixEdit::WallPoint {
                    wall: index,
                    point: end,
                    to: tip + (inner - tip) / length * by,
                });
                walls.insert(index);
            }
        }
    }
    if edits.is_empty() {
        return None;
    }
    let list: Vec<String> = walls.iter().map(ToString::to_string).collect();
    // Named by the middle of the wall ends it moves: the opening itself.
    let tips: Vec<Vec2> = (edits.iter())
        .filter_map(|edit| match edit {
            FixEdit::WallPoint { wall, point, .. } => {
                Some(assets.scene.walls[*wall].points[*point])
            }
            _ => None,
        })
        .collect();
    let middle = tips.iter().copied().sum::<Vec2>() / tips.len() as f32;
    Some(Fix {
        words: format!(
            "widen the opening at ({:.1}, {:.1}): the wall ends there drawn back by {by:.1} along their walls (walls {})",
            middle.x,
            middle.y,
            list.join(", ")
        ),
        edits,
    })
}
