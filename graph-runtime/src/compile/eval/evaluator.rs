//! The evaluator of one agent's program: what it holds for the evaluation, and how it reads
//! numbers, links, names and targets. Its walk is `stack.rs`, its leaves `leaves.rs`.

use glam::Vec2;

use super::context::Context;
use super::trace::Recorder;
use super::value::Value;
use crate::behaviors::{
    OrcaLine, Others, Quarry, ReciprocalSettings, Shares, reciprocal_velocity_into,
};
use crate::compile::Swept;
use crate::compile::guide::Guide;
use crate::compile::program::{
    AgentState, Leaf, Num, Op, OverOthers, Program, Scratch, Span, TargetRef,
};
use crate::graph::NodeId;
use crate::{Vehicle, World};

/// A condition's answer as the evaluator carries it: a reading of `1` for true, zero for
/// false. Every value travels as a [`Value`] (a sensor's reading in `x`), so the evaluation
/// loop moves no enum through memory; [`NodeValue`](super::NodeValue)s are made only for the
/// trace.
#[inline]
pub(super) fn answer<V: Value>(holds: bool) -> V {
    if holds { V::scalar(1.0) } else { V::ZERO }
}

#[inline]
pub(super) fn holds<V: Value>(value: V) -> bool {
    value.reading() != 0.0
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
pub(super) struct Evaluator<'p, 'c, 's, R, V> {
    pub(super) program: &'p Program,
    pub(super) context: Context<'c>,
    pub(super) agent: usize,
    pub(super) me: &'c Vehicle,
    pub(super) state: &'s mut AgentState,
    pub(super) scratch: &'s mut Scratch,
    pub(super) recorder: R,
    /// The winning input of the `Priority` or `Dither` just finished, for the trace.
    pub(super) chosen: Option<usize>,
    /// The guide of the node just finished when only its evaluation knows it (Reciprocal's
    /// depends on its input's value), for the trace.
    pub(super) pending_guide: Option<Guide>,
    /// The type of the values carried ([`Value`]).
    pub(super) value: std::marker::PhantomData<V>,
}

impl<'p, 'c, 's, R: Recorder, V: Value> Evaluator<'p, 'c, 's, R, V> {
    #[inline]
    pub(super) fn new(
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
            value: std::marker::PhantomData,
        }
    }
}

