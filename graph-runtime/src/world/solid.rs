//! Solid walls: a step that would cross a wall is stopped at it and slides along it, as a
//! character controller moves, so an agent is never stepped through a wall whatever its
//! speed, force and `dt` (`BEHAVIORS.md`, "Solid walls").

use glam::Vec2;

use super::WallIndex;
use crate::Vehicle;

/// How far from a wall's line a stopped step ends, on the side it came from (units): enough
/// that the next step's ray starts clearly off the line at coordinates up to about 10,000.
pub const WALL_SKIN: f32 = 1e-3;

/// Keeps the step of `vehicle` from `from` to its position on the side of the walls it started
/// on: stopped [`WALL_SKIN`] before the first wall crossed, then the rest of the step along
/// that wall, stopped again at a second wall; the velocity loses its part into each wall met.
/// Returns whether the step was blocked (it would have crossed a wall). A step that starts
/// on a wall's line is not blocked by that wall, as a crossing is not counted for it.
pub(crate) fn keep_to_its_side(walls: &WallIndex, from: Vec2, vehicle: &mut Vehicle) -> bool {
    let crossing = |a: Vec2, b: Vec2| walls.ray_cast(a, b).filter(|hit| hit.distance > 0.0);
    let Some(hit) = crossing(from, vehicle.position) else {
        return false;
    };
    let stop = hit.point + hit.normal * WALL_SKIN;
    let rest = vehicle.position - stop;
    let mut end = stop + (rest - hit.normal * rest.dot(hit.normal));
    vehicle.velocity = without_part_into(vehicle.velocity, hit.normal);
    if let Some(second) = crossing(stop, end) {
        end = second.point + second.normal * WALL_SKIN;
        vehicle.velocity = without_part_into(vehicle.velocity, second.normal);
    }
    // The corner of two walls can still leave the straight step crossing one (an acute
    // corner): the agent then stays where it was, which crosses nothing.
    if crossing(from, end).is_some() || crossing(stop, end).is_some() || !end.is_finite() {
        end = from;
    }
    vehicle.position = end;
    true
}

/// `velocity` without its part against `normal` (the wall's normal on the agent's side).
fn without_part_into(velocity: Vec2, normal: Vec2) -> Vec2 {
    let into = velocity.dot(normal);
    if into < 0.0 {
        velocity - normal * into
    } else {
        velocity
    }
}
