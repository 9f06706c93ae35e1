//! Leaf ops over a batch: each leaf's numbers (and obstacles, bounds) are resolved once per
//! batch and its formula called agent by agent; a leaf without a kernel of its own runs
//! through the per-agent evaluator's `leaf_value`, one agent at a time.

use glam::Vec2;

use super::{AgentList, Batch, columns};
use crate::behaviors;
use crate::compile::eval::context::Context;
use crate::compile::eval::evaluator::Evaluator;
use crate::compile::eval::trace::NoTrace;
use crate::compile::eval::value::Value;
use crate::compile::program::{AgentState, Scratch};
use crate::compile::program::{
    AimOp, CourseOp, FacingOp, FollowOp, HeadingRef, Num, Op, Program, ReciprocalOp, TargetRef,
    VelocityRef, alignment,
};
use crate::{OwnGoals, Steering, Vehicle};

/// Fewest agents in the crowd for a batch to read its agents' own points ahead of looking them
/// up (see `leaf_column`): RVO2's Circle of 10,000 on one thread 2 to 3 % faster; at 1,000, and
/// on Blocks' 100, every point is in the cache already and the loop cost 8 instructions an
/// agent for nothing.
const GOALS_READ_AHEAD_MIN_AGENTS: usize = 4_096;

/// Fewest agents in the crowd for a batch to read its agents' notes of their last nearest
/// ahead of their solves (see `reciprocal_column`): RVO2's Circle of 100,000 on one thread
/// about 1 % faster; at 10,000 (80 KB of notes) no faster, and on Blocks 24 instructions an
/// agent for nothing.
const NOTES_READ_AHEAD_MIN_AGENTS: usize = 32_768;

/// About how many agents the tick steers: those placed in the grid, or those read by index.
fn crowd(context: &Context<'_>) -> usize {
    context.grid.positions().len().max(context.vehicles.len())
}

impl Program {
    /// Leaf op `index` (`op`: a behavior without neighbor sums, or a sensor) for the agents
    /// of `batch` at positions `list`, into its column of `batch.values`.
    pub(super) fn leaf_column<V: Value>(
        &self,
        index: u32,
        op: &Op,
        batch: &mut Batch<'_, '_, V>,
        list: impl AgentList,
    ) {
        let n = batch.agents.len();
        let params = batch.context.params;
        let Some((_, out)) = columns(&mut batch.values, n, index) else {
            return;
        };
        match *op {
            Op::Course(CourseOp::Wander {
                distance,
                radius,
                jitter,
                slot,
                face: false,
            }) => {
                let jitter = jitter.get(params).to_radians();
                let (distance, radius) = (distance.get(params), radius.get(params));
                let (Some(vehicles), Some(states)) =
                    (batch.vehicles.get(..n), batch.states.get_mut(..n))
                else {
                    return;
                };
                for i in list {
                    let theta = states[i].turn_wander(slot, jitter, batch.context.dt);
                    out[i] = V::force(behaviors::wander(&vehicles[i], theta, distance, radius));
                }
            }
            // The boids' Priority's two leaves among them: their numbers, the obstacles or the
            // bounds resolved once per batch (agent by agent through the evaluator they were
            // 8 % of a boids tick).
            Op::Surroundings(op) => {
                let resolved = op.resolve(|n| n.get(params), batch.context.world);
                let Some(vehicles) = batch.vehicles.get(..n) else {
                    return;
                };
                let agents = list.filter_map(|i| Some((i, vehicles.get(i)?)));
                resolved.forces(agents, |i, force| out[i] = V::force(force));
            }
            Op::Facing(
                FacingOp::LookWhereYouAreGoing(_)
                | FacingOp::ReachOrientation(HeadingRef::Angle(_), _),
            ) => {
                facing_column(index, op, batch, list);
            }
            // Seek, Flee and Arrival to a point, a scene target or the agent's own point: the
            // target found once per batch (the agent's own, agent by agent), the force from
            // the op's own `toward` (through the per-agent evaluator, building it and
            // dispatching the op cost more than the formula: 4 % of RVO2's Blocks for its
            // Arrival and Match velocity).
            Op::Aim(
                aim @ (AimOp::Seek(target) | AimOp::Flee(target, _) | AimOp::Arrival(target, _)),
            ) if !matches!(target, TargetRef::Tagged(_)) => {
                let (Some(vehicles), Some(states)) =
                    (batch.vehicles.get(..n), batch.states.get(..n))
                else {
                    return;
                };
                let context = batch.context;
                let num = |n: Num| n.get(params);
                let shared = match target {
                    TargetRef::Own(_) => {
                        // In a large crowd each agent's points read for the whole batch first:
                        // they lie behind a pointer in the order the agents got them, not the
                        // order the tick walks them, a cache miss each (3.7 % of RVO2's Circle
                        // of 10,000 on one thread). In a loop this short the batch's misses
                        // overlap; in the lookup's loop few were in flight at once.
                        if crowd(context) >= GOALS_READ_AHEAD_MIN_AGENTS {
                            let read = list.clone().map(|i| states[i].own.point_count());
                            std::hint::black_box(read.sum::<usize>());
                        }
                        None
                    }
                    _ => Some(context.target_point(self, &OwnGoals::default(), target)),
                };
                for i in list {
                    let at = shared
                        .unwrap_or_else(|| context.target_point(self, &states[i].own, target));
                    out[i] = V::force(aim.toward(&vehicles[i], at, num));
                }
            }
            Op::Follow(FollowOp::MatchVelocity(VelocityRef::Fixed(x, y), time_to_target)) => {
                let velocity = Vec2::new(x.get(params), y.get(params));
                let time_to_target = time_to_target.get(params);
                let Some(vehicles) = batch.vehicles.get(..n) else {
                    return;
                };
                for i in list {
                    let force = behaviors::match_velocity(&vehicles[i], velocity, time_to_target);
                    out[i] = V::force(force);
                }
            }
            _ => {
                let agents = (batch.agents, batch.vehicles, &mut *batch.states);
                each_evaluator(
                    self,
                    batch.context,
                    agents,
                    batch.scratch,
                    list,
                    |i, evaluator| {
                        out[i] = evaluator.leaf_value(index, op);
                    },
                );
            }
        }
    }
}

