//! The graph model: plain data, as stored in `.graph.ron` files.

#[macro_use]
mod table;

mod choice;
mod document;
mod file;
pub(crate) use file::GraphFile;
mod kind;
mod link;
mod node;
mod number;
mod ports;
pub(crate) mod shape;
mod target;
mod values;

pub use choice::{Choice, InputList};
pub use document::{Comment, EditorSection, Graph, TurningSpec, VehicleSpec};
pub use kind::{Category, Reads};
pub use link::{Link, NodeId};
pub use node::{Node, NodeKind};
pub use number::Number;
pub use ports::{InputPort, NameField, NameKind, NumberField};
pub use target::{Heading, Target, VelocitySource};
pub use values::{
    ChanceInput, Comparison, Constraint, PathDirection, PortType, Region, Slot, Unit, WallSide,
    WeightedInput,
};
