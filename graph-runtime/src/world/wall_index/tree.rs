//! The bounding-volume hierarchy of a [`WallIndex`]: built once when the walls change, walked
//! without allocating by long queries (the grid, `wall_grid.rs`, serves short ones).

use glam::Vec2;

use super::answers::{Reach, WallPoint, consider, offer};
use crate::world::segment::step_meets_box;

/// Most segments in one leaf of the hierarchy.
const LEAF_SIZE: usize = 4;

/// Depth of the traversal stack. The build splits at the median, so the depth is at most
/// `log2(segments) + 1`, far below this for any count that fits in memory.
const STACK_DEPTH: usize = 64;

/// What [`Tree::walk`] shows its visitor.
enum Visit<'a> {
    /// A node: look inside it?
    Node(&'a Node),
    /// A segment of an opened leaf.
    Segment(u32),
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    min: Vec2,
    max: Vec2,
    /// A leaf: the first entry of `order`; an inner node: the left child.
    first: u32,
    /// A leaf: how many entries of `order`; an inner node: `0`.
    count: u32,
    /// An inner node: the right child.
    right: u32,
}

/// The parameter range `[enter, exit]` of the ray `origin + t * d` inside the box, or `None`.
fn slab(origin: Vec2, d: Vec2, min: Vec2, max: Vec2) -> Option<(f32, f32)> {
    let mut enter = f32::NEG_INFINITY;
    let mut exit = f32::INFINITY;
    for axis in 0..2 {
        let (o, step, low, high) = (origin[axis], d[axis], min[axis], max[axis]);
        if step == 0.0 {
            if o < low || o > high {
                return None;
            }
        } else {
            let t1 = (low - o) / step;
            let t2 = (high - o) / step;
            enter = enter.max(t1.min(t2));
            exit = exit.min(t1.max(t2));
        }
    }
    (enter <= exit).then_some((enter, exit))
}

/// The box around the given segments, widened by a few ulps of its coordinates so that
/// rounding in the box tests never hides a segment.
fn bounds(segments: &[(Vec2, Vec2)], order: &[u32]) -> (Vec2, Vec2) {
    let mut min = Vec2::INFINITY;
    let mut max = Vec2::NEG_INFINITY;
    for &index in order {
        if let Some(&(a, b)) = segments.get(index as usize) {
            min = min.min(a).min(b);
            max = max.max(a).max(b);
        }
    }
    let pad = (min.abs().max(max.abs()).max_element() + 1.0) * 1e-6;
    (min - pad, max + pad)
}

/// The hierarchy: segment indices in leaf order and the nodes over them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Tree {
    order: Vec<u32>,
    nodes: Vec<Node>,
}

