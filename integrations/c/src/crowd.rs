//! The game's own agents: it passes them as an array each tick and gets their steering back,
//! and gives agents goals and routes of their own. Their bodies are `vehicle.rs`, their jump
//! events `jumps.rs`.

use std::collections::BTreeMap;
use std::ffi::c_char;
use std::sync::Arc;

use glam::Vec2;
use graph_runtime::limits::MAX_PATH_POINTS;
use graph_runtime::{Crowd, Program, Steering, TagTable, World};

use crate::handles::{get, insert, lock, remove, with};
use crate::kinds::{SgCrowd, SgProgram, SgWorld};
use crate::ptr::{Output, input, put, required, text, time_step};
use crate::status::{Answer, Failure, SgStatus, guard};
use crate::vehicle::{SgSteering, SgVehicle};
use crate::world::points;

/// A graph parameter set to a value (an override of its default).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SgParameter {
    /// The parameter's name, NUL terminated.
    pub name: *const c_char,
    /// Its value.
    pub value: f32,
}

/// The overrides at `overrides`, by name.
///
/// # Safety
///
/// `overrides` is valid for reading `count` parameters whose names are NUL-terminated strings.
pub(crate) unsafe fn overrides_of(
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

pub(crate) fn program_of(program: SgProgram) -> Result<Arc<Program>, Failure> {
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

/// One steering per agent for this tick, into `steering` (room for `count`): `vehicles` are
/// the game's agents in a stable order, `tags` one mask per agent or `NULL` when the graph
/// uses no tags (`SG_STATUS_NULL_POINTER` when it does). Integrate with `sg_vehicles_step` for
/// the editor's motion bit for bit. In a
/// world other than the one the crowd was made for (or one that gained a name since), the
/// names its graph uses are bound again by name; `SG_STATUS_SETUP`, naming what is missing,
/// when the world lacks one. A tick whose work grows past a scene's limits (agents ×
/// neighbors kept, as `sg_crowd_step`) is refused, `SG_STATUS_INVALID_ARGUMENT`.
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
            tags_given(crowd, !tags.is_empty() || count == 0)?;
            bind_to(crowd, &world)?;
            // A tick over the work limits is refused by the crowd before any work.
            crowd.steering(&world, &bodies, tags, dt, &mut result);
            crowd
                .refusal()
                .map_or(Ok(()), |e| Err(Failure::invalid(e.to_string())))
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

/// Gives agent `agent` its own point `name` (for nodes whose target is `Own("name")`).
/// `SG_STATUS_INVALID_ARGUMENT` for a name none of the crowd's graphs reads (a misspelling),
/// naming the ones they read: set a goal a new graph adds after `sg_crowd_set_program`.
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
/// the route the game's pathfinder found. A name none of the crowd's graphs reads is refused
/// as `sg_crowd_set_goal` refuses one.
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

/// Refuses a call without tags (`NULL`) for a crowd whose graphs read them: every agent would
/// otherwise count as carrying none, and `NearestTagged` would find no one.
pub(crate) fn tags_given(crowd: &Crowd, given: bool) -> Answer {
    if given || !crowd.reads_tags() {
        return Ok(());
    }
    Err(Failure::new(
        SgStatus::NullPointer,
        "tags is NULL, but the crowd's graph reads tags (NearestTagged): pass one mask per agent",
    ))
}

/// Binds `crowd`'s names to `world` again if they do not hold there (a crowd steered in a
/// world other than the one it was made for): refused, naming what `world` lacks, rather than
/// steering toward whatever stands at a name's place in the other world.
pub(crate) fn bind_to(crowd: &mut Crowd, world: &World) -> Answer {
    crowd.bind_to(world).map(|_| ()).map_err(|errors| {
        let lines: Vec<String> = errors
            .iter()
            .map(|error| format!("the world lacks what the crowd's graph names: {error}"))
            .collect();
        Failure::new(SgStatus::Setup, lines.join("\n"))
    })
}

/// Frees a crowd. Zero is accepted and does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sg_crowd_free(crowd: SgCrowd) -> SgStatus {
    guard(|| remove::<Crowd>(crowd.id, "crowd"))
}
