//! Crowding: how full of standing agents each edge between a mesh's triangles is, so that a
//! route can pay for crossing a jammed door and take another way when one exists
//! (`BEHAVIORS.md`, "`Navigate`").

use glam::Vec2;
use rayon::prelude::*;

use super::{NONE, NavMesh};

/// From this many standing agents, each one's shares are worked out in parallel, in chunks of
/// [`CHUNK`]; they are added in agent order all the same, so the fill is the same on any
/// thread count.
const PARALLEL_FROM: usize = 2_048;
const CHUNK: usize = 512;

/// How full of standing agents each edge between two triangles of one mesh is: the share of
/// the edge's width each agent standing across it takes, summed (two agents that each fill a
/// door make it 2; one agent beside a long edge of a room, a small share).
#[derive(Clone, Debug, Default)]
pub struct Crowding {
    /// By `triangle * 3 + edge` (edge `i` runs from corner `i` to corner `i + 1`).
    fill: Vec<f32>,
    /// By the number each standing agent was given: the triangle it stood in when last
    /// counted (`NONE`: none known). Only a hint, checked before it is used
    /// ([`NavMesh::deeply_in`]): the fill is the same with or without it.
    hints: Vec<u32>,
    /// The standing agents of the last count (room kept from count to count).
    standing: Vec<(u32, Vec2, f32)>,
}

/// Two crowdings are equal when their fills are (the hints only save work).
impl PartialEq for Crowding {
    fn eq(&self, other: &Self) -> bool {
        self.fill == other.fill
    }
}

impl Crowding {
    /// Counts the standing agents `standing` (each a position and a radius) on `mesh`: an
    /// agent takes the part of each edge of the triangle it stands in (or, off the mesh, the
    /// nearest one within a cell of it; an agent farther off blocks no edge) where an agent of the mesh's radius walking across would touch it, the
    /// edge's points within the two radii of it; that part's share of the edge's length is
    /// added to the edge's fill, on both of its sides (`BEHAVIORS.md`, "`Navigate`").
    pub fn count(&mut self, mesh: &NavMesh, standing: impl IntoIterator<Item = (Vec2, f32)>) {
        let numbered = standing.into_iter().enumerate();
        self.count_numbered(mesh, numbered.map(|(i, (p, r))| (i as u32, p, r)));
    }

    /// [`Crowding::count`] of agents each with a number that stays the same from count to
    /// count (its index among the driver's agents): the triangle each stood in is kept and
    /// looked at first next time, which spares a search for an agent that has not left it.
    pub(crate) fn count_numbered(
        &mut self,
        mesh: &NavMesh,
        standing: impl IntoIterator<Item = (u32, Vec2, f32)>,
    ) {
        self.fill.clear();
        self.fill.resize(mesh.triangles.len() * 3, 0.0);
        let mut agents = std::mem::take(&mut self.standing);
        agents.clear();
        agents.extend(standing);
        self.count_agents(mesh, &agents);
        self.standing = agents;
    }

    /// Counts `standing` (each a number, a position and a radius) into the cleared fill.
    fn count_agents(&mut self, mesh: &NavMesh, standing: &[(u32, Vec2, f32)]) {
        if standing.len() < PARALLEL_FROM {
            for &(number, position, radius) in standing {
                let number = number as usize;
                if number >= self.hints.len() {
                    self.hints.resize(number + 1, NONE);
                }
                let fill = &mut self.fill;
                let hint = self.hints[number];
                self.hints[number] = shares(mesh, (position, radius), hint, |at, share| {
                    add(fill, at, share);
                });
            }
            return;
        }
        let hints = &self.hints;
        let hint = |number: u32| hints.get(number as usize).copied().unwrap_or(NONE);
        let chunks: Vec<Counted> = standing
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut found = Vec::with_capacity(chunk.len() * 2);
                let mut stood = Vec::with_capacity(chunk.len());
                for &(number, position, radius) in chunk {
                    let t = shares(mesh, (position, radius), hint(number), |at, share| {
                        found.push((at, share));
                    });
                    stood.push((number, t));
                }
                (found, stood)
            })
            .collect();
        for &(at, share) in chunks.iter().flat_map(|(found, _)| found) {
            add(&mut self.fill, at, share);
        }
        for (number, t) in chunks.into_iter().flat_map(|(_, stood)| stood) {
            let number = number as usize;
            if number >= self.hints.len() {
                self.hints.resize(number + 1, NONE);
            }
            self.hints[number] = t;
        }
    }

    /// How full edge `edge` of triangle `triangle` is (0 when uncounted).
    pub fn at(&self, triangle: u32, edge: usize) -> f32 {
        self.fill
            .get(triangle as usize * 3 + edge)
            .copied()
            .unwrap_or(0.0)
    }

    /// How full the edges of `corridor` (each `triangle * 3 + edge`) are, together.
    pub fn along(&self, corridor: &[u32]) -> f32 {
        (corridor.iter())
            .map(|&at| self.fill.get(at as usize).copied().unwrap_or(0.0))
            .sum()
    }
}

