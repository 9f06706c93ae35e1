//! The pipeline: a [`crate::Graph`] validated (`validate.rs`), its subgraphs written out
//! (`subgraph.rs`), lowered into a [`Program`] (`lower/`), planned (`plan/`), then evaluated
//! per agent or per batch (`eval/`). `pipeline.rs` runs the phases in order.

mod bindings;
mod error;
mod eval;
mod guide;
mod lower;
mod pipeline;
mod plan;
mod portable;
mod program;
mod reroutes;
mod subgraph;
mod tag_cells;
mod tag_members;
mod validate;

pub use bindings::{BindError, Bindings, TagMask, TagTable};
pub use error::{CompileError, CompileWarning};
pub(crate) use eval::BATCH;
pub use eval::{Context, NodeValue, Trace, TraceEntry};
pub use guide::{GUIDE_ORCA_LINES, Guide};
pub use pipeline::{compile, compile_keeping_source, compile_with, warnings};
pub use portable::{Portable, PortableNeighborhood, PortableOp, PortableTarget, Unsupported};
pub(crate) use program::TwoParts;
pub use program::{AgentState, ParamValues, Program, RouteSlot, RouteStatus, Scratch, TakeOff};
pub use subgraph::{inline_subgraphs, subgraph_key};
pub(crate) use tag_members::{Swept, TagMembers};
