use glam::Vec2;

mod batch;
mod neighbors;

pub(crate) use batch::{BATCH, BatchPlan};

use super::program::{Num, Op, Span, TargetRef};
use super::{AgentState, Bindings, ParamValues, Program, Scratch, TagMask};
use crate::behaviors::{self, NeighborSums, OrcaLine, Quarry, ReciprocalSettings};
use crate::graph::NodeId;
use crate::math::truncate;
use crate::spatial::SpatialGrid;
use crate::world::Rect;
use crate::{Vehicle, World};

/// Everything a program reads during one tick, shared by all agents of one group.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// Obstacles, paths, flow fields, named targets and bounds.
    pub world: &'a World,
    /// Every agent's vehicle at the start of the tick.
    pub vehicles: &'a [Vehicle],
    /// Every agent's tags, parallel to `vehicles` (may be empty when no program uses tags).
    pub tags: &'a [TagMask],
    /// The spatial grid built over `vehicles` for this tick.
    pub grid: &'a SpatialGrid,
    /// The program's names resolved against `world`.
    pub bindings: &'a Bindings,
    /// Parameter values of the group.
    pub params: &'a ParamValues,
    /// Tick length (s).
    pub dt: f32,
}

/// The value a node produced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NodeValue {
    /// A steering force.
    Force(Vec2),
    /// A sensor reading.
    Scalar(f32),
    /// A condition's answer.
    Condition(bool),
}

/// How many of Reciprocal's half-planes a [`Guide::Reciprocal`] carries (the first ones:
/// obstacles', then the nearest neighbors').
pub const GUIDE_ORCA_LINES: usize = 8;

/// The geometry behind a node's force, for drawing debug guides (world units). Recorded only
/// by [`Program::steer_traced`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Guide {
    /// Nothing to draw beyond the force.
    #[default]
    None,
    /// The point the node steers towards or away from (a target, a predicted quarry position,
    /// a point behind a leader, a hiding spot, the return point of containment; while
    /// containment's prediction is inside the bounds, the predicted position it checks).
    Aim(Vec2),
    /// Wander: the circle ahead and the point on it.
    Wander {
        /// Circle centre.
        center: Vec2,
        /// Circle radius.
        radius: f32,
        /// The aim point on the circle.
        aim: Vec2,
    },
    /// A neighborhood: its radius and field of view (degrees).
    Neighborhood {
        /// Radius.
        radius: f32,
        /// Field of view in degrees.
        fov: f32,
    },
    /// Obstacle avoidance's detection corridor ahead of the agent.
    Corridor {
        /// Length ahead.
        length: f32,
        /// Half the width (the agent's radius).
        half_width: f32,
    },
    /// Path following: the predicted position, its projection on the path, and the aim.
    Path {
        /// Predicted position.
        predicted: Vec2,
        /// Nearest point of the path.
        projection: Vec2,
        /// The point steered to (none while inside a corrective path).
        aim: Option<Vec2>,
    },
    /// Wall avoidance: the feelers (central, left, right), where each meets a wall, and the
    /// nearest wall point within the agent's clearance.
    Feelers {
        /// The far end of each feeler.
        tips: [Vec2; 3],
        /// Where each feeler first crosses a wall, if it does.
        hits: [Option<Vec2>; 3],
        /// The nearest wall point within `radius + margin`, if any.
        nearest: Option<Vec2>,
    },
    /// Wall following: the nearest wall point within range and the point it seeks.
    WallFollow {
        /// The nearest wall point.
        nearest: Vec2,
        /// The point `offset` off the wall and ahead along it.
        aim: Vec2,
    },
    /// Reciprocal collision avoidance, in velocity space (units / s; draw it from the agent's
    /// position): the preferred and chosen velocities and the half-planes of permitted
    /// velocities (each the left side of its line).
    Reciprocal {
        /// The velocity the input force asks for.
        preferred: Vec2,
        /// The velocity chosen.
        chosen: Vec2,
        /// The first `count` half-planes.
        lines: [OrcaLine; GUIDE_ORCA_LINES],
        /// How many entries of `lines` are used.
        count: u8,
        /// How many half-planes there were in all (at most 56).
        total: u8,
        /// Whether no velocity met every half-plane and the least violation was taken.
        fallback: bool,
    },
    /// Flow-field following: where the field was sampled and what it said.
    FlowSample {
        /// Sample point.
        point: Vec2,
        /// Sampled vector (fraction of top speed).
        vector: Vec2,
    },
}

/// One node's evaluation in a [`Trace`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceEntry {
    /// The node.
    pub node: NodeId,
    /// What it produced.
    pub value: NodeValue,
    /// For `Priority` and `Dither`, the input (by position) that won, if any.
    pub chosen: Option<usize>,
    /// The geometry behind the value, for guides.
    pub guide: Guide,
}

/// A record of one agent's evaluation: every node evaluated, in completion order. Nodes absent
/// from it were not evaluated (lazy combiners skipped them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// The evaluated nodes.
    pub entries: Vec<TraceEntry>,
}

