//! The half-planes of Reciprocal (`BEHAVIORS.md`, "Reciprocal": the half-planes and the tie
//! rule): what each neighbor, circle obstacle and wall segment forbids.

use glam::Vec2;

use super::orca_lines::{OrcaLine, det};
use crate::Vehicle;
use crate::math::{TINY, normalize};
use crate::world::{EdgeTurns, Obstacle, SegmentTurns, has_direction};

/// `1 / horizon` and `1 / dt`, the scales of a velocity obstacle, worked out once for all of
/// an agent's neighbors: worked out for each, the division lay on every neighbor's critical
/// path (issue 47). The same quotients wherever they are worked out, so the same half-planes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inverses {
    horizon: f32,
    dt: f32,
}

impl Inverses {
    /// The inverses of time horizon `horizon` and tick `dt`.
    #[inline]
    pub(crate) fn of(horizon: f32, dt: f32) -> Self {
        Self {
            horizon: 1.0 / horizon,
            dt: 1.0 / dt,
        }
    }
}

/// The boundary direction and the smallest change `u` of the relative velocity that leaves
/// the velocity obstacle of an object at `relative_position` (from the agent), for relative
/// velocity `relative_velocity` (the agent's minus the object's), combined radius `reach`,
/// horizon `horizon` (`> 0`) and tick `dt`, given as their [`Inverses`]. `tie` is the unit
/// push used when the two centres coincide and the relative velocity is zero. Inlined into
/// its callers: called, it handed its two vectors back through memory, stored in halves and
/// reloaded whole (see [`shared_orca_line`]).
#[inline]
fn leave_velocity_obstacle(
    relative_position: Vec2,
    relative_velocity: Vec2,
    reach: f32,
    Inverses {
        horizon: inverse_horizon,
        dt: inverse_dt,
    }: Inverses,
    tie: Vec2,
) -> (Vec2, Vec2) {
    let distance_squared = relative_position.length_squared();
    let reach_squared = reach * reach;
    if distance_squared > reach_squared {
        // Apart: the velocity obstacle is the cone towards the object, cut off by the circle
        // of centre `relative_position / horizon` and radius `reach / horizon`.
        let w = relative_velocity - relative_position * inverse_horizon;
        let w_squared = w.length_squared();
        let along = w.dot(relative_position);
        if along < 0.0 && along * along > reach_squared * w_squared {
            // Nearest boundary point on the cut-off circle.
            let w_length = w_squared.sqrt();
            let unit_w = w / w_length;
            (
                Vec2::new(unit_w.y, -unit_w.x),
                unit_w * (reach * inverse_horizon - w_length),
            )
        } else {
            // Nearest boundary point on a leg of the cone.
            let direction = if det(relative_position, w) > 0.0 {
                cone_leg(relative_position, distance_squared, reach, true)
            } else {
                -cone_leg(relative_position, distance_squared, reach, false)
            };
            let u = direction * relative_velocity.dot(direction) - relative_velocity;
            (direction, u)
        }
    } else {
        // Overlapping: leave within one tick.
        let w = relative_velocity - relative_position * inverse_dt;
        let w_length = w.length();
        let unit_w = if w_length < TINY { tie } else { w / w_length };
        (
            Vec2::new(unit_w.y, -unit_w.x),
            unit_w * (reach * inverse_dt - w_length),
        )
    }
}

/// The unit direction of a leg of the cone from the agent tangent to a circle of radius
/// `radius` at `to` (from the agent, `|to|² = squared > radius²`): the left leg, or the right
/// one, both pointing away from the agent. With `L = sqrt(|to|² - radius²)`: left
/// `(x L - y r, x r + y L) / |to|²`, right `(x L + y r, -x r + y L) / |to|²`.
fn cone_leg(to: Vec2, squared: f32, radius: f32, left: bool) -> Vec2 {
    let length = (squared - radius * radius).sqrt();
    let (x, y) = (to.x, to.y);
    if left {
        Vec2::new(x * length - y * radius, x * radius + y * length) / squared
    } else {
        Vec2::new(x * length + y * radius, -x * radius + y * length) / squared
    }
}

