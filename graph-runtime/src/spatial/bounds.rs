//! How far each agent's nearest neighbors were at its last query, so that the next tick's
//! query looks no farther than they can be now (issue 47).
//!
//! A Reciprocal query wants the `k` agents nearest an agent within its neighbor radius. When
//! last tick's query found `k` of them no farther than `d`, and since then no agent moved
//! farther than `m`, those same `k` agents are now no farther than `d + 2m`: the `k` nearest
//! lie within that distance, and a query cut to it (when it is shorter than the radius) finds
//! the very same agents in the same order, from fewer cells and fewer candidates. In a dense
//! crowd the cut is large: RVO2's Circle has about 80 agents within its radius of 15 units
//! and its tenth nearest at about 5.
//!
//! Each agent's note (the distance, for how many neighbors, and the rebuild it was taken at)
//! is written by the one task that steers the agent, and read by it at the next tick's query:
//! relaxed atomics by agent index, the same answers for any thread count. A note is used only
//! at its own rebuild or the next one, and only when the caller has told the grid how far the
//! agents moved between the two ([`SpatialGrid::agents_moved_at_most`]); otherwise the query
//! looks as far as its radius, as it always did.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use glam::Vec2;

use super::{Flag, SpatialGrid};

/// The rebuilds a note remembers are counted modulo 2²⁴ (the note's top 24 bits).
const GENERATIONS: u32 = 1 << 24;
/// The least slack a cut query adds (units): a thousandth, whose square is a normal float.
const LEAST_SLACK: f32 = 1e-3;

/// Every agent's note and what the rebuilds since say about them (see the module's
/// documentation).
#[derive(Debug)]
pub(super) struct NeighborBounds {
    /// Which rebuild this is, modulo [`GENERATIONS`].
    generation: u32,
    /// How far any agent may have moved since the last rebuild (units); infinite when not
    /// known.
    moved: f32,
    /// Per agent index: the distance's bits, then the number of neighbors (8 bits), then the
    /// rebuild (24 bits). Zero is no note (it counts no neighbor).
    notes: Vec<AtomicU64>,
    /// Whether a query noted anything since the last rebuild; the notes are kept only while
    /// queries take them.
    noted: Flag,
}

impl Default for NeighborBounds {
    fn default() -> Self {
        Self {
            generation: 0,
            moved: f32::INFINITY,
            notes: Vec::new(),
            noted: Flag::default(),
        }
    }
}

impl Clone for NeighborBounds {
    fn clone(&self) -> Self {
        Self {
            generation: self.generation,
            moved: self.moved,
            notes: (self.notes.iter())
                .map(|note| AtomicU64::new(note.load(Relaxed)))
                .collect(),
            noted: self.noted.clone(),
        }
    }
}

impl NeighborBounds {
    /// A rebuild over `agents` agents: the notes taken so far are one rebuild old, and how far
    /// the agents moved is not known until the caller says.
    fn rebuilt(&mut self, agents: usize) {
        self.moved = f32::INFINITY;
        self.advance(1);
        if !self.noted.take() {
            // No query took notes: nothing kept (and nothing to clear when one starts).
            self.notes.clear();
        } else if self.notes.len() != agents {
            // The agents changed: nothing known about the new indices.
            self.notes.clear();
            self.notes.resize_with(agents, AtomicU64::default);
        }
    }

    /// Ages every note by `rebuilds`; at the counter's wrap every note is cleared, so an old
    /// one never passes for a new one.
    fn advance(&mut self, rebuilds: u32) {
        let next = self.generation + rebuilds;
        if next >= GENERATIONS {
            self.notes.iter_mut().for_each(|note| *note.get_mut() = 0);
        }
        self.generation = next % GENERATIONS;
    }

    /// The notes of `agents`, read (and summed, wrapping, so that the reads are made): the
    /// lines [`NeighborBounds::reach`] reads next, loaded ahead of it.
    fn read_ahead(&self, agents: impl Iterator<Item = usize>) -> u64 {
        agents.fold(0, |sum, agent| {
            let note = self.notes.get(agent).map_or(0, |note| note.load(Relaxed));
            sum.wrapping_add(note)
        })
    }