impl Trace {
    /// The entry of `node`, if it was evaluated.
    pub fn get(&self, node: NodeId) -> Option<&TraceEntry> {
        self.entries.iter().find(|entry| entry.node == node)
    }
}

trait Recorder {
    /// Whether anything is recorded; guide geometry is only computed when it is.
    const ACTIVE: bool;
    fn record(&mut self, entry: TraceEntry);
}

struct NoTrace;

impl Recorder for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn record(&mut self, _: TraceEntry) {}
}

impl Recorder for &mut Trace {
    const ACTIVE: bool = true;
    fn record(&mut self, entry: TraceEntry) {
        self.entries.push(entry);
    }
}

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
            let needed = match self.ops.get(op as usize) {
                Some(
                    Op::Separation(r, _)
                    | Op::Cohesion(r, _)
                    | Op::Alignment(r, _)
                    | Op::NeighborCount(r, _)
                    | Op::Flocking { radius: r, .. },
                ) => r.get(params),
                Some(Op::Reciprocal {
                    neighbor_radius, ..
                }) => neighbor_radius.get(params),
                Some(Op::UnalignedCollisionAvoidance(max_time)) => {
                    let t = max_time.get(params);
                    vehicle.velocity.length() * t
                        + vehicle.radius
                        + context.grid.max_radius()
                        + context.grid.max_speed() * t
                }
                _ => 0.0,
            };
            radius = radius.max(needed);
        }
        radius
    }
}

/// A combiner or condition waiting for its inputs, on the evaluator's explicit stack (kept in
/// [`Scratch`], so evaluation depth costs heap, never thread stack).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// The op.
    op: u32,
    /// How many of its inputs have been considered (the position of the next one).
    next: u32,
    /// Running total: Blend's sum, Budget's total.
    sum: Vec2,
    /// Priority's and Dither's epsilon; Budget's force left.
    left: f32,
}

impl Frame {
    fn new(op: u32, left: f32) -> Self {
        Self {
            op,
            next: 0,
            sum: Vec2::ZERO,
            left,
        }
    }
}

/// What starting an op takes (see [`Evaluator::start`]).
enum Start<'p> {
    /// Its value is known already (a shared op computed earlier this tick).
    Known(Vec2),
    /// A behavior or sensor: one evaluation (and whether it is shared).
    Leaf(&'p Op, bool),
    /// A combiner or condition: a frame, with this initial `left`.
    Frame(f32),
}

/// What [`Evaluator::step`] did with the combiner on top.
enum Step {
    /// It has its answer.
    Finished(Vec2),
    /// It needs the value of this combiner first (op index and its frame's initial `left`).
    Push(u32, f32),
}

/// The force of group op `op` (Separation, Cohesion, Alignment, Flocking; zero for any other)
/// from its neighborhood's `sums`.
#[expect(
    clippy::inline_always,
    reason = "inlined into the batch's loop over agents, the match on the op is hoisted out of \
              it: 2 % of a flocking tick; `#[inline]` alone left a call per agent and op"
)]
#[inline(always)]
fn group_force(op: &Op, sums: &NeighborSums, me: &Vehicle, params: &ParamValues) -> Vec2 {
    match *op {
        Op::Separation(..) => sums.separation(),
        Op::Cohesion(..) => sums.cohesion(me),
        Op::Alignment(..) => sums.alignment(me),
        Op::Flocking {
            weights: [separation, cohesion, alignment],
            ..
        } => sums.flocking(
            me,
            separation.get(params),
            cohesion.get(params),
            alignment.get(params),
        ),
        _ => Vec2::ZERO,
    }
}

/// The rectangle a Containment node keeps its agents in: its own bounds, or the world's.
fn containment_rect(bounds: Option<[Num; 4]>, context: &Context<'_>) -> Rect {
    let num = |number: Num| number.get(context.params);
    match bounds {
        None => context.world.bounds,
        Some([min_x, min_y, max_x, max_y]) => Rect::new(
            Vec2::new(num(min_x), num(min_y)),
            Vec2::new(num(max_x), num(max_y)),
        ),
    }
}

/// A condition's answer as the evaluator carries it: `(1, 0)` for true, zero for false.
/// Every value travels as a `Vec2` (a sensor's reading in `x`), so the evaluation loop moves
/// no enum through memory; [`NodeValue`]s are made only for the trace.
#[inline]
fn answer(holds: bool) -> Vec2 {
    if holds { Vec2::X } else { Vec2::ZERO }
}

#[inline]
fn holds(value: Vec2) -> bool {
    value.x != 0.0
}

