//! Evaluating a program for one agent ([`Program::steer`]) or a batch of agents: the
//! evaluator (`evaluator.rs`) walks the graph lazily without recursion (`stack.rs`), runs
//! leaves (`leaves.rs`) and neighbor queries (`neighbors.rs`); traced runs record values and
//! guides (`trace.rs`, `guides.rs`).

use glam::{Vec2, Vec3};

mod batch;
mod context;
mod evaluator;
mod guides;
mod leaves;
mod neighbors;
mod stack;
mod trace;
mod turning;
mod value;

pub(crate) use batch::BATCH;
pub use context::Context;
pub use trace::{NodeValue, Trace, TraceEntry};

use super::program::{AgentState, NeighborUse, Program, Scratch};
use crate::behaviors::NeighborSums;
use crate::{Steering, Vehicle};
use evaluator::Evaluator;
use trace::{NoTrace, Recorder};
use value::Value;

impl Program {
    /// The steering force of agent `agent` (an index into `context.vehicles`) for this tick:
    /// the linear part of [`Program::steering`].
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
        self.steering(context, agent, state, scratch).force
    }

    /// The steering of agent `agent` (an index into `context.vehicles`) for this tick: its
    /// force and, when the graph has angular nodes, its angular acceleration.
    ///
    /// Draws from `state`'s RNG only for Wander and Dither nodes that are evaluated; makes at
    /// most one spatial query; allocates nothing once `scratch` is warm. A Jump node whose
    /// agent takes off leaves a [`crate::TakeOff`] in `scratch` ([`Scratch::take_offs`]).
    pub fn steering(
        &self,
        context: &Context<'_>,
        agent: usize,
        state: &mut AgentState,
        scratch: &mut Scratch,
    ) -> Steering {
        let Some(vehicle) = context.vehicles.get(agent) else {
            return Steering::ZERO;
        };
        self.run(context, agent, vehicle, state, scratch, NoTrace)
    }

    /// Like [`Program::steering`], also recording every evaluated node in `trace` (cleared
    /// first); its force. Costs only when called: untraced ticks run [`Program::steer`]. A
    /// traced run asks for no take-off.
    pub fn steer_traced(
        &self,
        context: &Context<'_>,
        agent: usize,
        state: &mut AgentState,
        scratch: &mut Scratch,
        trace: &mut Trace,
    ) -> Vec2 {
        self.steering_traced(context, agent, state, scratch, trace)
            .force
    }

    /// Like [`Program::steer_traced`], with the angular part.
    pub fn steering_traced(
        &self,
        context: &Context<'_>,
        agent: usize,
        state: &mut AgentState,
        scratch: &mut Scratch,
        trace: &mut Trace,
    ) -> Steering {
        trace.entries.clear();
        let Some(vehicle) = context.vehicles.get(agent) else {
            return Steering::ZERO;
        };
        let taken = scratch.take_offs.len();
        let steering = self.run(context, agent, vehicle, state, scratch, trace);
        scratch.take_offs.truncate(taken);
        steering
    }

    /// Whether any node's value has an angular part (the program then evaluates steering
    /// with both parts; without, forces alone).
    pub fn turns(&self) -> bool {
        self.turns
    }

    /// Whether a vehicle turning as `turning` and steered by this program keeps the facing it
    /// started with: it faces independently, and no node turns the facing
    /// ([`crate::SceneWarning::FacingNeverTurns`]).
    pub fn leaves_facing_unturned(&self, turning: &crate::Turning) -> bool {
        turning.independent_facing && !self.turns
    }

    fn run<'c, R: Recorder>(
        &self,
        context: &Context<'c>,
        agent: usize,
        vehicle: &'c Vehicle,
        state: &mut AgentState,
        scratch: &mut Scratch,
        recorder: R,
    ) -> Steering {
        if self.turns {
            self.run_with::<R, Vec3>(context, agent, vehicle, state, scratch, recorder)
                .to_steering()
        } else {
            Steering::force(
                self.run_with::<R, Vec2>(context, agent, vehicle, state, scratch, recorder),
            )
        }
    }

    /// One agent's evaluation with values of type `V`; zero for a value that is not finite.
    #[inline]
    fn run_with<'c, R: Recorder, V: Value>(
        &self,
        context: &Context<'c>,
        agent: usize,
        vehicle: &'c Vehicle,
        state: &mut AgentState,
        scratch: &mut Scratch,
        recorder: R,
    ) -> V {
        if V::memo(scratch).len() < self.ops.len() {
            V::memo(scratch).resize(self.ops.len(), (0, V::ZERO));
        }
        if scratch.sums.len() < self.passes.len() {
            scratch
                .sums
                .resize(self.passes.len(), NeighborSums::default());
        }
        // The stack grows to the deepest chain of combiners seen and keeps its capacity.
        V::frames(scratch).clear();
        scratch.stamp = scratch.stamp.wrapping_add(1);
        if scratch.stamp == 0 {
            // Both memos share the stamp: a wrapped stamp must not find an old entry in either.
            scratch.memo.iter_mut().for_each(|entry| entry.0 = 0);
            scratch
                .turning
                .memo
                .iter_mut()
                .for_each(|entry| entry.0 = 0);
            scratch.stamp = 1;
        }
        scratch.neighbors_ready = false;
        scratch.sums_ready = false;
        state.set_preferred(None);
        let mut evaluator: Evaluator<'_, '_, '_, R, V> =
            Evaluator::new(self, context, agent, vehicle, state, scratch, recorder);
        let value = evaluator.evaluate(self.root);
        // One bad number (a NaN from a hand-edited asset) must not poison the vehicle.
        if value.finite() { value } else { V::ZERO }
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
                NeighborUse::Sums(r, _, _) | NeighborUse::Count(r, _) | NeighborUse::Within(r) => {
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
