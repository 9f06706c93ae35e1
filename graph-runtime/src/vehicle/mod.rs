//! The simple vehicle model (Reynolds 1999, "locomotion"), with the gdx-ai seed's angular
//! layer: a facing of its own and a limit on how fast the direction of motion turns
//! (`turning.rs`), steered by a linear and an angular part (`steering.rs`).

use glam::{DVec2, Vec2, Vec4};
use serde::{Deserialize, Serialize};

use crate::math::{TINY, angle, direction, truncate, wrap};

mod steering;
mod turning;

pub use steering::Steering;
pub use turning::{Turning, TurningParams};

/// Physical limits of a vehicle. All values are in world units and seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleParams {
    /// Mass, `> 0`. Acceleration is `force / mass`.
    pub mass: f32,
    /// Largest steering force applied per tick, `>= 0` (mass · units / s²).
    pub max_force: f32,
    /// Top speed, `>= 0` (units / s).
    pub max_speed: f32,
    /// Bounding radius, `>= 0` (units), used by avoidance and hiding.
    pub radius: f32,
}

impl Default for VehicleParams {
    fn default() -> Self {
        Self {
            mass: 1.0,
            max_force: 10.0,
            max_speed: 5.0,
            radius: 0.5,
        }
    }
}

/// A point-mass vehicle: state plus limits.
///
/// Its facing is [`Vehicle::facing`]: the direction of motion (`forward`), or, with
/// `turning.independent_facing`, its own `orientation`, turned by the angular part of its
/// steering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vehicle {
    /// World position (units).
    pub position: Vec2,
    /// Velocity (units / s); its length never exceeds `max_speed` after a step.
    pub velocity: Vec2,
    /// Unit heading; follows the velocity and is kept when the vehicle stops.
    pub forward: Vec2,
    /// Mass, `> 0`.
    pub mass: f32,
    /// Largest steering force, `>= 0`.
    pub max_force: f32,
    /// Top speed, `>= 0`.
    pub max_speed: f32,
    /// Bounding radius, `>= 0`.
    pub radius: f32,
    /// The facing's angle (radians, counter-clockwise from +x) when `turning` has independent
    /// facing; otherwise not kept up to date (the vehicle faces `forward`): read
    /// [`Vehicle::facing`].
    pub orientation: f32,
    /// The facing's angular velocity (radians / s) when `turning` has independent facing;
    /// otherwise zero: read [`Vehicle::spin`].
    pub angular_velocity: f32,
    /// How it turns: independent facing and its limits, and the turn-rate limit.
    pub turning: Turning,
}

impl Vehicle {
    /// A vehicle at `position` moving with `velocity`, heading along the velocity (or +x when
    /// it is at rest, `|velocity| <= 1e-6`).
    pub fn new(position: Vec2, velocity: Vec2, params: VehicleParams) -> Self {
        let forward = if velocity.length() > TINY {
            let forward = velocity.normalize();
            if forward.is_finite() && forward != Vec2::ZERO {
                forward
            } else {
                // |v|² overflowed f32 (or v is not finite, which `step` repairs).
                velocity.as_dvec2().normalize_or(DVec2::X).as_vec2()
            }
        } else {
            Vec2::X
        };
        Self {
            position,
            velocity,
            forward,
            mass: params.mass,
            max_force: params.max_force,
            max_speed: params.max_speed,
            radius: params.radius,
            orientation: angle(forward),
            angular_velocity: 0.0,
            turning: Turning::default(),
        }
    }

    /// The same vehicle turning as `turning` says; its facing starts along `forward`, at rest.
    #[must_use]
    pub fn with_turning(mut self, turning: Turning) -> Self {
        self.turning = turning;
        self.orientation = angle(self.forward);
        self.angular_velocity = 0.0;
        self
    }

    /// The angle the vehicle faces (radians, counter-clockwise from +x, in `(-π, π]`): its
    /// own orientation with independent facing, else the direction of motion.
    #[inline]
    pub fn facing(&self) -> f32 {
        if self.turning.independent_facing {
            self.orientation
        } else {
            angle(self.forward)
        }
    }

    /// The unit vector the vehicle faces: `(cos θ, sin θ)` of [`Vehicle::facing`] (exactly
    /// `forward` without independent facing).
    #[inline]
    pub fn facing_direction(&self) -> Vec2 {
        if self.turning.independent_facing {
            direction(self.orientation)
        } else {
            self.forward
        }
    }

    /// The facing's angular velocity (radians / s): zero without independent facing.
    #[inline]
    pub fn spin(&self) -> f32 {
        if self.turning.independent_facing {
            self.angular_velocity
        } else {
            0.0
        }
    }

    /// The vehicle's limits.
    pub fn params(&self) -> VehicleParams {
        VehicleParams {
            mass: self.mass,
            max_force: self.max_force,
            max_speed: self.max_speed,
            radius: self.radius,
        }
    }