/// Evaluates one agent's program without recursion.
///
/// Ops are compiled inputs first, but evaluation is lazy (`BEHAVIORS.md`, "Combiners"): a
/// combiner asks for its inputs one at a time, in the listed order, and stops when it has its
/// answer, so which nodes run, and in which order Wander and Dither draw from the agent's RNG,
/// depends on values. A sweep over the compiled order cannot do that: it would run (and draw
/// for) an input that is skipped, or run a shared input before a Dither above it has drawn.
/// The evaluator therefore walks the graph from the Output like a recursive evaluator would,
/// but keeps the combiners that wait for an input on an explicit stack ([`Frame`]s in
/// [`Scratch`]): a chain of any depth needs no thread stack. The stack never holds more
/// frames than the program has ops; it keeps its capacity, so a warm tick allocates nothing.
struct Evaluator<'p, 'c, 's, R> {
    program: &'p Program,
    context: Context<'c>,
    agent: usize,
    me: &'c Vehicle,
    state: &'s mut AgentState,
    scratch: &'s mut Scratch,
    recorder: R,
    /// The winning input of the `Priority` or `Dither` just finished, for the trace.
    chosen: Option<usize>,
    /// The guide of the node just finished when only its evaluation knows it (Reciprocal's
    /// depends on its input's value), for the trace.
    pending_guide: Option<Guide>,
}

impl<'p, 'c, 's, R: Recorder> Evaluator<'p, 'c, 's, R> {
    #[inline]
    fn new(
        program: &'p Program,
        context: &Context<'c>,
        agent: usize,
        me: &'c Vehicle,
        state: &'s mut AgentState,
        scratch: &'s mut Scratch,
        recorder: R,
    ) -> Self {
        Self {
            program,
            context: *context,
            agent,
            me,
            state,
            scratch,
            recorder,
            chosen: None,
            pending_guide: None,
        }
    }
}

impl<'p, R: Recorder> Evaluator<'p, '_, '_, R> {
    #[inline]
    fn num(&self, number: Num) -> f32 {
        number.get(self.context.params)
    }

    /// Whether op `index` feeds more than one input (its value is memoized per tick).
    #[inline]
    fn is_shared(&self, index: u32) -> bool {
        self.program
            .shared
            .get(index as usize)
            .copied()
            .unwrap_or(false)
    }

