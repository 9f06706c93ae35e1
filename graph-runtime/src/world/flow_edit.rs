//! Editing flow fields: brush strokes, fill and clear, and generators. The editor's paint tool
//! and scripts call these; each returns whether any cell changed.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::Vec2;

use super::segment::nearest_parameter;

use super::{FlowField, Obstacle, Rect, WallIndex};
use crate::math::{normalize, truncate};

/// A round brush.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Brush {
    /// Radius (world units, `> 0`).
    pub radius: f32,
    /// How far one stroke moves a cell towards the brush's value, `0..=1`.
    pub strength: f32,
    /// Softness of the edge, `0..=1`: 0 is a hard disc, 1 fades linearly from the centre out.
    pub softness: f32,
}

impl Brush {
    /// The brush's weight at `distance` from the stroke (0 outside the radius).
    pub fn weight(&self, distance: f32) -> f32 {
        if self.radius.is_nan() || self.radius <= 0.0 || distance > self.radius {
            return 0.0;
        }
        let t = distance / self.radius;
        let softness = self.softness.clamp(0.0, 1.0);
        let edge = if t <= 1.0 - softness || softness <= 0.0 {
            1.0
        } else {
            // Smooth fade over the outer `softness` fraction of the radius.
            let u = (t - (1.0 - softness)) / softness;
            1.0 - u * u * (3.0 - 2.0 * u)
        };
        self.strength.clamp(0.0, 1.0) * edge
    }
}

/// What a stroke does to the cells under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrokeKind {
    /// Paint the stroke's direction.
    Paint,
    /// Fade towards zero.
    Erase,
    /// Average with the neighboring cells.
    Smooth,
}

/// The 8 grid neighbors and the cost of stepping to each.
const STEPS: [(i64, i64, f32); 8] = [
    (1, 0, 1.0),
    (-1, 0, 1.0),
    (0, 1, 1.0),
    (0, -1, 1.0),
    (1, 1, std::f32::consts::SQRT_2),
    (1, -1, std::f32::consts::SQRT_2),
    (-1, 1, std::f32::consts::SQRT_2),
    (-1, -1, std::f32::consts::SQRT_2),
];

fn distance_to_segment(point: Vec2, from: Vec2, to: Vec2) -> f32 {
    let segment = to - from;
    let t = nearest_parameter(point, from, segment, segment.length_squared());
    point.distance(from + segment * t)
}

impl FlowField {
    /// A zero field covering `bounds` with square cells of about `cell_size` (at least one
    /// cell each way).
    pub fn covering(bounds: Rect, cell_size: f32) -> Self {
        let cell_size = if cell_size.is_finite() && cell_size > 0.0 {
            cell_size
        } else {
            1.0
        };
        let size = bounds.size().max(Vec2::splat(cell_size));
        let width = (size.x / cell_size).ceil().max(1.0) as u32;
        let height = (size.y / cell_size).ceil().max(1.0) as u32;
        Self::new(bounds.min, cell_size, width, height)
    }

    /// The same area with cells of `cell_size`, resampled from this field.
    #[must_use]
    pub fn resampled(&self, cell_size: f32) -> Self {
        let bounds = Rect::new(
            self.origin,
            self.origin + Vec2::new(self.width as f32, self.height as f32) * self.cell_size,
        );
        let mut field = Self::covering(bounds, cell_size);
        for row in 0..field.height {
            for column in 0..field.width {
                let value = self.sample(field.cell_center(column, row));
                if let Some(cell) = field.cell_mut(column, row) {
                    *cell = truncate(value, 1.0);
                }
            }
        }
        field
    }

    /// Applies a stroke segment from `from` to `to` (world units): every cell whose centre is
    /// within the brush radius of the segment is reached, however fast the stroke, so no cell
    /// is skipped. Painting pulls cells towards the stroke's direction (unit length); a stroke
    /// with no length paints nothing.
    pub fn stroke(&mut self, kind: StrokeKind, from: Vec2, to: Vec2, brush: &Brush) -> bool {
        let direction = normalize(to - from);
        if kind == StrokeKind::Paint && direction == Vec2::ZERO {
            return false;
        }
        let reach = brush.radius.max(0.0);
        let low = ((from.min(to) - reach - self.origin) / self.cell_size)
            .floor()
            .max(Vec2::ZERO);
        let high = (from.max(to) + reach - self.origin) / self.cell_size;
        if high.x < 0.0 || high.y < 0.0 || self.width == 0 || self.height == 0 {
            return false;
        }
        let last_column = (high.x as u32).min(self.width - 1);
        let last_row = (high.y as u32).min(self.height - 1);
        let before = if kind == StrokeKind::Smooth {
            Some(self.vectors.clone())
        } else {
            None
        };
        let mut changed = false;
        for row in low.y as u32..=last_row {
            for column in low.x as u32..=last_column {
                let centre = self.cell_center(column, row);
                let weight = brush.weight(distance_to_segment(centre, from, to));
                if weight <= 0.0 {
                    continue;
                }
                let goal = match kind {
                    StrokeKind::Paint => direction,
                    StrokeKind::Erase => Vec2::ZERO,
                    StrokeKind::Smooth => neighbor_mean(
                        before.as_deref().unwrap_or(&[]),
                        self.width,
                        self.height,
                        column,
                        row,
                    ),
                };
                if let Some(cell) = self.cell_mut(column, row) {
                    let new = truncate(cell.lerp(goal, weight), 1.0);
                    if new != *cell {
                        *cell = new;
                        changed = true;
                    }
                }
            }
        }
        changed
    }

