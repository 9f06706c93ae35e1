//! Crowding: how full of standing agents each edge between a mesh's triangles is, so that a
//! route can pay for crossing a jammed door and take another way when one exists
//! (`BEHAVIORS.md`, "`Navigate`").
//!
//! Counted again on every tick that reads it, but only the agents whose standing changed
//! are worked out: what each agent adds is kept, and depends on nothing but its position
//! rounded to a grid of [`NavMesh::radius`]`/ 8` (at least 1/32 of a unit), its radius and
//! whether it stands. An agent standing still, or shuffling within its cell, costs a
//! comparison; one that moves to another cell, starts or stops takes its old shares off and
//! adds its new ones. The fill is kept in whole numbers of 1/65,536 of an edge, so taking
//! off and adding are exact: the fill is the same whatever was counted before, in whatever
//! order, on any thread count.

use std::sync::atomic::{AtomicU64, Ordering};

use glam::Vec2;
use rayon::prelude::*;

use super::{NONE, NavMesh};

/// From this many agents, they are looked at in parallel, in chunks of [`CHUNK`] (the fill
/// is the same on any thread count: its sums are of whole numbers).
const PARALLEL_FROM: usize = 2_048;
const CHUNK: usize = 1_024;

/// A fill of one whole edge, in the units the fill is kept in.
const WHOLE: f32 = 65_536.0;

/// The part of an edge's fill a route crosses at no cost (half the edge, in 1/[`WHOLE`]): a
/// passage standing agents block less than half of is walked past, not queued at
/// ([`Crowding::blocked`]).
const FREE_UNITS: u64 = 32_768;

/// How full of standing agents each edge between two triangles of one mesh is: the share of
/// the edge's width each agent standing across it takes, summed (two agents that each fill a
/// door make it 2; one agent beside a long edge of a room, a small share).
#[derive(Debug, Default)]
pub struct Crowding {
    /// By `triangle * 3 + edge` (edge `i` runs from corner `i` to corner `i + 1`), in
    /// 1/[`WHOLE`] of an edge (wrapping: a share is always taken off after it was added).
    fill: Vec<AtomicU64>,
    /// By the number each agent was given: what it adds to the fill.
    agents: Vec<Stood>,
    /// How many agents the last count worked out again.
    worked: usize,
    /// The mesh counted on ([`NavMesh`]'s own number; `None` before the first count).
    mesh: Option<u64>,
}

/// What one agent adds to the fill, and where it was counted.
#[derive(Clone, Copy, Debug)]
struct Stood {
    /// The cell of the counting grid it stood in and its radius (`None`: it walks).
    at: Option<([i64; 2], u32)>,
    /// The triangle it was counted in (`NONE`: it walks, or stands nowhere near the mesh).
    triangle: u32,
    /// Its shares of that triangle's three edges, in 1/[`WHOLE`] (0 for an edge it does not
    /// reach and for one on the mesh's border).
    shares: [u64; 3],
    /// The triangle it stood in when last counted standing (`NONE`: none known). Only a
    /// hint, checked before it is used ([`NavMesh::deeply_in`]) or as a bound on a search
    /// ([`NavMesh::nearest_close`]): the fill is the same with or without it.
    hint: u32,
}

impl Default for Stood {
    fn default() -> Self {
        Self {
            at: None,
            triangle: NONE,
            shares: [0; 3],
            hint: NONE,
        }
    }
}

impl Clone for Crowding {
    fn clone(&self) -> Self {
        Self {
            fill: (self.fill.iter())
                .map(|f| AtomicU64::new(f.load(Ordering::Relaxed)))
                .collect(),
            agents: self.agents.clone(),
            worked: self.worked,
            mesh: self.mesh,
        }
    }
}

/// Two crowdings are equal when their fills are (the rest only saves work).
impl PartialEq for Crowding {
    fn eq(&self, other: &Self) -> bool {
        self.fill.len() == other.fill.len()
            && (self.fill.iter().zip(&other.fill))
                .all(|(a, b)| a.load(Ordering::Relaxed) == b.load(Ordering::Relaxed))
    }
}

