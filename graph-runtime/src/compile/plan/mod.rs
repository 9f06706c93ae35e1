//! The compiler's last phase: how a lowered program is evaluated: the neighbor passes its
//! group nodes share and whether it reads other agents (`neighbors.rs`), and the batch plan
//! (`batch.rs`).

mod batch;
mod neighbors;

use super::program::Program;

/// Plans `program` after lowering.
pub(super) fn plan(program: &mut Program) {
    program.plan_neighbor_passes();
    program.plan_batch();
    program.plan_agent_reads();
}