/// Calls `each` with the position in the batch and the per-agent evaluator of each of a
/// batch's agents (`agents`: their indices, vehicles and states) at positions `list`, for an
/// op without a kernel of its own. A neighbor list read from an evaluator is its agent's own,
/// as at the start of each per-agent run (Unaligned collision avoidance queries for the
/// agent).
fn each_evaluator<'c, V: Value>(
    program: &Program,
    context: &Context<'c>,
    (agents, vehicles, states): (&[u32], &'c [Vehicle], &mut [AgentState]),
    scratch: &mut Scratch,
    list: impl AgentList,
    mut each: impl FnMut(usize, &mut Evaluator<'_, 'c, '_, NoTrace, V>),
) {
    let n = agents.len();
    let (Some(vehicles), Some(states)) = (vehicles.get(..n), states.get_mut(..n)) else {
        return;
    };
    for i in list {
        let (agent, vehicle, state) = (agents[i], &vehicles[i], &mut states[i]);
        let mut evaluator = Evaluator::new(
            program,
            context,
            agent as usize,
            vehicle,
            state,
            &mut *scratch,
            NoTrace,
        );
        evaluator.scratch.neighbors_ready = false;
        each(i, &mut evaluator);
    }
}

/// Reciprocal op `index` for the agents of `batch` at positions `list`: its input's column is
/// each agent's preferred steering, and each agent's solve runs through the per-agent
/// evaluator's `ReciprocalOp::force`, as `eval/stack.rs` runs it (the angular part passes
/// through). A graph of Reciprocal over static parts is then evaluated op by op over the
/// batch, not walked agent by agent on the evaluator's stack.
pub(super) fn reciprocal_column<V: Value>(
    program: &Program,
    (index, reciprocal): (u32, ReciprocalOp),
    batch: &mut Batch<'_, '_, V>,
    list: impl AgentList,
) {
    let n = batch.agents.len();
    let Some((before, out)) = columns(&mut batch.values, n, index) else {
        return;
    };
    let input = reciprocal.input as usize;
    let Some(preferred) = before.get(input * n..(input + 1) * n) else {
        return;
    };
    // In a very large crowd each agent's note of its last nearest read for the whole batch
    // first, as the own goals above: a cache miss each, taken one solve at a time.
    if crowd(batch.context) >= NOTES_READ_AHEAD_MIN_AGENTS {
        let noted = list.clone().filter_map(|i| batch.agents.get(i));
        let notes = (batch.context.grid).read_notes_ahead(noted.map(|&agent| agent as usize));
        std::hint::black_box(notes);
    }
    let agents = (batch.agents, batch.vehicles, &mut *batch.states);
    each_evaluator::<V>(
        program,
        batch.context,
        agents,
        batch.scratch,
        list,
        |i, evaluator| {
            let Steering { force, angular } = preferred[i].to_steering();
            let force = reciprocal.force(evaluator, force);
            out[i] = V::steering(Steering { force, angular });
        },
    );
}

/// The angular layer's leaves over a batch (`LookWhereYouAreGoing`, `ReachOrientation` to a
/// fixed angle), their numbers resolved once per batch, into op `index`'s column.
fn facing_column<V: Value>(
    index: u32,
    op: &Op,
    batch: &mut Batch<'_, '_, V>,
    list: impl AgentList,
) {
    let n = batch.agents.len();
    let params = batch.context.params;
    let Some((_, out)) = columns(&mut batch.values, n, index) else {
        return;
    };
    match *op {
        Op::Facing(FacingOp::LookWhereYouAreGoing(align)) => {
            let alignment = alignment(align, |n| n.get(params));
            let Some(vehicles) = batch.vehicles.get(..n) else {
                return;
            };
            for i in list {
                out[i] = V::steering(crate::Steering::angular(
                    behaviors::look_where_you_are_going(&vehicles[i], &alignment),
                ));
            }
        }
        Op::Facing(FacingOp::ReachOrientation(HeadingRef::Angle(angle), align)) => {
            let alignment = alignment(align, |n| n.get(params));
            let target = angle.get(params).to_radians();
            let Some(vehicles) = batch.vehicles.get(..n) else {
                return;
            };
            for i in list {
                out[i] = V::steering(crate::Steering::angular(behaviors::reach_orientation(
                    &vehicles[i],
                    target,
                    &alignment,
                )));
            }
        }
        _ => {}
    }
}
