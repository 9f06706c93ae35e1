//! Interpose and hide (`BEHAVIORS.md`).

use glam::Vec2;

use super::{Quarry, arrival};
use crate::Vehicle;
use crate::math::normalize;
use crate::world::Obstacle;

/// Arrive at the midpoint of `a` and `b` predicted `T = |m - p| / max_speed` ahead, where `m`
/// is their current midpoint.
pub fn interpose(vehicle: &Vehicle, a: &Quarry, b: &Quarry, slowing_distance: f32) -> Vec2 {
    arrival(vehicle, interpose_point(vehicle, a, b), slowing_distance)
}

/// The predicted midpoint interpose arrives at.
pub fn interpose_point(vehicle: &Vehicle, a: &Quarry, b: &Quarry) -> Vec2 {
    let midpoint = (a.position + b.position) * 0.5;
    let t = if vehicle.max_speed > 0.0 {
        midpoint.distance(vehicle.position) / vehicle.max_speed
    } else {
        0.0
    };
    ((a.position + a.velocity * t) + (b.position + b.velocity * t)) * 0.5
}

/// The hiding spot nearest to the vehicle: behind each obstacle as seen from the hunter, at
/// `r_o + radius + margin` from its centre. `None` without obstacles.
pub fn hiding_spot(
    vehicle: &Vehicle,
    hunter: Vec2,
    obstacles: &[Obstacle],
    margin: f32,
) -> Option<Vec2> {
    obstacles
        .iter()
        .map(|obstacle| {
            obstacle.center
                + normalize(obstacle.center - hunter) * (obstacle.radius + vehicle.radius + margin)
        })
        .min_by(|a, b| {
            a.distance_squared(vehicle.position)
                .total_cmp(&b.distance_squared(vehicle.position))
        })
}

/// Arrive at the nearest hiding spot; no obstacles: zero.
pub fn hide(
    vehicle: &Vehicle,
    hunter: Vec2,
    obstacles: &[Obstacle],
    margin: f32,
    slowing_distance: f32,
) -> Vec2 {
    hiding_spot(vehicle, hunter, obstacles, margin)
        .map_or(Vec2::ZERO, |spot| arrival(vehicle, spot, slowing_distance))
}
