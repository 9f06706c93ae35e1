//! The surroundings every agent steers in.

use bevy_ecs::resource::Resource;
use graph_runtime::{TagTable, World};

/// The runtime's [`World`] (bounds, obstacles, walls, paths, flow fields, named targets) and
/// the table of tag names agents carry. [`crate::spawn_scene`] sets it from a scene; a game
/// may build it itself, and move targets every frame (`world.set_target("player", p)`).
/// Adding or renaming paths, fields or targets rebinds the graphs at the next tick.
#[derive(Resource, Debug, Clone, Default)]
pub struct SteerWorld {
    /// Obstacles, walls, paths, flow fields and named targets, in world units.
    pub world: World,
    /// Tag names; [`crate::SteerAgent::tags`] holds bits of this table.
    pub tags: TagTable,
}