/// The half-plane another agent imposes (each agent takes half of the avoidance):
/// `point = v + u / 2`, for the combined radius `radius + other.radius + clearance`.
/// `lower_index` says whether `vehicle` has the lower agent index of the two: when their
/// centres coincide and they move alike, it is pushed along `-x` and the other along `+x`.
pub fn agent_orca_line(
    vehicle: &Vehicle,
    other: &Vehicle,
    time_horizon: f32,
    clearance: f32,
    dt: f32,
    lower_index: bool,
) -> OrcaLine {
    shared_orca_line(
        vehicle,
        other,
        (time_horizon, clearance, dt),
        lower_index,
        0.5,
    )
}

/// [`agent_orca_line`] where this agent takes `share` of the avoidance (0 to 1; 0.5 for equal
/// priorities): `point = v + u * share` (`BEHAVIORS.md`, "Avoidance priority and layers").
///
/// Inlined into Reciprocal's loop over its neighbors: called, it wrote the line as three
/// stores and the caller read it back as one 16-byte load, which waits for the stores to
/// reach the cache (a failed store-to-load forward, 6 % of RVO2's Blocks, issue 47).
#[expect(
    clippy::inline_always,
    reason = "a hint alone left it called once its cone test was inlined into it"
)]
#[inline(always)]
pub fn shared_orca_line(
    vehicle: &Vehicle,
    other: &Vehicle,
    (time_horizon, clearance, dt): (f32, f32, f32),
    lower_index: bool,
    share: f32,
) -> OrcaLine {
    let inverses = Inverses::of(time_horizon, dt);
    orca_line_between(vehicle, other, (inverses, clearance), lower_index, share)
}

/// [`shared_orca_line`] with the horizon's and the tick's [`Inverses`] worked out by the
/// caller, once for all of an agent's neighbors. Inlined into Reciprocal's loop over them, as
/// [`shared_orca_line`] is.
#[expect(
    clippy::inline_always,
    reason = "a hint alone left it called once its cone test was inlined into it"
)]
#[inline(always)]
pub(crate) fn orca_line_between(
    vehicle: &Vehicle,
    other: &Vehicle,
    (inverses, clearance): (Inverses, f32),
    lower_index: bool,
    share: f32,
) -> OrcaLine {
    let tie = if lower_index { -Vec2::X } else { Vec2::X };
    let (direction, u) = leave_velocity_obstacle(
        other.position - vehicle.position,
        vehicle.velocity - other.velocity,
        vehicle.radius + other.radius + clearance,
        inverses,
        tie,
    );
    OrcaLine {
        point: vehicle.velocity + u * share,
        direction,
    }
}

/// The half-plane a circle obstacle imposes: an agent that never moves, so the vehicle takes
/// all of the avoidance: `point = v + u`, for the combined radius `radius + obstacle radius +
/// clearance`. On the circle's centre at rest, it is pushed along `+x`.
pub fn obstacle_orca_line(
    vehicle: &Vehicle,
    obstacle: &Obstacle,
    obstacle_time_horizon: f32,
    clearance: f32,
    dt: f32,
) -> OrcaLine {
    let inverses = Inverses::of(obstacle_time_horizon, dt);
    obstacle_line_between(vehicle, obstacle, (inverses, clearance))
}

/// [`obstacle_orca_line`] with the obstacle horizon's and the tick's [`Inverses`] worked out
/// by the caller, once for all of an agent's obstacles.
#[inline]
pub(crate) fn obstacle_line_between(
    vehicle: &Vehicle,
    obstacle: &Obstacle,
    (inverses, clearance): (Inverses, f32),
) -> OrcaLine {
    let (direction, u) = leave_velocity_obstacle(
        obstacle.center - vehicle.position,
        vehicle.velocity,
        vehicle.radius + obstacle.radius + clearance,
        inverses,
        Vec2::X,
    );
    OrcaLine {
        point: vehicle.velocity + u,
        direction,
    }
}

