//! The game's own agents: it passes them as an array each tick and gets their steering back,
//! and gives agents goals and routes of their own.

use std::collections::BTreeMap;
use std::ffi::c_char;
use std::sync::Arc;

use glam::Vec2;
use graph_runtime::limits::MAX_PATH_POINTS;
use graph_runtime::{Crowd, JumpEventKind, Program, Steering, TagTable, Turning, Vehicle, World};

use crate::handles::{get, insert, lock, remove, with};
use crate::kinds::{SgCrowd, SgProgram, SgWorld};
use crate::ptr::{Output, finite, input, put, put_text, required, text, time_step};
use crate::status::{Failure, SgStatus, guard};
use crate::world::{point, points};

/// A graph parameter set to a value (an override of its default).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SgParameter {
    /// The parameter's name, NUL terminated.
    pub name: *const c_char,
    /// Its value.
    pub value: f32,
}

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

/// What happened to a jump.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SgJumpKind {
    /// The agent took off on a jump link: the game flies it (its steering is zero) for
    /// `flight_time` seconds.
    TakeOff = 0,
    /// The flight is over; `completed` says whether it landed on the link's far side.
    Landed = 1,
    /// The agent walked into a gap and fell.
    Fell = 2,
}

/// A jump event of the last `sg_crowd_steer`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgJumpEvent {
    /// The agent (its index in the array passed to `sg_crowd_steer`).
    pub agent: usize,
    /// What happened.
    pub kind: SgJumpKind,
    /// Where the agent was.
    pub at: [f32; 2],
    /// Take-off: the planar velocity of the flight (units / s); else zero.
    pub velocity: [f32; 2],
    /// Take-off: the vertical velocity (units / s); else zero.
    pub vertical_velocity: f32,
    /// Take-off: the time in the air (s); else zero.
    pub flight_time: f32,
    /// Landed: whether on the far side of the link; else false.
    pub completed: bool,
}

