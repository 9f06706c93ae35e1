//! A static spatial index over wall segments (`WallIndex`): a uniform grid for the short
//! queries agents make every tick (`wall_grid.rs`), a bounding-volume hierarchy for long ones
//! (`tree.rs`); answers exactly as a scan over every segment would give them.

use glam::Vec2;

mod tree;

mod answers;

mod clear;

mod few;

mod meets;

pub use answers::{WallHit, WallPoint};

use super::Wall;
use super::segment::{SegmentTurns, facing_normal, has_direction};
use super::wall_grid::WallGrid;
use crate::math::TINY;
use answers::{Reach, consider, offer, offer_near};
use clear::ClearCells;
use few::FewBoxes;
use tree::Tree;

/// No segment: the link of a segment at an open end of its wall.
const NO_SEGMENT: u32 = u32::MAX;

/// Links the segments of one wall, `segments[first..]`, each to the one before and after it
/// along the wall (around the ends too when `closed`), passing over segments shorter than
/// [`TINY`] (a repeated point, or one the wall's arithmetic moved by a rounding): two segments
/// are linked where one ends within `TINY` of where the other starts.
fn link_along(segments: &[(Vec2, Vec2)], links: &mut [[u32; 2]], first: usize, closed: bool) {
    let proper: Vec<usize> = (first..segments.len())
        .filter(|&i| {
            segments
                .get(i)
                .is_some_and(|&segment| has_direction(segment))
        })
        .collect();
    let mut join = |before: usize, after: usize| {
        if let (Some(&(_, end)), Some(&(start, _))) = (segments.get(before), segments.get(after))
            && end.distance(start) < TINY
            && before != after
        {
            if let Some(link) = links.get_mut(before) {
                link[1] = after as u32;
            }
            if let Some(link) = links.get_mut(after) {
                link[0] = before as u32;
            }
        }
    };
    for pair in proper.windows(2) {
        join(pair[0], pair[1]);
    }
    if closed
        && proper.len() >= 2
        && let (Some(&last), Some(&first)) = (proper.last(), proper.first())
    {
        join(last, first);
    }
}

/// [`WallIndex::around`] over `segments` linked by `links`: the far ends of the segments
/// before and after `segment` along its wall.
fn around_in(
    segments: &[(Vec2, Vec2)],
    links: &[[u32; 2]],
    segment: usize,
) -> (Option<Vec2>, Option<Vec2>) {
    let [before, after] = links.get(segment).copied().unwrap_or([NO_SEGMENT; 2]);
    let point = |link: u32, end: fn(&(Vec2, Vec2)) -> Vec2| {
        (link != NO_SEGMENT)
            .then(|| segments.get(link as usize).map(end))
            .flatten()
    };
    (point(before, |s| s.0), point(after, |s| s.1))
}

/// Which way round a closed wall runs: its interior lies on the left of each of its segments
/// `a → b` when its points go counterclockwise (a positive shoelace area). `None` for an open
/// wall, or a closed one without area.
fn interior_on_left(wall: &Wall) -> Option<bool> {
    if !wall.closed || wall.points.len() < 3 {
        return None;
    }
    let finite: Vec<Vec2> = wall
        .points
        .iter()
        .copied()
        .filter(|p| p.is_finite())
        .collect();
    let twice_area: f64 = finite
        .iter()
        .zip(finite.iter().cycle().skip(1))
        .map(|(a, b)| f64::from(a.x) * f64::from(b.y) - f64::from(b.x) * f64::from(a.y))
        .sum();
    (twice_area != 0.0).then_some(twice_area > 0.0)
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
    /// Per segment, the segments before and after it along its wall (`NO_SEGMENT` at an open
    /// end): where a segment's wall turns, for Reciprocal's wall half-planes.
    links: Vec<[u32; 2]>,
    /// Per segment, its wall's index and, for a closed wall with area, whether the wall's
    /// interior lies on the left of the segment.
    walls: Vec<(u32, Option<bool>)>,
    /// Per segment, its directions and its wall's at its ends, either way round
    /// (`SegmentTurns`).
    turns: Vec<SegmentTurns>,
    tree: Tree,
    /// For short queries; `None` without segments.
    grid: Option<WallGrid>,
    /// Every segment's box, for walls of few segments (`few.rs`): their nearest-point
    /// queries and steps look at each box rather than at the grid's cells.
    few: Option<FewBoxes>,
    /// Where a short step meets no wall (`clear.rs`): the first test of
    /// [`WallIndex::step_meets_a_wall`].
    clear: Option<ClearCells>,
    /// The box of every segment, `(min, max)` (`(+∞, -∞)` without segments): a point farther
    /// from it than a query's reach finds no segment ([`WallIndex::may_reach`]).
    bounds: (Vec2, Vec2),
    /// The largest absolute coordinate of any segment (`0` without segments): how large a
    /// rounding of a point on a segment can be.
    magnitude: f32,
}

