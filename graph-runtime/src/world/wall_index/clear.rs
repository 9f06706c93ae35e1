//! Where a short step cannot meet a wall: a coarse grid over the walls, each of its cells marked
//! when no segment's bounding box meets the cell grown by half a cell on every side. A step
//! whose box lies inside such a grown cell meets no wall, which solid walls ask of every step
//! of every agent (`meets.rs`), so most steps, those away from walls, are answered by one
//! cell's mark and four comparisons instead of a look at the segments near them.
//!
//! Exact, as the test it stands before: a grown cell's spans are worked out by the same `f32`
//! operations when the cells are marked (each segment's box unmarks the cells whose grown
//! spans it meets along both axes) and when a step is tested, so a step inside a marked cell's
//! grown box and any segment's box (both decided by comparisons, which do not round) share no
//! point. Which cell a step is tested against only chooses the box to compare with.

use glam::Vec2;

use crate::world::wall_grid::WallGrid;

/// The cells are at most the walls' extent over this many (about 1.3 units over RVO2's Blocks,
/// 80 units wide): a step shorter than half a cell from a marked cell is answered by its mark.
const ACROSS: f32 = 62.0;
/// Most cells (two kilobytes of marks); larger cells where more would be needed.
const MOST_CELLS: u64 = 16_384;
/// How many cells the segments' boxes may cover in all, beyond [`COVERED_PER_SEGMENT`] a
/// segment, before the cells are given up (long slanted walls, whose boxes cover most cells,
/// leave few marked anyway): building them stays linear in the segments.
const MOST_CELLS_COVERED: usize = 4 * MOST_CELLS as usize;
/// Cells a segment's box may cover on average, beyond [`MOST_CELLS_COVERED`].
const COVERED_PER_SEGMENT: usize = 64;

/// The cells and their marks.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct ClearCells {
    origin: Vec2,
    cell: f32,
    inverse: f32,
    columns: u32,
    rows: u32,
    /// One bit a cell, row by row: whether its grown box meets no segment's box.
    clear: Vec<u64>,
    /// The segments' bounding box: a step whose box misses it meets no wall either.
    min: Vec2,
    max: Vec2,
}

impl ClearCells {
    /// The cells over `segments` (all finite, their box `(min, max)`), no larger than `grid`'s;
    /// `None` without segments, when the extent gives no usable cell size, or when the
    /// segments' boxes cover more cells than [`MOST_CELLS_COVERED`] allows.
    pub(super) fn new(
        segments: &[(Vec2, Vec2)],
        (min, max): (Vec2, Vec2),
        grid: Option<&WallGrid>,
    ) -> Option<Self> {
        let grid = grid?;
        let extent = max - min;
        // No larger than the walls' grid's (half a mean segment): cells about as fine as the
        // walls are dense.
        let mut cell = (extent.max_element() / ACROSS).min(grid.cell_size());
        let (inverse, columns, rows) = loop {
            let inverse = 1.0 / cell;
            if !(cell.is_normal() && inverse.is_normal()) {
                return None;
            }
            // A cell's margin round the segments' box (and one more for the rounding of the
            // count), so that steps along its edge have cells too.
            let count = |span: f32| ((span * inverse) as u32).saturating_add(3);
            let (columns, rows) = (count(extent.x), count(extent.y));
            if u64::from(columns) * u64::from(rows) <= MOST_CELLS {
                break (inverse, columns, rows);
            }
            cell *= 1.5;
        };
        let count = columns as usize * rows as usize;
        let mut clear = vec![u64::MAX; count.div_ceil(64)];
        // No bits past the last cell.
        if let Some(last) = clear.last_mut()
            && !count.is_multiple_of(64)
        {
            *last = (1 << (count % 64)) - 1;
        }
        let mut cells = Self {
            origin: min - Vec2::splat(cell),
            cell,
            inverse,
            columns,
            rows,
            clear,
            min,
            max,
        };
        // Every cell whose grown box a segment's box meets is unmarked: along each axis, the
        // cells whose grown span meets the box's, found from the very spans `holds` compares.
        let mut budget = MOST_CELLS_COVERED.saturating_add(segments.len() * COVERED_PER_SEGMENT);
        for &(a, b) in segments {
            let (low, high) = (a.min(b), a.max(b));
            let (Some((first, last)), Some((bottom, top))) = (
                cells.meeting(low.x, high.x, 0),
                cells.meeting(low.y, high.y, 1),
            ) else {
                continue;
            };
            let covered = (last - first + 1) as usize * (top - bottom + 1) as usize;
            budget = budget.checked_sub(covered)?;
            for row in bottom..=top {
                for column in first..=last {
                    let at = (row * columns + column) as usize;
                    if let Some(word) = cells.clear.get_mut(at / 64) {
                        *word &= !(1 << (at % 64));
                    }
                }
            }
        }
        Some(cells)
    }

