use glam::Vec2;

use super::{Quarry, arrival};
use crate::Vehicle;
use crate::math::{TINY, local, normalize, sign};

/// How far below `cos(fov / 2)` the cosine of a neighbor's angle may be and still count as on
/// the edge of the view (`BEHAVIORS.md`, "Neighborhoods"). f32 rounding of positions, of the
/// distance and of `cos(135 degrees)` moves the computed cosine of an exact-edge neighbor by a
/// few `1e-7`; this keeps such a neighbor (every diagonal neighbor behind an agent on a grid,
/// for the default 270 degrees) inside the view.
pub const FOV_COSINE_TOLERANCE: f32 = 1e-6;

/// A field of view, prepared once per evaluation from its angle in degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldOfView {
    /// `cos(fov / 2) - FOV_COSINE_TOLERANCE`; `None` for a full circle (`fov >= 360`).
    min_cosine: Option<f32>,
    /// The angle it was made from, in degrees.
    degrees: f32,
}

impl FieldOfView {
    /// A field of view of `degrees` (`>= 360` sees everything; negative or NaN sees only
    /// straight ahead, like `0`).
    pub fn from_degrees(degrees: f32) -> Self {
        if degrees >= 360.0 {
            Self {
                min_cosine: None,
                degrees,
            }
        } else {
            Self {
                min_cosine: Some(
                    (degrees.max(0.0).to_radians() * 0.5).cos() - FOV_COSINE_TOLERANCE,
                ),
                degrees,
            }
        }
    }

    /// The angle in degrees.
    pub fn degrees(self) -> f32 {
        self.degrees
    }

    /// Whether `offset` (from the agent to the other) is within the view around `forward`:
    /// `forward · offset >= (cos(fov / 2) - 1e-6) * |offset|`, so a neighbor exactly on the
    /// edge counts. A coincident agent (`|offset| < 1e-6`) counts as seen.
    #[inline]
    pub fn sees(self, forward: Vec2, offset: Vec2) -> bool {
        let Some(min_cosine) = self.min_cosine else {
            return true;
        };
        let distance = offset.length();
        distance < TINY || forward.dot(offset) >= min_cosine * distance
    }
}

/// The neighborhood test (`BEHAVIORS.md`, "Neighborhoods"): `|q.p - p| < radius` and within the field of view.
#[inline]
pub fn in_neighborhood(vehicle: &Vehicle, other: Vec2, radius: f32, fov: FieldOfView) -> bool {
    let offset = other - vehicle.position;
    offset.length_squared() < radius * radius && fov.sees(vehicle.forward, offset)
}

/// `F = Σ (p - q.p) / |p - q.p|²` over the neighbors, skipping coincident ones.
pub fn separation<'a>(vehicle: &Vehicle, neighbors: impl IntoIterator<Item = &'a Vehicle>) -> Vec2 {
    let mut force = Vec2::ZERO;
    for other in neighbors {
        let away = vehicle.position - other.position;
        let distance_squared = away.length_squared();
        if distance_squared.sqrt() < TINY {
            continue;
        }
        force += away / distance_squared;
    }
    force
}

/// `F = mean(q.p) - p`; no neighbors: zero.
pub fn cohesion<'a>(vehicle: &Vehicle, neighbors: impl IntoIterator<Item = &'a Vehicle>) -> Vec2 {
    let (sum, count) = neighbors
        .into_iter()
        .fold((Vec2::ZERO, 0u32), |(sum, count), other| {
            (sum + other.position, count + 1)
        });
    if count == 0 {
        Vec2::ZERO
    } else {
        sum / count as f32 - vehicle.position
    }
}

/// `F = mean(q.v) - v`; no neighbors: zero.
pub fn alignment<'a>(vehicle: &Vehicle, neighbors: impl IntoIterator<Item = &'a Vehicle>) -> Vec2 {
    let (sum, count) = neighbors
        .into_iter()
        .fold((Vec2::ZERO, 0u32), |(sum, count), other| {
            (sum + other.velocity, count + 1)
        });
    if count == 0 {
        Vec2::ZERO
    } else {
        sum / count as f32 - vehicle.velocity
    }
}

/// `F = w_sep · normalize(Sep) + w_coh · normalize(Coh) + w_ali · normalize(Ali)` over one
/// neighborhood, in one pass.
pub fn flocking<'a>(
    vehicle: &Vehicle,
    neighbors: impl IntoIterator<Item = &'a Vehicle>,
    separation_weight: f32,
    cohesion_weight: f32,
    alignment_weight: f32,
) -> Vec2 {
    let mut separation = Vec2::ZERO;
    let mut position_sum = Vec2::ZERO;
    let mut velocity_sum = Vec2::ZERO;
    let mut count = 0u32;
    for other in neighbors {
        let away = vehicle.position - other.position;
        let distance_squared = away.length_squared();
        if distance_squared.sqrt() >= TINY {
            separation += away / distance_squared;
        }
        position_sum += other.position;
        velocity_sum += other.velocity;
        count += 1;
    }
    if count == 0 {
        return Vec2::ZERO;
    }
    let n = count as f32;
    let cohesion = position_sum / n - vehicle.position;
    let alignment = velocity_sum / n - vehicle.velocity;
    separation_weight * normalize(separation)
        + cohesion_weight * normalize(cohesion)
        + alignment_weight * normalize(alignment)
}

/// Step aside at full force when inside the leader's sight zone
/// (`0 < l.x < sight_length`, `|l.y| < sight_width / 2` in the leader's frame); otherwise
/// arrive at the point `behind` units behind the leader.
pub fn leader_following(
    vehicle: &Vehicle,
    leader: &Quarry,
    behind: f32,
    slowing_distance: f32,
    sight_length: f32,
    sight_width: f32,
) -> Vec2 {
    let l = local(vehicle.position - leader.position, leader.forward);
    if l.x > 0.0 && l.x < sight_length && l.y.abs() < sight_width * 0.5 {
        return sign(l.y) * leader.forward.perp() * vehicle.max_force;
    }
    arrival(
        vehicle,
        leader_behind_point(leader, behind),
        slowing_distance,
    )
}

/// The point a follower arrives at: `behind` units behind the leader,
/// `leader.p - leader.forward * behind`.
#[inline]
pub fn leader_behind_point(leader: &Quarry, behind: f32) -> Vec2 {
    leader.position - leader.forward * behind
}
