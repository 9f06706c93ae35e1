//! Per-thread scratch space of evaluation: neighbor lists and sums, the memo of shared ops,
//! the evaluator's explicit stack of waiting combiners ([`Frame`]), the batch's columns, and
//! the take-offs Jump nodes asked for.

use glam::{Vec2, Vec3};

use super::TakeOff;

/// Per-thread scratch buffers for evaluation. Reuse one per thread; it grows to fit the
/// largest program and neighborhood and then stops allocating.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    pub(crate) neighbors: crate::spatial::Candidates,
    pub(crate) neighbors_ready: bool,
    /// Each neighbor pass's sums for this agent (when `sums_ready`).
    pub(crate) sums: Vec<crate::behaviors::NeighborSums>,
    pub(crate) sums_ready: bool,
    /// The passes' neighborhoods for this agent's parameters (when there are several):
    /// radius, field of view, most neighbors.
    pub(crate) neighborhoods: Vec<(f32, crate::behaviors::FieldOfView, usize)>,
    /// The neighbors a scan of the cells found, as (key, slot): the key orders them nearest
    /// first, the lower index on a tie (`spatial::key`).
    pub(crate) found: Vec<(u64, u32)>,
    /// The nearest neighbors the k-d tree answered (keys: squared distance and agent; sorted
    /// into the grid's order for sums).
    pub(crate) nearest: Vec<u64>,
    /// The agents within the widest of them, in the grid's order.
    pub(crate) near: crate::spatial::Near,
    /// Values of shared ops computed this tick, valid when their stamp is the current one.
    pub(crate) memo: Vec<(u32, Vec2)>,
    pub(crate) stamp: u32,
    /// The evaluator's explicit stack of combiners waiting for an input.
    pub(crate) frames: Vec<Frame<Vec2>>,
    /// Batch evaluation: each agent's neighbor sums (one per pass, agent after agent), where
    /// `batch_sums_ready` says they were taken.
    pub(crate) batch_sums: Vec<crate::behaviors::NeighborSums>,
    pub(crate) batch_sums_ready: Vec<bool>,
    /// Batch evaluation: each op's value for each agent of the batch (op after op).
    pub(crate) batch_values: Vec<Vec2>,
    /// Batch evaluation: the agents no input of a Priority has answered yet.
    pub(crate) batch_open: Vec<u16>,
    /// The same buffers for programs that turn the facing (values with an angular part).
    pub(crate) turning: TurningScratch,
    /// Reciprocal's half-planes of the agent being evaluated (one list for every agent).
    pub(crate) orca_lines: crate::behaviors::OrcaLines,
    /// Room for the keys of Reciprocal's scan of the grid's cells.
    pub(crate) scan_keys: crate::behaviors::ScanKeys,
    /// The take-offs Jump nodes asked for since the driver last took them, in evaluation
    /// order.
    pub(crate) take_offs: Vec<TakeOff>,
    /// The agents whose step ended in a gap this tick (the simulation's bookkeeping).
    pub(crate) falls: Vec<u32>,
}

impl Scratch {
    /// The take-offs Jump nodes asked for since the last call, in evaluation order (the
    /// driver of the agents makes them airborne); leaves none behind.
    pub fn take_offs(&mut self) -> Vec<TakeOff> {
        std::mem::take(&mut self.take_offs)
    }

    /// The take-offs and the falls of a tick's tasks, each task's `scratches` in turn (their
    /// agents' order within each); leaves none behind. What a driver that splits its tick
    /// (`tick/split.rs`) hands its jumps at the tick's end.
    pub(crate) fn drain_jumps(scratches: &mut [Self]) -> (Vec<TakeOff>, Vec<u32>) {
        let (mut take_offs, mut falls) = (Vec::new(), Vec::new());
        for scratch in scratches {
            take_offs.append(&mut scratch.take_offs);
            falls.append(&mut scratch.falls);
        }
        (take_offs, falls)
    }

    /// Forgets the take-offs asked for (a driver that does not fly jumps).
    pub fn clear_take_offs(&mut self) {
        self.take_offs.clear();
    }
}

/// [`Scratch`]'s buffers of values for programs that turn the facing.
#[derive(Clone, Debug, Default)]
pub(crate) struct TurningScratch {
    pub(crate) memo: Vec<(u32, Vec3)>,
    pub(crate) frames: Vec<Frame<Vec3>>,
    pub(crate) batch_values: Vec<Vec3>,
}

/// A combiner or condition waiting for its inputs, on the evaluator's explicit stack (kept in
/// [`Scratch`], so evaluation depth costs heap, never thread stack).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame<V> {
    /// The op.
    pub(crate) op: u32,
    /// How many of its inputs have been considered (the position of the next one).
    pub(crate) next: u32,
    /// Running total: Blend's sum, Budget's total.
    pub(crate) sum: V,
    /// Priority's and Dither's epsilon; Budget's force left.
    pub(crate) left: f32,
}

impl<V> Frame<V> {
    pub(crate) fn new(op: u32, left: f32, zero: V) -> Self {
        Self {
            op,
            next: 0,
            sum: zero,
            left,
        }
    }
}
