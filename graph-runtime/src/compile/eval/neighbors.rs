//! An agent's neighbors, computed at most once per agent and tick, on first use: the sums of
//! every neighbor pass the compiler planned (Separation, Cohesion, Alignment and Flocking
//! nodes with the same radius and field of view share one pass), and, for the nodes that need
//! the neighbors one by one (Unaligned collision avoidance, Neighbor count, Reciprocal), the
//! candidates within the query radius in ascending agent index.

use super::{Evaluator, Recorder};
use crate::Vehicle;
use crate::behaviors::{self, FieldOfView, NeighborSums};
use crate::compile::program::{Fov, NO_PASS, Num};
use crate::compile::{ParamValues, Program, Scratch};
use crate::spatial::{Candidate, Near, SpatialGrid};

impl<R: Recorder, V: super::value::Value> Evaluator<'_, '_, '_, R, V> {
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
    /// first group op of an agent's evaluation takes every pass's sums
    /// ([`take_sums`]); the others read them. A reference, so each formula loads only
    /// the fields it needs.
    ///
    /// Listing first sums over the circle instead of the square of cells around it: on a
    /// sparse flock as fast as summing straight from the cells, 5 % faster with a field of
    /// view, and a third of the time on a dense crowd with three neighborhoods (issue 15,
    /// `BENCHMARKS.md`).
    pub(super) fn group_sums(&mut self, index: u32) -> &NeighborSums {
        if !self.scratch.sums_ready {
            self.scratch.sums_ready = true;
            let Scratch {
                neighborhoods,
                near,
                sums,
                ..
            } = &mut *self.scratch;
            let (grid, me) = (self.context.grid, (self.agent, self.me));
            let params = self.context.params;
            self.program
                .with_neighborhoods(params, neighborhoods, |passes, widest| {
                    take_sums(grid, me, (passes, widest), near, sums);
                });
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

impl Program {
    /// Calls `f` with the neighborhood (radius, field of view) of every neighbor pass for
    /// `params`, and the widest radius. `scratch` holds them when there are several; one (the
    /// usual case) stays on the stack: building the list per agent cost 4 % of a flocking
    /// tick.
    pub(super) fn with_neighborhoods<T>(
        &self,
        params: &ParamValues,
        scratch: &mut Vec<(f32, FieldOfView)>,
        f: impl FnOnce(&[(f32, FieldOfView)], f32) -> T,
    ) -> T {
        let resolve = |&(radius, fov): &(Num, Fov)| (radius.get(params), fov.get(params));
        let one;
        let neighborhoods: &[(f32, FieldOfView)] = match &self.passes[..] {
            [pass] => {
                one = [resolve(pass)];
                &one
            }
            passes => {
                scratch.clear();
                scratch.extend(passes.iter().map(resolve));
                scratch
            }
        };
        let widest = neighborhoods.iter().fold(0.0, |r: f32, n| r.max(n.0));
        f(neighborhoods, widest)
    }
}

/// Every neighbor pass's sums for agent `agent` (`me`), into `sums` (one per pass, for
/// `neighborhoods`, the widest `widest`).
///
/// One full-circle neighborhood (the usual flock) is summed straight from the cells around the
/// agent, every agent of them tested and added or not without a branch: nothing is written
/// per candidate. Otherwise the agents within `widest` are listed first in the grid's order
/// (a distance test each) into `near`, and each pass sums over that list
/// ([`behaviors::neighbor_sums_each`]), so the field-of-view test runs on the few within the
/// radius. Both visit the same agents in the same order and add the same ones, so the sums
/// are the same to the bit (`BENCHMARKS.md`, issue 15, has the timings of both).
#[inline]
#[expect(
    clippy::needless_bitwise_bool,
    reason = "`&` keeps the scan free of branches; both sides are plain comparisons"
)]
pub(super) fn take_sums(
    grid: &SpatialGrid,
    (agent, me): (usize, &Vehicle),
    (neighborhoods, widest): (&[(f32, FieldOfView)], f32),
    near: &mut Near,
    sums: &mut [NeighborSums],
) {
    if let ([(radius, fov)], [only]) = (neighborhoods, &mut *sums)
        && fov.is_full_circle()
    {
        // Summed in a local: into `only` the compiler stored the sums at every agent.
        let mut pass = NeighborSums::default();
        for run in grid.runs(me.position, *radius) {
            let others = run.positions.iter().zip(run.velocities).zip(run.agents);
            for ((&position, &velocity), &other) in others {
                let counts = behaviors::in_neighborhood(me, position, *radius, *fov)
                    & (other as usize != agent);
                pass.add_if(me.position, position, velocity, counts);
            }
        }
        *only = pass;
        return;
    }
    grid.near(me.position, widest, agent, near);
    behaviors::neighbor_sums_each(me, near.as_slice(), neighborhoods, sums);
}

/// The sums of a neighborhood without neighbors.
static NO_NEIGHBORS: NeighborSums = NeighborSums {
    separation: glam::Vec2::ZERO,
    position: glam::Vec2::ZERO,
    velocity: glam::Vec2::ZERO,
    count: 0,
};