    /// Sets every cell to `vector` (truncated to length 1).
    pub fn fill(&mut self, vector: Vec2) {
        let vector = truncate(vector, 1.0);
        self.vectors.iter_mut().for_each(|v| *v = vector);
    }

    /// Sets every cell to zero.
    pub fn clear(&mut self) {
        self.fill(Vec2::ZERO);
    }

    /// Whether the centre of cell `(column, row)` lies inside an obstacle grown by `clearance`.
    pub fn is_blocked(
        &self,
        column: u32,
        row: u32,
        obstacles: &[Obstacle],
        clearance: f32,
    ) -> bool {
        let centre = self.cell_center(column, row);
        obstacles
            .iter()
            .any(|o| centre.distance(o.center) < o.radius + clearance)
    }

    /// Which cells a wall crosses, row by row (`row * width + column`): a cell is crossed when
    /// a wall segment touches its closed rectangle (edges and corners included), so a wall
    /// along a cell edge, or through a cell corner, marks every cell it touches. The editor
    /// draws these as blocked; [`FlowField::generate_toward_around`] routes around them.
    pub fn wall_cells(&self, walls: &WallIndex) -> Vec<bool> {
        let (width, height) = (self.width as usize, self.height as usize);
        let mut crossed = vec![false; width * height];
        if width == 0 || height == 0 {
            return crossed;
        }
        let last = Vec2::new((width - 1) as f32, (height - 1) as f32);
        for &(a, b) in walls.segments() {
            // Cells touching the segment's bounding box; one more below for a coordinate on an
            // edge between two cells.
            let low =
                (((a.min(b) - self.origin) / self.cell_size).floor() - 1.0).clamp(Vec2::ZERO, last);
            let high = ((a.max(b) - self.origin) / self.cell_size)
                .floor()
                .clamp(Vec2::ZERO, last);
            for row in low.y as usize..=high.y as usize {
                for column in low.x as usize..=high.x as usize {
                    let min = self.origin + Vec2::new(column as f32, row as f32) * self.cell_size;
                    if segment_touches_rect(a, b, min, min + Vec2::splat(self.cell_size))
                        && let Some(cell) = crossed.get_mut(row * width + column)
                    {
                        *cell = true;
                    }
                }
            }
        }
        crossed
    }

    /// Replaces the field by one leading every reachable cell to `target` around obstacles;
    /// [`FlowField::generate_toward_around`] without walls.
    pub fn generate_toward(
        &mut self,
        target: Vec2,
        obstacles: &[Obstacle],
        clearance: f32,
    ) -> usize {
        self.generate_toward_around(target, obstacles, &WallIndex::default(), clearance)
    }

