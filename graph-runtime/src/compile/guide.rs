//! The geometry behind a node's value that the editor's debug guides draw: one type, made by
//! the op families' `guide`s and the evaluator's, recorded by traced runs (`eval/trace.rs`).

use glam::Vec2;

use crate::behaviors::OrcaLine;

/// How many of Reciprocal's half-planes a [`Guide::Reciprocal`] carries (the first ones:
/// obstacles', then the nearest neighbors').
pub const GUIDE_ORCA_LINES: usize = 8;

/// The geometry behind a node's force, for drawing debug guides (world units). Recorded only
/// by [`Program::steer_traced`](crate::Program::steer_traced).
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
    /// Navigate: the next corner of the agent's route, its end, and the aim (the route's
    /// points are in the agent's state, `AgentState::routes`).
    Route {
        /// The corner the agent walks to next.
        corner: Vec2,
        /// Where the route ends.
        end: Vec2,
        /// The point steered to.
        aim: Option<Vec2>,
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
    /// `ReachOrientation`, Face, `LookWhereYouAreGoing`: the angle the facing turns to (radians),
    /// the facing now, and the tolerance and slowing angles around the target.
    Orientation {
        /// The target angle.
        target: f32,
        /// The facing when evaluated.
        facing: f32,
        /// Aligned within this angle.
        tolerance: f32,
        /// The turn slows within this angle.
        deceleration_radius: f32,
    },
    /// `MatchVelocity`: the velocity matched (units / s; draw it from the agent's position).
    Velocity(Vec2),
    /// Jump: the link, the take-off window and the velocity the jump needs; `achievable`
    /// false when no flight makes it.
    Jump {
        /// Take-off point.
        from: Vec2,
        /// Landing point.
        to: Vec2,
        /// The take-off window's radius (the position tolerance).
        window: f32,
        /// The planar take-off velocity (zero when not achievable).
        velocity: Vec2,
        /// Whether the jump can be made.
        achievable: bool,
    },
    /// Flow-field following: where the field was sampled and what it said.
    FlowSample {
        /// Sample point.
        point: Vec2,
        /// Sampled vector (fraction of top speed).
        vector: Vec2,
    },
}
