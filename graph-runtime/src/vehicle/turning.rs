//! How a vehicle turns (`BEHAVIORS.md`, "The angular layer"): independent facing with its
//! angular limits, and the turn-rate limit on the direction of motion.

use serde::{Deserialize, Serialize};

use crate::math::{TINY, angle, direction, wrap};

/// How a vehicle turns, in radians (its asset form is [`TurningParams`], in degrees).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Turning {
    /// Whether the vehicle has a facing of its own (an orientation and an angular velocity
    /// steered by angular nodes); otherwise it faces where it moves.
    pub independent_facing: bool,
    /// Largest angular speed of the facing (radians / s, `>= 0`).
    pub max_angular_speed: f32,
    /// Largest angular acceleration of the facing (radians / s², `>= 0`).
    pub max_angular_acceleration: f32,
    /// Largest turn of the direction of motion (radians / s, `>= 0`); `f32::INFINITY`: none.
    /// With a limit, a stopped vehicle cannot spin on the spot and a moving one drives a
    /// turning circle of radius `speed / max_turn_rate`.
    pub max_turn_rate: f32,
}

impl Default for Turning {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl Turning {
    /// The defaults, [`TurningParams::default`] in radians: the vehicle faces where it moves
    /// and its direction of motion turns freely.
    pub const DEFAULT: Self = Self {
        independent_facing: false,
        max_angular_speed: DEFAULT_ANGULAR_SPEED.to_radians(),
        max_angular_acceleration: DEFAULT_ANGULAR_ACCELERATION.to_radians(),
        max_turn_rate: f32::INFINITY,
    };

    /// The velocity `velocity` (the step's new one) turned back toward `forward` (the heading
    /// before the step) so that its direction differs by at most `max_turn` radians; its
    /// length is kept. Unchanged when it is within the limit or shorter than `1e-6`.
    #[inline]
    pub fn limit_turn(forward: glam::Vec2, velocity: glam::Vec2, max_turn: f32) -> glam::Vec2 {
        let speed = velocity.length();
        if speed <= TINY || max_turn.is_nan() || max_turn < 0.0 {
            return velocity;
        }
        let from = angle(forward);
        let turn = wrap(angle(velocity) - from);
        if turn.abs() <= max_turn {
            return velocity;
        }
        direction(from + max_turn.copysign(turn)) * speed
    }

    /// The angular velocity after a tick of `dt` under angular acceleration `angular`:
    /// `clamp(ω + clamp(τ, ±max_angular_acceleration) * dt, ±max_angular_speed)`. A
    /// non-finite `τ` counts as zero.
    #[inline]
    pub fn next_angular_velocity(&self, angular_velocity: f32, angular: f32, dt: f32) -> f32 {
        let accel_limit = self.max_angular_acceleration.max(0.0);
        let speed_limit = self.max_angular_speed.max(0.0);
        let angular = if angular.is_finite() { angular } else { 0.0 };
        let next = angular_velocity + angular.clamp(-accel_limit, accel_limit) * dt;
        if next.is_finite() {
            next.clamp(-speed_limit, speed_limit)
        } else {
            0.0
        }
    }
}

/// How a vehicle turns, as assets write it: angles in degrees. A graph's `turning` section
/// holds it as numbers (literals or graph parameters), and a scene group may replace it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurningParams {
    /// Whether the vehicle faces where its angular nodes turn it (`true`) or where it moves.
    /// Not written when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub independent_facing: bool,
    /// Largest angular speed of the facing (degrees / s, `>= 0`).
    #[serde(default = "default_angular_speed")]
    pub max_angular_speed: f32,
    /// Largest angular acceleration of the facing (degrees / s², `>= 0`).
    #[serde(default = "default_angular_acceleration")]
    pub max_angular_acceleration: f32,
    /// Largest turn of the direction of motion (degrees / s, `>= 0`); `None`: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turn_rate: Option<f32>,
}

/// 360 degrees / s: a full turn in a second.
const DEFAULT_ANGULAR_SPEED: f32 = 360.0;

/// 720 degrees / s²: from rest to full angular speed in half a second.
const DEFAULT_ANGULAR_ACCELERATION: f32 = 720.0;