    /// Replaces the field by one leading every reachable cell to `target` around obstacles and
    /// walls: a grid distance field (Dijkstra over 8 neighbors, diagonal steps cost √2), each
    /// vector pointing to its lowest neighbor. Blocked cells (centre inside an obstacle grown
    /// by `clearance`, or crossed by a wall: [`FlowField::wall_cells`]) get zero, as do
    /// unreachable cells and the target's own cell. A diagonal step is taken only when both
    /// cells beside it are open and the segment between the two cell centres crosses no wall,
    /// so no route cuts a corner or slips between two walls that touch at a corner. Returns
    /// the number of reachable cells.
    pub fn generate_toward_around(
        &mut self,
        target: Vec2,
        obstacles: &[Obstacle],
        walls: &WallIndex,
        clearance: f32,
    ) -> usize {
        let (width, height) = (self.width as usize, self.height as usize);
        let grid = (target - self.origin) / self.cell_size;
        if !(grid.x >= 0.0
            && grid.y >= 0.0
            && grid.x < self.width as f32
            && grid.y < self.height as f32)
        {
            self.clear();
            return 0;
        }
        let mut blocked = self.wall_cells(walls);
        for (at, cell) in blocked.iter_mut().enumerate() {
            let (column, row) = ((at % width) as u32, (at / width) as u32);
            *cell = *cell || self.is_blocked(column, row, obstacles, clearance);
        }
        let steps = Steps {
            field: self,
            blocked: &blocked,
            walls,
        };
        let target_cell = grid.y as usize * width + grid.x as usize;
        let distance = steps.distances(target_cell);
        let mut reachable = 0;
        let mut vectors = vec![Vec2::ZERO; width * height];
        for (cell, vector) in vectors.iter_mut().enumerate() {
            let here = distance.get(cell).copied().unwrap_or(f32::INFINITY);
            if !here.is_finite() {
                continue;
            }
            reachable += 1;
            let mut best = here;
            let (c, r) = ((cell % width) as i64, (cell / width) as i64);
            for (dc, dr, _) in STEPS {
                let Some(next) = steps.step(c, r, dc, dr) else {
                    continue;
                };
                let d = distance.get(next).copied().unwrap_or(f32::INFINITY);
                if d < best {
                    best = d;
                    *vector = normalize(Vec2::new(dc as f32, dr as f32));
                }
            }
        }
        self.vectors = vectors;
        reachable
    }

    /// Adds a push away from obstacles to cells within `range` of an obstacle's edge;
    /// [`FlowField::add_repulsion_from`] without walls.
    pub fn add_repulsion(&mut self, obstacles: &[Obstacle], range: f32, strength: f32) {
        self.add_repulsion_from(obstacles, &WallIndex::default(), range, strength);
    }

    /// Adds a push away from obstacles and walls to cells within `range` (units, `> 0`) of
    /// them, fading from `strength` at the edge to zero at `range`; results are truncated to
    /// length 1. Each obstacle within range pushes along `centre - obstacle centre`; the
    /// nearest wall point `q` within `range` of a cell centre `x` pushes along
    /// `normalize(x - q)` by `strength * (1 - |x - q| / range)` (nothing for a centre on a
    /// wall).
    pub fn add_repulsion_from(
        &mut self,
        obstacles: &[Obstacle],
        walls: &WallIndex,
        range: f32,
        strength: f32,
    ) {
        if range.is_nan() || range <= 0.0 {
            return;
        }
        for row in 0..self.height {
            for column in 0..self.width {
                let centre = self.cell_center(column, row);
                let mut push = Vec2::ZERO;
                for obstacle in obstacles {
                    let away = centre - obstacle.center;
                    let gap = away.length() - obstacle.radius;
                    if gap < range {
                        push += normalize(away) * strength * (1.0 - gap.max(0.0) / range);
                    }
                }
                if let Some(near) = walls.nearest(centre, range) {
                    push +=
                        normalize(centre - near.point) * strength * (1.0 - near.distance / range);
                }
                if let Some(cell) = self.cell_mut(column, row) {
                    *cell = truncate(*cell + push, 1.0);
                }
            }
        }
    }
}

/// The moves of the distance field over a field's cells.
struct Steps<'a> {
    field: &'a FlowField,
    blocked: &'a [bool],
    walls: &'a WallIndex,
}

impl Steps<'_> {
    /// The open cell at `(c, r)`, if it is on the grid and not blocked.
    fn open(&self, c: i64, r: i64) -> Option<usize> {
        let (width, height) = (i64::from(self.field.width), i64::from(self.field.height));
        if c < 0 || r < 0 || c >= width || r >= height {
            return None;
        }
        let at = usize::try_from(r * width + c).ok()?;
        (!self.blocked.get(at).copied().unwrap_or(true)).then_some(at)
    }

    /// The cell reached from `(c, r)` by `(dc, dr)`, if the step is allowed: the cell is open
    /// and, for a diagonal step, both cells beside it are open and the segment between the
    /// two cell centres crosses no wall.
    fn step(&self, c: i64, r: i64, dc: i64, dr: i64) -> Option<usize> {
        let next = self.open(c + dc, r + dr)?;
        if dc != 0 && dr != 0 {
            self.open(c + dc, r)?;
            self.open(c, r + dr)?;
            let centre = |c: i64, r: i64| -> Option<Vec2> {
                let (column, row) = (u32::try_from(c).ok()?, u32::try_from(r).ok()?);
                Some(self.field.cell_center(column, row))
            };
            if self
                .walls
                .ray_cast(centre(c, r)?, centre(c + dc, r + dr)?)
                .is_some()
            {
                return None;
            }
        }
        Some(next)
    }

    /// Dijkstra from `target` over the allowed steps: each cell's distance (`inf` where
    /// unreachable).
    fn distances(&self, target: usize) -> Vec<f32> {
        let width = self.field.width as usize;
        let mut distance = vec![f32::INFINITY; width * self.field.height as usize];
        let mut heap = BinaryHeap::new();
        if let Some(d) = distance.get_mut(target) {
            *d = 0.0;
            heap.push(Candidate {
                distance: 0.0,
                cell: target,
            });
        }
        while let Some(Candidate { distance: d, cell }) = heap.pop() {
            if d > distance.get(cell).copied().unwrap_or(f32::INFINITY) {
                continue;
            }
            let (c, r) = ((cell % width) as i64, (cell / width) as i64);
            for (dc, dr, cost) in STEPS {
                let Some(next) = self.step(c, r, dc, dr) else {
                    continue;
                };
                let candidate = d + cost;
                if let Some(known) = distance.get_mut(next)
                    && candidate < *known
                {
                    *known = candidate;
                    heap.push(Candidate {
                        distance: candidate,
                        cell: next,
                    });
                }
            }
        }
        distance
    }
}

