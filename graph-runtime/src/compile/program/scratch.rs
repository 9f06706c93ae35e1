//! Per-thread scratch space of evaluation: neighbor lists and sums, the memo of shared ops,
//! the evaluator's explicit stack of waiting combiners ([`Frame`]) and the batch's columns.

use glam::Vec2;

/// Per-thread scratch buffers for evaluation. Reuse one per thread; it grows to fit the
/// largest program and neighborhood and then stops allocating.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    pub(crate) neighbors: crate::spatial::Candidates,
    pub(crate) neighbors_ready: bool,
    /// Each neighbor pass's sums for this agent (when `sums_ready`).
    pub(crate) sums: Vec<crate::behaviors::NeighborSums>,
    pub(crate) sums_ready: bool,
    /// The passes' neighborhoods for this agent's parameters (when there are several).
    pub(crate) neighborhoods: Vec<(f32, crate::behaviors::FieldOfView)>,
    /// The agents within the widest of them, in the grid's order.
    pub(crate) near: crate::spatial::Near,
    /// Values of shared ops computed this tick, valid when their stamp is the current one.
    pub(crate) memo: Vec<(u32, Vec2)>,
    pub(crate) stamp: u32,
    /// The evaluator's explicit stack of combiners waiting for an input.
    pub(crate) frames: Vec<Frame>,
    /// Batch evaluation: each agent's neighbor sums (one per pass, agent after agent), where
    /// `batch_sums_ready` says they were taken.
    pub(crate) batch_sums: Vec<crate::behaviors::NeighborSums>,
    pub(crate) batch_sums_ready: Vec<bool>,
    /// Batch evaluation: each op's value for each agent of the batch (op after op).
    pub(crate) batch_values: Vec<Vec2>,
    /// Batch evaluation: the agents no input of a Priority has answered yet.
    pub(crate) batch_open: Vec<u16>,
}

/// A combiner or condition waiting for its inputs, on the evaluator's explicit stack (kept in
/// [`Scratch`], so evaluation depth costs heap, never thread stack).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// The op.
    pub(crate) op: u32,
    /// How many of its inputs have been considered (the position of the next one).
    pub(crate) next: u32,
    /// Running total: Blend's sum, Budget's total.
    pub(crate) sum: Vec2,
    /// Priority's and Dither's epsilon; Budget's force left.
    pub(crate) left: f32,
}

impl Frame {
    pub(crate) fn new(op: u32, left: f32) -> Self {
        Self {
            op,
            next: 0,
            sum: Vec2::ZERO,
            left,
        }
    }
}