/// A wall segment as ORCA sees an obstacle edge (van den Berg et al.'s, as RVO2 builds it): from
/// `a` to `b` with the agent on its right, and where the wall goes on at each end.
#[derive(Clone, Copy, Debug, PartialEq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "two independent facts about each end, as RVO2's obstacle vertices carry them"
)]
pub struct WallEdge {
    /// The edge's first point, as the agent sees it.
    pub a: Vec2,
    /// Its second point.
    pub b: Vec2,
    /// The unit direction of the wall arriving at `a` (`normalize(a - b)` at an open end: the
    /// wall turns back along the edge's other side).
    pub before: Vec2,
    /// The unit direction of the wall leaving `b` (`normalize(a - b)` at an open end).
    pub after: Vec2,
    /// Whether the wall turns away from the agent at `a` (an open end counts).
    pub a_convex: bool,
    /// Whether it turns away at `b`.
    pub b_convex: bool,
    /// Whether the wall's segment before `a` gives its own half-plane (it is among the
    /// segments the agent avoids); true at an open end, where it is this segment's other side.
    /// A leg into a segment that gives none is kept: it is the only limit there.
    pub before_seen: bool,
    /// Whether the wall's segment after `b` gives its own half-plane.
    pub after_seen: bool,
}

/// Which side of a wall segment `a → b` an agent must be on for the segment to face it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FacingSide {
    /// Either side: a segment of an open wall faces whichever side the agent is on.
    Either,
    /// Its right only: its left is the far side of a closed wall, hidden from the agent.
    Right,
    /// Its left only.
    Left,
}

impl FacingSide {
    /// The side of segment `(a, b)` of a closed wall that faces an agent at `p`, whose
    /// interior lies on the left of `a → b` when `interior_left`: the side away from the
    /// interior when `p` is outside the wall, the side towards it when inside (a room).
    /// Inside or outside is judged where the wall comes nearest `p`, on this segment: `before`
    /// and `after` are the wall's points before `a` and after `b`.
    pub fn of_closed_wall(
        p: Vec2,
        (a, b): (Vec2, Vec2),
        (before, after): (Option<Vec2>, Option<Vec2>),
        interior_left: bool,
    ) -> Self {
        let outside = outside_closed_wall(p, (a, b), (before, after), interior_left);
        if outside == interior_left {
            Self::Right
        } else {
            Self::Left
        }
    }
}

/// Whether `p` is outside a closed wall whose segment `(a, b)` is the wall's nearest to it
/// (its interior on the left of `a → b` when `interior_left`). Where the nearest point is a
/// corner, `p` lies in the corner's own wedge, which is outside exactly when the corner is
/// convex; elsewhere the segment's side tells (on its line counts as outside).
fn outside_closed_wall(
    p: Vec2,
    (a, b): (Vec2, Vec2),
    (before, after): (Option<Vec2>, Option<Vec2>),
    interior_left: bool,
) -> bool {
    let along = b - a;
    let s = (p - a).dot(along) / along.length_squared();
    let turn = if s <= 0.0 {
        before.map(|before| left_of(before, a, b))
    } else if s >= 1.0 {
        after.map(|after| left_of(a, b, after))
    } else {
        None
    };
    if let Some(turn) = turn
        && turn != 0.0
    {
        // A left turn is a convex corner when the interior is on the left.
        return (turn > 0.0) == interior_left;
    }
    let side = left_of(a, b, p);
    if interior_left {
        side <= 0.0
    } else {
        side >= 0.0
    }
}

impl WallEdge {
    /// Segment `(a, b)` as seen from `p`, turned so that `p` lies on its right. `before` is
    /// the wall's point before `a` and `after` its point after `b` (`None` at an open end).
    /// `side` says which side of `a → b` may face the agent: a segment of an open wall is the
    /// edge of whichever side `p` is on, a closed wall's segment only of its side facing the
    /// agent (see [`FacingSide::of_closed_wall`]); `None` when `p` is on the other side, or
    /// when the segment is shorter than `1e-6`. An agent on the segment's line counts as on
    /// the side it comes from (behind it along `forward`), or as on the right of `a → b` when
    /// it moves along the line.
    pub fn facing(
        pose: (Vec2, Vec2),
        segment: (Vec2, Vec2),
        around: (Option<Vec2>, Option<Vec2>),
        side: FacingSide,
    ) -> Option<Self> {
        let turns = SegmentTurns::of(segment, around);
        Self::facing_turned(pose, segment, around, turns, side)
    }

