//! The simulation's working layout: agents in grid-cell order.
//!
//! A tick walks the agents in this order, so consecutive agents are neighbors in space and
//! their neighbor queries read cells the previous agent's query has just brought into the
//! cache; each agent's own vehicle, state and stuck clock sit next to the previous agent's.
//! Every 8 ticks (`RESORT_EVERY` in `simulation/mod.rs`) the grid re-sorts the agents from the
//! previous order, which is almost sorted already (agents move little in a few ticks); in
//! between, the order ages by a fraction of a cell, which costs the tick nothing measurable,
//! while re-sorting every tick cost 6 % of it. The grid itself is rebuilt every tick. Agent
//! order (the public API, the CSV) is written back when first read after a tick
//! (`agent_order.rs`).
//!
//! The layout never changes a result: every force is computed from the state at the start of
//! the tick, and an agent's state is touched by its own evaluation only.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use crate::Vehicle;
use crate::pool::Slots;

/// Fewest slots per parallel task of a re-sort's gather.
const MIN_SLOTS_PER_TASK: usize = 4_096;

/// Which agent sits in which slot, and the scratch to re-sort.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layout {
    /// Slot to agent.
    order: Vec<u32>,
    /// Agent to slot.
    slot_of: Vec<u32>,
    /// Scratch of `resort`: the list of old slots when the grid's leaves some out, each old
    /// slot's new slot, and which slots the cycles have moved.
    source: Vec<u32>,
    targets: Slots,
    moved: Vec<bool>,
    spare_order: Vec<u32>,
    spare_vehicles: Vec<Vehicle>,
    spare_clocks: Vec<f32>,
}

impl Layout {
    /// Agents in index order.
    pub(crate) fn identity(agents: usize) -> Self {
        let order: Vec<u32> = (0..agents as u32).collect();
        Self {
            slot_of: order.clone(),
            order,
            ..Self::default()
        }
    }

    /// The agent in slot `slot`.
    #[inline]
    pub(crate) fn agent(&self, slot: usize) -> usize {
        self.order
            .get(slot)
            .map_or(usize::MAX, |&agent| agent as usize)
    }

    /// The agents in slots `slots`.
    #[inline]
    pub(crate) fn agents(&self, slots: std::ops::Range<usize>) -> Option<&[u32]> {
        self.order.get(slots)
    }

    /// The slot of agent `agent`.
    #[inline]
    pub(crate) fn slot(&self, agent: usize) -> Option<usize> {
        self.slot_of.get(agent).map(|&slot| slot as usize)
    }

