//! The agents carrying each tag, for `NearestTagged`: listed once (an agent's tags do not
//! change), and for a tag many agents read, placed in cells each tick so a lookup reads only
//! the members near the agent (`BEHAVIORS.md`, "Targets and quarries": the nearest other
//! carrier, the lower agent on a tie).

use std::sync::atomic::{AtomicBool, Ordering};

use glam::Vec2;

use super::TagMask;
use super::tag_cells::TagCells;
use crate::Vehicle;

/// A tag's members are placed in cells each tick when at least this many agents read it and
/// at least this many carry it: below, reading the members one by one costs less.
const CELLS_AT: usize = 32;

/// The agents carrying each tag, in agent order, and this tick's cells.
#[derive(Debug, Default)]
pub(crate) struct TagMembers {
    /// How many agents' tags it was built from; it answers only for that many.
    agents: usize,
    /// For each tag bit, the agents carrying it, in agent order.
    by_bit: Vec<Vec<u32>>,
    /// For each tag bit, its members in cells (none placed when the tag is not).
    cells: Vec<TagCells>,
    /// Whether the cells hold the positions of the agents being steered: set by
    /// [`TagMembers::place_in_cells`] before a tick, cleared by [`TagMembers::end_tick`].
    current: AtomicBool,
}

/// What the cells say of the nearest member of a tag ([`TagMembers::nearest`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Swept {
    /// The cells cannot answer: read the members one by one.
    Unanswered,
    /// The nearest other agent carrying the tag, or `None` when no other agent does.
    Answered(Option<usize>),
}

impl Clone for TagMembers {
    /// The same members, with this tick's cells (not current until placed again).
    fn clone(&self) -> Self {
        Self {
            agents: self.agents,
            by_bit: self.by_bit.clone(),
            cells: self.cells.clone(),
            current: AtomicBool::new(false),
        }
    }
}

impl PartialEq for TagMembers {
    /// The same agents carry the same tags (the cells are this tick's working state).
    fn eq(&self, other: &Self) -> bool {
        self.agents == other.agents && self.by_bit == other.by_bit
    }
}

