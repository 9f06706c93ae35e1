//! What a traced evaluation records for the editor: each evaluated node's value, the input a
//! Priority or Dither chose, and the geometry its debug guides draw.

use glam::Vec2;

use crate::compile::guide::Guide;
use crate::graph::NodeId;

/// The value a node produced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NodeValue {
    /// A steering force (a program without angular nodes).
    Force(Vec2),
    /// A steering with its angular part (a program whose nodes turn the facing).
    Steering(crate::Steering),
    /// A sensor reading.
    Scalar(f32),
    /// A condition's answer.
    Condition(bool),
}

/// One node's evaluation in a [`Trace`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceEntry {
    /// The node.
    pub node: NodeId,
    /// What it produced.
    pub value: NodeValue,
    /// For `Priority` and `Dither`, the input (by position) that won, if any.
    pub chosen: Option<usize>,
    /// The geometry behind the value, for guides.
    pub guide: Guide,
}

/// A record of one agent's evaluation: every node evaluated, in completion order. Nodes absent
/// from it were not evaluated (lazy combiners skipped them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// The evaluated nodes.
    pub entries: Vec<TraceEntry>,
}

impl Trace {
    /// The entry of `node`, if it was evaluated.
    pub fn get(&self, node: NodeId) -> Option<&TraceEntry> {
        self.entries.iter().find(|entry| entry.node == node)
    }
}

pub(super) trait Recorder {
    /// Whether anything is recorded; guide geometry is only computed when it is.
    const ACTIVE: bool;
    fn record(&mut self, entry: TraceEntry);
}

pub(super) struct NoTrace;

impl Recorder for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn record(&mut self, _: TraceEntry) {}
}

impl Recorder for &mut Trace {
    const ACTIVE: bool = true;
    fn record(&mut self, entry: TraceEntry) {
        self.entries.push(entry);
    }
}
