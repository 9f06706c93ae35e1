//! The graph model: plain data, as stored in `.graph.ron` files.

mod document;
mod file;
mod kind;
mod link;
mod node;
mod number;
mod ports;
mod target;

pub use document::{Comment, EditorSection, Graph, VehicleSpec};
pub use kind::{Category, NodeKind};
pub use link::{Link, NodeId};
pub use node::{
    ChanceInput, Comparison, Constraint, Node, PathDirection, PortType, Region, Slot, WallSide,
    WeightedInput,
};
pub use number::Number;
pub use ports::{InputPort, NumberField, RECIPROCAL_NEIGHBORS};
pub use target::Target;
