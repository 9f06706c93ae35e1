//! A compiled program: its ops and tables (`op.rs`, their operands `operands.rs`, the leaf
//! families `family/`), what it needs per agent (`state.rs`) and
//! per thread (`scratch.rs`), and the questions a simulation asks it.

use std::collections::BTreeMap;

mod family;
mod goal;
mod jump;
mod op;
mod operands;
mod route_slot;
mod scratch;
mod state;

pub(crate) use family::{
    AimOp, CourseOp, CrossingOp, FacingOp, FollowOp, GroupOp, JumpOp, Leaf, Lowering, OverOthers,
    ReciprocalOp, SensorOp, SurroundingsOp, alignment, angular_leaf_ops, combiner_ops,
    condition_leaf_ops, force_leaf_ops, sensor_ops,
};
pub use jump::TakeOff;
pub(crate) use op::{NeighborUse, Op};
pub(crate) use operands::{Fov, HeadingRef, Names, Num, Span, TargetRef, VelocityRef};
pub use route_slot::{RouteSlot, RouteStatus};
pub(crate) use scratch::Frame;
pub use scratch::Scratch;
pub use state::AgentState;
pub(crate) use state::TwoParts;

use std::sync::Arc;

use super::error::CompileError;
use crate::graph::{Constraint, Graph, NodeId, Slot};
use crate::{TurningParams, VehicleParams};

/// Where a graph parameter is used and what range each use demands.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ParameterUse {
    pub node: Option<NodeId>,
    pub field: Slot,
    pub constraint: Constraint,
}

/// A compiled steering graph: evaluates one agent's steering force per call, without heap
/// allocation once its scratch buffers are warm.
///
/// Built by [`crate::compile`]. A program does not know any scene: names of paths, flow fields,
/// targets and tags are bound to a [`crate::World`] with [`crate::Bindings`].
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) ops: Vec<Op>,
    pub(crate) op_nodes: Vec<NodeId>,
    pub(crate) shared: Vec<bool>,
    pub(crate) root: u32,
    pub(crate) weighted: Vec<(u32, Num)>,
    pub(crate) links: Vec<u32>,
    pub(crate) parameter_names: Vec<String>,
    pub(crate) parameter_defaults: Vec<f32>,
    pub(crate) parameter_uses: Vec<Vec<ParameterUse>>,
    pub(crate) vehicle: [Num; 4],
    pub(crate) turning: TurningNums,
    pub(crate) path_names: Vec<String>,
    pub(crate) field_names: Vec<String>,
    pub(crate) target_names: Vec<String>,
    pub(crate) tag_names: Vec<String>,
    pub(crate) own_names: Vec<String>,
    /// The same names as shared strings: a scene group's agents keep their goals under these
    /// very strings (`simulation/build.rs`), so that looking one up compares two pointers, not
    /// the names' bytes (a call to `memcmp` per agent and tick: 2.5 % of RVO2's Circle of
    /// 100,000 on one thread). A name set another way is found by its bytes.
    pub(crate) own_shared: Vec<Arc<str>>,
    pub(crate) jump_link_names: Vec<String>,
    pub(crate) wander_slots: u32,
    /// Navigate nodes: each has a route in every agent's state.
    pub(crate) route_slots: u32,
    /// Ops that read the neighborhood, for the one shared query radius.
    pub(crate) neighbor_ops: Vec<u32>,
    /// Per op, the neighbor pass that feeds it (Separation, Cohesion, Alignment and Flocking
    /// with the same radius and field of view share one), or [`NO_PASS`].
    pub(crate) pass_of: Vec<u32>,
    /// The neighborhood (radius, field of view) of each neighbor pass.
    pub(crate) passes: Vec<(Num, Fov, Num)>,
    /// How the program is evaluated over a batch of agents (`eval/batch.rs`); `None`: agent
    /// by agent.
    pub(crate) batch_plan: Option<BatchPlan>,
    /// Whether an op reads other agents' vehicles by index ([`Program::reads_other_agents`]),
    /// found once when compiling: a simulation asks before every tick.
    pub(crate) reads_agents: bool,
    /// Whether an op's value has an angular part (`Op::turns`): the program is then evaluated
    /// with values that carry one.
    pub(crate) turns: bool,
    /// The graph compiled, as the compiler lowered it: its subgraphs written out, without the
    /// nodes its Output does not reach and without its editor section ([`Program::source`]);
    /// kept only when compiled with [`crate::compile_keeping_source`].
    pub(crate) source: Option<Arc<Graph>>,
}