    /// The grown span of column (`axis` 0) or row (`axis` 1) `at`: the cell's span grown by
    /// half a cell at each end, worked out the same way whenever it is asked for.
    #[inline]
    fn grown_span(&self, at: u32, axis: usize) -> (f32, f32) {
        let corner = self.origin[axis] + at as f32 * self.cell;
        let half = self.cell * 0.5;
        (corner - half, corner + (self.cell + half))
    }

    /// The first and last columns (`axis` 0) or rows (`axis` 1) whose grown span meets
    /// `low..=high`; `None` when none does. The spans' ends never decrease from one cell to
    /// the next (each a rounding of a growing number), so those that meet are one run: it
    /// starts where an end first reaches `low` and stops where a start last stays at or below
    /// `high`, both found by stepping from an estimate.
    fn meeting(&self, low: f32, high: f32, axis: usize) -> Option<(u32, u32)> {
        let count = if axis == 0 { self.columns } else { self.rows };
        let top = count.checked_sub(1)?;
        let estimate = |v: f32, shift: f32| {
            (((v - self.origin[axis]) * self.inverse + shift).max(0.0) as u32).min(top)
        };
        let mut first = estimate(low, -1.5);
        while first > 0 && self.grown_span(first - 1, axis).1 >= low {
            first -= 1;
        }
        while first <= top && self.grown_span(first, axis).1 < low {
            first += 1;
        }
        let mut last = estimate(high, 0.5);
        while last < top && self.grown_span(last + 1, axis).0 <= high {
            last += 1;
        }
        while self.grown_span(last, axis).0 > high {
            last = last.checked_sub(1)?;
        }
        (first <= last).then_some((first, last))
    }

    /// Cell `(column, row)`'s box grown by half a cell on every side.
    #[inline]
    fn grown(&self, column: u32, row: u32) -> (Vec2, Vec2) {
        let (x, y) = (self.grown_span(column, 0), self.grown_span(row, 1));
        (Vec2::new(x.0, y.0), Vec2::new(x.1, y.1))
    }

    /// Whether the box `low..high` (a step's) certainly meets no segment: it misses the
    /// segments' box, or lies inside the grown box of the marked cell that holds `low`.
    /// `false` says nothing (the caller looks at the segments).
    #[inline]
    pub(super) fn holds(&self, low: Vec2, high: Vec2) -> bool {
        if high.cmplt(self.min).any() || low.cmpgt(self.max).any() {
            return true;
        }
        let at = (low - self.origin) * self.inverse;
        if !(at.x >= 0.0 && at.y >= 0.0) {
            return false;
        }
        let (column, row) = (at.x as u32, at.y as u32);
        if column >= self.columns || row >= self.rows {
            return false;
        }
        let index = (row * self.columns + column) as usize;
        let marked = self
            .clear
            .get(index / 64)
            .is_some_and(|word| word >> (index % 64) & 1 == 1);
        if !marked {
            return false;
        }
        let (grown_low, grown_high) = self.grown(column, row);
        grown_low.cmple(low).all() && high.cmple(grown_high).all()
    }