    /// [`WallEdge::facing`] with the segment's [`SegmentTurns`] worked out beforehand (the wall
    /// index keeps them): the same edge, bit for bit, without a square root per edge and end.
    pub(crate) fn facing_turned(
        (p, forward): (Vec2, Vec2),
        (a, b): (Vec2, Vec2),
        (before, after): (Option<Vec2>, Option<Vec2>),
        turns: SegmentTurns,
        side: FacingSide,
    ) -> Option<Self> {
        if !has_direction((a, b)) {
            return None;
        }
        let mut at = left_of(a, b, p);
        if at == 0.0 {
            at = left_of(a, b, p - forward);
        }
        let on_right = if at == 0.0 {
            side != FacingSide::Left
        } else {
            at < 0.0
        };
        match (side, on_right) {
            (FacingSide::Right, false) | (FacingSide::Left, true) => return None,
            _ => {}
        }
        let (a, b, before, after, turns) = if on_right {
            (a, b, before, after, turns.ab)
        } else {
            (b, a, after, before, turns.ba)
        };
        let EdgeTurns {
            back,
            arriving,
            leaving,
        } = turns;
        // An open end (or a point too near to give a direction) turns back along the edge.
        let before = before
            .map(|point| (point, arriving))
            .filter(|&(_, direction)| direction != Vec2::ZERO);
        let after = after
            .map(|point| (point, leaving))
            .filter(|&(_, direction)| direction != Vec2::ZERO);
        Some(Self {
            a,
            b,
            before: before.map_or(back, |(_, direction)| direction),
            after: after.map_or(back, |(_, direction)| direction),
            a_convex: before.is_none_or(|(point, _)| left_of(point, a, b) >= 0.0),
            b_convex: after.is_none_or(|(point, _)| left_of(a, b, point) >= 0.0),
            before_seen: true,
            after_seen: true,
        })
    }
}

/// `det(a - c, b - a)`: negative when `c` lies on the right of the line from `a` to `b`.
fn left_of(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    det(a - c, b - a)
}

/// How far (in velocity) an edge's cut-off ends may lie inside an earlier half-plane's
/// forbidden side and still count as kept out by it: RVO2's `RVO_EPSILON`.
const COVERED_TOLERANCE: f32 = 1e-5;

/// One end of a [`WallEdge`] as the half-plane below uses it: the point, whether the wall
/// turns away there, the direction the wall leaves it and the direction it arrives.
#[derive(Clone, Copy, PartialEq)]
struct Corner {
    point: Vec2,
    convex: bool,
    leaving: Vec2,
    arriving: Vec2,
    /// Whether the segment arriving here gives its own half-plane.
    arriving_seen: bool,
    /// Whether the segment leaving here does.
    leaving_seen: bool,
}

/// The half-plane a wall edge imposes (`BEHAVIORS.md`, "Reciprocal", walls): the velocity
/// obstacle of the edge, a cone from the agent cut off at `obstacle_time_horizon`, left through
/// the point of its boundary nearest the current velocity; the wall never moves, so the agent
/// takes all of it. `earlier` are the obstacle half-planes made before it: an edge whose ends
/// they already keep out gives none, and neither does an edge whose velocity obstacle a
/// neighboring edge of the wall bounds (a leg into the wall, a corner the wall turns into).
/// Overlapping the edge, the half-plane only forbids moving further in. This is RVO2's
/// `Agent::computeNewVelocity` for obstacles, for the radius `radius + clearance`.
pub fn wall_orca_line(
    vehicle: &Vehicle,
    edge: &WallEdge,
    earlier: &[OrcaLine],
    obstacle_time_horizon: f32,
    clearance: f32,
) -> Option<OrcaLine> {
    let covered = is_covered(
        vehicle,
        (edge.a, edge.b),
        earlier,
        obstacle_time_horizon,
        clearance,
    );
    if covered {
        return None;
    }
    uncovered_wall_orca_line(vehicle, edge, obstacle_time_horizon, clearance)
}