impl<'p, 'c, R: Recorder, V: Value> Evaluator<'p, 'c, '_, R, V> {
    #[inline]
    pub(super) fn num(&self, number: Num) -> f32 {
        number.get(self.context.params)
    }

    /// Whether op `index` feeds more than one input (its value is memoized per tick).
    #[inline]
    pub(super) fn is_shared(&self, index: u32) -> bool {
        self.program
            .shared
            .get(index as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Op `index`. The compiler links only to ops it made; `None` would be its bug (debug
    /// builds stop there, release builds take it as zero).
    pub(super) fn op(&self, index: u32) -> Option<&'p Op> {
        let op = self.program.ops.get(index as usize);
        debug_assert!(op.is_some(), "op {index} of {}", self.program.ops.len());
        op
    }

    /// The graph node op `index` was compiled from.
    pub(super) fn node(&self, index: u32) -> NodeId {
        let node = self.program.op_nodes.get(index as usize).copied();
        debug_assert!(node.is_some(), "op {index} has no node");
        node.unwrap_or(NodeId(0))
    }

    /// Input `position` of a combiner's span of links (the compiler made the span).
    pub(super) fn link_at(&self, span: Span, position: u32) -> u32 {
        let link = self.program.links.get((span.start + position) as usize);
        debug_assert!(link.is_some(), "link {position} of {span:?}");
        link.copied().unwrap_or(0)
    }

    /// Input `position` of a Blend's or Dither's span, with its number.
    pub(super) fn weighted_at(&self, span: Span, position: u32) -> (u32, Num) {
        let input = self.program.weighted.get((span.start + position) as usize);
        debug_assert!(input.is_some(), "weighted input {position} of {span:?}");
        input.copied().unwrap_or((0, Num::Const(0.0)))
    }

    /// The nearest other agent carrying the program's tag `tag` (the lower agent on a tie).
    /// Reads only the members near the agent when this tick's members are sorted by x (a tag
    /// many agents read), only the tag's members when the bindings list them (a simulation's
    /// or a crowd's), every agent otherwise: the same answer each way.
    pub(super) fn tagged(&self, tag: u16) -> Option<&'c Vehicle> {
        let context = self.context;
        let mask = (*context.bindings.tags.get(tag as usize)?)?;
        let at = self.me.position;
        let mut nearest: Option<(f32, &Vehicle)> = None;
        let mut consider = |index: usize, other: &'c Vehicle| {
            if index == self.agent {
                return;
            }
            let distance = other.position.distance_squared(at);
            if nearest.is_none_or(|(best, _)| distance < best) {
                nearest = Some((distance, other));
            }
        };
        let members = context.bindings.members.as_deref();
        let agents = context.tags.len();
        let swept = members.map_or(Swept::Unanswered, |m| {
            m.nearest(mask, agents, self.agent, at)
        });
        if let Swept::Answered(found) = swept {
            return found.and_then(|agent| context.vehicles.get(agent));
        }
        if let Some(agents) = members.and_then(|m| m.carrying(mask, agents)) {
            for &index in agents {
                let index = index as usize;
                if let Some(other) = context.vehicles.get(index) {
                    consider(index, other);
                }
            }
        } else {
            for (index, (other, tags)) in context.vehicles.iter().zip(context.tags).enumerate() {
                if tags & mask != 0 {
                    consider(index, other);
                }
            }
        }
        nearest.map(|(_, other)| other)
    }

    /// The world jump link the program's jump link `link` is bound to, with its index.
    pub(super) fn bound_jump_link(&self, link: u16) -> Option<(usize, &'c crate::JumpLink)> {
        let index = (*self.context.bindings.jump_links.get(link as usize)?)?;
        self.context
            .world
            .jump_link_at(index)
            .map(|link| (index, link))
    }

    pub(super) fn quarry(&self, target: TargetRef) -> Option<Quarry> {
        match target {
            TargetRef::Tagged(tag) => self.tagged(tag).map(Quarry::from),
            TargetRef::Point(..) | TargetRef::Named(_) | TargetRef::Own(_) => {
                self.quarry_position(target).map(Quarry::at)
            }
        }
    }

    /// Where `target` is ([`Evaluator::quarry`]'s position), inlined into the behavior that
    /// asks: a [`Quarry`] or a point returned from a call comes back through memory, written
    /// in parts and read back whole, which stalled every Seek and Arrival on the store
    /// (issue 47). What it calls hands back a pointer.
    #[expect(
        clippy::inline_always,
        reason = "a call returns the point through memory, the stall this function avoids"
    )]
    #[inline(always)]
    pub(super) fn quarry_position(&self, target: TargetRef) -> Option<Vec2> {
        match target {
            TargetRef::Point(..) | TargetRef::Named(_) | TargetRef::Own(_) => {
                (self.context).target_point(self.program, &self.state.own, target)
            }
            TargetRef::Tagged(tag) => self.tagged(tag).map(|vehicle| vehicle.position),
        }
    }
}

