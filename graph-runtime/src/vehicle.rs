//! The simple vehicle model (Reynolds 1999, "locomotion").

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::math::{TINY, truncate};

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
}

impl Vehicle {
    /// A vehicle at `position` moving with `velocity`, heading along the velocity (or +x when
    /// it is at rest).
    pub fn new(position: Vec2, velocity: Vec2, params: VehicleParams) -> Self {
        let forward = if velocity.length() > TINY {
            velocity.normalize()
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

    /// Integrates one tick of length `dt` seconds under `steering` (contract "step"):
    /// the force is truncated to `max_force`, divided by mass, integrated into the velocity,
    /// which is truncated to `max_speed`, then into the position.
    ///
    /// A non-finite steering force is treated as zero, so one bad input cannot poison the state.
    pub fn step(&mut self, steering: Vec2, dt: f32) {
        let steering = if steering.is_finite() {
            steering
        } else {
            Vec2::ZERO
        };
        let force = truncate(steering, self.max_force);
        let acceleration = force / self.mass;
        self.velocity = truncate(self.velocity + acceleration * dt, self.max_speed);
        self.position += self.velocity * dt;
        let speed = self.velocity.length();
        if speed > TINY {
            self.forward = self.velocity / speed;
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