/// The graph's turning section, its numbers resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TurningNums {
    pub independent_facing: bool,
    pub max_angular_speed: Num,
    pub max_angular_acceleration: Num,
    pub max_turn_rate: Option<Num>,
}

impl Default for TurningNums {
    fn default() -> Self {
        let defaults = TurningParams::default();
        Self {
            independent_facing: false,
            max_angular_speed: Num::Const(defaults.max_angular_speed),
            max_angular_acceleration: Num::Const(defaults.max_angular_acceleration),
            max_turn_rate: None,
        }
    }
}

/// `Program::pass_of` for an op that reads no neighbor sums.
pub(crate) const NO_PASS: u32 = u32::MAX;

/// Values of a program's graph parameters: the defaults with some overrides applied.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValues {
    pub(crate) values: Vec<f32>,
}

impl ParamValues {
    /// The values in slot order: the value of [`Program::parameter_names`]`()[i]` is `[i]`.
    pub fn values(&self) -> &[f32] {
        &self.values
    }
}

/// The largest program evaluated in batches. A batch keeps a value per op and agent, and
/// every parallel chunk has a batch: at this size 128 KiB per chunk. A larger graph (a file
/// may hold 100,000 nodes) is evaluated agent by agent, whose memory grows with its ops alone.
pub(crate) const MAX_BATCH_OPS: usize = 256;

/// How a program is evaluated over a batch of agents.
#[derive(Clone, Debug)]
pub(crate) enum BatchPlan {
    /// Every agent evaluates these ops, in this order.
    Static(Box<[u32]>),
    /// The program is `Output(Priority[inputs])` and each input a static subtree (its ops in
    /// order), sharing no op with another input: a subtree runs for the agents no earlier
    /// input answered.
    Priority {
        priority: u32,
        epsilon: Num,
        inputs: Box<[(u32, Box<[u32]>)]>,
    },
}

impl Program {
    /// The input of the root when the root is an Output, which passes it on unchanged.
    pub(crate) fn output_input(&self) -> Option<u32> {
        match *self.ops.get(self.root as usize)? {
            Op::Output(input) => Some(input),
            // A root that is no Output: a graph of one behavior (tests build such programs).
            _ => None,
        }
    }

    /// The graph this program was compiled from, as the compiler lowered it: its subgraphs
    /// written out, without the nodes its Output does not reach and without its editor
    /// section; `None` unless compiled with [`crate::compile_keeping_source`] (as a
    /// [`crate::Simulation`] and the editor compile). Compiled again ([`crate::compile`]) it
    /// gives the same program: what a replay file keeps of a graph swapped in while the run
    /// was recorded.
    pub fn source(&self) -> Option<&Graph> {
        self.source.as_deref()
    }

    /// Names of the graph parameters, in slot order.
    pub fn parameter_names(&self) -> &[String] {
        &self.parameter_names
    }

    /// The parameters at their defaults.
    pub fn default_parameters(&self) -> ParamValues {
        ParamValues {
            values: self.parameter_defaults.clone(),
        }
    }

