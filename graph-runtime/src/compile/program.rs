use std::collections::BTreeMap;

use glam::Vec2;

use super::CompileError;
use super::eval::Frame;
use crate::behaviors::FieldOfView;
use crate::graph::{Comparison, Constraint, NodeId, Slot};
use crate::{AgentRng, OwnGoals, VehicleParams};

/// A number resolved by the compiler: a constant or a parameter slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    Const(f32),
    Param(u16),
}

impl Num {
    #[inline]
    pub(crate) fn get(self, params: &ParamValues) -> f32 {
        match self {
            Self::Const(value) => value,
            Self::Param(slot) => params.values.get(slot as usize).copied().unwrap_or(0.0),
        }
    }
}

/// A field of view resolved by the compiler: prepared once when it is a literal, so the
/// per-agent evaluation does no trigonometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fov {
    Const(FieldOfView),
    Param(u16),
}

impl Fov {
    #[inline]
    pub(crate) fn get(self, params: &ParamValues) -> FieldOfView {
        match self {
            Self::Const(fov) => fov,
            Self::Param(slot) => FieldOfView::from_degrees(Num::Param(slot).get(params)),
        }
    }
}

/// A target resolved by the compiler: a point, or an index into the program's name tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum TargetRef {
    Point(Num, Num),
    Named(u16),
    Tagged(u16),
    /// The agent's own point, by its index in the program's own names.
    Own(u16),
}

/// A slice of one of the program's list tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Span {
    pub start: u32,
    pub len: u32,
}

/// One compiled node. Links are op indices; every op's inputs come before it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Op {
    Seek(TargetRef),
    Flee(TargetRef, Option<Num>),
    Arrival(TargetRef, Num),
    Pursuit(TargetRef, Num),
    Evasion(TargetRef, Num, Option<Num>),
    OffsetPursuit(TargetRef, Num, Num),
    ObstacleAvoidance(Num, Num),
    WallAvoidance {
        min_length: Num,
        lookahead_time: Num,
        whisker_angle: Num,
        margin: Num,
    },
    WallFollowing {
        side: f32,
        offset: Num,
        lookahead_time: Num,
        range: Num,
    },
    Wander {
        distance: Num,
        radius: Num,
        jitter: Num,
        slot: u32,
    },
    PathFollowing {
        /// An index into the path names, or into the own names when `own`.
        path: u16,
        own: bool,
        prediction_time: Num,
        ahead_distance: Num,
        direction: f32,
        corrective: bool,
    },
    Containment {
        bounds: Option<[Num; 4]>,
        prediction_time: Num,
        margin: Num,
    },
    FlowFieldFollowing {
        field: u16,
        prediction_time: Num,
    },
    UnalignedCollisionAvoidance(Num),
    Reciprocal {
        input: u32,
        time_horizon: Num,
        obstacle_time_horizon: Num,
        neighbor_radius: Num,
        max_neighbors: Num,
        clearance: Num,
        keep_right: Num,
    },
    /// A muted node: zero (no force, the number `0`, a false condition).
    Muted,
    Separation(Num, Fov),
    Cohesion(Num, Fov),
    Alignment(Num, Fov),
    Flocking {
        weights: [Num; 3],
        radius: Num,
        fov: Fov,
    },
    LeaderFollowing {
        leader: TargetRef,
        behind: Num,
        slowing_distance: Num,
        sight_length: Num,
        sight_width: Num,
    },
    Interpose(TargetRef, TargetRef, Num),
    Hide(TargetRef, Num, Num),
    Blend(Span),
    Priority(Span, Num),
    Dither(Span, Num),
    Budget(Span),
    Gate(u32, u32),
    Scale(u32, Num),
    Truncate(u32, Num),
    Distance(TargetRef),
    NeighborCount(Num, Fov),
    Speed,
    WallDistance,
    Value(Num),
    Compare(u32, Comparison, Num),
    WallAhead(Num),
    All(Span),
    Any(Span),
    Not(u32),
    Output(u32),
}

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
    pub(crate) path_names: Vec<String>,
    pub(crate) field_names: Vec<String>,
    pub(crate) target_names: Vec<String>,
    pub(crate) tag_names: Vec<String>,
    pub(crate) own_names: Vec<String>,
    pub(crate) wander_slots: u32,
    /// Ops that read the neighborhood, for the one shared query radius.
    pub(crate) neighbor_ops: Vec<u32>,
    /// Per op, the neighbor pass that feeds it (Separation, Cohesion, Alignment and Flocking
    /// with the same radius and field of view share one), or [`NO_PASS`].
    pub(crate) pass_of: Vec<u32>,
    /// The neighborhood (radius, field of view) of each neighbor pass.
    pub(crate) passes: Vec<(Num, Fov)>,
    /// How the program is evaluated over a batch of agents (`eval/batch.rs`); `None`: agent
    /// by agent.
    pub(crate) batch_plan: Option<super::eval::BatchPlan>,
    /// Whether an op reads other agents' vehicles by index ([`Program::reads_other_agents`]),
    /// found once when compiling: a simulation asks before every tick.
    pub(crate) reads_agents: bool,
}

