//! Reciprocal (ORCA): the one kind that reads the other agents one by one around a velocity
//! its input prefers. Its op, lowering, neighbor use, force and guide side by side; the
//! solve is `behaviors/reciprocal.rs`'s, and which agents it considers is the evaluator's
//! neighbor query ([`Leaf::reciprocal_velocity`]).

use glam::Vec2;

use super::{Leaf, Lowering};
use crate::behaviors::{self, OrcaLine, ReciprocalSettings};
use crate::compile::guide::{GUIDE_ORCA_LINES, Guide};
use crate::compile::program::operands::Num;
use crate::graph::Node;

/// A Reciprocal node, its input linked and its numbers resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ReciprocalOp {
    /// The op whose force is the preferred one (its velocity after a tick).
    pub(crate) input: u32,
    time_horizon: Num,
    obstacle_time_horizon: Num,
    neighbor_radius: Num,
    max_neighbors: Num,
    clearance: Num,
    keep_right: Num,
}

impl ReciprocalOp {
    /// The op of `node` when it is a Reciprocal node (`None` for any other kind), its input
    /// and fields resolved by `fields`.
    pub(crate) fn lower(node: &Node, fields: &mut impl Lowering) -> Option<Self> {
        let Node::Reciprocal {
            input,
            time_horizon,
            obstacle_time_horizon,
            neighbor_radius,
            max_neighbors,
            clearance,
            keep_right,
        } = node
        else {
            // Another kind: `lower/ops.rs` asks the next family.
            return None;
        };
        let input = fields.link(*input);
        let [
            time_horizon,
            obstacle_time_horizon,
            neighbor_radius,
            max_neighbors,
            clearance,
            keep_right,
        ] = fields.numbers([
            time_horizon,
            obstacle_time_horizon,
            neighbor_radius,
            max_neighbors,
            clearance,
            keep_right,
        ]);
        Some(Self {
            input,
            time_horizon,
            obstacle_time_horizon,
            neighbor_radius,
            max_neighbors,
            clearance,
            keep_right,
        })
    }

    /// An op reading `input` whose every number is `number` (for tests of the op table).
    #[cfg(test)]
    pub(crate) fn every_number(input: u32, number: Num) -> Self {
        Self {
            input,
            time_horizon: number,
            obstacle_time_horizon: number,
            neighbor_radius: number,
            max_neighbors: number,
            clearance: number,
            keep_right: number,
        }
    }

    /// The most neighbors it makes half-planes for under `params` (its `max_neighbors`, at
    /// most [`behaviors::MAX_RECIPROCAL_NEIGHBORS`]).
    pub(crate) fn most_neighbors(self, params: &crate::compile::ParamValues) -> u64 {
        let most = self.max_neighbors.get(params).max(0.0) as u64;
        most.min(behaviors::MAX_RECIPROCAL_NEIGHBORS as u64)
    }

    /// How far it looks for other agents (`Op::neighbor_use`): its neighbor radius.
    pub(crate) fn neighbor_radius(self) -> Num {
        self.neighbor_radius
    }

    /// The force toward the velocity Reciprocal chooses around `preferred` (its input's
    /// force) for the agent `leaf` evaluates; `preferred` itself when the tick has no length.
    /// The agent remembers the velocity it preferred; in a traced run the solve is also the
    /// node's guide.
    // Not inlined: the solve costs far more than a call, and inlined into the evaluator's
    // walk (`eval/stack.rs`) it made the walk itself heavier: every preset's 3-second run
    // under callgrind took 415.19 M instructions inlined, 413.52 M not, against 414.55 M
    // before the family file.
    #[inline(never)]
    pub(crate) fn force<L: Leaf>(self, leaf: &mut L, preferred: Vec2) -> Vec2 {
        let settings = ReciprocalSettings {
            time_horizon: leaf.num(self.time_horizon),
            obstacle_time_horizon: leaf.num(self.obstacle_time_horizon),
            neighbor_radius: leaf.num(self.neighbor_radius),
            // A whole number from 1 to 32 (checked by the compiler and by overrides).
            max_neighbors: leaf.num(self.max_neighbors) as usize,
            clearance: leaf.num(self.clearance),
            keep_right: leaf.num(self.keep_right).to_radians(),
        };
        let dt = leaf.dt();
        if !(dt > 0.0 && dt.is_finite()) {
            return preferred;
        }
        let (preferred, chosen, fallback) = leaf.reciprocal_velocity(&settings, preferred);
        leaf.remember_preferred(preferred);
        if L::TRACED {
            let guide = guide(leaf.orca_lines(), preferred, chosen, fallback);
            leaf.leave_guide(guide);
        }
        behaviors::reaching_force(leaf.me(), chosen, dt)
    }
}

/// The guide of one solve: the preferred and chosen velocities and the first half-planes of
/// `all` (as many as a guide carries), with how many there were.
fn guide(all: &[OrcaLine], preferred: Vec2, chosen: Vec2, fallback: bool) -> Guide {
    let mut lines = [OrcaLine::default(); GUIDE_ORCA_LINES];
    for (slot, line) in lines.iter_mut().zip(all) {
        *slot = *line;
    }
    Guide::Reciprocal {
        preferred,
        chosen,
        lines,
        count: all.len().min(GUIDE_ORCA_LINES) as u8,
        total: all.len().min(usize::from(u8::MAX)) as u8,
        fallback,
    }
}
