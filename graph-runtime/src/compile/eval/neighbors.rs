//! An agent's one query of its neighbors per tick: the candidates within the query radius in
//! ascending agent index, and from them the sums of every neighbor pass the compiler planned
//! (Separation, Cohesion, Alignment and Flocking nodes with the same radius and field of view
//! share one pass).

use super::{Evaluator, Recorder};
use crate::Vehicle;
use crate::behaviors::{self, FieldOfView, NeighborSums};
use crate::compile::program::NO_PASS;
use crate::spatial::{Candidate, SpatialGrid};

impl<R: Recorder> Evaluator<'_, '_, '_, R> {
    /// Queries the grid once (on first use, at most once per agent and tick): the candidates
    /// in ascending agent index, then the sums of each neighbor pass over them.
    fn scan_neighbors(&mut self) {
        if self.scratch.neighbors_ready {
            return;
        }
        self.scratch.neighbors_ready = true;
        let program = self.program;
        let params = self.context.params;
        let (me, grid) = (self.me, self.context.grid);
        let radius = program.query_radius(me, &self.context);
        let scratch = &mut *self.scratch;
        grid.candidates(me.position, radius, self.agent, &mut scratch.neighbors);
        let candidates = scratch.neighbors.as_slice();
        for (sums, &(radius, fov)) in scratch.sums.iter_mut().zip(&program.passes) {
            *sums = pass_sums(grid, candidates, me, radius.get(params), fov.get(params));
        }
    }

    /// The neighbor candidates of this agent: the other agents strictly within the query
    /// radius, in ascending agent index.
    pub(super) fn neighbors(&mut self) -> &[Candidate] {
        self.scan_neighbors();
        self.scratch.neighbors.as_slice()
    }

    /// The neighbor sums of group op `index` (Separation, Cohesion, Alignment, Flocking), from
    /// the agent's one scan.
    pub(super) fn group_sums(&mut self, index: u32) -> NeighborSums {
        self.scan_neighbors();
        let pass = self
            .program
            .pass_of
            .get(index as usize)
            .copied()
            .unwrap_or(NO_PASS);
        self.scratch
            .sums
            .get(pass as usize)
            .copied()
            .unwrap_or_default()
    }
}

/// The sums over the candidates within `radius` and `fov` of `me`, in the candidates' order.
#[inline]
fn pass_sums(
    grid: &SpatialGrid,
    candidates: &[Candidate],
    me: &Vehicle,
    radius: f32,
    fov: FieldOfView,
) -> NeighborSums {
    let (positions, velocities) = (grid.positions(), grid.velocities());
    let mut sums = NeighborSums::default();
    for candidate in candidates {
        let slot = candidate.slot();
        if let (Some(&position), Some(&velocity)) = (positions.get(slot), velocities.get(slot))
            && behaviors::in_neighborhood(me, position, radius, fov)
        {
            sums.add(me.position, position, velocity);
        }
    }
    sums
}
