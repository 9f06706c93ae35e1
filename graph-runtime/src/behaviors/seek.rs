//! Seek, flee and arrival (`BEHAVIORS.md`).

use glam::Vec2;

use crate::Vehicle;
use crate::math::{TINY, normalize};

/// `desired = normalize(target - p) * max_speed; F = desired - v`.
#[inline]
pub fn seek(vehicle: &Vehicle, target: Vec2) -> Vec2 {
    normalize(target - vehicle.position) * vehicle.max_speed - vehicle.velocity
}

/// Zero when `panic_distance` is set and the target is farther; else
/// `F = normalize(p - target) * max_speed - v`.
#[inline]
pub fn flee(vehicle: &Vehicle, target: Vec2, panic_distance: Option<f32>) -> Vec2 {
    if let Some(panic_distance) = panic_distance
        && vehicle.position.distance(target) > panic_distance
    {
        return Vec2::ZERO;
    }
    normalize(vehicle.position - target) * vehicle.max_speed - vehicle.velocity
}

/// Seek that slows linearly inside `slowing_distance` and stops on the target:
/// `F = o * (min(max_speed * d / slowing_distance, max_speed) / d) - v`, or `-v` on the target.
#[inline]
pub fn arrival(vehicle: &Vehicle, target: Vec2, slowing_distance: f32) -> Vec2 {
    let offset = target - vehicle.position;
    let distance = offset.length();
    if distance < TINY {
        return -vehicle.velocity;
    }
    let speed = (vehicle.max_speed * distance / slowing_distance).min(vehicle.max_speed);
    offset * (speed / distance) - vehicle.velocity
}
