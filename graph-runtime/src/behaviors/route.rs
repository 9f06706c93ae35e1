//! Wander and path following, with the aims their guides draw (`BEHAVIORS.md`).

use glam::Vec2;

use super::{arrival, seek};
use crate::math::{TINY, rotate};
use crate::world::{FlowField, Path, Projection};
use crate::{AgentRng, Vehicle};

/// Wander's angle step: one draw from the agent's stream turns the aim angle by up to
/// `jitter` radians per second over `dt` (`BEHAVIORS.md`, "Wander"); returns the turn.
#[inline]
pub fn wander_turn(rng: &mut AgentRng, jitter: f32, dt: f32) -> f32 {
    rng.signed_unit() * jitter * dt
}

/// The centre of the wander circle: `p + forward * distance`.
#[inline]
pub fn wander_center(vehicle: &Vehicle, distance: f32) -> Vec2 {
    vehicle.position + vehicle.forward * distance
}

/// The wander aim point: `p + forward * distance + radius * rotate(forward, theta)`.
#[inline]
pub fn wander_aim(vehicle: &Vehicle, theta: f32, distance: f32, radius: f32) -> Vec2 {
    wander_center(vehicle, distance) + radius * rotate(vehicle.forward, theta)
}

/// Seek the wander aim point for the (already updated) angle `theta` in radians.
#[inline]
pub fn wander(vehicle: &Vehicle, theta: f32, distance: f32, radius: f32) -> Vec2 {
    seek(vehicle, wander_aim(vehicle, theta, distance, radius))
}

/// What path following steers to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathSteer {
    /// Seek this point of the path.
    Seek(Vec2),
    /// Arrive at this end of an open path (the end of travel), slowing within the ahead
    /// distance.
    Arrive(Vec2),
}

impl PathSteer {
    /// The point steered to.
    pub fn point(self) -> Vec2 {
        match self {
            Self::Seek(point) | Self::Arrive(point) => point,
        }
    }
}

/// The geometry of one path-following evaluation, shared by the force and the debug guides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathFollowingAim {
    /// The position predicted `prediction_time` ahead, `p + v * prediction_time`.
    pub predicted: Vec2,
    /// Its nearest point on the path.
    pub projection: Projection,
    /// What to steer to; `None` while a corrective follower's prediction is within the path's
    /// radius.
    pub steer: Option<PathSteer>,
}

/// Where path following steers (`BEHAVIORS.md`, "`PathFollowing`"). `direction` is `+1` or
/// `-1`. `None` for a path that is not usable (no points, a non-finite point, an overflowing
/// length) or a prediction that is not finite.
pub fn path_following_aim(
    vehicle: &Vehicle,
    path: &Path,
    prediction_time: f32,
    ahead_distance: f32,
    direction: f32,
    corrective: bool,
) -> Option<PathFollowingAim> {
    let predicted = future_position(vehicle, prediction_time);
    let projection = path.project(predicted)?;
    let steer = if corrective && predicted.distance(projection.point) <= path.radius {
        None
    } else {
        let wanted = projection.distance_along + direction * ahead_distance;
        if !path.closed
            && (wanted >= path.length() && direction > 0.0 || wanted <= 0.0 && direction < 0.0)
        {
            Some(PathSteer::Arrive(path.end(direction)?))
        } else {
            Some(PathSteer::Seek(path.point_at(wanted)?))
        }
    };
    Some(PathFollowingAim {
        predicted,
        projection,
        steer,
    })
}

/// Path following (`BEHAVIORS.md`, "`PathFollowing`"): seek the aim of
/// [`path_following_aim`], or arrive at the end of travel of an open path. `direction` is `+1`
/// or `-1`.
///
/// Returns zero for a path that is not usable, or when `corrective` and the predicted
/// position is within the path's radius.
pub fn path_following(
    vehicle: &Vehicle,
    path: &Path,
    prediction_time: f32,
    ahead_distance: f32,
    direction: f32,
    corrective: bool,
) -> Vec2 {
    let aim = path_following_aim(
        vehicle,
        path,
        prediction_time,
        ahead_distance,
        direction,
        corrective,
    );
    match aim.and_then(|aim| aim.steer) {
        None => Vec2::ZERO,
        Some(PathSteer::Seek(point)) => seek(vehicle, point),
        Some(PathSteer::Arrive(end)) => arrival(vehicle, end, ahead_distance),
    }
}

