//! Showing agents: their vehicles written into `Transform`s.

use bevy_ecs::query::Changed;
use bevy_ecs::system::{Query, Res};
use bevy_transform::components::Transform;

use crate::{SteerAgent, SteerSettings};

/// Writes each moved agent's position and facing into its `Transform`, in the plugin's
/// [`crate::Plane`], keeping the height the game gave it. The rotation follows the vehicle's
/// orientation when it has independent facing, its heading otherwise.
pub(crate) fn write_transforms(
    settings: Res<SteerSettings>,
    mut agents: Query<(&SteerAgent, &mut Transform), Changed<SteerAgent>>,
) {
    let plane = settings.plane;
    for (agent, mut transform) in &mut agents {
        let vehicle = &agent.vehicle;
        transform.translation = plane.place(
            vehicle.position.x,
            vehicle.position.y,
            transform.translation,
        );
        let facing = vehicle.facing_direction();
        transform.rotation = plane.facing(facing.x, facing.y);
    }
}
