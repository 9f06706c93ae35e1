//! A graph as a whole: its nodes by id, graph parameters, vehicle limits and the editor's
//! layout, which the runtime carries but never reads.

use std::collections::{BTreeMap, BTreeSet};

use glam::Vec2;
use serde::{Deserialize, Serialize};

use super::{Constraint, Node, NodeId, Number, NumberField, Slot, Unit};
use crate::{TurningParams, VehicleParams};

/// A steering-behavior graph: nodes wired into one `Output`, named parameters, and the
/// vehicle it was tuned for.
///
/// This is plain data, as saved in a `.graph.ron` file; [`crate::compile`] turns it into a
/// [`crate::Program`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    /// Free text shown to designers.
    pub description: String,
    /// Named graph parameters and their defaults. Any numeric field may name one instead of
    /// holding a literal; agent groups (and games, per agent) override them.
    pub parameters: BTreeMap<String, f32>,
    /// The vehicle limits the graph was tuned for; a scene group may replace them.
    pub vehicle: VehicleSpec,
    /// How the graph's vehicle turns (independent facing, angular limits, turn-rate limit); a
    /// scene group may replace it.
    pub turning: TurningSpec,
    /// The nodes by id.
    pub nodes: BTreeMap<NodeId, Node>,
    /// Muted nodes: each contributes nothing (a zero force, number `0`, condition false), and
    /// a combiner skips a muted input (`BEHAVIORS.md`, "Muted nodes"). A mute on the Output is
    /// ignored.
    pub muted: BTreeSet<NodeId>,
    /// Editor-only layout. The runtime keeps it unchanged and never reads it.
    pub editor: Option<EditorSection>,
}

impl Graph {
    /// The type of node `id`'s output: its kind's, or, for a Reroute, the type of whatever
    /// feeds it (through any chain of Reroutes). `None` for a missing node, an unconnected
    /// Reroute chain or a chain that loops.
    pub fn output_type(&self, id: NodeId) -> Option<super::PortType> {
        let mut at = id;
        for _ in 0..=self.nodes.len() {
            match self.nodes.get(&at)? {
                Node::Reroute { input } => at = input.source()?,
                node => return Some(node.kind().output()),
            }
        }
        None
    }

    /// The smallest id not used by any node.
    pub fn next_id(&self) -> NodeId {
        NodeId(
            self.nodes
                .last_key_value()
                .map_or(1, |(id, _)| id.0.saturating_add(1)),
        )
    }

    /// Adds `node` under a fresh id and returns the id.
    pub fn add(&mut self, node: Node) -> NodeId {
        let id = self.next_id();
        self.nodes.insert(id, node);
        id
    }

    /// The graph without its editor section, as games need it.
    #[must_use]
    pub fn without_editor(&self) -> Self {
        Self {
            editor: None,
            ..self.clone()
        }
    }
}

/// Vehicle limits in a graph; each may be a literal or a graph parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleSpec {
    /// Mass, `> 0`.
    pub mass: Number,
    /// Largest steering force, `>= 0`.
    pub max_force: Number,
    /// Top speed (units / s), `>= 0`.
    pub max_speed: Number,
    /// Bounding radius (units), `>= 0`.
    pub radius: Number,
}

impl Default for VehicleSpec {
    fn default() -> Self {
        let params = VehicleParams::default();
        Self {
            mass: Number::Literal(params.mass),
            max_force: Number::Literal(params.max_force),
            max_speed: Number::Literal(params.max_speed),
            radius: Number::Literal(params.radius),
        }
    }
}