fn default_angular_speed() -> f32 {
    DEFAULT_ANGULAR_SPEED
}

fn default_angular_acceleration() -> f32 {
    DEFAULT_ANGULAR_ACCELERATION
}

impl Default for TurningParams {
    fn default() -> Self {
        Self {
            independent_facing: false,
            max_angular_speed: default_angular_speed(),
            max_angular_acceleration: default_angular_acceleration(),
            max_turn_rate: None,
        }
    }
}

impl From<TurningParams> for Turning {
    fn from(params: TurningParams) -> Self {
        Self {
            independent_facing: params.independent_facing,
            max_angular_speed: params.max_angular_speed.to_radians(),
            max_angular_acceleration: params.max_angular_acceleration.to_radians(),
            max_turn_rate: params.max_turn_rate.map_or(f32::INFINITY, f32::to_radians),
        }
    }
}

impl TurningParams {
    /// Whether these are the defaults (a vehicle that faces where it moves, no turn limit):
    /// what files written before the angular layer mean, and what saving leaves out.
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

#[cfg(test)]
mod tests {
    use std::f32::consts::{FRAC_PI_2, PI};

    use glam::Vec2;

    use super::*;

    #[test]
    fn a_turn_within_the_limit_is_left_alone() {
        let v = Vec2::new(1.0, 0.1);
        assert_eq!(Turning::limit_turn(Vec2::X, v, 0.5), v);
    }

    #[test]
    fn a_sharp_turn_is_cut_to_the_limit_keeping_the_speed() {
        // Heading +x, asked to go +y at speed 2 (a 90° turn), limit 30°: (2 cos 30°, 2 sin 30°).
        let limited = Turning::limit_turn(Vec2::X, Vec2::new(0.0, 2.0), 30f32.to_radians());
        assert!(
            (limited - Vec2::new(3f32.sqrt(), 1.0)).length() < 1e-6,
            "{limited}"
        );
        // Clockwise the same way.
        let limited = Turning::limit_turn(Vec2::X, Vec2::new(0.0, -2.0), 30f32.to_radians());
        assert!(
            (limited - Vec2::new(3f32.sqrt(), -1.0)).length() < 1e-6,
            "{limited}"
        );
    }

    #[test]
    fn reversing_turns_counter_clockwise() {
        // Exactly backward is a half turn, +π: the limit turns it counter-clockwise.
        let limited = Turning::limit_turn(Vec2::X, Vec2::new(-1.0, 0.0), FRAC_PI_2);
        assert!((limited - Vec2::Y).length() < 1e-6, "{limited}");
    }

    #[test]
    fn angular_velocity_is_limited_by_acceleration_then_speed() {
        let turning = Turning {
            independent_facing: true,
            max_angular_speed: 2.0,
            max_angular_acceleration: 10.0,
            max_turn_rate: f32::INFINITY,
        };
        // τ = 50 clamps to 10; 0.5 + 10 * 0.1 = 1.5.
        assert_eq!(turning.next_angular_velocity(0.5, 50.0, 0.1), 1.5);
        // 1.5 + 10 * 0.1 = 2.5 clamps to 2.
        assert_eq!(turning.next_angular_velocity(1.5, 10.0, 0.1), 2.0);
        assert_eq!(turning.next_angular_velocity(1.0, f32::NAN, 0.1), 1.0);
        assert_eq!(turning.next_angular_velocity(-1.9, -10.0, 0.1), -2.0);
    }

    #[test]
    fn params_convert_degrees_to_radians() {
        let turning = Turning::from(TurningParams {
            independent_facing: true,
            max_angular_speed: 180.0,
            max_angular_acceleration: 90.0,
            max_turn_rate: Some(45.0),
        });
        assert_eq!(turning.max_angular_speed, PI);
        assert_eq!(turning.max_angular_acceleration, FRAC_PI_2);
        assert_eq!(turning.max_turn_rate, 45f32.to_radians());
        assert_eq!(Turning::default().max_turn_rate, f32::INFINITY);
        assert_eq!(Turning::from(TurningParams::default()), Turning::DEFAULT);
    }
}
