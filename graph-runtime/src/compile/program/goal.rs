//! Where an agent running a program is headed: what the arrival metrics measure against.

use glam::Vec2;

use super::Op;
use super::operands::TargetRef;
use super::{ParamValues, Program};
use crate::{OwnGoals, World};

impl Program {
    /// The goal of an agent running this program with `params` in `world`, owning `own`: the
    /// target of the first Arrival, Seek or Navigate node (in the compiled order) whose target
    /// is a point, a scene target or the agent's own point and exists; else the last point of the
    /// first open path it follows (its own route or a world path); else none. A tagged agent
    /// moves, so it is no goal.
    pub fn goal(&self, params: &ParamValues, world: &World, own: &OwnGoals) -> Option<Vec2> {
        let point = |target: &TargetRef| match *target {
            TargetRef::Point(x, y) => Some(Vec2::new(x.get(params), y.get(params))),
            TargetRef::Named(index) => world.target(self.target_names.get(index as usize)?),
            TargetRef::Own(index) => own.goal(self.own_shared.get(index as usize)?),
            TargetRef::Tagged(_) => None,
        };
        let aimed = self.ops.iter().find_map(|op| match op {
            Op::Aim(aim) => aim.goal().and_then(|target| point(&target)),
            Op::Course(course) => course.goal_target().and_then(|target| point(&target)),
            _ => None,
        });
        aimed.or_else(|| {
            self.ops.iter().find_map(|op| {
                let Op::Course(course) = op else {
                    return None;
                };
                let (path, owned) = course.goal_path()?;
                let path = if owned {
                    own.route(self.own_names.get(path as usize)?)?
                } else {
                    world.path(self.path_names.get(path as usize)?)?
                };
                if path.closed {
                    None
                } else {
                    path.points.last().copied()
                }
            })
        })
    }
}
