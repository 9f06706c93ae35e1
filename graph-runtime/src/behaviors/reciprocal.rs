//! Reciprocal collision avoidance (ORCA: van den Berg, Guy, Lin and Manocha, "Reciprocal
//! n-body collision avoidance", 2011), as `BEHAVIORS.md` ("Reciprocal") writes it down.
//!
//! Every neighbor, circle obstacle and nearby wall segment gives one half-plane of permitted
//! velocities (an [`OrcaLine`], made in `half_planes`); a small linear program (`orca_solve`)
//! picks the permitted velocity nearest the preferred one within the disc of radius
//! `max_speed`, or, when the half-planes leave nothing, the velocity that violates the agent
//! half-planes least. This file gathers the half-planes of one agent and runs the node.
//! Everything lives in fixed-size arrays: a tick allocates nothing.

use glam::Vec2;

use super::half_planes::{
    FacingSide, Inverses, WallEdge, is_covered, obstacle_line_between, orca_line_between,
    uncovered_wall_orca_line,
};
use super::orca_lines::{
    MAX_RECIPROCAL_NEIGHBORS, MAX_RECIPROCAL_OBSTACLES, MAX_RECIPROCAL_WALLS, OrcaLines,
};
use super::orca_solve::{orca_aim, solve_orca};
use super::reciprocal_nearest::{Nearest, NearestAgents, ScanKeys, is_neighbor, scan_nearest};
use crate::Vehicle;
use crate::World;
use crate::math::truncate;
use crate::spatial::{Block, SpatialGrid};
use crate::world::{Obstacle, WallPoint};

/// The numbers of a Reciprocal node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReciprocalSettings {
    /// How far ahead collisions with agents are avoided (s, `>= 0`; `0`: agents ignored).
    pub time_horizon: f32,
    /// How far ahead collisions with circle obstacles and walls are avoided (s, `>= 0`; `0`:
    /// obstacles and walls ignored).
    pub obstacle_time_horizon: f32,
    /// Agents closer than this count as neighbors (units, `>= 0`).
    pub neighbor_radius: f32,
    /// At most this many neighbors, the nearest (`1..=MAX_RECIPROCAL_NEIGHBORS`; larger
    /// counts as the maximum).
    pub max_neighbors: usize,
    /// Extra distance kept from agents, obstacles and walls (units, `>= 0`).
    pub clearance: f32,
    /// When the preferred velocity is forbidden, the solver aims at it turned this far
    /// clockwise (radians, `0..=π/2`; `0`: plain ORCA).
    pub keep_right: f32,
}

/// What the Reciprocal node worked out for one agent (velocities in units / s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrcaSolution {
    /// The velocity the input force asks for.
    pub preferred: Vec2,
    /// The velocity chosen.
    pub chosen: Vec2,
    /// The half-planes.
    pub lines: OrcaLines,
    /// Whether the half-planes left no velocity and the least violation was taken instead.
    pub fallback: bool,
}

/// How long a steering force takes to reach the velocity it asks for (s): Reynolds' forces
/// are velocity differences (seek's is `desired - v`), so over one second a force `F` on a
/// vehicle of mass 1 asks for `v + F`.
pub const PREFERENCE_SECONDS: f32 = 1.0;

/// The velocity `force` asks for: `truncate(v + truncate(force, max_force) / mass *
/// PREFERENCE_SECONDS, max_speed)`; for seek or arrival on a vehicle of mass 1, their desired
/// velocity.
pub fn preferred_velocity(vehicle: &Vehicle, force: Vec2) -> Vec2 {
    truncate(
        vehicle.velocity + truncate(force, vehicle.max_force) / vehicle.mass * PREFERENCE_SECONDS,
        vehicle.max_speed,
    )
}

