//! Where an agent falls in the grid: the cell geometry a rebuild copies ([`Cells`]), each
//! agent's cell worked out from its position, and what a rebuild reads of an agent (a whole
//! [`Vehicle`], or its [`Body`]).

use glam::Vec2;
use wide::{CmpGe, CmpLt, f32x4};

use super::SpatialGrid;
use crate::Vehicle;

/// Grids with this many columns or rows or more locate their agents one by one
/// ([`Cells::locate_all`]): below it a column count is exact in `f32`.
const EXACT_CELLS: usize = 1 << 24;

/// An agent's position and velocity, all the grid copies of it: written while a simulation
/// steps its agents, so the next rebuild reads 16 bytes per agent instead of a vehicle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Body {
    /// The agent's position.
    pub position: Vec2,
    /// The agent's velocity.
    pub velocity: Vec2,
}

impl From<&Vehicle> for Body {
    #[inline]
    fn from(vehicle: &Vehicle) -> Self {
        Self {
            position: vehicle.position,
            velocity: vehicle.velocity,
        }
    }
}

/// What the grid reads of an agent it places: a whole [`Vehicle`], or its [`Body`].
pub(super) trait Placed: Sync {
    /// The agent's position and velocity.
    fn body(&self) -> Body;
}

impl Placed for Vehicle {
    #[inline]
    fn body(&self) -> Body {
        Body::from(self)
    }
}

impl Placed for Body {
    #[inline]
    fn body(&self) -> Body {
        *self
    }
}

/// The grid's cell geometry, copied so the parallel pass can read it while writing the grid.
#[derive(Clone, Copy)]
pub(super) struct Cells {
    origin: Vec2,
    cell_size: f32,
    columns: usize,
    rows: usize,
}

impl Cells {
    pub(super) fn of(grid: &SpatialGrid) -> Self {
        Self {
            origin: grid.origin,
            cell_size: grid.cell_size,
            columns: grid.columns,
            rows: grid.rows,
        }
    }

    /// Each agent's cell ([`Cells::index`], `u32::MAX` for none) into `out`, two agents to
    /// one vector: the scalar form's float-to-integer casts saturate (NaN to 0, out of range
    /// to the limits), about twenty instructions an agent, where the vector form compares
    /// in floats first and truncates only what is inside (a 10,000-agent flock located in
    /// 13–14 µs instead of 33 on this project's machine). The same cells to the bit: the same
    /// subtraction and division lane by lane, and with fewer than 2²⁴ columns and rows
    /// (`EXACT_CELLS`) their counts are exact in `f32`, so `0 <= x < columns` holds exactly
    /// when `floor(x)` is a column (and NaN or an infinity fails the comparisons, as a
    /// position that is not finite has no cell). Larger grids take the scalar form.
    pub(super) fn locate_all<T: Placed>(self, agents: &[T], out: &mut [u32]) {
        let scalar = |agent: &T| self.index(agent.body().position).unwrap_or(u32::MAX);
        if self.columns >= EXACT_CELLS || self.rows >= EXACT_CELLS {
            out.iter_mut().zip(agents).for_each(|(o, a)| *o = scalar(a));
            return;
        }
        let (columns, rows) = (self.columns as f32, self.rows as f32);
        let origin = f32x4::new([self.origin.x, self.origin.y, self.origin.x, self.origin.y]);
        let limit = f32x4::new([columns, rows, columns, rows]);
        let size = f32x4::splat(self.cell_size);
        let mut pairs = agents.chunks_exact(2);
        let mut outs = out.chunks_exact_mut(2);
        for (pair, out) in (&mut pairs).zip(&mut outs) {
            let ([a, b], [first, second]) = (pair, out) else {
                continue;
            };
            let (a, b) = (a.body().position, b.body().position);
            let cell = (f32x4::new([a.x, a.y, b.x, b.y]) - origin) / size;
            let inside = (cell.cmp_ge(f32x4::ZERO) & cell.cmp_lt(limit)).move_mask();
            // Lanes outside hold whatever the truncation gives; they are not read.
            let [x0, y0, x1, y1] = cell.fast_trunc_int().to_array();
            let at = |column: i32, row: i32| {
                (row as u32 as usize * self.columns + column as u32 as usize) as u32
            };
            *first = if inside & 0b0011 == 0b0011 {
                at(x0, y0)
            } else {
                u32::MAX
            };
            *second = if inside & 0b1100 == 0b1100 {
                at(x1, y1)
            } else {
                u32::MAX
            };
        }
        for (o, agent) in outs.into_remainder().iter_mut().zip(pairs.remainder()) {
            *o = scalar(agent);
        }
    }