impl SgVehicle {
    fn from_vehicle(vehicle: &Vehicle) -> Self {
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
    fn to_vehicle(self, index: usize) -> Result<Vehicle, Failure> {
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

/// The overrides at `overrides`, by name.
///
/// # Safety
///
/// `overrides` is valid for reading `count` parameters whose names are NUL-terminated strings.
unsafe fn overrides_of(
    overrides: *const SgParameter,
    count: usize,
) -> Result<BTreeMap<String, f32>, Failure> {
    // SAFETY: passed on from the caller.
    let list = unsafe { input(overrides, count, "overrides") }?;
    let mut map = BTreeMap::new();
    for (i, parameter) in list.iter().enumerate() {
        // SAFETY: passed on from the caller.
        let name = unsafe { text(parameter.name, &format!("overrides[{i}].name")) }?;
        map.insert(name.to_owned(), parameter.value);
    }
    Ok(map)
}

fn program_of(program: SgProgram) -> Result<Arc<Program>, Failure> {
    with::<Arc<Program>, _>(program.id, "program", |p| Ok(Arc::clone(p)))
}

/// Steers the game's agents with `program` in `world`: agent `i` draws random numbers from
/// the stream of `(seed, i)`, as in a simulation of a scene with that seed. `overrides` set
/// graph parameters (`override_count` of them); `tag_names` name tag bits 0, 1, … for graphs
/// that look for tagged agents (`tag_count` of them, at most 64). A name the graph uses that
/// the world lacks is refused, naming it.
///
/// # Safety
///
/// `overrides` is valid for reading `override_count` parameters, `tag_names` for reading
/// `tag_count` NUL-terminated strings; `crowd` is valid for writing one handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_create(
    program: SgProgram,
    world: SgWorld,
    seed: u64,
    overrides: *const SgParameter,
    override_count: usize,
    tag_names: *const *const c_char,
    tag_count: usize,
    crowd: *mut SgCrowd,
) -> SgStatus {
    guard(|| {
        required(crowd, "crowd")?;
        // SAFETY: the caller's pointers.
        let overrides = unsafe { overrides_of(overrides, override_count) }?;
        // SAFETY: the caller's pointers.
        let names = unsafe { input(tag_names, tag_count, "tag_names") }?;
        let mut tags = TagTable::default();
        for (i, &name) in names.iter().enumerate() {
            // SAFETY: the caller's pointer.
            let name = unsafe { text(name, &format!("tag_names[{i}]")) }?;
            tags.mask(&[name])
                .ok_or_else(|| Failure::invalid("more than 64 tag names"))?;
        }
        let program = program_of(program)?;
        let made = with::<World, _>(world.id, "world", |world| {
            Crowd::with_tags(program, world, &tags, seed, &overrides)
                .map_err(|errors| Failure::list(SgStatus::Setup, &errors))
        })?;
        let id = insert(made)?;
        // SAFETY: checked above.
        unsafe { put(crowd, "crowd", SgCrowd { id }) }
    })
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

/// One steering per agent for this tick, into `steering` (room for `count`): `vehicles` are
/// the game's agents in a stable order, `tags` one mask per agent or `NULL` when the graph
/// uses no tags. Integrate with `sg_vehicles_step` for the editor's motion bit for bit.
///
/// # Safety
///
/// `vehicles` (and `tags` unless `NULL`) are valid for reading `count` elements; `steering` is
/// valid for writing `count` elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_steer(
    crowd: SgCrowd,
    world: SgWorld,
    vehicles: *const SgVehicle,
    tags: *const u64,
    count: usize,
    dt: f32,
    steering: *mut SgSteering,
) -> SgStatus {
    guard(|| {
        let dt = time_step(dt)?;
        // SAFETY: the caller's pointers.
        let (bodies, tags, mut out) = unsafe {
            (
                input(vehicles, count, "vehicles")?,
                if tags.is_null() {
                    &[][..]
                } else {
                    input(tags, count, "tags")?
                },
                Output::new(steering, count, "steering")?,
            )
        };
        if count > graph_runtime::limits::MAX_AGENTS {
            return Err(Failure::invalid(format!(
                "{count} agents, more than {}",
                graph_runtime::limits::MAX_AGENTS
            )));
        }
        let bodies = bodies
            .iter()
            .enumerate()
            .map(|(i, v)| v.to_vehicle(i))
            .collect::<Result<Vec<_>, _>>()?;
        let world = get::<World>(world.id, "world")?;
        let world = lock(&world)?;
        let mut result: Vec<Steering> = Vec::with_capacity(count);
        with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            crowd.steering(&world, &bodies, tags, dt, &mut result);
            Ok(())
        })?;
        for (i, s) in result.iter().enumerate() {
            out.set(
                i,
                SgSteering {
                    force: s.force.to_array(),
                    angular: s.angular,
                },
            );
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

/// Gives agent `agent` its own point `name` (for nodes whose target is `Own("name")`).
///
/// # Safety
///
/// `name` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_set_goal(
    crowd: SgCrowd,
    agent: usize,
    name: *const c_char,
    x: f32,
    y: f32,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointer.
        let name = unsafe { text(name, "name") }?;
        with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            crowd
                .set_goal(agent, name, Vec2::new(x, y))
                .map_err(|e| Failure::invalid(e.to_string()))
        })
    })
}

/// Takes agent `agent`'s own point `name` away: its `Own("name")` nodes give zero again.
///
/// # Safety
///
/// `name` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_clear_goal(
    crowd: SgCrowd,
    agent: usize,
    name: *const c_char,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointer.
        let name = unsafe { text(name, "name") }?;
        with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            crowd.clear_goal(agent, name);
            Ok(())
        })
    })
}

/// Gives agent `agent` its own route `name` (for `PathFollowing` nodes marked `own`): an open
/// path through `point_count` points (`xy`: `x0, y0, x1, y1, …`) of half-width `radius`; say,
/// the route the game's pathfinder found.
///
/// # Safety
///
/// `name` is a NUL-terminated string; `xy` is valid for reading `2 * point_count` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_set_route(
    crowd: SgCrowd,
    agent: usize,
    name: *const c_char,
    xy: *const f32,
    point_count: usize,
    radius: f32,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointers.
        let (name, route) = unsafe {
            (
                text(name, "name")?,
                points(xy, point_count, MAX_PATH_POINTS, "xy")?,
            )
        };
        with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            crowd
                .set_route(agent, name, route, radius)
                .map_err(|e| Failure::invalid(e.to_string()))
        })
    })
}