/// What a chunk of standing agents counted: each share with its place, and where each agent
/// stood (its number and triangle).
type Counted = (Vec<(usize, f32)>, Vec<(u32, u32)>);

/// Adds `share` to the fill at `at`.
fn add(fill: &mut [f32], at: usize, share: f32) {
    if let Some(fill) = fill.get_mut(at) {
        *fill += share;
    }
}

/// The shares of the edges a standing agent (position and radius) on `mesh` takes, in order,
/// each given to `each` with its place (`triangle * 3 + edge`), then again with the same
/// edge's place in the triangle across it. Looks first in triangle `hint`; returns the
/// triangle it counted the agent in (`NONE`: none near).
fn shares(
    mesh: &NavMesh,
    (position, radius): (Vec2, f32),
    hint: u32,
    mut each: impl FnMut(usize, f32),
) -> u32 {
    let found = if mesh.deeply_in(hint, position) {
        Some(hint)
    } else {
        mesh.nearest_close(position)
    };
    let Some(t) = found else {
        return NONE;
    };
    let triangle = &mesh.triangles[t as usize];
    let reach = radius + mesh.radius;
    for (edge, &next) in triangle.neighbors.iter().enumerate() {
        if next == NONE {
            continue;
        }
        let [a, b] = mesh.edge(triangle, edge);
        let share = share_of_edge(position, reach, a, b);
        if share <= 0.0 {
            continue;
        }
        let side = t * 3 + edge as u32;
        each(side as usize, share);
        if let Some(place) = mesh.crossing(t, edge) {
            each(
                mesh.crossings[place as usize].other_side(side) as usize,
                share,
            );
        }
    }
    t
}

/// The share of edge `a`–`b`'s length within `reach` of `position` (0 to 1): the chord of the
/// circle of radius `reach` round the position on the edge's line, cut to the edge.
fn share_of_edge(position: Vec2, reach: f32, a: Vec2, b: Vec2) -> f32 {
    let length = a.distance(b);
    // A zero-length or non-finite edge holds nobody.
    if length.is_nan() || length <= 0.0 {
        return 0.0;
    }
    let direction = (b - a) / length;
    let off = direction.perp_dot(position - a).abs();
    if off.is_nan() || off >= reach {
        return 0.0;
    }
    let half = (reach * reach - off * off).sqrt();
    let along = (position - a).dot(direction);
    let covered = (along + half).min(length) - (along - half).max(0.0);
    (covered / length).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_takes_the_chord_of_its_reach_on_the_edge() {
        let (a, b) = (Vec2::ZERO, Vec2::new(4.0, 0.0));
        // 0.6 off the edge, reach 1: half-chord √(1 − 0.36) = 0.8, from x 0.2 to 1.8: 1.6 of 4.
        let share = share_of_edge(Vec2::new(1.0, 0.6), 1.0, a, b);
        assert!((share - 0.4).abs() < 1e-6, "{share}");
        // Past the end, on the line: the chord −1.5 … 0.5 cut to the edge: 0.5 of 4.
        let share = share_of_edge(Vec2::new(-0.5, 0.0), 1.0, a, b);
        assert!((share - 0.125).abs() < 1e-6, "{share}");
        // Across a 1-wide door: all of it.
        let door = share_of_edge(Vec2::new(0.5, 0.5), 1.0, Vec2::ZERO, Vec2::new(1.0, 0.0));
        assert_eq!(door, 1.0);
        // Out of reach, and a zero-length edge: nothing.
        assert_eq!(share_of_edge(Vec2::new(1.0, 1.0), 1.0, a, b), 0.0);
        assert_eq!(share_of_edge(Vec2::ZERO, 1.0, a, a), 0.0);
    }
}