    /// Re-sorts: new slot `s` takes what old slot `sources[s]` held; the old slots `sources`
    /// leaves out (agents the grid did not place) follow in their old order. `vehicles`,
    /// `clocks` and `states` are in slot order and move along. Allocates nothing once warm.
    ///
    /// States that own nothing on the heap (`plain`: most agents) are copied into `spare` in
    /// the same parallel pass and the two swapped; when any is not plain they are moved in
    /// place, cycle by cycle, on one thread (100,000 states took 3 ms that way, a third of a
    /// stacked crowd's re-sort), and no state is cloned with its heap.
    pub(crate) fn resort<T: Clone + Send + Sync>(
        &mut self,
        sources: &[u32],
        vehicles: &mut Vec<Vehicle>,
        clocks: &mut Vec<f32>,
        (states, spare, plain): (&mut Vec<T>, &mut Vec<T>, impl Fn(&T) -> bool + Sync),
    ) {
        let agents = self.order.len();
        if vehicles.len() != agents
            || clocks.len() != agents
            || states.len() != agents
            || sources.len() > agents
        {
            return;
        }
        let Some((source, targets, moving)) =
            listed_in_full(sources, agents, &mut self.targets, &mut self.source)
        else {
            // Not a permutation of the slots, or one that moves nothing: the layout stays.
            return;
        };
        // Gather every array into its spare in one parallel pass (each slot reads its
        // source), states too while they own nothing on the heap: one pass and one hand-over
        // to the pool's threads, where a check of the states, the gather and the states' copy
        // were three (at 10,000 agents on 2 cores each hand-over to a thread gone to sleep
        // costs about 10 µs).
        let (order, old_vehicles, old_clocks) = (&self.order, &*vehicles, &*clocks);
        self.spare_order.resize(agents, 0);
        self.spare_vehicles.resize(
            agents,
            Vehicle::new(
                glam::Vec2::ZERO,
                glam::Vec2::ZERO,
                crate::VehicleParams::default(),
            ),
        );
        self.spare_clocks.resize(agents, 0.0);
        let old_states = &*states;
        let gather = |((agent, vehicle), clock): ((&mut u32, &mut Vehicle), &mut f32), old| {
            *agent = order[old];
            *vehicle = old_vehicles[old];
            *clock = old_clocks[old];
        };
        let arrays = (self.spare_order.par_iter_mut())
            .zip(self.spare_vehicles.par_iter_mut())
            .zip(self.spare_clocks.par_iter_mut());
        // The spare holds plain states only (copies, or the states of the re-sort before, all
        // plain), so it never keeps what a state owns on the heap; while it is empty (at first,
        // or since states that are not plain were met) the states are moved in cycles.
        let all_plain = if spare.len() == agents {
            (arrays.zip(spare.par_iter_mut()).zip(source.par_iter()))
                .with_min_len(MIN_SLOTS_PER_TASK)
                .map(|((arrays, state), &old)| {
                    let old = old as usize;
                    gather(arrays, old);
                    // Once one is not plain the states are moved in cycles below; the copies
                    // made here are left in the spare, to be overwritten.
                    let old_state = &old_states[old];
                    let plain = plain(old_state);
                    if plain {
                        state.clone_from(old_state);
                    }
                    plain
                })
                .reduce(|| true, |a, b| a && b)
        } else {
            (arrays.zip(source.par_iter()))
                .with_min_len(MIN_SLOTS_PER_TASK)
                .for_each(|(arrays, &old)| gather(arrays, old as usize));
            false
        };
        std::mem::swap(&mut self.order, &mut self.spare_order);
        std::mem::swap(vehicles, &mut self.spare_vehicles);
        std::mem::swap(clocks, &mut self.spare_clocks);
        if all_plain {
            std::mem::swap(states, spare);
        } else {
            move_in_cycles(source, moving, &mut self.moved, states);
            // The spare is kept only while every state is plain (sized from them the first
            // time): a crowd some of whose states own heap data (routes) would otherwise copy
            // every plain state into it at each re-sort, only to move them in cycles after all.
            if !states.par_iter().all(&plain) {
                spare.clear();
            } else if spare.len() != agents {
                spare.clone_from(states);
            }
        }
        // Each agent's slot: where its old slot went.
        (self.slot_of.par_iter_mut())
            .with_min_len(MIN_SLOTS_PER_TASK)
            .for_each(|slot| {
                if let Some(target) = targets.get(*slot as usize) {
                    *slot = target.load(Ordering::Relaxed);
                }
            });
    }
}