/// `Program::pass_of` for an op that reads no neighbor sums.
pub(crate) const NO_PASS: u32 = u32::MAX;

/// Values of a program's graph parameters: the defaults with some overrides applied.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValues {
    pub(crate) values: Vec<f32>,
}

/// Wander angles kept inside [`AgentState`] itself; a graph with more Wander nodes spills the
/// rest to the heap. Inline angles keep a tick's state reads contiguous across agents.
const INLINE_WANDER_SLOTS: usize = 4;

/// The mutable per-agent state a program needs: the agent's RNG and wander angles (radians).
#[derive(Clone, Debug)]
pub struct AgentState {
    pub(crate) rng: AgentRng,
    wander_inline: [f32; INLINE_WANDER_SLOTS],
    /// Boxed, not a `Vec`: 16 bytes instead of 24 in every agent's state.
    wander_spill: Box<[f32]>,
    /// The agent's own points and routes; kept across hot swaps.
    pub own: OwnGoals,
    /// The velocity a Reciprocal node preferred in the agent's last evaluation (units / s);
    /// `None` when that evaluation ran none.
    pub(crate) preferred: Option<Vec2>,
}

impl AgentState {
    /// The state of agent `agent_index` in a world seeded with `seed`.
    pub fn new(program: &Program, seed: u64, agent_index: u64) -> Self {
        let mut state = Self {
            rng: AgentRng::new(seed, agent_index),
            wander_inline: [0.0; INLINE_WANDER_SLOTS],
            wander_spill: Box::default(),
            own: OwnGoals::default(),
            preferred: None,
        };
        state.fit(program);
        state
    }

    /// Makes the state fit `program` after a hot swap: new wander slots start at angle 0,
    /// the RNG stream continues.
    pub fn fit(&mut self, program: &Program) {
        let spilled = (program.wander_slots as usize).saturating_sub(INLINE_WANDER_SLOTS);
        if self.wander_spill.len() != spilled {
            let mut spill = std::mem::take(&mut self.wander_spill).into_vec();
            spill.resize(spilled, 0.0);
            self.wander_spill = spill.into_boxed_slice();
        }
    }

    /// The wander angle of slot `slot` (radians), zero beyond the program's slots.
    pub(crate) fn wander(&self, slot: u32) -> f32 {
        let slot = slot as usize;
        self.wander_inline
            .get(slot)
            .or_else(|| {
                self.wander_spill
                    .get(slot.wrapping_sub(INLINE_WANDER_SLOTS))
            })
            .copied()
            .unwrap_or(0.0)
    }

    /// Wander's step for slot `slot`: one draw from the agent's RNG turns its angle by up to
    /// `jitter` radians per second over `dt`; returns the new angle (zero for a slot the
    /// program does not have).
    #[inline]
    pub(crate) fn turn_wander(&mut self, slot: u32, jitter: f32, dt: f32) -> f32 {
        let step = self.rng.signed_unit() * jitter * dt;
        match self.wander_mut(slot) {
            Some(theta) => {
                *theta += step;
                *theta
            }
            None => 0.0,
        }
    }

    /// The wander angle of slot `slot`, if the program has that many Wander nodes.
    #[inline]
    pub(crate) fn wander_mut(&mut self, slot: u32) -> Option<&mut f32> {
        let slot = slot as usize;
        match self.wander_inline.get_mut(slot) {
            Some(theta) => Some(theta),
            None => self.wander_spill.get_mut(slot - INLINE_WANDER_SLOTS),
        }
    }
}

/// Per-thread scratch buffers for evaluation. Reuse one per thread; it grows to fit the
/// largest program and neighborhood and then stops allocating.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    pub(crate) neighbors: crate::spatial::Candidates,
    pub(crate) neighbors_ready: bool,
    /// Each neighbor pass's sums for this agent (when `sums_ready`).
    pub(crate) sums: Vec<crate::behaviors::NeighborSums>,
    pub(crate) sums_ready: bool,
    /// The passes' neighborhoods for this agent's parameters (when there are several).
    pub(crate) neighborhoods: Vec<(f32, crate::behaviors::FieldOfView)>,
    /// The agents within the widest of them, in the grid's order.
    pub(crate) near: crate::spatial::Near,
    /// Values of shared ops computed this tick, valid when their stamp is the current one.
    pub(crate) memo: Vec<(u32, Vec2)>,
    pub(crate) stamp: u32,
    /// The evaluator's explicit stack of combiners waiting for an input.
    pub(crate) frames: Vec<Frame>,
    /// Batch evaluation: each agent's neighbor sums (one per pass, agent after agent), where
    /// `batch_sums_ready` says they were taken.
    pub(crate) batch_sums: Vec<crate::behaviors::NeighborSums>,
    pub(crate) batch_sums_ready: Vec<bool>,
    /// Batch evaluation: each op's value for each agent of the batch (op after op).
    pub(crate) batch_values: Vec<Vec2>,
    /// Batch evaluation: the agents no input of a Priority has answered yet.
    pub(crate) batch_open: Vec<u16>,
}

impl Program {
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

