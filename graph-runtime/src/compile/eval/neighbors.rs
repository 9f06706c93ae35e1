//! An agent's neighbors, computed at most once per agent and tick, on first use: the sums of
//! every neighbor pass the compiler planned (Separation, Cohesion, Alignment and Flocking
//! nodes with the same radius and field of view share one pass), and, for the nodes that need
//! the neighbors one by one (Unaligned collision avoidance, Neighbor count, Reciprocal), the
//! candidates within the query radius in ascending agent index.

use super::{Evaluator, Recorder};
use crate::behaviors::{self, NeighborSums};
use crate::compile::program::NO_PASS;
use crate::spatial::Candidate;

impl<R: Recorder> Evaluator<'_, '_, '_, R> {
    /// The neighbor candidates of this agent: the other agents strictly within the query
    /// radius, in ascending agent index. Queries the grid on first use.
    pub(super) fn neighbors(&mut self) -> &[Candidate] {
        if !self.scratch.neighbors_ready {
            self.scratch.neighbors_ready = true;
            let radius = self.program.query_radius(self.me, &self.context);
            let (grid, me) = (self.context.grid, self.me);
            grid.candidates(me.position, radius, self.agent, &mut self.scratch.neighbors);
        }
        self.scratch.neighbors.as_slice()
    }

    /// The neighbor sums of group op `index` (Separation, Cohesion, Alignment, Flocking). The
    /// first group op of an agent's evaluation takes the sums of every pass in one visit of
    /// the grid's cells around the agent ([`behaviors::neighbor_sums`], or
    /// [`behaviors::neighbor_sums_each`] for several); the others read them. A reference,
    /// so each formula loads only the fields it needs.
    pub(super) fn group_sums(&mut self, index: u32) -> &NeighborSums {
        if !self.scratch.sums_ready {
            self.scratch.sums_ready = true;
            let (grid, me, params) = (self.context.grid, self.me, self.context.params);
            let scratch = &mut *self.scratch;
            if let [(radius, fov)] = self.program.passes[..]
                && let Some(sums) = scratch.sums.first_mut()
            {
                let (radius, fov) = (radius.get(params), fov.get(params));
                *sums = behaviors::neighbor_sums(grid, me, self.agent, radius, fov);
            } else {
                scratch.neighborhoods.clear();
                let neighborhoods = self.program.passes.iter();
                scratch.neighborhoods.extend(
                    neighborhoods.map(|&(radius, fov)| (radius.get(params), fov.get(params))),
                );
                let sums = &mut scratch.sums;
                behaviors::neighbor_sums_each(grid, me, self.agent, &scratch.neighborhoods, sums);
            }
        }
        let pass = self
            .program
            .pass_of
            .get(index as usize)
            .copied()
            .unwrap_or(NO_PASS);
        self.scratch
            .sums
            .get(pass as usize)
            .unwrap_or(&NO_NEIGHBORS)
    }
}

/// The sums of a neighborhood without neighbors.
static NO_NEIGHBORS: NeighborSums = NeighborSums {
    separation: glam::Vec2::ZERO,
    position: glam::Vec2::ZERO,
    velocity: glam::Vec2::ZERO,
    count: 0,
};
