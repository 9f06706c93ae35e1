//! The k nearest agents of a point, for crowds too dense for the grid's cells: a k-d tree over
//! the grid's agents, built once per tick on the first crowded query (`BEHAVIORS.md`,
//! "Neighborhoods": at most `max_neighbors`, nearest first, the lower agent index on a tie).
//!
//! A cell holds every agent stacked on one point however small it is, so scanning cells costs
//! each agent of a stacked crowd the whole crowd. The tree splits by position and, where
//! positions are equal, by agent index, and remembers each subtree's lowest index: a query
//! skips a subtree when all its agents are farther than the k-th nearest found, or as far and
//! of higher index. A query then looks at about `k log n` agents, stacked or not.

mod nodes;
mod search;

use nodes::{
    CELL_ORDER_OVERLAP, Halving, IN_ORDER_SUBTREE, KEPT_OVERLAP, PARALLEL_ARRAYS, build,
    in_order_boxes, refill,
};
pub(crate) use search::{Accept, InView, keep_nearest};

use std::sync::atomic::Ordering;

use glam::Vec2;
use rayon::prelude::*;

use crate::pool::Slots;

/// Most agents in a leaf: from this many to [`LARGEST_LEAF`], as the grid asks.
pub(crate) const SMALLEST_LEAF: usize = 32;
pub(crate) const LARGEST_LEAF: usize = 64;
const NO_CHILD: u32 = u32::MAX;

/// An agent of the tree: its position, index and slot in the grid's cell order.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Item {
    position: Vec2,
    agent: u32,
    slot: u32,
}

/// A subtree: its agents' bounding box, lowest index and avoidance layers (all of them
/// together; every layer when the tree was not told), its items (`start..end`) and its
/// children (none for a leaf).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    min: Vec2,
    max: Vec2,
    lowest_agent: u32,
    layers: u32,
    start: u32,
    end: u32,
    left: u32,
    right: u32,
}

/// Nearest first, the lower agent index on a tie, as one integer: a squared distance is never
/// negative, and the bits of non-negative floats order as the floats do. The tree's answers
/// are such keys.
#[inline]
pub(crate) fn key(distance_squared: f32, agent: u32) -> u64 {
    (u64::from(distance_squared.to_bits()) << 32) | u64::from(agent)
}

/// The agent of a key.
#[inline]
pub(crate) fn agent_of(key: u64) -> u32 {
    (key & u64::from(u32::MAX)) as u32
}

/// An earlier tick's tree, kept for its buffers (the next tree is built in them); a clone
/// starts without one.
#[derive(Debug, Default)]
pub(crate) struct SpareTree(std::sync::Mutex<Option<Tree>>);

impl Clone for SpareTree {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl SpareTree {
    /// Keeps `tree` for its buffers.
    pub(crate) fn keep(&mut self, tree: Tree) {
        if let Ok(spare) = self.0.get_mut() {
            *spare = Some(tree);
        }
    }

    /// The agents of the tree kept, in the tree's order (leaf by leaf: agents near in space
    /// are near in it); `None` without a tree.
    pub(crate) fn agents(&mut self) -> Option<&[u32]> {
        let tree = self.0.get_mut().ok()?.as_ref()?;
        Some(tree.agents.as_slice()).filter(|agents| !agents.is_empty())
    }

    /// The tree kept, or an empty one.
    pub(crate) fn take(&self) -> Tree {
        self.0
            .lock()
            .ok()
            .and_then(|mut spare| spare.take())
            .unwrap_or_default()
    }
}

/// A k-d tree over agents.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Tree {
    items: Vec<Item>,
    /// The items' velocities, in the items' order: summing a neighborhood reads them from
    /// the few leaves its query visited, not from all over the grid.
    velocities: Vec<Vec2>,
    /// The items' coordinates and agents, each in an array of its own (in the items' order):
    /// a leaf's test reads them as lanes, four agents per instruction.
    xs: Vec<f32>,
    ys: Vec<f32>,
    agents: Vec<u32>,
    /// Each agent's item (`u32::MAX` for an index no item has).
    item_of: Vec<u32>,
    nodes: Vec<Node>,
    /// Most agents in a leaf.
    leaf: usize,
    /// Which of the grid's slots each place of the last tree takes, written on every thread
    /// ([`in_last_order_on_every_thread`]); `u32::MAX` everywhere between uses.
    places: Slots,
}

