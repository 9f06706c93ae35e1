use glam::Vec2;

use super::program::{Fov, Num, Op, Span, TargetRef};
use super::{AgentState, Bindings, ParamValues, Program, Scratch, TagMask};
use crate::behaviors::{self, Quarry};
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

/// The geometry behind a node's force, for drawing debug guides (world units). Recorded only
/// by [`Program::steer_traced`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Guide {
    /// Nothing to draw beyond the force.
    #[default]
    None,
    /// The point the node steers towards or away from (a target, a predicted quarry position,
    /// a point behind a leader, a hiding spot, the return point of containment).
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
        self.run(context, agent, state, scratch, NoTrace)
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
        self.run(context, agent, state, scratch, trace)
    }

    fn run<R: Recorder>(
        &self,
        context: &Context<'_>,
        agent: usize,
        state: &mut AgentState,
        scratch: &mut Scratch,
        recorder: R,
    ) -> Vec2 {
        let Some(vehicle) = context.vehicles.get(agent) else {
            return Vec2::ZERO;
        };
        if scratch.memo.len() < self.ops.len() {
            scratch.memo.resize(self.ops.len(), (0, Vec2::ZERO));
        }
        scratch.stamp = scratch.stamp.wrapping_add(1);
        if scratch.stamp == 0 {
            scratch.memo.iter_mut().for_each(|entry| entry.0 = 0);
            scratch.stamp = 1;
        }
        scratch.neighbors_ready = false;
        let mut evaluator = Evaluator {
            program: self,
            context: *context,
            agent,
            me: vehicle,
            state,
            scratch,
            recorder,
            chosen: None,
            guide: Guide::None,
        };
        let force = evaluator.force(self.root);
        // One bad number (a NaN from a hand-edited asset) must not poison the vehicle.
        if force.is_finite() { force } else { Vec2::ZERO }
    }

    /// The radius of the one spatial query that serves every group node of `vehicle`.
    fn query_radius(&self, vehicle: &Vehicle, context: &Context<'_>) -> f32 {
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

/// The neighbors of one agent within a radius and field of view, filtered from the shared
/// query's candidates. A concrete type (not `dyn Iterator`) so group formulas inline.
struct Neighborhood<'a> {
    ids: std::slice::Iter<'a, u32>,
    vehicles: &'a [Vehicle],
    me: &'a Vehicle,
    radius: f32,
    fov: behaviors::FieldOfView,
}

impl<'a> Iterator for Neighborhood<'a> {
    type Item = &'a Vehicle;

    #[inline]
    fn next(&mut self) -> Option<&'a Vehicle> {
        for &id in self.ids.by_ref() {
            if let Some(other) = self.vehicles.get(id as usize)
                && behaviors::in_neighborhood(self.me, other.position, self.radius, self.fov)
            {
                return Some(other);
            }
        }
        None
    }
}

struct Evaluator<'p, 'c, 's, R> {
    program: &'p Program,
    context: Context<'c>,
    agent: usize,
    me: &'c Vehicle,
    state: &'s mut AgentState,
    scratch: &'s mut Scratch,
    recorder: R,
    /// The winning input of the `Priority` or `Dither` just computed, for the trace.
    chosen: Option<usize>,
    /// The guide of the node just computed (set only when tracing).
    guide: Guide,
}

