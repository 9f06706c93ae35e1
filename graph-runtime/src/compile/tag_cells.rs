//! One tag's members in a grid of square cells for one tick: the nearest member to a point is
//! searched ring by ring of cells outward from the point's cell, with the answer reading
//! every member in agent order gives (the smallest squared distance, the lower agent on a
//! tie).

use glam::Vec2;

use crate::Vehicle;

/// Cells of a side at least this fraction of the largest coordinate's magnitude: never finer
/// than the coordinates' own f32 steps (a crowd on a few points far from the origin).
const CELL_OVER_COORDINATE: f32 = 1.0 / 65_536.0;

/// The share of a ring's least distance the search counts on. A point's coordinate in cells
/// is at most the number of cells across (`√members + 1`: 65,537 even for `u32::MAX` members)
/// and is rounded by at most 2⁻²³ of itself, so a point sits less than 1/128 of a cell from
/// the cell it is put in; two points, 1/64; the squared distances' own rounding is a few
/// parts in ten million.
const ROUNDING_MARGIN: f32 = 0.98;

/// A member's position at the start of the tick.
#[derive(Clone, Copy, Debug)]
struct Placed {
    x: f32,
    y: f32,
    agent: u32,
}

/// One tag's members by cell: about one member per cell over the box around them.
#[derive(Clone, Debug, Default)]
pub(crate) struct TagCells {
    /// The corner of cell (0, 0).
    origin: Vec2,
    /// The side of a cell.
    side: f32,
    /// Cells across and down (0 when nothing is placed).
    columns: usize,
    rows: usize,
    /// Where each cell's members start in `placed` (row after row; one more at the end).
    starts: Vec<u32>,
    /// The members, cell after cell, each cell's in agent order.
    placed: Vec<Placed>,
    /// Working space of the sort: each member's cell, where each cell fills next, and the
    /// members in cell order being written.
    cell_of_each: Vec<u32>,
    cursor: Vec<u32>,
    sorted: Vec<Placed>,
}

impl TagCells {
    /// Places `members` (agents, in agent order) at their positions in `vehicles`; `false`
    /// (and nothing placed) when a member is missing or off the finite plane, so the caller
    /// reads the members one by one instead.
    pub(crate) fn place(&mut self, members: &[u32], vehicles: &[Vehicle]) -> bool {
        self.clear();
        self.placed.reserve(members.len());
        for &agent in members {
            match vehicles.get(agent as usize).map(|v| v.position) {
                Some(p) if p.is_finite() => self.placed.push(Placed {
                    x: p.x,
                    y: p.y,
                    agent,
                }),
                _ => {
                    self.clear();
                    return false;
                }
            }
        }
        if !self.lay_out() {
            self.clear();
            return false;
        }
        self.sort_into_cells();
        true
    }

    /// Chooses the cells for the placed members: about one member per cell over the box
    /// around them, never finer than rounding allows. `false` when the box is not finite.
    fn lay_out(&mut self) -> bool {
        let (mut low, mut high) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for placed in &self.placed {
            let p = Vec2::new(placed.x, placed.y);
            low = low.min(p);
            high = high.max(p);
        }
        let extent = (high - low).max_element();
        if self.placed.is_empty() || !extent.is_finite() {
            return false;
        }
        let magnitude = low.abs().max(high.abs()).max_element();
        let per_side = (self.placed.len() as f32).sqrt().ceil();
        let side = (extent / per_side)
            .max(magnitude * CELL_OVER_COORDINATE)
            .max(f32::MIN_POSITIVE);
        let count = |span: f32| {
            ((span / side) as usize)
                .saturating_add(1)
                .min(per_side as usize + 1)
        };
        self.origin = low;
        self.side = side;
        self.columns = count(high.x - low.x);
        self.rows = count(high.y - low.y);
        true
    }