/// [`wall_orca_line`] for an edge that no earlier half-plane covers ([`is_covered`] is false).
/// `None` when `1 / obstacle_time_horizon` is not finite (a horizon under about `3e-39` s):
/// such a horizon plans nothing ahead.
pub fn uncovered_wall_orca_line(
    vehicle: &Vehicle,
    edge: &WallEdge,
    obstacle_time_horizon: f32,
    clearance: f32,
) -> Option<OrcaLine> {
    let inverse_horizon = 1.0 / obstacle_time_horizon;
    if !inverse_horizon.is_finite() {
        return None;
    }
    let p = vehicle.position;
    let radius = vehicle.radius + clearance;
    let (to_a, to_b) = (edge.a - p, edge.b - p);
    let along = edge.b - edge.a;
    let s = (-to_a).dot(along) / along.length_squared();
    let view = EdgeView {
        to_a,
        to_b,
        a_squared: to_a.length_squared(),
        b_squared: to_b.length_squared(),
        direction: normalize(along),
        s,
        line_squared: (-to_a - along * s).length_squared(),
        radius,
    };
    let radius_squared = radius * radius;
    let stop = |towards: Vec2| OrcaLine {
        point: Vec2::ZERO,
        direction: towards,
    };
    // Overlapping: only moving further in is forbidden.
    if s < 0.0 && view.a_squared <= radius_squared {
        return edge
            .a_convex
            .then(|| stop(normalize(Vec2::new(-to_a.y, to_a.x))));
    }
    if s > 1.0 && view.b_squared <= radius_squared {
        // The next edge takes a corner it faces.
        return (edge.b_convex && det(to_b, edge.after) >= 0.0)
            .then(|| stop(normalize(Vec2::new(-to_b.y, to_b.x))));
    }
    if (0.0..=1.0).contains(&s) && view.line_squared <= radius_squared {
        return Some(stop(-view.direction));
    }
    cone_line(vehicle, edge, &view, inverse_horizon)
}

/// An edge as the agent sees it, worked out once for the overlap tests and the cone: the
/// offsets to its ends and their squared lengths, its unit direction, where the agent lies
/// along its line (`s`, 0 at `a` and 1 at `b`) and how far from it (squared), and the radius
/// kept (`radius + clearance`).
struct EdgeView {
    to_a: Vec2,
    to_b: Vec2,
    a_squared: f32,
    b_squared: f32,
    direction: Vec2,
    s: f32,
    line_squared: f32,
    radius: f32,
}

/// Whether the half-planes `earlier` already keep out both ends of segment `(a, b)` (either
/// way round) within `obstacle_time_horizon`, so that it gives no half-plane of its own
/// (RVO2's "already covered" test; the first step of [`wall_orca_line`]).
pub fn is_covered(
    vehicle: &Vehicle,
    (a, b): (Vec2, Vec2),
    earlier: &[OrcaLine],
    obstacle_time_horizon: f32,
    clearance: f32,
) -> bool {
    let inverse_horizon = 1.0 / obstacle_time_horizon;
    let reach = (vehicle.radius + clearance) * inverse_horizon;
    let (to_a, to_b) = (a - vehicle.position, b - vehicle.position);
    earlier.iter().any(|line| {
        det(to_a * inverse_horizon - line.point, line.direction) - reach >= -COVERED_TOLERANCE
            && det(to_b * inverse_horizon - line.point, line.direction) - reach
                >= -COVERED_TOLERANCE
    })
}

/// [`wall_orca_line`] for an agent apart from the edge (`view`): the legs of the edge's
/// velocity obstacle, and the half-plane through the boundary point nearest the velocity.
fn cone_line(
    vehicle: &Vehicle,
    edge: &WallEdge,
    view: &EdgeView,
    inverse_horizon: f32,
) -> Option<OrcaLine> {
    let EdgeView {
        to_a,
        to_b,
        a_squared,
        b_squared,
        direction,
        s,
        line_squared,
        radius,
    } = *view;
    let radius_squared = radius * radius;
    let a = Corner {
        point: edge.a,
        convex: edge.a_convex,
        leaving: direction,
        arriving: edge.before,
        arriving_seen: edge.before_seen,
        leaving_seen: true,
    };
    let b = Corner {
        point: edge.b,
        convex: edge.b_convex,
        leaving: edge.after,
        arriving: direction,
        arriving_seen: true,
        leaving_seen: edge.after_seen,
    };
    // The legs of the cone; seen obliquely, one corner gives both.
    let (first, second, left_leg, right_leg) = if s < 0.0 && line_squared <= radius_squared {
        if !a.convex {
            return None;
        }
        (
            a,
            a,
            cone_leg(to_a, a_squared, radius, true),
            cone_leg(to_a, a_squared, radius, false),
        )
    } else if s > 1.0 && line_squared <= radius_squared {
        if !b.convex {
            return None;
        }
        (
            b,
            b,
            cone_leg(to_b, b_squared, radius, true),
            cone_leg(to_b, b_squared, radius, false),
        )
    } else {
        // A corner the wall turns into (towards the agent) carries the edge's own line on.
        let left = if a.convex {
            cone_leg(to_a, a_squared, radius, true)
        } else {
            -direction
        };
        let right = if b.convex {
            cone_leg(to_b, b_squared, radius, false)
        } else {
            direction
        };
        (a, b, left, right)
    };
    let legs = Legs {
        first,
        second,
        left: left_leg,
        right: right_leg,
    };
    leave_cone(vehicle, legs, radius * inverse_horizon, inverse_horizon)
}

