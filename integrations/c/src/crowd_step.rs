//! A crowd that steps the game's agents itself, as a simulation does (`Crowd::step`: walls,
//! stuck clocks, jumps and falls), and a crowd of several programs, as a scene's groups.

use graph_runtime::limits::MAX_AGENTS;
use graph_runtime::{Crowd, Motion, World};

use crate::crowd::{SgParameter, overrides_of, program_of};
use crate::handles::{get, lock, with};
use crate::kinds::{SgCrowd, SgProgram, SgWorld};
use crate::ptr::{Output, input, put, required, time_step};
use crate::status::{Failure, SgStatus, guard};
use crate::vehicle::SgVehicle;

/// How an agent moves now.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SgMotion {
    /// On the ground, steered.
    Walking = 0,
    /// In the air on a jump: steering is ignored.
    Airborne = 1,
    /// Fell into a gap: it stays where it fell.
    Fallen = 2,
}

/// What a crowd keeps of one agent between ticks, besides its vehicle.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgAgentStatus {
    /// How long the agent has been stuck (s): asking to move and hardly moving, as the
    /// editor's preview counts it. Kept by `sg_crowd_step`.
    pub stuck_for: f32,
    /// Walking, airborne or fallen.
    pub motion: SgMotion,
}

/// Adds `program` to the crowd as one more group (with `override_count` parameter
/// `overrides`), for agents that run another graph than the crowd's first, as a scene's
/// groups do; its number goes into `*group` (the first program is group 0). Agents see every
/// group's agents as neighbors. A name the graph uses that the world lacks is refused.
///
/// # Safety
///
/// `overrides` is valid for reading `override_count` parameters; `group` is valid for writing
/// one `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_add_program(
    crowd: SgCrowd,
    program: SgProgram,
    world: SgWorld,
    overrides: *const SgParameter,
    override_count: usize,
    group: *mut usize,
) -> SgStatus {
    guard(|| {
        required(group, "group")?;
        // SAFETY: the caller's pointers.
        let overrides = unsafe { overrides_of(overrides, override_count) }?;
        let program = program_of(program)?;
        let world = get::<World>(world.id, "world")?;
        let world = lock(&world)?;
        let added = with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            crowd
                .add_program(program, &world, &overrides)
                .map_err(|errors| Failure::list(SgStatus::Setup, &errors))
        })?;
        // SAFETY: checked above.
        unsafe { put(group, "group", added) }
    })
}

/// Makes agent `agent` run group `group`'s program from now on (0 until set).
#[unsafe(no_mangle)]
pub extern "C" fn sg_crowd_set_group(crowd: SgCrowd, agent: usize, group: usize) -> SgStatus {
    guard(|| {
        with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            if crowd.set_group(agent, group) {
                Ok(())
            } else {
                Err(Failure::invalid(format!(
                    "agent {agent}, group {group}: no such group, or an agent index not below {MAX_AGENTS}"
                )))
            }
        })
    })
}

/// Steps the game's `count` agents `vehicles` by one tick of `dt` seconds, in place, as a
/// simulation of the same agents does, bit for bit: each is steered from the state at the
/// start of the tick, then moved (solid walls stop and slide it) with its stuck clock, and in
/// a world with gaps or jump links Jump nodes' agents take off and fly here and walkers that
/// step into a gap fall (`sg_crowd_jump_events`, `sg_crowd_agent_status`). `tags` is one mask
/// per agent, or `NULL` when the graphs use no tags. On an error no vehicle changes. A world
/// other than the crowd's is bound by name, as `sg_crowd_steer` binds it. A tick whose work
/// grows past a scene's limits (agents × neighbors kept, paths' segments, gaps' corners) is
/// refused before it starts, `SG_STATUS_INVALID_ARGUMENT`, the numbers in `sg_last_error`.
///
/// # Safety
///
/// `vehicles` is valid for reading and writing `count` vehicles, `tags` (unless `NULL`) for
/// reading `count` masks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_step(
    crowd: SgCrowd,
    world: SgWorld,
    vehicles: *mut SgVehicle,
    tags: *const u64,
    count: usize,
    dt: f32,
) -> SgStatus {
    guard(|| {
        let dt = time_step(dt)?;
        if count > MAX_AGENTS {
            return Err(Failure::invalid(format!(
                "{count} agents, more than {MAX_AGENTS}"
            )));
        }
        // SAFETY: the caller's pointers; the vehicles are copied out before they are written.
        let (mut bodies, tags) = unsafe {
            let bodies = input(vehicles.cast_const(), count, "vehicles")?
                .iter()
                .enumerate()
                .map(|(i, v)| v.to_vehicle(i))
                .collect::<Result<Vec<_>, _>>()?;
            let tags = if tags.is_null() {
                &[][..]
            } else {
                input(tags, count, "tags")?
            };
            (bodies, tags)
        };
        let world = get::<World>(world.id, "world")?;
        let world = lock(&world)?;
        with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            crate::crowd::tags_given(crowd, !tags.is_empty() || count == 0)?;
            crate::crowd::bind_to(crowd, &world)?;
            // A tick over the work limits is refused by the crowd before any work.
            crowd.step(&world, &mut bodies, tags, dt);
            crowd
                .refusal()
                .map_or(Ok(()), |e| Err(Failure::invalid(e.to_string())))
        })?;
        // SAFETY: the caller's pointer, checked for `count` above by `input`.
        let mut out = unsafe { Output::new(vehicles, count, "vehicles") }?;
        for (i, body) in bodies.iter().enumerate() {
            out.set(i, SgVehicle::from_vehicle(body));
        }
        Ok(())
    })
}

/// Agent `agent`'s stuck clock and motion, into `*status`.
///
/// # Safety
///
/// `status` is valid for writing one `SgAgentStatus`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sg_crowd_agent_status(
    crowd: SgCrowd,
    agent: usize,
    status: *mut SgAgentStatus,
) -> SgStatus {
    guard(|| {
        required(status, "status")?;
        let found = with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            Ok(SgAgentStatus {
                stuck_for: crowd.stuck_for(agent),
                motion: match crowd.motion(agent) {
                    Motion::Walking => SgMotion::Walking,
                    Motion::Airborne => SgMotion::Airborne,
                    Motion::Fallen => SgMotion::Fallen,
                },
            })
        })?;
        // SAFETY: checked above.
        unsafe { put(status, "status", found) }
    })
}