impl Crowding {
    /// Counts the standing agents `standing` (each a position and a radius) on `mesh`, afresh:
    /// an agent takes the part of each edge of the triangle it stands in (or, off the mesh,
    /// the nearest one within a cell of it; an agent farther off blocks no edge) where an
    /// agent of the mesh's radius walking across would touch it, the edge's points within the
    /// two radii of it; that part's share of the edge's length is added to the edge's fill,
    /// on both of its sides. The position is taken at the nearest point of a grid of side
    /// the mesh's radius / 8 (at least 1/32), and a share to 1/65,536 (`BEHAVIORS.md`,
    /// "`Navigate`").
    pub fn count(&mut self, mesh: &NavMesh, standing: impl IntoIterator<Item = (Vec2, f32)>) {
        let standing: Vec<(Vec2, f32)> = standing.into_iter().collect();
        self.forget();
        self.count_agents(mesh, standing.len(), |i| Some(standing[i]));
    }

    /// Forgets every count: the next one starts afresh.
    fn forget(&mut self) {
        self.fill.clear();
        self.agents.clear();
        self.mesh = None;
    }

    /// [`Crowding::count`] of agents `0..agents`, each with a number that stays the same
    /// from count to count (its index among the driver's agents): `standing(i)` is agent `i`'s
    /// position and radius when it stands, `None` when it walks. Only the agents whose cell,
    /// radius or standing changed since the last count are worked out again (all of them
    /// when the last count was on another mesh).
    pub(crate) fn count_agents(
        &mut self,
        mesh: &NavMesh,
        agents: usize,
        standing: impl Fn(usize) -> Option<(Vec2, f32)> + Sync,
    ) {
        if self.mesh != Some(mesh.id) {
            // Counted on another mesh, or never: afresh.
            self.forget();
            self.fill
                .resize_with(mesh.triangles.len() * 3, AtomicU64::default);
            self.mesh = Some(mesh.id);
        }
        // Agents gone since the last count take their shares away.
        for gone in self.agents.drain(agents.min(self.agents.len())..) {
            add(mesh, &self.fill, &gone, false);
        }
        self.agents.resize(agents, Stood::default());
        let step = cell_side(mesh);
        let fill = &self.fill;
        let look = |first: usize, chunk: &mut [Stood]| {
            let mut worked = 0;
            for (i, stood) in (first..).zip(chunk.iter_mut()) {
                let at = standing(i).and_then(|(position, radius)| {
                    let cell = position / step;
                    let cell = [nearest_whole(cell.x)?, nearest_whole(cell.y)?];
                    radius.is_finite().then(|| (cell, radius.to_bits()))
                });
                if at == stood.at {
                    continue;
                }
                worked += 1;
                add(mesh, fill, stood, false);
                stood.at = at;
                stood.triangle = NONE;
                if let Some((cell, radius)) = at {
                    let position = Vec2::new(cell[0] as f32, cell[1] as f32) * step;
                    let radius = f32::from_bits(radius);
                    stood.triangle =
                        shares(mesh, (position, radius), stood.hint, &mut stood.shares);
                    if stood.triangle != NONE {
                        stood.hint = stood.triangle;
                    }
                    add(mesh, fill, stood, true);
                }
            }
            worked
        };
        self.worked = if agents < PARALLEL_FROM {
            look(0, &mut self.agents)
        } else {
            (self.agents.par_chunks_mut(CHUNK).enumerate())
                .map(|(c, chunk)| look(c * CHUNK, chunk))
                .sum()
        };
    }

    /// How many agents the last count worked out (those whose cell, radius or standing
    /// changed since the count before; every standing agent of a count afresh).
    pub fn worked(&self) -> usize {
        self.worked
    }

    /// How full edge `edge` of triangle `triangle` is (0 when uncounted).
    pub fn at(&self, triangle: u32, edge: usize) -> f32 {
        (self.fill.get(triangle as usize * 3 + edge))
            .map_or(0.0, |f| f.load(Ordering::Relaxed) as f32 / WHOLE)
    }