impl WallIndex {
    /// Indexes every segment of `walls`, in wall order (see [`Wall::segments`]).
    pub fn new(walls: &[Wall]) -> Self {
        let mut segments = Vec::new();
        let mut links = Vec::new();
        let mut of_wall = Vec::new();
        for (index, wall) in walls.iter().enumerate() {
            let first = segments.len();
            segments.extend(
                wall.segments()
                    .filter(|(a, b)| a.is_finite() && b.is_finite()),
            );
            links.resize(segments.len(), [NO_SEGMENT; 2]);
            link_along(&segments, &mut links, first, wall.closed);
            let side = interior_on_left(wall);
            of_wall.resize(segments.len(), (index as u32, side));
        }
        let turns = segments
            .iter()
            .enumerate()
            .map(|(segment, &ends)| SegmentTurns::of(ends, around_in(&segments, &links, segment)))
            .collect();
        let tree = Tree::new(&segments);
        let grid = WallGrid::new(&segments);
        let few = FewBoxes::new(&segments);
        let bounds = segments.iter().fold(
            (Vec2::INFINITY, Vec2::NEG_INFINITY),
            |(min, max), &(a, b)| (min.min(a).min(b), max.max(a).max(b)),
        );
        let clear = ClearCells::new(&segments, bounds, grid.as_ref());
        // The largest `|x|` of a set is the larger of its least's and its greatest's.
        let magnitude = if segments.is_empty() {
            0.0
        } else {
            bounds.0.abs().max(bounds.1.abs()).max_element()
        };
        Self {
            segments,
            links,
            walls: of_wall,
            turns,
            tree,
            grid,
            few,
            clear,
            bounds,
            magnitude,
        }
    }

    /// The segments just before and after segment `segment` along its wall (`None` at an open
    /// end, or where the wall's next segment does not start where this one ends). Segments
    /// shorter than `1e-6` are passed over.
    pub fn neighbors(&self, segment: usize) -> (Option<usize>, Option<usize>) {
        let [before, after] = self.links.get(segment).copied().unwrap_or([NO_SEGMENT; 2]);
        let some = |link: u32| (link != NO_SEGMENT).then_some(link as usize);
        (some(before), some(after))
    }

    /// The index (in the list given to [`WallIndex::new`]) of segment `segment`'s wall and,
    /// when that wall is closed and has an area, whether its interior lies on the left of
    /// the segment `a → b` (its points go counterclockwise).
    pub fn wall_of(&self, segment: usize) -> Option<(usize, Option<bool>)> {
        self.walls
            .get(segment)
            .map(|&(wall, side)| (wall as usize, side))
    }

    /// The wall's points just before segment `segment`'s first point and just after its
    /// second, where its wall goes on: the far ends of [`WallIndex::neighbors`].
    pub fn around(&self, segment: usize) -> (Option<Vec2>, Option<Vec2>) {
        around_in(&self.segments, &self.links, segment)
    }