/// The two ends of an edge's velocity obstacle (the same corner when seen obliquely) and its
/// left and right legs.
#[derive(Clone, Copy)]
struct Legs {
    first: Corner,
    second: Corner,
    left: Vec2,
    right: Vec2,
}

/// The half-plane through the point of the velocity obstacle bounded by `legs` nearest the
/// velocity: on a cut-off circle, the cut-off line or a leg (none on a foreign leg).
fn leave_cone(vehicle: &Vehicle, legs: Legs, reach: f32, inverse_horizon: f32) -> Option<OrcaLine> {
    let (p, v) = (vehicle.position, vehicle.velocity);
    let Legs {
        first,
        second,
        left: mut left_leg,
        right: mut right_leg,
    } = legs;
    let same = first == second;
    // A leg pointing into the wall's next edge is replaced by that edge ("foreign"): the edge
    // gives its own half-plane, so none comes from here (unless that edge is not among those
    // the agent avoids: then this one is the only limit there).
    let mut left_foreign = false;
    let mut right_foreign = false;
    if first.convex && det(left_leg, -first.arriving) >= 0.0 {
        left_leg = -first.arriving;
        left_foreign = true;
    }
    if second.convex && det(right_leg, second.leaving) <= 0.0 {
        right_leg = second.leaving;
        right_foreign = true;
    }
    let left_cutoff = (first.point - p) * inverse_horizon;
    let right_cutoff = (second.point - p) * inverse_horizon;
    let cutoff = right_cutoff - left_cutoff;
    let t = if same {
        0.5
    } else {
        (v - left_cutoff).dot(cutoff) / cutoff.length_squared()
    };
    let t_left = (v - left_cutoff).dot(left_leg);
    let t_right = (v - right_cutoff).dot(right_leg);
    let around = |center: Vec2| {
        let unit_w = normalize(v - center);
        OrcaLine {
            point: center + unit_w * reach,
            direction: Vec2::new(unit_w.y, -unit_w.x),
        }
    };
    if (t < 0.0 && t_left < 0.0) || (same && t_left < 0.0 && t_right < 0.0) {
        return Some(around(left_cutoff));
    }
    if t > 1.0 && t_right < 0.0 {
        return Some(around(right_cutoff));
    }
    let squared_or_never = |outside: bool, to: Vec2| {
        if outside {
            f32::INFINITY
        } else {
            (v - to).length_squared()
        }
    };
    let to_cutoff = squared_or_never(!(0.0..=1.0).contains(&t) || same, left_cutoff + cutoff * t);
    let to_left = squared_or_never(t_left < 0.0, left_cutoff + left_leg * t_left);
    let to_right = squared_or_never(t_right < 0.0, right_cutoff + right_leg * t_right);
    let along_line = |from: Vec2, direction: Vec2| OrcaLine {
        point: from + Vec2::new(-direction.y, direction.x) * reach,
        direction,
    };
    if to_cutoff <= to_left && to_cutoff <= to_right {
        return Some(along_line(left_cutoff, -first.leaving));
    }
    if to_left <= to_right {
        return (!(left_foreign && first.arriving_seen)).then(|| along_line(left_cutoff, left_leg));
    }
    (!(right_foreign && second.leaving_seen)).then(|| along_line(right_cutoff, -right_leg))
}