/// The position `prediction_time` seconds ahead at the current velocity: `p + v * t`.
#[inline]
pub fn future_position(vehicle: &Vehicle, prediction_time: f32) -> Vec2 {
    vehicle.position + vehicle.velocity * prediction_time
}

/// Match the flow field's velocity at the position predicted `prediction_time` ahead:
/// `F = w * max_speed - v`; zero where the field is (almost) zero or absent.
pub fn flow_field_following(vehicle: &Vehicle, field: &FlowField, prediction_time: f32) -> Vec2 {
    let wanted = field.sample(future_position(vehicle, prediction_time));
    if wanted.length() < TINY {
        return Vec2::ZERO;
    }
    wanted * vehicle.max_speed - vehicle.velocity
}

/// The leg of a planned route (the stretch from `points[leg]` to `points[leg + 1]`) an agent
/// at `position` is on, from the leg it was on, `leg`: it moves on while the next leg is at
/// least as near as the one it is on, so an agent that cut a corner is past it, and never
/// goes back (a route that doubles back round a thin wall is not cut through it).
/// `BEHAVIORS.md`, "`Navigate`".
pub fn route_leg(position: Vec2, points: &[Vec2], leg: usize) -> usize {
    let last = points.len().saturating_sub(2);
    let mut leg = leg.min(last);
    while leg < last
        && distance_to_leg(position, points, leg + 1) <= distance_to_leg(position, points, leg)
    {
        leg += 1;
    }
    leg
}

/// How far `position` is from leg `leg` of a route (the distance to the route's only point
/// for a route of one point, zero for none).
pub fn distance_to_leg(position: Vec2, points: &[Vec2], leg: usize) -> f32 {
    match (points.get(leg), points.get(leg + 1)) {
        (Some(&a), Some(&b)) => position.distance(crate::world::nearest_on_segment(position, a, b)),
        (Some(&a), None) => position.distance(a),
        _ => 0.0,
    }
}

/// Where route following steers on leg `leg` of `points`: the point `ahead_distance` further
/// along the leg than the agent's nearest point of it, but never past the leg's end corner (a
/// corner lies a radius from a wall's end: aiming past it would cut the corner into the
/// wall); on the last leg, when that point lies past the route's end, the end, arrived at.
/// `None` for a route of no points.
pub fn route_aim(
    position: Vec2,
    points: &[Vec2],
    leg: usize,
    ahead_distance: f32,
) -> Option<PathSteer> {
    let end = *points.last()?;
    if points.len() < 2 {
        return Some(PathSteer::Arrive(end));
    }
    let leg = leg.min(points.len() - 2);
    let corner = points[leg + 1];
    let from = crate::world::nearest_on_segment(position, points[leg], corner);
    let span = from.distance(corner);
    if span > ahead_distance {
        Some(PathSteer::Seek(
            from + (corner - from) * (ahead_distance / span),
        ))
    } else if leg + 2 == points.len() {
        Some(PathSteer::Arrive(end))
    } else {
        Some(PathSteer::Seek(corner))
    }
}

/// Route following (`BEHAVIORS.md`, "`Navigate`"): seek [`route_aim`]'s point, or arrive at
/// the route's end slowing within `slowing_distance`. Zero for a route of no points.
pub fn route_following(
    vehicle: &Vehicle,
    points: &[Vec2],
    leg: usize,
    ahead_distance: f32,
    slowing_distance: f32,
) -> Vec2 {
    match route_aim(vehicle.position, points, leg, ahead_distance) {
        None => Vec2::ZERO,
        Some(PathSteer::Seek(point)) => seek(vehicle, point),
        Some(PathSteer::Arrive(end)) => arrival(vehicle, end, slowing_distance),
    }
}
