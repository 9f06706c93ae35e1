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
use crate::compile::TwoParts;
use crate::pool::{Slots, items_per_task};

/// Fewest slots a parallel task of a re-sort's passes takes, whatever the threads: some 64 KiB
/// of vehicles copied, several times a hand-over to a thread of the warm pool (1.6 µs).
const LEAST_SLOTS_PER_TASK: usize = 1_024;
/// The most that fewest may be: the fixed minimum before it followed the threads, which still
/// cuts 2 threads' passes as it did.
const MOST_SLOTS_PER_TASK: usize = 4_096;

/// Fewest slots per parallel task of a re-sort's passes over `slots` slots: a share of the
/// threads between the two bounds ([`items_per_task`]).
pub(crate) fn slots_per_task(slots: usize) -> usize {
    items_per_task(slots, LEAST_SLOTS_PER_TASK, MOST_SLOTS_PER_TASK)
}

/// From this many agents, states that own heap data are re-sorted in two parts
/// ([`Layout::resort`]): their plain data in parallel, what they own by pointer on one thread.
/// Moved whole in cycles on one thread, Circle's 100,000 states (each owning its goal) took
/// 3.2 ms a re-sort, against 0.66 ms to hand their goals over after a parallel gather (its
/// copy of the plain data 0.95 ms more on 2 threads); at 10,000 the cycles took 28-32 µs and
/// the two parts 70-86 on 2 threads, the copy of the states' plain data doubling the gather
/// (AMD, 2026-12-07). States of 32,768 agents fill 2 MiB, far past a core's own cache.
const HANDED_OVER_MIN_AGENTS: usize = 32_768;

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

    /// Every agent's slot, by agent index.
    #[inline]
    pub(crate) fn slots(&self) -> &[u32] {
        &self.slot_of
    }

    /// Re-sorts: new slot `s` takes what old slot `sources[s]` held; the old slots `sources`
    /// leaves out (agents the grid did not place) follow in their old order. `vehicles`,
    /// `clocks` and `states` are in slot order and move along. Allocates nothing once warm.
    ///
    /// States that own nothing on the heap (plain: most agents) are copied into `spare` in
    /// the same parallel pass and the two swapped, and no state is cloned with its heap
    /// ([`TwoParts`]). When some are not plain: in a crowd of fewer than
    /// [`HANDED_OVER_MIN_AGENTS`], they are moved in place, cycle by cycle, on one thread; in a
    /// larger one, every state's plain data is copied in the parallel pass and what the states
    /// own is then handed to the new slots by pointer on one thread, the old slots read in
    /// order.
    pub(crate) fn resort<T: TwoParts>(
        &mut self,
        sources: &[u32],
        vehicles: &mut Vec<Vehicle>,
        clocks: &mut Vec<f32>,
        (states, spare): (&mut Vec<T>, &mut Vec<T>),
    ) {
        let agents = self.order.len();
        let least = slots_per_task(agents);
        if vehicles.len() != agents
            || clocks.len() != agents
            || states.len() != agents
            || sources.len() > agents
        {
            return;
        }
        let Some((source, targets, moving)) = listed_in_full(
            sources,
            (agents, least),
            &mut self.targets,
            &mut self.source,
        ) else {
            // Not a permutation of the slots, or one that moves nothing: the layout stays.
            return;
        };
        // Gather every array into its spare in one parallel pass (each slot reads its
        // source), the states' plain data too while the spare is sized: one pass and one
        // hand-over to the pool's threads, where a check of the states, the gather and the
        // states' copy were three (at 10,000 agents on 2 cores each hand-over to a thread gone
        // to sleep costs about 10 µs).
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
        let handed_over = agents >= HANDED_OVER_MIN_AGENTS;
        if handed_over && spare.len() != agents {
            plain_copies(states, spare);
        }
        let old_states = &*states;
        let gather = |((agent, vehicle), clock): ((&mut u32, &mut Vehicle), &mut f32), old| {
            *agent = order[old];
            *vehicle = old_vehicles[old];
            *clock = old_clocks[old];
        };
        let arrays = (self.spare_order.par_iter_mut())
            .zip(self.spare_vehicles.par_iter_mut())
            .zip(self.spare_clocks.par_iter_mut());
        // The spare holds plain states only (plain copies, or the old states once what they
        // owned was handed over), so it never keeps what a state owns on the heap; while it is
        // empty (at first, or in a smaller crowd since states that are not plain were met) the
        // states are moved in cycles.
        let all_plain = if spare.len() == agents {
            (arrays.zip(spare.par_iter_mut()).zip(source.par_iter()))
                .with_min_len(least)
                .map(|((arrays, state), &old)| {
                    let old = old as usize;
                    gather(arrays, old);
                    // A state that is not plain gives its plain data only: what it owns is
                    // handed over below in a large crowd, or it is moved in cycles after all.
                    let old_state = &old_states[old];
                    state.copy_plain_from(old_state);
                    old_state.is_plain()
                })
                .reduce(|| true, |a, b| a && b)
        } else {
            (arrays.zip(source.par_iter()))
                .with_min_len(least)
                .for_each(|(arrays, &old)| gather(arrays, old as usize));
            false
        };
        std::mem::swap(&mut self.order, &mut self.spare_order);
        std::mem::swap(vehicles, &mut self.spare_vehicles);
        std::mem::swap(clocks, &mut self.spare_clocks);
        if all_plain || handed_over {
            std::mem::swap(states, spare);
            if !all_plain {
                hand_over_heap(spare, targets, states);
            }
        } else {
            move_in_cycles(source, moving, &mut self.moved, states);
            // The spare is kept only while every state is plain (sized from them the first
            // time): a small crowd some of whose states own heap data (routes) would otherwise
            // copy every state's plain data into it at each re-sort, only to move them in
            // cycles after all.
            if !states.par_iter().all(T::is_plain) {
                spare.clear();
            } else if spare.len() != agents {
                plain_copies(states, spare);
            }
        }
        // Each agent's slot: where its old slot went.
        (self.slot_of.par_iter_mut())
            .with_min_len(least)
            .for_each(|slot| {
                if let Some(target) = targets.get(*slot as usize) {
                    *slot = target.load(Ordering::Relaxed);
                }
            });
    }
}

