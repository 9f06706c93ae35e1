//! A uniform grid over wall segments, for the short queries agents make every tick (feelers,
//! clearance, a step's crossing): each cell lists the segments that may touch it, so a query
//! looks at the few cells it covers instead of walking a tree from its root.
//!
//! Cell coverage is conservative: a segment is listed in every cell it touches and perhaps a
//! neighbor, and a query visits every cell it touches and perhaps a neighbor, so every
//! segment a query could meet is looked at (some more than once). The answer is then chosen
//! exactly as a scan over every segment would choose it.

use glam::Vec2;

/// Cells per segment the grid may have, plus a fixed allowance, so memory stays linear in the
/// number of segments. The allowance (at most a megabyte of cell starts) leaves room for cells
/// half a segment long over a level of a few thousand segments spread out.
const CELLS_PER_SEGMENT: f32 = 4.0;
const EXTRA_CELLS: f32 = 65_536.0;
/// Most cells along one axis.
const MAX_AXIS_CELLS: f32 = 65_536.0;
/// Most entries (segment listings) per segment on average before the grid is given up.
const MAX_ENTRIES_PER_SEGMENT: usize = 32;
/// The smallest cell (units): below it `1 / cell` and the padding stop being sane numbers
/// (denormal extents); walls that small all share a cell.
const MIN_CELL: f32 = 1e-6;
/// Queries that would visit more cells than this go to the hierarchy instead.
pub(super) const MAX_QUERY_CELLS: f32 = 16.0;

/// A uniform grid of cells listing the segments that may touch them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct WallGrid {
    shape: Shape,
    /// Cell `c` lists `entries[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    entries: Vec<u32>,
}

impl WallGrid {
    /// The grid over `segments` (all finite), or `None` when there are none or the segments
    /// would need too many listings.
    pub(super) fn new(segments: &[(Vec2, Vec2)]) -> Option<Self> {
        if segments.is_empty() || u32::try_from(segments.len()).is_err() {
            return None;
        }
        let mut min = Vec2::INFINITY;
        let mut max = Vec2::NEG_INFINITY;
        let mut length = 0.0_f64;
        for &(a, b) in segments {
            min = min.min(a).min(b);
            max = max.max(a).max(b);
            length += f64::from(a.distance(b));
        }
        let magnitude = min.abs().max(max.abs()).max_element();
        let extent = max - min;
        let count = segments.len() as f32;
        let most_cells = CELLS_PER_SEGMENT * count + EXTRA_CELLS;
        let mean = (length / segments.len() as f64) as f32;
        // In f64: the area of tiny extents (1e-23 units a side) underflows f32 to zero.
        let by_area =
            (f64::from(extent.x) * f64::from(extent.y) / f64::from(most_cells)).sqrt() as f32;
        let by_axis = extent.max_element() / MAX_AXIS_CELLS;
        // Half a mean segment: the queries made every tick are short (a step, a feeler of a
        // few units), and a cell that lists fewer segments answers them sooner (issue 30:
        // 1,000 segments cost 45 % of a 10,000-agent tick with cells half a segment wide, 50 %
        // with cells a segment wide).
        let mut cell = (mean * 0.5).max(by_area).max(by_axis);
        if !(cell.is_finite() && cell > magnitude * 1e-5) {
            cell = (magnitude * 1e-5).max(1.0);
        }
        cell = cell.max(MIN_CELL);
        // The cell count is bounded by the segment count whatever the numbers (rounding of
        // tiny or denormal extents included): a larger cell until it fits.
        let (pad, columns, rows) = loop {
            let pad = cell * 1e-3 + magnitude * 1e-5;
            let size = extent + Vec2::splat(pad * 4.0);
            let columns = ((size.x / cell).floor() as u32).saturating_add(1);
            let rows = ((size.y / cell).floor() as u32).saturating_add(1);
            if (f64::from(columns) * f64::from(rows)) <= 4.0 * f64::from(most_cells)
                || !cell.is_finite()
            {
                break (pad, columns, rows);
            }
            cell *= 2.0;
        };
        if !cell.is_finite() {
            return None;
        }
        let origin = min - Vec2::splat(pad * 2.0);
        let shape = Shape {
            origin,
            cell,
            inverse: 1.0 / cell,
            columns,
            rows,
            pad,
        };
        let cells = usize::try_from(u64::from(columns) * u64::from(rows)).ok()?;
        let mut counts = vec![0_u32; cells + 1];
        let budget = segments.len().saturating_mul(MAX_ENTRIES_PER_SEGMENT);
        let mut total = 0_usize;
        for &(a, b) in segments {
            shape.cells_along(a, b, |cell| {
                if let Some(count) = counts.get_mut(cell) {
                    *count += 1;
                }
                total += 1;
            });
            if total > budget {
                return None;
            }
        }
        let mut running = 0_u32;
        for count in &mut counts {
            let here = *count;
            *count = running;
            running += here;
        }
        let mut next = counts.clone();
        let mut entries = vec![0; total];
        for (index, &(a, b)) in (0_u32..).zip(segments) {
            shape.cells_along(a, b, |cell| {
                if let Some(slot) = next.get_mut(cell)
                    && let Some(entry) = entries.get_mut(*slot as usize)
                {
                    *entry = index;
                    *slot += 1;
                }
            });
        }
        Some(Self {
            shape,
            starts: counts,
            entries,
        })
    }