impl<R: Recorder> Evaluator<'_, '_, '_, R> {
    #[inline]
    fn num(&self, number: Num) -> f32 {
        number.get(self.context.params)
    }

    fn op(&self, index: u32) -> Option<Op> {
        self.program.ops.get(index as usize).copied()
    }

    fn node(&self, index: u32) -> NodeId {
        self.program
            .op_nodes
            .get(index as usize)
            .copied()
            .unwrap_or(NodeId(0))
    }

    /// The world path a program path name is bound to.
    fn bound_path(&self, path: u16) -> Option<&crate::Path> {
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

    /// The neighbor candidates of this agent (computed on first use, at most once per tick).
    fn neighbors(&mut self) -> &[u32] {
        if !self.scratch.neighbors_ready {
            let radius = self.program.query_radius(self.me, &self.context);
            self.context.grid.query(
                self.context.vehicles,
                self.me.position,
                radius,
                self.agent,
                &mut self.scratch.neighbors,
            );
            self.scratch.neighbors_ready = true;
        }
        &self.scratch.neighbors
    }

    fn quarry(&self, target: TargetRef) -> Option<Quarry> {
        match target {
            TargetRef::Point(x, y) => Some(Quarry::at(Vec2::new(self.num(x), self.num(y)))),
            TargetRef::Named(name) => {
                let index = (*self.context.bindings.targets.get(name as usize)?)?;
                self.context.world.target_at(index).map(Quarry::at)
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

    fn force(&mut self, index: u32) -> Vec2 {
        let shared = self
            .program
            .shared
            .get(index as usize)
            .copied()
            .unwrap_or(false);
        if shared
            && let Some(&(stamp, value)) = self.scratch.memo.get(index as usize)
            && stamp == self.scratch.stamp
        {
            return value;
        }
        let force = self.compute_force(index);
        if R::ACTIVE {
            self.guide = self.guide_for(index);
        }
        let chosen = self.chosen.take();
        if shared && let Some(entry) = self.scratch.memo.get_mut(index as usize) {
            *entry = (self.scratch.stamp, force);
        }
        let guide = std::mem::take(&mut self.guide);
        self.recorder.record(TraceEntry {
            node: self.node(index),
            value: NodeValue::Force(force),
            chosen,
            guide,
        });
        force
    }

    #[expect(clippy::too_many_lines, reason = "one arm per steering node kind")]
    fn compute_force(&mut self, index: u32) -> Vec2 {
        let me = self.me;
        let Some(op) = self.op(index) else {
            return Vec2::ZERO;
        };
        match op {
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
            Op::Wander {
                distance,
                radius,
                jitter,
                slot,
            } => {
                let step =
                    self.state.rng.signed_unit() * self.num(jitter).to_radians() * self.context.dt;
                let theta = match self.state.wander_mut(slot) {
                    Some(theta) => {
                        *theta += step;
                        *theta
                    }
                    None => 0.0,
                };
                behaviors::wander(me, theta, self.num(distance), self.num(radius))
            }
            Op::PathFollowing {
                path,
                prediction_time,
                ahead_distance,
                direction,
                corrective,
            } => match self.bound_path(path) {
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
            Op::Containment {
                bounds,
                prediction_time,
                margin,
            } => {
                let rect = match bounds {
                    None => self.context.world.bounds,
                    Some([min_x, min_y, max_x, max_y]) => Rect::new(
                        Vec2::new(self.num(min_x), self.num(min_y)),
                        Vec2::new(self.num(max_x), self.num(max_y)),
                    ),
                };
                behaviors::containment(me, &rect, self.num(prediction_time), self.num(margin))
            }
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
                let ids = self.neighbors();
                behaviors::unaligned_collision_avoidance(
                    me,
                    ids.iter().filter_map(|&i| vehicles.get(i as usize)),
                    max_time,
                )
            }
            Op::Separation(radius, fov) => self.group(radius, fov, |me, neighbors| {
                behaviors::separation(me, neighbors)
            }),
            Op::Cohesion(radius, fov) => self.group(radius, fov, |me, neighbors| {
                behaviors::cohesion(me, neighbors)
            }),
            Op::Alignment(radius, fov) => self.group(radius, fov, |me, neighbors| {
                behaviors::alignment(me, neighbors)
            }),
            Op::Flocking {
                weights: [separation, cohesion, alignment],
                radius,
                fov,
            } => {
                let weights = (
                    self.num(separation),
                    self.num(cohesion),
                    self.num(alignment),
                );
                self.group(radius, fov, |me, neighbors| {
                    behaviors::flocking(me, neighbors, weights.0, weights.1, weights.2)
                })
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
            Op::Blend(span) => {
                let mut sum = Vec2::ZERO;
                for position in 0..span.len {
                    let (input, weight) = self.weighted_at(span, position);
                    sum += self.num(weight) * self.force(input);
                }
                sum
            }
            Op::Priority(span, epsilon) => {
                let epsilon = self.num(epsilon);
                for position in 0..span.len {
                    let force = self.force(self.link_at(span, position));
                    if force.length() > epsilon {
                        self.chosen = Some(position as usize);
                        return force;
                    }
                }
                Vec2::ZERO
            }
            Op::Dither(span, epsilon) => {
                let epsilon = self.num(epsilon);
                for position in 0..span.len {
                    let (input, chance) = self.weighted_at(span, position);
                    let draw = self.state.rng.unit();
                    if draw < self.num(chance) {
                        let force = self.force(input);
                        if force.length() > epsilon {
                            self.chosen = Some(position as usize);
                            return force;
                        }
                    }
                }
                Vec2::ZERO
            }
            Op::Budget(span) => {
                let mut left = me.max_force;
                let mut total = Vec2::ZERO;
                for position in 0..span.len {
                    if left <= 1e-6 {
                        break;
                    }
                    let force = self.force(self.link_at(span, position));
                    let length = force.length();
                    if length <= left {
                        total += force;
                        left -= length;
                    } else {
                        total += force * (left / length);
                        break;
                    }
                }
                total
            }
            Op::Gate(input, condition) => {
                if self.condition(condition) {
                    self.force(input)
                } else {
                    Vec2::ZERO
                }
            }
            Op::Scale(input, factor) => self.num(factor) * self.force(input),
            Op::Truncate(input, max) => truncate(self.force(input), self.num(max)),
            Op::Output(input) => self.force(input),
            Op::Distance(_)
            | Op::NeighborCount(..)
            | Op::Speed
            | Op::Value(_)
            | Op::Compare(..)
            | Op::All(_)
            | Op::Any(_)
            | Op::Not(_) => Vec2::ZERO,
        }
    }

    /// Runs a group formula over the neighbors within `radius` and the field of view.
    fn group(
        &mut self,
        radius: Num,
        fov: Fov,
        formula: impl FnOnce(&Vehicle, Neighborhood<'_>) -> Vec2,
    ) -> Vec2 {
        let radius = self.num(radius);
        let fov = fov.get(self.context.params);
        let me = self.me;
        let vehicles = self.context.vehicles;
        let ids = self.neighbors();
        formula(
            me,
            Neighborhood {
                ids: ids.iter(),
                vehicles,
                me,
                radius,
                fov,
            },
        )
    }

    /// The geometry behind node `index`'s result, for debug guides (traced runs only).
    #[expect(
        clippy::too_many_lines,
        reason = "one match arm per node kind with a guide"
    )]
    fn guide_for(&self, index: u32) -> Guide {
        let me = self.me;
        let Some(op) = self.op(index) else {
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
                length: self.num(min_length) + me.velocity.length() * self.num(lookahead),
                half_width: me.radius,
            },
            Op::Wander {
                distance,
                radius,
                slot,
                ..
            } => {
                let (distance, radius) = (self.num(distance), self.num(radius));
                Guide::Wander {
                    center: me.position + me.forward * distance,
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
            } => {
                let Some(path) = self.bound_path(path) else {
                    return Guide::None;
                };
                let predicted = me.position + me.velocity * self.num(prediction_time);
                let Some(projection) = path.project(predicted) else {
                    return Guide::None;
                };
                let resting = corrective && predicted.distance(projection.point) <= path.radius;
                let aim = (!resting).then(|| {
                    path.point_at(projection.distance_along + direction * self.num(ahead_distance))
                });
                Guide::Path {
                    predicted,
                    projection: projection.point,
                    aim: aim.flatten(),
                }
            }
            Op::Containment {
                prediction_time, ..
            } => Guide::Aim(me.position + me.velocity * self.num(prediction_time)),
            Op::FlowFieldFollowing {
                field,
                prediction_time,
            } => {
                let point = me.position + me.velocity * self.num(prediction_time);
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
                    Guide::Aim(l.position - l.forward * self.num(behind))
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

    fn scalar(&mut self, index: u32) -> f32 {
        let me = self.me;
        let value = match self.op(index) {
            Some(Op::Distance(target)) => self
                .quarry(target)
                .map_or(f32::INFINITY, |q| q.position.distance(me.position)),
            Some(Op::NeighborCount(radius, fov)) => {
                let radius = self.num(radius);
                let fov = fov.get(self.context.params);
                let vehicles = self.context.vehicles;
                let ids = self.neighbors();
                Neighborhood {
                    ids: ids.iter(),
                    vehicles,
                    me,
                    radius,
                    fov,
                }
                .count() as f32
            }
            Some(Op::Speed) => me.velocity.length(),
            Some(Op::Value(value)) => self.num(value),
            _ => 0.0,
        };
        let guide = if R::ACTIVE {
            self.guide_for(index)
        } else {
            Guide::None
        };
        self.recorder.record(TraceEntry {
            node: self.node(index),
            value: NodeValue::Scalar(value),
            chosen: None,
            guide,
        });
        value
    }

    fn condition(&mut self, index: u32) -> bool {
        let holds = match self.op(index) {
            Some(Op::Compare(sensor, test, threshold)) => {
                let threshold = self.num(threshold);
                test.holds(self.scalar(sensor), threshold)
            }
            Some(Op::All(span)) => (0..span.len).all(|p| self.condition(self.link_at(span, p))),
            Some(Op::Any(span)) => (0..span.len).any(|p| self.condition(self.link_at(span, p))),
            Some(Op::Not(input)) => !self.condition(input),
            _ => false,
        };
        self.recorder.record(TraceEntry {
            node: self.node(index),
            value: NodeValue::Condition(holds),
            chosen: None,
            guide: Guide::None,
        });
        holds
    }
}
