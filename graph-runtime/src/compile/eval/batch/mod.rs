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

use glam::{Vec2, Vec3};

mod kernels;

use super::context::Context;
use super::neighbors::{FullCircle, take_sums};
use super::trace::NoTrace;
use super::value::Value;
use crate::behaviors::NeighborSums;
use crate::compile::program::{AgentState, BatchPlan, GroupOp, NO_PASS, Op, Program, Scratch};
use crate::{Steering, Vehicle};

/// Where a batch's steering goes: forces alone (`[Vec2]`), or with their angular parts
/// (`[Steering]`).
pub(crate) trait Sink {
    /// How many agents it holds.
    fn len(&self) -> usize;
    /// Agent `i`'s steering.
    fn put(&mut self, i: usize, steering: Steering);
}

impl Sink for [Vec2] {
    #[inline]
    fn len(&self) -> usize {
        <[Vec2]>::len(self)
    }

    #[inline]
    fn put(&mut self, i: usize, steering: Steering) {
        if let Some(force) = self.get_mut(i) {
            *force = steering.force;
        }
    }
}

impl Sink for [Steering] {
    #[inline]
    fn len(&self) -> usize {
        <[Steering]>::len(self)
    }

    #[inline]
    fn put(&mut self, i: usize, steering: Steering) {
        if let Some(slot) = self.get_mut(i) {
            *slot = steering;
        }
    }
}

/// Most agents in one batch. The values of 64 agents for a program of 8 ops take 4 KiB, well
/// inside the L1 cache.
pub(crate) const BATCH: usize = 64;

