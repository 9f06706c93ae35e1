//! Neighbor queries: a uniform grid rebuilt every tick.

use glam::Vec2;

use crate::Vehicle;

/// Largest number of cells per agent the grid allocates; beyond it the cells grow instead,
/// so agents scattered far apart cannot make the grid huge.
const MAX_CELLS_PER_AGENT: usize = 4;

/// A uniform grid over the agents' positions, answering "who is within r of this point".
///
/// Built by counting sort, so building and querying are deterministic and, once warm, free of
/// allocation. Query results are sorted by agent index, so they do not depend on the cell size.
#[derive(Clone, Debug)]
pub struct SpatialGrid {
    preferred_cell_size: f32,
    cell_size: f32,
    origin: Vec2,
    columns: usize,
    rows: usize,
    cell_start: Vec<u32>,
    entries: Vec<u32>,
    cell_of: Vec<u32>,
    cursor: Vec<u32>,
    max_speed: f32,
    max_radius: f32,
}

impl SpatialGrid {
    /// An empty grid whose cells are about `cell_size` units wide (typically the largest
    /// neighborhood radius).
    pub fn new(cell_size: f32) -> Self {
        let cell_size = if cell_size.is_finite() && cell_size > 0.0 {
            cell_size
        } else {
            1.0
        };
        Self {
            preferred_cell_size: cell_size,
            cell_size,
            origin: Vec2::ZERO,
            columns: 0,
            rows: 0,
            cell_start: Vec::new(),
            entries: Vec::new(),
            cell_of: Vec::new(),
            cursor: Vec::new(),
            max_speed: 0.0,
            max_radius: 0.0,
        }
    }

    /// Changes the preferred cell size; takes effect at the next [`SpatialGrid::rebuild`].
    pub fn set_cell_size(&mut self, cell_size: f32) {
        if cell_size.is_finite() && cell_size > 0.0 {
            self.preferred_cell_size = cell_size;
        }
    }

    /// The fastest agent's speed at the last rebuild (units / s).
    pub fn max_speed(&self) -> f32 {
        self.max_speed
    }

    /// The largest agent radius at the last rebuild (units).
    pub fn max_radius(&self) -> f32 {
        self.max_radius
    }

