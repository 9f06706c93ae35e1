//! Evaluating a program for one agent ([`Program::steer`]) or a batch of agents: the
//! evaluator (`evaluator.rs`) walks the graph lazily without recursion (`stack.rs`), runs
//! leaves (`leaves.rs`) and neighbor queries (`neighbors.rs`); traced runs record values and
//! guides (`trace.rs`, `guides.rs`).

use glam::Vec2;

mod batch;
mod context;
mod evaluator;
mod guides;
mod leaves;
mod neighbors;
mod stack;
mod trace;

pub(crate) use batch::BATCH;
pub use context::Context;
pub use trace::{GUIDE_ORCA_LINES, Guide, NodeValue, Trace, TraceEntry};

use super::program::{AgentState, NeighborUse, Program, Scratch};
use crate::Vehicle;
use crate::behaviors::NeighborSums;
use evaluator::Evaluator;
use trace::{NoTrace, Recorder};

impl Program {
    /// The steering force of agent `agent` (an index into `context.vehicles`) for this tick.
    ///
    /// Draws from `state`'s RNG only for Wander and Dither nodes that are evaluated; makes at
    /// most one spatial query; allocates nothing once `scratch` is warm.
    pub fn steer(
        &self,
        context: &Context<'_>,
        agent: usize,
        state: &mut AgentState,
        scratch: &mut Scratch,
    ) -> Vec2 {
        let Some(vehicle) = context.vehicles.get(agent) else {
            return Vec2::ZERO;
        };
        self.run(context, agent, vehicle, state, scratch, NoTrace)
    }

    /// Like [`Program::steer`], also recording every evaluated node in `trace` (cleared
    /// first). Costs only when called: untraced ticks run [`Program::steer`].
    pub fn steer_traced(
        &self,
        context: &Context<'_>,
        agent: usize,
        state: &mut AgentState,
        scratch: &mut Scratch,
        trace: &mut Trace,
    ) -> Vec2 {
        trace.entries.clear();
        let Some(vehicle) = context.vehicles.get(agent) else {
            return Vec2::ZERO;
        };
        self.run(context, agent, vehicle, state, scratch, trace)
    }

    fn run<'c, R: Recorder>(
        &self,
        context: &Context<'c>,
        agent: usize,
        vehicle: &'c Vehicle,
        state: &mut AgentState,
        scratch: &mut Scratch,
        recorder: R,
    ) -> Vec2 {
        if scratch.memo.len() < self.ops.len() {
            scratch.memo.resize(self.ops.len(), (0, Vec2::ZERO));
        }
        if scratch.sums.len() < self.passes.len() {
            scratch
                .sums
                .resize(self.passes.len(), NeighborSums::default());
        }
        // The stack grows to the deepest chain of combiners seen and keeps its capacity.
        scratch.frames.clear();
        scratch.stamp = scratch.stamp.wrapping_add(1);
        if scratch.stamp == 0 {
            scratch.memo.iter_mut().for_each(|entry| entry.0 = 0);
            scratch.stamp = 1;
        }
        scratch.neighbors_ready = false;
        scratch.sums_ready = false;
        state.preferred = None;
        let mut evaluator = Evaluator::new(self, context, agent, vehicle, state, scratch, recorder);
        let force = evaluator.evaluate(self.root);
        // One bad number (a NaN from a hand-edited asset) must not poison the vehicle.
        if force.is_finite() { force } else { Vec2::ZERO }
    }

    /// The radius of the one spatial query that serves every group node of `vehicle`.
    pub(super) fn query_radius(&self, vehicle: &Vehicle, context: &Context<'_>) -> f32 {
        let params = context.params;
        let mut radius: f32 = 0.0;
        for &op in &self.neighbor_ops {
            let Some(op) = self.ops.get(op as usize) else {
                continue;
            };
            let needed = match op.neighbor_use() {
                NeighborUse::Sums(r, _) | NeighborUse::Count(r, _) | NeighborUse::Within(r) => {
                    r.get(params)
                }
                NeighborUse::Predicted(max_time) => {
                    let t = max_time.get(params);
                    vehicle.velocity.length() * t
                        + vehicle.radius
                        + context.grid.max_radius()
                        + context.grid.max_speed() * t
                }
                NeighborUse::None => 0.0,
            };
            radius = radius.max(needed);
        }
        radius
    }
}
