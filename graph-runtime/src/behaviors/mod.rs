//! Every steering formula of `BEHAVIORS.md`, written once as a pure function.
//!
//! The compiled [`crate::Program`] calls these; games and tests may call them directly. Each
//! returns a steering force (the angular layer's an angular acceleration); "nothing to do" is
//! exactly [`glam::Vec2::ZERO`] (or `0`). Where a debug
//! guide shows a behavior's geometry (an aim point, a corridor, a projection), the geometry
//! comes from a function here that the force itself calls, so the two cannot disagree.

mod avoidance;
mod facing;
mod group;
mod half_planes;
mod jump;
mod lanes;
mod orca_lines;
mod orca_solve;
mod pursuit;
mod reciprocal;
mod route;
mod seek;
mod tactics;
mod walls;

pub use avoidance::{
    UNALIGNED_CROWD_NEIGHBORS, containment, containment_aim, detection_length,
    most_threatening_obstacle, obstacle_avoidance, unaligned_collision_avoidance,
};
pub use facing::{
    Alignment, face, look_where_you_are_going, match_velocity, reach_orientation, wander_facing,
};
pub use group::{
    FOV_COSINE_TOLERANCE, FieldOfView, MAX_COUNTED_NEIGHBORS, NeighborSums, Neighborhood,
    alignment, cohesion, count_neighbors, flocking, in_neighborhood, leader_behind_point,
    leader_following, neighbor_sums_each, separation,
};
pub use half_planes::{
    FacingSide, WallEdge, agent_orca_line, is_covered, obstacle_orca_line,
    uncovered_wall_orca_line, wall_orca_line,
};
pub use jump::{JumpPlan, JumpSettings, flight_height, jump_plan, jump_run_up, ready_to_take_off};
pub use lanes::NeighborLanes;
pub use orca_lines::{
    MAX_ORCA_LINES, MAX_RECIPROCAL_NEIGHBORS, MAX_RECIPROCAL_OBSTACLES, MAX_RECIPROCAL_WALLS,
    OrcaLine, OrcaLines,
};
pub use orca_solve::{orca_aim, solve_orca};
pub use pursuit::{
    evasion, offset_pursuit, offset_pursuit_aim, predicted_position, prediction_time, pursuit,
};
pub use reciprocal::{
    OrcaSolution, PREFERENCE_SECONDS, ReciprocalSettings, orca_lines, preferred_velocity,
    reaching_force, reciprocal, reciprocal_velocity,
};
pub(crate) use reciprocal::{Others, reciprocal_velocity_into};
pub use route::{
    PathFollowingAim, PathSteer, flow_field_following, future_position, path_following,
    path_following_aim, wander, wander_aim, wander_center, wander_turn,
};
pub use seek::{arrival, flee, seek};
pub use tactics::{hide, hiding_spot, interpose, interpose_point};
pub use walls::{
    Feeler, WALL_CONTACTS, wall_ahead, wall_ahead_hit, wall_avoidance, wall_distance, wall_feelers,
    wall_following, wall_following_aim,
};

use glam::Vec2;

/// A moving agent as seen by another: where it is, how it moves, where it faces.
///
/// A named point or fixed point used as a quarry has velocity zero and faces +x.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quarry {
    /// Position (units).
    pub position: Vec2,
    /// Velocity (units / s).
    pub velocity: Vec2,
    /// Unit heading.
    pub forward: Vec2,
}

impl Quarry {
    /// A still point.
    pub fn at(position: Vec2) -> Self {
        Self {
            position,
            velocity: Vec2::ZERO,
            forward: Vec2::X,
        }
    }
}

impl From<&crate::Vehicle> for Quarry {
    fn from(vehicle: &crate::Vehicle) -> Self {
        Self {
            position: vehicle.position,
            velocity: vehicle.velocity,
            forward: vehicle.forward,
        }
    }
}