/// The half-planes of `vehicle` (agent `index`): first the nearest circle obstacles and wall
/// segments of `world` that it could reach within the obstacle horizon, then its nearest neighbors
/// among `others` (`(agent index, vehicle)` pairs, the candidates of the tick's query).
pub fn orca_lines<'a>(
    vehicle: &Vehicle,
    index: usize,
    others: impl IntoIterator<Item = (usize, &'a Vehicle)>,
    world: &World,
    settings: &ReciprocalSettings,
    dt: f32,
) -> OrcaLines {
    let mut lines = OrcaLines::default();
    let others = Others::Candidates(others);
    let half = Shares::Half;
    orca_lines_into(
        (vehicle, index),
        others,
        world,
        (settings, dt, half),
        &mut lines,
    );
    lines
}

/// How a Reciprocal agent shares each avoidance with another agent.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Shares<'a> {
    /// Half and half (plain ORCA): every agent has the default priority.
    Half,
    /// By priority: this agent's avoidance against every agent's (by agent index; the default
    /// past its end).
    By(crate::Avoidance, &'a [crate::Avoidance]),
}

impl Shares<'_> {
    /// This agent's share of the avoidance with agent `other`.
    #[inline]
    fn against(self, other: usize) -> f32 {
        match self {
            Self::Half => 0.5,
            Self::By(mine, all) => {
                mine.share_against(all.get(other).map_or(1.0, |theirs| theirs.priority))
            }
        }
    }
}

/// The other agents a Reciprocal node is given: `(agent index, vehicle)` pairs.
pub(crate) enum Others<'g, I> {
    /// The candidates of the tick's query, in any order: the nearest are chosen among them.
    Candidates(I),
    /// Every agent of the grid's cells around the agent (the grid built from `vehicles`, so
    /// its positions are theirs): the nearest are chosen among them, as among `Candidates`,
    /// reading the grid's copies in cell order and a vehicle only once it is kept, the keys
    /// gathered in the thread's room for them. The last field is how far to look: the
    /// neighbor radius, or a shorter distance the nearest are known to lie within
    /// ([`SpatialGrid::neighbor_reach`]), with the cells that covers ([`SpatialGrid::block`]);
    /// what the scan finds is noted for the agent's next.
    InGrid(
        &'g SpatialGrid,
        &'g [Vehicle],
        &'g mut ScanKeys,
        (f32, Block),
    ),
    /// Already the nearest, in the order [`orca_lines`] would choose them (ascending squared
    /// distance, then agent index): those within the neighbor radius, not the agent itself,
    /// at most `max_neighbors` (what the k-d tree answers, its keys sorted).
    Nearest(I),
}

impl<'g> Others<'g, std::iter::Empty<(usize, &'g Vehicle)>> {
    /// [`Others::InGrid`], with no other kind of list to name.
    pub(crate) fn in_grid(
        grid: &'g SpatialGrid,
        vehicles: &'g [Vehicle],
        keys: &'g mut ScanKeys,
        reach: (f32, Block),
    ) -> Self {
        Self::InGrid(grid, vehicles, keys, reach)
    }
}

