//! Node ids and the links between nodes (the id of the node feeding a port, or none).

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A node's stable identifier inside one graph. Written in RON as a plain integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(pub u32);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// An input port's connection: the id of the node whose output feeds it, or nothing.
///
/// Written in RON as the source node's id (`3`) or `None` for an unconnected port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Link(pub Option<NodeId>);

impl Link {
    /// A link from node `id`.
    pub fn to(id: u32) -> Self {
        Self(Some(NodeId(id)))
    }

    /// An unconnected port.
    pub const NONE: Self = Self(None);

    /// The source node, if connected.
    pub fn source(self) -> Option<NodeId> {
        self.0
    }
}

impl Serialize for Link {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(NodeId(id)) => serializer.serialize_u32(id),
            None => serializer.serialize_none(),
        }
    }
}

impl<'de> Deserialize<'de> for Link {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LinkVisitor)
    }
}

struct LinkVisitor;

impl<'de> Visitor<'de> for LinkVisitor {
    type Value = Link;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a node id (a whole number) or None")
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Link, E> {
        u32::try_from(value)
            .map(Link::to)
            .map_err(|_| E::custom(format!("node id {value} is larger than 4294967295")))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Link, E> {
        u64::try_from(value)
            .map_err(|_| E::custom(format!("node id {value} is negative")))
            .and_then(|value| self.visit_u64(value))
    }

    fn visit_none<E: de::Error>(self) -> Result<Link, E> {
        Ok(Link::NONE)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Link, E> {
        Ok(Link::NONE)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Link, D::Error> {
        NodeId::deserialize(deserializer).map(|id| Link(Some(id)))
    }
}