    /// Re-sorts the agents into cells. Agents with non-finite positions are left out.
    pub fn rebuild(&mut self, vehicles: &[Vehicle]) {
        let mut min = Vec2::splat(f32::INFINITY);
        let mut max = Vec2::splat(f32::NEG_INFINITY);
        self.max_speed = 0.0;
        self.max_radius = 0.0;
        for vehicle in vehicles {
            if vehicle.position.is_finite() {
                min = min.min(vehicle.position);
                max = max.max(vehicle.position);
            }
            self.max_speed = self.max_speed.max(vehicle.velocity.length());
            self.max_radius = self.max_radius.max(vehicle.radius);
        }
        if min.x > max.x {
            min = Vec2::ZERO;
            max = Vec2::ZERO;
        }
        let extent = (max - min).max(Vec2::splat(1e-3));
        let cap = (vehicles.len() * MAX_CELLS_PER_AGENT).max(16) as f32;
        let mut cell_size = self.preferred_cell_size;
        let cells_at =
            |size: f32| ((extent.x / size).floor() + 1.0) * ((extent.y / size).floor() + 1.0);
        if cells_at(cell_size) > cap {
            cell_size = (extent.x * extent.y / cap).sqrt().max(cell_size);
            while cells_at(cell_size) > cap {
                cell_size *= 1.5;
            }
        }
        self.cell_size = cell_size;
        self.origin = min;
        self.columns = (extent.x / cell_size) as usize + 1;
        self.rows = (extent.y / cell_size) as usize + 1;
        let cell_count = self.columns * self.rows;

        self.cell_start.clear();
        self.cell_start.resize(cell_count + 1, 0);
        self.cell_of.clear();
        for vehicle in vehicles {
            let cell = self.cell_index(vehicle.position).unwrap_or(u32::MAX);
            self.cell_of.push(cell);
            if let Some(count) = self.cell_start.get_mut(cell as usize + 1) {
                *count += 1;
            }
        }
        for i in 1..self.cell_start.len() {
            let previous = self.cell_start.get(i - 1).copied().unwrap_or(0);
            if let Some(start) = self.cell_start.get_mut(i) {
                *start += previous;
            }
        }
        let placed = self.cell_start.last().copied().unwrap_or(0) as usize;
        self.entries.clear();
        self.entries.resize(placed, 0);
        // Next free entry per cell, filled in agent order.
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.cell_start);
        for (agent, &cell) in self.cell_of.iter().enumerate() {
            if let Some(slot) = self.cursor.get_mut(cell as usize) {
                if let Some(entry) = self.entries.get_mut(*slot as usize) {
                    *entry = agent as u32;
                }
                *slot += 1;
            }
        }
    }

    fn cell_index(&self, position: Vec2) -> Option<u32> {
        if !position.is_finite() {
            return None;
        }
        let cell = ((position - self.origin) / self.cell_size).floor();
        if cell.x < 0.0 || cell.y < 0.0 {
            return None;
        }
        let (column, row) = (cell.x as usize, cell.y as usize);
        (column < self.columns && row < self.rows).then(|| (row * self.columns + column) as u32)
    }

    /// Appends to `out` the index of every agent other than `exclude` whose position is closer
    /// than `radius` to `center`, sorted by index.
    pub fn query(
        &self,
        vehicles: &[Vehicle],
        center: Vec2,
        radius: f32,
        exclude: usize,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        if radius.is_nan() || radius <= 0.0 || !center.is_finite() || self.columns == 0 {
            return;
        }
        let radius_squared = radius * radius;
        let low = ((center - radius - self.origin) / self.cell_size)
            .floor()
            .max(Vec2::ZERO);
        let high = ((center + radius - self.origin) / self.cell_size).floor();
        if high.x < 0.0 || high.y < 0.0 {
            return;
        }
        let last_column = (high.x as usize).min(self.columns - 1);
        let last_row = (high.y as usize).min(self.rows - 1);
        for row in low.y as usize..=last_row {
            for column in low.x as usize..=last_column {
                let cell = row * self.columns + column;
                let start = self.cell_start.get(cell).copied().unwrap_or(0) as usize;
                let end = self.cell_start.get(cell + 1).copied().unwrap_or(0) as usize;
                for &agent in self.entries.get(start..end).unwrap_or(&[]) {
                    if agent as usize == exclude {
                        continue;
                    }
                    if let Some(other) = vehicles.get(agent as usize)
                        && other.position.distance_squared(center) < radius_squared
                    {
                        out.push(agent);
                    }
                }
            }
        }
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VehicleParams;

    #[test]
    fn query_matches_brute_force() {
        let vehicles: Vec<Vehicle> = (0..200)
            .map(|i| {
                let x = ((i * 37) % 101) as f32 * 0.7 - 30.0;
                let y = ((i * 53) % 97) as f32 * 0.6 - 25.0;
                Vehicle::new(Vec2::new(x, y), Vec2::ZERO, VehicleParams::default())
            })
            .collect();
        for cell_size in [0.5, 3.0, 40.0] {
            let mut grid = SpatialGrid::new(cell_size);
            grid.rebuild(&vehicles);
            let mut found = Vec::new();
            for (i, v) in vehicles.iter().enumerate() {
                grid.query(&vehicles, v.position, 6.0, i, &mut found);
                let expected: Vec<u32> = (0..vehicles.len() as u32)
                    .filter(|&j| {
                        j as usize != i && vehicles[j as usize].position.distance(v.position) < 6.0
                    })
                    .collect();
                assert_eq!(found, expected, "agent {i}, cell size {cell_size}");
            }
        }
    }
}
