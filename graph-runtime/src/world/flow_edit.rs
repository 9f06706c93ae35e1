//! Editing flow fields: brush strokes, fill and clear, and generators. The editor's paint tool
//! and scripts call these; each returns whether any cell changed.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::Vec2;

use super::{FlowField, Obstacle, Rect};
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
    let length_squared = segment.length_squared();
    let t = if length_squared > 0.0 {
        ((point - from).dot(segment) / length_squared).clamp(0.0, 1.0)
    } else {
        0.0
    };
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

    /// Replaces the field by one leading every reachable cell to `target` around obstacles:
    /// a grid distance field (Dijkstra over 8 neighbors, diagonal steps cost √2, no corner
    /// cutting past blocked cells), each vector pointing to its lowest neighbor. Cells inside
    /// an obstacle grown by `clearance` are blocked and get zero, as do unreachable cells and
    /// the target's own cell. Returns the number of reachable cells.
    pub fn generate_toward(
        &mut self,
        target: Vec2,
        obstacles: &[Obstacle],
        clearance: f32,
    ) -> usize {
        let (width, height) = (self.width as usize, self.height as usize);
        let index = |c: usize, r: usize| r * width + c;
        let blocked: Vec<bool> = (0..height)
            .flat_map(|r| (0..width).map(move |c| (c, r)))
            .map(|(c, r)| self.is_blocked(c as u32, r as u32, obstacles, clearance))
            .collect();
        let mut distance = vec![f32::INFINITY; width * height];
        let grid = (target - self.origin) / self.cell_size;
        if grid.x < 0.0
            || grid.y < 0.0
            || grid.x >= self.width as f32
            || grid.y >= self.height as f32
        {
            self.clear();
            return 0;
        }
        let (tc, tr) = (grid.x as usize, grid.y as usize);
        let mut heap = BinaryHeap::new();
        if let Some(d) = distance.get_mut(index(tc, tr)) {
            *d = 0.0;
            heap.push(Candidate {
                distance: 0.0,
                cell: index(tc, tr),
            });
        }

        let open = |c: i64, r: i64| -> Option<usize> {
            (c >= 0 && r >= 0 && (c as usize) < width && (r as usize) < height)
                .then(|| index(c as usize, r as usize))
                .filter(|&i| !blocked.get(i).copied().unwrap_or(true))
        };
        while let Some(Candidate { distance: d, cell }) = heap.pop() {
            if d > distance.get(cell).copied().unwrap_or(f32::INFINITY) {
                continue;
            }
            let (c, r) = ((cell % width) as i64, (cell / width) as i64);
            for (dc, dr, cost) in STEPS {
                let Some(next) = open(c + dc, r + dr) else {
                    continue;
                };
                // No corner cutting: a diagonal step needs both side cells open.
                if dc != 0 && dr != 0 && (open(c + dc, r).is_none() || open(c, r + dr).is_none()) {
                    continue;
                }
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
        let mut reachable = 0;
        for r in 0..height {
            for c in 0..width {
                let here = distance.get(index(c, r)).copied().unwrap_or(f32::INFINITY);
                let mut best = (here, Vec2::ZERO);
                if here.is_finite() {
                    reachable += 1;
                    for (dc, dr, _) in STEPS {
                        let (nc, nr) = (c as i64 + dc, r as i64 + dr);
                        let Some(next) = open(nc, nr) else { continue };
                        if dc != 0
                            && dr != 0
                            && (open(c as i64 + dc, r as i64).is_none()
                                || open(c as i64, r as i64 + dr).is_none())
                        {
                            continue;
                        }
                        let d = distance.get(next).copied().unwrap_or(f32::INFINITY);
                        if d < best.0 {
                            best = (d, normalize(Vec2::new(dc as f32, dr as f32)));
                        }
                    }
                }
                if let Some(cell) = self.vectors.get_mut(index(c, r)) {
                    *cell = best.1;
                }
            }
        }
        reachable
    }

    /// Adds a push away from obstacles to cells within `range` of an obstacle's edge, fading
    /// from `strength` at the edge to zero at `range`; results are truncated to length 1.
    pub fn add_repulsion(&mut self, obstacles: &[Obstacle], range: f32, strength: f32) {
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
                if let Some(cell) = self.cell_mut(column, row) {
                    *cell = truncate(*cell + push, 1.0);
                }
            }
        }
    }
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