    /// Left-pointing unit vector of the heading.
    pub fn side(&self) -> Vec2 {
        self.forward.perp()
    }

    /// Integrates one tick of length `dt` seconds under `steering` (`BEHAVIORS.md`, "The
    /// vehicle step"): the force is truncated to `max_force`, divided by mass, integrated into
    /// the velocity, which is truncated to `max_speed` (and turned back within the turn-rate
    /// limit, if there is one), then into the position. With independent facing the angular
    /// part turns the orientation ("The angular layer"); otherwise it is ignored. A `Vec2`
    /// is a steering without an angular part.
    ///
    /// Keeps the state finite for any finite inputs, however extreme (a mass of `1e-45`, a
    /// force of `f32::MAX`, a `dt` of `3e38`): when `f32` arithmetic overflows, the step is
    /// redone in `f64` and a position beyond the `f32` range stops at `±f32::MAX`. Non-finite
    /// inputs are neutralised rather than propagated: a non-finite steering force counts as
    /// zero, a non-finite `dt` leaves the vehicle as it is, a mass that is not `> 0` applies
    /// no force, and a NaN or infinite state is repaired first (see [`Vehicle::sanitize`]).
    #[inline]
    pub fn step(&mut self, steering: impl Into<Steering>, dt: f32) {
        let Steering {
            force: steering,
            angular,
        } = steering.into();
        if !dt.is_finite() {
            return;
        }
        self.sanitize();
        let steering = if steering.is_finite() {
            steering
        } else {
            Vec2::ZERO
        };
        let force = truncate(steering, self.max_force);
        let acceleration = if self.mass > 0.0 {
            force / self.mass
        } else {
            Vec2::ZERO
        };
        let velocity = self.velocity + acceleration * dt;
        self.velocity = if velocity.is_finite() {
            truncate(velocity, self.max_speed)
        } else {
            self.wide_velocity(force, dt)
        };
        // NaN and infinity (no limit) both fail the test.
        if self.turning.max_turn_rate < f32::INFINITY {
            self.velocity =
                Turning::limit_turn(self.forward, self.velocity, self.turning.max_turn_rate * dt);
        }
        let position = self.position + self.velocity * dt;
        self.position = if position.is_finite() {
            position
        } else {
            (self.position.as_dvec2() + self.velocity.as_dvec2() * f64::from(dt))
                .clamp(
                    DVec2::splat(f64::from(-f32::MAX)),
                    DVec2::splat(f64::from(f32::MAX)),
                )
                .as_vec2()
        };
        let speed = self.velocity.length();
        if speed > TINY {
            let forward = self.velocity / speed;
            if forward.is_finite() && forward != Vec2::ZERO {
                self.forward = forward;
            } else {
                // |v|² overflowed f32: measure in f64.
                self.forward = self.velocity.as_dvec2().normalize_or(DVec2::X).as_vec2();
            }
        }
        if self.turning.independent_facing {
            self.angular_velocity =
                self.turning
                    .next_angular_velocity(self.angular_velocity, angular, dt);
            self.orientation = wrap(self.orientation + self.angular_velocity * dt);
        }
    }