/// [`orca_lines`] written into `lines` (cleared first): a caller that keeps one list for
/// every agent neither fills nor copies the 56 lines' worth of it per agent.
fn orca_lines_into<'a, I: IntoIterator<Item = (usize, &'a Vehicle)>>(
    (vehicle, index): (&Vehicle, usize),
    others: Others<'a, I>,
    world: &World,
    (settings, dt, shares): (&ReciprocalSettings, f32, Shares<'_>),
    lines: &mut OrcaLines,
) {
    lines.clear();
    let (obstacles, walls) = (&world.obstacles, world.wall_index());
    let p = vehicle.position;
    if settings.obstacle_time_horizon > 0.0 {
        let reach = settings.obstacle_time_horizon * vehicle.max_speed
            + vehicle.radius
            + settings.clearance;
        // A world without circle obstacles (walls only, or nothing) skips setting up their
        // list of the nearest.
        if !obstacles.is_empty() {
            let mut nearest: Nearest<Obstacle, MAX_RECIPROCAL_OBSTACLES> = Nearest::new();
            for (at, obstacle) in obstacles.iter().enumerate() {
                let distance = (obstacle.center - p).length();
                if distance < reach + obstacle.radius {
                    nearest.offer(
                        distance - obstacle.radius,
                        at,
                        *obstacle,
                        MAX_RECIPROCAL_OBSTACLES,
                    );
                }
            }
            let inverses = Inverses::of(settings.obstacle_time_horizon, dt);
            for (_, obstacle) in nearest.iter() {
                lines.push(obstacle_line_between(
                    vehicle,
                    &obstacle,
                    (inverses, settings.clearance),
                ));
            }
        }
        wall_lines(vehicle, walls, reach, settings, lines);
        lines.end_obstacles();
    }
    if settings.time_horizon > 0.0 {
        let inverses = (Inverses::of(settings.time_horizon, dt), settings.clearance);
        let me = (vehicle, index);
        match others {
            Others::Candidates(others) => {
                let radius_squared = settings.neighbor_radius * settings.neighbor_radius;
                let mut nearest: NearestAgents<Option<&Vehicle>, MAX_RECIPROCAL_NEIGHBORS> =
                    NearestAgents::new(None);
                for (other_index, other) in others {
                    let distance_squared = (other.position - p).length_squared();
                    if is_neighbor(index, other_index, distance_squared, radius_squared) {
                        nearest.offer(
                            distance_squared,
                            other_index,
                            Some(other),
                            settings.max_neighbors,
                        );
                    }
                }
                for (other_index, other) in nearest.iter() {
                    if let Some(other) = other {
                        push_agent_line(lines, me, (other_index, other), (inverses, shares));
                    }
                }
            }
            Others::InGrid(grid, vehicles, keys, (radius, block)) => {
                let most = settings.max_neighbors;
                let around = (p, index, block);
                let kept = scan_nearest(grid, vehicles.len(), around, (radius, most), keys);
                grid.note_nearest(index, most.min(MAX_RECIPROCAL_NEIGHBORS), kept);
                for &key in kept.iter() {
                    let other_index = crate::spatial::agent_of(key) as usize;
                    if let Some(other) = vehicles.get(other_index) {
                        push_agent_line(lines, me, (other_index, other), (inverses, shares));
                    }
                }
            }
            Others::Nearest(nearest) => {
                let most = settings.max_neighbors.min(MAX_RECIPROCAL_NEIGHBORS);
                for neighbor in nearest.into_iter().take(most) {
                    push_agent_line(lines, me, neighbor, (inverses, shares));
                }
            }
        }
    }
}

/// Pushes onto `lines` the half-plane agent `other_index` imposes on agent `index` (with
/// the horizon's [`Inverses`] and the clearance, and the agent's share of the avoidance).
/// Always inlined into the loops over an agent's neighbors, from plain loops: called once a
/// neighbor, it reloaded what it reads each time, 3 % more instructions in Circle's Reciprocal
/// at 10,000 agents; a closure in its place was inlined or not as unrelated code in the crate
/// changed (issue 47: handed to `for_each`, and again on 2026-12-07 when the k-d tree's
/// rebuild grew a function).
#[expect(
    clippy::inline_always,
    reason = "a closure or a hint was left called once a neighbor as other code changed"
)]
#[inline(always)]
fn push_agent_line(
    lines: &mut OrcaLines,
    (vehicle, index): (&Vehicle, usize),
    (other_index, other): (usize, &Vehicle),
    (inverses, shares): ((Inverses, f32), Shares<'_>),
) {
    lines.push(orca_line_between(
        vehicle,
        other,
        inverses,
        index < other_index,
        shares.against(other_index),
    ));
}

/// The half-planes of the wall segments nearest `vehicle` within `reach` (at most
/// [`MAX_RECIPROCAL_WALLS`]), nearest first, onto `lines` (`BEHAVIORS.md`, "Reciprocal").
fn wall_lines(
    vehicle: &Vehicle,
    walls: &crate::WallIndex,
    reach: f32,
    settings: &ReciprocalSettings,
    lines: &mut OrcaLines,
) {
    let p = vehicle.position;
    // Most of a crowd is often far from every wall: two comparisons, no search.
    if walls.is_empty() || !walls.may_reach(p, reach) {
        return;
    }
    let mut buffer = [WallPoint::default(); MAX_RECIPROCAL_WALLS];
    // Nearest first, the lower segment index on a tie: an edge the nearer ones already
    // keep out gives no half-plane.
    let contacts = walls.nearest_first(p, reach, &mut buffer);
    // Each closed wall's facing side, judged at its nearest segment (the first of its
    // contacts in this order).
    let mut sides: [(usize, FacingSide); MAX_RECIPROCAL_WALLS] =
        [(usize::MAX, FacingSide::Either); MAX_RECIPROCAL_WALLS];
    let seen = |segment: Option<usize>| {
        segment.is_none_or(|segment| contacts.iter().any(|c| c.segment == segment))
    };
    for (at, contact) in contacts.iter().enumerate() {
        let Some(&segment) = walls.segments().get(contact.segment) else {
            continue;
        };
        let around = walls.around(contact.segment);
        let side = match walls.wall_of(contact.segment) {
            Some((wall, Some(interior_left))) => {
                // Only the contacts before this one have decided a side.
                let decided = sides
                    .get(..at)
                    .unwrap_or_default()
                    .iter()
                    .find(|&&(w, _)| w == wall)
                    .map(|&(_, side)| side);
                let side = decided.unwrap_or_else(|| {
                    FacingSide::of_closed_wall(p, segment, around, interior_left)
                });
                if let Some(slot) = sides.get_mut(at) {
                    *slot = (wall, side);
                }
                side
            }
            _ => FacingSide::Either,
        };
        // An edge the nearer ones already keep out gives nothing: tested before turning it.
        let covered = is_covered(
            vehicle,
            segment,
            lines.as_slice(),
            settings.obstacle_time_horizon,
            settings.clearance,
        );
        if covered {
            continue;
        }
        let turns = walls.turns(contact.segment);
        let pose = (p, vehicle.forward);
        let Some(mut edge) = WallEdge::facing_turned(pose, segment, around, turns, side) else {
            continue;
        };
        let (before, after) = walls.neighbors(contact.segment);
        let (before, after) = if edge.a == segment.0 {
            (before, after)
        } else {
            (after, before)
        };
        edge.before_seen = seen(before);
        edge.after_seen = seen(after);
        let line = uncovered_wall_orca_line(
            vehicle,
            &edge,
            settings.obstacle_time_horizon,
            settings.clearance,
        );
        if let Some(line) = line {
            lines.push(line);
        }
    }
}

/// The Reciprocal node's work for agent `index`: preferred velocity from `force`, the
/// half-planes and the chosen velocity (`BEHAVIORS.md`, "Reciprocal"). With `dt <= 0` (or
/// not finite) there is no tick to plan: no lines, and the preferred and chosen velocities
/// are the current one.
pub fn reciprocal_velocity<'a>(
    vehicle: &Vehicle,
    index: usize,
    others: impl IntoIterator<Item = (usize, &'a Vehicle)>,
    world: &World,
    force: Vec2,
    settings: &ReciprocalSettings,
    dt: f32,
) -> OrcaSolution {
    let mut lines = OrcaLines::default();
    let others = Others::Candidates(others);
    let (preferred, chosen, fallback) = reciprocal_velocity_into(
        (vehicle, index),
        others,
        world,
        (force, settings, dt, Shares::Half),
        &mut lines,
    );
    OrcaSolution {
        preferred,
        chosen,
        lines,
        fallback,
    }
}

/// [`reciprocal_velocity`] with the half-planes written into `lines` (cleared first):
/// `(preferred, chosen, fallback)`. The evaluator keeps one list per thread, so an agent's
/// step neither fills nor copies a whole [`OrcaLines`] (about 900 bytes, three times).
/// `shares` says how each avoidance with another agent is shared.
pub(crate) fn reciprocal_velocity_into<'a, I: IntoIterator<Item = (usize, &'a Vehicle)>>(
    (vehicle, index): (&Vehicle, usize),
    others: Others<'a, I>,
    world: &World,
    (force, settings, dt, shares): (Vec2, &ReciprocalSettings, f32, Shares<'_>),
    lines: &mut OrcaLines,
) -> (Vec2, Vec2, bool) {
    if !(dt > 0.0 && dt.is_finite()) {
        lines.clear();
        return (vehicle.velocity, vehicle.velocity, false);
    }
    let preferred = preferred_velocity(vehicle, force);
    orca_lines_into(
        (vehicle, index),
        others,
        world,
        (settings, dt, shares),
        lines,
    );
    let aim = orca_aim(lines, vehicle.max_speed, preferred, settings.keep_right);
    let (chosen, fallback) = solve_orca(lines, vehicle.max_speed, aim);
    (preferred, chosen, fallback)
}

/// The force that reaches `chosen` in one tick: `truncate((chosen - v) * mass / dt,
/// max_force)`.
pub fn reaching_force(vehicle: &Vehicle, chosen: Vec2, dt: f32) -> Vec2 {
    truncate(
        (chosen - vehicle.velocity) * vehicle.mass / dt,
        vehicle.max_force,
    )
}

/// Reciprocal collision avoidance of agent `index` around `force` (the graph's preferred
/// steering): the force that reaches the chosen velocity ([`reciprocal_velocity`],
/// [`reaching_force`]). With `dt <= 0` (or not finite) it passes `force` through.
pub fn reciprocal<'a>(
    vehicle: &Vehicle,
    index: usize,
    others: impl IntoIterator<Item = (usize, &'a Vehicle)>,
    world: &World,
    force: Vec2,
    settings: &ReciprocalSettings,
    dt: f32,
) -> Vec2 {
    if !(dt > 0.0 && dt.is_finite()) {
        return force;
    }
    let solution = reciprocal_velocity(vehicle, index, others, world, force, settings, dt);
    reaching_force(vehicle, solution.chosen, dt)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading the grid's cells keeps the neighbors a list of every agent keeps, so the
    /// half-planes and the velocity are the same bit for bit: on a lattice (many equal
    /// distances, ties to the lower index, some at exactly the radius) with agents stacked on
    /// one point and one beyond every cell, for `max_neighbors` from none to past the
    /// capacity.
    #[test]
    fn the_grid_scan_keeps_the_neighbors_a_list_of_every_agent_keeps() {
        let params = crate::VehicleParams::default();
        let mut vehicles: Vec<Vehicle> = (0..400_u16)
            .map(|i| {
                let position = Vec2::new(f32::from(i % 20), f32::from(i / 20)) * 1.5;
                let velocity = Vec2::new(f32::from(i * 7 % 5) - 2.0, f32::from(i * 3 % 7) - 3.0);
                Vehicle::new(position, velocity, params)
            })
            .collect();
        for i in 0..5_u8 {
            vehicles.push(Vehicle::new(
                Vec2::splat(7.5),
                Vec2::X * f32::from(i),
                params,
            ));
        }
        vehicles.push(Vehicle::new(Vec2::splat(500.0), Vec2::Y, params));
        // Lattice neighbors three steps away are exactly this far.
        scan_keeps_what_the_list_keeps(&vehicles, 4.5);
    }

    /// The scan with more neighbors within reach than it holds keys for (128): 600 agents a
    /// quarter unit apart, every one within 10 units of every other, so each agent's scan
    /// thins its keys to the nearest several times over.
    #[test]
    fn a_scan_of_more_neighbors_than_its_keys_keeps_the_nearest_a_list_keeps() {
        let params = crate::VehicleParams::default();
        let vehicles: Vec<Vehicle> = (0..600_u16)
            .map(|i| {
                let position = Vec2::new(f32::from(i % 25), f32::from(i / 25)) * 0.25;
                let velocity = Vec2::new(f32::from(i * 7 % 5) - 2.0, f32::from(i * 3 % 7) - 3.0);
                Vehicle::new(position, velocity, params)
            })
            .collect();
        scan_keeps_what_the_list_keeps(&vehicles, 10.0);
    }

    /// For every agent of `vehicles` and several `max_neighbors`, Reciprocal over the grid's
    /// cells (cells of 4 units) gives the lines, velocities and fallback that it gives over a
    /// list of every agent, to the bit.
    fn scan_keeps_what_the_list_keeps(vehicles: &[Vehicle], neighbor_radius: f32) {
        let mut grid = SpatialGrid::new(4.0);
        grid.rebuild(vehicles);
        let mut keys = ScanKeys::default();
        let world = World::default();
        for max_neighbors in [0, 3, 10, MAX_RECIPROCAL_NEIGHBORS + 5] {
            let settings = ReciprocalSettings {
                time_horizon: 2.0,
                obstacle_time_horizon: 1.0,
                neighbor_radius,
                max_neighbors,
                clearance: 0.0,
                keep_right: 0.0,
            };
            for (index, vehicle) in vehicles.iter().enumerate() {
                let (force, dt) = (Vec2::new(3.0, 1.0), 0.1);
                let listed = reciprocal_velocity(
                    vehicle,
                    index,
                    vehicles.iter().enumerate(),
                    &world,
                    force,
                    &settings,
                    dt,
                );
                let mut lines = OrcaLines::default();
                let (preferred, chosen, fallback) = reciprocal_velocity_into(
                    (vehicle, index),
                    Others::in_grid(
                        &grid,
                        vehicles,
                        &mut keys,
                        (
                            neighbor_radius,
                            grid.block(vehicle.position, neighbor_radius),
                        ),
                    ),
                    &world,
                    (force, &settings, dt, Shares::Half),
                    &mut lines,
                );
                let at = format!("agent {index}, max_neighbors {max_neighbors}");
                assert_eq!(lines.as_slice(), listed.lines.as_slice(), "{at}");
                assert_eq!(
                    preferred.to_array().map(f32::to_bits),
                    listed.preferred.to_array().map(f32::to_bits),
                    "{at}"
                );
                assert_eq!(
                    chosen.to_array().map(f32::to_bits),
                    listed.chosen.to_array().map(f32::to_bits),
                    "{at}"
                );
                assert_eq!(fallback, listed.fallback, "{at}");
            }
        }
    }

    /// The ends an edge of segment `(a, b)` must have, from the points as `WallEdge::facing`
    /// used them before the index kept each segment's turns: the edge runs `a → b` or `b → a`,
    /// its wall's point before its first point is `before` or `after` accordingly, each
    /// direction normalized from the points where they are met, and an open end (or a point
    /// too near to give a direction) turns back along the edge.
    fn ends_from_points(
        edge: &WallEdge,
        (a, b): (Vec2, Vec2),
        (before, after): (Option<Vec2>, Option<Vec2>),
    ) -> [Vec2; 2] {
        use crate::math::normalize;
        let (before, after) = if (edge.a, edge.b) == (a, b) {
            (before, after)
        } else {
            (after, before)
        };
        let back = normalize(edge.a - edge.b);
        let turn = |direction: Vec2| Some(direction).filter(|&d| d != Vec2::ZERO);
        [
            before
                .and_then(|q| turn(normalize(edge.a - q)))
                .unwrap_or(back),
            after
                .and_then(|q| turn(normalize(q - edge.b)))
                .unwrap_or(back),
        ]
    }

    /// The bits of an edge's vectors and flags, so that `-0.0` and `0.0` differ.
    fn bits(edge: Option<WallEdge>) -> Option<([u32; 8], [bool; 4])> {
        edge.map(|e| {
            let [ax, ay, bx, by] = [e.a.x, e.a.y, e.b.x, e.b.y].map(f32::to_bits);
            let [cx, cy, dx, dy] = [e.before.x, e.before.y, e.after.x, e.after.y].map(f32::to_bits);
            (
                [ax, ay, bx, by, cx, cy, dx, dy],
                [e.a_convex, e.b_convex, e.before_seen, e.after_seen],
            )
        })
    }

    /// An open vertical wall from (7.5, 0) to (7.5, 0.5), an agent at (8, 0.25) on its right
    /// (`det((-0.5, -0.25), (0, 0.5)) = -0.25`): the edge runs `a → b` and turns back at both
    /// open ends along `normalize(a - b) = (0, -1)` with a positive zero (`7.5 - 7.5`), not the
    /// negation of `normalize(b - a) = (0, 1)`, whose zero is negative. From (7, 0.25), on its
    /// left (`det((0.5, -0.25), (0, 0.5)) = 0.25`), it runs `b → a` and turns back along
    /// `(0, 1)`, again with a positive zero.
    #[test]
    fn an_open_end_turns_back_with_the_bits_of_its_own_subtraction() {
        let wall = crate::Wall::polyline(vec![Vec2::new(7.5, 0.0), Vec2::new(7.5, 0.5)]);
        let index = crate::WallIndex::new(&[wall]);
        let segment = index.segments()[0];
        let turns = index.turns(0);
        let (a, b) = segment;
        for (x, (from, to), y) in [(8.0, (a, b), -1.0_f32), (7.0, (b, a), 1.0)] {
            let pose = (Vec2::new(x, 0.25), Vec2::X);
            let edge =
                WallEdge::facing_turned(pose, segment, (None, None), turns, FacingSide::Either)
                    .expect("faces the agent");
            assert_eq!((edge.a, edge.b), (from, to));
            for end in [edge.before, edge.after] {
                assert_eq!(
                    end.to_array().map(f32::to_bits),
                    [0, y.to_bits()],
                    "from {x}"
                );
            }
        }
    }

    proptest::proptest! {
        /// The turns the wall index keeps per segment give the very edges the points give,
        /// bit for bit, from either side, for open and closed walls with repeated and nearly
        /// repeated points, agents anywhere and agents on a segment's line.
        #[test]
        fn edges_from_the_index_turns_are_the_edges_from_the_points(
            walls in proptest::collection::vec(
                (
                    proptest::collection::vec((-20_i8..20, -20_i8..20, 0_u8..4), 2..6),
                    proptest::bool::ANY,
                ),
                1..4,
            ),
            agents in proptest::collection::vec((-60.0_f32..60.0, -60.0_f32..60.0, 0.0_f32..1.0), 1..6),
        ) {
            // Coordinates of half units, a point now and then a hair off the last.
            let walls: Vec<crate::Wall> = walls
                .into_iter()
                .map(|(points, closed)| crate::Wall {
                    points: points
                        .into_iter()
                        .map(|(x, y, nudge)| {
                            let hair = if nudge == 0 { 1e-7 } else { 0.0 };
                            Vec2::new(f32::from(x) * 0.5 + hair, f32::from(y) * 0.5)
                        })
                        .collect(),
                    closed,
                })
                .collect();
            let index = crate::WallIndex::new(&walls);
            for (segment, &(a, b)) in index.segments().iter().enumerate() {
                let around = index.around(segment);
                let turns = index.turns(segment);
                for &(x, y, t) in &agents {
                    // Anywhere, and on the segment's line (its `forward` then decides).
                    for p in [Vec2::new(x, y), a + (b - a) * t] {
                        let forward = Vec2::new(y, -x).normalize_or(Vec2::X);
                        for side in [FacingSide::Either, FacingSide::Right, FacingSide::Left] {
                            let turned = WallEdge::facing_turned((p, forward), (a, b), around, turns, side);
                            let facing = WallEdge::facing((p, forward), (a, b), around, side);
                            proptest::prop_assert_eq!(bits(turned), bits(facing));
                            if let Some(edge) = turned {
                                let ends = ends_from_points(&edge, (a, b), around);
                                proptest::prop_assert_eq!(
                                    [edge.before, edge.after].map(|v| v.to_array().map(f32::to_bits)),
                                    ends.map(|v| v.to_array().map(f32::to_bits)),
                                    "{} {} {:?}", segment, p, side
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