impl Tree {
    /// The tree over the agents at `positions` moving at `velocities` (slot order), agent
    /// `agents[slot]` each.
    #[cfg(test)]
    pub(crate) fn new(positions: &[Vec2], velocities: &[Vec2], agents: &[u32]) -> Self {
        Self::default().rebuilt((positions, velocities, agents), SMALLEST_LEAF, &[])
    }

    /// This tree rebuilt over the agents at `positions` moving at `velocities` (slot order),
    /// agent `agents[slot]` each, on avoidance layers `layers` (by agent; layer 1 past its
    /// end, and every subtree on every layer when it is empty), in the buffers it already
    /// has: a crowd that stays crowded allocates nothing tick after tick.
    pub(crate) fn rebuilt(
        mut self,
        (positions, velocities, agents): (&[Vec2], &[Vec2], &[u32]),
        leaf: usize,
        layers: &[u32],
    ) -> Self {
        let Self {
            items,
            velocities: moving,
            xs,
            ys,
            agents: lanes,
            item_of,
            nodes,
            leaf: leaves,
            places,
        } = &mut self;
        let leaf = leaf.max(1);
        *leaves = leaf;
        // Each array is written in parallel for a large crowd, as its subtrees are built.
        let parallel = positions.len().min(agents.len()) >= PARALLEL_ARRAYS;
        // The agents in the last tree's order when it held the same ones: its halves, apart
        // still, are kept as they were, and no median is chosen where they are.
        // On one thread the two passes would only add to the one.
        let kept = if parallel && rayon::current_num_threads() > 1 {
            in_last_order_on_every_thread(items, (positions, agents), (lanes, item_of), places)
        } else {
            in_last_order(items, (positions, agents), (lanes, item_of))
        };
        let halving = if kept {
            Halving {
                from: leaf + 1,
                overlap: KEPT_OVERLAP,
                boxes_known: true,
            }
        } else {
            items.clear();
            let item = |(slot, (&position, &agent)): (usize, (&Vec2, &u32))| Item {
                position,
                agent,
                slot: slot as u32,
            };
            if parallel {
                items.par_extend(positions.par_iter().zip(agents).enumerate().map(item));
            } else {
                items.extend(positions.iter().zip(agents).enumerate().map(item));
            }
            Halving {
                from: IN_ORDER_SUBTREE,
                overlap: CELL_ORDER_OVERLAP,
                boxes_known: false,
            }
        };
        nodes.clear();
        let resplit = if items.is_empty() {
            None
        } else {
            let empty = Node {
                min: Vec2::ZERO,
                max: Vec2::ZERO,
                lowest_agent: 0,
                layers: u32::MAX,
                start: 0,
                end: 0,
                left: NO_CHILD,
                right: NO_CHILD,
            };
            nodes.resize(node_count(items.len(), leaf), empty);
            if halving.boxes_known {
                in_order_boxes(items, leaf, nodes);
            }
            build(items, (0, leaf, halving), nodes, 0)
        };
        refill((xs, ys, lanes, moving), items, velocities, parallel);
        if !layers.is_empty() {
            gather_layers(nodes, lanes, layers);
        }
        if kept {
            // The same agents as the last tree, each at its place there (`in_last_order`) but in
            // the subtrees split at medians again: only their places are written anew.
            if let Some((start, end)) = resplit {
                let moved = items.get(start..end).unwrap_or_default();
                for (item, place) in moved.iter().zip(start as u32..) {
                    if let Some(slot) = item_of.get_mut(item.agent as usize) {
                        *slot = place;
                    }
                }
            }
        } else {
            // Agent indices are indices into the caller's agents, so this is at most as long.
            let size = items.iter().map(|item| item.agent as usize + 1).max();
            item_of.clear();
            item_of.resize(size.unwrap_or(0), u32::MAX);
            for (item, place) in items.iter().zip(0_u32..) {
                if let Some(slot) = item_of.get_mut(item.agent as usize) {
                    *slot = place;
                }
            }
        }
        self
    }

