//! A whole scene running: create, step with a dt, read every agent into the caller's arrays
//! in one call per tick.

use std::ffi::c_char;

use graph_runtime::{SceneAssets, Simulation};

use crate::handles::{insert, remove, with};
use crate::kinds::{SgScene, SgSimulation};
use crate::ptr::{Output, put, put_text, required, text, time_step};
use crate::status::{Failure, SgStatus, guard};
use crate::world::point;

/// Where `sg_simulation_read` writes the agents, agent `i` at index `i` (or `2 * i` and
/// `2 * i + 1` for x and y). Every pointer may be `NULL`: that array is not wanted. Each
/// non-`NULL` array has room for `capacity` agents.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SgAgentArrays {
    /// Room in every array, in agents.
    pub capacity: usize,
    /// Positions, `x0, y0, x1, y1, …` (2 floats per agent).
    pub position: *mut f32,
    /// Velocities, 2 floats per agent (units / s).
    pub velocity: *mut f32,
    /// Facings: radians counter-clockwise from +x; the direction of motion unless the graph
    /// gives the agent a facing of its own.
    pub angle: *mut f32,
    /// Angular velocities of the facings (radians / s; zero without a facing of its own).
    pub angular_velocity: *mut f32,
    /// Heights above the ground while in the air on a jump (units); zero on the ground.
    pub height: *mut f32,
    /// 1 while in the air on a jump, else 0.
    pub airborne: *mut u8,
    /// Tag masks: bit `b` set when the agent carries tag `b` (`sg_simulation_tag_name`).
    pub tags: *mut u64,
    /// The index of the agent's group in the scene (`sg_simulation_group_name`).
    pub group: *mut u32,
}

/// Builds the world, compiles every group's graph and spawns the agents of a loaded scene.
/// `seed` overrides the scene's seed when not `NULL`. Every problem is reported, one per line.
///
/// # Safety
///
/// `seed` is `NULL` or valid for reading one `uint64_t`; `simulation` is valid for writing one
/// handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_simulation_create(
    scene: SgScene,
    seed: *const u64,
    simulation: *mut SgSimulation,
) -> SgStatus {
    guard(|| {
        required(simulation, "simulation")?;
        // SAFETY: the caller's pointer, read only when not NULL.
        let seed = unsafe { crate::ptr::input(seed, usize::from(!seed.is_null()), "seed") }?
            .first()
            .copied();
        let made = with::<SceneAssets, _>(scene.id, "scene", |assets| {
            let run = |assets: &SceneAssets| {
                Simulation::new(assets).map_err(|errors| Failure::list(SgStatus::Setup, &errors))
            };
            match seed {
                Some(seed) => {
                    let mut reseeded = assets.clone();
                    reseeded.scene.seed = seed;
                    run(&reseeded)
                }
                None => run(assets),
            }
        })?;
        let id = insert(made)?;
        // SAFETY: checked above.
        unsafe { put(simulation, "simulation", SgSimulation { id }) }
    })
}

/// Advances the simulation by `dt` seconds (a finite number > 0), in parallel on the
/// library's worker threads; the result is the same bit for bit on any number of threads.
#[unsafe(no_mangle)]
pub extern "C" fn sg_simulation_step(simulation: SgSimulation, dt: f32) -> SgStatus {
    guard(|| {
        let dt = time_step(dt)?;
        with::<Simulation, _>(simulation.id, "simulation", |simulation| {
            simulation.step(dt);
            Ok(())
        })
    })
}

/// How many agents the simulation has (the same every tick).
///
/// # Safety
///
/// `count` is valid for writing one `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_simulation_agent_count(
    simulation: SgSimulation,
    count: *mut usize,
) -> SgStatus {
    guard(|| {
        let value = with::<Simulation, _>(simulation.id, "simulation", |s| Ok(s.vehicles().len()))?;
        // SAFETY: the caller's pointer.
        unsafe { put(count, "count", value) }
    })
}

/// How many ticks have run since the simulation was created.
///
/// # Safety
///
/// `tick` is valid for writing one `uint64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_simulation_tick(simulation: SgSimulation, tick: *mut u64) -> SgStatus {
    guard(|| {
        let value = with::<Simulation, _>(simulation.id, "simulation", |s| Ok(s.tick()))?;
        // SAFETY: the caller's pointer.
        unsafe { put(tick, "tick", value) }
    })
}

/// Whether the scene uses facings of their own, turn limits or jumps: `steergraph simulate`
/// then writes the `angle,angular_velocity,height` columns.
///
/// # Safety
///
/// `uses` is valid for writing one `bool`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_simulation_uses_facing(
    simulation: SgSimulation,
    uses: *mut bool,
) -> SgStatus {
    guard(|| {
        let value =
            with::<Simulation, _>(
                simulation.id,
                "simulation",
                |s| Ok(s.uses_facing_or_jumps()),
            )?;
        // SAFETY: the caller's pointer.
        unsafe { put(uses, "uses", value) }
    })
}