    /// Whether any compiled node reads other agents' vehicles by index (`Context::vehicles`):
    /// a target that may be an agent, Unaligned collision avoidance, Reciprocal, Neighbor
    /// count. Group nodes read the grid's copies instead. A simulation whose programs read
    /// none does not write agent order back before each tick.
    pub(crate) fn reads_other_agents(&self) -> bool {
        self.reads_agents
    }

    /// Finds [`Program::reads_other_agents`] once the ops are compiled.
    pub(in crate::compile) fn plan_agent_reads(&mut self) {
        self.reads_agents = self.ops.iter().any(|op| match op {
            // Own vehicle, the grid, the world and parameters only.
            Op::ObstacleAvoidance(..)
            | Op::WallAvoidance { .. }
            | Op::WallFollowing { .. }
            | Op::Wander { .. }
            | Op::PathFollowing { .. }
            | Op::Containment { .. }
            | Op::FlowFieldFollowing { .. }
            | Op::Muted
            | Op::Separation(..)
            | Op::Cohesion(..)
            | Op::Alignment(..)
            | Op::Flocking { .. }
            | Op::Blend(_)
            | Op::Priority(..)
            | Op::Dither(..)
            | Op::Budget(_)
            | Op::Gate(..)
            | Op::Scale(..)
            | Op::Truncate(..)
            | Op::Speed
            | Op::WallDistance
            | Op::Value(_)
            | Op::Compare(..)
            | Op::WallAhead(_)
            | Op::All(_)
            | Op::Any(_)
            | Op::Not(_)
            | Op::Output(_) => false,
            // A target may be the nearest tagged agent; the others read neighbors one by one.
            Op::Seek(_)
            | Op::Flee(..)
            | Op::Arrival(..)
            | Op::Pursuit(..)
            | Op::Evasion(..)
            | Op::OffsetPursuit(..)
            | Op::LeaderFollowing { .. }
            | Op::Interpose(..)
            | Op::Hide(..)
            | Op::Distance(_)
            | Op::UnalignedCollisionAvoidance(_)
            | Op::Reciprocal { .. }
            | Op::NeighborCount(..) => true,
        });
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

    /// The largest fixed neighborhood radius among the compiled group nodes under `params`
    /// (units); a good spatial-grid cell size.
    pub fn neighborhood_radius(&self, params: &ParamValues) -> f32 {
        self.neighbor_ops
            .iter()
            .filter_map(|&op| match self.ops.get(op as usize)? {
                Op::Separation(radius, _)
                | Op::Cohesion(radius, _)
                | Op::Alignment(radius, _)
                | Op::NeighborCount(radius, _)
                | Op::Flocking { radius, .. }
                | Op::Reciprocal {
                    neighbor_radius: radius,
                    ..
                } => Some(radius.get(params)),
                _ => None,
            })
            .fold(0.0, f32::max)
    }

    /// Plans the neighbor passes: group nodes that read the same neighborhood (the same
    /// radius and field of view, literal or parameter) get the same pass, so one visit of the
    /// neighbors computes the sums all of them finish from.
    pub(crate) fn plan_neighbor_passes(&mut self) {
        let mut keys: Vec<(Num, Fov)> = Vec::new();
        self.pass_of = self
            .ops
            .iter()
            .map(|op| {
                let key = match *op {
                    Op::Separation(radius, fov)
                    | Op::Cohesion(radius, fov)
                    | Op::Alignment(radius, fov)
                    | Op::Flocking { radius, fov, .. } => (radius, fov),
                    _ => return NO_PASS,
                };
                let pass = keys.iter().position(|k| same_neighborhood(*k, key));
                pass.unwrap_or_else(|| {
                    keys.push(key);
                    keys.len() - 1
                }) as u32
            })
            .collect();
        self.passes = keys;
    }

    /// The distinct neighborhoods (radius and field of view) of the program's Separation,
    /// Cohesion, Alignment and Flocking nodes. An agent's one neighbor query per tick feeds
    /// the sums of each; nodes with the same neighborhood share them.
    pub fn neighbor_passes(&self) -> usize {
        self.passes.len()
    }
}

/// Whether two (radius, field of view) pairs always select the same neighbors: the same
/// parameter, or literals with the same bits.
fn same_neighborhood(a: (Num, Fov), b: (Num, Fov)) -> bool {
    let same_num = match (a.0, b.0) {
        (Num::Const(x), Num::Const(y)) => x.to_bits() == y.to_bits(),
        (Num::Param(x), Num::Param(y)) => x == y,
        _ => false,
    };
    let same_fov = match (a.1, b.1) {
        (Fov::Const(x), Fov::Const(y)) => x == y,
        (Fov::Param(x), Fov::Param(y)) => x == y,
        _ => false,
    };
    same_num && same_fov
}

#[cfg(test)]
mod tests {
    use super::AgentState;

    /// Every agent's state streams through the cache each tick: it held 120 bytes when own
    /// goals and spilled wander angles were kept inline (two cache lines), and fits in 72 now.
    #[test]
    fn an_agent_state_stays_small() {
        assert!(
            size_of::<AgentState>() <= 72,
            "{} bytes",
            size_of::<AgentState>()
        );
    }
}
