//! One k-nearest query of the tree: subtrees visited nearest first, candidates gathered as
//! integer keys and thinned by a selection.
//!
//! The subtrees wait in a small heap ordered by (box distance, lowest agent index), so the
//! first leaves looked at are the nearest ones and the first bound is tight; the search ends
//! when the nearest waiting subtree is beyond the bound. A depth-first order pushed whole
//! subtrees beside a split line before the leaves across it, and gathered half again as many
//! candidates. Should the heap fill (a query whose `accept` refuses nearly everyone), a subtree
//! that does not fit is searched depth first on the spot: the answer is the same.

use glam::Vec2;

use super::{LEAF, NO_CHILD, Node, Tree, box_distance_squared, key};

/// Subtrees the heap holds at most; a few dozen wait in a usual query.
const FRONTIER: usize = 64;

/// What a query asks for.
pub(super) struct Query<F> {
    pub(super) center: Vec2,
    pub(super) radius_squared: f32,
    pub(super) k: usize,
    pub(super) exclude: usize,
    pub(super) accept: F,
}

/// A query under way: the candidates gathered in `out[..len]` and the bound on what may still
/// enter (the k-th nearest so far, once there were more than `k`).
pub(super) struct Search<'t, 'o, F> {
    tree: &'t Tree,
    query: Query<F>,
    out: &'o mut Vec<u64>,
    len: usize,
    bound: u64,
    /// Candidates gather until there are more than this many, then the `k` nearest are kept
    /// (a selection, linear) and the k-th of them becomes the bound: amortized constant work
    /// per agent looked at. At least a leaf's worth: for few neighbors (Reciprocal's 10) a
    /// selection after every leaf cost more than the looser bound (issue 30).
    threshold: usize,
}

impl<'t, 'o, F: Fn(Vec2) -> bool> Search<'t, 'o, F> {
    pub(super) fn new(tree: &'t Tree, query: Query<F>, out: &'o mut Vec<u64>) -> Self {
        let threshold = (query.k + query.k / 2).max(LEAF);
        // A leaf's agents are written at `len` whether they pass or not, so `out` holds room
        // for a whole leaf beyond the threshold.
        out.clear();
        out.resize(threshold + LEAF, 0);
        Self {
            tree,
            query,
            out,
            len: 0,
            bound: u64::MAX,
            threshold,
        }
    }

    /// Runs the search and leaves the at most `k` nearest in `out`.
    pub(super) fn run(mut self) {
        let mut heap = Frontier::default();
        if let Some(root) = self.waiting(0) {
            heap.push(root);
        }
        while let Some((order, index)) = heap.pop() {
            if order > self.bound {
                break;
            }
            let Some(&node) = self.tree.nodes.get(index as usize) else {
                continue;
            };
            if node.left == NO_CHILD {
                self.leaf(&node);
                continue;
            }
            for child in [node.left, node.right] {
                if let Some(entry) = self.waiting(child)
                    && !heap.push(entry)
                {
                    self.depth_first(entry);
                }
            }
        }
        let k = self.query.k;
        if self.len > k {
            keep_nearest(self.out.get_mut(..self.len).unwrap_or_default(), k);
            self.len = k;
        }
        self.out.truncate(self.len);
    }

    /// Subtree `index` as a heap entry, if it may hold a candidate: its order is the key of its
    /// box distance and lowest agent index, which no agent of it beats.
    fn waiting(&self, index: u32) -> Option<(u64, u32)> {
        let node = self.tree.nodes.get(index as usize)?;
        let distance = box_distance_squared(self.query.center, node.min, node.max);
        // NaN (which finite positions do not give) counts as out of reach.
        if distance.is_nan() || distance >= self.query.radius_squared {
            return None;
        }
        let order = key(distance, node.lowest_agent);
        (order <= self.bound).then_some((order, index))
    }