/// Takes agent `agent`'s own route `name` away.
///
/// # Safety
///
/// `name` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_clear_route(
    crowd: SgCrowd,
    agent: usize,
    name: *const c_char,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointer.
        let name = unsafe { text(name, "name") }?;
        with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            crowd.clear_route(agent, name);
            Ok(())
        })
    })
}

/// Runs `program` from now on for the same agents (hot reload): they keep their random
/// streams, goals and the state the new graph shares with the old. On an error nothing
/// changes and the crowd keeps its old program.
///
/// # Safety
///
/// `overrides` is valid for reading `override_count` parameters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_set_program(
    crowd: SgCrowd,
    program: SgProgram,
    world: SgWorld,
    overrides: *const SgParameter,
    override_count: usize,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointers.
        let overrides = unsafe { overrides_of(overrides, override_count) }?;
        let program = program_of(program)?;
        let world = get::<World>(world.id, "world")?;
        let world = lock(&world)?;
        with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            crowd
                .set_program(program, &world, &overrides)
                .map_err(|errors| Failure::list(SgStatus::Setup, &errors))
        })
    })
}

/// The jump events of the last `sg_crowd_steer` (take-offs the game should fly, landings,
/// falls): their number into `*count`, and the events into `events` (room for `capacity`;
/// `NULL` with `capacity` 0 asks for the number only).
///
/// # Safety
///
/// `events` is `NULL` or valid for writing `capacity` events; `count` is valid for writing one
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_jump_events(
    crowd: SgCrowd,
    events: *mut SgJumpEvent,
    capacity: usize,
    count: *mut usize,
) -> SgStatus {
    guard(|| {
        required(count, "count")?;
        let list = with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            Ok(crowd
                .jump_events()
                .iter()
                .map(|event| {
                    let mut out = SgJumpEvent {
                        agent: event.agent,
                        kind: SgJumpKind::Fell,
                        at: event.at.to_array(),
                        velocity: [0.0; 2],
                        vertical_velocity: 0.0,
                        flight_time: 0.0,
                        completed: false,
                    };
                    match &event.kind {
                        JumpEventKind::TakeOff {
                            velocity,
                            vertical_velocity,
                            flight_time,
                            ..
                        } => {
                            out.kind = SgJumpKind::TakeOff;
                            out.velocity = velocity.to_array();
                            out.vertical_velocity = *vertical_velocity;
                            out.flight_time = *flight_time;
                        }
                        JumpEventKind::Landed { completed, .. } => {
                            out.kind = SgJumpKind::Landed;
                            out.completed = *completed;
                        }
                        JumpEventKind::Fell => {}
                    }
                    out
                })
                .collect::<Vec<_>>())
        })?;
        // SAFETY: the caller's pointers.
        unsafe { put(count, "count", list.len()) }?;
        if events.is_null() && capacity == 0 {
            return Ok(());
        }
        // SAFETY: the caller's pointer.
        let mut out = unsafe { Output::new(events, capacity, "events") }?;
        out.needs(list.len(), "events")?;
        for (i, event) in list.into_iter().enumerate() {
            out.set(i, event);
        }
        Ok(())
    })
}

/// The name of the jump link of event `index` of the last `sg_crowd_steer` (empty for a
/// fall), copied as `sg_last_error` copies text.
///
/// # Safety
///
/// `name` is `NULL` or valid for writing `capacity` bytes; `length` is valid for writing one
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_jump_event_link(
    crowd: SgCrowd,
    index: usize,
    name: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> SgStatus {
    guard(|| {
        let link = with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            let events = crowd.jump_events();
            let event = events.get(index).ok_or_else(|| {
                Failure::invalid(format!("event {index}: the last tick had {}", events.len()))
            })?;
            Ok(match &event.kind {
                JumpEventKind::TakeOff { link, .. } | JumpEventKind::Landed { link, .. } => {
                    link.clone()
                }
                JumpEventKind::Fell => String::new(),
            })
        })?;
        // SAFETY: the caller's pointers.
        unsafe { put_text(&link, name, capacity, length, "name") }
    })
}

/// Frees a crowd. Zero is accepted and does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sg_crowd_free(crowd: SgCrowd) -> SgStatus {
    guard(|| remove::<Crowd>(crowd.id, "crowd"))
}
