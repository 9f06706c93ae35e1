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

use glam::Vec2;

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
        } = &mut self;
        let leaf = leaf.max(1);
        *leaves = leaf;
        items.clear();
        items.extend(positions.iter().zip(agents).zip(0_u32..).map(
            |((&position, &agent), slot)| Item {
                position,
                agent,
                slot,
            },
        ));
        nodes.clear();
        if !items.is_empty() {
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
            build(items, (0, leaf), nodes, 0);
        }
        xs.clear();
        xs.extend(items.iter().map(|item| item.position.x));
        ys.clear();
        ys.extend(items.iter().map(|item| item.position.y));
        lanes.clear();
        lanes.extend(items.iter().map(|item| item.agent));
        if !layers.is_empty() {
            gather_layers(nodes, lanes, layers);
        }
        moving.clear();
        moving.extend(items.iter().map(|item| {
            velocities
                .get(item.slot as usize)
                .copied()
                .unwrap_or_default()
        }));
        // Agent indices are indices into the caller's agents, so this is at most as long.
        let size = items.iter().map(|item| item.agent as usize + 1).max();
        item_of.clear();
        item_of.resize(size.unwrap_or(0), u32::MAX);
        for (item, place) in items.iter().zip(0_u32..) {
            if let Some(slot) = item_of.get_mut(item.agent as usize) {
                *slot = place;
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

/// Builds the subtree over `items` (which start at `offset` in the tree's items; leaves of at
/// most `leaf`) into `nodes`,
/// its [`node_count`] nodes in preorder, the first numbered `first`. The two halves of a large
/// subtree are built in parallel, each into its own part of `nodes`: the same tree on any
/// number of threads, and no allocation.
fn build(items: &mut [Item], (offset, leaf): (usize, usize), nodes: &mut [Node], first: u32) {
    let Some((root, rest)) = nodes.split_first_mut() else {
        return;
    };
    let (mut min, mut max) = (Vec2::INFINITY, Vec2::NEG_INFINITY);
    let mut lowest_agent = u32::MAX;
    for item in items.iter() {
        min = min.min(item.position);
        max = max.max(item.position);
        lowest_agent = lowest_agent.min(item.agent);
    }
    *root = Node {
        min,
        max,
        lowest_agent,
        layers: u32::MAX,
        start: offset as u32,
        end: (offset + items.len()) as u32,
        left: NO_CHILD,
        right: NO_CHILD,
    };
    if items.len() <= leaf {
        return;
    }
    let middle = split(items, min, max);
    let (low, high) = items.split_at_mut(middle);
    let left_count = node_count(low.len(), leaf);
    let (left_nodes, right_nodes) = rest.split_at_mut(left_count.min(rest.len()));
    root.left = first + 1;
    root.right = first + 1 + left_count as u32;
    let right_first = root.right;
    if low.len() >= PARALLEL_SUBTREE {
        rayon::join(
            || build(low, (offset, leaf), left_nodes, first + 1),
            || build(high, (offset + middle, leaf), right_nodes, right_first),
        );
    } else {
        build(low, (offset, leaf), left_nodes, first + 1);
        build(high, (offset + middle, leaf), right_nodes, right_first);
    }
}

/// Below this many agents a subtree's two halves are built one after the other.
const PARALLEL_SUBTREE: usize = 8_192;

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
mod tests {
    use super::*;
    use wide::f32x4;

    #[test]
    fn depth_is_the_levels_of_splits_of_the_tree_built() {
        // The levels above the deepest leaf, walked in a built tree.
        fn levels(nodes: &[Node], index: u32) -> usize {
            match nodes.get(index as usize) {
                Some(node) if node.left != NO_CHILD => {
                    1 + levels(nodes, node.left).max(levels(nodes, node.right))
                }
                _ => 0,
            }
        }
        // By hand: 1,000 agents in leaves of 32 split 1,000, 500, 250, 125, 63 into 32: 5
        // levels; 100 into leaves of 32: 50, then 25, 2; 10,000: 9; 100,000: 12.
        assert_eq!(depth(1_000, 32), 5);
        assert_eq!(depth(100, 32), 2);
        assert_eq!(depth(10_000, 32), 9);
        assert_eq!(depth(100_000, 32), 12);
        for len in [0, 1, 31, 32, 33, 64, 65, 100, 1_000, 1_025, 4_097] {
            let points: Vec<Vec2> = (0..len)
                .map(|i| Vec2::new((i * 37 % 101) as f32, (i * 59 % 103) as f32))
                .collect();
            let agents: Vec<u32> = (0..len as u32).collect();
            for leaf in [1, 10, 32, 64] {
                let tree = Tree::default().rebuilt((&points, &points, &agents), leaf, &[]);
                assert_eq!(depth(len, leaf), levels(&tree.nodes, 0), "{len} in {leaf}");
            }
        }
    }

    fn brute(
        points: &[Vec2],
        center: Vec2,
        radius: f32,
        k: usize,
        exclude: usize,
        accept: impl Fn(Vec2) -> bool,
    ) -> Vec<(u32, u32)> {
        let mut all: Vec<u64> = points
            .iter()
            .enumerate()
            .filter(|&(i, p)| {
                i != exclude && p.distance_squared(center) < radius * radius && accept(*p)
            })
            .map(|(i, p)| key(p.distance_squared(center), i as u32))
            .collect();
        all.sort_unstable();
        all.truncate(k);
        all.iter()
            .map(|&key| (agent_of(key), (key >> 32) as u32))
            .collect()
    }

    #[test]
    fn the_k_nearest_match_a_scan_scattered_stacked_and_mixed() {
        let scattered: Vec<Vec2> = (0..500)
            .map(|i| Vec2::new(((i * 37) % 101) as f32 * 0.3, ((i * 53) % 97) as f32 * 0.3))
            .collect();
        let stacked = vec![Vec2::new(2.0, 3.0); 500];
        let mixed: Vec<Vec2> = (0..500)
            .map(|i| {
                if i % 3 == 0 {
                    Vec2::new(5.0, 5.0)
                } else {
                    scattered[i]
                }
            })
            .collect();
        let leaves = [SMALLEST_LEAF, LARGEST_LEAF, 5];
        for (points, leaf) in [&scattered, &stacked, &mixed]
            .into_iter()
            .flat_map(|points| leaves.into_iter().map(move |leaf| (points, leaf)))
        {
            let agents: Vec<u32> = (0..points.len() as u32).collect();
            let tree = Tree::default().rebuilt((points, points, &agents), leaf, &[]);
            let mut out = Vec::new();
            for (i, &center) in points.iter().enumerate().step_by(7) {
                for (radius, k) in [(1.0, 4), (5.0, 16), (50.0, 64), (0.5, 1)] {
                    for ahead in [false, true] {
                        // Everyone, or only those not behind on x (as a field of view takes
                        // some and not others).
                        let accept = |p: Vec2| !ahead || p.x >= center.x;
                        tree.nearest(center, radius, k, i, accept, &mut out);
                        out.sort_unstable();
                        let got: Vec<(u32, u32)> = out
                            .iter()
                            .map(|&key| (agent_of(key), (key >> 32) as u32))
                            .collect();
                        assert_eq!(
                            got,
                            brute(points, center, radius, k, i, accept),
                            "agent {i}, r {radius}, k {k}, ahead {ahead}, leaf {leaf}"
                        );
                    }
                }
            }
        }
    }

    /// A query whose `accept` refuses nearly everyone waits on more subtrees than the search
    /// holds (`search::FRONTIER`); those that do not fit are searched depth first, with the
    /// same answer.
    #[test]
    fn a_query_that_accepts_few_searches_everything_it_must() {
        let points: Vec<Vec2> = (0..20_000)
            .map(|i| {
                Vec2::new(
                    ((i * 37) % 1009) as f32 * 0.1,
                    ((i * 53) % 997) as f32 * 0.1,
                )
            })
            .collect();
        let agents: Vec<u32> = (0..points.len() as u32).collect();
        let tree = Tree::new(&points, &points, &agents);
        let mut out = Vec::new();
        for (i, &center) in points.iter().enumerate().step_by(1_999) {
            for (top, k) in [(99.0, 8), (90.0, 64), (0.0, 3)] {
                let accept = |p: Vec2| p.y >= top;
                tree.nearest(center, 1_000.0, k, i, accept, &mut out);
                out.sort_unstable();
                let got: Vec<(u32, u32)> = out
                    .iter()
                    .map(|&key| (agent_of(key), (key >> 32) as u32))
                    .collect();
                assert_eq!(got.len(), k, "agent {i}, top {top}");
                assert_eq!(got, brute(&points, center, 1_000.0, k, i, accept));
            }
        }
    }

    /// A test of avoidance layers as the evaluator's mask makes it: agents on a layer of
    /// `mask` (`layers` by agent), counting the agents it looks at.
    struct OnLayers<'a> {
        mask: u32,
        layers: &'a [u32],
        looked: &'a std::cell::Cell<usize>,
    }

    impl Accept for OnLayers<'_> {
        fn lanes(&self, _: f32x4, _: f32x4, _: f32x4, _: f32x4, agents: [u32; 4]) -> u32 {
            self.looked.set(self.looked.get() + 4);
            (agents.iter().zip(0..)).fold(0, |lanes, (&agent, lane)| {
                let layers = self.layers.get(agent as usize).copied().unwrap_or(1);
                lanes | u32::from(self.mask & layers != 0) << lane
            })
        }

        fn subtree(&self, layers: u32) -> bool {
            self.mask & layers != 0
        }
    }

    /// Agents of a mask among agents on several layers: the same answer as a scan testing
    /// each agent's layers, scattered, stacked and mixed, whether the tree knows the layers
    /// (and skips subtrees) or not.
    #[test]
    fn the_nearest_of_a_mask_match_a_scan() {
        let scattered: Vec<Vec2> = (0..600)
            .map(|i| Vec2::new(((i * 37) % 101) as f32 * 0.3, ((i * 53) % 97) as f32 * 0.3))
            .collect();
        let stacked = vec![Vec2::new(2.0, 3.0); 600];
        // Layer 1 for most, layer 2 for every seventh, both for every 50th, layer 3 for the
        // last 20 (the default, layer 1, for the 10 past the list's end).
        let layers: Vec<u32> = (0..590)
            .map(|i| match i {
                580.. => 0b100,
                _ if i % 50 == 0 => 0b11,
                _ if i % 7 == 0 => 0b10,
                _ => 0b1,
            })
            .collect();
        let layer_of = |agent: usize| layers.get(agent).copied().unwrap_or(1);
        let looked = std::cell::Cell::new(0);
        for points in [&scattered, &stacked] {
            let agents: Vec<u32> = (0..points.len() as u32).collect();
            for told in [&layers[..], &[]] {
                let tree = Tree::default().rebuilt((points, points, &agents), 8, told);
                let mut out = Vec::new();
                for (i, &center) in points.iter().enumerate().step_by(13) {
                    for (mask, k) in [(0b1, 10), (0b10, 10), (0b100, 64), (0b1000, 4)] {
                        let accept = OnLayers {
                            mask,
                            layers: &layers,
                            looked: &looked,
                        };
                        tree.nearest(center, 5.0, k, i, accept, &mut out);
                        out.sort_unstable();
                        let mut expected: Vec<u64> = (points.iter().enumerate())
                            .filter(|&(j, p)| {
                                j != i
                                    && p.distance_squared(center) < 25.0
                                    && mask & layer_of(j) != 0
                            })
                            .map(|(j, p)| key(p.distance_squared(center), j as u32))
                            .collect();
                        expected.sort_unstable();
                        expected.truncate(k);
                        assert_eq!(out, expected, "agent {i}, mask {mask}, told {}", told.len());
                    }
                }
            }
        }
    }

    /// An agent that avoids only ten of 100,000 stacked agents (their layer is not the
    /// others') finds those ten looking at about a leaf or two of agents: the subtrees with
    /// none on its mask are skipped unseen. Without the layers it would look at all 100,000.
    #[test]
    fn a_mask_that_takes_few_of_a_stacked_crowd_looks_at_few() {
        let stacked = vec![Vec2::ZERO; 100_000];
        let agents: Vec<u32> = (0..100_000).collect();
        let layers: Vec<u32> = (0..100_000)
            .map(|i| {
                if (50_000..50_010).contains(&i) {
                    0b1
                } else {
                    0b10
                }
            })
            .collect();
        let tree = Tree::default().rebuilt((&stacked, &stacked, &agents), SMALLEST_LEAF, &layers);
        let mut out = Vec::new();
        let looked = std::cell::Cell::new(0);
        let accept = OnLayers {
            mask: 0b1,
            layers: &layers,
            looked: &looked,
        };
        tree.nearest(Vec2::ZERO, 1.0, 16, 7, accept, &mut out);
        out.sort_unstable();
        let found: Vec<u32> = out.iter().map(|&key| agent_of(key)).collect();
        assert_eq!(found, (50_000..50_010).collect::<Vec<u32>>());
        // Stacked agents split by index, so the ten lie in one leaf of at most 32 agents, or
        // two where a split falls among them.
        assert!(
            looked.get() <= 2 * SMALLEST_LEAF,
            "looked at {} agents",
            looked.get()
        );
    }

    #[test]
    fn a_stacked_crowd_answers_its_lowest_indices_looking_at_few() {
        let stacked = vec![Vec2::ZERO; 100_000];
        let agents: Vec<u32> = (0..100_000).collect();
        let tree = Tree::new(&stacked, &stacked, &agents);
        let mut out = Vec::new();
        let looked = std::cell::Cell::new(0);
        tree.nearest(
            Vec2::ZERO,
            1.0,
            64,
            3,
            |_| {
                looked.set(looked.get() + 1);
                true
            },
            &mut out,
        );
        out.sort_unstable();
        let indices: Vec<u32> = out.iter().map(|&key| agent_of(key)).collect();
        let expected: Vec<u32> = (0..65).filter(|&i| i != 3).collect();
        assert_eq!(indices, expected);
        assert!(looked.get() < 1_000, "looked at {} agents", looked.get());
    }
}
