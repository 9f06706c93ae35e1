//! The evaluator's leaves: a family file's force, reading or answer by its `force`, `reading`
//! or `holds` (the evaluator is its `Leaf`), and Reciprocal's solve, which reads the other
//! agents one by one, by calling the formula of `behaviors/`.

use glam::Vec2;

use super::evaluator::Evaluator;
use super::trace::Recorder;
use super::value::Value;
use crate::behaviors::{self, OrcaLine, ReciprocalSettings};
use crate::behaviors::{Others, reciprocal_velocity_into};
use crate::compile::guide::{GUIDE_ORCA_LINES, Guide};
use crate::compile::program::{
    JumpOp, Op, SensorOp, angular_leaf_ops, combiner_ops, condition_leaf_ops, force_leaf_ops,
    sensor_ops,
};

impl<R: Recorder, V: Value> Evaluator<'_, '_, '_, R, V> {
    /// The force of a steering behavior (an op without inputs); the angular layer's
    /// behaviors, which have no force, are `turning.rs`'s.
    pub(super) fn leaf_force(&mut self, index: u32, op: &Op) -> Vec2 {
        let me = self.me;
        match *op {
            Op::Aim(aim) => aim.force(self),
            Op::Surroundings(op) => op.force(self),
            Op::Course(op) => op.steering(self).force,
            Op::Crossing(op) => op.force(self),
            Op::Group(group) => {
                let params = self.context.params;
                group.force(self.group_sums(index), me, params)
            }
            Op::Follow(op) => op.force(self),
            Op::Jump(op @ JumpOp::Jump { .. }) => op.force(self),
            // Angular only (no force), or not a behavior.
            angular_leaf_ops!()
            | sensor_ops!()
            | condition_leaf_ops!()
            | combiner_ops!()
            | Op::Muted => Vec2::ZERO,
        }
    }

    /// The reading of a sensor op.
    pub(super) fn sensor(&mut self, op: &Op) -> f32 {
        match *op {
            Op::Sensor(
                op @ (SensorOp::Distance(_)
                | SensorOp::NeighborCount(..)
                | SensorOp::Speed
                | SensorOp::WallDistance
                | SensorOp::Value(_)),
            ) => op.reading(self),
            // Only ops whose output is a scalar (the node table's) are read as sensors.
            force_leaf_ops!()
            | angular_leaf_ops!()
            | condition_leaf_ops!()
            | combiner_ops!()
            | Op::Muted => {
                debug_assert!(false, "{:?} is no sensor", op.kind());
                0.0
            }
        }
    }

    /// The answer of a condition op without inputs.
    pub(super) fn condition(&mut self, op: &Op) -> bool {
        match *op {
            Op::Sensor(op @ SensorOp::WallAhead(_)) => op.holds(self),
            Op::Jump(op @ JumpOp::Achievable { .. }) => op.holds(self),
            // Only leaves whose output is a condition (the node table's) are asked.
            force_leaf_ops!()
            | angular_leaf_ops!()
            | sensor_ops!()
            | combiner_ops!()
            | Op::Muted => {
                debug_assert!(false, "{:?} is no condition leaf", op.kind());
                false
            }
        }
    }

    /// Reciprocal's force around the preferred force `preferred` (its input's value); in a
    /// traced run, also its guide, from the same solution.
    pub(super) fn reciprocal(&mut self, op: &Op, preferred: Vec2) -> Vec2 {
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
        if !(dt > 0.0 && dt.is_finite()) {
            return preferred;
        }
        let (radius, most) = (settings.neighbor_radius, settings.max_neighbors);
        // Once the cells hold more than 8 × `max_neighbors` agents (not the 256 of the group
        // nodes), the `max_neighbors` nearest come from the k-d tree: the same agents the scan
        // below would keep, from the nearest few leaves instead of every agent of the cells.
        // Below that a scan costs less than a search (at 4 × the search ran on RVO2's Blocks,
        // 1.0 % and 3.7 % more instructions per step on its Circle 1,000 and Blocks, and the
        // 10,000-agent crowd bench took 9.6–10.7 ms a tick against 7.4–8.6 ms; `BENCHMARKS.md`,
        // "Reciprocal against RVO2").
        let limit = most.saturating_mul(8);
        // The half-planes go into the thread's list, neither filled nor copied per agent.
        let (preferred, chosen, fallback) = if let Some(mut nearest) =
            self.nearest_beyond(radius, most, limit)
        {
            // The tree's keys are (squared distance, agent) in one integer, the distance
            // computed as Reciprocal computes it: sorted, they are its choice in its order, and
            // its own selection is skipped.
            nearest.sort_unstable();
            let others = Others::Nearest(nearest.iter().filter_map(|&key| {
                let other = crate::spatial::agent_of(key) as usize;
                vehicles.get(other).map(|vehicle| (other, vehicle))
            }));
            let lines = &mut self.scratch.orca_lines;
            let solution =
                reciprocal_velocity_into(me, agent, others, world, preferred, &settings, dt, lines);
            self.return_nearest(nearest);
            solution
        } else {
            // Straight from the cells, without listing and sorting the candidates: the
            // nearest are kept by (squared distance, agent index), in whatever order they
            // come.
            let others = Others::in_grid(self.context.grid, vehicles);
            let lines = &mut self.scratch.orca_lines;
            reciprocal_velocity_into(me, agent, others, world, preferred, &settings, dt, lines)
        };
        self.state.preferred = Some(preferred);
        if !R::ACTIVE {
            return behaviors::reaching_force(me, chosen, dt);
        }
        let all = self.scratch.orca_lines.as_slice();
        let mut lines = [OrcaLine::default(); GUIDE_ORCA_LINES];
        for (slot, line) in lines.iter_mut().zip(all) {
            *slot = *line;
        }
        self.pending_guide = Some(Guide::Reciprocal {
            preferred,
            chosen,
            lines,
            count: all.len().min(GUIDE_ORCA_LINES) as u8,
            total: all.len().min(usize::from(u8::MAX)) as u8,
            fallback,
        });
        behaviors::reaching_force(me, chosen, dt)
    }
}
