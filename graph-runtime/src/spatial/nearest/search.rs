//! One k-nearest query of the tree: subtrees visited nearest first, candidates gathered as
//! integer keys and thinned by a selection.
//!
//! The subtrees wait in a small heap ordered by (box distance, lowest agent index), so the
//! first leaves looked at are the nearest ones and the first bound is tight; the search ends
//! when the nearest waiting subtree is beyond the bound. A depth-first order pushed whole
//! subtrees beside a split line before the leaves across it, and gathered half again as many
//! candidates. Should the heap fill (a query whose `accept` refuses nearly everyone), a subtree
//! that does not fit is searched depth first on the spot: the answer is the same.
//! Of a node's two children only the farther waits in the heap; the nearer is taken next at
//! once unless a waiting subtree is nearer still, the order the heap would give without a
//! push and a pop per level (1.5–2.5 % of Circle's step at 1,000 and 10,000 agents, issue 47).

use bytemuck::cast;
use glam::Vec2;
use wide::{CmpLt, f32x4, u32x4};

use super::{NO_CHILD, Node, Tree, box_distance_squared, key};

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
    /// per agent looked at. Twice `k`: 1.5 and 3 times were within 2 % of it for 64
    /// neighbors (issue 28). At least a leaf's worth: for few neighbors (Reciprocal's 10) a
    /// selection after every leaf cost more than the looser bound (issue 30).
    threshold: usize,
}