impl VehicleSpec {
    /// The four limits with their ranges, in display order (`mass`, `max_force`,
    /// `max_speed`, `radius`), as the compiler checks them and the editor edits them.
    pub fn numbers(&self) -> Vec<NumberField<'_>> {
        [
            ("mass", &self.mass, Constraint::Positive, Unit::Unitless),
            (
                "max_force",
                &self.max_force,
                Constraint::NonNegative,
                Unit::Unitless,
            ),
            (
                "max_speed",
                &self.max_speed,
                Constraint::NonNegative,
                Unit::Speed,
            ),
            (
                "radius",
                &self.radius,
                Constraint::NonNegative,
                Unit::Length,
            ),
        ]
        .into_iter()
        .map(|(name, number, constraint, unit)| NumberField {
            slot: Slot::field(name),
            number,
            constraint,
            unit,
        })
        .collect()
    }

    /// The limit at `slot` (as listed by [`VehicleSpec::numbers`]), for editing.
    pub fn number_mut(&mut self, slot: Slot) -> Option<&mut Number> {
        match slot.name {
            _ if slot.index.is_some() => None,
            "mass" => Some(&mut self.mass),
            "max_force" => Some(&mut self.max_force),
            "max_speed" => Some(&mut self.max_speed),
            "radius" => Some(&mut self.radius),
            _ => None,
        }
    }
}

/// How a graph's vehicle turns, as the file writes it (angles in degrees); each number may be
/// a literal or a graph parameter. The defaults (a vehicle that faces where it moves, no
/// turn-rate limit) are what files written before the angular layer mean.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurningSpec {
    /// Whether the vehicle faces where its angular nodes turn it (`true`) or where it moves.
    /// Not written when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub independent_facing: bool,
    /// Largest angular speed of the facing (degrees / s, `>= 0`).
    #[serde(default = "default_angular_speed")]
    pub max_angular_speed: Number,
    /// Largest angular acceleration of the facing (degrees / s², `>= 0`).
    #[serde(default = "default_angular_acceleration")]
    pub max_angular_acceleration: Number,
    /// Largest turn of the direction of motion (degrees / s, `>= 0`); `None`: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turn_rate: Option<Number>,
}

fn default_angular_speed() -> Number {
    Number::Literal(TurningParams::default().max_angular_speed)
}

fn default_angular_acceleration() -> Number {
    Number::Literal(TurningParams::default().max_angular_acceleration)
}

impl Default for TurningSpec {
    fn default() -> Self {
        Self {
            independent_facing: false,
            max_angular_speed: default_angular_speed(),
            max_angular_acceleration: default_angular_acceleration(),
            max_turn_rate: None,
        }
    }
}

impl TurningSpec {
    /// Whether these are the defaults, which saving leaves out of the file.
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// The numbers with their ranges, in display order (`max_angular_speed`,
    /// `max_angular_acceleration`, then `max_turn_rate` when set), as the compiler checks
    /// them and the editor edits them.
    pub fn numbers(&self) -> Vec<NumberField<'_>> {
        let mut fields = vec![
            (
                "max_angular_speed",
                &self.max_angular_speed,
                Unit::DegreesPerSecond,
            ),
            (
                "max_angular_acceleration",
                &self.max_angular_acceleration,
                Unit::DegreesPerSecondSquared,
            ),
        ];
        if let Some(rate) = &self.max_turn_rate {
            fields.push(("max_turn_rate", rate, Unit::DegreesPerSecond));
        }
        fields
            .into_iter()
            .map(|(name, number, unit)| NumberField {
                slot: Slot::field(name),
                number,
                constraint: Constraint::NonNegative,
                unit,
            })
            .collect()
    }

    /// The number at `slot` (as listed by [`TurningSpec::numbers`]), for editing.
    pub fn number_mut(&mut self, slot: Slot) -> Option<&mut Number> {
        match slot.name {
            _ if slot.index.is_some() => None,
            "max_angular_speed" => Some(&mut self.max_angular_speed),
            "max_angular_acceleration" => Some(&mut self.max_angular_acceleration),
            "max_turn_rate" => self.max_turn_rate.as_mut(),
            _ => None,
        }
    }
}

/// Node-editor layout, carried by the runtime but never read by it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditorSection {
    /// Canvas position of each node (editor units).
    #[serde(default, deserialize_with = "crate::unique::nodes")]
    pub positions: BTreeMap<NodeId, Vec2>,
    /// Comment frames.
    #[serde(default)]
    pub comments: Vec<Comment>,
    /// Nodes shown collapsed to their header. Not written when empty.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub collapsed: BTreeSet<NodeId>,
}

/// A comment frame on the canvas.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Comment {
    /// The text.
    pub text: String,
    /// Top-left corner (editor units).
    pub position: Vec2,
    /// Width and height (editor units).
    pub size: Vec2,
}
