//! Which other agents Reciprocal avoids: the nearest within its neighbor radius, the lower
//! agent index on a tie, at most `max_neighbors` of them, chosen from a list of candidates
//! ([`NearestAgents`]) or from a scan of the grid's cells ([`scan_nearest`]); circle
//! obstacles are chosen the same way ([`Nearest`]). `reciprocal.rs` makes their half-planes.

use bytemuck::cast;
use glam::Vec2;
use wide::{CmpLt, f32x4, u32x4};

use super::orca_lines::MAX_RECIPROCAL_NEIGHBORS;
use crate::spatial::{Block, NETWORK_SORT_MAX, SpatialGrid, sort_few, sort_first};

/// Keeps the `N` smallest `(key, index)` pairs, in ascending order.
pub(super) struct Nearest<T: Copy, const N: usize> {
    items: [Option<(f32, usize, T)>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Nearest<T, N> {
    pub(super) fn new() -> Self {
        Self {
            items: [None; N],
            len: 0,
        }
    }

    /// Keeps `item` if `(key, index)` is among the `keep` smallest offered (`key` is never
    /// NaN: callers offer only what is within reach). In a crowd most offers lose to the
    /// last one kept, and are turned away with one comparison; the others are slid in from
    /// the end.
    pub(super) fn offer(&mut self, key: f32, index: usize, item: T, keep: usize) {
        let keep = keep.min(N);
        let before = |slot: &Option<(f32, usize, T)>| {
            slot.is_some_and(|(k, i, _)| key < k || (key == k && index < i))
        };
        if keep == 0 || (self.len >= keep && !self.items.get(keep - 1).is_some_and(before)) {
            return;
        }
        let mut at = self.len.min(keep - 1);
        while at > 0 && self.items.get(at - 1).is_some_and(before) {
            if let Some(&moved) = self.items.get(at - 1)
                && let Some(slot) = self.items.get_mut(at)
            {
                *slot = moved;
            }
            at -= 1;
        }
        if let Some(slot) = self.items.get_mut(at) {
            *slot = Some((key, index, item));
        }
        self.len = (self.len + 1).min(keep);
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (usize, T)> + '_ {
        self.items
            .iter()
            .take(self.len)
            .filter_map(|slot| slot.map(|(_, index, item)| (index, item)))
    }
}

/// [`Nearest`] for agents: each kept as one key, the squared distance's bits above the
/// index. A squared distance within a radius is never negative (nor `-0.0`) nor NaN, and the
/// bits of such floats order as the floats do, so one integer comparison orders by distance
/// and then index, as `Nearest` does with two, and an entry is 16 bytes instead of 24. An
/// index from 2³² on (more agents than a crowd's memory can hold) counts as 2³² − 1.
pub(super) struct NearestAgents<T, const N: usize> {
    keys: [u64; N],
    /// What came with each key (the vehicle of a list of candidates).
    items: [T; N],
    len: usize,
}

impl<T: Copy, const N: usize> NearestAgents<T, N> {
    pub(super) fn new(empty: T) -> Self {
        Self {
            keys: [u64::MAX; N],
            items: [empty; N],
            len: 0,
        }
    }

    /// Keeps `item` (agent `index`) if its `(distance_squared, index)` is among the `keep`
    /// smallest offered; the same choice and order as [`Nearest::offer`].
    pub(super) fn offer(&mut self, distance_squared: f32, index: usize, item: T, keep: usize) {
        let keep = keep.min(N);
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        let key = (u64::from(distance_squared.to_bits()) << 32) | u64::from(index);
        let before = |&kept: &u64| key < kept;
        if keep == 0 || (self.len >= keep && !self.keys.get(keep - 1).is_some_and(before)) {
            return;
        }
        let mut at = self.len.min(keep - 1);
        while at > 0 && self.keys.get(at - 1).is_some_and(before) {
            if let (Some(&moved), Some(&carried)) = (self.keys.get(at - 1), self.items.get(at - 1))
            {
                if let Some(slot) = self.keys.get_mut(at) {
                    *slot = moved;
                }
                if let Some(slot) = self.items.get_mut(at) {
                    *slot = carried;
                }
            }
            at -= 1;
        }
        if let (Some(slot), Some(carried)) = (self.keys.get_mut(at), self.items.get_mut(at)) {
            *slot = key;
            *carried = item;
        }
        self.len = (self.len + 1).min(keep);
    }

    /// The kept agents' indices and items, nearest first.
    pub(super) fn iter(&self) -> impl Iterator<Item = (usize, T)> + '_ {
        self.keys
            .iter()
            .zip(&self.items)
            .take(self.len)
            .map(|(&key, &item)| (key as u32 as usize, item))
    }
}

/// At most this many keys a scan keeps are sorted whole rather than selected first.
const SORT_WHOLE: usize = 32;

/// Keys a scan of the grid's cells gathers before it thins them to the nearest: the cells
/// scanned hold at most the evaluator's crowd limit (80 to 150 agents for RVO2's ten
/// neighbors; beyond it the k-d tree answers), so a scan thins them once or not at all.
const SCAN_KEYS: usize = 128;

/// Room for the keys of one scan ([`scan_nearest`]), kept per thread (in the evaluator's
/// scratch): a kilobyte zeroed for every agent was 1 % of RVO2's Circle 1,000.
#[derive(Clone, Debug)]
pub(crate) struct ScanKeys([u64; SCAN_KEYS]);

impl Default for ScanKeys {
    fn default() -> Self {
        Self([0; SCAN_KEYS])
    }
}

/// Moves the `keep` smallest of `keys` to its front, in no order (the k-d tree's selection,
/// [`crate::spatial::keep_nearest`]), and says how many there are (`keys.len()` when there
/// are no more than `keep`).
fn keep_nearest_keys(keys: &mut [u64], keep: usize) -> usize {
    if keys.len() > keep {
        crate::spatial::keep_nearest(keys, keep);
        keep
    } else {
        keys.len()
    }
}

/// The keys (squared distance and agent, [`crate::spatial::key`]) of the at most `most`
/// (at most [`MAX_RECIPROCAL_NEIGHBORS`]) agents nearest `p` (agent `me`) within `radius`,
/// nearest first, from a scan of the grid's cells around it, `block` (`agents` agents in
/// all; the caller has worked the block out to count its agents): a slice of `keys`.
///
/// Every candidate's key is written, and counted only when it is a neighbor: no branch on
/// where an agent stands; the distances four at a time (their lanes as `Vec2::length_squared`
/// computes each, so the same bits). The nearest are then kept by a selection and sorted: the
/// same agents in the same order as an insertion per neighbor ([`NearestAgents::offer`]),
/// whose branches went either way at random (RVO2's Circle 10,000 a fifth faster in its first
/// steps, Circle 1,000 and Blocks 3-4 %, issue 47).
pub(super) fn scan_nearest<'k>(
    grid: &SpatialGrid,
    agents: usize,
    (p, me, block): (Vec2, usize, Block),
    (radius, most): (f32, usize),
    ScanKeys(keys): &'k mut ScanKeys,
) -> &'k mut [u64] {
    let radius_squared = radius * radius;
    let keep = most.min(MAX_RECIPROCAL_NEIGHBORS);
    let me = u32::try_from(me).unwrap_or(u32::MAX);
    let agents = u32::try_from(agents).unwrap_or(u32::MAX);
    let mut gathered = Gathering { keys, len: 0, keep };
    let (px, py, within) = (
        f32x4::splat(p.x),
        f32x4::splat(p.y),
        f32x4::splat(radius_squared),
    );
    let (me_lanes, agents_lanes) = (u32x4::splat(me), u32x4::splat(agents));
    for run in grid.runs_of(block) {
        // Four candidates at a time: `(x - px)² + (y - py)²` on each lane, the grid's copies
        // of the positions, so the same squared distances as the vehicles' give.
        // As arrays of four, zipped as two slices' items: zipping the two slices'
        // `chunks_exact(4)` left the zip's constructor called once a run, not inlined, in some
        // builds, as unrelated changes elsewhere in the crate moved the codegen units (10 % more
        // instructions in this scan, issue 47; `scripts/scan_codegen.sh` checks it).
        let fours = run.positions.as_chunks::<4>().0;
        let others_fours = run.agents.as_chunks::<4>().0;
        for (&[a, b, c, d], &others) in fours.iter().zip(others_fours) {
            let (dx, dy) = (
                f32x4::new([a.x, b.x, c.x, d.x]) - px,
                f32x4::new([a.y, b.y, c.y, d.y]) - py,
            );
            let distances = dx * dx + dy * dy;
            let lanes = u32x4::new(others);
            let counted: f32x4 = cast(!lanes.cmp_eq(me_lanes) & agents_lanes.cmp_gt(lanes));
            let passed = (distances.cmp_lt(within) & counted).move_mask() as usize;
            gathered.room(4);
            for (lane, (distance, other)) in
                distances.to_array().into_iter().zip(others).enumerate()
            {
                gathered.write(distance, other, (passed >> lane) & 1);
            }
        }
        // The last one to three, one at a time.
        let rest = run.positions.len() / 4 * 4;
        let positions = run.positions.get(rest..).unwrap_or_default();
        for (position, &other) in positions
            .iter()
            .zip(run.agents.get(rest..).unwrap_or_default())
        {
            let distance = (*position - p).length_squared();
            gathered.room(1);
            gathered.write(
                distance,
                other,
                usize::from(distance < radius_squared)
                    & usize::from(other != me)
                    & usize::from(other < agents),
            );
        }
    }
    let Gathering { keys, len, .. } = gathered;
    let count = len.min(keep);
    if len <= NETWORK_SORT_MAX {
        // A handful: sorted by a network, without a branch on the keys. The standard
        // library's insertion sort ended each key's loop wherever the key belonged, a branch
        // the CPU guessed wrong about once a key (a third of the scan's time on RVO2's
        // Blocks, issue 47); placing each key at its rank, counted against every other, did
        // not branch but took a comparison per pair of keys.
        if let Some(room) = keys.first_chunk_mut::<NETWORK_SORT_MAX>() {
            sort_first(room, len);
        }
        return keys.get_mut(..count).unwrap_or_default();
    }
    let kept = keys.get_mut(..len).unwrap_or_default();
    // A few keys are sorted whole: 3 % of RVO2's Circle 10,000 in its first steps, where a
    // scan keeps about 10 of 30, against a selection and a sort of the 10.
    if kept.len() <= SORT_WHOLE {
        kept.sort_unstable();
    } else {
        keep_nearest_keys(kept, keep);
        if let Some(nearest) = kept.get_mut(..count) {
            sort_few(nearest);
        }
    }
    kept.get_mut(..count).unwrap_or_default()
}