    /// How many cells are marked.
    #[cfg(test)]
    pub(super) fn marked(&self) -> u32 {
        self.clear.iter().map(|word| word.count_ones()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(center: Vec2, half: f32) -> Vec<(Vec2, Vec2)> {
        let corners = [
            center + Vec2::new(-half, -half),
            center + Vec2::new(half, -half),
            center + Vec2::new(half, half),
            center + Vec2::new(-half, half),
        ];
        (0..4).map(|k| (corners[k], corners[(k + 1) % 4])).collect()
    }

    /// A square of side 20 centred at the origin: 62 cells across its box (cells of 20/62
    /// units), one of margin before it and two after, 65 in all; the cells whose grown box reaches the
    /// square's outline are not marked, those well inside and outside it are.
    #[test]
    fn cells_away_from_the_walls_are_marked_and_answer_steps_inside_them() {
        let segments = square(Vec2::ZERO, 10.0);
        let grid = WallGrid::new(&segments);
        let bounds = (Vec2::splat(-10.0), Vec2::splat(10.0));
        let cells = ClearCells::new(&segments, bounds, grid.as_ref()).expect("cells");
        assert_eq!((cells.columns, cells.rows), (65, 65));
        assert!((cells.cell - 20.0 / 62.0).abs() < 1e-6);
        // Inside: a step at the centre; outside: a step past the box, and one beside it.
        assert!(cells.holds(Vec2::new(0.0, 0.0), Vec2::new(0.1, 0.1)));
        assert!(cells.holds(Vec2::new(-3.0, 2.0), Vec2::new(-2.9, 2.05)));
        assert!(cells.holds(Vec2::new(12.0, 0.0), Vec2::new(13.0, 1.0)));
        // Next to the outline (0.05 units inside it), the step is left to the segments.
        assert!(!cells.holds(Vec2::new(9.9, 0.0), Vec2::new(9.95, 0.0)));
        // A step longer than the grown cell is left to the segments even far from them.
        assert!(!cells.holds(Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0)));
        // A cell's grown box reaches half a cell past it, so the side x = -10 (between
        // columns 0 and 1) unmarks both in rows 0 to 63 (row 64's grown box starts past
        // y = 10), x = 10 columns 62 and 63, and the same rows for y: 4 x 64 cells twice, 16 of
        // them in both, 496 unmarked of 65 x 65.
        assert_eq!(cells.marked(), 65 * 65 - 496);
    }

    /// Steps towards and along a wall from every point of a fine lattice beside it, of
    /// lengths from a tenth of a cell to three cells, with the wall at twenty places across a
    /// cell, none on a cell's edge (walls at `x = ±10` keep the cells the same): each step meets a wall exactly when
    /// the exact test on the segments says so, whichever the marks answer and whichever they
    /// leave to the segments. (A box of the marks grown by a twentieth of a cell is caught.)
    #[test]
    fn steps_beside_a_wall_meet_it_exactly_when_the_segments_say_so() {
        use crate::world::Wall;
        use crate::world::segment::step_meets;
        let line = |x: f32| Wall {
            points: vec![Vec2::new(x, -10.0), Vec2::new(x, 10.0)],
            closed: false,
        };
        let cell = 20.0 / 62.0;
        let mut answered = 0;
        for place in 0..20 {
            let x = (place as f32 + 0.5) * cell / 20.0;
            let index = super::super::WallIndex::new(&[line(-10.0), line(x), line(10.0)]);
            let cells = index.clear.as_ref().expect("cells");
            for i in -150..=150 {
                for y in [-9.5_f32, 0.0, 3.3, 9.7] {
                    let from = Vec2::new(x + i as f32 * 0.004, y);
                    for length in [0.1, 0.3, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 1.0, 3.0] {
                        for d in [Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::new(0.6, -0.8)] {
                            let to = from + d * (length * cell);
                            let meets = index
                                .segments()
                                .iter()
                                .any(|&(a, b)| step_meets(from, to, a, b));
                            assert_eq!(index.step_meets_a_wall(from, to), meets, "{from} -> {to}");
                            answered += usize::from(cells.holds(from.min(to), from.max(to)));
                        }
                    }
                }
            }
        }
        // The marks answered a good part of them: 362,184 of the 963,200 steps (those from a
        // cell or two off the wall, or from the margin beyond the walls, shorter than half a
        // cell or kept within it).
        assert!(answered > 300_000, "{answered}");
    }
}