    /// How far agent `agent` at `p` needs to look for its `keep` nearest within `radius`.
    fn reach(&self, agent: usize, p: Vec2, keep: usize, radius: f32) -> f32 {
        let Some(note) = self.notes.get(agent) else {
            return radius;
        };
        let note = note.load(Relaxed);
        let (distance, noted_for, generation) = (
            f32::from_bits(note as u32),
            (note >> 32) as u8 as usize,
            (note >> 40) as u32,
        );
        let moved = match self.generation.wrapping_sub(generation) % GENERATIONS {
            // At this rebuild (another query of the agent this tick): nothing moved.
            0 => 0.0,
            1 => self.moved,
            _ => return radius,
        };
        if noted_for < keep.max(1) || distance.is_nan() || distance < 0.0 || !moved.is_finite() {
            return radius;
        }
        let bound = distance + 2.0 * moved;
        // Room for rounding: in the squared distances (the positions' own size bounds their
        // error), the noted distance's root and the movement's; and never none, so that
        // agents stacked on the agent's own point (a distance of 0 at the origin) are still
        // within it.
        let slack = bound / 64.0 + (p.x.abs() + p.y.abs() + bound) / 65_536.0 + LEAST_SLACK;
        let reach = bound + slack;
        if reach < radius { reach } else { radius }
    }

    /// Notes that agent `agent`'s query for its `keep` nearest found `nearest` (their keys,
    /// nearest first): the distance of the last when it found `keep`, else no note.
    fn note(&self, agent: usize, keep: usize, nearest: &[u64]) {
        self.noted.set();
        let Some(slot) = self.notes.get(agent) else {
            return;
        };
        let note = match (nearest.get(keep.wrapping_sub(1)), u8::try_from(keep)) {
            (Some(&kth), Ok(keep)) => {
                let distance = f32::from_bits((kth >> 32) as u32).sqrt();
                u64::from(distance.to_bits())
                    | u64::from(keep) << 32
                    | u64::from(self.generation) << 40
            }
            _ => 0,
        };
        slot.store(note, Relaxed);
    }
}

/// `moved_squared` or the squared length of the step `from → to`, whichever is larger:
/// infinite for a step to or from a position that is not finite (the agent left the grid's
/// cells or came into them), nothing for one between two such positions (in none).
pub(crate) fn farther(moved_squared: f32, from: Vec2, to: Vec2) -> f32 {
    let step = match (from.is_finite(), to.is_finite()) {
        (true, true) => from.distance_squared(to),
        (false, false) => 0.0,
        _ => f32::INFINITY,
    };
    if step > moved_squared {
        step
    } else {
        moved_squared
    }
}

/// Where the agents stood at a grid's last rebuild, for a caller that moves them itself
/// between rebuilds (a game's [`crate::Crowd`]): at the next rebuild it tells the grid how far
/// the farthest moved since, measured agent by agent.
#[derive(Clone, Debug, Default)]
pub(crate) struct RebuiltAt {
    /// By agent index; empty when not measured.
    positions: Vec<Vec2>,
}

impl RebuiltAt {
    /// Call right after each rebuild of `grid` over `vehicles` (by agent index); `measure`:
    /// whether a program reads other agents by index (Reciprocal), else nothing is kept.
    pub(crate) fn tell(
        &mut self,
        grid: &mut SpatialGrid,
        vehicles: &[crate::Vehicle],
        measure: bool,
    ) {
        if !measure {
            self.positions.clear();
            return;
        }
        if self.positions.len() == vehicles.len() {
            let moved_squared = (vehicles.iter().zip(&self.positions))
                .fold(0.0, |moved, (vehicle, &was)| {
                    farther(moved, was, vehicle.position)
                });
            grid.agents_moved_at_most(moved_squared.sqrt());
        }
        self.positions.clear();
        self.positions
            .extend(vehicles.iter().map(|vehicle| vehicle.position));
    }
}

impl SpatialGrid {
    /// Tells the grid that since its last rebuild no agent moved farther than `moved` (units),
    /// and that the agents are the same (same indices): the notes of last tick's queries then
    /// bound this tick's ([`SpatialGrid::neighbor_reach`]). Call it after the rebuild; a grid
    /// not told knows nothing of how the agents moved.
    pub(crate) fn agents_moved_at_most(&mut self, moved: f32) {
        self.bounds.moved = if moved >= 0.0 { moved } else { f32::INFINITY };
    }

    /// Tells the grid that the agents moved while it was not rebuilt: no note taken so far
    /// bounds a later query.
    pub(crate) fn forget_neighbor_notes(&mut self) {
        self.bounds.advance(2);
    }

