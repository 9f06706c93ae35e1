//! Showing agents: their vehicles written into `Transform`s.

use bevy_ecs::query::Changed;
use bevy_ecs::system::{Query, Res};
use bevy_transform::components::Transform;

use crate::{SteerAgent, SteerSettings};

/// Writes each moved agent's position and heading into its `Transform`, in the plugin's
/// [`crate::Plane`], keeping the height the game gave it.
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
        transform.rotation = plane.facing(vehicle.forward.x, vehicle.forward.y);
    }
}
