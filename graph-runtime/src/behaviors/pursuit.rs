//! Pursuit, evasion and offset pursuit, with the prediction they share (`BEHAVIORS.md`).

use glam::Vec2;

use super::{Quarry, flee, seek};
use crate::Vehicle;
use crate::math::local;

/// `T = min(D / max_speed, max_prediction)`, or `max_prediction` when `max_speed = 0`.
#[inline]
pub fn prediction_time(vehicle: &Vehicle, quarry_position: Vec2, max_prediction: f32) -> f32 {
    if vehicle.max_speed <= 0.0 {
        return max_prediction;
    }
    (vehicle.position.distance(quarry_position) / vehicle.max_speed).min(max_prediction)
}

/// Where the quarry will be after the prediction time `T`: `q.p + q.v * T`.
#[inline]
pub fn predicted_position(vehicle: &Vehicle, quarry: &Quarry, max_prediction: f32) -> Vec2 {
    quarry.position + quarry.velocity * prediction_time(vehicle, quarry.position, max_prediction)
}

/// Seek the quarry's position predicted `T` seconds ahead.
#[inline]
pub fn pursuit(vehicle: &Vehicle, quarry: &Quarry, max_prediction: f32) -> Vec2 {
    seek(vehicle, predicted_position(vehicle, quarry, max_prediction))
}

/// Flee the quarry's position predicted `T` seconds ahead (with the same optional panic
/// distance as flee, measured to the predicted position).
#[inline]
pub fn evasion(
    vehicle: &Vehicle,
    quarry: &Quarry,
    max_prediction: f32,
    panic_distance: Option<f32>,
) -> Vec2 {
    flee(
        vehicle,
        predicted_position(vehicle, quarry, max_prediction),
        panic_distance,
    )
}

/// Seek a point beside the quarry's predicted position `P`, on the side the agent is already
/// on, at lateral distance `offset`: aim at `P - side * sign(l.y) * offset` with
/// `l = local(P - p)`.
#[inline]
pub fn offset_pursuit(
    vehicle: &Vehicle,
    quarry: &Quarry,
    offset: f32,
    max_prediction: f32,
) -> Vec2 {
    seek(
        vehicle,
        offset_pursuit_aim(vehicle, quarry, offset, max_prediction),
    )
}

/// The point offset pursuit steers to: beside the predicted position, on the agent's side.
pub fn offset_pursuit_aim(
    vehicle: &Vehicle,
    quarry: &Quarry,
    offset: f32,
    max_prediction: f32,
) -> Vec2 {
    let predicted = predicted_position(vehicle, quarry, max_prediction);
    let l = local(predicted - vehicle.position, vehicle.forward);
    let lateral = if l.y < 0.0 { -1.0 } else { 1.0 };
    predicted - vehicle.side() * lateral * offset
}