    /// Whether every number of the state is finite: position, velocity, heading, facing
    /// and its spin. One test of eight lanes, where five tests of their own were a sixth of a
    /// flocking agent's step: `x - x` is zero for a finite `x` and NaN otherwise.
    #[inline]
    #[expect(
        clippy::eq_op,
        reason = "x - x is the test: zero for a finite x, NaN for NaN and the infinities"
    )]
    fn state_is_finite(&self) -> bool {
        let motion = Vec4::new(
            self.position.x,
            self.position.y,
            self.velocity.x,
            self.velocity.y,
        );
        let heading = Vec4::new(
            self.forward.x,
            self.forward.y,
            self.orientation,
            self.angular_velocity,
        );
        ((motion - motion) + (heading - heading))
            .cmpeq(Vec4::ZERO)
            .all()
    }

    /// The velocity `truncate(v + force / mass * dt, max_speed)` computed in `f64`, for a step
    /// whose `f32` arithmetic overflowed. Never longer than `f32::MAX`.
    #[cold]
    fn wide_velocity(&self, force: Vec2, dt: f32) -> Vec2 {
        let velocity =
            self.velocity.as_dvec2() + force.as_dvec2() / f64::from(self.mass) * f64::from(dt);
        let limit = if self.max_speed.is_finite() {
            f64::from(self.max_speed.max(0.0))
        } else {
            f64::from(f32::MAX)
        };
        let speed = velocity.length();
        if speed <= limit || speed == 0.0 {
            velocity.as_vec2()
        } else {
            (velocity * (limit / speed)).as_vec2()
        }
    }

    /// Repairs a state that is not finite, which only code outside the runtime can make:
    /// a NaN position component becomes `0` and an infinite one `±f32::MAX`; a non-finite
    /// velocity becomes zero; a non-finite heading becomes the velocity's direction, or +x; a
    /// non-finite facing faces the heading, at rest.
    /// [`Vehicle::step`] calls it first; a finite state is left exactly as it is.
    ///
    /// Inlined, with the repair out of line: the call per step cost a flocking agent-tick 18
    /// instructions of 1,387 (callgrind, `BENCHMARKS.md`).
    #[inline]
    pub fn sanitize(&mut self) {
        if !self.state_is_finite() {
            self.repair();
        }
    }

    /// [`Vehicle::sanitize`] for a state that is not finite.
    #[cold]
    #[inline(never)]
    fn repair(&mut self) {
        if !self.position.is_finite() {
            self.position = self.position.map(|x| {
                if x.is_nan() {
                    0.0
                } else {
                    x.clamp(-f32::MAX, f32::MAX)
                }
            });
        }
        if !self.velocity.is_finite() {
            self.velocity = Vec2::ZERO;
        }
        if !self.forward.is_finite() {
            self.forward = crate::math::normalize(self.velocity);
            if self.forward == Vec2::ZERO {
                self.forward = Vec2::X;
            }
        }
        if !(self.orientation.is_finite() && self.angular_velocity.is_finite()) {
            self.orientation = angle(self.forward);
            self.angular_velocity = 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vehicle() -> Vehicle {
        Vehicle::new(
            Vec2::ZERO,
            Vec2::ZERO,
            VehicleParams {
                mass: 2.0,
                max_force: 4.0,
                max_speed: 3.0,
                radius: 0.5,
            },
        )
    }

    /// The one eight-lane test finds a single number that is not finite wherever it is, and
    /// `sanitize` repairs it; a finite state, extreme numbers and negative zeros included, is
    /// left alone bit for bit.
    #[test]
    fn sanitize_finds_one_bad_number_in_any_field_and_leaves_finite_states_alone() {
        let finite = Vehicle {
            position: Vec2::new(f32::MAX, -0.0),
            velocity: Vec2::new(-f32::MIN_POSITIVE, 1e-45),
            forward: Vec2::new(0.6, -0.8),
            orientation: -3.0,
            angular_velocity: -f32::MAX,
            ..vehicle()
        };
        let mut same = finite;
        same.sanitize();
        let bits = |v: &Vehicle| {
            [
                v.position.x,
                v.position.y,
                v.velocity.x,
                v.velocity.y,
                v.forward.x,
                v.forward.y,
                v.orientation,
                v.angular_velocity,
            ]
            .map(f32::to_bits)
        };
        assert_eq!(bits(&same), bits(&finite));
        for lane in 0..8 {
            for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                let mut broken = finite;
                let field = match lane {
                    0 => &mut broken.position.x,
                    1 => &mut broken.position.y,
                    2 => &mut broken.velocity.x,
                    3 => &mut broken.velocity.y,
                    4 => &mut broken.forward.x,
                    5 => &mut broken.forward.y,
                    6 => &mut broken.orientation,
                    _ => &mut broken.angular_velocity,
                };
                *field = bad;
                assert!(!broken.state_is_finite(), "lane {lane}, {bad}");
                broken.sanitize();
                assert!(
                    broken.state_is_finite(),
                    "lane {lane}, {bad}: {broken:?} not repaired"
                );
            }
        }
    }

    #[test]
    fn step_truncates_force_then_divides_by_mass() {
        let mut v = vehicle();
        // force (10, 0) truncated to 4, accel 2, dt 0.5 -> velocity 1, position 0.5
        v.step(Vec2::new(10.0, 0.0), 0.5);
        assert_eq!(v.velocity, Vec2::new(1.0, 0.0));
        assert_eq!(v.position, Vec2::new(0.5, 0.0));
        assert_eq!(v.forward, Vec2::X);
    }

    #[test]
    fn step_truncates_speed_and_keeps_forward_at_rest() {
        let mut v = vehicle();
        v.velocity = Vec2::new(0.0, 2.9);
        v.step(Vec2::new(0.0, 4.0), 1.0); // 2.9 + 2 = 4.9 -> 3
        assert_eq!(v.velocity, Vec2::new(0.0, 3.0));
        assert_eq!(v.forward, Vec2::Y);
        v.velocity = Vec2::ZERO;
        v.step(Vec2::ZERO, 1.0);
        assert_eq!(v.forward, Vec2::Y, "a stopped vehicle keeps its heading");
    }

    #[test]
    fn non_finite_steering_is_ignored() {
        let mut v = vehicle();
        v.step(Vec2::new(f32::NAN, 1.0), 0.1);
        assert_eq!(v.velocity, Vec2::ZERO);
        assert!(v.position.is_finite());
    }
}