    /// Orders the placed members cell after cell (a counting sort: each cell keeps them in
    /// agent order) and fills `starts`.
    fn sort_into_cells(&mut self) {
        self.starts.clear();
        self.starts.resize(self.columns * self.rows + 1, 0);
        self.cell_of_each.clear();
        for index in 0..self.placed.len() {
            let cell = self
                .placed
                .get(index)
                .map_or(0, |p| self.cell_of(Vec2::new(p.x, p.y)));
            self.cell_of_each.push(cell as u32);
            if let Some(count) = self.starts.get_mut(cell + 1) {
                *count += 1;
            }
        }
        for cell in 1..self.starts.len() {
            let before = self.starts.get(cell - 1).copied().unwrap_or(0);
            if let Some(start) = self.starts.get_mut(cell) {
                *start += before;
            }
        }
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.placed);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.starts);
        for (placed, &cell) in self.placed.iter().zip(&self.cell_of_each) {
            if let Some(slot) = self.cursor.get_mut(cell as usize) {
                if let Some(to) = self.sorted.get_mut(*slot as usize) {
                    *to = *placed;
                }
                *slot += 1;
            }
        }
        std::mem::swap(&mut self.placed, &mut self.sorted);
    }

    /// Forgets the members (keeps the buffers).
    pub(crate) fn clear(&mut self) {
        self.columns = 0;
        self.rows = 0;
        self.starts.clear();
        self.placed.clear();
    }

    /// Whether members are placed.
    pub(crate) fn is_placed(&self) -> bool {
        self.columns > 0 && self.rows > 0
    }

    /// The column and row of `p`, clamped into the grid.
    fn column_row(&self, p: Vec2) -> (usize, usize) {
        let at = (p - self.origin) / self.side;
        // `as` saturates: below zero (and NaN) gives 0.
        let column = (at.x as usize).min(self.columns.saturating_sub(1));
        let row = (at.y as usize).min(self.rows.saturating_sub(1));
        (column, row)
    }

    fn cell_of(&self, p: Vec2) -> usize {
        let (column, row) = self.column_row(p);
        row * self.columns + column
    }

    /// The member nearest to `at` other than agent `me` (the lower agent on a tie), `None`
    /// when no other member is placed.
    ///
    /// Rings of cells outward from `at`'s cell (clamped into the grid: a point outside is only
    /// farther from the rings): a member `k` rings out is at least `k - 1` cells away, less
    /// what rounding moved the two points ([`ROUNDING_MARGIN`]). The search stops before the
    /// first ring whose least distance squared is more than the best one found, so every
    /// member as near as the best is seen, and the tie goes to the lower agent.
    pub(crate) fn nearest(&self, me: usize, at: Vec2) -> Option<usize> {
        let (column, row) = self.column_row(at);
        let mut best: Option<(f32, u32)> = None;
        for ring in 0_usize.. {
            let least = ring.saturating_sub(1) as f32 * self.side * ROUNDING_MARGIN;
            if best.is_some_and(|(nearest, _)| least * least > nearest) {
                break;
            }
            let (left, right) = (column.checked_sub(ring), column + ring);
            let (top, bottom) = (row.checked_sub(ring), row + ring);
            if left.is_none() && top.is_none() && right >= self.columns && bottom >= self.rows {
                break;
            }
            // The ring's border: its top and bottom rows whole, then its left and right
            // columns between them.
            let columns = left.unwrap_or(0)..=right.min(self.columns - 1);
            for y in [top, (ring > 0).then_some(bottom)].into_iter().flatten() {
                if y < self.rows {
                    for x in columns.clone() {
                        self.offer_cell(y * self.columns + x, me, at, &mut best);
                    }
                }
            }
            let inner = top.map_or(0, |t| t + 1)..bottom.min(self.rows);
            for y in inner {
                for x in [left, (ring > 0).then_some(right)].into_iter().flatten() {
                    if x < self.columns {
                        self.offer_cell(y * self.columns + x, me, at, &mut best);
                    }
                }
            }
        }
        best.map(|(_, agent)| agent as usize)
    }

    /// Offers every member of cell `cell` to `best`.
    fn offer_cell(&self, cell: usize, me: usize, at: Vec2, best: &mut Option<(f32, u32)>) {
        let start = self.starts.get(cell).copied().unwrap_or(0) as usize;
        let end = self.starts.get(cell + 1).copied().unwrap_or(0) as usize;
        for placed in self.placed.get(start..end).unwrap_or_default() {
            if placed.agent as usize == me {
                continue;
            }
            let distance = Vec2::new(placed.x, placed.y).distance_squared(at);
            let better = best.is_none_or(|(nearest, agent)| {
                distance < nearest || (distance == nearest && placed.agent < agent)
            });
            if better {
                *best = Some((distance, placed.agent));
            }
        }
    }
}
