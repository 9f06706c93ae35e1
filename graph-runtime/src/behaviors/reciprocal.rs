//! Reciprocal collision avoidance (ORCA: van den Berg, Guy, Lin and Manocha, "Reciprocal
//! n-body collision avoidance", 2011), as `BEHAVIORS.md` ("Reciprocal") writes it down.
//!
//! Every neighbor, circle obstacle and nearby wall segment gives one half-plane of permitted velocities (an
//! [`OrcaLine`]); a small linear program picks the permitted velocity nearest the preferred
//! one within the disc of radius `max_speed`, or, when the half-planes leave nothing, the
//! velocity that violates the agent half-planes least. Everything lives in fixed-size arrays:
//! a tick allocates nothing.

use glam::Vec2;

use crate::Vehicle;
use crate::World;
use crate::math::{TINY, normalize, truncate};
use crate::world::{Obstacle, WallPoint, facing_normal};

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
const PARALLEL: f32 = 1e-5;

/// `det(a, b) = a.x * b.y - a.y * b.x`.
#[inline]
fn det(a: Vec2, b: Vec2) -> f32 {
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
    /// The half-planes, obstacles' first, then the neighbors' from the nearest.
    pub fn as_slice(&self) -> &[OrcaLine] {
        self.lines.get(..self.len).unwrap_or(&[])
    }

    /// How many of the first lines come from obstacles (kept hard by the fallback).
    pub fn obstacle_count(&self) -> usize {
        self.obstacles
    }

    /// Appends a line; ignored when full.
    fn push(&mut self, line: OrcaLine) {
        if let Some(slot) = self.lines.get_mut(self.len) {
            *slot = line;
            self.len += 1;
        }
    }
}

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

/// The velocity the vehicle step would reach in one tick under `force` alone:
/// `truncate(v + truncate(force, max_force) / mass * dt, max_speed)`.
pub fn preferred_velocity(vehicle: &Vehicle, force: Vec2, dt: f32) -> Vec2 {
    truncate(
        vehicle.velocity + truncate(force, vehicle.max_force) / vehicle.mass * dt,
        vehicle.max_speed,
    )
}

/// The boundary direction and the smallest change `u` of the relative velocity that leaves
/// the velocity obstacle of an object at `relative_position` (from the agent), for relative
/// velocity `relative_velocity` (the agent's minus the object's), combined radius `reach`
/// and horizon `horizon` (`> 0`). `tie` is the unit push used when the two centres coincide
/// and the relative velocity is zero.
fn leave_velocity_obstacle(
    relative_position: Vec2,
    relative_velocity: Vec2,
    reach: f32,
    horizon: f32,
    dt: f32,
    tie: Vec2,
) -> (Vec2, Vec2) {
    let distance_squared = relative_position.length_squared();
    let reach_squared = reach * reach;
    if distance_squared > reach_squared {
        // Apart: the velocity obstacle is the cone towards the object, cut off by the circle
        // of centre `relative_position / horizon` and radius `reach / horizon`.
        let inverse_horizon = 1.0 / horizon;
        let w = relative_velocity - relative_position * inverse_horizon;
        let w_squared = w.length_squared();
        let along = w.dot(relative_position);
        if along < 0.0 && along * along > reach_squared * w_squared {
            // Nearest boundary point on the cut-off circle.
            let w_length = w_squared.sqrt();
            let unit_w = w / w_length;
            (
                Vec2::new(unit_w.y, -unit_w.x),
                unit_w * (reach * inverse_horizon - w_length),
            )
        } else {
            // Nearest boundary point on a leg of the cone.
            let leg = (distance_squared - reach_squared).sqrt();
            let (x, y) = (relative_position.x, relative_position.y);
            let direction = if det(relative_position, w) > 0.0 {
                Vec2::new(x * leg - y * reach, x * reach + y * leg) / distance_squared
            } else {
                -Vec2::new(x * leg + y * reach, -x * reach + y * leg) / distance_squared
            };
            let u = direction * relative_velocity.dot(direction) - relative_velocity;
            (direction, u)
        }
    } else {
        // Overlapping: leave within one tick.
        let inverse_dt = 1.0 / dt;
        let w = relative_velocity - relative_position * inverse_dt;
        let w_length = w.length();
        let unit_w = if w_length < TINY { tie } else { w / w_length };
        (
            Vec2::new(unit_w.y, -unit_w.x),
            unit_w * (reach * inverse_dt - w_length),
        )
    }
}