    fn op(&self, index: u32) -> Option<&'p Op> {
        self.program.ops.get(index as usize)
    }

    fn node(&self, index: u32) -> NodeId {
        self.program
            .op_nodes
            .get(index as usize)
            .copied()
            .unwrap_or(NodeId(0))
    }

    /// The world path a program path name is bound to, or with `own` the agent's own route
    /// of that own name.
    fn bound_path(&self, path: u16, own: bool) -> Option<&crate::Path> {
        if own {
            let name = self.program.own_names.get(path as usize)?;
            return self.state.own.route(name);
        }
        let index = (*self.context.bindings.paths.get(path as usize)?)?;
        self.context.world.path_at(index)
    }

    /// The world flow field a program field name is bound to.
    fn bound_field(&self, field: u16) -> Option<&crate::FlowField> {
        let index = (*self.context.bindings.fields.get(field as usize)?)?;
        self.context.world.flow_field_at(index)
    }

    fn link_at(&self, span: Span, position: u32) -> u32 {
        self.program
            .links
            .get((span.start + position) as usize)
            .copied()
            .unwrap_or(0)
    }

    fn weighted_at(&self, span: Span, position: u32) -> (u32, Num) {
        self.program
            .weighted
            .get((span.start + position) as usize)
            .copied()
            .unwrap_or((0, Num::Const(0.0)))
    }

    fn quarry(&self, target: TargetRef) -> Option<Quarry> {
        match target {
            TargetRef::Point(x, y) => Some(Quarry::at(Vec2::new(self.num(x), self.num(y)))),
            TargetRef::Named(name) => {
                let index = (*self.context.bindings.targets.get(name as usize)?)?;
                self.context.world.target_at(index).map(Quarry::at)
            }
            TargetRef::Own(name) => {
                let name = self.program.own_names.get(name as usize)?;
                self.state.own.goal(name).map(Quarry::at)
            }
            TargetRef::Tagged(tag) => {
                let mask = (*self.context.bindings.tags.get(tag as usize)?)?;
                let mut nearest: Option<(f32, &Vehicle)> = None;
                for (index, (other, tags)) in self
                    .context
                    .vehicles
                    .iter()
                    .zip(self.context.tags)
                    .enumerate()
                {
                    if index == self.agent || tags & mask == 0 {
                        continue;
                    }
                    let distance = other.position.distance_squared(self.me.position);
                    if nearest.is_none_or(|(best, _)| distance < best) {
                        nearest = Some((distance, other));
                    }
                }
                nearest.map(|(_, other)| Quarry::from(other))
            }
        }
    }

    /// The value of op `root` (the Output): evaluates lazily from there, without recursion.
    fn evaluate(&mut self, root: u32) -> Vec2 {
        // The Output only passes its input on: start from the input (one frame less per
        // agent), and finish the Output after it.
        if let Some(&Op::Output(input)) = self.op(root) {
            let value = self.evaluate_from(input);
            self.finish(root, value, false);
            return value;
        }
        self.evaluate_from(root)
    }

    /// [`Self::evaluate`] from op `start`.
    ///
    /// `frame` is the combiner being worked on (kept out of the stack, in registers); the
    /// stack holds the combiners below it, each waiting for the one above. Each turn steps
    /// the top combiner: either it finishes (its value becomes the input of the frame below,
    /// which is popped to the top) or it needs an input that is itself a combiner (the top is
    /// pushed and the input becomes the new top, starting without an input).
    fn evaluate_from(&mut self, start: u32) -> Vec2 {
        let left = match self.start(start) {
            Start::Known(value) => return value,
            Start::Leaf(op, shared) => return self.leaf(start, op, shared),
            Start::Frame(left) => left,
        };
        let mut frame = Frame::new(start, left);
        let mut input = None;
        loop {
            match self.step(&mut frame, input) {
                Step::Finished(value) => {
                    let shared = self.is_shared(frame.op);
                    self.finish(frame.op, value, shared);
                    let Some(below) = self.scratch.frames.pop() else {
                        return value;
                    };
                    frame = below;
                    input = Some(value);
                }
                Step::Push(op, left) => {
                    self.scratch.frames.push(frame);
                    frame = Frame::new(op, left);
                    input = None;
                }
            }
        }
    }

    /// What starting op `index` takes: nothing more for a shared op already computed this
    /// tick, one evaluation for a behavior or sensor, a frame of its own for a combiner or
    /// condition. Evaluates nothing.
    #[inline]
    fn start(&self, index: u32) -> Start<'p> {
        let shared = self.is_shared(index);
        if shared
            && let Some(&(stamp, value)) = self.scratch.memo.get(index as usize)
            && stamp == self.scratch.stamp
        {
            return Start::Known(value);
        }
        let Some(op) = self.op(index) else {
            return Start::Known(Vec2::ZERO);
        };
        match *op {
            Op::Priority(_, epsilon) | Op::Dither(_, epsilon) => Start::Frame(self.num(epsilon)),
            Op::Budget(_) => Start::Frame(self.me.max_force),
            Op::Blend(_)
            | Op::Gate(..)
            | Op::Scale(..)
            | Op::Truncate(..)
            | Op::Reciprocal { .. }
            | Op::Output(_)
            | Op::Compare(..)
            | Op::All(_)
            | Op::Any(_)
            | Op::Not(_) => Start::Frame(0.0),
            _ => Start::Leaf(op, shared),
        }
    }

    /// Evaluates the behavior or sensor `op` (op `index`) and finishes it. The value comes
    /// back in registers: handing it over through the evaluator's memory (a store, then a
    /// reload of another width) stalled the CPU on every input.
    fn leaf(&mut self, index: u32, op: &Op, shared: bool) -> Vec2 {
        let value = match *op {
            Op::Distance(_)
            | Op::NeighborCount(..)
            | Op::Speed
            | Op::WallDistance
            | Op::Value(_) => Vec2::new(self.sensor(op), 0.0),
            Op::WallAhead(distance) => answer(behaviors::wall_ahead(
                self.me,
                self.context.world.wall_index(),
                self.num(distance),
            )),
            _ => self.leaf_force(index, op),
        };
        self.finish(index, value, shared);
        value
    }

    /// Continues the combiner `frame`, with the value of the input it asked for last (`None`
    /// when it has just started). Inputs that finish at once (behaviors, sensors, memoized
    /// values) are taken in the same call; the first input that is itself a combiner is
    /// returned ([`Step::Push`]), or the combiner's answer ([`Step::Finished`];
    /// `self.chosen` set for Priority and Dither).
    #[expect(clippy::too_many_lines, reason = "one arm per combiner and condition")]
    #[inline]
    fn step(&mut self, frame: &mut Frame, input: Option<Vec2>) -> Step {
        let mut has_input = input.is_some();
        let mut value = input.unwrap_or(Vec2::ZERO);
        // Asks for input `$call`: one without a frame gives its value at once (into
        // `value`); a combiner is handed back to `evaluate_from` to run on a frame of its own.
        macro_rules! take_one {
            ($call:expr) => {{
                let call = $call;
                value = match self.start(call) {
                    Start::Known(known) => known,
                    Start::Leaf(op, shared) => self.leaf(call, op, shared),
                    Start::Frame(left) => return Step::Push(call, left),
                };
            }};
        }
        // The same inside a combiner's loop over its inputs.
        macro_rules! take {
            ($call:expr) => {{
                take_one!($call);
                has_input = true;
            }};
        }
        let Some(op) = self.op(frame.op) else {
            return Step::Finished(Vec2::ZERO);
        };
        match *op {
            Op::Blend(span) => loop {
                if has_input && let Some(position) = frame.next.checked_sub(1) {
                    let (_, weight) = self.weighted_at(span, position);
                    frame.sum += self.num(weight) * value;
                }
                if frame.next >= span.len {
                    return Step::Finished(frame.sum);
                }
                frame.next += 1;
                take!(self.weighted_at(span, frame.next - 1).0);
            },
            Op::Priority(span, _) => loop {
                if has_input && value.length() > frame.left {
                    self.chosen = frame.next.checked_sub(1).map(|p| p as usize);
                    return Step::Finished(value);
                }
                if frame.next >= span.len {
                    return Step::Finished(Vec2::ZERO);
                }
                frame.next += 1;
                take!(self.link_at(span, frame.next - 1));
            },
            Op::Dither(span, _) => loop {
                if has_input && value.length() > frame.left {
                    self.chosen = frame.next.checked_sub(1).map(|p| p as usize);
                    return Step::Finished(value);
                }
                // One draw per input, in order, whether or not the input then runs.
                let chosen_input = loop {
                    if frame.next >= span.len {
                        return Step::Finished(Vec2::ZERO);
                    }
                    let (input_op, chance) = self.weighted_at(span, frame.next);
                    frame.next += 1;
                    let draw = self.state.rng.unit();
                    if draw < self.num(chance) {
                        break input_op;
                    }
                };
                take!(chosen_input);
            },
            Op::Budget(span) => loop {
                if has_input {
                    let input = value;
                    let length = input.length();
                    if length <= frame.left {
                        frame.sum += input;
                        frame.left -= length;
                    } else {
                        return Step::Finished(frame.sum + input * (frame.left / length));
                    }
                }
                if frame.next >= span.len || frame.left <= 1e-6 {
                    return Step::Finished(frame.sum);
                }
                frame.next += 1;
                take!(self.link_at(span, frame.next - 1));
            },
            Op::Gate(input_op, condition) => {
                if frame.next == 0 {
                    frame.next = 1;
                    take_one!(condition);
                }
                if frame.next == 1 {
                    if !holds(value) {
                        return Step::Finished(Vec2::ZERO);
                    }
                    frame.next = 2;
                    take_one!(input_op);
                }
                Step::Finished(value)
            }
            Op::Scale(input_op, factor) => {
                if !has_input {
                    take_one!(input_op);
                }
                Step::Finished(self.num(factor) * value)
            }
            Op::Truncate(input_op, max) => {
                if !has_input {
                    take_one!(input_op);
                }
                Step::Finished(truncate(value, self.num(max)))
            }
            Op::Reciprocal {
                input: input_op, ..
            } => {
                if !has_input {
                    take_one!(input_op);
                }
                Step::Finished(self.reciprocal(op, value))
            }
            Op::Output(input_op) => {
                if !has_input {
                    take_one!(input_op);
                }
                Step::Finished(value)
            }
            Op::Compare(sensor, test, threshold) => {
                if !has_input {
                    take_one!(sensor);
                }
                Step::Finished(answer(test.holds(value.x, self.num(threshold))))
            }
            Op::All(span) => loop {
                if has_input && !holds(value) {
                    return Step::Finished(answer(false));
                }
                if frame.next >= span.len {
                    return Step::Finished(answer(true));
                }
                frame.next += 1;
                take!(self.link_at(span, frame.next - 1));
            },
            Op::Any(span) => loop {
                if has_input && holds(value) {
                    return Step::Finished(answer(true));
                }
                if frame.next >= span.len {
                    return Step::Finished(answer(false));
                }
                frame.next += 1;
                take!(self.link_at(span, frame.next - 1));
            },
            Op::Not(input_op) => {
                if !has_input {
                    take_one!(input_op);
                }
                Step::Finished(answer(!holds(value)))
            }
            _ => Step::Finished(Vec2::ZERO),
        }
    }

    /// Op `index` finished with `value`: memoizes it (when `shared`) and records it.
    #[inline]
    fn finish(&mut self, index: u32, value: Vec2, shared: bool) {
        if shared && let Some(entry) = self.scratch.memo.get_mut(index as usize) {
            *entry = (self.scratch.stamp, value);
        }
        if R::ACTIVE {
            self.record(index, value);
        }
    }

    /// Records op `index`'s value and guide in the trace.
    #[cold]
    fn record(&mut self, index: u32, value: Vec2) {
        let value = match self.op(index) {
            Some(
                Op::Distance(_)
                | Op::NeighborCount(..)
                | Op::Speed
                | Op::WallDistance
                | Op::Value(_),
            ) => NodeValue::Scalar(value.x),
            Some(Op::Compare(..) | Op::All(_) | Op::Any(_) | Op::Not(_) | Op::WallAhead(_)) => {
                NodeValue::Condition(holds(value))
            }
            _ => NodeValue::Force(value),
        };
        let chosen = self.chosen.take();
        let guide = match self.pending_guide.take() {
            Some(guide) => guide,
            None => self.guide_for(index),
        };
        self.recorder.record(TraceEntry {
            node: self.node(index),
            value,
            chosen,
            guide,
        });
    }

    /// The force of a steering behavior (an op without inputs).
    #[expect(clippy::too_many_lines, reason = "one arm per steering behavior")]
    fn leaf_force(&mut self, index: u32, op: &Op) -> Vec2 {
        let me = self.me;
        match *op {
            Op::Seek(target) => self
                .quarry(target)
                .map_or(Vec2::ZERO, |q| behaviors::seek(me, q.position)),
            Op::Flee(target, panic) => {
                let panic = panic.map(|d| self.num(d));
                self.quarry(target)
                    .map_or(Vec2::ZERO, |q| behaviors::flee(me, q.position, panic))
            }
            Op::Arrival(target, slowing) => {
                let slowing = self.num(slowing);
                self.quarry(target)
                    .map_or(Vec2::ZERO, |q| behaviors::arrival(me, q.position, slowing))
            }
            Op::Pursuit(quarry, prediction) => {
                let prediction = self.num(prediction);
                self.quarry(quarry)
                    .map_or(Vec2::ZERO, |q| behaviors::pursuit(me, &q, prediction))
            }
            Op::Evasion(quarry, prediction, panic) => {
                let prediction = self.num(prediction);
                let panic = panic.map(|d| self.num(d));
                self.quarry(quarry).map_or(Vec2::ZERO, |q| {
                    behaviors::evasion(me, &q, prediction, panic)
                })
            }
            Op::OffsetPursuit(quarry, offset, prediction) => {
                let (offset, prediction) = (self.num(offset), self.num(prediction));
                self.quarry(quarry).map_or(Vec2::ZERO, |q| {
                    behaviors::offset_pursuit(me, &q, offset, prediction)
                })
            }
            Op::ObstacleAvoidance(min_length, lookahead) => behaviors::obstacle_avoidance(
                me,
                &self.context.world.obstacles,
                self.num(min_length),
                self.num(lookahead),
            ),
            Op::WallAvoidance {
                min_length,
                lookahead_time,
                whisker_angle,
                margin,
            } => behaviors::wall_avoidance(
                me,
                self.context.world.wall_index(),
                self.num(min_length),
                self.num(lookahead_time),
                self.num(whisker_angle),
                self.num(margin),
            ),
            Op::Wander {
                distance,
                radius,
                jitter,
                slot,
            } => {
                let jitter = self.num(jitter).to_radians();
                let theta = self.state.turn_wander(slot, jitter, self.context.dt);
                behaviors::wander(me, theta, self.num(distance), self.num(radius))
            }
            Op::PathFollowing {
                path,
                prediction_time,
                ahead_distance,
                direction,
                corrective,
                own,
            } => match self.bound_path(path, own) {
                Some(path) => behaviors::path_following(
                    me,
                    path,
                    self.num(prediction_time),
                    self.num(ahead_distance),
                    direction,
                    corrective,
                ),
                None => Vec2::ZERO,
            },
            Op::WallFollowing {
                side,
                offset,
                lookahead_time,
                range,
            } => behaviors::wall_following(
                me,
                self.context.world.wall_index(),
                side,
                self.num(offset),
                self.num(lookahead_time),
                self.num(range),
            ),
            Op::Containment {
                bounds,
                prediction_time,
                margin,
            } => behaviors::containment(
                me,
                &self.containment_bounds(bounds),
                self.num(prediction_time),
                self.num(margin),
            ),
            Op::FlowFieldFollowing {
                field,
                prediction_time,
            } => match self.bound_field(field) {
                Some(field) => {
                    behaviors::flow_field_following(me, field, self.num(prediction_time))
                }
                None => Vec2::ZERO,
            },
            Op::UnalignedCollisionAvoidance(max_time) => {
                let max_time = self.num(max_time);
                let vehicles = self.context.vehicles;
                let candidates = self.neighbors();
                behaviors::unaligned_collision_avoidance(
                    me,
                    candidates.iter().filter_map(|c| vehicles.get(c.agent())),
                    max_time,
                )
            }
            Op::Separation(..) | Op::Cohesion(..) | Op::Alignment(..) | Op::Flocking { .. } => {
                let params = self.context.params;
                group_force(op, self.group_sums(index), me, params)
            }
            Op::LeaderFollowing {
                leader,
                behind,
                slowing_distance,
                sight_length,
                sight_width,
            } => {
                let numbers =
                    [behind, slowing_distance, sight_length, sight_width].map(|n| self.num(n));
                self.quarry(leader).map_or(Vec2::ZERO, |leader| {
                    behaviors::leader_following(
                        me, &leader, numbers[0], numbers[1], numbers[2], numbers[3],
                    )
                })
            }
            Op::Interpose(a, b, slowing) => {
                let slowing = self.num(slowing);
                match (self.quarry(a), self.quarry(b)) {
                    (Some(a), Some(b)) => behaviors::interpose(me, &a, &b, slowing),
                    _ => Vec2::ZERO,
                }
            }
            Op::Hide(hunter, margin, slowing) => {
                let (margin, slowing) = (self.num(margin), self.num(slowing));
                self.quarry(hunter).map_or(Vec2::ZERO, |hunter| {
                    behaviors::hide(
                        me,
                        hunter.position,
                        &self.context.world.obstacles,
                        margin,
                        slowing,
                    )
                })
            }
            Op::Blend(_)
            | Op::Priority(..)
            | Op::Dither(..)
            | Op::Budget(_)
            | Op::Gate(..)
            | Op::Scale(..)
            | Op::Truncate(..)
            | Op::Reciprocal { .. }
            | Op::Output(_)
            | Op::Distance(_)
            | Op::NeighborCount(..)
            | Op::Speed
            | Op::WallDistance
            | Op::Value(_)
            | Op::Compare(..)
            | Op::WallAhead(_)
            | Op::All(_)
            | Op::Any(_)
            | Op::Not(_)
            | Op::Muted => Vec2::ZERO,
        }
    }

    /// The reading of a sensor op.
    fn sensor(&mut self, op: &Op) -> f32 {
        let me = self.me;
        match *op {
            Op::Distance(target) => self
                .quarry(target)
                .map_or(f32::INFINITY, |q| q.position.distance(me.position)),
            Op::NeighborCount(radius, fov) => {
                let radius = self.num(radius);
                let fov = fov.get(self.context.params);
                let positions = self.context.grid.positions();
                self.neighbors()
                    .iter()
                    .filter(|c| {
                        positions.get(c.slot()).is_some_and(|&position| {
                            behaviors::in_neighborhood(me, position, radius, fov)
                        })
                    })
                    .count() as f32
            }
            Op::Speed => me.velocity.length(),
            Op::WallDistance => behaviors::wall_distance(me, self.context.world.wall_index()),
            Op::Value(value) => self.num(value),
            _ => 0.0,
        }
    }

    /// Reciprocal's force around the preferred force `preferred` (its input's value); in a
    /// traced run, also its guide, from the same solution.
    fn reciprocal(&mut self, op: &Op, preferred: Vec2) -> Vec2 {
        let Op::Reciprocal {
            time_horizon,
            obstacle_time_horizon,
            neighbor_radius,
            max_neighbors,
            clearance,
            keep_right,
            ..
        } = *op
        else {
            return Vec2::ZERO;
        };
        let settings = ReciprocalSettings {
            time_horizon: self.num(time_horizon),
            obstacle_time_horizon: self.num(obstacle_time_horizon),
            neighbor_radius: self.num(neighbor_radius),
            // A whole number from 1 to 32 (checked by the compiler and by overrides).
            max_neighbors: self.num(max_neighbors) as usize,
            clearance: self.num(clearance),
            keep_right: self.num(keep_right).to_radians(),
        };
        let (me, agent, dt) = (self.me, self.agent, self.context.dt);
        let (vehicles, world) = (self.context.vehicles, self.context.world);
        let candidates = self.neighbors();
        let others = candidates
            .iter()
            .filter_map(|c| vehicles.get(c.agent()).map(|other| (c.agent(), other)));
        if !(dt > 0.0 && dt.is_finite()) {
            return preferred;
        }
        let solution =
            behaviors::reciprocal_velocity(me, agent, others, world, preferred, &settings, dt);
        self.state.preferred = Some(solution.preferred);
        if !R::ACTIVE {
            return behaviors::reaching_force(me, solution.chosen, dt);
        }
        let all = solution.lines.as_slice();
        let mut lines = [OrcaLine::default(); GUIDE_ORCA_LINES];
        for (slot, line) in lines.iter_mut().zip(all) {
            *slot = *line;
        }
        self.pending_guide = Some(Guide::Reciprocal {
            preferred: solution.preferred,
            chosen: solution.chosen,
            lines,
            count: all.len().min(GUIDE_ORCA_LINES) as u8,
            total: all.len().min(usize::from(u8::MAX)) as u8,
            fallback: solution.fallback,
        });
        behaviors::reaching_force(me, solution.chosen, dt)
    }

    /// The rectangle a containment op keeps agents in.
    fn containment_bounds(&self, bounds: Option<[Num; 4]>) -> Rect {
        containment_rect(bounds, &self.context)
    }

    /// Wall avoidance's feelers, where each meets a wall, and the nearest wall point within
    /// the clearance, from the same functions as the force.
    fn wall_guide(
        &self,
        min_length: f32,
        lookahead_time: f32,
        whisker_angle: f32,
        margin: f32,
    ) -> Guide {
        let me = self.me;
        let walls = self.context.world.wall_index();
        let feelers = behaviors::wall_feelers(me, min_length, lookahead_time, whisker_angle);
        let tips = feelers.map(|f| f.tip(me.position));
        let hits = tips.map(|tip| walls.ray_cast(me.position, tip).map(|hit| hit.point));
        let nearest = walls
            .nearest(me.position, me.radius + margin)
            .map(|near| near.point);
        Guide::Feelers {
            tips,
            hits,
            nearest,
        }
    }

    /// The geometry behind node `index`'s result, for debug guides (traced runs only). Every
    /// point comes from the `behaviors` function the force itself uses.
    #[expect(
        clippy::too_many_lines,
        reason = "one match arm per node kind with a guide"
    )]
    fn guide_for(&self, index: u32) -> Guide {
        let me = self.me;
        let Some(&op) = self.op(index) else {
            return Guide::None;
        };
        let aim = |target| {
            self.quarry(target)
                .map_or(Guide::None, |q| Guide::Aim(q.position))
        };
        match op {
            Op::Seek(target) | Op::Flee(target, _) | Op::Arrival(target, _) => aim(target),
            Op::Pursuit(quarry, prediction) | Op::Evasion(quarry, prediction, _) => {
                self.quarry(quarry).map_or(Guide::None, |q| {
                    Guide::Aim(behaviors::predicted_position(me, &q, self.num(prediction)))
                })
            }
            Op::OffsetPursuit(quarry, offset, prediction) => {
                self.quarry(quarry).map_or(Guide::None, |q| {
                    Guide::Aim(behaviors::offset_pursuit_aim(
                        me,
                        &q,
                        self.num(offset),
                        self.num(prediction),
                    ))
                })
            }
            Op::ObstacleAvoidance(min_length, lookahead) => Guide::Corridor {
                length: behaviors::detection_length(me, self.num(min_length), self.num(lookahead)),
                half_width: me.radius,
            },
            Op::WallAvoidance {
                min_length,
                lookahead_time,
                whisker_angle,
                margin,
            } => self.wall_guide(
                self.num(min_length),
                self.num(lookahead_time),
                self.num(whisker_angle),
                self.num(margin),
            ),
            Op::WallDistance => self
                .context
                .world
                .wall_index()
                .nearest(me.position, f32::INFINITY)
                .map_or(Guide::None, |near| Guide::Aim(near.point)),
            Op::WallFollowing {
                side,
                offset,
                lookahead_time,
                range,
            } => behaviors::wall_following_aim(
                me,
                self.context.world.wall_index(),
                side,
                self.num(offset),
                self.num(lookahead_time),
                self.num(range),
            )
            .map_or(Guide::None, |(nearest, aim)| Guide::WallFollow {
                nearest,
                aim,
            }),
            Op::WallAhead(distance) => {
                behaviors::wall_ahead_hit(me, self.context.world.wall_index(), self.num(distance))
                    .map_or(Guide::None, |hit| Guide::Aim(hit.point))
            }
            Op::Wander {
                distance,
                radius,
                slot,
                ..
            } => {
                let (distance, radius) = (self.num(distance), self.num(radius));
                Guide::Wander {
                    center: behaviors::wander_center(me, distance),
                    radius,
                    aim: behaviors::wander_aim(me, self.state.wander(slot), distance, radius),
                }
            }
            Op::PathFollowing {
                path,
                prediction_time,
                ahead_distance,
                direction,
                corrective,
                own,
            } => self
                .bound_path(path, own)
                .and_then(|path| {
                    behaviors::path_following_aim(
                        me,
                        path,
                        self.num(prediction_time),
                        self.num(ahead_distance),
                        direction,
                        corrective,
                    )
                })
                .map_or(Guide::None, |aim| Guide::Path {
                    predicted: aim.predicted,
                    projection: aim.projection.point,
                    aim: aim.steer.map(behaviors::PathSteer::point),
                }),
            Op::Containment {
                bounds,
                prediction_time,
                margin,
            } => {
                let prediction_time = self.num(prediction_time);
                behaviors::containment_aim(
                    me,
                    &self.containment_bounds(bounds),
                    prediction_time,
                    self.num(margin),
                )
                .map_or(
                    Guide::Aim(behaviors::future_position(me, prediction_time)),
                    Guide::Aim,
                )
            }
            Op::FlowFieldFollowing {
                field,
                prediction_time,
            } => {
                let point = behaviors::future_position(me, self.num(prediction_time));
                let vector = self
                    .bound_field(field)
                    .map_or(Vec2::ZERO, |f| f.sample(point));
                Guide::FlowSample { point, vector }
            }
            Op::Separation(radius, fov)
            | Op::Cohesion(radius, fov)
            | Op::Alignment(radius, fov)
            | Op::NeighborCount(radius, fov)
            | Op::Flocking { radius, fov, .. } => Guide::Neighborhood {
                radius: self.num(radius),
                fov: fov.get(self.context.params).degrees(),
            },
            Op::LeaderFollowing { leader, behind, .. } => {
                self.quarry(leader).map_or(Guide::None, |l| {
                    Guide::Aim(behaviors::leader_behind_point(&l, self.num(behind)))
                })
            }
            Op::Interpose(a, b, _) => match (self.quarry(a), self.quarry(b)) {
                (Some(a), Some(b)) => Guide::Aim(behaviors::interpose_point(me, &a, &b)),
                _ => Guide::None,
            },
            Op::Hide(hunter, margin, _) => self.quarry(hunter).map_or(Guide::None, |h| {
                behaviors::hiding_spot(
                    me,
                    h.position,
                    &self.context.world.obstacles,
                    self.num(margin),
                )
                .map_or(Guide::None, Guide::Aim)
            }),
            _ => Guide::None,
        }
    }
}
