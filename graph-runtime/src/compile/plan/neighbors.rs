//! Planning what a program reads of other agents: the neighbor passes its group nodes share,
//! and whether it reads other agents' vehicles by index.

use crate::compile::program::{Fov, NO_PASS, NeighborUse, Num, Program};
use crate::graph::Reads;

impl Program {
    /// Finds [`Program::reads_other_agents`] once the ops are compiled.
    pub(in crate::compile) fn plan_agent_reads(&mut self) {
        // A target may be the nearest tagged agent; some kinds read neighbors one by one.
        self.reads_agents = self.ops.iter().any(|op| {
            op.kind()
                .is_some_and(|kind| kind.reads() == Reads::Agents || kind.aims_at_targets())
        });
    }

    /// Plans the neighbor passes: group nodes that read the same neighborhood (the same
    /// radius, field of view and most neighbors, literal or parameter) get the same pass, so
    /// one visit of the neighbors computes the sums all of them finish from.
    pub(in crate::compile) fn plan_neighbor_passes(&mut self) {
        let mut keys: Vec<(Num, Fov, Num)> = Vec::new();
        self.pass_of = self
            .ops
            .iter()
            .map(|op| {
                let NeighborUse::Sums(radius, fov, most) = op.neighbor_use() else {
                    return NO_PASS;
                };
                let key = (radius, fov, most);
                let pass = keys.iter().position(|k| same_neighborhood(*k, key));
                pass.unwrap_or_else(|| {
                    keys.push(key);
                    keys.len() - 1
                }) as u32
            })
            .collect();
        self.passes = keys;
    }
}

/// Whether two (radius, field of view, most neighbors) always select the same neighbors: the
/// same parameters, or literals with the same bits.
fn same_neighborhood(a: (Num, Fov, Num), b: (Num, Fov, Num)) -> bool {
    let same = |a: Num, b: Num| match (a, b) {
        (Num::Const(x), Num::Const(y)) => x.to_bits() == y.to_bits(),
        (Num::Param(x), Num::Param(y)) => x == y,
        _ => false,
    };
    let same_num = same(a.0, b.0) && same(a.2, b.2);
    let same_fov = match (a.1, b.1) {
        (Fov::Const(x), Fov::Const(y)) => x == y,
        (Fov::Param(x), Fov::Param(y)) => x == y,
        _ => false,
    };
    same_num && same_fov
}