    /// How much of edge `edge` of triangle `triangle` a route pays for crossing: its fill
    /// beyond half the edge (0 when uncounted). An agent resting beside a room's long edge,
    /// or two at the sides of a wide passage, leave a walker room and cost nothing; a door
    /// with one agent standing in its middle (a fill of 1) costs a half, a queue more.
    pub fn blocked(&self, triangle: u32, edge: usize) -> f32 {
        (self.fill.get(triangle as usize * 3 + edge)).map_or(0.0, |f| {
            f.load(Ordering::Relaxed).saturating_sub(FREE_UNITS) as f32 / WHOLE
        })
    }

    /// How full the edges of `corridor` (each `triangle * 3 + edge`) are, together.
    pub fn along(&self, corridor: &[u32]) -> f32 {
        let units: u64 = (corridor.iter())
            .filter_map(|&at| self.fill.get(at as usize))
            .map(|f| f.load(Ordering::Relaxed))
            .fold(0, u64::wrapping_add);
        units as f32 / WHOLE
    }
}

/// The whole number nearest `x`, halves away from zero (`f32::round`'s, as an `i64`,
/// saturating), `None` when `x` is not finite. Without the `roundf` call that `f32::round`
/// makes on x86-64's baseline (it has no rounding instruction): the count looks at every
/// agent on every tick it runs, and the call was a twentieth of a planning phase's
/// instructions.
fn nearest_whole(x: f32) -> Option<i64> {
    if !x.is_finite() {
        return None;
    }
    // Toward zero, saturating; `x` less it is exact (for |x| ≥ 2²³ it is 0: `x` is whole).
    let whole = x as i64;
    let part = x - whole as f32;
    Some(
        whole
            .saturating_add(i64::from(part >= 0.5))
            .saturating_sub(i64::from(part <= -0.5)),
    )
}

/// The side of the grid standing agents are counted at on `mesh`: an eighth of its radius,
/// at least 1/32 of a unit.
fn cell_side(mesh: &NavMesh) -> f32 {
    mesh.radius.max(0.25) / 8.0
}

/// Adds the shares `stood` takes to `fill` (`true`) or takes them off (`false`), on both
/// sides of each edge.
fn add(mesh: &NavMesh, fill: &[AtomicU64], stood: &Stood, adding: bool) {
    if stood.triangle == NONE {
        return;
    }
    let put = |side: u32, share: u64| {
        if let Some(f) = fill.get(side as usize) {
            if adding {
                f.fetch_add(share, Ordering::Relaxed);
            } else {
                f.fetch_sub(share, Ordering::Relaxed);
            }
        }
    };
    for (edge, &share) in stood.shares.iter().enumerate() {
        if share == 0 {
            continue;
        }
        let side = stood.triangle * 3 + edge as u32;
        put(side, share);
        if let Some(place) = mesh.crossing(stood.triangle, edge) {
            put(mesh.crossings[place as usize].other_side(side), share);
        }
    }
}