    /// The parameters with `overrides` applied (by name). Every override must name a declared
    /// parameter and satisfy the range of every field that uses it.
    ///
    /// # Examples
    ///
    /// ```
    /// # use std::collections::BTreeMap;
    /// # let graph = graph_runtime::Graph::from_ron(r#"(format: "steergraph.graph", version: 1,
    /// #     parameters: {"speed": 3.0},
    /// #     vehicle: (mass: 1.0, max_force: 5.0, max_speed: "speed", radius: 0.5),
    /// #     nodes: {1: Seek(target: Point(0.0, 0.0)), 2: Output(input: 1)})"#, "doc").unwrap();
    /// let program = graph_runtime::compile(&graph).unwrap();
    /// let fast = program.parameters(&BTreeMap::from([("speed".to_owned(), 8.0)])).unwrap();
    /// assert_eq!(program.vehicle(&fast).max_speed, 8.0);
    /// ```
    pub fn parameters(
        &self,
        overrides: &BTreeMap<String, f32>,
    ) -> Result<ParamValues, Vec<CompileError>> {
        let mut values = self.default_parameters();
        let mut errors = Vec::new();
        for (name, &value) in overrides {
            // `parameter_names` is sorted (the graph's `BTreeMap` order): `O(log n)` per override.
            let Ok(slot) = self
                .parameter_names
                .binary_search_by(|n| n.as_str().cmp(name))
            else {
                errors.push(CompileError::UnknownOverride { name: name.clone() });
                continue;
            };
            if !value.is_finite() {
                errors.push(CompileError::NonFiniteParameter {
                    name: name.clone(),
                    value,
                });
                continue;
            }
            for usage in self.parameter_uses.get(slot).into_iter().flatten() {
                if !usage.constraint.accepts(value) {
                    errors.push(CompileError::InvalidNumber {
                        node: usage.node,
                        field: usage.field,
                        value,
                        constraint: usage.constraint,
                        parameter: Some(name.clone()),
                    });
                }
            }
            if let Some(entry) = values.values.get_mut(slot) {
                *entry = value;
            }
        }
        if errors.is_empty() {
            Ok(values)
        } else {
            Err(errors)
        }
    }

    /// Whether the program has a Navigate node: its agents follow routes the driver plans
    /// on the world's navigation mesh.
    pub fn navigates(&self) -> bool {
        self.route_slots > 0
    }

    /// The vehicle limits the graph asks for, under `params`.
    pub fn vehicle(&self, params: &ParamValues) -> VehicleParams {
        let [mass, max_force, max_speed, radius] = self.vehicle.map(|n| n.get(params));
        VehicleParams {
            mass,
            max_force,
            max_speed,
            radius,
        }
    }

    /// How the graph asks its vehicle to turn, under `params` (degrees, as assets write it).
    pub fn turning(&self, params: &ParamValues) -> TurningParams {
        let turning = &self.turning;
        TurningParams {
            independent_facing: turning.independent_facing,
            max_angular_speed: turning.max_angular_speed.get(params),
            max_angular_acceleration: turning.max_angular_acceleration.get(params),
            max_turn_rate: turning.max_turn_rate.map(|rate| rate.get(params)),
        }
    }

    /// Number of compiled (reachable) nodes.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether the program has no nodes (never true for a compiled graph).
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// The graph node ids that were compiled, in evaluation order (inputs first).
    pub fn nodes(&self) -> &[NodeId] {
        &self.op_nodes
    }

    /// The kind of compiled node `node`; `None` for a node not compiled or muted.
    pub fn kind_of(&self, node: NodeId) -> Option<crate::NodeKind> {
        let op = self.op_nodes.iter().position(|&id| id == node)?;
        self.ops.get(op)?.kind()
    }

    /// Whether any compiled node reads other agents' vehicles by index (`Context::vehicles`):
    /// a target that may be an agent, Unaligned collision avoidance, Reciprocal, Neighbor
    /// count. Group nodes read the grid's copies instead. A simulation whose programs read
    /// none does not write agent order back before each tick.
    pub(crate) fn reads_other_agents(&self) -> bool {
        self.reads_agents
    }

    /// Whether any compiled node reads the neighborhood (needs the spatial query).
    pub fn uses_neighbors(&self) -> bool {
        !self.neighbor_ops.is_empty()
    }

