//! The evaluator's walk: lazily from the Output, combiners waiting for their inputs on an
//! explicit stack of [`Frame`]s, so a graph of any depth runs on any thread.

use super::evaluator::{Evaluator, answer, holds};
use super::trace::{NodeValue, Recorder, TraceEntry};
use super::value::Value;
use crate::compile::program::{
    Frame, Op, angular_leaf_ops, condition_leaf_ops, force_leaf_ops, sensor_ops,
};
use crate::graph::PortType;

/// What starting an op takes (see [`Evaluator::start`]).
enum Start<'p, V> {
    /// Its value is known already (a shared op computed earlier this tick).
    Known(V),
    /// A behavior or sensor: one evaluation (and whether it is shared).
    Leaf(&'p Op, bool),
    /// A combiner or condition: a frame, with this initial `left`.
    Frame(f32),
}

/// What [`Evaluator::step`] did with the combiner on top.
enum Step<V> {
    /// It has its answer.
    Finished(V),
    /// It needs the value of this combiner first (op index and its frame's initial `left`).
    Push(u32, f32),
}

impl<'p, R: Recorder, V: Value> Evaluator<'p, '_, '_, R, V> {
    /// The value of op `root` (the Output): evaluates lazily from there, without recursion.
    pub(super) fn evaluate(&mut self, root: u32) -> V {
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
    pub(super) fn evaluate_from(&mut self, start: u32) -> V {
        let left = match self.start(start) {
            Start::Known(value) => return value,
            Start::Leaf(op, shared) => return self.leaf(start, op, shared),
            Start::Frame(left) => left,
        };
        let mut frame = Frame::new(start, left, V::ZERO);
        let mut input = None;
        loop {
            match self.step(&mut frame, input) {
                Step::Finished(value) => {
                    let shared = self.is_shared(frame.op);
                    self.finish(frame.op, value, shared);
                    let Some(below) = V::frames(self.scratch).pop() else {
                        return value;
                    };
                    frame = below;
                    input = Some(value);
                }
                Step::Push(op, left) => {
                    V::frames(self.scratch).push(frame);
                    frame = Frame::new(op, left, V::ZERO);
                    input = None;
                }
            }
        }
    }

    /// What starting op `index` takes: nothing more for a shared op already computed this
    /// tick, one evaluation for a behavior or sensor, a frame of its own for a combiner or
    /// condition. Evaluates nothing.
    #[inline]
    fn start(&mut self, index: u32) -> Start<'p, V> {
        let shared = self.is_shared(index);
        let stamp = self.scratch.stamp;
        if shared
            && let Some(&(at, value)) = V::memo(self.scratch).get(index as usize)
            && at == stamp
        {
            return Start::Known(value);
        }
        let Some(op) = self.op(index) else {
            return Start::Known(V::ZERO);
        };
        if !op.takes_inputs() {
            return Start::Leaf(op, shared);
        }
        Start::Frame(match *op {
            Op::Priority(_, epsilon) | Op::Dither(_, epsilon) => self.num(epsilon),
            Op::Budget(_) => self.me.max_force,
            // What `left` means is each combiner's own (`Frame`); the others start at zero
            // (and leaves returned above).
            Op::Blend(_)
            | Op::Gate(..)
            | Op::Scale(..)
            | Op::Truncate(..)
            | Op::Reciprocal(_)
            | Op::Compare(..)
            | Op::All(_)
            | Op::Any(_)
            | Op::Not(_)
            | Op::Output(_)
            | force_leaf_ops!()
            | angular_leaf_ops!()
            | sensor_ops!()
            | condition_leaf_ops!()
            | Op::Muted => 0.0,
        })
    }

    /// Evaluates the behavior or sensor `op` (op `index`) and finishes it. The value comes
    /// back in registers: handing it over through the evaluator's memory (a store, then a
    /// reload of another width) stalled the CPU on every input.
    pub(super) fn leaf(&mut self, index: u32, op: &Op, shared: bool) -> V {
        let value = self.leaf_value(index, op);
        self.finish(index, value, shared);
        value
    }

    /// The value of the behavior or sensor `op` (op `index`), not yet finished.
    #[inline]
    pub(super) fn leaf_value(&mut self, index: u32, op: &Op) -> V {
        match op.output() {
            PortType::Scalar => V::scalar(self.sensor(op)),
            PortType::Condition => answer(self.condition(op)),
            // A program without angular nodes never asks (`V::TURNS` is false: no test).
            PortType::Steering if V::TURNS && op.turns() => {
                V::steering(self.leaf_steering(index, op))
            }
            PortType::Steering => V::force(self.leaf_force(index, op)),
        }
    }