/// What a family file's leaf reads (`program/family/`): the evaluator's own answers.
impl<R: Recorder, V: Value> Leaf for Evaluator<'_, '_, '_, R, V> {
    const TRACED: bool = R::ACTIVE;

    #[inline]
    fn dt(&self) -> f32 {
        self.context.dt
    }

    #[inline]
    fn me(&self) -> &Vehicle {
        self.me
    }

    fn agent(&self) -> usize {
        self.agent
    }

    #[inline]
    fn params(&self) -> &crate::ParamValues {
        self.context.params
    }

    fn grid(&self) -> &crate::spatial::SpatialGrid {
        self.context.grid
    }

    #[inline]
    fn num(&self, number: Num) -> f32 {
        Evaluator::num(self, number)
    }

    #[inline]
    fn quarry(&self, target: TargetRef) -> Option<Quarry> {
        Evaluator::quarry(self, target)
    }

    #[expect(
        clippy::inline_always,
        reason = "a call returns the point through memory (`Evaluator::quarry_position`)"
    )]
    #[inline(always)]
    fn quarry_position(&self, target: TargetRef) -> Option<Vec2> {
        Evaluator::quarry_position(self, target)
    }

    #[inline]
    fn world(&self) -> &World {
        self.context.world
    }

    fn tagged(&self, tag: u16) -> Option<&Vehicle> {
        Evaluator::tagged(self, tag)
    }

    fn path(&self, path: u16, own: bool) -> Option<&crate::Path> {
        if own {
            let name = self.program.own_names.get(path as usize)?;
            return self.state.own.route(name);
        }
        let index = (*self.context.bindings.paths.get(path as usize)?)?;
        self.context.world.path_at(index)
    }

    fn flow_field(&self, field: u16) -> Option<&crate::FlowField> {
        let index = (*self.context.bindings.fields.get(field as usize)?)?;
        self.context.world.flow_field_at(index)
    }

    fn jump_link(&self, link: u16) -> Option<(usize, &crate::JumpLink)> {
        self.bound_jump_link(link)
    }

    fn has_jumped(&self, index: usize) -> bool {
        self.state.has_jumped(index)
    }

    fn take_off(&mut self, take_off: crate::compile::program::TakeOff) {
        self.scratch.take_offs.push(take_off);
    }

    fn wander_angle(&self, slot: u32) -> f32 {
        self.state.wander(slot)
    }

    #[inline]
    fn route_slot(&mut self, slot: u32) -> Option<&mut crate::compile::program::RouteSlot> {
        self.state.routes_mut().get_mut(slot as usize)
    }

    fn ask_planner(&mut self) {
        self.state.asks_planner = true;
    }

    fn route_ref(&self, slot: u32) -> Option<&crate::compile::program::RouteSlot> {
        self.state.routes().get(slot as usize)
    }

    fn turn_wander(&mut self, slot: u32, jitter: f32) -> f32 {
        self.state.turn_wander(slot, jitter, self.context.dt)
    }

    #[inline]
    fn with_others<E: OverOthers>(&mut self, most: usize, each: E) -> E::Value {
        let (me, vehicles) = (self.me, self.context.vehicles);
        let radius = self.program.query_radius(me, &self.context);
        // A crowded neighborhood: its nearest (of its mask, with avoidance layers), in
        // ascending index, not the crowd.
        if let Some(mut nearest) = self.crowded_nearest(radius, most) {
            nearest.sort_unstable_by_key(|&key| crate::spatial::agent_of(key));
            let others = nearest
                .iter()
                .filter_map(|&key| vehicles.get(crate::spatial::agent_of(key) as usize));
            let value = each.over(me, others);
            self.return_nearest(nearest);
            value
        } else {
            let candidates = self.neighbors();
            each.over(
                me,
                candidates.iter().filter_map(|c| vehicles.get(c.agent())),
            )
        }
    }

    fn reciprocal_velocity(
        &mut self,
        settings: &ReciprocalSettings,
        preferred: Vec2,
    ) -> (Vec2, Vec2, bool) {
        let (me, agent, dt) = (self.me, self.agent, self.context.dt);
        let (vehicles, world) = (self.context.vehicles, self.context.world);
        let (radius, most) = (settings.neighbor_radius, settings.max_neighbors);
        // Once the cells hold more than `max_neighbors` × 8, or × (the tree's depth + 3) in a
        // tree deeper than 5 levels (not the 256 of the group nodes), the `max_neighbors`
        // nearest come from the k-d tree: the same agents the scan below would keep, from the
        // nearest few leaves instead of every agent of the cells. Below that a scan costs less
        // than a search (at 4 × the search ran on RVO2's Blocks, 1.0 % and 3.7 % more
        // instructions per step on its Circle 1,000 and Blocks, and the 10,000-agent crowd
        // bench took 9.6–10.7 ms a tick against 7.4–8.6 ms). A search walks the tree's depth
        // before its first leaf, so a deeper tree moves the limit up: × 12 for 10,000 agents
        // and × 15 for 100,000 made RVO2's Circle, whose rings put about 80 agents in the
        // cells a query visits, a quarter faster in its first steps and changed nothing at
        // 1,000 (`BENCHMARKS.md`, "Reciprocal against RVO2's best builds").
        let depth = self.context.grid.tree_depth();
        let limit = most.saturating_mul(depth.saturating_add(3).max(8));
        // With avoidance layers, only the agents of its mask, each avoidance shared by
        // priority (`BEHAVIORS.md`, "Avoidance priority and layers").
        let mine = self.avoidance();
        let shares = mine.map_or(Shares::Half, |mine| {
            Shares::By(mine, self.context.avoidance)
        });
        // Without layers, no farther than last tick's nearest can be now (the same agents
        // found, from fewer cells: `spatial/bounds.rs`); what is found is noted for the next.
        let keep = most.min(crate::behaviors::MAX_RECIPROCAL_NEIGHBORS);
        let reach = match mine {
            None => (self.context.grid).neighbor_reach(agent, me.position, keep, radius),
            Some(_) => radius,
        };
        // The cells the query visits, worked out once: to count them, then to scan them.
        let block = self.context.grid.block(me.position, reach);
        // The half-planes go into the thread's list, neither filled nor copied per agent.
        if self.context.grid.holds_more(&block, limit) {
            let mut nearest = self.tree_nearest(reach, most);
            // The tree's keys are (squared distance, agent) in one integer, the distance
            // computed as Reciprocal computes it: sorted, they are its choice in its order, and
            // its own selection is skipped.
            crate::spatial::sort_few(&mut nearest);
            if mine.is_none() {
                self.context.grid.note_nearest(agent, keep, &nearest);
            }
            let others = Others::Nearest(nearest.iter().filter_map(|&key| {
                let other = crate::spatial::agent_of(key) as usize;
                vehicles.get(other).map(|vehicle| (other, vehicle))
            }));
            let lines = &mut self.scratch.orca_lines;
            let solution = reciprocal_velocity_into(
                (me, agent),
                others,
                world,
                (preferred, settings, dt, shares),
                lines,
            );
            self.return_nearest(nearest);
            solution
        } else if mine.is_some() {
            // The candidates of its mask, listed (the borrow ends), then read beside the lines.
            self.neighbors();
            let crate::compile::Scratch {
                neighbors,
                orca_lines: lines,
                ..
            } = &mut *self.scratch;
            let candidates = neighbors.as_slice().iter().filter_map(|c| {
                let other = c.agent();
                vehicles.get(other).map(|vehicle| (other, vehicle))
            });
            reciprocal_velocity_into(
                (me, agent),
                Others::Candidates(candidates),
                world,
                (preferred, settings, dt, shares),
                lines,
            )
        } else {
            // Straight from the cells, without listing the candidates: their keys (squared
            // distance, agent index) gather in the thread's room for them, and the nearest
            // are kept (`reciprocal_nearest.rs`).
            let crate::compile::Scratch {
                orca_lines: lines,
                scan_keys,
                ..
            } = &mut *self.scratch;
            let others = Others::in_grid(self.context.grid, vehicles, scan_keys, (reach, block));
            reciprocal_velocity_into(
                (me, agent),
                others,
                world,
                (preferred, settings, dt, Shares::Half),
                lines,
            )
        }
    }

    fn orca_lines(&self) -> &[OrcaLine] {
        self.scratch.orca_lines.as_slice()
    }

    fn remember_preferred(&mut self, preferred: Vec2) {
        self.state.set_preferred(Some(preferred));
    }

    fn leave_guide(&mut self, guide: Guide) {
        self.pending_guide = Some(guide);
    }
}