/// The whole list of a re-sort of `agents` slots, given the old slots `sources` lists (new
/// slot `s` takes old slot `sources[s]`): `sources` itself, or in `spill` with the old slots
/// it leaves out after it in their old order; and each old slot's new slot, in `targets`.
/// `None` when `sources` is no re-sort (a slot past the last, or listed twice), or moves
/// nothing. With them, the slots from the first to the last that moves (all, when `sources`
/// leaves some out).
fn listed_in_full<'a>(
    sources: &'a [u32],
    agents: usize,
    targets: &'a mut Slots,
    spill: &'a mut Vec<u32>,
) -> Option<(&'a [u32], &'a [AtomicU32], std::ops::Range<usize>)> {
    // Where each old slot goes (its new slot), written and then checked in parallel: a
    // slot listed twice leaves one of its listings pointing elsewhere, so the check finds
    // any list that is not a re-sort. (Done on the calling thread, the checks and the
    // slots' writing-back were most of a 1,000,000-agent re-sort's serial time.)
    // Each old slot's new slot, written below for every old slot listed.
    let targets = targets.sized(agents, 0);
    let listed = (sources.par_iter().enumerate())
        .with_min_len(MIN_SLOTS_PER_TASK)
        .all(|(slot, &old)| {
            let target = targets.get(old as usize);
            target.inspect(|target| target.store(slot as u32, Ordering::Relaxed));
            target.is_some()
        });
    if !listed {
        // A slot past the last: not a re-sort.
        return None;
    }
    // Whether it is a permutation, and the first and last slot that move.
    let (permutation, first, last) = (sources.par_iter().enumerate())
        .with_min_len(MIN_SLOTS_PER_TASK)
        .map(|(slot, &old)| {
            let back = targets.get(old as usize).map(|t| t.load(Ordering::Relaxed));
            let moves = old as usize != slot;
            let (first, last) = if moves { (slot, slot) } else { (usize::MAX, 0) };
            (back == Some(slot as u32), first, last)
        })
        .reduce(
            || (true, usize::MAX, 0),
            |(a, first, last), (b, f, l)| (a && b, first.min(f), last.max(l)),
        );
    // A slot listed twice is no re-sort. A list in order moves nothing, with the slots it
    // leaves out after it: they are the ones past its end, in order.
    if !permutation || first > last {
        return None;
    }
    let (source, moving): (&[u32], _) = if sources.len() < agents {
        // The old slots left out follow in their old order (agents with no cell: rare).
        spill.clear();
        spill.extend_from_slice(sources);
        for old in 0..agents {
            let Some(target) = targets.get(old) else {
                continue;
            };
            let back = target.load(Ordering::Relaxed) as usize;
            if sources.get(back) != Some(&(old as u32)) {
                target.store(spill.len() as u32, Ordering::Relaxed);
                spill.push(old as u32);
            }
        }
        (spill.as_slice(), 0..agents)
    } else {
        // Every slot outside `first..=last` keeps its state, so the slots inside take theirs
        // from among themselves.
        (sources, first..last + 1)
    };
    Some((source, targets, moving))
}