impl Program {
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
        self.steer_all_into(context, states, scratch, forces);
    }

    /// Like [`Program::steer_all`], with each agent's angular part: agent `i` gets
    /// `steerings[i]`, bit for bit what [`Program::steering`] gives it.
    pub fn steering_all(
        &self,
        context: &Context<'_>,
        states: &mut [AgentState],
        scratch: &mut Scratch,
        steerings: &mut [Steering],
    ) {
        self.steer_all_into(context, states, scratch, steerings);
    }

    fn steer_all_into<S: Sink + ?Sized>(
        &self,
        context: &Context<'_>,
        states: &mut [AgentState],
        scratch: &mut Scratch,
        out: &mut S,
    ) {
        let vehicles = context.vehicles;
        let n = vehicles.len().min(states.len()).min(out.len());
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
                &mut Offset {
                    out: &mut *out,
                    start,
                    len: end - start,
                },
            );
        }
    }

    /// The steering forces of a batch of agents: `agents[i]` (an index into
    /// `context.vehicles`) with vehicle `vehicles[i]` and state `states[i]` gets `forces[i]`,
    /// exactly what [`Program::steer`] gives it. Evaluates op by op when the program allows it
    /// (see the module's documentation), agent by agent otherwise. Allocates nothing once
    /// `scratch` has grown to fit a batch.
    pub(crate) fn steer_batch<'c, S: Sink + ?Sized>(
        &self,
        context: &Context<'c>,
        agents: &[u32],
        vehicles: &'c [Vehicle],
        states: &mut [AgentState],
        scratch: &mut Scratch,
        out: &mut S,
    ) {
        // With avoidance layers the neighbor lists depend on each agent's mask: agent by agent
        // (the batch's sums are taken for every agent alike).
        let plan = self
            .batch_plan
            .as_ref()
            .filter(|_| context.avoidance.is_empty());
        let Some(plan) = plan else {
            let each = agents.iter().zip(vehicles).zip(states.iter_mut());
            for (i, ((&agent, me), state)) in each.enumerate().take(out.len()) {
                let steering = self.run(context, agent as usize, me, state, scratch, NoTrace);
                out.put(i, steering);
            }
            return;
        };
        if self.turns {
            self.steer_batch_with::<Vec3, S>(plan, context, agents, vehicles, states, scratch, out);
        } else {
            self.steer_batch_with::<Vec2, S>(plan, context, agents, vehicles, states, scratch, out);
        }
    }

    /// [`Program::steer_batch`] of a program with a batch plan, with values of type `V`.
    #[expect(clippy::too_many_arguments, reason = "steer_batch's, with the plan")]
    fn steer_batch_with<'c, V: Value, S: Sink + ?Sized>(
        &self,
        plan: &BatchPlan,
        context: &Context<'c>,
        agents: &[u32],
        vehicles: &'c [Vehicle],
        states: &mut [AgentState],
        scratch: &mut Scratch,
        out: &mut S,
    ) {
        let n = agents
            .len()
            .min(vehicles.len())
            .min(states.len())
            .min(out.len());
        let (agents, vehicles) = (&agents[..n], &vehicles[..n]);
        let states = &mut states[..n];
        let passes = self.passes.len();
        scratch
            .batch_sums
            .resize(n * passes, NeighborSums::default());
        scratch.batch_sums_ready.clear();
        scratch.batch_sums_ready.resize(n, false);
        for state in states.iter_mut() {
            state.set_preferred(None);
        }
        // Out of the scratch while the evaluators borrow it.
        let mut values = std::mem::take(V::batch_values(scratch));
        // Grown, never cleared: every op writes an agent's value before anything reads it
        // (inputs run first), so what a previous batch left is never read. Zeroing it cost 3 %
        // of a flocking tick.
        if values.len() < self.ops.len() * n {
            values.resize(self.ops.len() * n, V::ZERO);
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
        let result = self.output_input().unwrap_or(self.root);
        let root = result as usize * n;
        for i in 0..n {
            let value = get(&batch.values, root + i);
            // As the per-agent evaluator: one bad number must not poison the vehicle.
            out.put(
                i,
                if value.finite() {
                    value.to_steering()
                } else {
                    Steering::ZERO
                },
            );
        }
        *V::batch_values(batch.scratch) = batch.values;
    }

    /// The ops `order` for the agents of `batch` at positions `list` (a range for the whole
    /// batch, so that its loops are plain counted loops).
    fn run_ops<V: Value>(
        &self,
        order: &[u32],
        batch: &mut Batch<'_, '_, V>,
        list: &impl AgentList,
    ) {
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
    fn run_priority<V: Value>(
        &self,
        priority: u32,
        epsilon: f32,
        inputs: &[(u32, Box<[u32]>)],
        batch: &mut Batch<'_, '_, V>,
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
                let answers = value.magnitude() > epsilon;
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
                V::ZERO,
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
    fn run_op<V: Value>(
        &self,
        index: u32,
        op: &Op,
        batch: &mut Batch<'_, '_, V>,
        list: impl AgentList,
    ) {
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
                    out[i] = V::ZERO;
                }
                for &(op, weight) in inputs {
                    let (Some(values), weight) = (input(op), weight.get(params)) else {
                        continue;
                    };
                    for i in list.clone() {
                        out[i] += values[i].scaled(weight);
                    }
                }
            }
            Op::Scale(of, factor) => {
                let (Some(values), factor) = (input(of), factor.get(params)) else {
                    return;
                };
                for i in list {
                    out[i] = values[i].scaled(factor);
                }
            }
            Op::Truncate(of, max) => {
                let (Some(values), max) = (input(of), max.get(params)) else {
                    return;
                };
                for i in list {
                    out[i] = values[i].truncated(max);
                }
            }
            Op::Group(group) => {
                self.take_batch_sums(batch, list.clone());
                self.group_column(index, group, batch, list);
            }
            Op::Reciprocal(reciprocal) => {
                kernels::reciprocal_column(self, (index, reciprocal), batch, list);
            }
            _ => self.leaf_column(index, op, batch, list),
        }
    }

    /// Group op `index` (`group`: Separation, Cohesion, Alignment or Flocking) for the agents
    /// at positions `list`, from their pass's sums (taken already).
    fn group_column<V: Value>(
        &self,
        index: u32,
        group: GroupOp,
        batch: &mut Batch<'_, '_, V>,
        list: impl AgentList,
    ) {
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
            out[i] = V::force(group.force(&sums[i * passes + pass], &vehicles[i], params));
        }
    }

    /// The neighbor sums (one per pass) of the agents at positions `list` that have none yet
    /// this batch, into `scratch.batch_sums`. Taken when an agent first reaches a group op,
    /// as the per-agent evaluator does: an agent a Priority answered earlier never lists its
    /// neighbors.
    fn take_batch_sums<V: Value>(&self, batch: &mut Batch<'_, '_, V>, list: impl AgentList) {
        if batch.sums_taken == batch.agents.len() {
            return;
        }
        self.take_sums_of(
            (batch.context, batch.agents, batch.vehicles),
            batch.scratch,
            &mut batch.sums_taken,
            list,
        );
    }

    /// [`Program::take_batch_sums`] without the batch's values, so that it is one function
    /// whatever the values carry.
    fn take_sums_of(
        &self,
        (context, agents, vehicles): (&Context<'_>, &[u32], &[Vehicle]),
        scratch: &mut Scratch,
        taken: &mut usize,
        list: impl AgentList,
    ) {
        let (n, passes) = (agents.len(), self.passes.len());
        let Scratch {
            batch_sums,
            batch_sums_ready,
            neighborhoods,
            near,
            found,
            nearest,
            ..
        } = scratch;
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
            // One full circle (the usual flock) is known for the whole batch: each agent's
            // sums come straight from `FullCircle::sums_into`, without `take_sums`' choice of path
            // per agent, which cost a seventh as much as the sums themselves.
            let full_circle = match neighborhoods {
                [neighborhood] if passes == 1 && neighborhood.1.is_full_circle() => {
                    Some(FullCircle::new(*neighborhood))
                }
                _ => None,
            };
            if let Some(circle) = full_circle {
                let agents = (agents, vehicles, ready, taken);
                circle.batch(context.grid, agents, list, (found, nearest), sums);
                return;
            }
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
                    (near, found, nearest),
                    &mut sums[i * passes..(i + 1) * passes],
                );
            }
        });
    }
}

