//! What a program reads during one tick, shared by every agent of a group.

use glam::Vec2;

use super::super::bindings::{Bindings, TagMask};
use super::super::program::{ParamValues, Program, TargetRef};
use crate::spatial::SpatialGrid;
use crate::{OwnGoals, Vehicle, World};

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

    /// Where `target` is when it is not an agent: a point (this group's numbers), a scene
    /// target, or the point `own` holds under one of `program`'s own names; `None` when it
    /// does not exist, and for a tagged agent (the evaluator finds that one). The per-agent
    /// evaluator and the batch's aim kernel both ask here. Inlined: a point returned from a
    /// call comes back through memory, which stalled every Seek and Arrival on the store.
    #[expect(
        clippy::inline_always,
        reason = "a call returns the point through memory, the stall this function avoids"
    )]
    #[inline(always)]
    pub(crate) fn target_point(
        &self,
        program: &Program,
        own: &OwnGoals,
        target: TargetRef,
    ) -> Option<Vec2> {
        match target {
            TargetRef::Point(x, y) => Some(Vec2::new(x.get(self.params), y.get(self.params))),
            TargetRef::Named(name) => {
                let index = (*self.bindings.targets.get(name as usize)?)?;
                self.world.target_at(index)
            }
            TargetRef::Own(name) => {
                let name = program.own_shared.get(name as usize)?;
                own.goal_ref(name).copied()
            }
            TargetRef::Tagged(_) => None,
        }
    }
}
