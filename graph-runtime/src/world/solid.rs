//! Solid walls: a step that would cross a wall is stopped at it and slides along it, as a
//! character controller moves, so an agent is never stepped through a wall whatever its
//! speed, force, `dt` and the walls' shape (`BEHAVIORS.md`, "Solid walls").
//!
//! The invariant: every position an agent is moved to is reached by a straight step that
//! meets no wall past its start ([`WallIndex::step_meets_a_wall`], decided exactly), so no
//! sequence of steps ends on the far side of a wall. The slide is worked out in `f32` as a
//! character controller would; whatever it proposes is kept only when the exact test passes,
//! and otherwise a shorter step is tried, down to not moving at all.

use glam::Vec2;

use super::WallIndex;
use crate::Vehicle;

/// How far from a wall's line a stopped step ends, on the side it came from (units): enough
/// that the next step's ray starts clearly off the line at coordinates up to about 10,000.
pub const WALL_SKIN: f32 = 1e-3;

/// Keeps the step of `vehicle` from `from` to its position on the side of the walls it started
/// on. A step that meets no wall is kept. Otherwise, when the ray cast finds the wall crossed
/// first, the step stops [`WALL_SKIN`] before it and the rest slides along that wall, stopped
/// again at a second wall; the velocity loses its part into each wall met. The first of these
/// ends whose straight step from `from` meets no wall is taken: the slide's end, the stop,
/// the point halfway to the wall (halfway along the step when rounding hid the wall from the
/// ray cast: a graze, an apex), else `from`. Returns whether the step was blocked. A step
/// that starts on a wall's line and leaves it is not blocked by that wall.
pub(crate) fn keep_to_its_side(walls: &WallIndex, from: Vec2, vehicle: &mut Vehicle) -> bool {
    let wanted = vehicle.position;
    if !walls.step_meets_a_wall(from, wanted) {
        return false;
    }
    let clear = |end: Vec2| end.is_finite() && !walls.step_meets_a_wall(from, end);
    let crossing = |a: Vec2, b: Vec2| walls.ray_cast(a, b).filter(|hit| hit.distance > 0.0);
    let end = match crossing(from, wanted) {
        Some(hit) => {
            let stop = hit.point + hit.normal * WALL_SKIN;
            let rest = wanted - stop;
            let mut slide = stop + (rest - hit.normal * rest.dot(hit.normal));
            vehicle.velocity = without_part_into(vehicle.velocity, hit.normal);
            if let Some(second) = crossing(stop, slide) {
                slide = second.point + second.normal * WALL_SKIN;
                vehicle.velocity = without_part_into(vehicle.velocity, second.normal);
            }
            [slide, stop, from.midpoint(hit.point)]
                .into_iter()
                .find(|&end| clear(end))
        }
        None => Some(from.midpoint(wanted)).filter(|&end| clear(end)),
    };
    vehicle.position = end.unwrap_or(from);
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