    /// Whether a query along `from → to` (or over the box `from..to`) is short enough for the
    /// grid: it spans at most [`MAX_QUERY_CELLS`] cells along its two axes together.
    pub(super) fn is_short(&self, span: Vec2) -> bool {
        let cells = (span.x.abs() + span.y.abs()) * self.shape.inverse;
        cells <= MAX_QUERY_CELLS
    }

    /// The cells' side (units).
    pub(super) fn cell_size(&self) -> f32 {
        self.shape.cell
    }

    /// Whether a query spanning `span` is at most a cell wide along each axis.
    pub(super) fn is_within_a_cell(&self, span: Vec2) -> bool {
        span.x.abs().max(span.y.abs()) <= self.shape.cell
    }

    /// Calls `visit` with the segments listed in every cell the segment `a → b` touches.
    pub(super) fn segments_along(&self, a: Vec2, b: Vec2, mut visit: impl FnMut(u32)) {
        self.shape.cells_along(a, b, |cell| {
            for &index in self.listed(cell) {
                visit(index);
            }
        });
    }

    /// Calls `visit` with the segments listed in every cell the box `min..max` touches.
    pub(super) fn segments_in_box(&self, min: Vec2, max: Vec2, mut visit: impl FnMut(u32)) {
        let shape = self.shape;
        let Some((first_row, last_row)) = shape.rows_between(min.y, max.y) else {
            return;
        };
        let Some((first, last)) = shape.columns_between(min.x, max.x) else {
            return;
        };
        for row in first_row..=last_row {
            for &index in self.listed_in_row(shape.cell_at(first, row), shape.cell_at(last, row)) {
                visit(index);
            }
        }
    }

    /// Whether any segment is listed in the cells the box `min..max` touches: one comparison
    /// per row, as a row's cells list their segments one after another.
    pub(super) fn any_in_box(&self, min: Vec2, max: Vec2) -> bool {
        let shape = self.shape;
        let (Some((first_row, last_row)), Some((first, last))) = (
            shape.rows_between(min.y, max.y),
            shape.columns_between(min.x, max.x),
        ) else {
            return false;
        };
        (first_row..=last_row).any(|row| {
            let start = self.starts.get(shape.cell_at(first, row)).copied();
            let end = self.starts.get(shape.cell_at(last, row) + 1).copied();
            start < end
        })
    }

    /// How many cells the grid has.
    #[cfg(test)]
    pub(super) fn cell_count(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    fn listed(&self, cell: usize) -> &[u32] {
        self.listed_in_row(cell, cell)
    }

    /// What cells `first..=last` of one row list, one after another: the cells of a row are
    /// numbered in a run, and their lists are stored in that order, so this is one slice.
    fn listed_in_row(&self, first: usize, last: usize) -> &[u32] {
        let start = self.starts.get(first).copied().unwrap_or(0) as usize;
        let end = self.starts.get(last + 1).copied().unwrap_or(0) as usize;
        self.entries.get(start..end).unwrap_or(&[])
    }
}

/// The grid's geometry, apart from its lists.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Shape {
    origin: Vec2,
    cell: f32,
    inverse: f32,
    columns: u32,
    rows: u32,
    /// A band this wide is added round every segment and query, for rounding.
    pad: f32,
}

