//! A bounding-volume hierarchy over wall segments: built once when the walls change, queried
//! every tick without allocating.

use glam::Vec2;

use super::Wall;
use super::wall_grid::WallGrid;

/// Most segments in one leaf of the hierarchy.
const LEAF_SIZE: usize = 4;

/// Depth of the traversal stack. The build splits at the median, so the depth is at most
/// `log2(segments) + 1`, far below this for any count that fits in memory.
const STACK_DEPTH: usize = 64;

/// A ray cast's result: where the first wall crossed by the ray is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallHit {
    /// The point where the ray meets the wall (units).
    pub point: Vec2,
    /// The wall's unit normal, on the side the ray comes from.
    pub normal: Vec2,
    /// Distance from the ray's start to `point` (units, `>= 0`).
    pub distance: f32,
    /// The segment hit, an index into [`WallIndex::segments`].
    pub segment: usize,
}

/// A nearest-point query's result.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WallPoint {
    /// The nearest point on a wall (units).
    pub point: Vec2,
    /// Distance from the query point to `point` (units, `>= 0`).
    pub distance: f32,
    /// The segment it lies on, an index into [`WallIndex::segments`].
    pub segment: usize,
}

/// What [`WallIndex::walk`] shows its visitor.
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

/// A static spatial index over the segments of a set of walls: a uniform grid for the short
/// queries agents make every tick, and a bounding-volume hierarchy for long ones.
///
/// Build it once when the walls change ([`WallIndex::new`]); [`WallIndex::ray_cast`] and
/// [`WallIndex::nearest`] allocate nothing and give exactly the answers of a scan over every
/// segment, ties going to the lower segment index, so results never depend on how the index is
/// laid out or on threads. Segments with a point that is not finite are left out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WallIndex {
    segments: Vec<(Vec2, Vec2)>,
    order: Vec<u32>,
    nodes: Vec<Node>,
    /// For short queries; `None` without segments.
    grid: Option<WallGrid>,
}

/// The first crossing of the ray `origin + t * d`, `0 <= t <= 1`, with segment `a → b`: `t`.
/// A ray parallel to the segment (collinear included) or a segment of length zero gives `None`.
fn crossing(origin: Vec2, d: Vec2, a: Vec2, b: Vec2) -> Option<f32> {
    let e = b - a;
    let denominator = d.perp_dot(e);
    if denominator == 0.0 {
        return None;
    }
    let w = a - origin;
    let t = w.perp_dot(e) / denominator;
    let u = w.perp_dot(d) / denominator;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some(t)
}

