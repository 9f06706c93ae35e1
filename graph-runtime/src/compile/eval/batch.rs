//! Evaluation op by op over a batch of agents.
//!
//! A program without lazy combiners (Priority, Dither, Budget, Gate), Reciprocal or conditions
//! runs the same ops in the same order for every agent: the order in which the per-agent
//! evaluator first reaches them from the Output, inputs in their listed order
//! ([`BatchPlan::Static`]). Such a program runs one op at a time over a batch of agents, so
//! the choice of what to compute is made once per op and batch instead of once per op and
//! agent, and each op's loop over the agents calls one formula. A program
//! `Output(Priority[inputs])` whose inputs are such parts, sharing no op, runs each input for
//! the agents no earlier input answered ([`BatchPlan::Priority`]). Any other program, and any
//! of more than [`MAX_BATCH_OPS`] ops, is evaluated agent by agent.
//!
//! Each agent computes exactly what [`Program::steer`] computes for it: the same formulas, the
//! same operands, in the same order, and the same draws from its own RNG in the same order
//! (Wander is the only op of such a program that draws, and only the agents that reach it
//! draw). The forces are therefore bit-identical (`tests/batch.rs` checks it against the
//! per-agent evaluator, `simulation/tick.rs` runs every preset both ways).

use glam::Vec2;

use super::neighbors::take_sums;
mod leaves;

use super::{Context, NoTrace, group_force};
use crate::Vehicle;
use crate::behaviors::NeighborSums;
use crate::compile::program::{NO_PASS, Num, Op};
use crate::compile::{AgentState, Program, Scratch};
use crate::math::truncate;

/// Most agents in one batch. The values of 64 agents for a program of 8 ops take 4 KiB, well
/// inside the L1 cache.
pub(crate) const BATCH: usize = 64;

/// The largest program evaluated in batches. A batch keeps a value per op and agent, and
/// every parallel chunk has a batch: at this size 128 KiB per chunk. A larger graph (a file
/// may hold 100,000 nodes) is evaluated agent by agent, whose memory grows with its ops alone.
const MAX_BATCH_OPS: usize = 256;

impl Program {
    /// Plans batch evaluation (see the module's documentation).
    pub(in crate::compile) fn plan_batch(&mut self) {
        self.batch_plan = plan(self);
    }

