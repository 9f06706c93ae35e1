//! Jump (`BEHAVIORS.md`, "Jump"): the flight a link needs, whether the agent can make it,
//! the run-up that brings the agent to the take-off point at the take-off velocity, when it
//! takes off, and its height in flight.

use glam::Vec2;

use super::{match_velocity, seek};
use crate::math::{TINY, normalize};
use crate::{JumpLink, Vehicle};

/// How a jump is made: its gravity, its largest vertical take-off speed, and the run-up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JumpSettings {
    /// Gravity (units / s², `> 0`), acting on the height alone.
    pub gravity: f32,
    /// The vertical take-off speed (units / s, `>= 0`).
    pub max_vertical_velocity: f32,
    /// How close to the take-off point the agent must be to take off (units, `>= 0`).
    pub position_tolerance: f32,
    /// How close to the take-off velocity its velocity must be (units / s, `>= 0`).
    pub velocity_tolerance: f32,
    /// Length of the straight run-up before the take-off point (units, `>= 0`).
    pub run_up: f32,
    /// `MatchVelocity`'s time to target during the run-up (s, `> 0`).
    pub time_to_target: f32,
}

/// The flight a link needs: the planar take-off velocity, the vertical one and the time in
/// the air.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JumpPlan {
    /// The planar velocity kept through the flight, `Δ / t` (units / s).
    pub velocity: Vec2,
    /// The vertical take-off velocity (units / s): the settings' maximum.
    pub vertical_velocity: f32,
    /// Time in the air (s, `> 0`).
    pub flight_time: f32,
}

/// The flight from `link.from` to `link.to` under `gravity` with vertical take-off speed
/// `max_vertical_velocity`, for an agent of top speed `max_speed`, or `None` when the jump
/// is not achievable.
///
/// The flight time is a positive root `t` of `Δh = vmax · t - g · t² / 2` (`Δh` the landing's
/// height above the take-off): the smaller root if the planar velocity `Δ / t` it needs is
/// within `max_speed`, else the larger under the same test. No positive root passing the test
/// (the landing too high for `vmax`, or too far for `max_speed`): not achievable.
pub fn jump_plan(
    link: &JumpLink,
    gravity: f32,
    max_vertical_velocity: f32,
    max_speed: f32,
) -> Option<JumpPlan> {
    let (g, vmax) = (gravity, max_vertical_velocity);
    if !(g > 0.0 && g.is_finite() && vmax.is_finite()) {
        return None;
    }
    let delta = link.to - link.from;
    let rise = link.to_height - link.from_height;
    let discriminant = vmax * vmax - 2.0 * g * rise;
    if discriminant.is_nan() || discriminant < 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    [(vmax - root) / g, (vmax + root) / g]
        .into_iter()
        .filter(|&t| t > 0.0 && t.is_finite())
        .map(|t| (t, delta / t))
        .find(|(_, velocity)| velocity.length() <= max_speed && velocity.is_finite())
        .map(|(flight_time, velocity)| JumpPlan {
            velocity,
            vertical_velocity: vmax,
            flight_time,
        })
}

/// The height above the ground `seconds` after take-off from a point at height `from_height`
/// with vertical velocity `vertical_velocity` under `gravity`: `ha + vmax · s - g · s² / 2`.
pub fn flight_height(from_height: f32, vertical_velocity: f32, gravity: f32, seconds: f32) -> f32 {
    from_height + vertical_velocity * seconds - 0.5 * gravity * seconds * seconds
}

/// Whether the agent takes off now: within `position_tolerance` of the take-off point and
/// within `velocity_tolerance` of the take-off velocity (two discs).
pub fn ready_to_take_off(
    me: &Vehicle,
    link: &JumpLink,
    plan: &JumpPlan,
    settings: &JumpSettings,
) -> bool {
    me.position.distance(link.from) <= settings.position_tolerance
        && me.velocity.distance(plan.velocity) <= settings.velocity_tolerance
}

/// The share of its largest acceleration (`max_force / mass`) an agent is counted on to put
/// along the line of the jump during its run-up (the rest corrects its offset from the line).
pub const RUN_UP_ACCELERATION: f32 = 0.8;

/// How far before the take-off point an agent going `me.velocity` needs to start for its speed
/// along `along` to become the take-off speed `speed` there, accelerating at
/// [`RUN_UP_ACCELERATION`] of its largest: `|speed² - w²| / (2 a)` for `w = v · along >= 0`,
/// `(speed² - w²) / (2 a)` for `w < 0` (it turns first, backing away while it slows), so
/// negative when it moves away faster than the take-off speed. Infinite for an agent that
/// cannot accelerate.
pub fn run_up_room(me: &Vehicle, along: Vec2, speed: f32) -> f32 {
    let acceleration = RUN_UP_ACCELERATION * me.max_force / me.mass;
    if !(acceleration > 0.0 && acceleration.is_finite()) {
        return f32::INFINITY;
    }
    let w = me.velocity.dot(along);
    let change = speed * speed - w * w;
    let change = if w >= 0.0 { change.abs() } else { change };
    change / (2.0 * acceleration)
}

/// The run-up's force. Along the line of the jump (`u = normalize(Δ)`), with the agent at
/// `s = (p - a) · u` past the take-off point `a` and `e = (p - a) - s · u` off the line:
///
/// - past the take-off point by more than the position tolerance (it missed the take-off), or
///   too close before it to reach the take-off speed there (`-s + position_tolerance <`
///   [`run_up_room`]: it came in from the side, or slowly): Seek the start of the run-up,
///   `a - u · run_up`;
/// - otherwise `MatchVelocity` of `Δ / t - e / T`, where `T = max(run_up / |Δ / t|, 0.1)` s is
///   the time the run-up takes: the take-off velocity, with the offset from the line taken
///   out over the run-up. On the line (`e = 0`) it is `MatchVelocity`(`Δ / t`) exactly.
pub fn jump_run_up(
    me: &Vehicle,
    link: &JumpLink,
    plan: &JumpPlan,
    settings: &JumpSettings,
) -> Vec2 {
    let delta = link.to - link.from;
    let along = normalize(delta);
    let offset = me.position - link.from;
    let past = offset.dot(along);
    let speed = plan.velocity.length();
    let back_to_start = past > settings.position_tolerance
        || -past + settings.position_tolerance < run_up_room(me, along, speed);
    if along != Vec2::ZERO && back_to_start {
        return seek(me, link.from - along * settings.run_up);
    }
    let off_line = offset - along * past;
    let run_up_time = if speed > TINY {
        (settings.run_up / speed).max(0.1)
    } else {
        0.1
    };
    let target = if off_line == Vec2::ZERO {
        plan.velocity
    } else {
        plan.velocity - off_line / run_up_time
    };
    match_velocity(me, target, settings.time_to_target)
}
