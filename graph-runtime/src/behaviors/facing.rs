//! The angular layer's behaviors (`BEHAVIORS.md`, "The angular layer"): `ReachOrientation`
//! ("arrival for angles") and the two that delegate to it, Face and `LookWhereYouAreGoing`;
//! `MatchVelocity`; and Wander's facing variant. Each angular behavior returns the angular
//! acceleration `τ` (radians / s²); `MatchVelocity` a linear force.

use glam::Vec2;

use super::wander_aim;
use crate::math::{TINY, angle, sign, truncate, wrap};
use crate::{Steering, Vehicle};

/// How `ReachOrientation` (and Face, `LookWhereYouAreGoing`) settles on an angle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Alignment {
    /// Within this angle of the target (radians, `>= 0`) the facing counts as aligned and
    /// only its spin is braked.
    pub tolerance: f32,
    /// Within this angle (radians, `>= 0`) the wanted angular speed falls in proportion to
    /// the angle left.
    pub deceleration_radius: f32,
    /// Time to reach the wanted angular speed (s, `> 0`).
    pub time_to_target: f32,
}

impl Alignment {
    /// The seed's defaults: aligned within 1°, slowing within 30°, 0.1 s to target.
    pub const DEFAULT: Self = Self {
        tolerance: 1f32.to_radians(),
        deceleration_radius: 30f32.to_radians(),
        time_to_target: 0.1,
    };
}

impl Default for Alignment {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The time to target used when one is not `> 0` (a hand-edited asset): the seed's 0.1 s.
fn time_to_target(t: f32) -> f32 {
    if t > 0.0 && t.is_finite() { t } else { 0.1 }
}

/// `ReachOrientation`: the angular acceleration that turns `me`'s facing to `target`
/// (radians). `r = wrap(target - θ)`; within the tolerance it brakes the spin,
/// `τ = -ω / time_to_target`; else it wants `max_angular_speed` toward the target, scaled by
/// `|r| / deceleration_radius` inside that radius, `τ = (sign(r) · speed - ω) /
/// time_to_target`. Clamped to `±max_angular_acceleration`.
pub fn reach_orientation(me: &Vehicle, target: f32, alignment: &Alignment) -> f32 {
    let turning = me.turning;
    let omega = me.spin();
    let time = time_to_target(alignment.time_to_target);
    let r = wrap(target - me.facing());
    let size = r.abs();
    let tau = if size <= alignment.tolerance {
        -omega / time
    } else {
        let mut speed = turning.max_angular_speed;
        if size <= alignment.deceleration_radius {
            speed *= size / alignment.deceleration_radius;
        }
        (sign(r) * speed - omega) / time
    };
    let limit = turning.max_angular_acceleration;
    // A NaN passes none of the tests: a broken number turns nothing.
    if tau >= -limit && tau <= limit {
        tau
    } else if tau > limit {
        limit
    } else if tau < -limit {
        -limit
    } else {
        0.0
    }
}

/// Face: `ReachOrientation` toward the angle of `target - p`; zero when the target is on the
/// agent (`|target - p| < 1e-6`).
pub fn face(me: &Vehicle, target: Vec2, alignment: &Alignment) -> f32 {
    let offset = target - me.position;
    if offset.length() < TINY {
        return 0.0;
    }
    reach_orientation(me, angle(offset), alignment)
}

/// `LookWhereYouAreGoing`: Face toward the velocity, `ReachOrientation` of `angle(v)`; zero when
/// the agent is still (`|v| < 1e-6`).
pub fn look_where_you_are_going(me: &Vehicle, alignment: &Alignment) -> f32 {
    if me.velocity.length() < TINY {
        return 0.0;
    }
    reach_orientation(me, angle(me.velocity), alignment)
}

/// `MatchVelocity`: `F = truncate((target - v) · mass / time_to_target, max_force)`.
pub fn match_velocity(me: &Vehicle, target: Vec2, time_to_target: f32) -> Vec2 {
    let time = self::time_to_target(time_to_target);
    truncate((target - me.velocity) * me.mass / time, me.max_force)
}

/// Wander's facing variant: the wander target as in Wander (angle `theta` on the circle at
/// `distance` ahead, radius `radius`), faced with [`face`] and the default alignment; the
/// force is full `max_force` along the facing.
pub fn wander_facing(me: &Vehicle, theta: f32, distance: f32, radius: f32) -> Steering {
    let aim = wander_aim(me, theta, distance, radius);
    Steering {
        force: me.facing_direction() * me.max_force,
        angular: face(me, aim, &Alignment::DEFAULT),
    }
}
