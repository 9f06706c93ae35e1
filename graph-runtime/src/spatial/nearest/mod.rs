//! The k nearest agents of a point, for crowds too dense for the grid's cells: a k-d tree over
//! the grid's agents, built once per tick on the first crowded query (`BEHAVIORS.md`,
//! "Neighborhoods": at most `max_neighbors`, nearest first, the lower agent index on a tie).
//!
//! A cell holds every agent stacked on one point however small it is, so scanning cells costs
//! each agent of a stacked crowd the whole crowd. The tree splits by position and, where
//! positions are equal, by agent index, and remembers each subtree's lowest index: a query
//! skips a subtree when all its agents are farther than the k-th nearest found, or as far and
//! of higher index. A query then looks at about `k log n` agents, stacked or not.

mod search;

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
const PLACES_PER_TASK: usize = 1_024;

/// Builds the subtree over `items` (which start at `offset` in the tree's items; leaves of at
/// most `leaf`) into `nodes`, its [`node_count`] nodes in preorder, the first numbered
/// `first`. The two halves of a subtree of [`PARALLEL_SUBTREE`] agents or more are built in
/// parallel, each into its own part of `nodes`: the same tree on any number of threads, and no
/// allocation.
///
/// A subtree of `halving.from` agents or more is first halved in the order its agents come
/// in, and kept so when the two halves lie apart ([`Bounds::apart`] by `halving.overlap`), so
/// that no median needs choosing (a choice that reads the whole subtree on one thread). In the
/// grid's cell order (rows of cells, each column by column: from [`IN_ORDER_SUBTREE`] agents)
/// the halves are mostly the lower and the upper rows. In the last tree's order (its leaves in
/// turn, when it held the same agents: every subtree) they are the last tree's two halves,
/// which the agents' steps since moved little: most of the tree is built again as it was, each
/// subtree read once for its box. Halves that overlap (a crowd within a few cells, a crowd
/// that moved through itself) are split at the median. Any split gives the same answers: a
/// search prunes by the boxes and the lowest indices, whatever a subtree holds.
///
/// Returns the range of the tree's items (`start..end`) that holds every subtree split at a
/// median here (the agents it moved), `None` when all were halved in the order they came in.
fn build(
    items: &mut [Item],
    (offset, leaf, halving): (usize, usize, Halving),
    nodes: &mut [Node],
    first: u32,
) -> Option<(usize, usize)> {
    let large = items.len() > leaf && items.len() >= halving.from;
    let (whole, halves) = if large && halving.boxes_known {
        // The halves' boxes, worked out from the bottom up (`in_order_boxes`).
        let left_count = node_count(items.len() / 2, leaf);
        let a = nodes.get(1).map(Bounds::of_node);
        let b = nodes.get(1 + left_count).map(Bounds::of_node);
        let (a, b) = a.zip(b)?;
        (a.join(b), Some((a, b)))
    } else if large {
        let (low, high) = items.split_at(items.len() / 2);
        let (a, b) = if items.len() >= IN_ORDER_SUBTREE {
            rayon::join(|| Bounds::of(low), || Bounds::of(high))
        } else {
            (Bounds::of(low), Bounds::of(high))
        };
        (a.join(b), Some((a, b)))
    } else if halving.boxes_known {
        (Bounds::of_node(nodes.first()?), None)
    } else {
        (Bounds::of(items), None)
    };
    let (root, rest) = nodes.split_first_mut()?;
    *root = Node {
        min: whole.min,
        max: whole.max,
        lowest_agent: whole.lowest_agent,
        layers: u32::MAX,
        start: offset as u32,
        end: (offset + items.len()) as u32,
        left: NO_CHILD,
        right: NO_CHILD,
    };
    if items.len() <= leaf {
        return None;
    }
    let (middle, resplit) = match halves {
        Some((a, b)) if a.apart(&b, halving.overlap) => (items.len() / 2, false),
        _ => (split(items, whole.min, whole.max), true),
    };
    let (low, high) = items.split_at_mut(middle);
    let left_count = node_count(low.len(), leaf);
    let (left_nodes, right_nodes) = rest.split_at_mut(left_count.min(rest.len()));
    root.left = first + 1;
    root.right = first + 1 + left_count as u32;
    let right_first = root.right;
    // A subtree split at its median holds other agents than in the order they came: its
    // boxes are worked out from its agents again.
    let halving = Halving {
        boxes_known: halving.boxes_known && !resplit,
        ..halving
    };
    let (lower, upper) = ((offset, leaf, halving), (offset + middle, leaf, halving));
    let (left, right) = if low.len() >= PARALLEL_SUBTREE {
        rayon::join(
            || build(low, lower, left_nodes, first + 1),
            || build(high, upper, right_nodes, right_first),
        )
    } else {
        (
            build(low, lower, left_nodes, first + 1),
            build(high, upper, right_nodes, right_first),
        )
    };
    if resplit {
        return Some((offset, offset + low.len() + high.len()));
    }
    match (left, right) {
        (Some((start, _)), Some((_, end))) => Some((start, end)),
        (one, None) | (None, one) => one,
    }
}

