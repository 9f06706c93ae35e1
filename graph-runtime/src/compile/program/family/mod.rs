//! The leaf ops, one file per family, and Reciprocal, whose force is chosen around its
//! input's: the family's op type, its lowering from the node, its force and its guide side by
//! side, so a kind of the family is one arm in each, in one file (CONTRIBUTING, "Add a node
//! kind"). The formulas stay `behaviors/`'s.
//!
//! A family file is written against two small interfaces, so it depends on neither the
//! lowering nor the evaluator: [`Lowering`] (what lowering one node's fields needs,
//! implemented in `lower/`) and [`Leaf`] (what a leaf reads of its agent and world,
//! implemented by `eval/`'s evaluator). Both are generic, so the calls inline as before.
//! The patterns naming every family's ops are `patterns.rs`'s.

mod aim;
mod course;
mod crossing;
mod facing;
mod follow;
mod group;
mod jumps;
mod patterns;
mod reciprocal;
mod sensors;
mod surroundings;

pub(crate) use aim::AimOp;
pub(crate) use course::CourseOp;
pub(crate) use crossing::CrossingOp;
pub(crate) use facing::{FacingOp, alignment};
pub(crate) use follow::FollowOp;
pub(crate) use group::GroupOp;
pub(crate) use jumps::JumpOp;
pub(crate) use patterns::{
    angular_leaf_ops, combiner_ops, condition_leaf_ops, force_leaf_ops, sensor_ops,
};
pub(crate) use reciprocal::ReciprocalOp;
pub(crate) use sensors::SensorOp;
pub(crate) use surroundings::SurroundingsOp;

use glam::Vec2;

use crate::behaviors::{OrcaLine, Quarry, ReciprocalSettings};
use crate::compile::guide::Guide;
use crate::graph::{Heading, Link, Number, Target, VelocitySource};
use crate::spatial::SpatialGrid;
use crate::{FlowField, JumpLink, Path, Vehicle, World};

use super::operands::{Fov, HeadingRef, Names, Num, TargetRef, VelocityRef};
use super::route_slot::RouteSlot;
use super::{ParamValues, TakeOff};

/// What lowering a node's fields needs: each call resolves one field of the node being
/// lowered, with the range the node table gives it.
pub(crate) trait Lowering {
    /// The number `number`, a field of the node being lowered (a reference into the node, so
    /// a field the kind lacks, or a misspelt one, does not build), with the slot and range
    /// the node table gives it.
    fn number(&mut self, number: &Number) -> Num;

    /// The numbers `numbers`, resolved in that order.
    fn numbers<const N: usize>(&mut self, numbers: [&Number; N]) -> [Num; N] {
        numbers.map(|number| self.number(number))
    }

    /// A target field: a point's coordinates, or a name interned into its table.
    fn target(&mut self, target: &Target) -> TargetRef;

    /// A heading field: an angle, a direction's components, or a target whose facing it is.
    fn heading(&mut self, heading: &Heading) -> HeadingRef;

    /// A velocity field: a fixed velocity's components, or a target whose velocity it is.
    fn velocity(&mut self, velocity: &VelocitySource) -> VelocityRef;

    /// A field of view (degrees), prepared once when it is a literal.
    fn fov(&mut self, fov: &Number) -> Fov;

    /// `name`'s index in the program's name table `table`, interned there if new.
    fn name(&mut self, table: Names, name: &str) -> u16;

    /// A new slot for a Wander node's angle in each agent's state.
    fn wander_slot(&mut self) -> u32;

    /// A new slot for a Navigate node's route in each agent's state.
    fn route_slot(&mut self) -> u32;

    /// The op an input link of the node reads (compiled before the node).
    fn link(&mut self, link: Link) -> u32;
}

/// What a leaf reads while one agent's program is evaluated.
pub(crate) trait Leaf {
    /// Whether the evaluation is traced (guides and node values recorded): a constant, so
    /// an untraced run builds no guide.
    const TRACED: bool;

    /// The tick's length (seconds).
    fn dt(&self) -> f32;

    /// The agent's own vehicle.
    fn me(&self) -> &Vehicle;

    /// The agent's index (among the vehicles the grid was built over).
    fn agent(&self) -> usize;

