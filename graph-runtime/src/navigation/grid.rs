//! A uniform grid of cells listing the boxes (of shapes, of triangles) that touch each, so a
//! point's question asks only what is near it; ring by ring for a nearest search.

use glam::DVec2;

/// At most this many cells a side.
const MAX_SIDE: usize = 1024;

/// Items by the cells their boxes touch, in one flat list (each cell's items in item order).
#[derive(Debug, PartialEq)]
pub(super) struct CellIndex {
    min: DVec2,
    cell: f64,
    columns: usize,
    rows: usize,
    /// Where each cell's items start in `items` (one more entry than cells).
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl CellIndex {
    /// The memory its lists take (bytes).
    pub(super) fn bytes(&self) -> usize {
        (self.starts.capacity() + self.items.capacity()) * size_of::<u32>()
    }

    /// An index over `min`–`max` with about as many cells as boxes (at most
    /// [`MAX_SIDE`] a side), each box listed in the cells it touches. Boxes reaching past the
    /// area are listed in its border cells.
    pub(super) fn new(boxes: &[(DVec2, DVec2)], min: DVec2, max: DVec2) -> Self {
        let size = (max - min).max(DVec2::splat(1e-9));
        let wanted = boxes.len().max(1) as f64;
        let cell = (size.x * size.y / wanted)
            .sqrt()
            .max(size.max_element() / MAX_SIDE as f64);
        let columns = ((size.x / cell).ceil() as usize).clamp(1, MAX_SIDE);
        let rows = ((size.y / cell).ceil() as usize).clamp(1, MAX_SIDE);
        let mut index = Self {
            min,
            cell,
            columns,
            rows,
            starts: vec![0; columns * rows + 1],
            items: Vec::new(),
        };
        let spans: Vec<_> = boxes
            .iter()
            .map(|&(lo, hi)| [index.column_row(lo), index.column_row(hi)])
            .collect();
        for span in &spans {
            for cell in index.cells(*span) {
                index.starts[cell + 1] += 1;
            }
        }
        for i in 0..columns * rows {
            index.starts[i + 1] += index.starts[i];
        }
        let mut next = index.starts.clone();
        index.items = vec![0; index.starts[columns * rows] as usize];
        for (item, span) in spans.iter().enumerate() {
            for cell in index.cells(*span) {
                index.items[next[cell] as usize] = item as u32;
                next[cell] += 1;
            }
        }
        index
    }

    /// The side of a cell.
    pub(super) fn cell_size(&self) -> f64 {
        self.cell
    }

    fn column_row(&self, point: DVec2) -> (usize, usize) {
        let at = ((point - self.min) / self.cell).floor();
        // `as` saturates, and NaN becomes 0: any point lands in some cell.
        (
            (at.x.max(0.0) as usize).min(self.columns - 1),
            (at.y.max(0.0) as usize).min(self.rows - 1),
        )
    }

    fn cells(
        &self,
        [(x0, y0), (x1, y1)]: [(usize, usize); 2],
    ) -> impl Iterator<Item = usize> + use<> {
        let columns = self.columns;
        (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| y * columns + x))
    }

    fn cell_items(&self, cell: usize) -> &[u32] {
        &self.items[self.starts[cell] as usize..self.starts[cell + 1] as usize]
    }

    /// The items listed in the cell of `point` (the border cell for a point outside).
    pub(super) fn at(&self, point: DVec2) -> &[u32] {
        let (x, y) = self.column_row(point);
        self.cell_items(y * self.columns + x)
    }

    /// The number of rings around any cell that cover the whole grid.
    pub(super) fn rings(&self) -> usize {
        self.columns.max(self.rows)
    }

    /// Whether a box `low`–`high` touches a cell at most `rings` cells (in the larger of the
    /// two directions) from the cell of `point`: then an item with that box is among those
    /// [`CellIndex::ring`] lists for `point` up to `rings`.
    pub(super) fn box_within(&self, low: DVec2, high: DVec2, point: DVec2, rings: usize) -> bool {
        let [(x0, y0), (x1, y1)] = [self.column_row(low), self.column_row(high)];
        let (x, y) = self.column_row(point);
        x0 <= x + rings && x <= x1 + rings && y0 <= y + rings && y <= y1 + rings
    }

    /// The items of the cells exactly `ring` cells (in the larger of the two directions) from
    /// the cell of `point`: ring 0 is that cell. Every point of ring `k + 1`'s cells is at
    /// least `k` cell sides from `point`, inside the grid or out; an item touching several
    /// cells comes once per cell.
    pub(super) fn ring(&self, point: DVec2, ring: usize) -> impl Iterator<Item = u32> + '_ {
        let (x, y) = self.column_row(point);
        let (x, y, k) = (x as isize, y as isize, ring as isize);
        let (columns, rows) = (self.columns as isize, self.rows as isize);
        (y - k..=y + k)
            .flat_map(move |cy| {
                let step = if cy == y - k || cy == y + k {
                    1
                } else {
                    (2 * k).max(1)
                };
                (x - k..=x + k)
                    .step_by(step as usize)
                    .map(move |cx| (cx, cy))
            })
            .filter(move |&(cx, cy)| cx >= 0 && cy >= 0 && cx < columns && cy < rows)
            .flat_map(move |(cx, cy)| {
                self.cell_items(cy as usize * self.columns + cx as usize)
                    .iter()
                    .copied()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_is_listed_in_every_cell_it_touches_and_rings_go_outwards() {
        // 4 boxes over a 4 × 4 area: 4 cells of side 2.
        let boxes = [
            (DVec2::new(0.5, 0.5), DVec2::new(1.0, 1.0)),
            (DVec2::new(1.0, 1.0), DVec2::new(3.0, 1.5)),
            (DVec2::new(3.0, 3.0), DVec2::new(3.5, 3.5)),
            (DVec2::new(-5.0, -5.0), DVec2::new(-4.0, -4.0)),
        ];
        let index = CellIndex::new(&boxes, DVec2::ZERO, DVec2::splat(4.0));
        assert_eq!(index.cell_size(), 2.0);
        assert_eq!(index.at(DVec2::new(0.1, 0.1)), [0, 1, 3]);
        assert_eq!(index.at(DVec2::new(3.9, 0.1)), [1]);
        assert_eq!(index.at(DVec2::new(3.9, 3.9)), [2]);
        let mut ring: Vec<_> = index.ring(DVec2::new(0.1, 0.1), 1).collect();
        ring.sort_unstable();
        assert_eq!(ring, [1, 2]);
        assert_eq!(index.ring(DVec2::new(0.1, 0.1), 2).count(), 0);
        assert_eq!(index.rings(), 2);
    }
}