/// The whole list of a re-sort of `agents` slots, given the old slots `sources` lists (new
/// slot `s` takes old slot `sources[s]`): `sources` itself, or in `spill` with the old slots
/// it leaves out after it in their old order; and each old slot's new slot, in `targets`
/// (each pass in tasks of at least `least` slots).
/// `None` when `sources` is no re-sort (a slot past the last, or listed twice), or moves
/// nothing. With them, the slots from the first to the last that moves (all, when `sources`
/// leaves some out).
fn listed_in_full<'a>(
    sources: &'a [u32],
    (agents, least): (usize, usize),
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
        .with_min_len(least)
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
        .with_min_len(least)
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

/// What the `old` states own goes to their `new` slots (`targets`, by old slot), which leaves
/// the old ones plain. The old are read in order: a read out of order waits on the cache, a
/// write out of order does not.
fn hand_over_heap<T: TwoParts>(old: &mut [T], targets: &[AtomicU32], new: &mut [T]) {
    for (old, target) in old.iter_mut().zip(targets) {
        if !old.is_plain()
            && let Some(new) = new.get_mut(target.load(Ordering::Relaxed) as usize)
        {
            new.take_heap_from(old);
        }
    }
}

/// `spare` made the plain copies of `states` (in parallel; it allocates when it grows).
fn plain_copies<T: TwoParts>(states: &[T], spare: &mut Vec<T>) {
    spare.clear();
    spare.par_extend(states.par_iter().map(T::plain_copy));
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

    /// A state of plain data only.
    impl TwoParts for u32 {
        fn plain_copy(&self) -> Self {
            *self
        }
        fn copy_plain_from(&mut self, from: &Self) {
            *self = *from;
        }
        fn is_plain(&self) -> bool {
            true
        }
        fn take_heap_from(&mut self, _: &mut Self) {}
    }

    /// A state with plain data (`value`) and, for some, something on the heap.
    #[derive(Debug, PartialEq)]
    struct Held {
        value: u64,
        heap: Option<Box<u64>>,
    }

    impl TwoParts for Held {
        fn plain_copy(&self) -> Self {
            Self {
                value: self.value,
                heap: None,
            }
        }
        fn copy_plain_from(&mut self, from: &Self) {
            self.value = from.value;
        }
        fn is_plain(&self) -> bool {
            self.heap.is_none()
        }
        fn take_heap_from(&mut self, from: &mut Self) {
            self.heap = from.heap.take();
        }
    }

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
            (&mut states, &mut spare),
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
            (&mut states, &mut spare),
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
                (&mut states, &mut spare),
            );
            assert_eq!(states, [10, 50, 0, 20, 30, 40], "{sources:?}");
            let now: Vec<_> = (0..6).map(|agent| layout.slot(agent)).collect();
            assert_eq!(now, slots, "{sources:?}");
        }
    }

    /// Which states own something on the heap.
    #[derive(Clone, Copy, Debug)]
    enum Owning {
        None,
        All,
        /// None at the first re-sort (which sizes the spare), then every seventh agent.
        Some,
    }

    /// Agents in reverse, then rotated by 7,001, then the middle half of the slots reversed
    /// among themselves (the others staying, as a crowd re-sorted into its last tree's order
    /// moves a few subtrees), their states owning nothing on the heap, all owning something,
    /// or every seventh once the spare is sized; in a crowd moved in cycles (20,000 agents)
    /// and in one whose states' heap is handed over (40,000). Each state ends in its agent's
    /// slot with what it owns (the very same box: moved, never cloned), and the spare holds
    /// plain states only.
    #[test]
    fn states_land_with_their_agents_and_what_they_own_moves_by_pointer() {
        const { assert!(20_000 < HANDED_OVER_MIN_AGENTS && 40_000 >= HANDED_OVER_MIN_AGENTS) };
        for agents in [20_000, 40_000] {
            for owning in [Owning::None, Owning::All, Owning::Some] {
                resorted_with_what_they_own(agents, owning);
            }
        }
    }

    /// [`states_land_with_their_agents_and_what_they_own_moves_by_pointer`] for `agents`.
    fn resorted_with_what_they_own(agents: usize, owning: Owning) {
        let n = agents as u32;
        let reversed: Vec<u32> = (0..n).rev().collect();
        let rotated: Vec<u32> = (0..n).map(|slot| (slot + 7_001) % n).collect();
        let (low, high) = (n / 4, 3 * n / 4);
        let middle: Vec<u32> = (0..n)
            .map(|slot| {
                if (low..high).contains(&slot) {
                    low + high - 1 - slot
                } else {
                    slot
                }
            })
            .collect();
        let mut layout = Layout::identity(agents);
        let mut vehicles =
            vec![Vehicle::new(Vec2::ZERO, Vec2::ZERO, crate::VehicleParams::default()); agents];
        let mut clocks = vec![0.0; agents];
        let owns = |agent: u64, round: usize| match owning {
            Owning::None => false,
            Owning::All => true,
            Owning::Some => round > 0 && agent.is_multiple_of(7),
        };
        let mut states: Vec<Held> = (0..agents as u64)
            .map(|agent| Held {
                value: agent * 3,
                heap: None,
            })
            .collect();
        let mut boxes: Vec<Option<*const u64>> = vec![None; agents];
        let mut spare = Vec::new();
        for (round, sources) in [&reversed, &rotated, &middle].into_iter().enumerate() {
            // Each owning agent is given its box before the round (once).
            for (agent, at) in boxes.iter_mut().enumerate() {
                let slot = layout.slot(agent).expect("a slot");
                let state = &mut states[slot];
                if owns(agent as u64, round) && state.heap.is_none() {
                    let heap = Box::new(agent as u64 + 1);
                    *at = Some(std::ptr::from_ref(&*heap));
                    state.heap = Some(heap);
                }
            }
            layout.resort(
                sources,
                &mut vehicles,
                &mut clocks,
                (&mut states, &mut spare),
            );
            assert!(
                spare.iter().all(Held::is_plain),
                "round {round}, {owning:?}"
            );
            // A smaller crowd keeps a spare only while every state is plain.
            let any_owns = (0..agents as u64).any(|agent| owns(agent, round));
            let kept = agents >= HANDED_OVER_MIN_AGENTS || !any_owns;
            assert_eq!(spare.len() == agents, kept, "round {round}, {owning:?}");
        }
        for (agent, &given) in boxes.iter().enumerate() {
            let slot = layout.slot(agent).expect("a slot");
            let state = &states[slot];
            let expected = owns(agent as u64, 2).then_some(agent as u64 + 1);
            assert_eq!(state.value, agent as u64 * 3, "agent {agent}, {owning:?}");
            assert_eq!(state.heap.as_deref().copied(), expected, "agent {agent}");
            let at = state.heap.as_deref().map(std::ptr::from_ref);
            assert_eq!(at, given, "agent {agent}'s box, {owning:?}");
        }
        // Reversed, then rotated: slot s holds agent N - 1 - ((s + 7,001) mod N); slot 0 is
        // not among the middle's, slot N/4 holds what slot 3N/4 - 1 did.
        let rotated_at = |slot: u32| u64::from(n - 1 - (slot + 7_001) % n) * 3;
        assert_eq!(states[0].value, rotated_at(0));
        assert_eq!(states[low as usize].value, rotated_at(high - 1));
    }

    /// A re-sort that leaves agents out (no cell) hands what those own along too, in a crowd
    /// whose states are handed over.
    #[test]
    fn states_left_out_by_the_grid_keep_what_they_own() {
        let agents = HANDED_OVER_MIN_AGENTS;
        let mut layout = Layout::identity(agents);
        let mut vehicles =
            vec![Vehicle::new(Vec2::ZERO, Vec2::ZERO, crate::VehicleParams::default()); agents];
        let mut clocks = vec![0.0; agents];
        let mut states: Vec<Held> = (0..agents as u64)
            .map(|agent| Held {
                value: agent,
                heap: (agent != 2).then(|| Box::new(agent * 100)),
            })
            .collect();
        let mut spare = Vec::new();
        // Old slots 3 and 0 placed, the others following in their old order.
        layout.resort(
            &[3, 0],
            &mut vehicles,
            &mut clocks,
            (&mut states, &mut spare),
        );
        let held: Vec<(u64, Option<u64>)> = (states.iter().take(5))
            .map(|state| (state.value, state.heap.as_deref().copied()))
            .collect();
        assert_eq!(
            held,
            [
                (3, Some(300)),
                (0, Some(0)),
                (1, Some(100)),
                (2, None),
                (4, Some(400))
            ]
        );
        let last = states.last().map(|state| state.value);
        assert_eq!(last, Some(agents as u64 - 1));
        assert!(spare.iter().all(Held::is_plain));
    }
}