impl<'t, 'o, F: Accept> Search<'t, 'o, F> {
    pub(super) fn new(tree: &'t Tree, query: Query<F>, out: &'o mut Vec<u64>) -> Self {
        let threshold = (query.k * 2).max(tree.leaf);
        // A leaf's agents are written at `len` whether they pass or not, so `out` holds room
        // for a whole leaf beyond the threshold; its old contents stay (every place is written
        // before it is read).
        if out.len() < threshold + tree.leaf {
            out.resize(threshold + tree.leaf, 0);
        }
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
        let mut next = self.waiting(0);
        while let Some((order, index)) = next {
            if order > self.bound {
                break;
            }
            let Some(&node) = self.tree.nodes.get(index as usize) else {
                next = heap.pop();
                continue;
            };
            if node.left == NO_CHILD {
                self.leaf(&node);
                next = heap.pop();
                continue;
            }
            let (near, far) = match (self.waiting(node.left), self.waiting(node.right)) {
                (Some(left), Some(right)) if right.0 < left.0 => (Some(right), Some(left)),
                (Some(left), right) => (Some(left), right),
                (None, right) => (right, None),
            };
            if let Some(far) = far
                && !heap.push(far)
            {
                self.depth_first(far);
            }
            next = match near {
                Some(near) if heap.peek().is_none_or(|top| near.0 <= top.0) => Some(near),
                Some(near) => {
                    if !heap.push(near) {
                        self.depth_first(near);
                    }
                    heap.pop()
                }
                None => heap.pop(),
            };
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
        if distance.is_nan()
            || distance >= self.query.radius_squared
            || !self.query.accept.subtree(node.layers)
        {
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

    /// Tests a leaf's agents four at a time (distance, field of view: one square root
    /// instruction for four), then writes each agent's key at `len` and counts it if it
    /// passes, without a branch. A branch per agent that passed or not at random cost a third
    /// of a stacked crowd's tick; one agent at a time, the field of view's square root was a
    /// sixth of it.
    fn leaf(&mut self, node: &Node) {
        let range = node.start as usize..node.end as usize;
        let tree = self.tree;
        let (Some(xs), Some(ys), Some(agents)) = (
            tree.xs.get(range.clone()),
            tree.ys.get(range.clone()),
            tree.agents.get(range),
        ) else {
            return;
        };
        let Query {
            center,
            radius_squared,
            exclude,
            ref accept,
            ..
        } = self.query;
        let (center_x, center_y) = (f32x4::splat(center.x), f32x4::splat(center.y));
        let within = f32x4::splat(radius_squared);
        // The bound as its two halves: a key is below it when its squared distance's bits
        // are, or are equal and its agent is (bits of non-negative floats order as the
        // floats do).
        let bound_distance = u32x4::splat((self.bound >> 32) as u32);
        let bound_agent = u32x4::splat(self.bound as u32);
        // An index beyond every agent excludes nobody.
        let exclude = u32x4::splat(u32::try_from(exclude).unwrap_or(u32::MAX));
        let mut len = self.len;
        let fours = xs.chunks(4).zip(ys.chunks(4)).zip(agents.chunks(4));
        for ((xs, ys), agents) in fours {
            let (x, y) = (f32x4::new(four(xs)), f32x4::new(four(ys)));
            let agents = four(agents);
            let (dx, dy) = (x - center_x, y - center_y);
            // As `Vec2::distance_squared` computes it: `dx * dx + dy * dy`.
            let distances = dx * dx + dy * dy;
            let bits: u32x4 = cast(distances);
            let lanes = u32x4::new(agents);
            let below = bits.cmp_lt(bound_distance)
                | (bits.cmp_eq(bound_distance) & lanes.cmp_lt(bound_agent));
            let other = !lanes.cmp_eq(exclude);
            let counted: f32x4 = cast(below & other);
            // A leaf's last four may be fewer: the missing lanes are not counted.
            let present = (1_u32 << xs.len()) - 1;
            let passed = (distances.cmp_lt(within) & counted).move_mask() as u32
                & accept.lanes(x, y, dx, dy, agents)
                & present;
            let distances = distances.to_array();
            for lane in 0..xs.len() {
                if let Some(place) = self.out.get_mut(len) {
                    *place = key(distances[lane], agents[lane]);
                }
                len += ((passed >> lane) & 1) as usize;
            }
        }
        self.len = len;
        if len > self.threshold {
            let k = self.query.k;
            self.bound = keep_nearest(self.out.get_mut(..len).unwrap_or_default(), k);
            self.len = k;
        }
    }
}

/// Four lanes from at most four values, the missing ones zero.
#[inline]
fn four<T: Copy + Default>(values: &[T]) -> [T; 4] {
    match <[T; 4]>::try_from(values) {
        Ok(four) => four,
        Err(_) => [0, 1, 2, 3].map(|i| values.get(i).copied().unwrap_or_default()),
    }
}

/// Which agents of four a query takes: bit `i` for lane `i`, from the lanes' positions
/// (`x`, `y`), their offsets from the query's center (`dx`, `dy`) and their agents.
pub(crate) trait Accept {
    fn lanes(&self, x: f32x4, y: f32x4, dx: f32x4, dy: f32x4, agents: [u32; 4]) -> u32;

    /// Whether a subtree whose agents are on `layers` (all of them together) may hold an
    /// agent this takes: a query of avoidance layers skips the rest unseen.
    #[inline]
    fn subtree(&self, _layers: u32) -> bool {
        true
    }
}

/// Any test of a position, one lane at a time.
impl<F: Fn(Vec2) -> bool> Accept for F {
    #[inline]
    fn lanes(&self, x: f32x4, y: f32x4, _: f32x4, _: f32x4, _: [u32; 4]) -> u32 {
        let (x, y) = (x.to_array(), y.to_array());
        (0..4).fold(0, |mask, lane| {
            mask | u32::from(self(Vec2::new(x[lane], y[lane]))) << lane
        })
    }
}

/// The agents both tests take.
impl<A: Accept, B: Accept> Accept for (A, B) {
    #[inline]
    fn lanes(&self, x: f32x4, y: f32x4, dx: f32x4, dy: f32x4, agents: [u32; 4]) -> u32 {
        self.0.lanes(x, y, dx, dy, agents) & self.1.lanes(x, y, dx, dy, agents)
    }

    #[inline]
    fn subtree(&self, layers: u32) -> bool {
        self.0.subtree(layers) && self.1.subtree(layers)
    }
}

/// The agents a field of view around `forward` sees from the query's center
/// ([`FieldOfView::sees`](crate::behaviors::FieldOfView::sees), four at a time).
#[derive(Clone, Copy, Debug)]
pub(crate) struct InView {
    pub(crate) forward: Vec2,
    pub(crate) fov: crate::behaviors::FieldOfView,
}

impl Accept for InView {
    #[inline]
    fn lanes(&self, _: f32x4, _: f32x4, dx: f32x4, dy: f32x4, _: [u32; 4]) -> u32 {
        self.fov.sees_lanes(self.forward, dx, dy)
    }
}

/// Moves the `k` smallest of `keys` to its front (in no order) and returns the k-th of them
/// (`u64::MAX` if there are not `k`).
pub(crate) fn keep_nearest(keys: &mut [u64], k: usize) -> u64 {
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

    /// The entry of the lowest order, left in place.
    fn peek(&self) -> Option<(u64, u32)> {
        self.entries.get(self.len.checked_sub(1)?).copied()
    }

    /// Removes and returns the entry of the lowest order.
    fn pop(&mut self) -> Option<(u64, u32)> {
        self.len = self.len.checked_sub(1)?;
        Some(self.entries[self.len])
    }
}