    /// Searches the subtree of `entry` depth first, the nearer child first.
    fn depth_first(&mut self, entry: (u64, u32)) {
        // At most two entries per level of a tree at most 64 levels deep.
        let mut stack = [(0_u64, 0_u32); 128];
        stack[0] = entry;
        let mut depth = 1;
        while depth > 0 {
            depth -= 1;
            let (order, index) = stack[depth];
            if order > self.bound {
                continue;
            }
            let Some(&node) = self.tree.nodes.get(index as usize) else {
                continue;
            };
            if node.left == NO_CHILD {
                self.leaf(&node);
                continue;
            }
            let (Some(left), Some(right)) = (self.waiting(node.left), self.waiting(node.right))
            else {
                // One child or none within reach.
                if let Some(only) = self.waiting(node.left).or(self.waiting(node.right))
                    && depth < stack.len()
                {
                    stack[depth] = only;
                    depth += 1;
                }
                continue;
            };
            // The nearer one is looked at first (pushed last).
            let (first, second) = if left.0 <= right.0 {
                (left, right)
            } else {
                (right, left)
            };
            if depth + 2 <= stack.len() {
                stack[depth] = second;
                stack[depth + 1] = first;
                depth += 2;
            }
        }
    }

    /// Tests a leaf's agents, without a branch: each is written at `len` and counted if it
    /// passes (a branch per agent that passed or not at random cost a third of a stacked
    /// crowd's tick).
    #[expect(
        clippy::needless_bitwise_bool,
        reason = "`&` keeps a leaf's scan free of branches; the sides are plain comparisons"
    )]
    fn leaf(&mut self, node: &Node) {
        let items = self
            .tree
            .items
            .get(node.start as usize..node.end as usize)
            .unwrap_or(&[]);
        let Query {
            center,
            radius_squared,
            exclude,
            ref accept,
            ..
        } = self.query;
        let (mut len, bound) = (self.len, self.bound);
        for item in items {
            let distance_squared = item.position.distance_squared(center);
            let found = key(distance_squared, item.agent);
            let takes = (distance_squared < radius_squared)
                & (item.agent as usize != exclude)
                & (found < bound)
                & accept(item.position);
            if let Some(place) = self.out.get_mut(len) {
                *place = found;
            }
            len += usize::from(takes);
        }
        self.len = len;
        if len > self.threshold {
            let k = self.query.k;
            self.bound = keep_nearest(self.out.get_mut(..len).unwrap_or_default(), k);
            self.len = k;
        }
    }
}

/// Moves the `k` smallest of `keys` to its front (in no order) and returns the k-th of them
/// (`u64::MAX` if there are not `k`).
fn keep_nearest(keys: &mut [u64], k: usize) -> u64 {
    let Some(kth) = k.checked_sub(1).filter(|&kth| kth < keys.len()) else {
        return u64::MAX;
    };
    keys.select_nth_unstable(kth);
    keys.get(kth).copied().unwrap_or(u64::MAX)
}

/// The subtrees waiting, of fixed room on the stack, sorted by descending order: the nearest
/// is taken from the end, and a new one (usually near) slides in a few places from the end.
struct Frontier {
    entries: [(u64, u32); FRONTIER],
    len: usize,
}

impl Default for Frontier {
    fn default() -> Self {
        Self {
            entries: [(0, 0); FRONTIER],
            len: 0,
        }
    }
}

impl Frontier {
    /// Adds `entry`; false when there is no room.
    fn push(&mut self, entry: (u64, u32)) -> bool {
        if self.len >= FRONTIER {
            return false;
        }
        let mut at = self.len;
        while at > 0 && self.entries[at - 1].0 < entry.0 {
            self.entries[at] = self.entries[at - 1];
            at -= 1;
        }
        self.entries[at] = entry;
        self.len += 1;
        true
    }

    /// Removes and returns the entry of the lowest order.
    fn pop(&mut self) -> Option<(u64, u32)> {
        self.len = self.len.checked_sub(1)?;
        Some(self.entries[self.len])
    }
}