impl Tree {
    /// The hierarchy over `segments` (none when there are none).
    pub(super) fn new(segments: &[(Vec2, Vec2)]) -> Self {
        let mut order: Vec<u32> = (0..segments.len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        let mut nodes = Vec::new();
        if !order.is_empty() {
            Self::build(segments, &mut order, &mut nodes);
        }
        Self { order, nodes }
    }

    /// Builds the hierarchy without recursion: each pending node owns `order[start..end]`.
    fn build(segments: &[(Vec2, Vec2)], order: &mut [u32], nodes: &mut Vec<Node>) {
        let centre = |index: u32| {
            segments
                .get(index as usize)
                .map_or(Vec2::ZERO, |&(a, b)| (a + b) * 0.5)
        };
        let mut pending = vec![(0_usize, 0_usize, order.len())];
        nodes.push(Node {
            min: Vec2::ZERO,
            max: Vec2::ZERO,
            first: 0,
            count: 0,
            right: 0,
        });
        while let Some((at, start, end)) = pending.pop() {
            let Some(slice) = order.get_mut(start..end) else {
                continue;
            };
            let (min, max) = bounds(segments, slice);
            let mut node = Node {
                min,
                max,
                first: u32::try_from(start).unwrap_or(u32::MAX),
                count: u32::try_from(slice.len()).unwrap_or(u32::MAX),
                right: 0,
            };
            if slice.len() > LEAF_SIZE {
                let extent = max - min;
                let axis = usize::from(extent.y > extent.x);
                let middle = slice.len() / 2;
                slice.select_nth_unstable_by(middle, |&i, &j| {
                    centre(i)[axis].total_cmp(&centre(j)[axis]).then(i.cmp(&j))
                });
                let left = nodes.len();
                nodes.extend([node, node]);
                node.first = u32::try_from(left).unwrap_or(u32::MAX);
                node.count = 0;
                node.right = u32::try_from(left + 1).unwrap_or(u32::MAX);
                pending.push((left, start, start + middle));
                pending.push((left + 1, start + middle, end));
            }
            if let Some(slot) = nodes.get_mut(at) {
                *slot = node;
            }
        }
    }

    /// The nearest segments through the hierarchy, into `out[..count]` as [`offer`]
    /// keeps them.
    pub(super) fn nearest(
        &self,
        segments: &[(Vec2, Vec2)],
        point: Vec2,
        reach: Reach,
        out: &mut [WallPoint],
        count: &mut usize,
    ) {
        let capacity = out.len();
        self.walk(|visit| match visit {
            Visit::Node(node) => {
                let limit = match count.checked_sub(1).and_then(|last| out.get(last)) {
                    Some(worst) if *count == capacity => worst.distance,
                    _ => reach.radius_squared,
                };
                let outside = (node.min - point).max(point - node.max).max(Vec2::ZERO);
                outside.length_squared() <= limit
            }
            Visit::Segment(index) => {
                offer(segments, point, reach, index, out, count);
                true
            }
        });
    }

    /// The first crossing along `from + t * d` through the hierarchy: `(t, segment)`.
    pub(super) fn ray_cast(
        &self,
        segments: &[(Vec2, Vec2)],
        from: Vec2,
        d: Vec2,
    ) -> Option<(f32, usize)> {
        let mut best: Option<(f32, usize)> = None;
        self.walk(|visit| match visit {
            Visit::Node(node) => slab(from, d, node.min, node.max).is_some_and(|(enter, exit)| {
                let best_t = best.map_or(1.0, |(t, _)| t);
                exit >= -1e-4 && enter <= best_t + 1e-4
            }),
            Visit::Segment(index) => {
                consider(segments, from, d, index, &mut best);
                true
            }
        });
        best
    }

    /// Whether `meets` holds for any segment of a leaf whose box the step `from → to` meets
    /// (decided exactly, `segment::step_meets_box`), stopping at the first.
    pub(super) fn any_along(
        &self,
        from: Vec2,
        to: Vec2,
        mut meets: impl FnMut(u32) -> bool,
    ) -> bool {
        let mut met = false;
        self.walk(|visit| match visit {
            Visit::Node(node) => !met && step_meets_box(from, to, node.min, node.max),
            Visit::Segment(index) => {
                met = met || meets(index);
                true
            }
        });
        met
    }

    /// Walks the hierarchy depth first without recursion: `visit` answers for each node
    /// whether to look inside it, and is shown each segment of the leaves it opens.
    fn walk(&self, mut visit: impl FnMut(Visit<'_>) -> bool) {
        let mut stack = [0_u32; STACK_DEPTH];
        let mut depth = usize::from(!self.nodes.is_empty());
        while depth > 0 {
            depth -= 1;
            let Some(node) = stack.get(depth).and_then(|&i| self.nodes.get(i as usize)) else {
                continue;
            };
            if !visit(Visit::Node(node)) {
                continue;
            }
            if node.count == 0 {
                for child in [node.right, node.first] {
                    if let Some(slot) = stack.get_mut(depth) {
                        *slot = child;
                        depth += 1;
                    }
                }
                continue;
            }
            for &index in self.leaf(node) {
                visit(Visit::Segment(index));
            }
        }
    }

    fn leaf(&self, node: &Node) -> &[u32] {
        let start = node.first as usize;
        self.order
            .get(start..start + node.count as usize)
            .unwrap_or(&[])
    }
}