/// The half-plane another agent imposes (each agent takes half of the avoidance):
/// `point = v + u / 2`. `lower_index` says whether `vehicle` has the lower agent index of the
/// two: when their centres coincide and they move alike, it is pushed along `-x` and the other
/// along `+x`.
pub fn agent_orca_line(
    vehicle: &Vehicle,
    other: &Vehicle,
    time_horizon: f32,
    dt: f32,
    lower_index: bool,
) -> OrcaLine {
    let tie = if lower_index { -Vec2::X } else { Vec2::X };
    let (direction, u) = leave_velocity_obstacle(
        other.position - vehicle.position,
        vehicle.velocity - other.velocity,
        vehicle.radius + other.radius,
        time_horizon,
        dt,
        tie,
    );
    OrcaLine {
        point: vehicle.velocity + u * 0.5,
        direction,
    }
}

/// The half-plane a circle obstacle imposes: an agent that never moves, so the vehicle takes
/// all of the avoidance: `point = v + u`. On the circle's centre at rest, it is pushed along
/// `+x`.
pub fn obstacle_orca_line(
    vehicle: &Vehicle,
    obstacle: &Obstacle,
    obstacle_time_horizon: f32,
    dt: f32,
) -> OrcaLine {
    let (direction, u) = leave_velocity_obstacle(
        obstacle.center - vehicle.position,
        vehicle.velocity,
        vehicle.radius + obstacle.radius,
        obstacle_time_horizon,
        dt,
        Vec2::X,
    );
    OrcaLine {
        point: vehicle.velocity + u,
        direction,
    }
}

/// The half-plane a wall segment imposes, through its point `nearest` (the segment's point
/// nearest the agent): the line through `nearest` across `n = normalize(p - nearest)` bounds
/// the whole segment, so keeping out of it is enough. With `d = |p - nearest|` and `R =
/// radius`, the agent may approach that line at most `(d - R) / obstacle_time_horizon`
/// (`(d - R) / dt` when already closer than `R`, which moves it out within one tick):
/// `v · n >= (R - d) / horizon`. An agent on the segment takes for `n` the segment's normal
/// that its heading meets (see "Walls"), or `-forward` for a segment of length zero.
pub fn wall_orca_line(
    vehicle: &Vehicle,
    nearest: Vec2,
    segment: (Vec2, Vec2),
    obstacle_time_horizon: f32,
    dt: f32,
) -> OrcaLine {
    let p = vehicle.position;
    let offset = p - nearest;
    let distance = offset.length();
    let mut n = normalize(offset);
    if n == Vec2::ZERO {
        n = facing_normal(p, vehicle.forward, segment.0, segment.1);
    }
    if n == Vec2::ZERO {
        n = -vehicle.forward;
    }
    let gap = vehicle.radius - distance;
    let least = if distance > vehicle.radius {
        gap / obstacle_time_horizon
    } else {
        gap / dt
    };
    OrcaLine {
        point: n * least,
        direction: Vec2::new(n.y, -n.x),
    }
}

