//! The game's agents as C holds them between ticks (`SgVehicle`), their steering
//! (`SgSteering`), a new body with a crowd's limits, and the step that moves them as the
//! runtime does, solid walls included.

use glam::Vec2;
use graph_runtime::{Crowd, Steering, Turning, Vehicle, World};

use crate::handles::with;
use crate::kinds::{SgCrowd, SgWorld};
use crate::ptr::{Output, finite, input, put, time_step};
use crate::status::{Failure, SgStatus, guard};
use crate::world::point;

/// One agent's body, as the game keeps it between ticks: start it with `sg_crowd_vehicle`,
/// move it with `sg_vehicles_step` (or the game's own physics, writing position and
/// velocity). The same fields as the Rust runtime's `Vehicle`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgVehicle {
    /// Position (units).
    pub position: [f32; 2],
    /// Velocity (units / s).
    pub velocity: [f32; 2],
    /// Unit heading: follows the velocity and is kept while the agent stands still.
    pub forward: [f32; 2],
    /// Mass, > 0.
    pub mass: f32,
    /// Largest steering force, >= 0.
    pub max_force: f32,
    /// Top speed, >= 0.
    pub max_speed: f32,
    /// Bounding radius, >= 0.
    pub radius: f32,
    /// Facing (radians from +x) when `independent_facing`; else the direction of motion.
    pub orientation: f32,
    /// Angular velocity of the facing (radians / s).
    pub angular_velocity: f32,
    /// Whether the agent has a facing of its own, turned by the graph's angular nodes.
    pub independent_facing: bool,
    /// Largest angular speed of the facing (radians / s, >= 0).
    pub max_angular_speed: f32,
    /// Largest angular acceleration of the facing (radians / s², >= 0).
    pub max_angular_acceleration: f32,
    /// Largest turn of the direction of motion (radians / s, >= 0); `INFINITY` for none.
    pub max_turn_rate: f32,
}

/// One agent's steering for a tick.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SgSteering {
    /// The steering force (mass · units / s²).
    pub force: [f32; 2],
    /// The angular acceleration of the facing (radians / s²).
    pub angular: f32,
}

impl From<&Vehicle> for SgVehicle {
    /// The runtime's vehicle as C holds it (for a Rust caller of these functions).
    fn from(vehicle: &Vehicle) -> Self {
        Self::from_vehicle(vehicle)
    }
}

impl SgVehicle {
    pub(crate) fn from_vehicle(vehicle: &Vehicle) -> Self {
        Self {
            position: vehicle.position.to_array(),
            velocity: vehicle.velocity.to_array(),
            forward: vehicle.forward.to_array(),
            mass: vehicle.mass,
            max_force: vehicle.max_force,
            max_speed: vehicle.max_speed,
            radius: vehicle.radius,
            orientation: vehicle.orientation,
            angular_velocity: vehicle.angular_velocity,
            independent_facing: vehicle.turning.independent_facing,
            max_angular_speed: vehicle.turning.max_angular_speed,
            max_angular_acceleration: vehicle.turning.max_angular_acceleration,
            max_turn_rate: vehicle.turning.max_turn_rate,
        }
    }

    /// The runtime's vehicle, refused (naming `vehicles[index].field`) when a number is not
    /// finite or out of range.
    pub(crate) fn to_vehicle(self, index: usize) -> Result<Vehicle, Failure> {
        let field = |name: &str| format!("vehicles[{index}].{name}");
        let pair = |xy: [f32; 2], name: &str| -> Result<Vec2, Failure> {
            Ok(Vec2::new(
                finite(xy[0], &field(name))?,
                finite(xy[1], &field(name))?,
            ))
        };
        let at_least = |value: f32, low: f32, name: &str| -> Result<f32, Failure> {
            if value.is_finite() && value >= low {
                Ok(value)
            } else {
                Err(Failure::invalid(format!(
                    "{} is {value}, not a finite number >= {low}",
                    field(name)
                )))
            }
        };
        if self.max_turn_rate.is_nan() || self.max_turn_rate < 0.0 {
            return Err(Failure::invalid(format!(
                "{} is {}, not >= 0 (INFINITY for no limit)",
                field("max_turn_rate"),
                self.max_turn_rate
            )));
        }
        Ok(Vehicle {
            position: pair(self.position, "position")?,
            velocity: pair(self.velocity, "velocity")?,
            forward: pair(self.forward, "forward")?,
            mass: at_least(self.mass, graph_runtime::limits::MIN_MASS, "mass")?,
            max_force: at_least(self.max_force, 0.0, "max_force")?,
            max_speed: at_least(self.max_speed, 0.0, "max_speed")?,
            radius: at_least(self.radius, 0.0, "radius")?,
            orientation: finite(self.orientation, &field("orientation"))?,
            angular_velocity: finite(self.angular_velocity, &field("angular_velocity"))?,
            turning: Turning {
                independent_facing: self.independent_facing,
                max_angular_speed: at_least(self.max_angular_speed, 0.0, "max_angular_speed")?,
                max_angular_acceleration: at_least(
                    self.max_angular_acceleration,
                    0.0,
                    "max_angular_acceleration",
                )?,
                max_turn_rate: self.max_turn_rate,
            },
        })
    }
}

