//! The k-d tree's tests: its shape, its answers against a scan (scattered, stacked, mixed,
//! on avoidance layers, large crowds in cell order and in none), and how few agents a
//! query looks at.

use super::nodes::Bounds;
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

/// The tree's answer (agent and squared distance's bits, nearest first) for the `k` nearest
/// of `center` within `radius`, `exclude` left out, as `brute` gives it.
fn answered(
    tree: &Tree,
    (center, radius, k, exclude): (Vec2, f32, usize, usize),
    accept: impl Accept,
) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    tree.nearest(center, radius, k, exclude, accept, &mut out);
    out.sort_unstable();
    out.iter()
        .map(|&key| (agent_of(key), (key >> 32) as u32))
        .collect()
}

/// `n` points spread over a 30 × 29 area in no order, a few sharing a point.
fn scattered(n: usize) -> Vec<Vec2> {
    (0..n)
        .map(|i| Vec2::new(((i * 37) % 101) as f32 * 0.3, ((i * 53) % 97) as f32 * 0.3))
        .collect()
}

#[test]
fn the_k_nearest_match_a_scan_scattered_stacked_and_mixed() {
    let (scattered, stacked) = (scattered(500), vec![Vec2::new(2.0, 3.0); 500]);
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
        for (i, &center) in points.iter().enumerate().step_by(7) {
            for (radius, k) in [(1.0, 4), (5.0, 16), (50.0, 64), (0.5, 1)] {
                for ahead in [false, true] {
                    // Everyone, or only those not behind on x (as a field of view takes
                    // some and not others).
                    let accept = |p: Vec2| !ahead || p.x >= center.x;
                    assert_eq!(
                        answered(&tree, (center, radius, k, i), accept),
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
    let (scattered, stacked) = (scattered(600), vec![Vec2::new(2.0, 3.0); 600]);
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
                            j != i && p.distance_squared(center) < 25.0 && mask & layer_of(j) != 0
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

/// 6,000 agents a unit apart, row by row (the grid's cell order, which the upper levels of the
/// tree halve without choosing medians), every 13th stacked on one point: the k nearest match
/// a scan, given in that order and in none (split at medians).
#[test]
fn a_large_crowd_in_cell_order_or_in_none_answers_as_a_scan() {
    let (columns, rows) = (80, 75);
    let points: Vec<Vec2> = (0..columns * rows)
        .map(|i| {
            if i % 13 == 0 {
                Vec2::new(40.5, 37.5)
            } else {
                let jitter = ((i * 7) % 10) as f32 * 0.05;
                Vec2::new((i % columns) as f32 + jitter, (i / columns) as f32 + 0.25)
            }
        })
        .collect();
    assert!(points.len() >= 2 * IN_ORDER_SUBTREE);
    let n = points.len() as u32;
    let in_order: Vec<u32> = (0..n).collect();
    let scrambled: Vec<u32> = (0..n).map(|i| (i * 7_919) % n).collect();
    for order in [&in_order, &scrambled] {
        let positions: Vec<Vec2> = order.iter().map(|&i| points[i as usize]).collect();
        let tree = Tree::default().rebuilt((&positions, &positions, order), SMALLEST_LEAF, &[]);
        for (i, &center) in points.iter().enumerate().step_by(97) {
            for (radius, k) in [(1.5, 4), (5.0, 10), (30.0, 64)] {
                assert_eq!(
                    answered(&tree, (center, radius, k, i), |_| true),
                    brute(&points, center, radius, k, i, |_| true),
                    "agent {i}, r {radius}, k {k}, scrambled {}",
                    order[1] != 1
                );
            }
        }
    }
}

/// The most agents a query for the ten nearest within 5 units looks at, over the queries of
/// every `step`-th agent of `points` (agent `i` at `points[i]`, the tree built in that order).
fn most_looked_at(points: &[Vec2], step: usize) -> usize {
    let agents: Vec<u32> = (0..points.len() as u32).collect();
    most_looked_at_in(&Tree::new(points, points, &agents), points, step)
}

/// [`most_looked_at`] in `tree`, built over agent `i` at `points[i]` in any order.
fn most_looked_at_in(tree: &Tree, points: &[Vec2], step: usize) -> usize {
    let mut out = Vec::new();
    (0..points.len()).step_by(step).fold(0, |most, i| {
        let looked = std::cell::Cell::new(0);
        let accept = |_| {
            looked.set(looked.get() + 1);
            true
        };
        tree.nearest(points[i], 5.0, 10, i, accept, &mut out);
        assert_eq!(out.len(), 10);
        most.max(looked.get())
    })
}

/// 20,000 agents a unit apart in cell order, their tree's upper levels halved by rows: the ten
/// nearest of an agent, among the 78 within 5 units, are found looking at a few leaves of
/// about 20 agents (100 agents at most, 2026-12-06; halved in an order that is not the
/// cells', with no check that the halves lie apart, 680).
#[test]
fn a_query_in_a_large_crowd_in_cell_order_looks_at_few() {
    let (columns, rows) = (200, 100);
    let points: Vec<Vec2> = (0..columns * rows)
        .map(|i| Vec2::new((i % columns) as f32 + 0.5, (i / columns) as f32 + 0.5))
        .collect();
    let most = most_looked_at(&points, 1_009);
    assert!(
        most <= 5 * SMALLEST_LEAF,
        "looked at {most} agents of 20,000"
    );
}

/// 10,000 agents spread over a 10 × 10 square (within one cell of the grid), in index order:
/// halves in that order would overlap wholly, so the tree splits them at medians, and the ten
/// nearest of an agent are found looking at a few leaves (60 agents at most, 40 on average,
/// 2026-12-06; halved in index order, 340 at most and 185 on average).
#[test]
fn a_crowd_within_one_cell_is_split_at_medians() {
    let points: Vec<Vec2> = (0..10_000_u32)
        .map(|i| {
            let x = ((i * 7_919) % 10_007) as f32 / 1_000.7;
            Vec2::new(x, ((i * 4_999) % 10_009) as f32 / 1_000.9)
        })
        .collect();
    let most = most_looked_at(&points, 97);
    assert!(
        most <= 4 * SMALLEST_LEAF,
        "looked at {most} agents of 10,000"
    );
}

/// The tree over agents `order` at `points[order[i]]` (as a grid gives them, in its order),
/// built in the buffers of `tree` (the last tick's).
fn rebuilt_over(tree: Tree, points: &[Vec2], order: &[u32]) -> Tree {
    let positions: Vec<Vec2> = order.iter().map(|&i| points[i as usize]).collect();
    tree.rebuilt((&positions, &positions, order), SMALLEST_LEAF, &[])
}

/// 6,000 and 9,000 agents about a unit apart, then each moved a tenth of a unit and given in
/// another order: the tree rebuilt over them keeps the last tree's order (its halves still lie
/// apart: no median chosen), and answers as a scan (a query looks at 96 and 100 agents at
/// most, as in fresh trees). Moved far instead (each to another agent's place, every 13th onto
/// one point), its halves overlap, are split at medians, and it answers as a scan looking at
/// no more than a fresh tree's bound; over other agents, or more, it is the fresh tree.
#[test]
fn a_tree_rebuilt_over_the_same_agents_keeps_its_halves_where_they_lie_apart() {
    // 6,000 agents, whose tree's arrays are written on one thread, and 9,000, on
    // every thread.
    for columns in [80, 120] {
        rebuilt_over_the_same_agents(columns);
    }
}

/// [`a_tree_rebuilt_over_the_same_agents_keeps_its_halves_where_they_lie_apart`] with agents
/// in `columns` columns of 75 rows.
fn rebuilt_over_the_same_agents(columns: usize) {
    let n = columns * 75;
    let place = |i: usize| {
        let jitter = ((i * 7) % 10) as f32 * 0.05;
        Vec2::new((i % columns) as f32 + jitter, (i / columns) as f32 + 0.25)
    };
    let points: Vec<Vec2> = (0..n).map(place).collect();
    let in_order: Vec<u32> = (0..n as u32).collect();
    let scrambled: Vec<u32> = (0..n as u32).map(|i| (i * 7_919) % n as u32).collect();
    let first = rebuilt_over(Tree::default(), &points, &in_order);
    let last_order = first.agents.clone();
    let check = |tree: &Tree, points: &[Vec2], at: &str| {
        // Each node's box and lowest agent, which a kept tree works out from the bottom up
        // where no median moved its agents: those of the agents it holds.
        for (index, node) in tree.nodes.iter().enumerate() {
            let items = &tree.items[node.start as usize..node.end as usize];
            let fresh = Bounds::of(items);
            assert_eq!(
                (node.min, node.max, node.lowest_agent),
                (fresh.min, fresh.max, fresh.lowest_agent),
                "{at}: node {index}"
            );
        }
        // Each agent's place, which a kept tree writes only where it split at medians again.
        for (place, item) in tree.items.iter().enumerate() {
            assert_eq!(
                tree.item_of[item.agent as usize], place as u32,
                "{at}: agent {}",
                item.agent
            );
        }
        for (i, &center) in points.iter().enumerate().step_by(97) {
            for (radius, k) in [(1.5, 4), (5.0, 10), (30.0, 64)] {
                assert_eq!(
                    answered(tree, (center, radius, k, i), |_| true),
                    brute(points, center, radius, k, i, |_| true),
                    "{at}: agent {i}, r {radius}, k {k}"
                );
            }
        }
    };

    // A tenth of a unit each, in a direction of its own.
    let nudged: Vec<Vec2> = (points.iter().enumerate())
        .map(|(i, &p)| p + Vec2::from_angle(i as f32 * 2.4) * 0.1)
        .collect();
    let kept = rebuilt_over(first, &nudged, &scrambled);
    assert_eq!(kept.agents, last_order, "every half kept as it was");
    check(&kept, &nudged, "nudged");

    // The lowest 10 rows' agents each to another's place among them: the subtrees over those
    // rows are split at medians again, the rest kept.
    let low_rows = 10 * columns;
    let shuffled: Vec<Vec2> = (0..n)
        .map(|i| {
            if i < low_rows {
                nudged[(i * 7) % low_rows]
            } else {
                nudged[i]
            }
        })
        .collect();
    let kept = rebuilt_over(kept, &shuffled, &in_order);
    assert_ne!(kept.agents, last_order, "the lowest rows split again");
    // The upper half's subtrees are kept as they were.
    assert_eq!(kept.agents[n / 2..], last_order[n / 2..]);
    check(&kept, &shuffled, "shuffled low rows");

    // Each to the place of agent 7i mod n, every 13th onto one point: the halves overlap
    // nearly everywhere.
    let far: Vec<Vec2> = (0..n)
        .map(|i| {
            if i % 13 == 0 {
                Vec2::new(40.5, 37.5)
            } else {
                points[(i * 7) % n]
            }
        })
        .collect();
    let split = rebuilt_over(kept, &far, &in_order);
    assert_ne!(split.agents, last_order);
    check(&split, &far, "moved far");
    // 120 and 100 agents at most, as many as in fresh trees over them (2026-12-06).
    let most = most_looked_at_in(&split, &far, 101);
    assert!(most <= 5 * SMALLEST_LEAF, "looked at {most} agents of {n}");

    // Other agents (one fewer, then one replaced): the tree a fresh build makes.
    let fewer = &in_order[1..];
    let split = rebuilt_over(split, &points, fewer);
    assert_eq!(split, rebuilt_over(Tree::default(), &points, fewer));
    let mut replaced = in_order.clone();
    replaced[17] = n as u32;
    let mut more = points.clone();
    more.push(Vec2::new(3.0, 4.0));
    let split = rebuilt_over(split, &more, &replaced);
    assert_eq!(split, rebuilt_over(Tree::default(), &more, &replaced));
    // As many agents as the last tree, one of them not in it (agent 17 back for agent n).
    let split = rebuilt_over(split, &more, &in_order);
    assert_eq!(split, rebuilt_over(Tree::default(), &more, &in_order));
}