/// The box of some agents and their lowest index.
#[derive(Clone, Copy)]
struct Bounds {
    min: Vec2,
    max: Vec2,
    lowest_agent: u32,
}

impl Bounds {
    /// The box a node holds.
    fn of_node(node: &Node) -> Self {
        Self {
            min: node.min,
            max: node.max,
            lowest_agent: node.lowest_agent,
        }
    }

    fn of(items: &[Item]) -> Self {
        let (mut min, mut max) = (Vec2::INFINITY, Vec2::NEG_INFINITY);
        let mut lowest_agent = u32::MAX;
        for item in items {
            min = min.min(item.position);
            max = max.max(item.position);
            lowest_agent = lowest_agent.min(item.agent);
        }
        Self {
            min,
            max,
            lowest_agent,
        }
    }

    /// Both together (exact: minima and maxima).
    fn join(self, other: Self) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
            lowest_agent: self.lowest_agent.min(other.lowest_agent),
        }
    }

    /// Whether two halves' boxes overlap, along x or along y, by less than `share` of the
    /// wider one's extent: a query then mostly searches one.
    fn apart(&self, other: &Self, share: f32) -> bool {
        let overlap = (self.max.min(other.max) - self.min.max(other.min)).max(Vec2::ZERO);
        let extent = (self.max - self.min).max(other.max - other.min);
        overlap.x < share * extent.x || overlap.y < share * extent.y
    }
}

/// Which subtrees [`build`] first halves in the order their agents come in, and how far the
/// halves may overlap to be kept so.
#[derive(Clone, Copy)]
struct Halving {
    /// The fewest agents of a subtree halved so.
    from: usize,
    /// The most the halves may overlap, as a share of the wider one's extent ([`Bounds::apart`]).
    overlap: f32,
    /// Whether the subtree's nodes hold its boxes as if every subtree were halved in the order
    /// its agents come in ([`in_order_boxes`]): true where no median has moved its agents.
    boxes_known: bool,
}

/// Writes into `nodes` (preorder, [`node_count`] of them) each node's box and lowest agent as
/// if every subtree of `items` were halved in the order its agents come in (leaves of at most
/// `leaf`), from the bottom up: each leaf's agents read once and each other node the join of
/// its two, where working each node's box out from its agents read them all once per level
/// (at 10,000 agents in the last tree's order, about 49 µs of a 70 µs tree on one thread,
/// RVO2's Circle, 2026-12-07). A median split moves agents between halves, but not the tree's
/// shape: halves at the middle either way, so the nodes are numbered alike.
fn in_order_boxes(items: &[Item], leaf: usize, nodes: &mut [Node]) -> Bounds {
    let Some((root, rest)) = nodes.split_first_mut() else {
        return Bounds::of(&[]);
    };
    let whole = if items.len() <= leaf {
        Bounds::of(items)
    } else {
        let (low, high) = items.split_at(items.len() / 2);
        let left_count = node_count(low.len(), leaf);
        let (left_nodes, right_nodes) = rest.split_at_mut(left_count.min(rest.len()));
        let (a, b) = if low.len() >= PARALLEL_SUBTREE {
            rayon::join(
                || in_order_boxes(low, leaf, left_nodes),
                || in_order_boxes(high, leaf, right_nodes),
            )
        } else {
            (
                in_order_boxes(low, leaf, left_nodes),
                in_order_boxes(high, leaf, right_nodes),
            )
        };
        a.join(b)
    };
    root.min = whole.min;
    root.max = whole.max;
    root.lowest_agent = whole.lowest_agent;
    whole
}