    /// The parameter values of the agent's group.
    fn params(&self) -> &ParamValues;

    /// The spatial grid built over every agent this tick.
    fn grid(&self) -> &SpatialGrid;

    /// A resolved number's value (a parameter's for this agent).
    fn num(&self, number: Num) -> f32;

    /// Where a target is and how it moves; `None` when it does not exist.
    fn quarry(&self, target: TargetRef) -> Option<Quarry>;

    /// Where a target is (the position of [`Leaf::quarry`]), for the behaviors that need no
    /// more: small enough to come back in registers.
    fn quarry_position(&self, target: TargetRef) -> Option<Vec2>;

    /// The world the agent moves in.
    fn world(&self) -> &World;

    /// The nearest other agent carrying the program's tag `tag`.
    fn tagged(&self, tag: u16) -> Option<&Vehicle>;

    /// The world path the program's path `path` is bound to, or with `own` the agent's own
    /// route of that own name; `None` when there is none.
    fn path(&self, path: u16, own: bool) -> Option<&Path>;

    /// The world flow field the program's field `field` is bound to.
    fn flow_field(&self, field: u16) -> Option<&FlowField>;

    /// The world jump link the program's jump link `link` is bound to, with its index in
    /// the world.
    fn jump_link(&self, link: u16) -> Option<(usize, &JumpLink)>;

    /// Whether the agent has made the jump of the world's link `index` already.
    fn has_jumped(&self, index: usize) -> bool;

    /// Hands the driver the agent's take-off (it becomes airborne this tick).
    fn take_off(&mut self, take_off: TakeOff);

    /// The agent's wander angle of slot `slot` (radians), as the last step left it.
    fn wander_angle(&self, slot: u32) -> f32;

    /// Turns the agent's wander angle of slot `slot` by one draw of its RNG, up to `jitter`
    /// radians per second over the tick; returns the new angle.
    fn turn_wander(&mut self, slot: u32, jitter: f32) -> f32;

    /// `each` applied to the agent's vehicle and the other agents the program's one-by-one
    /// neighbor query finds around it, in ascending agent index; in a neighborhood more
    /// crowded than the grid answers well, only its `most` nearest.
    fn with_others<E: OverOthers>(&mut self, most: usize, each: E) -> E::Value;

    /// Reciprocal's solve with `settings` around the preferred force `preferred`, over the
    /// `max_neighbors` nearest other agents within the neighbor radius:
    /// `(preferred velocity, chosen velocity, fallback)`, its half-planes left in
    /// [`orca_lines`](Leaf::orca_lines). The tick has a length.
    fn reciprocal_velocity(
        &mut self,
        settings: &ReciprocalSettings,
        preferred: Vec2,
    ) -> (Vec2, Vec2, bool);

    /// The half-planes of the agent's last Reciprocal solve.
    fn orca_lines(&self) -> &[OrcaLine];

    /// Remembers the velocity the agent's Reciprocal node preferred (its state, for the
    /// next tick's neighbors).
    fn remember_preferred(&mut self, preferred: Vec2);

    /// The agent's route of slot `slot` (a Navigate node's), if the program has that many.
    fn route_slot(&mut self, slot: u32) -> Option<&mut RouteSlot>;

    /// Tells the route planner it has something to do for one of the agent's routes
    /// ([`RouteSlot::needs_planner`]).
    fn ask_planner(&mut self);

    /// The same, to read (the guides).
    fn route_ref(&self, slot: u32) -> Option<&RouteSlot>;

    /// The guide of the node being evaluated, when only its evaluation knows it.
    fn leave_guide(&mut self, guide: Guide);
}

/// What a leaf computes over the other agents a one-by-one neighbor query found
/// ([`Leaf::with_others`]). A trait rather than a closure so that it is generic over the
/// iterator: the query's two answers (the grid's candidates, a crowded neighborhood's
/// nearest) are two iterator types, and each gets its own inlined copy of the formula's loop.
pub(crate) trait OverOthers {
    /// What it computes (a force).
    type Value;

    /// The value for the agent `me` among `others`, in ascending agent index.
    fn over<'v>(self, me: &Vehicle, others: impl Iterator<Item = &'v Vehicle>) -> Self::Value;
}
