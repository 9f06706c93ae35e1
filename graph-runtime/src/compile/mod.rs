//! The pipeline: a [`crate::Graph`] compiled into a [`Program`], then evaluated per agent.

mod bindings;
mod compiler;
mod error;
mod eval;
mod program;
mod subgraph;

pub use bindings::{BindError, Bindings, TagMask, TagTable};
pub use compiler::{compile, compile_with};
pub use error::CompileError;
pub(crate) use eval::BATCH;
pub use eval::{Context, GUIDE_ORCA_LINES, Guide, NodeValue, Trace, TraceEntry};
pub use program::{AgentState, ParamValues, Program, Scratch};
pub use subgraph::{inline_subgraphs, subgraph_key};