    /// Segment `segment`'s directions and its wall's at its ends, as [`SegmentTurns::of`]
    /// gives them from the segment and [`WallIndex::around`] (all `Vec2::ZERO` past the last).
    pub(crate) fn turns(&self, segment: usize) -> SegmentTurns {
        self.turns.get(segment).copied().unwrap_or_default()
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
                let mut visit = |index| consider(&self.segments, from, d, index, &mut best);
                if grid.is_within_a_cell(d) {
                    grid.segments_in_box(from.min(to), from.max(to), &mut visit);
                } else {
                    grid.segments_along(from, to, &mut visit);
                }
                best
            }
            _ => self.tree.ray_cast(&self.segments, from, d),
        };
        self.hit(from, d, best)
    }

    /// [`WallIndex::ray_cast`] from `from` to each of `tips` (the feelers of one agent), with
    /// the same answers: short rays share one visit of the grid's cells around them.
    pub fn ray_casts<const N: usize>(&self, from: Vec2, tips: [Vec2; N]) -> [Option<WallHit>; N] {
        let (mut low, mut high) = (from, from);
        for tip in tips {
            low = low.min(tip);
            high = high.max(tip);
        }
        let shared = match &self.grid {
            Some(grid) if from.is_finite() && (high - low).is_finite() => {
                grid.is_short(high - low).then_some(grid)
            }
            _ => None,
        };
        let Some(grid) = shared else {
            return tips.map(|tip| self.ray_cast(from, tip));
        };
        let rays = tips.map(|tip| tip - from);
        let mut best = [None; N];
        grid.segments_in_box(low, high, |index| {
            for (&d, best) in rays.iter().zip(&mut best) {
                consider(&self.segments, from, d, index, best);
            }
        });
        let mut hits = [None; N];
        for ((hit, d), best) in hits.iter_mut().zip(rays).zip(best) {
            *hit = self.hit(from, d, best);
        }
        hits
    }

    /// The hit of the ray `from + t * d` at `best` (its `t` and segment).
    fn hit(&self, from: Vec2, d: Vec2, best: Option<(f32, usize)>) -> Option<WallHit> {
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
        let found = self.nearest_found(point, radius, out);
        found.sort_unstable_by_key(|w| w.segment);
        found
    }

    /// [`WallIndex::nearest_several`]'s segments **nearest first**: ascending distance, the
    /// lower segment index on a tie, the order Reciprocal takes walls in. The search finds
    /// them in ascending squared distance, so this sort moves a point only where two squares
    /// round to one distance: sorted by segment first, as the public answer is, the points
    /// came back scrambled and the sort branched at random.
    pub(crate) fn nearest_first<'a>(
        &self,
        point: Vec2,
        radius: f32,
        out: &'a mut [WallPoint],
    ) -> &'a [WallPoint] {
        let found = self.nearest_found(point, radius, out);
        found.sort_unstable_by(|x, y| {
            x.distance
                .total_cmp(&y.distance)
                .then(x.segment.cmp(&y.segment))
        });
        found
    }

    /// Whether a nearest-point query within `radius` of `point` may find a segment: `false`
    /// only where none of [`WallIndex::nearest`], [`WallIndex::nearest_several`] and their
    /// kin can (the point lies beyond the query's reach from the box of every segment along an
    /// axis). Two comparisons, for the agents of a crowd away from its walls.
    #[inline]
    pub(crate) fn may_reach(&self, point: Vec2, radius: f32) -> bool {
        !self.beyond_bounds(point, Reach::new(radius, self.magnitude))
    }

    /// Whether `point` lies farther than `reach.beyond` from the box of all the segments along
    /// an axis, so that every segment's box does too and the box test of every query (`offer`,
    /// `few.rs`) turns every segment away: a segment's `min` is no less than the bounds' and
    /// rounding keeps order, so `min - point` is no less for the segment than for the bounds
    /// (`point - max` likewise), bit for bit as the box test computes it.
    #[inline]
    fn beyond_bounds(&self, point: Vec2, reach: Reach) -> bool {
        let (min, max) = self.bounds;
        let outside = (min - point).max(point - max);
        outside.cmpgt(Vec2::splat(reach.beyond)).any()
    }

    /// The search of [`WallIndex::nearest_several`], its points with their distances, in
    /// ascending squared distance (the lower segment on a tie).
    fn nearest_found<'a>(
        &self,
        point: Vec2,
        radius: f32,
        out: &'a mut [WallPoint],
    ) -> &'a mut [WallPoint] {
        let capacity = out.len();
        if !point.is_finite() || radius.is_nan() || radius < 0.0 || capacity == 0 {
            return &mut [];
        }
        let reach = Reach::new(radius, self.magnitude);
        if self.beyond_bounds(point, reach) {
            return &mut [];
        }
        // While searching, `distance` holds the squared distance; `out[..count]` stays sorted.
        let mut count = 0_usize;
        match (&self.few, &self.grid) {
            (Some(few), _) => {
                let segments = &self.segments;
                few.near(point, reach.beyond, |index| {
                    offer_near(segments, point, reach, index, out, &mut count);
                });
            }
            (None, Some(grid)) if grid.is_short(Vec2::splat(radius * 2.0)) => {
                let span = Vec2::splat(radius);
                grid.segments_in_box(point - span, point + span, |index| {
                    offer(&self.segments, point, reach, index, out, &mut count);
                });
            }
            _ => self
                .tree
                .nearest(&self.segments, point, reach, out, &mut count),
        }
        let Some(found) = out.get_mut(..count) else {
            return &mut [];
        };
        for found in found.iter_mut() {
            found.distance = point.distance(found.point);
        }
        found
    }
}

#[cfg(test)]
mod tests;
