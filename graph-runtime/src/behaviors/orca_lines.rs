//! Reciprocal's half-planes: an [`OrcaLine`] (a point and a direction, the permitted
//! velocities on its left), the fixed-size list of one agent's ([`OrcaLines`]), their
//! capacities, and the geometry both `half_planes` and `orca_solve` use.

use glam::Vec2;

/// The largest `max_neighbors` a Reciprocal node may ask for (the compiler checks it).
pub const MAX_RECIPROCAL_NEIGHBORS: usize = 32;

/// At most this many circle obstacles (the nearest) give a half-plane.
pub const MAX_RECIPROCAL_OBSTACLES: usize = 16;

/// At most this many wall segments (the nearest) give a half-plane.
pub const MAX_RECIPROCAL_WALLS: usize = 8;

/// The most half-planes one agent can have: its obstacles, walls and neighbors.
pub const MAX_ORCA_LINES: usize =
    MAX_RECIPROCAL_NEIGHBORS + MAX_RECIPROCAL_OBSTACLES + MAX_RECIPROCAL_WALLS;

/// Two line directions whose cross product is at most this are parallel.
pub(super) const PARALLEL: f32 = 1e-5;

/// `det(a, b) = a.x * b.y - a.y * b.x`.
#[inline]
pub(super) fn det(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// A half-plane of velocities (units / s): those on the left of the line through `point`
/// along the unit `direction`, the line included.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OrcaLine {
    /// A point of the boundary line (a velocity).
    pub point: Vec2,
    /// The line's unit direction; permitted velocities lie on its left.
    pub direction: Vec2,
}

impl OrcaLine {
    /// How far `velocity` lies on the forbidden side: `det(direction, point - velocity)`;
    /// `<= 0` when the velocity is permitted.
    #[inline]
    pub fn violation(&self, velocity: Vec2) -> f32 {
        det(self.direction, self.point - velocity)
    }
}

/// Up to [`MAX_ORCA_LINES`] half-planes, the obstacles' first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrcaLines {
    lines: [OrcaLine; MAX_ORCA_LINES],
    len: usize,
    obstacles: usize,
}

impl Default for OrcaLines {
    fn default() -> Self {
        Self {
            lines: [OrcaLine::default(); MAX_ORCA_LINES],
            len: 0,
            obstacles: 0,
        }
    }
}

impl OrcaLines {
    /// No lines (what the entries hold is left as it is: only the first `len` are read).
    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.obstacles = 0;
    }

    /// The lines so far are the obstacles' (and walls'); the agents' follow.
    pub(super) fn end_obstacles(&mut self) {
        self.obstacles = self.len;
    }

    /// The half-planes, obstacles' first, then the neighbors' from the nearest.
    pub fn as_slice(&self) -> &[OrcaLine] {
        self.lines.get(..self.len).unwrap_or(&[])
    }

    /// How many of the first lines come from obstacles (kept hard by the fallback).
    pub fn obstacle_count(&self) -> usize {
        self.obstacles
    }

    /// Appends a line; ignored when full.
    pub(super) fn push(&mut self, line: OrcaLine) {
        if let Some(slot) = self.lines.get_mut(self.len) {
            *slot = line;
            self.len += 1;
        }
    }
}
