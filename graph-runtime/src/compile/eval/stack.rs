//! The evaluator's walk: lazily from the Output, combiners waiting for their inputs on an
//! explicit stack of [`Frame`]s, so a graph of any depth runs on any thread.

use glam::Vec2;

use super::evaluator::{Evaluator, answer, holds};
use super::trace::{NodeValue, Recorder, TraceEntry};
use crate::compile::program::{Frame, Op};
use crate::graph::PortType;
use crate::math::truncate;

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

impl<'p, R: Recorder> Evaluator<'p, '_, '_, R> {
    /// The value of op `root` (the Output): evaluates lazily from there, without recursion.
    pub(super) fn evaluate(&mut self, root: u32) -> Vec2 {
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
    pub(super) fn evaluate_from(&mut self, start: u32) -> Vec2 {
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
        if !op.takes_inputs() {
            return Start::Leaf(op, shared);
        }
        Start::Frame(match *op {
            Op::Priority(_, epsilon) | Op::Dither(_, epsilon) => self.num(epsilon),
            Op::Budget(_) => self.me.max_force,
            // What `left` means is each combiner's own (`Frame`); the others start at zero.
            _ => 0.0,
        })
    }

    /// Evaluates the behavior or sensor `op` (op `index`) and finishes it. The value comes
    /// back in registers: handing it over through the evaluator's memory (a store, then a
    /// reload of another width) stalled the CPU on every input.
    pub(super) fn leaf(&mut self, index: u32, op: &Op, shared: bool) -> Vec2 {
        let value = match op.output() {
            PortType::Scalar => Vec2::new(self.sensor(op), 0.0),
            PortType::Condition => answer(self.condition(op)),
            PortType::Steering => self.leaf_force(index, op),
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
            // A leaf never gets a frame (`start`); a combiner without an arm here is a bug.
            _ => {
                debug_assert!(false, "{:?} is not evaluated on a frame", op.kind());
                Step::Finished(Vec2::ZERO)
            }
        }
    }

    /// Op `index` finished with `value`: memoizes it (when `shared`) and records it.
    #[inline]
    pub(super) fn finish(&mut self, index: u32, value: Vec2, shared: bool) {
        if shared && let Some(entry) = self.scratch.memo.get_mut(index as usize) {
            *entry = (self.scratch.stamp, value);
        }
        if R::ACTIVE {
            self.record(index, value);
        }
    }

    /// Records op `index`'s value and guide in the trace.
    #[cold]
    pub(super) fn record(&mut self, index: u32, value: Vec2) {
        let value = match self.op(index).map(Op::output) {
            Some(PortType::Scalar) => NodeValue::Scalar(value.x),
            Some(PortType::Condition) => NodeValue::Condition(holds(value)),
            Some(PortType::Steering) | None => NodeValue::Force(value),
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