/// The nearest point of segment `a → b` to `point` (as for paths: `t` clamped to `[0, 1]`).
fn nearest_on_segment(point: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let e = b - a;
    let length_squared = e.length_squared();
    let t = if length_squared > 0.0 {
        ((point - a).dot(e) / length_squared).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + e * t
}

/// The unit normal of `a → b` on the side of `origin`; for an origin on the wall's line, the
/// side facing against `d`.
pub(crate) fn facing_normal(origin: Vec2, d: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let normal = (b - a).perp().normalize_or_zero();
    let side = normal.dot(origin - a);
    if side < 0.0 || (side == 0.0 && normal.dot(d) > 0.0) {
        -normal
    } else {
        normal
    }
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

impl WallIndex {
    /// Indexes every segment of `walls`, in wall order (see [`Wall::segments`]).
    pub fn new(walls: &[Wall]) -> Self {
        let segments: Vec<(Vec2, Vec2)> = walls
            .iter()
            .flat_map(Wall::segments)
            .filter(|(a, b)| a.is_finite() && b.is_finite())
            .collect();
        let mut order: Vec<u32> = (0..segments.len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        let mut nodes = Vec::new();
        if !order.is_empty() {
            Self::build(&segments, &mut order, &mut nodes);
        }
        let grid = WallGrid::new(&segments);
        Self {
            segments,
            order,
            nodes,
            grid,
        }
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

    /// The indexed segments `(a, b)`, in wall order.
    pub fn segments(&self) -> &[(Vec2, Vec2)] {
        &self.segments
    }

    /// Whether there is no segment to hit.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// Whether a wall may come within the box `min..max`: `false` only when no segment does,
    /// so a query inside the box can be skipped when this says `false`. Cheap: a grid lookup
    /// per row of cells the box covers; a box too large for the grid answers `true`.
    pub fn may_touch(&self, min: Vec2, max: Vec2) -> bool {
        match &self.grid {
            None => false,
            Some(grid) if grid.is_short(max - min) => grid.any_in_box(min, max),
            Some(_) => true,
        }
    }

    /// The first wall the segment `from → to` crosses: the smallest distance from `from`, the
    /// lower segment index on a tie. A wall parallel to the ray (even along it) is not hit; a
    /// ray starting on a wall hits it at distance `0`. `None` when no wall is crossed or an
    /// end is not finite.
    pub fn ray_cast(&self, from: Vec2, to: Vec2) -> Option<WallHit> {
        let d = to - from;
        if !d.is_finite() || !from.is_finite() {
            return None;
        }
        let best = match &self.grid {
            Some(grid) if grid.is_short(d) => {
                let mut best = None;
                grid.segments_along(from, to, |index| self.consider(from, d, index, &mut best));
                best
            }
            _ => self.tree_ray_cast(from, d),
        };
        let (t, index) = best?;
        let &(a, b) = self.segments.get(index)?;
        Some(WallHit {
            point: from + d * t,
            normal: facing_normal(from, d, a, b),
            distance: d.length() * t,
            segment: index,
        })
    }

    /// The nearest wall point to `point` within `radius` (inclusive; `f32::INFINITY` for any
    /// distance): the smallest distance, the lower segment index on a tie. `None` when no wall
    /// is that near or `point` is not finite.
    pub fn nearest(&self, point: Vec2, radius: f32) -> Option<WallPoint> {
        // The nearest of one: the same ranking, one search in the code.
        let mut one = [WallPoint::default()];
        self.nearest_several(point, radius, &mut one)
            .first()
            .copied()
    }

    /// The `out.len()` segments nearest to `point` within `radius` (inclusive), one point each:
    /// the smallest distances, the lower segment index on a tie, as [`WallIndex::nearest`]
    /// ranks them. They are written into `out` and returned **in ascending segment index**
    /// (so sums over them have one order). Fewer when fewer segments are that near; none when
    /// `point` is not finite.
    pub fn nearest_several<'a>(
        &self,
        point: Vec2,
        radius: f32,
        out: &'a mut [WallPoint],
    ) -> &'a [WallPoint] {
        let capacity = out.len();
        if !point.is_finite() || radius.is_nan() || radius < 0.0 || capacity == 0 {
            return &[];
        }
        let radius_squared = radius * radius;
        // While searching, `distance` holds the squared distance; `out[..count]` stays sorted.
        let mut count = 0_usize;
        match &self.grid {
            Some(grid) if grid.is_short(Vec2::splat(radius * 2.0)) => {
                let reach = Vec2::splat(radius);
                grid.segments_in_box(point - reach, point + reach, |index| {
                    self.offer(point, radius_squared, index, out, &mut count);
                });
            }
            _ => self.tree_nearest(point, radius_squared, out, &mut count),
        }
        let Some(found) = out.get_mut(..count) else {
            return &[];
        };
        for found in found.iter_mut() {
            found.distance = point.distance(found.point);
        }
        found.sort_unstable_by_key(|w| w.segment);
        found
    }

    /// The nearest segments through the hierarchy, into `out[..count]` as [`Self::offer`]
    /// keeps them.
    fn tree_nearest(
        &self,
        point: Vec2,
        radius_squared: f32,
        out: &mut [WallPoint],
        count: &mut usize,
    ) {
        let capacity = out.len();
        self.walk(|visit| match visit {
            Visit::Node(node) => {
                let limit = match count.checked_sub(1).and_then(|last| out.get(last)) {
                    Some(worst) if *count == capacity => worst.distance,
                    _ => radius_squared,
                };
                let outside = (node.min - point).max(point - node.max).max(Vec2::ZERO);
                outside.length_squared() <= limit
            }
            Visit::Segment(index) => {
                self.offer(point, radius_squared, index, out, count);
                true
            }
        });
    }

    /// Puts segment `index`'s nearest point to `point` into `out[..count]`, which holds the
    /// nearest found so far sorted by (squared distance, segment), when it is within reach and
    /// ranks among them. A segment already there (the grid may list it in several cells) is
    /// not taken twice.
    fn offer(
        &self,
        point: Vec2,
        radius_squared: f32,
        index: u32,
        out: &mut [WallPoint],
        count: &mut usize,
    ) {
        let capacity = out.len();
        let index = index as usize;
        let Some(&(a, b)) = self.segments.get(index) else {
            return;
        };
        let near = nearest_on_segment(point, a, b);
        let squared = point.distance_squared(near);
        let taken = out.get(..*count).unwrap_or(&[]);
        if squared > radius_squared || taken.iter().any(|w| w.segment == index) {
            return;
        }
        let key = (squared, index);
        let at = taken.partition_point(|w| (w.distance, w.segment) < key);
        if at >= capacity {
            return;
        }
        *count = (*count + 1).min(capacity);
        if let Some(moved) = out.get_mut(at..*count) {
            moved.rotate_right(1);
        }
        if let Some(slot) = out.get_mut(at) {
            *slot = WallPoint {
                point: near,
                distance: squared,
                segment: index,
            };
        }
    }

    /// The first crossing along `from + t * d` through the hierarchy: `(t, segment)`.
    fn tree_ray_cast(&self, from: Vec2, d: Vec2) -> Option<(f32, usize)> {
        let mut best: Option<(f32, usize)> = None;
        self.walk(|visit| match visit {
            Visit::Node(node) => slab(from, d, node.min, node.max).is_some_and(|(enter, exit)| {
                let best_t = best.map_or(1.0, |(t, _)| t);
                exit >= -1e-4 && enter <= best_t + 1e-4
            }),
            Visit::Segment(index) => {
                self.consider(from, d, index, &mut best);
                true
            }
        });
        best
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

    /// Takes segment `index` as the ray's `best` crossing when it crosses earlier, or as early
    /// with a lower index.
    fn consider(&self, from: Vec2, d: Vec2, index: u32, best: &mut Option<(f32, usize)>) {
        let index = index as usize;
        if let Some(&(a, b)) = self.segments.get(index)
            && let Some(t) = crossing(from, d, a, b)
            && best.is_none_or(|(bt, bi)| t < bt || (t == bt && index < bi))
        {
            *best = Some((t, index));
        }
    }

    fn leaf(&self, node: &Node) -> &[u32] {
        let start = node.first as usize;
        self.order
            .get(start..start + node.count as usize)
            .unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// The answers of a scan over every segment, ties to the lower index.
    fn brute_ray(index: &WallIndex, from: Vec2, to: Vec2) -> Option<(f32, usize)> {
        let mut best: Option<(f32, usize)> = None;
        for (i, &(a, b)) in index.segments().iter().enumerate() {
            if let Some(t) = crossing(from, to - from, a, b)
                && best.is_none_or(|(bt, _)| t < bt)
            {
                best = Some((t, i));
            }
        }
        best
    }

    fn brute_nearest(index: &WallIndex, point: Vec2, radius: f32) -> Option<(f32, usize)> {
        let mut best: Option<(f32, usize)> = None;
        for (i, &(a, b)) in index.segments().iter().enumerate() {
            let squared = point.distance_squared(nearest_on_segment(point, a, b));
            if squared <= radius * radius && best.is_none_or(|(bs, _)| squared < bs) {
                best = Some((squared, i));
            }
        }
        best
    }

    #[test]
    fn a_ray_hits_a_wall_across_it_with_the_normal_facing_the_ray() {
        let index = WallIndex::new(&[Wall::polyline(vec![v(2.0, -1.0), v(2.0, 1.0)])]);
        // d = (4, 0), e = (0, 2), w = (2, -1): t = (2 * 2 - (-1) * 0) / (4 * 2) = 0.5,
        // u = (2 * 0 - (-1) * 4) / 8 = 0.5; the point is (2, 0), 2 units away.
        let hit = index.ray_cast(v(0.0, 0.0), v(4.0, 0.0));
        assert_eq!(
            hit,
            Some(WallHit {
                point: v(2.0, 0.0),
                normal: v(-1.0, 0.0),
                distance: 2.0,
                segment: 0,
            })
        );
        // From the other side the normal turns round.
        let back = index.ray_cast(v(4.0, 0.5), v(0.0, 0.5)).map(|h| h.normal);
        assert_eq!(back, Some(v(1.0, 0.0)));
        // Too short (t = 2), parallel, and beyond the end of the wall (u = 1.5): no hit.
        assert_eq!(index.ray_cast(v(0.0, 0.0), v(1.0, 0.0)), None);
        assert_eq!(index.ray_cast(v(2.0, -3.0), v(2.0, 3.0)), None);
        assert_eq!(index.ray_cast(v(0.0, 2.0), v(4.0, 2.0)), None);
    }

    #[test]
    fn the_first_wall_along_the_ray_wins_and_a_shared_corner_goes_to_the_lower_segment() {
        let walls = [
            Wall::polyline(vec![v(3.0, -1.0), v(3.0, 1.0)]),
            Wall::polyline(vec![v(2.0, -1.0), v(2.0, 0.0), v(2.0, 1.0)]),
        ];
        let index = WallIndex::new(&walls);
        let hit = index.ray_cast(v(0.0, 0.0), v(10.0, 0.0));
        // Segments 1 and 2 meet at (2, 0), 2 units along; segment 1 is the lower index.
        assert_eq!(
            hit.map(|h| (h.point, h.distance, h.segment)),
            Some((v(2.0, 0.0), 2.0, 1))
        );
    }

    #[test]
    fn the_nearest_point_is_clamped_to_the_segment_and_the_radius_is_inclusive() {
        let index = WallIndex::new(&[
            Wall::polyline(vec![v(3.0, -1.0), v(3.0, 5.0)]),
            Wall::polyline(vec![v(1.0, 1.0), v(4.0, 1.0)]),
        ]);
        // Segment 1: t = ((0, 0) - (1, 1)) · (3, 0) / 9 = -1/3, clamped to 0: (1, 1), √2 away;
        // segment 0 is 3 away at (3, 0).
        let near = index.nearest(v(0.0, 0.0), 10.0);
        assert_eq!(
            near,
            Some(WallPoint {
                point: v(1.0, 1.0),
                distance: 2.0_f32.sqrt(),
                segment: 1,
            })
        );
        assert_eq!(index.nearest(v(0.0, 0.0), 1.4), None);
        // (7, 0): segment 0 at (3, 0) is 4 away, segment 1's end (4, 1) is √10 away.
        assert_eq!(index.nearest(v(7.0, 0.0), 4.0).map(|n| n.segment), Some(1));
        // (7, -1): 4 to (3, -1) exactly, √13 to (4, 1); radius 4 includes 4.
        let single = WallIndex::new(&[Wall::polyline(vec![v(3.0, -1.0), v(3.0, 5.0)])]);
        assert_eq!(
            single.nearest(v(7.0, -1.0), 4.0).map(|n| n.distance),
            Some(4.0)
        );
        assert_eq!(
            single.nearest(v(7.0, -1.0), f32::INFINITY).map(|n| n.point),
            Some(v(3.0, -1.0))
        );
    }

    #[test]
    fn empty_and_non_finite_input_answer_nothing() {
        let empty = WallIndex::new(&[]);
        assert!(empty.is_empty());
        assert_eq!(empty.ray_cast(Vec2::ZERO, Vec2::X), None);
        assert_eq!(empty.nearest(Vec2::ZERO, f32::INFINITY), None);
        let index = WallIndex::new(&[Wall::polyline(vec![
            v(f32::NAN, 0.0),
            v(1.0, -1.0),
            v(1.0, 1.0),
        ])]);
        assert_eq!(index.segments(), &[(v(1.0, -1.0), v(1.0, 1.0))]);
        assert_eq!(index.ray_cast(v(f32::NAN, 0.0), Vec2::X), None);
        assert_eq!(index.nearest(Vec2::ZERO, f32::NAN), None);
    }

    fn walls_strategy(
        coordinate: impl Strategy<Value = f32> + Clone,
    ) -> impl Strategy<Value = Vec<Wall>> {
        let point = (coordinate.clone(), coordinate).prop_map(|(x, y)| Vec2::new(x, y));
        let wall = (prop::collection::vec(point, 2..6), any::<bool>())
            .prop_map(|(points, closed)| Wall { points, closed });
        prop::collection::vec(wall, 0..40)
    }

    fn check_against_brute_force(walls: &[Wall], probes: &[(Vec2, Vec2, f32)]) {
        let index = WallIndex::new(walls);
        for &(from, to, radius) in probes {
            let hit = index.ray_cast(from, to);
            assert_eq!(
                hit.map(|h| h.segment),
                brute_ray(&index, from, to).map(|(_, i)| i),
                "ray {from} -> {to}"
            );
            let mut all: Vec<(f32, usize)> = index
                .segments()
                .iter()
                .enumerate()
                .map(|(i, &(a, b))| (from.distance_squared(nearest_on_segment(from, a, b)), i))
                .filter(|&(squared, _)| squared <= radius * radius)
                .collect();
            all.sort_by(|x, y| x.partial_cmp(y).expect("finite"));
            let mut expected: Vec<usize> = all.iter().take(3).map(|&(_, i)| i).collect();
            expected.sort_unstable();
            let mut buffer = [WallPoint::default(); 3];
            let several: Vec<usize> = index
                .nearest_several(from, radius, &mut buffer)
                .iter()
                .map(|w| w.segment)
                .collect();
            assert_eq!(several, expected, "3 nearest to {from} within {radius}");
            let near = index.nearest(from, radius);
            assert_eq!(
                near.map(|n| n.segment),
                brute_nearest(&index, from, radius).map(|(_, i)| i),
                "nearest to {from} within {radius}"
            );
            // `may_touch` never says no where a query finds a wall.
            let reach = Vec2::splat(radius);
            if near.is_some() {
                assert!(
                    index.may_touch(from - reach, from + reach),
                    "box round {from}"
                );
            }
            if hit.is_some() {
                assert!(
                    index.may_touch(from.min(to), from.max(to)),
                    "box of {from} -> {to}"
                );
            }
        }
    }

    proptest! {
        #[test]
        fn the_index_answers_as_a_scan_over_every_segment(
            walls in walls_strategy(-50.0_f32..50.0),
            probes in prop::collection::vec(
                (-60.0_f32..60.0, -60.0_f32..60.0, -60.0_f32..60.0, -60.0_f32..60.0, 0.0_f32..40.0),
                1..20,
            ),
        ) {
            let probes: Vec<_> = probes
                .into_iter()
                .map(|(x, y, tx, ty, r)| (Vec2::new(x, y), Vec2::new(tx, ty), r))
                .collect();
            check_against_brute_force(&walls, &probes);
        }

        #[test]
        fn on_an_integer_grid_ties_go_to_the_lower_segment_as_in_a_scan(
            walls in walls_strategy((-8_i8..8).prop_map(f32::from)),
            probes in prop::collection::vec(
                (-10_i8..10, -10_i8..10, -10_i8..10, -10_i8..10, 0_i8..10),
                1..20,
            ),
        ) {
            let probes: Vec<_> = probes
                .into_iter()
                .map(|(x, y, tx, ty, r)| {
                    (
                        Vec2::new(x.into(), y.into()),
                        Vec2::new(tx.into(), ty.into()),
                        f32::from(r),
                    )
                })
                .collect();
            check_against_brute_force(&walls, &probes);
        }

        #[test]
        fn short_walls_answer_as_a_scan_through_the_grid_and_the_hierarchy(
            offset in prop_oneof![Just(0.0_f32), Just(1.0e4_f32), Just(-3.0e6_f32)],
            walls in prop::collection::vec(
                (-50.0_f32..50.0, -50.0_f32..50.0, -3.0_f32..3.0, -3.0_f32..3.0, 2_usize..5, any::<bool>()),
                1..80,
            ),
            probes in prop::collection::vec(
                (-55.0_f32..55.0, -55.0_f32..55.0, -6.0_f32..6.0, -6.0_f32..6.0, 0.0_f32..4.0, 1.0_f32..40.0),
                1..30,
            ),
        ) {
            // Zig-zag walls of a few short segments, somewhere far from the origin or not;
            // short probes (the grid) and the same probes stretched (the hierarchy).
            let at = |x: f32, y: f32| Vec2::new(x + offset, y + offset);
            let walls: Vec<Wall> = walls
                .into_iter()
                .map(|(x, y, dx, dy, corners, closed)| Wall {
                    points: (0..corners)
                        .map(|k: usize| {
                            let zig = if k.is_multiple_of(2) { 1.0 } else { -0.5 };
                            let k = k as f32;
                            at(x + dx * k, y + dy * k * zig)
                        })
                        .collect(),
                    closed,
                })
                .collect();
            let probes: Vec<_> = probes
                .into_iter()
                .flat_map(|(x, y, dx, dy, r, stretch)| {
                    [
                        (at(x, y), at(x + dx, y + dy), r),
                        (at(x, y), at(x + dx * stretch, y + dy * stretch), r * stretch),
                    ]
                })
                .collect();
            check_against_brute_force(&walls, &probes);
        }
    }
}