    /// Calls `f` with the position and velocity of each agent of `keys` (this tree's answer,
    /// which it sorts) in the grid's order (by slot): the sums over a neighborhood are added in
    /// the order a scan of the cells adds them, to the bit.
    pub(crate) fn in_grid_order(&self, keys: &mut [u64], mut f: impl FnMut(Vec2, Vec2)) {
        // Slot and item as one integer each: sorting plain integers costs half as much as
        // sorting structures by a key.
        for key in keys.iter_mut() {
            let place = self.item_of.get(agent_of(*key) as usize).copied();
            let slot = place.and_then(|place| self.items.get(place as usize));
            *key = match (place, slot) {
                (Some(place), Some(item)) => (u64::from(item.slot) << 32) | u64::from(place),
                _ => u64::MAX,
            };
        }
        keys.sort_unstable();
        for &key in keys.iter() {
            let place = (key & u64::from(u32::MAX)) as usize;
            if let (Some(item), Some(&velocity)) =
                (self.items.get(place), self.velocities.get(place))
            {
                f(item.position, velocity);
            }
        }
    }

    /// The at most `k` agents other than `exclude` strictly within `radius` of `center` that
    /// `accept` takes, the nearest (the lower index on a tie), into `out` as keys ([`key`])
    /// in no particular order (callers sort them as they need).
    pub(crate) fn nearest(
        &self,
        center: Vec2,
        radius: f32,
        k: usize,
        exclude: usize,
        accept: impl Accept,
        out: &mut Vec<u64>,
    ) {
        out.clear();
        if k == 0 || self.nodes.is_empty() || radius.is_nan() || radius <= 0.0 {
            return;
        }
        let query = search::Query {
            center,
            radius_squared: radius * radius,
            k,
            exclude,
            accept,
        };
        search::Search::new(self, query, out).run();
    }
}

/// The squared distance from `point` to the box `min..max` (zero inside): never more than the
/// squared distance to any point in the box, rounding included (subtraction is monotone).
fn box_distance_squared(point: Vec2, min: Vec2, max: Vec2) -> f32 {
    let dx = (min.x - point.x).max(point.x - max.x).max(0.0);
    let dy = (min.y - point.y).max(point.y - max.y).max(0.0);
    dx * dx + dy * dy
}

/// Each subtree's layers of `nodes` (in preorder, over the agents `agents` in the tree's
/// order): a leaf's are its agents' (`layers` by agent, layer 1 past its end), a parent's its
/// children's, which come after it in preorder.
fn gather_layers(nodes: &mut [Node], agents: &[u32], layers: &[u32]) {
    let layers_of = |agent: u32| {
        let default = crate::Avoidance::default().layers;
        layers.get(agent as usize).copied().unwrap_or(default)
    };
    for index in (0..nodes.len()).rev() {
        let Some(&node) = nodes.get(index) else {
            continue;
        };
        let gathered = if node.left == NO_CHILD {
            let range = node.start as usize..node.end as usize;
            let mine = agents.get(range).unwrap_or_default();
            mine.iter().fold(0, |all, &agent| all | layers_of(agent))
        } else {
            let of = |child: u32| nodes.get(child as usize).map_or(u32::MAX, |n| n.layers);
            of(node.left) | of(node.right)
        };
        if let Some(node) = nodes.get_mut(index) {
            node.layers = gathered;
        }
    }
}

/// Levels of splits above the leaves of a tree over `len` agents with leaves of at most
/// `leaf` (the larger half of a split rounds up, so a part of the k-th level holds
/// `ceil(len / 2^k)`): about how far a search walks down before its first leaf.
pub(crate) fn depth(len: usize, leaf: usize) -> usize {
    len.div_ceil(leaf.max(1))
        .next_power_of_two()
        .trailing_zeros() as usize
}

/// Nodes of a tree over `len` agents: the shape depends on the count alone (halves at the
/// middle, leaves of at most `leaf`).
fn node_count(len: usize, leaf: usize) -> usize {
    if len <= leaf {
        1
    } else {
        1 + node_count(len / 2, leaf) + node_count(len - len / 2, leaf)
    }
}