/// Keeps the `N` smallest `(key, index)` pairs, in ascending order.
struct Nearest<T: Copy, const N: usize> {
    items: [Option<(f32, usize, T)>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Nearest<T, N> {
    fn new() -> Self {
        Self {
            items: [None; N],
            len: 0,
        }
    }

    fn offer(&mut self, key: f32, index: usize, item: T, keep: usize) {
        let keep = keep.min(N);
        let before = |slot: &Option<(f32, usize, T)>| {
            slot.is_some_and(|(k, i, _)| k < key || (k == key && i < index))
        };
        let position = self
            .items
            .iter()
            .take(self.len)
            .take_while(|s| before(s))
            .count();
        if position >= keep {
            return;
        }
        let end = (self.len + 1).min(keep);
        if let Some(moved) = self.items.get_mut(position..end) {
            // The entry past the kept ones (or an empty slot) comes round to the front.
            moved.rotate_right(1);
            if let Some(first) = moved.first_mut() {
                *first = Some((key, index, item));
            }
        }
        self.len = end;
    }

    fn iter(&self) -> impl Iterator<Item = (usize, T)> + '_ {
        self.items
            .iter()
            .take(self.len)
            .filter_map(|slot| slot.map(|(_, index, item)| (index, item)))
    }
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
    let (obstacles, walls) = (&world.obstacles, world.wall_index());
    let p = vehicle.position;
    if settings.obstacle_time_horizon > 0.0 {
        let reach = settings.obstacle_time_horizon * vehicle.max_speed + vehicle.radius;
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
        for (_, obstacle) in nearest.iter() {
            lines.push(obstacle_orca_line(
                vehicle,
                &obstacle,
                settings.obstacle_time_horizon,
                dt,
            ));
        }
        let mut buffer = [WallPoint::default(); MAX_RECIPROCAL_WALLS];
        let contacts = walls.nearest_several(p, reach, &mut buffer);
        for (at, contact) in contacts.iter().enumerate() {
            // A corner shared by two segments of a wall bounds them both once.
            let seen = contacts
                .get(..at)
                .is_some_and(|earlier| earlier.iter().any(|e| e.point == contact.point));
            let Some(&segment) = walls.segments().get(contact.segment) else {
                continue;
            };
            if !seen {
                lines.push(wall_orca_line(
                    vehicle,
                    contact.point,
                    segment,
                    settings.obstacle_time_horizon,
                    dt,
                ));
            }
        }
        lines.obstacles = lines.len;
    }
    if settings.time_horizon > 0.0 {
        let radius_squared = settings.neighbor_radius * settings.neighbor_radius;
        let mut nearest: Nearest<&Vehicle, MAX_RECIPROCAL_NEIGHBORS> = Nearest::new();
        for (other_index, other) in others {
            let distance_squared = (other.position - p).length_squared();
            if other_index != index && distance_squared < radius_squared {
                nearest.offer(distance_squared, other_index, other, settings.max_neighbors);
            }
        }
        for (other_index, other) in nearest.iter() {
            lines.push(agent_orca_line(
                vehicle,
                other,
                settings.time_horizon,
                dt,
                index < other_index,
            ));
        }
    }
    lines
}

/// What the linear program optimizes.
#[derive(Clone, Copy)]
enum Goal {
    /// The velocity nearest this one.
    Nearest(Vec2),
    /// The velocity farthest along this unit direction.
    Farthest(Vec2),
}

/// The best velocity on the boundary of line `index`, within the disc of radius `max_speed`
/// and the half-planes before it; `None` when they leave none.
fn best_on_line(lines: &[OrcaLine], index: usize, max_speed: f32, goal: Goal) -> Option<Vec2> {
    let line = *lines.get(index)?;
    let along = line.point.dot(line.direction);
    let discriminant = along * along + max_speed * max_speed - line.point.length_squared();
    if discriminant < 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    let mut t_left = -along - root;
    let mut t_right = -along + root;
    for earlier in lines.get(..index).unwrap_or(&[]) {
        let denominator = det(line.direction, earlier.direction);
        let numerator = det(earlier.direction, line.point - earlier.point);
        if denominator.abs() <= PARALLEL {
            if numerator < 0.0 {
                return None;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            t_right = t_right.min(t);
        } else {
            t_left = t_left.max(t);
        }
        if t_left > t_right {
            return None;
        }
    }
    let t = match goal {
        Goal::Farthest(direction) => {
            if direction.dot(line.direction) > 0.0 {
                t_right
            } else {
                t_left
            }
        }
        Goal::Nearest(velocity) => line
            .direction
            .dot(velocity - line.point)
            .clamp(t_left, t_right),
    };
    Some(line.point + line.direction * t)
}

/// Incremental 2D linear program: the best velocity within the disc of radius `max_speed`
/// and every half-plane. Returns it with the number of lines satisfied: `lines.len()` on
/// success, else the index of the first line that could not be met (the velocity then meets
/// the lines before it).
fn best_within(lines: &[OrcaLine], max_speed: f32, goal: Goal) -> (Vec2, usize) {
    let mut result = match goal {
        Goal::Farthest(direction) => direction * max_speed,
        Goal::Nearest(velocity) => truncate(velocity, max_speed),
    };
    for (index, line) in lines.iter().enumerate() {
        if line.violation(result) > 0.0 {
            match best_on_line(lines, index, max_speed, goal) {
                Some(better) => result = better,
                None => return (result, index),
            }
        }
    }
    (result, lines.len())
}

/// The fallback when the half-planes leave no velocity: from line `begin` on, the velocity
/// within the disc that minimizes the largest violation of the agent lines, keeping the first
/// `obstacles` lines hard (a 3D linear program solved as a sequence of 2D ones).
fn least_violation(
    lines: &[OrcaLine],
    obstacles: usize,
    begin: usize,
    max_speed: f32,
    start: Vec2,
) -> Vec2 {
    let mut result = start;
    let mut distance = 0.0;
    for (index, line) in lines.iter().enumerate().skip(begin) {
        if line.violation(result) <= distance {
            continue;
        }
        let mut projected = OrcaLines::default();
        for hard in lines.iter().take(obstacles) {
            projected.push(*hard);
        }
        for other in lines.get(obstacles..index).unwrap_or(&[]) {
            let determinant = det(line.direction, other.direction);
            let point = if determinant.abs() <= PARALLEL {
                if line.direction.dot(other.direction) > 0.0 {
                    // Same direction: the other line adds nothing here.
                    continue;
                }
                (line.point + other.point) * 0.5
            } else {
                line.point
                    + line.direction
                        * (det(other.direction, line.point - other.point) / determinant)
            };
            projected.push(OrcaLine {
                point,
                direction: normalize(other.direction - line.direction),
            });
        }
        let towards = Vec2::new(-line.direction.y, line.direction.x);
        let (candidate, met) =
            best_within(projected.as_slice(), max_speed, Goal::Farthest(towards));
        if met == projected.as_slice().len() {
            result = candidate;
        }
        distance = line.violation(result);
    }
    result
}

/// The velocity nearest `preferred` within the disc of radius `max_speed` and every
/// half-plane of `lines`, and whether the fallback (least violation) was needed.
pub fn solve_orca(lines: &OrcaLines, max_speed: f32, preferred: Vec2) -> (Vec2, bool) {
    let all = lines.as_slice();
    let (result, met) = best_within(all, max_speed, Goal::Nearest(preferred));
    if met < all.len() {
        (
            least_violation(all, lines.obstacle_count(), met, max_speed, result),
            true,
        )
    } else {
        (result, false)
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
    if !(dt > 0.0 && dt.is_finite()) {
        return OrcaSolution {
            preferred: vehicle.velocity,
            chosen: vehicle.velocity,
            lines: OrcaLines::default(),
            fallback: false,
        };
    }
    let preferred = preferred_velocity(vehicle, force, dt);
    let lines = orca_lines(vehicle, index, others, world, settings, dt);
    let (chosen, fallback) = solve_orca(&lines, vehicle.max_speed, preferred);
    OrcaSolution {
        preferred,
        chosen,
        lines,
        fallback,
    }
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
