//! The linear programs of Reciprocal (`BEHAVIORS.md`, "Reciprocal": keep right, the linear
//! program and the fallback): the permitted velocity nearest the aim, or the one that violates
//! the agents' half-planes least. Fixed-size arrays only: a tick allocates nothing.

use glam::Vec2;

use super::orca_lines::{OrcaLine, OrcaLines, PARALLEL, det};
use crate::math::{normalize, truncate};

/// What the linear program optimizes.
#[derive(Clone, Copy)]
enum Goal {
    /// The velocity nearest this one.
    Nearest(Vec2),
    /// The velocity farthest along this unit direction.
    Farthest(Vec2),
}

/// The best velocity on the boundary of line `index`, within the disc of radius `max_speed`
/// and the half-planes before it; `None` when they leave none.
fn best_on_line(lines: &[OrcaLine], index: usize, max_speed: f32, goal: Goal) -> Option<Vec2> {
    let line = *lines.get(index)?;
    let along = line.point.dot(line.direction);
    let discriminant = along * along + max_speed * max_speed - line.point.length_squared();
    if discriminant < 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    let mut t_left = -along - root;
    let mut t_right = -along + root;
    for earlier in lines.get(..index).unwrap_or(&[]) {
        let denominator = det(line.direction, earlier.direction);
        let numerator = det(earlier.direction, line.point - earlier.point);
        if denominator.abs() <= PARALLEL {
            if numerator < 0.0 {
                return None;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            t_right = t_right.min(t);
        } else {
            t_left = t_left.max(t);
        }
        if t_left > t_right {
            return None;
        }
    }
    let t = match goal {
        Goal::Farthest(direction) => {
            if direction.dot(line.direction) > 0.0 {
                t_right
            } else {
                t_left
            }
        }
        Goal::Nearest(velocity) => line
            .direction
            .dot(velocity - line.point)
            .clamp(t_left, t_right),
    };
    Some(line.point + line.direction * t)
}

/// Incremental 2D linear program: the best velocity within the disc of radius `max_speed`
/// and every half-plane. Returns it with the number of lines satisfied: `lines.len()` on
/// success, else the index of the first line that could not be met (the velocity then meets
/// the lines before it). Inlined: called, it read its goal back from memory in another
/// width than it was written in, a failed store-to-load forward for every agent (issue 47).
#[expect(
    clippy::inline_always,
    reason = "called from two places, a hint alone left it called"
)]
#[inline(always)]
fn best_within(lines: &[OrcaLine], max_speed: f32, goal: Goal) -> (Vec2, usize) {
    let mut result = match goal {
        Goal::Farthest(direction) => direction * max_speed,
        Goal::Nearest(velocity) => truncate(velocity, max_speed),
    };
    for (index, line) in lines.iter().enumerate() {
        if line.violation(result) > 0.0 {
            match best_on_line(lines, index, max_speed, goal) {
                Some(better) => result = better,
                None => return (result, index),
            }
        }
    }
    (result, lines.len())
}

/// The fallback when the half-planes leave no velocity: from line `begin` on, the velocity
/// within the disc that minimizes the largest violation of the agent lines, keeping the first
/// `obstacles` lines hard (a 3D linear program solved as a sequence of 2D ones).
fn least_violation(
    lines: &[OrcaLine],
    obstacles: usize,
    begin: usize,
    max_speed: f32,
    start: Vec2,
) -> Vec2 {
    let mut result = start;
    let mut distance = 0.0;
    for (index, line) in lines.iter().enumerate().skip(begin) {
        if line.violation(result) <= distance {
            continue;
        }
        let mut projected = OrcaLines::default();
        for hard in lines.iter().take(obstacles) {
            projected.push(*hard);
        }
        for other in lines.get(obstacles..index).unwrap_or(&[]) {
            let determinant = det(line.direction, other.direction);
            let point = if determinant.abs() <= PARALLEL {
                if line.direction.dot(other.direction) > 0.0 {
                    // Same direction: the other line adds nothing here.
                    continue;
                }
                (line.point + other.point) * 0.5
            } else {
                line.point
                    + line.direction
                        * (det(other.direction, line.point - other.point) / determinant)
            };
            projected.push(OrcaLine {
                point,
                direction: normalize(other.direction - line.direction),
            });
        }
        let towards = Vec2::new(-line.direction.y, line.direction.x);
        let (candidate, met) =
            best_within(projected.as_slice(), max_speed, Goal::Farthest(towards));
        if met == projected.as_slice().len() {
            result = candidate;
        }
        distance = line.violation(result);
    }
    result
}

/// The velocity the solver aims at: `preferred` itself when every half-plane permits it
/// (within `max_speed`), else `preferred` turned `keep_right` radians clockwise.
pub fn orca_aim(lines: &OrcaLines, max_speed: f32, preferred: Vec2, keep_right: f32) -> Vec2 {
    let free = truncate(preferred, max_speed);
    if keep_right == 0.0 || lines.as_slice().iter().all(|l| l.violation(free) <= 0.0) {
        return preferred;
    }
    Vec2::from_angle(-keep_right).rotate(preferred)
}

/// The velocity nearest `aim` within the disc of radius `max_speed` and every half-plane of
/// `lines`, and whether the fallback (least violation) was needed.
pub fn solve_orca(lines: &OrcaLines, max_speed: f32, aim: Vec2) -> (Vec2, bool) {
    let all = lines.as_slice();
    let (result, met) = best_within(all, max_speed, Goal::Nearest(aim));
    if met < all.len() {
        (
            least_violation(all, lines.obstacle_count(), met, max_speed, result),
            true,
        )
    } else {
        (result, false)
    }
}
