//! What a program reads during one tick, shared by every agent of a group.

use super::super::bindings::{Bindings, TagMask};
use super::super::program::ParamValues;
use crate::spatial::SpatialGrid;
use crate::{Vehicle, World};

/// Everything a program reads during one tick, shared by all agents of one group.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// Obstacles, paths, flow fields, named targets and bounds.
    pub world: &'a World,
    /// Every agent's vehicle at the start of the tick.
    pub vehicles: &'a [Vehicle],
    /// Every agent's tags, parallel to `vehicles` (may be empty when no program uses tags).
    pub tags: &'a [TagMask],
    /// Every agent's avoidance priority and layers, parallel to `vehicles`; empty when every
    /// agent has the default (priority 1, on layer 1 and avoiding layer 1), the usual case.
    pub avoidance: &'a [crate::Avoidance],
    /// The spatial grid built over `vehicles` for this tick.
    pub grid: &'a SpatialGrid,
    /// The program's names resolved against `world`.
    pub bindings: &'a Bindings,
    /// Parameter values of the group.
    pub params: &'a ParamValues,
    /// Tick length (s).
    pub dt: f32,
}

impl<'a> Context<'a> {
    /// What a program bound as `bindings` with parameter values `params` reads this tick:
    /// `world`, every agent's vehicle (`vehicles`, by agent index), the grid built over them,
    /// and the tick length `dt` (s). No agent carries a tag; set [`Context::tags`] for a
    /// program that looks for tagged agents:
    /// `Context { tags: &tags, ..Context::new(…) }`.
    pub fn new(
        world: &'a World,
        vehicles: &'a [Vehicle],
        grid: &'a SpatialGrid,
        bindings: &'a Bindings,
        params: &'a ParamValues,
        dt: f32,
    ) -> Self {
        Self {
            world,
            vehicles,
            tags: &[],
            avoidance: &[],
            grid,
            bindings,
            params,
            dt,
        }
    }
}
