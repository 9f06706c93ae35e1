//! Evaluation op by op over a batch of agents, for the programs every agent evaluates alike.
//!
//! A program without lazy combiners (Priority, Dither, Budget, Gate), Reciprocal or conditions
//! runs the same ops in the same order for every agent: the order in which the per-agent
//! evaluator first reaches them from the Output, inputs in their listed order
//! ([`Program::plan_batch`]). Such a program can run one op at a time over a batch of agents,
//! so the choice of what to compute is made once per op and batch instead of once per op and
//! agent, and each op's loop over the agents calls one formula.
//!
//! Each agent computes exactly what [`Program::steer`] computes for it: the same formulas, the
//! same operands, in the same order, and the same draws from its own RNG in the same order
//! (Wander is the only op of such a program that draws). The forces are therefore
//! bit-identical (`tests/batch.rs` checks it against the per-agent evaluator).

use glam::Vec2;

use super::neighbors::take_sums;
use super::{Context, Evaluator, NoTrace, group_force};
use crate::Vehicle;
use crate::behaviors::{self, NeighborSums};
use crate::compile::program::{NO_PASS, Num, Op};
use crate::compile::{AgentState, Program, Scratch};
use crate::math::truncate;

/// Most agents in one batch. The values of 64 agents for a program of 8 ops take 4 KiB, well
/// inside the L1 cache.
pub(crate) const BATCH: usize = 64;

impl Program {
    /// Plans batch evaluation (see the module's documentation): the order of the ops when
    /// every agent evaluates the same ones, else none.
    pub(in crate::compile) fn plan_batch(&mut self) {
        self.batch_order = batch_order(self).map(Vec::into_boxed_slice);
    }