/// Reads every agent into `arrays` (the arrays wanted, each with room for
/// `arrays->capacity` agents): one call per tick. Refused with `SG_STATUS_ARRAY_TOO_SHORT`,
/// nothing written, when the capacity is below the agent count.
///
/// # Safety
///
/// `arrays` is valid for reading one `SgAgentArrays`, whose non-`NULL` pointers are valid for
/// writing `capacity` agents' values.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_simulation_read(
    simulation: SgSimulation,
    arrays: *const SgAgentArrays,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointer, one element.
        let arrays = *unsafe { crate::ptr::input(arrays, 1, "arrays") }?
            .first()
            .ok_or_else(|| Failure::new(SgStatus::NullPointer, "arrays is NULL"))?;
        let n = arrays.capacity;
        // SAFETY: the caller promises room for `capacity` agents in each non-NULL array.
        let (
            mut position,
            mut velocity,
            mut angle,
            mut spin,
            mut height,
            mut airborne,
            mut tags,
            mut group,
        ) = unsafe {
            (
                Output::optional(arrays.position, n.saturating_mul(2), "arrays.position")?,
                Output::optional(arrays.velocity, n.saturating_mul(2), "arrays.velocity")?,
                Output::optional(arrays.angle, n, "arrays.angle")?,
                Output::optional(arrays.angular_velocity, n, "arrays.angular_velocity")?,
                Output::optional(arrays.height, n, "arrays.height")?,
                Output::optional(arrays.airborne, n, "arrays.airborne")?,
                Output::optional(arrays.tags, n, "arrays.tags")?,
                Output::optional(arrays.group, n, "arrays.group")?,
            )
        };
        with::<Simulation, _>(simulation.id, "simulation", |simulation| {
            let vehicles = simulation.vehicles();
            if n < vehicles.len() {
                return Err(Failure::new(
                    SgStatus::ArrayTooShort,
                    format!(
                        "arrays.capacity is {n}, the simulation has {} agents",
                        vehicles.len()
                    ),
                ));
            }
            for (i, vehicle) in vehicles.iter().enumerate() {
                if let Some(out) = &mut position {
                    out.set(2 * i, vehicle.position.x);
                    out.set(2 * i + 1, vehicle.position.y);
                }
                if let Some(out) = &mut velocity {
                    out.set(2 * i, vehicle.velocity.x);
                    out.set(2 * i + 1, vehicle.velocity.y);
                }
                if let Some(out) = &mut angle {
                    out.set(i, vehicle.facing());
                }
                if let Some(out) = &mut spin {
                    out.set(i, vehicle.spin());
                }
            }
            if height.is_some() || airborne.is_some() {
                for i in 0..vehicles.len() {
                    let flight = simulation.flight(i);
                    if let Some(out) = &mut height {
                        out.set(i, flight.map_or(0.0, graph_runtime::Flight::height));
                    }
                    if let Some(out) = &mut airborne {
                        out.set(i, u8::from(flight.is_some()));
                    }
                }
            }
            if let Some(out) = &mut tags {
                for (i, &mask) in simulation.tags().iter().enumerate() {
                    out.set(i, mask);
                }
            }
            if let Some(out) = &mut group {
                for i in 0..vehicles.len() {
                    out.set(i, simulation.group_of(i).unwrap_or(0) as u32);
                }
            }
            Ok(())
        })
    })
}

/// Gives agent `agent` its own point `name` (for graph nodes whose target is `Own("name")`),
/// replacing an earlier one: say, the next waypoint the game's pathfinder chose.
///
/// # Safety
///
/// `name` is a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_simulation_set_goal(
    simulation: SgSimulation,
    agent: usize,
    name: *const c_char,
    x: f32,
    y: f32,
) -> SgStatus {
    guard(|| {
        // SAFETY: the caller's pointer.
        let name = unsafe { text(name, "name") }?;
        let goal = point(x, y, "goal")?;
        with::<Simulation, _>(simulation.id, "simulation", |simulation| {
            let count = simulation.vehicles().len();
            let own = simulation.own_mut(agent).ok_or_else(|| {
                Failure::invalid(format!("agent {agent}: the simulation has {count} agents"))
            })?;
            own.set_goal(name, goal);
            Ok(())
        })
    })
}

/// The name of tag bit `bit` (copied as `sg_last_error` copies text).
///
/// # Safety
///
/// `name` is `NULL` or valid for writing `capacity` bytes; `length` is valid for writing one
/// `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_simulation_tag_name(
    simulation: SgSimulation,
    bit: u32,
    name: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> SgStatus {
    guard(|| {
        let text = with::<Simulation, _>(simulation.id, "simulation", |s| {
            let names = s.tag_names();
            names.get(bit as usize).cloned().ok_or_else(|| {
                Failure::invalid(format!("tag bit {bit}: the scene has {} tags", names.len()))
            })
        })?;
        // SAFETY: the caller's pointers.
        unsafe { put_text(&text, name, capacity, length, "name") }
    })
}

/// The name of group `index` (as in the scene file; copied as `sg_last_error` copies text).
///
/// # Safety
///
/// As [`sg_simulation_tag_name`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_simulation_group_name(
    simulation: SgSimulation,
    index: u32,
    name: *mut c_char,
    capacity: usize,
    length: *mut usize,
) -> SgStatus {
    guard(|| {
        let text = with::<Simulation, _>(simulation.id, "simulation", |s| {
            let groups = s.groups();
            groups
                .get(index as usize)
                .map(|g| g.name.clone())
                .ok_or_else(|| {
                    Failure::invalid(format!(
                        "group {index}: the scene has {} groups",
                        groups.len()
                    ))
                })
        })?;
        // SAFETY: the caller's pointers.
        unsafe { put_text(&text, name, capacity, length, "name") }
    })
}

/// Frees a simulation. Zero is accepted and does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sg_simulation_free(simulation: SgSimulation) -> SgStatus {
    guard(|| remove::<Simulation>(simulation.id, "simulation"))
}