    /// Names of the paths the program follows.
    pub fn path_names(&self) -> &[String] {
        &self.path_names
    }

    /// Names of the flow fields the program reads.
    pub fn flow_field_names(&self) -> &[String] {
        &self.field_names
    }

    /// Names of the world targets the program refers to.
    pub fn target_names(&self) -> &[String] {
        &self.target_names
    }

    /// Tags the program looks for (`NearestTagged`).
    pub fn tag_names(&self) -> &[String] {
        &self.tag_names
    }

    /// Names of the agents' own points and routes the program reads (`Own` targets and
    /// `own` paths); they need no binding: each agent has them or not.
    pub fn own_names(&self) -> &[String] {
        &self.own_names
    }

    /// The program's own string for the own name `name`, if it reads it: an agent that keeps
    /// its point under this very string is found by pointer (`own_shared`).
    pub(crate) fn own_string(&self, name: &str) -> Option<&Arc<str>> {
        self.own_shared.iter().find(|&own| **own == *name)
    }

    /// Whether one agent's evaluation costs about a microsecond or more, not a tenth of one:
    /// a Reciprocal node (up to ten half-planes and a linear program) or Unaligned collision
    /// avoidance (a prediction per neighbor). A tick of such agents is split into smaller
    /// parallel tasks (`BENCHMARKS.md`, issue 47).
    pub(crate) fn costly_per_agent(&self) -> bool {
        self.neighbor_ops.iter().any(|&op| {
            self.ops.get(op as usize).is_some_and(|op| {
                matches!(
                    op.neighbor_use(),
                    NeighborUse::Within(_) | NeighborUse::Predicted(_)
                )
            })
        })
    }

    /// The largest fixed neighborhood radius among the compiled group nodes under `params`
    /// (units); a good spatial-grid cell size.
    pub fn neighborhood_radius(&self, params: &ParamValues) -> f32 {
        self.neighbor_ops
            .iter()
            .filter_map(|&op| match self.ops.get(op as usize)?.neighbor_use() {
                NeighborUse::Sums(radius, _, _)
                | NeighborUse::Count(radius, _)
                | NeighborUse::Within(radius) => Some(radius.get(params)),
                NeighborUse::Predicted(_) | NeighborUse::None => None,
            })
            .fold(0.0, f32::max)
    }

    /// The most neighbors any of the program's Separation, Cohesion, Alignment and Flocking
    /// nodes sums under `params` (0 without them): a crowded query's `k`, for which the grid
    /// sizes its k-d tree's leaves.
    pub fn summed_neighbors(&self, params: &ParamValues) -> usize {
        self.neighbor_ops
            .iter()
            .filter_map(|&op| match self.ops.get(op as usize)?.neighbor_use() {
                NeighborUse::Sums(_, _, most) => Some(most.get(params) as usize),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// The most neighbors one agent running the program keeps in a tick under `params`: the
    /// most of each neighbor pass and of each Reciprocal node, summed (what a stacked crowd
    /// costs it; [`crate::limits::MAX_NEIGHBOR_WORK`] bounds it over a scene's agents).
    pub fn neighbor_work(&self, params: &ParamValues) -> u64 {
        let passes: u64 = (self.passes.iter())
            .map(|&(_, _, most)| most.get(params).max(0.0) as u64)
            .sum();
        let reciprocal: u64 = (self.ops.iter())
            .filter_map(|op| match op {
                Op::Reciprocal(op) => Some(op.most_neighbors(params)),
                _ => None,
            })
            .sum();
        passes + reciprocal
    }

    /// The distinct neighborhoods (radius and field of view) of the program's Separation,
    /// Cohesion, Alignment and Flocking nodes. An agent's one neighbor query per tick feeds
    /// the sums of each; nodes with the same neighborhood share them.
    pub fn neighbor_passes(&self) -> usize {
        self.passes.len()
    }
}
