//! The generic views of a node's numeric fields and input ports, as the node table's macro
//! lists them (`Node::numbers`, `Node::inputs`), so the compiler and the editor walk every
//! node the same way instead of matching each kind again.

use super::{Constraint, Link, Number, PortType, Slot, Unit};

/// The range of Reciprocal's `max_neighbors`: 1 to the fixed capacity of its neighbor array.
pub const RECIPROCAL_NEIGHBORS: Constraint = Constraint::Count {
    max: crate::behaviors::MAX_RECIPROCAL_NEIGHBORS as u16,
};

/// The range of a group node's `max_neighbors`: 1 to 4,096.
pub const GROUP_NEIGHBORS: Constraint = Constraint::Count { max: 4_096 };

/// The `max_neighbors` of a group node that does not say: more than any preset's
/// neighborhoods hold (59 at most), so their motion is the same as before the limit existed,
/// and few enough that a crowd stacked on one point costs each agent 64 neighbors.
pub const DEFAULT_GROUP_NEIGHBORS: f32 = 64.0;

/// The default `max_neighbors` of a group node (serde's `default`).
pub(crate) fn default_group_neighbors() -> Number {
    Number::Literal(DEFAULT_GROUP_NEIGHBORS)
}

/// Whether a group node's `max_neighbors` is the default: then it is not written, so files
/// are byte for byte what they were before the field existed.
pub(crate) fn is_default_group_neighbors(number: &Number) -> bool {
    matches!(number, Number::Literal(value) if *value == DEFAULT_GROUP_NEIGHBORS)
}

/// A numeric field of a node, with the range it must lie in.
#[derive(Debug)]
pub struct NumberField<'a> {
    /// Where the number sits on the node.
    pub slot: Slot,
    /// Its value or parameter reference.
    pub number: &'a Number,
    /// The range it must lie in.
    pub constraint: Constraint,
    /// What it measures.
    pub unit: Unit,
}

/// What a name field of a node names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// A path of the world (or, with `PathFollowing`'s `own`, the agent's own route).
    Path,
    /// A flow field of the scene.
    FlowField,
    /// A jump link of the world.
    JumpLink,
    /// A graph file, relative to the graph that uses it (a subgraph).
    GraphFile,
}

/// A field of a node that names something outside the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameField<'a> {
    /// The field's name as written in RON (`path`, `link`).
    pub field: &'static str,
    /// What it names.
    pub kind: NameKind,
    /// The name (possibly empty: not chosen yet).
    pub name: &'a str,
}

impl super::Node {
    /// Whether its [`NameKind::Path`] name is the agent's own route (`PathFollowing` with
    /// `own`), which each agent brings, rather than a path of the world.
    pub fn follows_own_path(&self) -> bool {
        matches!(self, Self::PathFollowing { own: true, .. })
    }
}

/// An input port of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputPort {
    /// Where the port sits on the node.
    pub slot: Slot,
    /// What the port accepts.
    pub accepts: PortType,
    /// What feeds it.
    pub link: Link,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Node, NodeKind, Region, Target};

    /// Every number `numbers()` lists can be reached for editing, and editing it is seen.
    #[test]
    fn every_listed_number_is_editable() {
        for kind in NodeKind::ALL {
            let mut node = kind.instantiate();
            if let Some(target) = node.targets().first().map(|(field, _)| *field) {
                *node.target_mut(target).expect("listed target") =
                    Target::Point(1.0.into(), 2.0.into());
            }
            if let Self_::Containment { bounds, .. } = &mut node {
                *bounds = Region::Rect(0.0.into(), 0.0.into(), 1.0.into(), 1.0.into());
            }
            if let Self_::Flee { panic_distance, .. } | Self_::Evasion { panic_distance, .. } =
                &mut node
            {
                *panic_distance = Some(3.0.into());
            }
            let slots: Vec<Slot> = node.numbers().iter().map(|field| field.slot).collect();
            for slot in slots {
                let number = node
                    .number_mut(slot)
                    .unwrap_or_else(|| panic!("{kind} {slot}"));
                *number = Number::Parameter("edited".into());
                let after = node.numbers();
                let field = after.iter().find(|f| f.slot == slot).expect("still listed");
                assert_eq!(
                    field.number,
                    &Number::Parameter("edited".into()),
                    "{kind} {slot}"
                );
            }
        }
    }

    use Node as Self_;

    /// The kinds that name something outside the graph, and which field: the validator's
    /// name tables, the editor's name pickers, Find and the export read them from `names()`.
    #[test]
    fn names_lists_every_name_field_with_what_it_names() {
        let mut named = Vec::new();
        for kind in NodeKind::ALL {
            for field in kind.instantiate().names() {
                assert_eq!(field.name, "", "{kind}: a new node names nothing yet");
                named.push((kind.name(), field.field, field.kind));
            }
        }
        assert_eq!(
            named,
            [
                ("PathFollowing", "path", NameKind::Path),
                ("FlowFieldFollowing", "field", NameKind::FlowField),
                ("Jump", "link", NameKind::JumpLink),
                ("JumpAchievable", "link", NameKind::JumpLink),
                ("Subgraph", "file", NameKind::GraphFile),
            ]
        );
        for kind in NodeKind::ALL {
            let mut node = kind.instantiate();
            let fields: Vec<&str> = node.names().iter().map(|named| named.field).collect();
            for field in fields {
                "edited".clone_into(node.name_mut(field).expect("a listed name is editable"));
                assert!(
                    node.names()
                        .iter()
                        .any(|n| n.field == field && n.name == "edited")
                );
            }
            assert_eq!(node.name_mut("no such field"), None);
        }
        let own = Node::PathFollowing {
            path: "patrol".into(),
            prediction_time: 0.5.into(),
            ahead_distance: 2.0.into(),
            direction: crate::PathDirection::Forward,
            corrective: true,
            own: true,
        };
        assert!(own.follows_own_path());
        assert_eq!(
            own.names(),
            [NameField {
                field: "path",
                kind: NameKind::Path,
                name: "patrol"
            }]
        );
    }
}
