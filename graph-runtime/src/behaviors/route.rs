use glam::Vec2;

use super::{arrival, seek};
use crate::Vehicle;
use crate::math::{TINY, rotate};
use crate::world::{FlowField, Path};

/// The wander aim point: `p + forward * distance + radius * rotate(forward, theta)`.
#[inline]
pub fn wander_aim(vehicle: &Vehicle, theta: f32, distance: f32, radius: f32) -> Vec2 {
    vehicle.position + vehicle.forward * distance + radius * rotate(vehicle.forward, theta)
}

/// Seek the wander aim point for the (already updated) angle `theta` in radians.
#[inline]
pub fn wander(vehicle: &Vehicle, theta: f32, distance: f32, radius: f32) -> Vec2 {
    seek(vehicle, wander_aim(vehicle, theta, distance, radius))
}

/// Path following (contract "`PathFollowing`"). `direction` is `+1` or `-1`.
///
/// Returns zero for a path without points, or when `corrective` and the predicted position is
/// within the path's radius.
pub fn path_following(
    vehicle: &Vehicle,
    path: &Path,
    prediction_time: f32,
    ahead_distance: f32,
    direction: f32,
    corrective: bool,
) -> Vec2 {
    let predicted = vehicle.position + vehicle.velocity * prediction_time;
    let Some(projection) = path.project(predicted) else {
        return Vec2::ZERO;
    };
    if corrective && predicted.distance(projection.point) <= path.radius {
        return Vec2::ZERO;
    }
    let wanted = projection.distance_along + direction * ahead_distance;
    if !path.closed
        && (wanted >= path.length() && direction > 0.0 || wanted <= 0.0 && direction < 0.0)
    {
        let Some(end) = path.end(direction) else {
            return Vec2::ZERO;
        };
        return arrival(vehicle, end, ahead_distance);
    }
    path.point_at(wanted)
        .map_or(Vec2::ZERO, |aim| seek(vehicle, aim))
}

/// Match the flow field's velocity at the position predicted `prediction_time` ahead:
/// `F = w * max_speed - v`; zero where the field is (almost) zero or absent.
pub fn flow_field_following(vehicle: &Vehicle, field: &FlowField, prediction_time: f32) -> Vec2 {
    let predicted = vehicle.position + vehicle.velocity * prediction_time;
    let wanted = field.sample(predicted);
    if wanted.length() < TINY {
        return Vec2::ZERO;
    }
    wanted * vehicle.max_speed - vehicle.velocity
}