/// The shares of the edges of the triangle a standing agent (position and radius) on `mesh`
/// stands in, into `shares` by edge, in 1/[`WHOLE`] (0 for an edge on the mesh's border or
/// out of reach). Looks first in triangle `hint`; returns the triangle it counted the agent
/// in (`NONE`: none near, and `shares` is left as it was).
fn shares(
    mesh: &NavMesh,
    (position, radius): (Vec2, f32),
    hint: u32,
    shares: &mut [u64; 3],
) -> u32 {
    let found = if mesh.deeply_in(hint, position) {
        Some(hint)
    } else {
        mesh.nearest_close(position, hint)
    };
    let Some(t) = found else {
        return NONE;
    };
    let triangle = &mesh.triangles[t as usize];
    let reach = radius + mesh.radius;
    for (edge, &next) in triangle.neighbors.iter().enumerate() {
        shares[edge] = if next == NONE {
            0
        } else {
            let [a, b] = mesh.edge(triangle, edge);
            (share_of_edge(position, reach, a, b) * WHOLE).round() as u64
        };
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
    use crate::{Rect, Wall, World};

    /// A 20 × 12 level split at x = 10 with a door at y from 4 to 6.
    fn door() -> NavMesh {
        door_at(4.0)
    }

    /// A 20 × 12 level split at x = 10 with a 2-wide door from y = `low`.
    fn door_at(low: f32) -> NavMesh {
        let mut world = World::new(Rect::new(Vec2::ZERO, Vec2::new(20.0, 12.0)));
        world.set_walls(vec![
            Wall::polyline(vec![Vec2::new(10.0, 0.0), Vec2::new(10.0, low)]),
            Wall::polyline(vec![Vec2::new(10.0, low + 2.0), Vec2::new(10.0, 12.0)]),
        ]);
        NavMesh::build(&world, 0.5).expect("the level builds")
    }

    #[test]
    fn a_count_on_another_mesh_starts_afresh() {
        // The door moved up by 2: another mesh of as many triangles, numbered alike.
        let (before, after) = (door_at(4.0), door_at(6.0));
        assert_eq!(before.triangle_count(), after.triangle_count());
        let agents: Vec<(Vec2, f32)> = (0..12)
            .map(|i| {
                (
                    Vec2::new(9.0 + (i % 4) as f32 * 0.6, 4.5 + (i / 4) as f32),
                    0.5,
                )
            })
            .collect();
        let standing = |i: usize| agents.get(i).copied();
        let mut kept = Crowding::default();
        kept.count_agents(&before, agents.len(), standing);
        kept.count_agents(&after, agents.len(), standing);
        assert_eq!(kept.worked(), 12);
        let mut afresh = Crowding::default();
        afresh.count(&after, agents.iter().copied());
        assert_eq!(fills(&kept), fills(&afresh));
    }

    /// The fill of every side of `mesh`, in its units.
    fn fills(crowding: &Crowding) -> Vec<u64> {
        (crowding.fill.iter())
            .map(|f| f.load(Ordering::Relaxed))
            .collect()
    }

    #[test]
    fn a_count_kept_from_tick_to_tick_is_the_count_afresh() {
        let mesh = door();
        // 60 agents round the door: some standing, some walking; rounds move some a little
        // (within their cell), some to another cell, stop some, start others, drop the last.
        let mut agents: Vec<(Vec2, f32, bool)> = (0..60)
            .map(|i| {
                let (x, y) = ((i % 10) as f32 * 0.4 + 8.0, (i / 10) as f32 * 0.5 + 3.5);
                (Vec2::new(x, y), 0.5, i % 3 != 0)
            })
            .collect();
        let mut kept = Crowding::default();
        let mut changed = 0;
        for round in 0..6 {
            let standing = |i: usize| agents.get(i).filter(|a| a.2).map(|a| (a.0, a.1));
            kept.count_agents(&mesh, agents.len(), standing);
            let mut afresh = Crowding::default();
            afresh.count(&mesh, agents.iter().filter(|a| a.2).map(|a| (a.0, a.1)));
            assert_eq!(fills(&kept), fills(&afresh), "round {round}");
            assert!(fills(&kept).iter().any(|&f| f > 0), "round {round}");
            for (i, agent) in agents.iter_mut().enumerate() {
                match (i + round) % 4 {
                    0 => agent.0.x += 0.01,
                    1 => agent.0 += Vec2::new(0.3, -0.2),
                    2 => agent.2 = !agent.2,
                    _ => {}
                }
            }
            agents.pop();
            changed += 1;
        }
        assert_eq!(changed, 6);
    }

    #[test]
    fn an_agent_is_counted_at_the_nearest_point_of_the_counting_grid() {
        // Radius 0.5: a grid of 1/16. (10.02, 5.03) is counted at (10, 5), in the doorway's
        // middle, where every edge crossing the 1-wide doorway for centres is filled whole.
        let mesh = door();
        let count = |at: Vec2| {
            let mut crowding = Crowding::default();
            crowding.count(&mesh, [(at, 0.5)]);
            fills(&crowding)
        };
        let at_grid = count(Vec2::new(10.0, 5.0));
        assert_eq!(count(Vec2::new(10.02, 5.03)), at_grid);
        assert!(at_grid.contains(&(WHOLE as u64)));
        // Where an agent takes part of an edge, 0.02 and 0.03 off a point of the grid counts
        // as the point; the share there is not the share 0.02 and 0.03 off.
        let (grid, off) = (1..40)
            .flat_map(|i| (1..48).map(move |j| Vec2::new(i as f32, j as f32) * 0.25))
            .map(|grid| (grid, grid + Vec2::new(0.02, 0.03)))
            .filter(|&(grid, off)| {
                mesh.locate(grid).is_some() && mesh.locate(grid) == mesh.locate(off)
            })
            .find(|&(grid, _)| count(grid).iter().any(|&f| f > 0 && f < WHOLE as u64 / 2))
            .expect("a point beside a long edge");
        assert_eq!(count(off), count(grid), "{off}");
        let t = mesh.locate(grid).expect("on the mesh");
        let triangle = &mesh.triangles[t as usize];
        let raw = |at: Vec2| {
            (0..3)
                .map(|e| mesh.edge(triangle, e))
                .map(move |[a, b]| share_of_edge(at, 1.0, a, b))
        };
        assert!(raw(grid).zip(raw(off)).any(|(g, o)| (g - o).abs() > 1e-3));
    }

    #[test]
    fn the_nearest_whole_number_is_f32_rounds() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            0.499_999_97,
            -0.499_999_97,
            8_388_607.5,
            16_777_216.0,
            1e19,
            -1e19,
            3.4e38,
            f32::MIN_POSITIVE,
            f32::EPSILON,
        ];
        // A spread of magnitudes and the halves between them.
        for i in -2_000..2_000 {
            values.push(i as f32 * 0.37);
            values.push(i as f32 + 0.5);
            values.push(i as f32 * 1_234.567);
        }
        for x in values {
            assert_eq!(nearest_whole(x), Some(x.round() as i64), "{x}");
        }
        assert_eq!(nearest_whole(f32::NAN), None);
        assert_eq!(nearest_whole(f32::INFINITY), None);
    }

    #[test]
    fn a_route_pays_for_the_fill_beyond_half_an_edge() {
        let mesh = door();
        let sides = |crowding: &Crowding| {
            (0..mesh.triangle_count() as u32)
                .flat_map(|t| (0..3).map(move |e| (t, e)))
                .map(|(t, e)| (crowding.at(t, e), crowding.blocked(t, e)))
                .collect::<Vec<_>>()
        };
        // One agent in the doorway's middle fills each edge across it whole: a half of it is
        // paid for; two there fill it twice: one and a half.
        for (agents, fill, paid) in [(1, 1.0, 0.5), (2, 2.0, 1.5)] {
            let mut crowding = Crowding::default();
            crowding.count(&mesh, vec![(Vec2::new(10.0, 5.0), 0.5); agents]);
            let sides = sides(&crowding);
            assert!(sides.contains(&(fill, paid)), "{agents}: {sides:?}");
            // Every edge: what is beyond a half, never less than nothing.
            for (at, blocked) in sides {
                assert_eq!(blocked, (at - 0.5).max(0.0), "{agents}");
            }
        }
        // An agent resting in the open room beside an edge between two of its triangles
        // (the first such point of a grid, 3 or more from the door): its chord (at most 2
        // long, its reach 1 each side) takes under half of the room's long edge, and costs
        // nothing.
        let beside = (4..=28)
            .flat_map(|i| (4..=44).map(move |j| Vec2::new(i as f32, j as f32) * 0.25))
            .map(|at| {
                let mut crowding = Crowding::default();
                crowding.count(&mesh, [(at, 0.5)]);
                sides(&crowding)
            })
            .find(|sides| sides.iter().any(|&(at, _)| at > 0.0))
            .expect("a point of the room beside an inner edge");
        assert!(
            beside
                .iter()
                .all(|&(at, blocked)| at < 0.5 && blocked == 0.0)
        );
        assert_eq!(Crowding::default().blocked(u32::MAX, 0), 0.0);
    }

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