    /// The cell of `position`, if it is finite and inside the grid.
    #[inline]
    fn index(self, position: Vec2) -> Option<u32> {
        if !position.is_finite() {
            return None;
        }
        // `t as u32` is `floor(t)` for `t >= 0` (and saturates), without a call to `floorf`;
        // to `u32` it takes fewer instructions than to `usize`, and the grid has fewer cells
        // than agents times four, so fewer than `u32::MAX`.
        // Where `position` falls in cell units from the origin.
        let cell = (position - self.origin) / self.cell_size;
        if cell.x < 0.0 || cell.y < 0.0 {
            return None;
        }
        let (column, row) = (cell.x as u32 as usize, cell.y as u32 as usize);
        (column < self.columns && row < self.rows).then(|| (row * self.columns + column) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two agents to a vector find the cells one at a time finds: on the edges of the grid
    /// and of its cells (exactly on them, a step of the float inside and outside), at `-0.0`,
    /// out of the grid on every side, not finite, and far enough to overflow; in pairs of
    /// every kind, and an odd count, so the last agent goes alone.
    #[test]
    fn agents_located_two_at_a_time_are_in_the_cells_one_at_a_time_gives() {
        let cells = Cells {
            origin: Vec2::new(-1.5, 2.25),
            cell_size: 0.75,
            columns: 7,
            rows: 5,
        };
        let (right, top): (f32, f32) = (-1.5 + 7.0 * 0.75, 2.25 + 5.0 * 0.75);
        let xs = [
            -1.5,
            f32::from_bits((-1.5_f32).to_bits() + 1),
            f32::from_bits((-1.5_f32).to_bits() - 1),
            -0.0,
            0.0,
            0.75,
            1.7,
            3.7,
            right,
            f32::from_bits(right.to_bits() - 1),
            f32::from_bits(right.to_bits() + 1),
            -40.0,
            3.0e38,
            -3.0e38,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        let ys = [
            2.25,
            3.0,
            top,
            f32::from_bits(top.to_bits() - 1),
            4.9,
            5.9,
            -1.0,
            f32::NAN,
        ];
        let bodies: Vec<Body> = xs
            .iter()
            .flat_map(|&x| ys.iter().map(move |&y| Vec2::new(x, y)))
            .map(|position| Body {
                position,
                velocity: Vec2::ZERO,
            })
            .collect();
        assert_eq!(bodies.len() % 2, 0);
        for skip in [0, 1] {
            let agents = bodies.get(skip..).unwrap_or_default();
            let mut out = vec![0; agents.len()];
            cells.locate_all(agents, &mut out);
            let one_by_one: Vec<u32> = agents
                .iter()
                .map(|a| cells.index(a.position).unwrap_or(u32::MAX))
                .collect();
            assert_eq!(out, one_by_one, "from agent {skip}");
            // Cells worked out by hand: (1.7, 4.9) is column (1.7 + 1.5) / 0.75 = 4.27 -> 4,
            // row (4.9 - 2.25) / 0.75 = 3.53 -> 3, cell 3 * 7 + 4 = 25; (-0.0, 3.0) is column 2,
            // row 1, cell 9; (3.7, 5.9) is column 6.93 -> 6, row 4.87 -> 4, the last cell, 34;
            // on the grid's right edge, none.
            let at = |x: f32, y: f32| {
                let i = agents.iter().position(|a| {
                    a.position.x.to_bits() == x.to_bits() && a.position.y.to_bits() == y.to_bits()
                });
                i.and_then(|i| out.get(i).copied())
            };
            assert_eq!(at(1.7, 4.9), Some(25));
            assert_eq!(at(-0.0, 3.0), Some(9));
            assert_eq!(at(3.7, 5.9), Some(34));
            assert_eq!(at(right, 3.0), Some(u32::MAX));
        }
    }
}