/// How far halves in the grid's cell order may overlap: a quarter. They share a row of cells
/// at most; 10,000 agents in one cell halved by index would share all of it, and a query there
/// looked at 185 agents on average against 40 with median splits.
const CELL_ORDER_OVERLAP: f32 = 0.25;

/// How far the last tree's halves may overlap now: a sixteenth. They met at a median, and
/// overlap by what the agents' steps since took them across it. On RVO2's Circle with 10,000
/// agents a crowded query looked at 73 agents on average with a sixteenth, 84 with a quarter
/// (77 in a tree built anew each tick); crowds of 20,000 and 100,000 spreading from one point
/// (`benches/limits.rs`), 63 and 81 (62 keeping no halves that overlap at all), while a
/// sixteenth still kept most of Circle's tree: its Tree and Resort phases 0.09 and 0.10 ms a step on one thread,
/// against 0.27 and 0.19 keeping none and 0.18 and 0.16 before the last tree's order was
/// kept (2026-12-06, AMD).
const KEPT_OVERLAP: f32 = 1.0 / 16.0;

/// Subtrees of at least this many agents are first halved in the order their agents come in
/// ([`build`]): 10,000 agents in cell order make 8 parts of 1,250 rows by rows, whose medians
/// are chosen on as many threads.
const IN_ORDER_SUBTREE: usize = 2_048;

/// The tree's arrays beside its items, each item's place in all four written in one pass (in
/// parallel when `parallel`), in the buffers they have: positions by axis, agents, and
/// velocities (read at the items' slots in `velocities`). Four passes, one an array, were four
/// hand-overs to the pool's threads: at 10,000 agents on 2 threads they took 15–19 µs a tick
/// against 9–10 on one (RVO2's Circle, 2026-12-07).
fn refill(
    (xs, ys, agents, moving): (&mut Vec<f32>, &mut Vec<f32>, &mut Vec<u32>, &mut Vec<Vec2>),
    items: &[Item],
    velocities: &[Vec2],
    parallel: bool,
) {
    let len = items.len();
    // Sized, not cleared: every entry is written below.
    xs.resize(len, 0.0);
    ys.resize(len, 0.0);
    agents.resize(len, 0);
    moving.resize(len, Vec2::ZERO);
    let write =
        |item: &Item, (x, y): (&mut f32, &mut f32), (agent, velocity): (&mut u32, &mut Vec2)| {
            *x = item.position.x;
            *y = item.position.y;
            *agent = item.agent;
            *velocity = (velocities.get(item.slot as usize))
                .copied()
                .unwrap_or_default();
        };
    if parallel {
        let axes = xs.par_iter_mut().zip(ys.par_iter_mut());
        let lanes = agents.par_iter_mut().zip(moving.par_iter_mut());
        (items.par_iter().zip(axes.zip(lanes)))
            .with_min_len(PLACES_PER_TASK)
            .for_each(|(item, (axes, lane))| write(item, axes, lane));
    } else {
        let axes = xs.iter_mut().zip(ys.iter_mut());
        let lanes = agents.iter_mut().zip(moving.iter_mut());
        (items.iter().zip(axes.zip(lanes)))
            .for_each(|(item, (axes, lane))| write(item, axes, lane));
    }
}

/// Below this many agents a subtree's two halves are built one after the other. (From 8,192,
/// a tree of 10,000 agents was built on one thread: RVO2's Circle at 10,000 agents spent 0.25
/// ms a step in the Tree phase on 1 thread and on 2 alike, 2026-12-06.)
const PARALLEL_SUBTREE: usize = 1_024;

/// From this many agents the tree's arrays beside its items are written in parallel.
const PARALLEL_ARRAYS: usize = 8_192;

/// Splits `items` (within `min..max`) at the median of the wider side, by coordinate then
/// agent index, and returns where the upper half starts: agents stacked on one point split by
/// index, so the lower half holds the lower indices.
fn split(items: &mut [Item], min: Vec2, max: Vec2) -> usize {
    let extent = max - min;
    let x = extent.x >= extent.y;
    let key = |item: &Item| if x { item.position.x } else { item.position.y };
    let middle = items.len() / 2;
    items.select_nth_unstable_by(middle, |a, b| {
        key(a).total_cmp(&key(b)).then(a.agent.cmp(&b.agent))
    });
    middle
}

#[cfg(test)]
mod tests;