    /// Continues the combiner `frame`, with the value of the input it asked for last (`None`
    /// when it has just started). Inputs that finish at once (behaviors, sensors, memoized
    /// values) are taken in the same call; the first input that is itself a combiner is
    /// returned ([`Step::Push`]), or the combiner's answer ([`Step::Finished`];
    /// `self.chosen` set for Priority and Dither).
    #[expect(clippy::too_many_lines, reason = "one arm per combiner and condition")]
    #[inline]
    fn step(&mut self, frame: &mut Frame<V>, input: Option<V>) -> Step<V> {
        let mut has_input = input.is_some();
        let mut value = input.unwrap_or(V::ZERO);
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
            return Step::Finished(V::ZERO);
        };
        match *op {
            Op::Blend(span) => loop {
                if has_input && let Some(position) = frame.next.checked_sub(1) {
                    let (_, weight) = self.weighted_at(span, position);
                    frame.sum += value.scaled(self.num(weight));
                }
                if frame.next >= span.len {
                    return Step::Finished(frame.sum);
                }
                frame.next += 1;
                take!(self.weighted_at(span, frame.next - 1).0);
            },
            Op::Priority(span, _) => loop {
                if has_input && value.magnitude() > frame.left {
                    self.chosen = frame.next.checked_sub(1).map(|p| p as usize);
                    return Step::Finished(value);
                }
                if frame.next >= span.len {
                    return Step::Finished(V::ZERO);
                }
                frame.next += 1;
                take!(self.link_at(span, frame.next - 1));
            },
            Op::Dither(span, _) => loop {
                if has_input && value.magnitude() > frame.left {
                    self.chosen = frame.next.checked_sub(1).map(|p| p as usize);
                    return Step::Finished(value);
                }
                // One draw per input, in order, whether or not the input then runs.
                let chosen_input = loop {
                    if frame.next >= span.len {
                        return Step::Finished(V::ZERO);
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
                    let length = input.linear_length();
                    if length <= frame.left {
                        frame.sum += input;
                        frame.left -= length;
                    } else {
                        return Step::Finished(frame.sum + input.scaled(frame.left / length));
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
                        return Step::Finished(V::ZERO);
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
                Step::Finished(value.scaled(self.num(factor)))
            }
            Op::Truncate(input_op, max) => {
                if !has_input {
                    take_one!(input_op);
                }
                Step::Finished(value.truncated(self.num(max)))
            }
            Op::Reciprocal(reciprocal) => {
                if !has_input {
                    take_one!(reciprocal.input);
                }
                // The angular part passes through: Reciprocal chooses a velocity.
                let crate::Steering { force, angular } = value.to_steering();
                let force = reciprocal.force(self, force);
                Step::Finished(V::steering(crate::Steering { force, angular }))
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
                Step::Finished(answer(test.holds(value.reading(), self.num(threshold))))
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
            // A leaf never gets a frame (`start`).
            force_leaf_ops!()
            | angular_leaf_ops!()
            | sensor_ops!()
            | condition_leaf_ops!()
            | Op::Muted => {
                debug_assert!(false, "{:?} is not evaluated on a frame", op.kind());
                Step::Finished(V::ZERO)
            }
        }
    }

    /// Op `index` finished with `value`: memoizes it (when `shared`) and records it.
    #[inline]
    pub(super) fn finish(&mut self, index: u32, value: V, shared: bool) {
        let stamp = self.scratch.stamp;
        if shared && let Some(entry) = V::memo(self.scratch).get_mut(index as usize) {
            *entry = (stamp, value);
        }
        if R::ACTIVE {
            self.record(index, value);
        }
    }

    /// Records op `index`'s value and guide in the trace.
    #[cold]
    pub(super) fn record(&mut self, index: u32, value: V) {
        let value = match self.op(index).map(Op::output) {
            Some(PortType::Scalar) => NodeValue::Scalar(value.reading()),
            Some(PortType::Condition) => NodeValue::Condition(holds(value)),
            Some(PortType::Steering) | None if V::TURNS => NodeValue::Steering(value.to_steering()),
            Some(PortType::Steering) | None => NodeValue::Force(value.to_steering().force),
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
}
