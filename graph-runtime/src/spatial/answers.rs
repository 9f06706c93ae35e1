//! What the grid's queries answer: the candidates (sorted by agent index), the agents near
//! (in the grid's order) and the runs of cells a query visits.

use glam::Vec2;

#[cfg(doc)]
use super::SpatialGrid;
use super::network::sort_few;

/// The answer of [`SpatialGrid::candidates`]: a buffer that keeps its size between queries.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    buffer: Vec<Candidate>,
    len: usize,
}

impl Candidates {
    /// The candidates of the last query, in ascending agent index.
    #[inline]
    pub fn as_slice(&self) -> &[Candidate] {
        self.buffer.get(..self.len).unwrap_or(&[])
    }

    /// Starts a query.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Makes room for `more` candidates after those kept. The buffer only ever grows, so a
    /// warm query writes no filler.
    #[inline]
    pub(crate) fn make_room(&mut self, more: usize) {
        if self.buffer.len() < self.len + more {
            self.buffer.resize(self.len + more, Candidate::default());
        }
    }

    /// Writes `agent` at `slot` after those kept, and keeps it when `keep`: a scan can test
    /// and store without a branch to mispredict. Call [`Candidates::make_room`] first.
    #[inline]
    pub(crate) fn push_if(&mut self, agent: u32, slot: usize, keep: bool) {
        if let Some(candidate) = self.buffer.get_mut(self.len) {
            *candidate = Candidate::new(agent, slot as u32);
        }
        self.len += usize::from(keep);
    }

    /// Keeps only the candidates `keep` accepts, in their order.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&Candidate) -> bool) {
        let mut kept = 0;
        for at in 0..self.len {
            if let Some(&candidate) = self.buffer.get(at)
                && keep(&candidate)
            {
                if let Some(slot) = self.buffer.get_mut(kept) {
                    *slot = candidate;
                }
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Sorts the kept candidates by agent index.
    #[inline]
    pub(crate) fn sort(&mut self) {
        if let Some(kept) = self.buffer.get_mut(..self.len) {
            sort_few(kept);
        }
    }
}

/// The answer of [`SpatialGrid::near`]: positions and velocities of the agents near a point,
/// in the grid's order, in a buffer that keeps its size between queries.
#[derive(Clone, Debug, Default)]
pub struct Near {
    pub(super) buffer: Vec<(Vec2, Vec2)>,
    pub(super) len: usize,
}

impl Near {
    /// The agents of the last query: `(position, velocity)` in the grid's order.
    #[inline]
    pub fn as_slice(&self) -> &[(Vec2, Vec2)] {
        self.buffer.get(..self.len).unwrap_or(&[])
    }
}

/// One row of cells of a [`SpatialGrid::runs`] query: consecutive slots of the grid's
/// cell-ordered copies, cell after cell from left to right, each cell's agents in ascending
/// index.
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    /// The row of cells it is (from the grid's bottom row, 0).
    pub row: usize,
    /// The slot of the run's first agent.
    pub first_slot: usize,
    /// The agents' indices.
    pub agents: &'a [u32],
    /// Their positions at the last rebuild.
    pub positions: &'a [Vec2],
    /// Their velocities at the last rebuild.
    pub velocities: &'a [Vec2],
}

/// One neighbor candidate from [`SpatialGrid::candidates`]: an agent, and the slot where its
/// position and velocity sit in the grid's cell-ordered copies ([`SpatialGrid::positions`],
/// [`SpatialGrid::velocities`]). Candidates order by agent index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Candidate(u64);

impl Candidate {
    /// No candidate is greater: the filler of a sort by network ([`super::network`]).
    pub(crate) const GREATEST: Self = Self(u64::MAX);

    #[inline]
    fn new(agent: u32, slot: u32) -> Self {
        Self((u64::from(agent) << 32) | u64::from(slot))
    }

    /// The agent's index.
    #[inline]
    pub fn agent(self) -> usize {
        (self.0 >> 32) as usize
    }

    /// Where the agent sits in the grid's cell-ordered copies.
    #[inline]
    pub fn slot(self) -> usize {
        (self.0 & u64::from(u32::MAX)) as usize
    }
}