/// A new agent body at `(x, y)` moving at `(vx, vy)`, with the limits and turning the
/// crowd's graph asks for.
///
/// # Safety
///
/// `vehicle` is valid for writing one `SgVehicle`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_vehicle(
    crowd: SgCrowd,
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    vehicle: *mut SgVehicle,
) -> SgStatus {
    guard(|| {
        let position = point(x, y, "position")?;
        let velocity = Vec2::new(finite(vx, "vx")?, finite(vy, "vy")?);
        let made = with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            Ok(Vehicle::new(position, velocity, crowd.vehicle_params())
                .with_turning(crowd.turning()))
        })?;
        // SAFETY: the caller's pointer.
        unsafe { put(vehicle, "vehicle", SgVehicle::from_vehicle(&made)) }
    })
}

/// Gives the game's `count` vehicles (agent `i` is `vehicles[i]`) the limits (mass, largest
/// force, top speed, radius) and turning their group's graph asks for now, keeping their
/// positions, velocities and facings: call it after `sg_crowd_set_program` (hot reload)
/// changed them, instead of making the vehicles again. On an error no vehicle changes.
///
/// # Safety
///
/// `vehicles` is valid for reading and writing `count` elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_update_limits(
    crowd: SgCrowd,
    vehicles: *mut SgVehicle,
    count: usize,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointer, `count` elements.
        let bodies = unsafe { input(vehicles.cast_const(), count, "vehicles") }?;
        let mut updated = bodies.to_vec();
        with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            for (agent, body) in updated.iter_mut().enumerate() {
                let (limits, turning) = crowd.limits_of(agent);
                body.mass = limits.mass;
                body.max_force = limits.max_force;
                body.max_speed = limits.max_speed;
                body.radius = limits.radius;
                body.independent_facing = turning.independent_facing;
                body.max_angular_speed = turning.max_angular_speed;
                body.max_angular_acceleration = turning.max_angular_acceleration;
                body.max_turn_rate = turning.max_turn_rate;
            }
            Ok(())
        })?;
        // SAFETY: the caller's pointer, checked for `count` above by `input`.
        let mut out = unsafe { Output::new(vehicles, count, "vehicles") }?;
        for (i, body) in updated.iter().enumerate() {
            out.set(i, *body);
        }
        Ok(())
    })
}

/// Moves `count` vehicles by their steering over `dt` seconds in `world`, exactly as the
/// runtime does (force truncated to `max_force`, acceleration `force / mass`, speed truncated
/// to `max_speed`, facing turned within its limits; a step that would cross a wall is
/// stopped at it and slides along it unless the world's walls are passable). `blocked`, when
/// not `NULL`, gets 1 per vehicle whose step met a wall, else 0.
///
/// # Safety
///
/// `vehicles` is valid for reading and writing `count` elements, `steering` for reading
/// `count`, `blocked` (unless `NULL`) for writing `count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_vehicles_step(
    world: SgWorld,
    vehicles: *mut SgVehicle,
    steering: *const SgSteering,
    count: usize,
    dt: f32,
    blocked: *mut u8,
) -> SgStatus {
    guard(|| {
        let dt = time_step(dt)?;
        // SAFETY: the caller's pointer, `count` elements unless NULL.
        let mut blocked = unsafe { Output::optional(blocked, count, "blocked") }?;
        // SAFETY: the caller's pointers; the inputs are copied before anything is written.
        let (bodies, steering) = unsafe {
            (
                input(vehicles.cast_const(), count, "vehicles")?,
                input(steering, count, "steering")?,
            )
        };
        let mut moved = bodies
            .iter()
            .enumerate()
            .map(|(i, v)| v.to_vehicle(i))
            .collect::<Result<Vec<_>, _>>()?;
        let steering = steering
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let what = format!("steering[{i}]");
                let force = Vec2::new(finite(s.force[0], &what)?, finite(s.force[1], &what)?);
                Ok(Steering {
                    force,
                    angular: finite(s.angular, &what)?,
                })
            })
            .collect::<Result<Vec<_>, Failure>>()?;
        let met = with::<World, _>(world.id, "world", |world| {
            Ok(moved
                .iter_mut()
                .zip(&steering)
                .map(|(vehicle, &s)| world.step_vehicle(vehicle, s, dt))
                .collect::<Vec<bool>>())
        })?;
        if let Some(out) = &mut blocked {
            for (i, &wall) in met.iter().enumerate() {
                out.set(i, u8::from(wall));
            }
        } // SAFETY: the caller's pointer, `count` elements.
        let mut out = unsafe { Output::new(vehicles, count, "vehicles") }?;
        for (i, vehicle) in moved.iter().enumerate() {
            out.set(i, SgVehicle::from_vehicle(vehicle));
        }
        Ok(())
    })
}