impl Shape {
    fn cell_at(self, column: u32, row: u32) -> usize {
        row as usize * self.columns as usize + column as usize
    }

    /// The indices `floor((v - origin) / cell)` of the padded range `low..high`, clipped to
    /// `0..count`; `None` when the range misses the grid. (Truncation is the floor here: a
    /// negative value only ever clips to 0, and `f32::floor` would be a library call.)
    fn between(self, low: f32, high: f32, origin: f32, count: u32) -> Option<(u32, u32)> {
        let first = (low - self.pad - origin) * self.inverse;
        let last = (high + self.pad - origin) * self.inverse;
        let top = count.checked_sub(1)?;
        if !(last >= 0.0 && first < count as f32) {
            return None;
        }
        Some(((first.max(0.0) as u32).min(top), (last as u32).min(top)))
    }

    fn rows_between(self, low: f32, high: f32) -> Option<(u32, u32)> {
        self.between(low, high, self.origin.y, self.rows)
    }

    fn columns_between(self, low: f32, high: f32) -> Option<(u32, u32)> {
        self.between(low, high, self.origin.x, self.columns)
    }

    /// Calls `visit` with every cell the segment `a → b` touches (and perhaps a neighbor):
    /// row by row, the columns of the part of the segment inside the row's band.
    fn cells_along(self, a: Vec2, b: Vec2, mut visit: impl FnMut(usize)) {
        let Some((first_row, last_row)) = self.rows_between(a.y.min(b.y), a.y.max(b.y)) else {
            return;
        };
        let d = b - a;
        let inverse_dy = 1.0 / d.y;
        for row in first_row..=last_row {
            let low = self.origin.y + row as f32 * self.cell;
            let high = low + self.cell;
            let (mut x0, mut x1) = (a.x.min(b.x), a.x.max(b.x));
            if inverse_dy.is_finite() && first_row != last_row {
                let t0 = ((low - self.pad - a.y) * inverse_dy).clamp(0.0, 1.0);
                let t1 = ((high + self.pad - a.y) * inverse_dy).clamp(0.0, 1.0);
                let (u0, u1) = (a.x + d.x * t0, a.x + d.x * t1);
                x0 = u0.min(u1);
                x1 = u0.max(u1);
            }
            let Some((first, last)) = self.columns_between(x0, x1) else {
                continue;
            };
            for column in first..=last {
                visit(self.cell_at(column, row));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the hostile-files round: walls 1e-27 long, 3e-23 apart made a grid of
    /// 30,000 × 30,000 cells (3.6 GB, twice) and aborted the process.
    #[test]
    fn tiny_and_denormal_extents_get_a_grid_bounded_by_the_segment_count() {
        let tiny = [
            (Vec2::ZERO, Vec2::new(1e-27, 0.0)),
            (Vec2::new(3e-23, 3e-23), Vec2::new(3e-23 + 1e-27, 3e-23)),
        ];
        let denormal = [
            (Vec2::ZERO, Vec2::new(1e-44, 0.0)),
            (Vec2::new(0.0, 1e-40), Vec2::new(1e-44, 1e-40)),
            (Vec2::new(1e-40, 0.0), Vec2::new(1e-40, 1e-44)),
        ];
        for segments in [&tiny[..], &denormal[..]] {
            let bound = 4 * (4 * segments.len() + 65_536);
            if let Some(grid) = WallGrid::new(segments) {
                assert!(grid.cell_count() <= bound, "{} cells", grid.cell_count());
                // Every segment is still found from a query along itself.
                for (index, &(a, b)) in (0_u32..).zip(segments) {
                    let mut found = false;
                    grid.segments_along(a, b, |i| found |= i == index);
                    assert!(found, "segment {index} of {segments:?} in {:?}", grid.shape);
                }
            }
        }
    }
}