impl TagMembers {
    /// The members of every tag among the agents whose tags are `tags` (in agent order).
    pub(crate) fn new(tags: &[TagMask]) -> Self {
        let mut by_bit: Vec<Vec<u32>> = vec![Vec::new(); TagMask::BITS as usize];
        for (agent, &mask) in tags.iter().enumerate() {
            let mut bits = mask;
            while bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let (Some(members), Ok(agent)) = (by_bit.get_mut(bit), u32::try_from(agent)) {
                    members.push(agent);
                }
            }
        }
        Self {
            agents: tags.len(),
            cells: vec![TagCells::default(); by_bit.len()],
            by_bit,
            current: AtomicBool::new(false),
        }
    }

    /// The agents carrying `mask` (one tag's bit), in agent order, when this was built from
    /// the tags of `agents` agents; `None` tells the caller to read every agent.
    #[inline]
    pub(crate) fn carrying(&self, mask: TagMask, agents: usize) -> Option<&[u32]> {
        if agents != self.agents || mask.count_ones() != 1 {
            return None;
        }
        self.by_bit
            .get(mask.trailing_zeros() as usize)
            .map(Vec::as_slice)
    }

    /// Before a tick: places in cells the members of each tag that `readers[bit]` agents
    /// read, at their positions in `vehicles` (the agents in agent order, as the tick's
    /// context holds them). A tag with a member off the finite plane is not placed.
    pub(crate) fn place_in_cells(&mut self, vehicles: &[Vehicle], readers: &[usize]) {
        let agents = self.agents;
        for ((members, cells), &reading) in self.by_bit.iter().zip(&mut self.cells).zip(readers) {
            if reading < CELLS_AT || members.len() < CELLS_AT || vehicles.len() != agents {
                cells.clear();
            } else {
                cells.place(members, vehicles);
            }
        }
        self.current.store(true, Ordering::Relaxed);
    }

    /// Adds `agents` readers to each tag a program with tag bindings `tags` reads (`readers`
    /// indexed by tag bit, as [`TagMembers::place_in_cells`] takes them).
    pub(crate) fn add_readers(readers: &mut [usize], tags: &[Option<TagMask>], agents: usize) {
        for mask in tags.iter().flatten() {
            if let Some(count) = readers.get_mut(mask.trailing_zeros() as usize) {
                *count += agents;
            }
        }
    }

    /// After a tick: the agents have moved, so the cells no longer answer (the editor's
    /// trace between ticks reads the members one by one).
    pub(crate) fn end_tick(&self) {
        self.current.store(false, Ordering::Relaxed);
    }

    /// The nearest member of `mask`'s tag other than agent `me`, standing at `at`, from this
    /// tick's cells: the smallest squared distance, the lower agent on a tie, as reading the
    /// members in agent order finds it. [`Swept::Unanswered`] when the cells cannot answer
    /// (not placed, not this tick's, another population, `at` not finite).
    pub(crate) fn nearest(&self, mask: TagMask, agents: usize, me: usize, at: Vec2) -> Swept {
        if agents != self.agents
            || mask.count_ones() != 1
            || !at.is_finite()
            || !self.current.load(Ordering::Relaxed)
        {
            return Swept::Unanswered;
        }
        match self.cells.get(mask.trailing_zeros() as usize) {
            Some(cells) if cells.is_placed() => Swept::Answered(cells.nearest(me, at)),
            _ => Swept::Unanswered,
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec2;

    use super::{Swept, TagMembers};
    use crate::{Vehicle, VehicleParams};

    #[test]
    fn members_are_listed_in_agent_order_and_only_for_the_population_they_came_from() {
        // Agents 0..4 carry bits {0}, {}, {0, 2}, {2}.
        let members = TagMembers::new(&[0b001, 0, 0b101, 0b100]);
        assert_eq!(members.carrying(0b001, 4), Some(&[0, 2][..]));
        assert_eq!(members.carrying(0b100, 4), Some(&[2, 3][..]));
        assert_eq!(members.carrying(0b010, 4), Some(&[][..]));
        // Another number of agents, or a mask of two tags: the caller reads every agent.
        assert_eq!(members.carrying(0b001, 5), None);
        assert_eq!(members.carrying(0b101, 4), None);
        assert_eq!(members.carrying(0, 4), None);
    }

    /// The nearest other carrier by reading every member in agent order (the rule).
    fn by_reading(positions: &[Vec2], tags: &[u64], me: usize) -> Option<usize> {
        let mut nearest: Option<(f32, usize)> = None;
        for (agent, (position, tag)) in positions.iter().zip(tags).enumerate() {
            if agent == me || tag & 1 == 0 {
                continue;
            }
            let distance = position.distance_squared(positions[me]);
            if nearest.is_none_or(|(best, _)| distance < best) {
                nearest = Some((distance, agent));
            }
        }
        nearest.map(|(_, agent)| agent)
    }

    #[test]
    fn the_cells_find_what_reading_every_member_finds_ties_and_duplicates_included() {
        // 2,000 agents on a coarse lattice (many equal distances and equal x, several agents
        // on one point), every third one tagged; every agent asks, tagged or not.
        let mut state = 12_345_u64;
        let mut next = move |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) % n
        };
        let positions: Vec<Vec2> = (0..2_000)
            .map(|_| Vec2::new(next(40) as f32 * 0.5 - 10.0, next(40) as f32 * 0.5 - 10.0))
            .collect();
        let tags: Vec<u64> = (0..2_000).map(|agent| u64::from(agent % 3 == 0)).collect();
        let vehicles: Vec<Vehicle> = positions
            .iter()
            .map(|&p| Vehicle::new(p, Vec2::ZERO, VehicleParams::default()))
            .collect();
        let mut members = TagMembers::new(&tags);
        let mut readers = [0; 64];
        readers[0] = 2_000;
        // Not placed yet: no answer from the cells.
        assert_eq!(
            members.nearest(1, 2_000, 0, positions[0]),
            Swept::Unanswered
        );
        members.place_in_cells(&vehicles, &readers);
        for me in 0..2_000 {
            assert_eq!(
                members.nearest(1, 2_000, me, positions[me]),
                Swept::Answered(by_reading(&positions, &tags, me)),
                "agent {me} at {}",
                positions[me]
            );
        }
        // After the tick the agents move: the cells stop answering.
        members.end_tick();
        assert_eq!(
            members.nearest(1, 2_000, 0, positions[0]),
            Swept::Unanswered
        );
    }

    /// Every agent of `positions` asks for the nearest other carrier of bit 0: the cells'
    /// answer is the rule's.
    fn cells_agree_with_reading(positions: &[Vec2], tags: &[u64]) {
        let vehicles: Vec<Vehicle> = positions
            .iter()
            .map(|&p| Vehicle::new(p, Vec2::ZERO, VehicleParams::default()))
            .collect();
        let mut members = TagMembers::new(tags);
        let mut readers = [0; 64];
        readers[0] = positions.len();
        members.place_in_cells(&vehicles, &readers);
        for (me, &at) in positions.iter().enumerate() {
            assert_eq!(
                members.nearest(1, positions.len(), me, at),
                Swept::Answered(by_reading(positions, tags, me)),
                "agent {me} at {at}"
            );
        }
    }

    #[test]
    fn the_cells_answer_askers_far_outside_them_and_crowds_far_from_the_origin() {
        let mut state = 99_u64;
        let mut unit = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 40) as f32 / (1_u64 << 24) as f32
        };
        // 300 members in a 10 × 10 square; 700 askers anywhere in 2,000 × 2,000 (most far
        // outside the members' cells, on every side).
        let mut positions = Vec::new();
        let mut tags = Vec::new();
        for agent in 0..1_000 {
            let member = agent % 10 < 3;
            let spread = if member { 10.0 } else { 2_000.0 };
            positions.push(Vec2::new(unit() - 0.5, unit() - 0.5) * spread);
            tags.push(u64::from(member));
        }
        cells_agree_with_reading(&positions, &tags);
        // The same crowd 100,000 units from the origin and 1,000 times smaller: positions a
        // few f32 steps apart, many on the same point.
        let far: Vec<Vec2> = positions
            .iter()
            .map(|&p| Vec2::new(1e5, -1e5) + p * 1e-3)
            .collect();
        cells_agree_with_reading(&far, &tags);
        // Every member on one point, askers around it.
        let stacked: Vec<Vec2> = positions
            .iter()
            .zip(&tags)
            .map(|(&p, &tag)| if tag == 1 { Vec2::new(3.0, -2.0) } else { p })
            .collect();
        cells_agree_with_reading(&stacked, &tags);
    }

    #[test]
    fn few_readers_or_few_members_are_not_placed_in_cells() {
        let tags = [1_u64; 40];
        let vehicles: Vec<Vehicle> = (0..40)
            .map(|i| {
                Vehicle::new(
                    Vec2::new(i as f32, 0.0),
                    Vec2::ZERO,
                    VehicleParams::default(),
                )
            })
            .collect();
        let mut members = TagMembers::new(&tags);
        let mut readers = [0; 64];
        readers[0] = 31;
        members.place_in_cells(&vehicles, &readers);
        assert_eq!(members.nearest(1, 40, 0, Vec2::ZERO), Swept::Unanswered);
        readers[0] = 32;
        members.place_in_cells(&vehicles, &readers);
        // Agent 0 at the origin: agent 1 at (1, 0) is nearest.
        assert_eq!(
            members.nearest(1, 40, 0, Vec2::ZERO),
            Swept::Answered(Some(1))
        );
    }
}