    /// The steering forces of a batch of agents: `agents[i]` (an index into
    /// `context.vehicles`) with vehicle `vehicles[i]` and state `states[i]` gets `forces[i]`,
    /// exactly what [`Program::steer`] gives it. Evaluates op by op when the program allows it
    /// (see the module's documentation), agent by agent otherwise. Allocates nothing once
    /// `scratch` has grown to fit a batch.
    pub(crate) fn steer_batch<'c>(
        &self,
        context: &Context<'c>,
        agents: &[u32],
        vehicles: &'c [Vehicle],
        states: &mut [AgentState],
        scratch: &mut Scratch,
        forces: &mut [Vec2],
    ) {
        let Some(order) = self.batch_order.as_deref() else {
            let each = agents.iter().zip(vehicles).zip(states.iter_mut());
            for (((&agent, me), state), force) in each.zip(forces.iter_mut()) {
                *force = self.run(context, agent as usize, me, state, scratch, NoTrace);
            }
            return;
        };
        let n = agents
            .len()
            .min(vehicles.len())
            .min(states.len())
            .min(forces.len());
        let (agents, vehicles) = (&agents[..n], &vehicles[..n]);
        let (states, forces) = (&mut states[..n], &mut forces[..n]);
        self.take_batch_sums(context, agents, vehicles, scratch);
        for state in states.iter_mut() {
            state.preferred = None;
        }
        // Out of the scratch while the evaluators borrow it.
        let mut values = std::mem::take(&mut scratch.batch_values);
        values.clear();
        values.resize(self.ops.len() * n, Vec2::ZERO);
        let mut batch = Batch {
            context,
            agents,
            vehicles,
            states,
            scratch,
            values,
        };
        for &index in order {
            if let Some(op) = self.ops.get(index as usize) {
                self.run_op(index, op, &mut batch);
            }
        }
        let column = |op: u32| op as usize * n;
        let root = column(self.root);
        for (i, force) in forces.iter_mut().enumerate() {
            let value = get(&batch.values, root + i);
            // As the per-agent evaluator: one bad number must not poison the vehicle.
            *force = if value.is_finite() { value } else { Vec2::ZERO };
        }
        batch.scratch.batch_values = batch.values;
    }

    /// Op `index` (`op`) for every agent of `batch`, into its column of `batch.values`.
    fn run_op(&self, index: u32, op: &Op, batch: &mut Batch<'_, '_>) {
        let n = batch.agents.len();
        let params = batch.context.params;
        let column = |op: u32| op as usize * n;
        let at = column(index);
        let values = &mut batch.values;
        match *op {
            Op::Blend(span) => {
                let inputs = self
                    .weighted
                    .get(span.start as usize..(span.start + span.len) as usize)
                    .unwrap_or(&[]);
                // Each input's column and weight, looked up once per batch.
                let weights = &mut batch.scratch.batch_weights;
                weights.clear();
                let resolve = |&(input, weight): &(u32, Num)| (column(input), weight.get(params));
                weights.extend(inputs.iter().map(resolve));
                for i in 0..n {
                    // As the per-agent Blend: from zero, inputs in their listed order.
                    let mut sum = Vec2::ZERO;
                    for &(input, weight) in &*weights {
                        sum += weight * get(values, input + i);
                    }
                    set(values, at + i, sum);
                }
            }
            Op::Wander {
                distance,
                radius,
                jitter,
                slot,
            } => {
                let jitter = jitter.get(params).to_radians();
                let (distance, radius) = (distance.get(params), radius.get(params));
                let each = batch.vehicles.iter().zip(batch.states.iter_mut());
                for (i, (me, state)) in each.enumerate() {
                    let theta = state.turn_wander(slot, jitter, batch.context.dt);
                    set(
                        values,
                        at + i,
                        behaviors::wander(me, theta, distance, radius),
                    );
                }
            }
            Op::Scale(input, factor) => {
                let factor = factor.get(params);
                for i in 0..n {
                    let value = get(values, column(input) + i);
                    set(values, at + i, factor * value);
                }
            }
            Op::Truncate(input, max) => {
                let max = max.get(params);
                for i in 0..n {
                    let value = get(values, column(input) + i);
                    set(values, at + i, truncate(value, max));
                }
            }
            Op::Output(input) => {
                for i in 0..n {
                    let value = get(values, column(input) + i);
                    set(values, at + i, value);
                }
            }
            Op::Separation(..) | Op::Cohesion(..) | Op::Alignment(..) | Op::Flocking { .. } => {
                let passes = self.passes.len();
                let pass = self.pass_of.get(index as usize).copied();
                let pass = pass.unwrap_or(NO_PASS) as usize;
                for (i, me) in batch.vehicles.iter().enumerate() {
                    let sums = batch.scratch.batch_sums.get(i * passes + pass);
                    let force = sums.map_or(Vec2::ZERO, |sums| group_force(op, sums, me, params));
                    set(values, at + i, force);
                }
            }
            _ => {
                let each = batch.agents.iter().zip(batch.vehicles);
                for (i, ((&agent, me), state)) in each.zip(batch.states.iter_mut()).enumerate() {
                    let context = batch.context;
                    let scratch = &mut *batch.scratch;
                    let mut evaluator =
                        Evaluator::new(self, context, agent as usize, me, state, scratch, NoTrace);
                    // Unaligned collision avoidance queries for this agent.
                    evaluator.scratch.neighbors_ready = false;
                    set(values, at + i, evaluator.leaf_force(index, op));
                }
            }
        }
    }

    /// Every agent's neighbor sums, one per pass, agent after agent, into
    /// `scratch.batch_sums`.
    fn take_batch_sums(
        &self,
        context: &Context<'_>,
        agents: &[u32],
        vehicles: &[Vehicle],
        scratch: &mut Scratch,
    ) {
        let passes = self.passes.len();
        if passes == 0 {
            return;
        }
        let Scratch {
            batch_sums,
            neighborhoods,
            near,
            ..
        } = scratch;
        batch_sums.resize(agents.len() * passes, NeighborSums::default());
        // The neighborhoods are the group's: resolved once for the batch.
        let params = context.params;
        self.with_neighborhoods(params, neighborhoods, |neighborhoods, widest| {
            let each = agents.iter().zip(vehicles);
            for ((&agent, me), sums) in each.zip(batch_sums.chunks_exact_mut(passes)) {
                let me = (agent as usize, me);
                take_sums(context.grid, me, (neighborhoods, widest), near, sums);
            }
        });
    }
}

/// One batch's agents, as [`Program::steer_batch`] was given them, and the values of the ops
/// evaluated so far (op after op, a column of one value per agent each).
struct Batch<'b, 'c> {
    context: &'b Context<'c>,
    agents: &'b [u32],
    vehicles: &'c [Vehicle],
    states: &'b mut [AgentState],
    scratch: &'b mut Scratch,
    values: Vec<Vec2>,
}

#[inline]
fn get(values: &[Vec2], at: usize) -> Vec2 {
    values.get(at).copied().unwrap_or(Vec2::ZERO)
}

#[inline]
fn set(values: &mut [Vec2], at: usize, value: Vec2) {
    if let Some(slot) = values.get_mut(at) {
        *slot = value;
    }
}