/// Fills `items` with the grid's agents (at `positions`, agent `agents[slot]` each, in cell
/// order) in the order of the last tree, given as it left its agents (`lanes`, in its order)
/// and each agent's place in it (`item_of`), and returns true, when that tree held the very
/// same agents; else leaves `items` to be filled anew and returns false. One pass, each agent
/// written to its old place: an agent whose place holds it in `lanes` is the last tree's
/// agent there, so when every one of as many agents as places is, every place is written once.
/// (Checking the place unwritten in `items` instead read each out-of-order place before
/// writing it, after a fill of every place.)
fn in_last_order(
    items: &mut Vec<Item>,
    (positions, agents): (&[Vec2], &[u32]),
    (lanes, item_of): (&[u32], &[u32]),
) -> bool {
    let len = positions.len().min(agents.len());
    if len == 0 || lanes.len() != len {
        return false;
    }
    let unwritten = Item {
        position: Vec2::ZERO,
        agent: u32::MAX,
        slot: u32::MAX,
    };
    // Sized, not filled: every place is written below, or the items are filled anew.
    items.resize(len, unwritten);
    for (slot, (&position, &agent)) in positions.iter().zip(agents).enumerate() {
        let place = item_of.get(agent as usize).copied().unwrap_or(u32::MAX) as usize;
        let Some(item) = items
            .get_mut(place)
            .filter(|_| lanes.get(place) == Some(&agent))
        else {
            return false;
        };
        *item = Item {
            position,
            agent,
            slot: slot as u32,
        };
    }
    true
}

/// [`in_last_order`] in two passes on every thread: each of the grid's slots writes itself
/// into its agent's place in the last tree (`places`, all `u32::MAX` before and after), then
/// each place takes the agent of the slot written there. With as many slots as places, a
/// place left unwritten means two slots wrote one place: other agents, as is a slot whose
/// agent has no place. Plain stores and loads (an exchange that caught the second write at
/// once cost the one-thread tree 20 µs a tick at 10,000 agents, 2026-12-07).
fn in_last_order_on_every_thread(
    items: &mut Vec<Item>,
    (positions, agents): (&[Vec2], &[u32]),
    (lanes, item_of): (&[u32], &[u32]),
    places: &mut Slots,
) -> bool {
    let len = positions.len().min(agents.len());
    if len == 0 || lanes.len() != len {
        return false;
    }
    // Those added hold `u32::MAX`, as the others do between uses.
    let places = places.sized(len, u32::MAX);
    let reset = || {
        (places.par_iter())
            .with_min_len(PLACES_PER_TASK)
            .for_each(|place| place.store(u32::MAX, Ordering::Relaxed));
    };
    let written = (agents.get(..len).unwrap_or_default().par_iter())
        .enumerate()
        .with_min_len(PLACES_PER_TASK)
        .all(|(slot, &agent)| {
            let place = item_of
                .get(agent as usize)
                .and_then(|&p| places.get(p as usize));
            place
                .inspect(|place| place.store(slot as u32, Ordering::Relaxed))
                .is_some()
        });
    if !written {
        reset();
        return false;
    }
    let unwritten = std::sync::atomic::AtomicBool::new(false);
    items.clear();
    items.par_extend(
        (places.par_iter())
            .with_min_len(PLACES_PER_TASK)
            .map(|place| {
                let slot = place.load(Ordering::Relaxed);
                place.store(u32::MAX, Ordering::Relaxed);
                match (positions.get(slot as usize), agents.get(slot as usize)) {
                    (Some(&position), Some(&agent)) => Item {
                        position,
                        agent,
                        slot,
                    },
                    _ => {
                        unwritten.store(true, Ordering::Relaxed);
                        Item {
                            position: Vec2::ZERO,
                            agent: u32::MAX,
                            slot,
                        }
                    }
                }
            }),
    );
    !unwritten.into_inner()
}

/// Slots (or places) a task of [`in_last_order_on_every_thread`] takes at least.
pub(super) const PLACES_PER_TASK: usize = 1_024;

#[cfg(test)]
mod tests;