    /// Every agent's steering force for this tick: agent `i` of `context.vehicles`, with
    /// state `states[i]`, gets `forces[i]` (for as many agents as all three hold), bit for bit
    /// what [`Program::steer`] gives it. Where the program allows, evaluates op by op over
    /// batches of 64 agents, which is faster than a loop over [`Program::steer`] (see
    /// `BENCHMARKS.md`). Allocates nothing once `scratch` is warm.
    pub fn steer_all(
        &self,
        context: &Context<'_>,
        states: &mut [AgentState],
        scratch: &mut Scratch,
        forces: &mut [Vec2],
    ) {
        let vehicles = context.vehicles;
        let n = vehicles.len().min(states.len()).min(forces.len());
        let mut agents = [0_u32; BATCH];
        for start in (0..n).step_by(BATCH) {
            let end = (start + BATCH).min(n);
            for (slot, agent) in agents.iter_mut().zip(start..end) {
                *slot = agent as u32;
            }
            self.steer_batch(
                context,
                agents.get(..end - start).unwrap_or(&[]),
                vehicles.get(start..end).unwrap_or(&[]),
                states.get_mut(start..end).unwrap_or(&mut []),
                scratch,
                forces.get_mut(start..end).unwrap_or(&mut []),
            );
        }
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
        let Some(plan) = &self.batch_plan else {
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
        let passes = self.passes.len();
        scratch
            .batch_sums
            .resize(n * passes, NeighborSums::default());
        scratch.batch_sums_ready.clear();
        scratch.batch_sums_ready.resize(n, false);
        for state in states.iter_mut() {
            state.preferred = None;
        }
        // Out of the scratch while the evaluators borrow it.
        let mut values = std::mem::take(&mut scratch.batch_values);
        // Grown, never cleared: every op writes an agent's value before anything reads it
        // (inputs run first), so what a previous batch left is never read. Zeroing it cost 3 %
        // of a flocking tick.
        if values.len() < self.ops.len() * n {
            values.resize(self.ops.len() * n, Vec2::ZERO);
        }
        let mut batch = Batch {
            context,
            agents,
            vehicles,
            states,
            scratch,
            values,
            sums_taken: 0,
        };
        match plan {
            BatchPlan::Static(order) => self.run_ops(order, &mut batch, &(0..n)),
            BatchPlan::Priority {
                priority,
                epsilon,
                inputs,
            } => self.run_priority(*priority, epsilon.get(context.params), inputs, &mut batch),
        }
        // An Output passes its input on unchanged (the plans do not run it): read the input.
        let result = output_input(self).unwrap_or(self.root);
        let root = result as usize * n;
        for (i, force) in forces.iter_mut().enumerate() {
            let value = get(&batch.values, root + i);
            // As the per-agent evaluator: one bad number must not poison the vehicle.
            *force = if value.is_finite() { value } else { Vec2::ZERO };
        }
        batch.scratch.batch_values = batch.values;
    }

    /// The ops `order` for the agents of `batch` at positions `list` (a range for the whole
    /// batch, so that its loops are plain counted loops).
    fn run_ops(&self, order: &[u32], batch: &mut Batch<'_, '_>, list: &impl AgentList) {
        for &index in order {
            if let Some(op) = self.ops.get(index as usize) {
                self.run_op(index, op, batch, list.clone());
            }
        }
    }

    /// The program `Output(Priority[inputs])`: each input's ops for the agents no earlier
    /// input answered (a force longer than `epsilon`), as the per-agent Priority asks for
    /// them; zero for the agents none answered. The batch reads the Priority's values (the
    /// Output passes them on).
    fn run_priority(
        &self,
        priority: u32,
        epsilon: f32,
        inputs: &[(u32, Box<[u32]>)],
        batch: &mut Batch<'_, '_>,
    ) {
        let n = batch.agents.len();
        let mut open = std::mem::take(&mut batch.scratch.batch_open);
        open.clear();
        open.extend(0..n as u16);
        for (input, order) in inputs {
            if open.is_empty() {
                break;
            }
            self.run_ops(order, batch, &open.iter().map(|&i| usize::from(i)));
            let values = &mut batch.values;
            open.retain(|&i| {
                let i = usize::from(i);
                let value = get(values, *input as usize * n + i);
                let answers = value.length() > epsilon;
                if answers {
                    set(values, priority as usize * n + i, value);
                }
                !answers
            });
        }
        for &i in &open {
            set(
                &mut batch.values,
                priority as usize * n + usize::from(i),
                Vec2::ZERO,
            );
        }
        batch.scratch.batch_open = open;
    }

    /// Op `index` (`op`) for the agents of `batch` at positions `list`, into its column of
    /// `batch.values`.
    ///
    /// Each kernel first cuts what it reads and writes to the batch's length (`n`): the
    /// column of every input op (compiled before the op, so in the values before its
    /// column), the vehicles and the states. In the counted loop of a static plan (`0..n`) the
    /// compiler then knows every access is in bounds and checks none; the checks were 5 % of
    /// a flocking tick.
    fn run_op(&self, index: u32, op: &Op, batch: &mut Batch<'_, '_>, list: impl AgentList) {
        let n = batch.agents.len();
        let params = batch.context.params;
        let Some((before, out)) = columns(&mut batch.values, n, index) else {
            return;
        };
        let input = |op: u32| before.get(op as usize * n..(op as usize + 1) * n);
        match *op {
            Op::Blend(span) => {
                let inputs = self
                    .weighted
                    .get(span.start as usize..(span.start + span.len) as usize)
                    .unwrap_or(&[]);
                // As the per-agent Blend: from zero, inputs in their listed order. Input by
                // input over the agents adds the same terms in the same order for each agent.
                for i in list.clone() {
                    out[i] = Vec2::ZERO;
                }
                for &(op, weight) in inputs {
                    let (Some(values), weight) = (input(op), weight.get(params)) else {
                        continue;
                    };
                    for i in list.clone() {
                        out[i] += weight * values[i];
                    }
                }
            }
            Op::Scale(of, factor) => {
                let (Some(values), factor) = (input(of), factor.get(params)) else {
                    return;
                };
                for i in list {
                    out[i] = factor * values[i];
                }
            }
            Op::Truncate(of, max) => {
                let (Some(values), max) = (input(of), max.get(params)) else {
                    return;
                };
                for i in list {
                    out[i] = truncate(values[i], max);
                }
            }
            Op::Separation(..) | Op::Cohesion(..) | Op::Alignment(..) | Op::Flocking { .. } => {
                self.take_batch_sums(batch, list.clone());
                self.group_column(index, op, batch, list);
            }
            _ => self.leaf_column(index, op, batch, list),
        }
    }

    /// Group op `index` (`op`: Separation, Cohesion, Alignment or Flocking) for the agents at
    /// positions `list`, from their pass's sums (taken already).
    fn group_column(&self, index: u32, op: &Op, batch: &mut Batch<'_, '_>, list: impl AgentList) {
        let (n, passes) = (batch.agents.len(), self.passes.len());
        let params = batch.context.params;
        let pass = self.pass_of.get(index as usize).copied();
        let pass = pass.unwrap_or(NO_PASS) as usize;
        let (Some((_, out)), Some(vehicles), Some(sums)) = (
            columns(&mut batch.values, n, index),
            batch.vehicles.get(..n),
            batch.scratch.batch_sums.get(..n * passes),
        ) else {
            return;
        };
        if pass >= passes {
            return;
        }
        for i in list {
            out[i] = group_force(op, &sums[i * passes + pass], &vehicles[i], params);
        }
    }

    /// The neighbor sums (one per pass) of the agents at positions `list` that have none yet
    /// this batch, into `scratch.batch_sums`. Taken when an agent first reaches a group op,
    /// as the per-agent evaluator does: an agent a Priority answered earlier never lists its
    /// neighbors.
    fn take_batch_sums(&self, batch: &mut Batch<'_, '_>, list: impl AgentList) {
        let (n, passes) = (batch.agents.len(), self.passes.len());
        if batch.sums_taken == n {
            return;
        }
        let taken = &mut batch.sums_taken;
        let Scratch {
            batch_sums,
            batch_sums_ready,
            neighborhoods,
            near,
            ..
        } = &mut *batch.scratch;
        let (context, agents, vehicles) = (batch.context, batch.agents, batch.vehicles);
        let (Some(ready), Some(agents), Some(vehicles), Some(sums)) = (
            batch_sums_ready.get_mut(..n),
            agents.get(..n),
            vehicles.get(..n),
            batch_sums.get_mut(..n * passes),
        ) else {
            return;
        };
        // The neighborhoods are the group's: resolved once for the batch.
        self.with_neighborhoods(context.params, neighborhoods, |neighborhoods, widest| {
            for i in list {
                if ready[i] {
                    continue;
                }
                ready[i] = true;
                *taken += 1;
                take_sums(
                    context.grid,
                    (agents[i] as usize, &vehicles[i]),
                    (neighborhoods, widest),
                    near,
                    &mut sums[i * passes..(i + 1) * passes],
                );
            }
        });
    }
}

/// The column of op `op` (one value per agent of a batch of `n`) and, before it, the columns
/// of every op compiled earlier; `None` if `values` does not reach that far.
fn columns(values: &mut [Vec2], n: usize, op: u32) -> Option<(&[Vec2], &mut [Vec2])> {
    let (before, rest) = values.split_at_mut_checked(op as usize * n)?;
    Some((before, rest.get_mut(..n)?))
}

/// Positions of agents in a batch, ascending.
trait AgentList: Iterator<Item = usize> + Clone {}

impl<T: Iterator<Item = usize> + Clone> AgentList for T {}

/// One batch's agents, as [`Program::steer_batch`] was given them, and the values of the ops
/// evaluated so far (op after op, a column of one value per agent each).
struct Batch<'b, 'c> {
    context: &'b Context<'c>,
    agents: &'b [u32],
    vehicles: &'c [Vehicle],
    states: &'b mut [AgentState],
    scratch: &'b mut Scratch,
    values: Vec<Vec2>,
    /// How many agents have their neighbor sums: when all do, the later group ops of the
    /// batch skip the search for agents without.
    sums_taken: usize,
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

/// The input of `program`'s root when the root is an Output, which passes it on unchanged.
fn output_input(program: &Program) -> Option<u32> {
    match program.ops.get(program.root as usize)? {
        &Op::Output(input) => Some(input),
        _ => None,
    }
}

/// The batch plan of `program`, if it has one.
fn plan(program: &Program) -> Option<BatchPlan> {
    if program.ops.len() > MAX_BATCH_OPS {
        return None;
    }
    let mut owner = vec![0_u32; program.ops.len()];
    if let Some(mut order) = static_order(program, program.root, 1, &mut owner) {
        // The Output, last, passes its input on: the batch reads that input's column.
        if order.last() == Some(&program.root) && output_input(program).is_some() {
            order.pop();
        }
        return Some(BatchPlan::Static(order.into_boxed_slice()));
    }
    let Some(&Op::Output(priority)) = program.ops.get(program.root as usize) else {
        return None;
    };
    let Some(&Op::Priority(span, epsilon)) = program.ops.get(priority as usize) else {
        return None;
    };
    let links = program
        .links
        .get(span.start as usize..(span.start + span.len) as usize)?;
    owner.fill(0);
    let mut inputs = Vec::with_capacity(links.len());
    for (k, &input) in links.iter().enumerate() {
        let order = static_order(program, input, k as u32 + 1, &mut owner)?;
        inputs.push((input, order.into_boxed_slice()));
    }
    Some(BatchPlan::Priority {
        priority,
        epsilon,
        inputs: inputs.into_boxed_slice(),
    })
}

/// The ops of the subtree at `start` in the order the per-agent evaluator finishes them, when
/// that order is the same for every agent: every op of it is a behavior or one of Blend,
/// Scale, Truncate and Output, which always evaluate all their inputs. A shared op is
/// evaluated at its first use, as the per-agent evaluator's memo does. Marks the subtree's ops
/// in `owner` with `mark`; `None` also when an op is another subtree's (nonzero, not `mark`).
fn static_order(program: &Program, start: u32, mark: u32, owner: &mut [u32]) -> Option<Vec<u32>> {
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
    // Whether `op` was not reached before; `None` if another subtree has it.
    let mut first_visit = |op: u32| -> Option<bool> {
        let owner = owner.get_mut(op as usize)?;
        match *owner {
            0 => {
                *owner = mark;
                Some(true)
            }
            seen if seen == mark => Some(false),
            _ => None,
        }
    };
    let mut order = Vec::new();
    first_visit(start)?;
    // Depth first without recursion: (op, its inputs, how many of them were visited).
    let mut stack = vec![(start, inputs(start)?, 0)];
    while let Some((op, op_inputs, next)) = stack.last_mut() {
        if let Some(&input) = op_inputs.get(*next) {
            *next += 1;
            // The kernels find an input's column before the op's own (the compiler emits
            // inputs first); a program that did not would be evaluated agent by agent.
            if input >= *op {
                return None;
            }
            if first_visit(input)? {
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
    use super::BatchPlan;
    use crate::{Graph, compile};

    /// How a program of these nodes is planned, with node ids for op indices: `Static(order)`
    /// as one list, `Priority` as one list per input; `None` for agent by agent.
    fn plan(nodes: &str) -> Option<Vec<Vec<u32>>> {
        let text = format!(
            r#"(format: "steergraph.graph", version: 1,
                vehicle: (mass: 1.0, max_force: 5.0, max_speed: 3.0, radius: 0.5),
                nodes: {{{nodes}}})"#
        );
        let graph = Graph::from_ron(&text, "test.graph.ron").expect("the test graph parses");
        let program = compile(&graph).expect("the test graph compiles");
        let ids = |order: &[u32]| {
            let ids = order.iter().map(|&op| program.op_nodes[op as usize].0);
            ids.collect::<Vec<u32>>()
        };
        Some(match program.batch_plan.as_ref()? {
            BatchPlan::Static(order) => vec![ids(order)],
            BatchPlan::Priority { inputs, .. } => {
                inputs.iter().map(|(_, order)| ids(order)).collect()
            }
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
        // The Output (6) is not run: the batch reads its input's values.
        assert_eq!(plan(nodes), Some(vec![vec![1, 2, 3, 4, 5]]));
        // Inputs in their listed order, not by id.
        let nodes = "1: Seek(target: Point(1.0, 2.0)),
            2: Flee(target: Point(0.0, 0.0)),
            3: Blend(inputs: [(node: 2, weight: 1.0), (node: 1, weight: 1.0)]),
            4: Output(input: 3)";
        assert_eq!(plan(nodes), Some(vec![vec![2, 1, 3]]));
    }

    #[test]
    fn a_priority_at_the_root_runs_each_input_for_the_agents_still_open() {
        // Output(Priority[Flee 1, Blend[Wander 2, Seek 3]]): one list per input.
        let nodes = "1: Flee(target: Point(0.0, 0.0)),
            2: Wander(distance: 2.0, radius: 1.0, jitter: 90.0),
            3: Seek(target: Point(1.0, 2.0)),
            4: Blend(inputs: [(node: 2, weight: 1.0), (node: 3, weight: 1.0)]),
            5: Priority(inputs: [1, 4], epsilon: 0.01),
            6: Output(input: 5)";
        assert_eq!(plan(nodes), Some(vec![vec![1], vec![2, 3, 4]]));
        // A Wander read by two inputs would be drawn by whichever reaches it first: agent by
        // agent.
        let nodes = "1: Wander(distance: 2.0, radius: 1.0, jitter: 90.0),
            2: Seek(target: Point(1.0, 2.0)),
            3: Blend(inputs: [(node: 1, weight: 1.0), (node: 2, weight: 1.0)]),
            4: Priority(inputs: [1, 3], epsilon: 0.01),
            5: Output(input: 4)";
        assert_eq!(plan(nodes), None);
    }

    #[test]
    fn a_program_too_large_for_a_batch_is_evaluated_agent_by_agent() {
        // A Blend of `seeks` Seeks and the Output: seeks + 2 ops.
        let blend = |seeks: u32| {
            let seek = |id: u32| format!("{id}: Seek(target: Point(1.0, 2.0)),");
            let input = |id: u32| format!("(node: {id}, weight: 1.0),");
            format!(
                "{} {}: Blend(inputs: [{}]), {}: Output(input: {})",
                (1..=seeks).map(seek).collect::<String>(),
                seeks + 1,
                (1..=seeks).map(input).collect::<String>(),
                seeks + 2,
                seeks + 1
            )
        };
        let fits = (super::MAX_BATCH_OPS - 2) as u32;
        assert!(plan(&blend(fits)).is_some());
        assert_eq!(plan(&blend(fits + 1)), None);
    }

    #[test]
    fn a_lazy_combiner_elsewhere_keeps_the_program_per_agent() {
        let nodes = "1: Seek(target: Point(1.0, 2.0)),
            2: Wander(distance: 2.0, radius: 1.0, jitter: 90.0),
            3: Priority(inputs: [1, 2], epsilon: 0.01),
            4: Blend(inputs: [(node: 3, weight: 1.0), (node: 2, weight: 1.0)]),
            5: Output(input: 4)";
        assert_eq!(plan(nodes), None);
        let nodes = "1: Seek(target: Point(1.0, 2.0)),
            2: Speed,
            3: Compare(sensor: 2, test: Greater, threshold: 1.0),
            4: Gate(input: 1, condition: 3),
            5: Output(input: 4)";
        assert_eq!(plan(nodes), None);
        // A Priority at the root with a lazy input.
        let nodes = "1: Seek(target: Point(1.0, 2.0)),
            2: Wander(distance: 2.0, radius: 1.0, jitter: 90.0),
            3: Priority(inputs: [1, 2], epsilon: 0.01),
            4: Flee(target: Point(0.0, 0.0)),
            5: Priority(inputs: [4, 3], epsilon: 0.01),
            6: Output(input: 5)";
        assert_eq!(plan(nodes), None);
    }
}
