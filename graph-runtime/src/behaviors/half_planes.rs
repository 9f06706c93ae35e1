//! The half-planes of Reciprocal (`BEHAVIORS.md`, "Reciprocal": the half-planes and the tie
//! rule): what each neighbor, circle obstacle and wall segment forbids.

use glam::Vec2;

use super::orca_lines::{OrcaLine, det};
use crate::Vehicle;
use crate::math::{TINY, normalize};
use crate::world::{Obstacle, facing_normal};

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
/// `point = v + u / 2`, for the combined radius `radius + other.radius + clearance`.
/// `lower_index` says whether `vehicle` has the lower agent index of the two: when their
/// centres coincide and they move alike, it is pushed along `-x` and the other along `+x`.
pub fn agent_orca_line(
    vehicle: &Vehicle,
    other: &Vehicle,
    time_horizon: f32,
    clearance: f32,
    dt: f32,
    lower_index: bool,
) -> OrcaLine {
    let tie = if lower_index { -Vec2::X } else { Vec2::X };
    let (direction, u) = leave_velocity_obstacle(
        other.position - vehicle.position,
        vehicle.velocity - other.velocity,
        vehicle.radius + other.radius + clearance,
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
/// all of the avoidance: `point = v + u`, for the combined radius `radius + obstacle radius +
/// clearance`. On the circle's centre at rest, it is pushed along `+x`.
pub fn obstacle_orca_line(
    vehicle: &Vehicle,
    obstacle: &Obstacle,
    obstacle_time_horizon: f32,
    clearance: f32,
    dt: f32,
) -> OrcaLine {
    let (direction, u) = leave_velocity_obstacle(
        obstacle.center - vehicle.position,
        vehicle.velocity,
        vehicle.radius + obstacle.radius + clearance,
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
/// radius + clearance`, the agent may approach that line at most `(d - R) / obstacle_time_horizon`
/// (`(d - R) / dt` when already closer than `R`, which moves it out within one tick):
/// `v · n >= (R - d) / horizon`. An agent on the segment takes for `n` the segment's normal
/// that its heading meets (see "Walls"), or `-forward` for a segment of length zero.
pub fn wall_orca_line(
    vehicle: &Vehicle,
    nearest: Vec2,
    segment: (Vec2, Vec2),
    obstacle_time_horizon: f32,
    clearance: f32,
    dt: f32,
) -> OrcaLine {
    let p = vehicle.position;
    let reach = vehicle.radius + clearance;
    let offset = p - nearest;
    let distance = offset.length();
    let mut n = normalize(offset);
    if n == Vec2::ZERO {
        n = facing_normal(p, vehicle.forward, segment.0, segment.1);
    }
    if n == Vec2::ZERO {
        n = -vehicle.forward;
    }
    let gap = reach - distance;
    let least = if distance > reach {
        gap / obstacle_time_horizon
    } else {
        gap / dt
    };
    OrcaLine {
        point: n * least,
        direction: Vec2::new(n.y, -n.x),
    }
}