/// The keys a scan gathers: each candidate's written at `len`, and counted when it passes.
struct Gathering<'k> {
    keys: &'k mut [u64; SCAN_KEYS],
    len: usize,
    /// How many to keep when the room runs out.
    keep: usize,
}

impl Gathering<'_> {
    /// Room for `more` keys (at most `SCAN_KEYS - MAX_RECIPROCAL_NEIGHBORS`): when there is
    /// not, the nearest `keep` are kept and the rest dropped.
    #[inline]
    fn room(&mut self, more: usize) {
        if self.len + more > SCAN_KEYS {
            let gathered = self.keys.get_mut(..self.len).unwrap_or_default();
            self.len = keep_nearest_keys(gathered, self.keep);
        }
    }

    /// Writes the key of agent `other` at `distance_squared`, counted when `passed` is 1.
    #[inline]
    fn write(&mut self, distance_squared: f32, other: u32, passed: usize) {
        if let Some(slot) = self.keys.get_mut(self.len) {
            *slot = crate::spatial::key(distance_squared, other);
        }
        self.len += passed;
    }
}

/// Whether agent `other` at `distance_squared` is a neighbor candidate of agent `me`: another
/// agent, closer than the neighbor radius.
#[inline]
pub(super) fn is_neighbor(
    me: usize,
    other: usize,
    distance_squared: f32,
    radius_squared: f32,
) -> bool {
    other != me && distance_squared < radius_squared
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Vehicle;

    /// Keys sorted by a network ([`sort_few`]) come out nearest first, the lower agent on a tie,
    /// as a sort gives them: five agents by hand, then every length from none to past the
    /// networks' 16 (the standard library's sort beyond), scrambled, with many equal distances.
    #[test]
    fn keys_sorted_by_a_network_are_in_distance_then_agent_order() {
        use crate::spatial::{agent_of, key};
        // Agents 7, 3, 9, 4, 8 at squared distances 4, 1, 0, 1, 2.25: agent 9 (0), then 3 and
        // 4 (1, the lower agent first), 8 (2.25) and 7 (4).
        let mut keys = [
            key(4.0, 7),
            key(1.0, 3),
            key(0.0, 9),
            key(1.0, 4),
            key(2.25, 8),
        ];
        sort_few(&mut keys);
        let agents: Vec<u32> = keys.iter().map(|&k| agent_of(k)).collect();
        assert_eq!(agents, [9, 3, 4, 8, 7]);
        for len in 0..=20 {
            let mut keys: Vec<u64> = (0..len as u32)
                .map(|i| key(((i * 7) % 5) as f32 * 0.5, (i * 11) % 53))
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            sort_few(&mut keys);
            assert_eq!(keys, expected, "{len} keys");
        }
    }

    /// One integer key per agent keeps the agents [`Nearest`] keeps, in its order: offers in
    /// a scrambled order with equal distances (ties go to the lower index), distances zero
    /// and tiny, every `keep` from 0 to past the capacity.
    #[test]
    fn agents_packed_in_one_key_are_kept_as_nearest_keeps_them() {
        let vehicle = Vehicle::new(Vec2::ZERO, Vec2::X, crate::VehicleParams::default());
        let distances = [
            4.0, 0.25, 4.0, 0.0, 1e-30, 9.5, 0.25, 2.0, 4.0, 7.0, 1e-30, 3.0,
        ];
        for keep in 0..=MAX_RECIPROCAL_NEIGHBORS + 2 {
            let mut nearest: Nearest<&Vehicle, MAX_RECIPROCAL_NEIGHBORS> = Nearest::new();
            let mut packed: NearestAgents<(), MAX_RECIPROCAL_NEIGHBORS> = NearestAgents::new(());
            for round in 0..4_usize {
                for (i, &distance) in distances.iter().enumerate() {
                    // Indices scrambled, so a later offer may tie with a lower index.
                    let index = (i * 7 + round * 13) % 53;
                    nearest.offer(distance, index, &vehicle, keep);
                    packed.offer(distance, index, (), keep);
                }
            }
            let order = |kept: Vec<(usize, &Vehicle)>| kept.into_iter().map(|(i, _)| i).collect();
            let expected: Vec<usize> = order(nearest.iter().collect());
            let kept: Vec<usize> = packed.iter().map(|(i, ())| i).collect();
            assert_eq!(kept, expected, "keep {keep}");
            assert_eq!(expected.len(), keep.min(MAX_RECIPROCAL_NEIGHBORS).min(48));
        }
    }
}
