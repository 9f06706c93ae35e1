//! The compiler's last phase: how a lowered program is evaluated: the neighbor passes its
//! group nodes share and whether it reads other agents (`neighbors.rs`), the batch plan
//! (`batch.rs`), and whether its values have an angular part.

mod batch;
mod neighbors;

use super::program::Program;

/// Plans `program` after lowering.
pub(super) fn plan(program: &mut Program) {
    program.plan_neighbor_passes();
    program.plan_batch();
    program.plan_agent_reads();
    program.turns = program.ops.iter().any(super::program::Op::turns);
}