    /// How far agent `agent` (at `p`) needs to look for its `keep` nearest other agents
    /// within `radius`: `radius`, or less when its note of last tick says they are nearer.
    /// A query cut to it finds the same agents.
    pub(crate) fn neighbor_reach(&self, agent: usize, p: Vec2, keep: usize, radius: f32) -> f32 {
        self.bounds.reach(agent, p, keep, radius)
    }

    /// Reads the notes of `agents` ahead of their queries' [`SpatialGrid::neighbor_reach`]:
    /// a note is kept by agent index, and a batch's agents (in the tick's order) are all over
    /// a large crowd's notes, a cache miss each; read in one short loop, the misses overlap.
    /// The sum is of no use but to make the reads.
    pub(crate) fn read_notes_ahead(&self, agents: impl Iterator<Item = usize>) -> u64 {
        self.bounds.read_ahead(agents)
    }

    /// Notes what agent `agent`'s query for its `keep` nearest found (`nearest`: their keys,
    /// nearest first), for its next query.
    pub(crate) fn note_nearest(&self, agent: usize, keep: usize, nearest: &[u64]) {
        self.bounds.note(agent, keep, nearest);
    }

    /// Ages the notes: called by every rebuild.
    pub(super) fn bounds_rebuilt(&mut self, agents: usize) {
        self.bounds.rebuilt(agents);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spatial::key;

    /// Ten agents at the origin, at rest.
    fn ten() -> Vec<crate::Vehicle> {
        let vehicle = crate::Vehicle::new(Vec2::ZERO, Vec2::ZERO, crate::VehicleParams::default());
        vec![vehicle; 10]
    }

    /// A grid over 10 agents whose queries have noted once, as a simulation's would.
    fn noted_grid() -> SpatialGrid {
        let mut grid = SpatialGrid::new(5.0);
        let vehicles = ten();
        grid.rebuild(&vehicles);
        grid.note_nearest(0, 1, &[]);
        grid.rebuild(&vehicles);
        grid
    }

    /// Reading notes ahead reads the very notes the queries read next (an agent with none, or
    /// past the last, reads 0) and changes none of them.
    #[test]
    fn reading_notes_ahead_reads_them_and_changes_nothing() {
        let grid = noted_grid();
        let p = Vec2::ZERO;
        assert_eq!(grid.read_notes_ahead([3, 4, 99].into_iter()), 0);
        grid.note_nearest(3, 3, &[key(1.0, 7), key(9.0, 2), key(16.0, 5)]);
        grid.note_nearest(4, 1, &[key(4.0, 1)]);
        let note = |agent: usize| grid.bounds.notes[agent].load(Relaxed);
        // The third nearest's squared distance 16, three of them: 4 units' bits, 3 above them.
        assert_eq!(note(3) as u32, 4.0_f32.to_bits());
        assert_eq!((note(3) >> 32) as u8, 3);
        let reaches = |grid: &SpatialGrid| {
            [(3, 3), (4, 1)].map(|(agent, keep)| grid.neighbor_reach(agent, p, keep, 15.0))
        };
        let before = reaches(&grid);
        let sum = note(3).wrapping_add(note(4));
        assert_eq!(grid.read_notes_ahead([3, 4, 99].into_iter()), sum);
        assert_eq!(grid.read_notes_ahead([99].into_iter()), 0);
        assert_eq!(reaches(&grid), before);
        assert!(
            before.iter().all(|&reach| reach < 15.0),
            "both noted: {before:?}"
        );
    }

    #[test]
    fn a_note_bounds_the_next_rebuild_by_how_far_the_agents_moved() {
        let mut grid = noted_grid();
        let p = Vec2::ZERO;
        // Agent 3's three nearest: the third at squared distance 16 (4 units).
        let found = [key(1.0, 7), key(9.0, 2), key(16.0, 5)];
        grid.note_nearest(3, 3, &found);
        // This rebuild: 4 units and slack (4 / 64 + 4 / 65,536 + 0.001), for three or fewer.
        let slack = 4.0 / 64.0 + 4.0 / 65_536.0 + 0.001;
        assert_eq!(grid.neighbor_reach(3, p, 3, 15.0), 4.0 + slack);
        assert_eq!(grid.neighbor_reach(3, p, 2, 15.0), 4.0 + slack);
        // Not for four, nor beyond a shorter radius, nor for another agent.
        assert_eq!(grid.neighbor_reach(3, p, 4, 15.0), 15.0);
        assert_eq!(grid.neighbor_reach(3, p, 3, 3.0), 3.0);
        assert_eq!(grid.neighbor_reach(4, p, 1, 15.0), 15.0);
        // The next rebuild, told nothing: the radius.
        let vehicles = ten();
        grid.rebuild(&vehicles);
        assert_eq!(grid.neighbor_reach(3, p, 3, 15.0), 15.0);
        // Told the agents moved at most half a unit: 4 + 2 × 0.5 = 5, and slack.
        grid.agents_moved_at_most(0.5);
        let slack = 5.0 / 64.0 + 5.0 / 65_536.0 + 0.001;
        assert_eq!(grid.neighbor_reach(3, p, 3, 15.0), 5.0 + slack);
        // Far from the origin the slack grows with the position: 1,000 + 1,000 + 5 units.
        let far = Vec2::new(1_000.0, -1_000.0);
        let slack = 5.0 / 64.0 + 2_005.0 / 65_536.0 + 0.001;
        assert_eq!(grid.neighbor_reach(3, far, 3, 15.0), 5.0 + slack);
        // Agents stacked on agent 6 at the origin, at this rebuild: a thousandth of a unit, so
        // that a distance of 0 is within it.
        grid.note_nearest(6, 3, &[key(0.0, 7), key(0.0, 2), key(0.0, 5)]);
        assert_eq!(grid.neighbor_reach(6, p, 3, 15.0), 0.001);
        // Two rebuilds on, or after the agents moved unseen: the radius.
        grid.rebuild(&vehicles);
        grid.agents_moved_at_most(0.5);
        assert_eq!(grid.neighbor_reach(3, p, 3, 15.0), 15.0);
    }

    #[test]
    fn a_note_is_lost_when_the_agents_move_unseen_or_change() {
        let vehicles = ten();
        let found = [key(4.0, 1)];
        // Moved without a rebuild between.
        let mut grid = noted_grid();
        grid.note_nearest(3, 1, &found);
        grid.forget_neighbor_notes();
        grid.rebuild(&vehicles);
        grid.agents_moved_at_most(0.0);
        assert_eq!(grid.neighbor_reach(3, Vec2::ZERO, 1, 15.0), 15.0);
        // Another number of agents.
        let mut grid = noted_grid();
        grid.note_nearest(3, 1, &found);
        grid.rebuild(&vehicles[..9]);
        grid.agents_moved_at_most(0.0);
        assert_eq!(grid.neighbor_reach(3, Vec2::ZERO, 1, 15.0), 15.0);
        // A query that found fewer than it wanted leaves no note.
        let grid = noted_grid();
        grid.note_nearest(3, 2, &found);
        assert_eq!(grid.neighbor_reach(3, Vec2::ZERO, 1, 15.0), 15.0);
        // Moved by an amount not known (NaN) or not finite.
        for moved in [f32::NAN, f32::INFINITY] {
            let mut grid = noted_grid();
            grid.note_nearest(3, 1, &found);
            grid.rebuild(&vehicles);
            grid.agents_moved_at_most(moved);
            assert_eq!(grid.neighbor_reach(3, Vec2::ZERO, 1, 15.0), 15.0);
        }
    }

    /// A step's length squared is kept when it is the longest; a step to or from a position
    /// that is not finite is infinitely long, and one between two such positions is none.
    #[test]
    fn the_longest_step_is_kept() {
        let (origin, far) = (Vec2::ZERO, Vec2::new(3.0, 4.0));
        assert_eq!(farther(0.0, origin, far), 25.0);
        assert_eq!(farther(30.0, origin, far), 30.0);
        let nowhere = Vec2::new(f32::NAN, 0.0);
        let beyond = Vec2::new(f32::INFINITY, 0.0);
        assert_eq!(farther(1.0, origin, nowhere), f32::INFINITY);
        assert_eq!(farther(1.0, beyond, far), f32::INFINITY);
        assert_eq!(farther(1.0, nowhere, beyond), 1.0);
    }

    #[test]
    fn notes_are_cleared_when_the_rebuilds_counter_wraps() {
        let mut grid = noted_grid();
        grid.note_nearest(3, 1, &[key(4.0, 1)]);
        // 2²⁴ rebuilds on, the counter is back where the note was taken: cleared, not reused.
        grid.bounds.advance(GENERATIONS - 1);
        grid.bounds.advance(1);
        assert_eq!(grid.bounds.generation, noted_grid().bounds.generation);
        assert_eq!(grid.neighbor_reach(3, Vec2::ZERO, 1, 15.0), 15.0);
    }
}