/// The column of op `op` (one value per agent of a batch of `n`) and, before it, the columns
/// of every op compiled earlier; `None` if `values` does not reach that far.
fn columns<V>(values: &mut [V], n: usize, op: u32) -> Option<(&[V], &mut [V])> {
    let (before, rest) = values.split_at_mut_checked(op as usize * n)?;
    Some((before, rest.get_mut(..n)?))
}

/// Positions of agents in a batch, ascending.
trait AgentList: Iterator<Item = usize> + Clone {}

impl<T: Iterator<Item = usize> + Clone> AgentList for T {}

/// One batch's agents, as [`Program::steer_batch`] was given them, and the values of the ops
/// evaluated so far (op after op, a column of one value per agent each).
struct Batch<'b, 'c, V> {
    context: &'b Context<'c>,
    agents: &'b [u32],
    vehicles: &'c [Vehicle],
    states: &'b mut [AgentState],
    scratch: &'b mut Scratch,
    values: Vec<V>,
    /// How many agents have their neighbor sums: when all do, the later group ops of the
    /// batch skip the search for agents without.
    sums_taken: usize,
}

#[inline]
fn get<V: Value>(values: &[V], at: usize) -> V {
    values.get(at).copied().unwrap_or(V::ZERO)
}

#[inline]
fn set<V>(values: &mut [V], at: usize, value: V) {
    if let Some(slot) = values.get_mut(at) {
        *slot = value;
    }
}

/// The agents `start..start + len` of a larger sink, as a sink of their own.
struct Offset<'a, S: ?Sized> {
    out: &'a mut S,
    start: usize,
    len: usize,
}

impl<S: Sink + ?Sized> Sink for Offset<'_, S> {
    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn put(&mut self, i: usize, steering: Steering) {
        if i < self.len {
            self.out.put(self.start + i, steering);
        }
    }
}
