//! What the crowd's buffers hold, laid out as the shader reads them: agents, the tick's
//! numbers and grid, the agents' streams and wander angles; and
//! what of a scene the GPU tick does not simulate.

use bytemuck::{Pod, Zeroable};
use glam::Vec2;
use graph_runtime::{AgentRng, Simulation, TagMask, Vehicle, World};

use crate::GpuError;
use crate::lower::Lowered;

/// One agent as the shader keeps it (`Agent` in `shader/step.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct GpuAgent {
    /// Position.
    pub position: [f32; 2],
    /// Velocity.
    pub velocity: [f32; 2],
    /// Unit heading.
    pub forward: [f32; 2],
    /// Mass.
    pub mass: f32,
    /// Largest steering force.
    pub max_force: f32,
    /// Top speed.
    pub max_speed: f32,
    /// Bounding radius.
    pub radius: f32,
    /// Its group's index in the simulation.
    pub group: u32,
    /// Padding to the shader's layout.
    pub pad: u32,
}

/// The tick's numbers (`Tick` in the shader).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct Tick {
    pub agents: u32,
    /// Blocks of 256 cells the scan takes.
    pub blocks: u32,
    pub columns: u32,
    pub rows: u32,
    pub origin: [f32; 2],
    pub side: f32,
    pub dt: f32,
}

/// The grid over the world's bounds: cells as wide as the widest neighborhood (4 with none),
/// made wider while there would be more than `max(4 * agents, 65,536)` of them.
pub(crate) fn grid(world: &World, lowered: &Lowered, agents: u32) -> Tick {
    let bounds = world.bounds;
    let size = (bounds.max - bounds.min).max(Vec2::ZERO).as_dvec2();
    let mut side = if lowered.widest > 0.0 {
        f64::from(lowered.widest)
    } else {
        4.0
    };
    let most = f64::from(agents.saturating_mul(4).max(65_536));
    let count = |side: f64| {
        (
            (size.x / side).ceil().max(1.0),
            (size.y / side).ceil().max(1.0),
        )
    };
    while {
        let (c, r) = count(side);
        c * r > most
    } {
        side *= 2.0;
    }
    let (columns, rows) = count(side);
    let cells = columns * rows;
    Tick {
        agents,
        blocks: (cells / 256.0).ceil() as u32,
        columns: columns as u32,
        rows: rows as u32,
        origin: bounds.min.into(),
        side: side as f32,
        dt: 0.0,
    }
}

/// Every agent's random stream and wander angles as the simulation holds them now, so the
/// GPU carries the run on: `4 + wander_slots` words an agent (one word at least).
pub(crate) fn agent_states(simulation: &Simulation, wander_slots: u32) -> Vec<u32> {
    let stride = 4 + wander_slots as usize;
    let mut words = Vec::with_capacity(simulation.vehicles().len() * stride + 1);
    for agent in 0..simulation.vehicles().len() {
        match simulation.agent_state(agent) {
            Some(state) => {
                words.extend(state.rng().words());
                words.extend((0..wander_slots).map(|slot| state.wander(slot).to_bits()));
            }
            None => words.extend(std::iter::repeat_n(0, stride)),
        }
    }
    if words.is_empty() {
        words.push(0);
    }
    words
}

/// What the GPU tick does not simulate: walls (solid or not), jump links, and (of `vehicles`)
/// turning limits and independent facing.
pub(crate) fn check_scene<'v>(
    world: &World,
    mut vehicles: impl Iterator<Item = &'v Vehicle>,
) -> Result<(), GpuError> {
    if !world.walls().is_empty() {
        return Err(GpuError::SceneUnsupported(format!(
            "the world has {} walls",
            world.walls().len()
        )));
    }
    let links = world.jump_links().count();
    if links > 0 {
        return Err(GpuError::SceneUnsupported(format!(
            "the world has {links} jump links"
        )));
    }
    if let Some(i) = vehicles
        .position(|v| v.turning.independent_facing || v.turning.max_turn_rate < f32::INFINITY)
    {
        return Err(GpuError::SceneUnsupported(format!(
            "agent {i} turns with a limit or faces on its own"
        )));
    }
    Ok(())
}

/// An agent of [`crate::GpuCrowd::with_agents`]: its vehicle, group, stream and tags.
#[derive(Clone, Debug)]
pub struct NewAgent {
    /// Its vehicle.
    pub vehicle: Vehicle,
    /// Its group's index in the template simulation.
    pub group: usize,
    /// Its random stream (`AgentRng::new(seed, index)` for a fresh agent).
    pub rng: AgentRng,
    /// The tags it carries, as the template's tag table numbers them.
    pub tags: TagMask,
}

impl GpuAgent {
    /// `vehicle` of group `group` as the shader keeps it.
    pub(crate) fn of(vehicle: &Vehicle, group: u32) -> Self {
        Self {
            position: vehicle.position.into(),
            velocity: vehicle.velocity.into(),
            forward: vehicle.forward.into(),
            mass: vehicle.mass,
            max_force: vehicle.max_force,
            max_speed: vehicle.max_speed,
            radius: vehicle.radius,
            group,
            pad: 0,
        }
    }
}
