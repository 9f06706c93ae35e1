//! Obstacle avoidance, containment and unaligned collision avoidance (`BEHAVIORS.md`).

use glam::Vec2;

use crate::Vehicle;
use crate::math::{TINY, local, normalize, sign};
use crate::world::{Obstacle, Rect};

/// The length of obstacle avoidance's detection corridor ahead of the vehicle:
/// `L = min_length + |v| * lookahead_time` (units).
#[inline]
pub fn detection_length(vehicle: &Vehicle, min_length: f32, lookahead_time: f32) -> f32 {
    min_length + vehicle.velocity.length() * lookahead_time
}

/// The most threatening obstacle in the detection corridor of length
/// [`detection_length`], with its local position, or `None`.
pub fn most_threatening_obstacle(
    vehicle: &Vehicle,
    obstacles: &[Obstacle],
    min_length: f32,
    lookahead_time: f32,
) -> Option<(usize, Vec2)> {
    let corridor = detection_length(vehicle, min_length, lookahead_time);
    let mut best: Option<(usize, Vec2, f32)> = None;
    for (index, obstacle) in obstacles.iter().enumerate() {
        let l = local(obstacle.center - vehicle.position, vehicle.forward);
        let reach = obstacle.radius + vehicle.radius;
        if l.x + obstacle.radius < 0.0 || l.x - obstacle.radius > corridor || l.y.abs() >= reach {
            continue;
        }
        let mut threat = l.x - (reach * reach - l.y * l.y).sqrt();
        if threat < 0.0 {
            threat = l.x;
        }
        if best.is_none_or(|(_, _, nearest)| threat < nearest) {
            best = Some((index, l, threat));
        }
    }
    best.map(|(index, l, _)| (index, l))
}

/// Full lateral force away from the most threatening obstacle:
/// `F = -sign(l.y) * side * max_force`; no threat: zero.
pub fn obstacle_avoidance(
    vehicle: &Vehicle,
    obstacles: &[Obstacle],
    min_length: f32,
    lookahead_time: f32,
) -> Vec2 {
    match most_threatening_obstacle(vehicle, obstacles, min_length, lookahead_time) {
        Some((_, l)) => -sign(l.y) * vehicle.side() * vehicle.max_force,
        None => Vec2::ZERO,
    }
}

/// The point containment seeks: the position predicted `prediction_time` ahead, clamped into
/// `bounds` shrunk by `margin`; `None` while the prediction is inside `bounds`.
pub fn containment_aim(
    vehicle: &Vehicle,
    bounds: &Rect,
    prediction_time: f32,
    margin: f32,
) -> Option<Vec2> {
    let predicted = super::future_position(vehicle, prediction_time);
    if bounds.contains(predicted) {
        return None;
    }
    Some(bounds.shrink(margin).clamp(predicted))
}

/// Seek back into `bounds` shrunk by `margin` when the position predicted `prediction_time`
/// ahead is outside `bounds` ([`containment_aim`]); zero while it is inside.
pub fn containment(vehicle: &Vehicle, bounds: &Rect, prediction_time: f32, margin: f32) -> Vec2 {
    containment_aim(vehicle, bounds, prediction_time, margin)
        .map_or(Vec2::ZERO, |aim| super::seek(vehicle, aim))
}

/// In a crowd so dense that an agent's query visits more than 256 agents, Unaligned collision
/// avoidance looks at this many of its candidates, the nearest (the lower index on a tie), in
/// ascending index (`BEHAVIORS.md`, "`UnalignedCollisionAvoidance`").
pub const UNALIGNED_CROWD_NEIGHBORS: usize = 64;

/// Steer away from the soonest predicted collision among `others` within `max_time`
/// (`BEHAVIORS.md`, "`UnalignedCollisionAvoidance`"); none: zero.
pub fn unaligned_collision_avoidance<'a>(
    vehicle: &Vehicle,
    others: impl IntoIterator<Item = &'a Vehicle>,
    max_time: f32,
) -> Vec2 {
    let p = vehicle.position;
    let v = vehicle.velocity;
    let own_reach = v.length() * max_time + vehicle.radius;
    let mut soonest: Option<(f32, &Vehicle)> = None;
    for other in others {
        let dp = other.position - p;
        let range = own_reach + other.radius + other.velocity.length() * max_time;
        if dp.length() >= range {
            continue;
        }
        let dv = other.velocity - v;
        let dv_squared = dv.length_squared();
        if dv.length() < TINY {
            continue;
        }
        let t = -dp.dot(dv) / dv_squared;
        if !(t > 0.0 && t <= max_time) {
            continue;
        }
        if (dp + dv * t).length() >= vehicle.radius + other.radius {
            continue;
        }
        if soonest.is_none_or(|(best, _)| t < best) {
            soonest = Some((t, other));
        }
    }
    let Some((t, other)) = soonest else {
        return Vec2::ZERO;
    };
    let mut away = (p + v * t) - (other.position + other.velocity * t);
    if away.length() < TINY {
        away = -(other.position - p);
    }
    normalize(away) * vehicle.max_force
}