/// The ops in the order the per-agent evaluator finishes them, when that order is the same
/// for every agent: every op reachable from the root is a behavior or one of Blend, Scale,
/// Truncate and Output, which always evaluate all their inputs. A shared op is evaluated at
/// its first use, as the per-agent evaluator's memo does.
fn batch_order(program: &Program) -> Option<Vec<u32>> {
    let inputs = |index: u32| -> Option<Vec<u32>> {
        Some(match *program.ops.get(index as usize)? {
            Op::Output(input) | Op::Scale(input, _) | Op::Truncate(input, _) => vec![input],
            Op::Blend(span) => program
                .weighted
                .get(span.start as usize..(span.start + span.len) as usize)?
                .iter()
                .map(|&(input, _)| input)
                .collect(),
            // Lazy: which inputs run depends on values.
            Op::Priority(..)
            | Op::Dither(..)
            | Op::Budget(_)
            | Op::Gate(..)
            | Op::Reciprocal { .. }
            // Conditions and sensors only feed lazy combiners.
            | Op::Compare(..)
            | Op::All(_)
            | Op::Any(_)
            | Op::Not(_)
            | Op::WallAhead(_)
            | Op::Distance(_)
            | Op::NeighborCount(..)
            | Op::Speed
            | Op::WallDistance
            | Op::Value(_) => return None,
            _ => Vec::new(),
        })
    };
    let mut order = Vec::new();
    let mut seen = vec![false; program.ops.len()];
    *seen.get_mut(program.root as usize)? = true;
    // Depth first without recursion: (op, its inputs, how many of them were visited).
    let mut stack = vec![(program.root, inputs(program.root)?, 0)];
    while let Some((op, op_inputs, next)) = stack.last_mut() {
        if let Some(&input) = op_inputs.get(*next) {
            *next += 1;
            if !std::mem::replace(seen.get_mut(input as usize)?, true) {
                let input_inputs = inputs(input)?;
                stack.push((input, input_inputs, 0));
            }
        } else {
            order.push(*op);
            stack.pop();
        }
    }
    Some(order)
}

#[cfg(test)]
mod tests {
    use crate::{Graph, compile};

    fn order(nodes: &str) -> Option<Vec<u32>> {
        let text = format!(
            r#"(format: "steergraph.graph", version: 1,
                vehicle: (mass: 1.0, max_force: 5.0, max_speed: 3.0, radius: 0.5),
                nodes: {{{nodes}}})"#
        );
        let graph = Graph::from_ron(&text, "test.graph.ron").expect("the test graph parses");
        let program = compile(&graph).expect("the test graph compiles");
        program.batch_order.map(|order| {
            // As node ids, which say more than op indices.
            let ids = order.iter().map(|&op| program.op_nodes[op as usize].0);
            ids.collect()
        })
    }

    #[test]
    fn the_order_is_the_per_agent_evaluators_with_a_shared_input_once() {
        // Blend[Wander 1, Scale(Wander 1), Seek 3] truncated: Wander 1 runs once, first.
        let nodes = "1: Wander(distance: 2.0, radius: 1.0, jitter: 90.0),
            2: Scale(input: 1, factor: 0.5),
            3: Seek(target: Point(1.0, 2.0)),
            4: Blend(inputs: [(node: 1, weight: 1.0), (node: 2, weight: 1.0), (node: 3, weight: 1.0)]),
            5: Truncate(input: 4, max: 2.0),
            6: Output(input: 5)";
        assert_eq!(order(nodes), Some(vec![1, 2, 3, 4, 5, 6]));
        // Inputs in their listed order, not by id.
        let nodes = "1: Seek(target: Point(1.0, 2.0)),
            2: Flee(target: Point(0.0, 0.0)),
            3: Blend(inputs: [(node: 2, weight: 1.0), (node: 1, weight: 1.0)]),
            4: Output(input: 3)";
        assert_eq!(order(nodes), Some(vec![2, 1, 3, 4]));
    }

    #[test]
    fn a_lazy_combiner_anywhere_keeps_the_program_per_agent() {
        let nodes = "1: Seek(target: Point(1.0, 2.0)),
            2: Wander(distance: 2.0, radius: 1.0, jitter: 90.0),
            3: Priority(inputs: [1, 2], epsilon: 0.01),
            4: Blend(inputs: [(node: 3, weight: 1.0), (node: 2, weight: 1.0)]),
            5: Output(input: 4)";
        assert_eq!(order(nodes), None);
        let nodes = "1: Seek(target: Point(1.0, 2.0)),
            2: Speed,
            3: Compare(sensor: 2, test: Greater, threshold: 1.0),
            4: Gate(input: 1, condition: 3),
            5: Output(input: 4)";
        assert_eq!(order(nodes), None);
    }
}