/// Moves `states` to their new slots in place, cycle by cycle (new slot `s` takes old slot
/// `source[s]`'s): each swap puts one in its new slot. Only the slots of `moving` move (the
/// rest keep their states, so these take theirs from among themselves): a crowd re-sorted
/// into its last tree's order moves a few of its subtrees, and the serial walk looks at those
/// only.
fn move_in_cycles<T>(
    source: &[u32],
    moving: std::ops::Range<usize>,
    moved: &mut Vec<bool>,
    states: &mut [T],
) {
    let agents = states.len();
    moved.clear();
    moved.resize(agents, false);
    for start in moving {
        if moved[start] {
            continue;
        }
        let mut slot = start;
        loop {
            moved[slot] = true;
            let from = source[slot] as usize;
            if from == start {
                break;
            }
            states.swap(slot, from);
            slot = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn resorting_moves_every_array_with_its_agent() {
        let mut layout = Layout::identity(6);
        let at = |x: f32| {
            Vehicle::new(
                Vec2::new(x, 0.0),
                Vec2::ZERO,
                crate::VehicleParams::default(),
            )
        };
        let mut vehicles: Vec<Vehicle> = (0..6).map(|agent| at(agent as f32)).collect();
        let mut clocks: Vec<f32> = (0..6).map(|agent| agent as f32 * 0.5).collect();
        let mut states: Vec<u32> = (0..6).map(|agent| agent * 10).collect();
        let mut spare = Vec::new();
        // The grid placed old slots 4, 1, 5, 0 (2 and 3 are left out: not finite).
        layout.resort(
            &[4, 1, 5, 0],
            &mut vehicles,
            &mut clocks,
            (&mut states, &mut spare, |_: &u32| true),
        );
        assert_eq!(states, [40, 10, 50, 0, 20, 30]);
        for agent in 0..6 {
            let slot = layout.slot(agent).expect("every agent has a slot");
            assert_eq!(layout.agent(slot), agent);
            assert_eq!(states[slot], agent as u32 * 10);
            assert_eq!(vehicles[slot].position.x, agent as f32);
            assert_eq!(clocks[slot], agent as f32 * 0.5);
        }
        // Again from there, through one cycle over every slot.
        layout.resort(
            &[1, 2, 3, 4, 5, 0],
            &mut vehicles,
            &mut clocks,
            (&mut states, &mut spare, |_: &u32| true),
        );
        assert_eq!(states, [10, 50, 0, 20, 30, 40]);
        // A list that repeats a slot, names one past the last, or is longer than the slots
        // is not a re-sort; one in order (the slots it leaves out following in order) moves
        // nothing: nothing moves, and each agent keeps its slot.
        let bad: [&[u32]; 5] = [
            &[0, 0, 1, 2, 3, 4],
            &[5, 4, 3, 2, 1, 6],
            &[1, 1],
            &[0, 1, 2, 3, 4, 5, 0],
            &[0, 1, 2],
        ];
        let slots: Vec<_> = (0..6).map(|agent| layout.slot(agent)).collect();
        for sources in bad {
            layout.resort(
                sources,
                &mut vehicles,
                &mut clocks,
                (&mut states, &mut spare, |_: &u32| true),
            );
            assert_eq!(states, [10, 50, 0, 20, 30, 40], "{sources:?}");
            let now: Vec<_> = (0..6).map(|agent| layout.slot(agent)).collect();
            assert_eq!(now, slots, "{sources:?}");
        }
    }

    /// Which states a test calls plain.
    #[derive(Clone, Copy, Debug)]
    enum Plain {
        All,
        None,
        /// All at the first re-sort (which sizes the spare), then all but every seventh: copied
        /// in the gather, then moved in cycles after all, and the spare let go.
        Some,
    }

    /// 20,000 agents in reverse, then rotated by 7,001, then slots 5,000 to 14,999 reversed
    /// among themselves (the others staying, as a crowd re-sorted into its last tree's order
    /// moves a few subtrees): their states moved in cycles (the first re-sort, or not all
    /// plain: the last only over the slots that move) and copied in parallel (all plain, once
    /// the spare is sized) end in the same slots, each with its agent.
    #[test]
    fn plain_states_copied_in_parallel_land_where_moved_ones_do() {
        let agents = 20_000_usize;
        let reversed: Vec<u32> = (0..agents as u32).rev().collect();
        let rotated: Vec<u32> = (0..agents as u32)
            .map(|slot| (slot + 7_001) % agents as u32)
            .collect();
        let middle: Vec<u32> = (0..agents as u32)
            .map(|slot| match slot {
                5_000..15_000 => 19_999 - slot,
                _ => slot,
            })
            .collect();
        let mut results = Vec::new();
        for plain in [Plain::All, Plain::None, Plain::Some] {
            let mut layout = Layout::identity(agents);
            let mut vehicles =
                vec![Vehicle::new(Vec2::ZERO, Vec2::ZERO, crate::VehicleParams::default()); agents];
            let mut clocks = vec![0.0; agents];
            let mut states: Vec<u64> = (0..agents as u64).map(|agent| agent * 3).collect();
            let mut spare = Vec::new();
            for (round, sources) in [&reversed, &rotated, &middle].into_iter().enumerate() {
                let is_plain = |&state: &u64| match plain {
                    Plain::All => true,
                    Plain::None => false,
                    Plain::Some => round == 0 || state % 7 != 0,
                };
                let states = (&mut states, &mut spare, is_plain);
                layout.resort(sources, &mut vehicles, &mut clocks, states);
                // The first re-sort moves the states in cycles and sizes the spare if every
                // state is plain; a spare is never made from states that are not, and is let
                // go once some are not.
                let sized = match plain {
                    Plain::All => true,
                    Plain::None => false,
                    Plain::Some => round == 0,
                };
                assert_eq!(spare.len() == agents, sized, "round {round}, {plain:?}");
            }
            for agent in 0..agents {
                let slot = layout.slot(agent).expect("a slot");
                assert_eq!(states[slot], agent as u64 * 3, "agent {agent}, {plain:?}");
            }
            results.push(states);
        }
        assert_eq!(results[0], results[1]);
        assert_eq!(results[0], results[2]);
        // Reversed, then rotated: slot s holds agent N - 1 - ((s + 7,001) mod N); slot 0 is
        // not among the middle's, slot 5,000 holds what slot 14,999 did.
        assert_eq!(results[0][0], (agents as u64 - 1 - 7_001) * 3);
        let rotated_at = |slot: u64| (agents as u64 - 1 - (slot + 7_001) % agents as u64) * 3;
        assert_eq!(results[0][5_000], rotated_at(14_999));
    }
}
