//! Planning batch evaluation: for a program whose evaluation order is the same for every
//! agent, that order (and for `Output(Priority[…])`, one per input), so a batch of agents
//! runs op by op (`eval/batch/`).

use crate::compile::program::{
    BatchPlan, MAX_BATCH_OPS, Op, Program, angular_leaf_ops, condition_leaf_ops, force_leaf_ops,
    sensor_ops,
};
use crate::graph::PortType;

impl Program {
    /// Plans batch evaluation (see the module's documentation).
    pub(in crate::compile) fn plan_batch(&mut self) {
        self.batch_plan = plan(self);
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
        if order.last() == Some(&program.root) && program.output_input().is_some() {
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
/// Scale, Truncate, Reciprocal and Output, which always evaluate all their inputs. A shared op is
/// evaluated at its first use, as the per-agent evaluator's memo does. Marks the subtree's ops
/// in `owner` with `mark`; `None` also when an op is another subtree's (nonzero, not `mark`).
fn static_order(program: &Program, start: u32, mark: u32, owner: &mut [u32]) -> Option<Vec<u32>> {
    let inputs = |index: u32| -> Option<Vec<u32>> {
        let op = program.ops.get(index as usize)?;
        // Conditions and sensors only feed lazy combiners.
        if op.output() != PortType::Steering {
            return None;
        }
        // A behavior (or a muted node): no inputs.
        if !op.takes_inputs() {
            return Some(Vec::new());
        }
        Some(match *op {
            // Combiners that always evaluate all their inputs, in order.
            Op::Output(input) | Op::Scale(input, _) | Op::Truncate(input, _) => vec![input],
            // Its one input, always: the velocity it prefers.
            Op::Reciprocal(reciprocal) => vec![reciprocal.input],
            Op::Blend(span) => program
                .weighted
                .get(span.start as usize..(span.start + span.len) as usize)?
                .iter()
                .map(|&(input, _)| input)
                .collect(),
            // Lazy combiners (which inputs run depends on values), and conditions over
            // their inputs: agent by agent. (Leaves returned above.)
            Op::Priority(..)
            | Op::Dither(..)
            | Op::Budget(_)
            | Op::Gate(..)
            | Op::Compare(..)
            | Op::All(_)
            | Op::Any(_)
            | Op::Not(_)
            | force_leaf_ops!()
            | angular_leaf_ops!()
            | sensor_ops!()
            | condition_leaf_ops!()
            | Op::Muted => return None,
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
    fn reciprocal_runs_after_its_input_as_a_combiner_of_one() {
        // Output(Reciprocal(Blend[Seek 1, Flee 2])): Reciprocal always evaluates its input.
        let nodes = "1: Seek(target: Point(1.0, 2.0)),
            2: Flee(target: Point(0.0, 0.0)),
            3: Blend(inputs: [(node: 1, weight: 0.5), (node: 2, weight: 0.5)]),
            4: Reciprocal(input: 3, time_horizon: 2.0, obstacle_time_horizon: 1.0,
                neighbor_radius: 5.0, max_neighbors: 10.0, clearance: 0.0, keep_right: 0.0),
            5: Output(input: 4)";
        assert_eq!(plan(nodes), Some(vec![vec![1, 2, 3, 4]]));
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
