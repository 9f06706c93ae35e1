//! Building the k-d tree's nodes over its items: halves kept in the order the agents come in
//! where they lie apart, split at the median elsewhere (`build`), the boxes of a tree kept in
//! its last order worked out from the bottom up (`in_order_boxes`), and the arrays beside the
//! items written in one pass (`refill`).

use glam::Vec2;
use rayon::prelude::*;

use super::{Item, NO_CHILD, Node, PLACES_PER_TASK, node_count};

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
pub(super) fn build(
    items: &mut [Item],
    (offset, leaf, halving): (usize, usize, Halving),
    nodes: &mut [Node],
    first: u32,
) -> Option<(usize, usize)> {
    let large = items.len() > leaf && items.len() >= halving.from;
    // Either split is at the middle: the lower half's nodes, before the upper's.
    let left_count = node_count(items.len() / 2, leaf);
    let (whole, halves) = if large && halving.boxes_known {
        // The halves' boxes, worked out from the bottom up (`in_order_boxes`).
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
pub(super) struct Bounds {
    pub(super) min: Vec2,
    pub(super) max: Vec2,
    pub(super) lowest_agent: u32,
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

    pub(super) fn of(items: &[Item]) -> Self {
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
pub(super) struct Halving {
    /// The fewest agents of a subtree halved so.
    pub(super) from: usize,
    /// The most the halves may overlap, as a share of the wider one's extent ([`Bounds::apart`]).
    pub(super) overlap: f32,
    /// Whether the subtree's nodes hold its boxes as if every subtree were halved in the order
    /// its agents come in ([`in_order_boxes`]): true where no median has moved its agents.
    pub(super) boxes_known: bool,
}

/// Writes into `nodes` (preorder, [`node_count`] of them) each node's box and lowest agent as
/// if every subtree of `items` were halved in the order its agents come in (leaves of at most
/// `leaf`), from the bottom up: each leaf's agents read once and each other node the join of
/// its two, where working each node's box out from its agents read them all once per level
/// (at 10,000 agents in the last tree's order, about 49 µs of a 70 µs tree on one thread,
/// RVO2's Circle, 2026-12-07). A median split moves agents between halves, but not the tree's
/// shape: halves at the middle either way, so the nodes are numbered alike.
pub(super) fn in_order_boxes(items: &[Item], leaf: usize, nodes: &mut [Node]) -> Bounds {
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
pub(super) const CELL_ORDER_OVERLAP: f32 = 0.25;

/// How far the last tree's halves may overlap now: a sixteenth. They met at a median, and
/// overlap by what the agents' steps since took them across it. On RVO2's Circle with 10,000
/// agents a crowded query looked at 73 agents on average with a sixteenth, 84 with a quarter
/// (77 in a tree built anew each tick); crowds of 20,000 and 100,000 spreading from one point
/// (`benches/limits.rs`), 63 and 81 (62 keeping no halves that overlap at all), while a
/// sixteenth still kept most of Circle's tree: its Tree and Resort phases 0.09 and 0.10 ms a
/// step on one thread, against 0.27 and 0.19 keeping none and 0.18 and 0.16 before the last
/// tree's order was kept (2026-12-06, AMD).
pub(super) const KEPT_OVERLAP: f32 = 1.0 / 16.0;

/// Subtrees of at least this many agents are first halved in the order their agents come in
/// ([`build`]): 10,000 agents in cell order make 8 parts of 1,250 rows by rows, whose medians
/// are chosen on as many threads.
pub(super) const IN_ORDER_SUBTREE: usize = 2_048;

/// The tree's arrays beside its items, each item's place in all four written in one pass (in
/// parallel when `parallel`), in the buffers they have: positions by axis, agents, and
/// velocities (read at the items' slots in `velocities`). Four passes, one an array, were four
/// hand-overs to the pool's threads: at 10,000 agents on 2 threads they took 15–19 µs a tick
/// against 9–10 on one (RVO2's Circle, 2026-12-07).
pub(super) fn refill(
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
pub(super) const PARALLEL_SUBTREE: usize = 1_024;

/// From this many agents the tree's arrays beside its items are written in parallel.
pub(super) const PARALLEL_ARRAYS: usize = 8_192;

/// Splits `items` (within `min..max`) at the median of the wider side, by coordinate then
/// agent index, and returns where the upper half starts: agents stacked on one point split by
/// index, so the lower half holds the lower indices.
pub(super) fn split(items: &mut [Item], min: Vec2, max: Vec2) -> usize {
    let extent = max - min;
    let x = extent.x >= extent.y;
    let key = |item: &Item| if x { item.position.x } else { item.position.y };
    let middle = items.len() / 2;
    items.select_nth_unstable_by(middle, |a, b| {
        key(a).total_cmp(&key(b)).then(a.agent.cmp(&b.agent))
    });
    middle
}
