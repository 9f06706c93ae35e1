//! An agent's neighbors, computed at most once per agent and tick, on first use: the sums of
//! every neighbor pass the compiler planned (Separation, Cohesion, Alignment and Flocking
//! nodes with the same radius and field of view share one pass), and, for the nodes that need
//! the neighbors one by one (Unaligned collision avoidance, Neighbor count, Reciprocal), the
//! candidates within the query radius in ascending agent index.

use super::{Evaluator, Recorder};
use crate::behaviors::{self, FieldOfView, NeighborSums};
use crate::compile::program::{Fov, NO_PASS, Num};
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
    /// first group op of an agent's evaluation lists the agents within the widest pass radius
    /// in the grid's order (one visit of the cells around the agent, a distance test each),
    /// then takes every pass's sums over that list ([`behaviors::neighbor_sums_each`]); the
    /// others read them. A reference, so each formula loads only the fields it needs.
    ///
    /// Listing first sums over the circle instead of the square of cells around it: on a
    /// sparse flock as fast as summing straight from the cells, 5 % faster with a field of
    /// view, and a third of the time on a dense crowd with three neighborhoods (issue 15,
    /// `BENCHMARKS.md`).
    pub(super) fn group_sums(&mut self, index: u32) -> &NeighborSums {
        if !self.scratch.sums_ready {
            self.scratch.sums_ready = true;
            let (grid, me, params) = (self.context.grid, self.me, self.context.params);
            let scratch = &mut *self.scratch;
            let resolve = |&(radius, fov): &(Num, Fov)| (radius.get(params), fov.get(params));
            // One neighborhood (the usual case) stays on the stack: building the list per
            // agent cost 4 % of a flocking tick.
            let one;
            let neighborhoods: &[(f32, FieldOfView)] = match &self.program.passes[..] {
                [pass] => {
                    one = [resolve(pass)];
                    &one
                }
                passes => {
                    scratch.neighborhoods.clear();
                    scratch.neighborhoods.extend(passes.iter().map(resolve));
                    &scratch.neighborhoods
                }
            };
            let widest = neighborhoods.iter().fold(0.0, |r: f32, n| r.max(n.0));
            grid.near(me.position, widest, self.agent, &mut scratch.near);
            let near = scratch.near.as_slice();
            behaviors::neighbor_sums_each(me, near, neighborhoods, &mut scratch.sums);
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