/// Whether the segment `a → b` touches the closed rectangle `min..=max` (Liang–Barsky
/// clipping).
fn segment_touches_rect(a: Vec2, b: Vec2, min: Vec2, max: Vec2) -> bool {
    let d = b - a;
    let (mut enter, mut leave) = (0.0_f32, 1.0_f32);
    for axis in 0..2 {
        let (start, delta, low, high) = (a[axis], d[axis], min[axis], max[axis]);
        if delta == 0.0 {
            if start < low || start > high {
                return false;
            }
            continue;
        }
        let (t_low, t_high) = ((low - start) / delta, (high - start) / delta);
        enter = enter.max(t_low.min(t_high));
        leave = leave.min(t_low.max(t_high));
        if enter > leave {
            return false;
        }
    }
    true
}

fn neighbor_mean(vectors: &[Vec2], width: u32, height: u32, column: u32, row: u32) -> Vec2 {
    let mut sum = Vec2::ZERO;
    let mut count = 0.0;
    for r in row.saturating_sub(1)..=(row + 1).min(height.saturating_sub(1)) {
        for c in column.saturating_sub(1)..=(column + 1).min(width.saturating_sub(1)) {
            if let Some(v) = vectors.get(r as usize * width as usize + c as usize) {
                sum += *v;
                count += 1.0;
            }
        }
    }
    if count > 0.0 { sum / count } else { Vec2::ZERO }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Candidate {
    distance: f32,
    cell: usize,
}

impl Eq for Candidate {}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        // Smallest distance first; ties by cell for a deterministic order.
        other
            .distance
            .total_cmp(&self.distance)
            .then_with(|| other.cell.cmp(&self.cell))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Wall;

    #[test]
    fn a_segment_touches_a_closed_rectangle_at_its_edges_and_corners() {
        let (min, max) = (Vec2::ZERO, Vec2::ONE);
        let touches = |a: (f32, f32), b: (f32, f32)| {
            segment_touches_rect(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1), min, max)
        };
        assert!(touches((-1.0, 0.5), (2.0, 0.5)), "across");
        assert!(touches((0.2, 0.2), (0.3, 0.4)), "inside");
        assert!(touches((1.0, -1.0), (1.0, 3.0)), "along an edge");
        assert!(touches((2.0, 0.0), (0.0, 2.0)), "through a corner");
        assert!(!touches((2.0, 0.1), (0.1, 2.0)), "past a corner");
        assert!(!touches((-1.0, 1.5), (3.0, 1.5)), "above");
        assert!(!touches((1.5, 1.5), (1.5, 1.5)), "a point outside");
    }

    #[test]
    fn a_diagonal_step_whose_segment_crosses_a_wall_is_refused() {
        // Nothing blocked, but a wall from (0.5, 1.5) to (1.5, 0.5) crosses the step between
        // the centres (0.5, 0.5) and (1.5, 1.5) at (1, 1).
        let field = FlowField::new(Vec2::ZERO, 1.0, 2, 2);
        let blocked = [false; 4];
        let walls = WallIndex::new(&[Wall::polyline(vec![
            Vec2::new(0.5, 1.5),
            Vec2::new(1.5, 0.5),
        ])]);
        let steps = Steps {
            field: &field,
            blocked: &blocked,
            walls: &walls,
        };
        assert_eq!(steps.step(0, 0, 1, 1), None);
        assert_eq!(steps.step(0, 0, 1, 0), Some(1));
        assert_eq!(steps.step(0, 0, -1, 0), None, "off the grid");
        let empty = WallIndex::default();
        let open = Steps {
            walls: &empty,
            ..steps
        };
        assert_eq!(open.step(0, 0, 1, 1), Some(3));
    }
}
