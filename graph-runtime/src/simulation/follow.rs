//! Edits made while a scene runs, put into the running simulation one way whoever makes them:
//! the editor following its documents, and a replay file putting back the edits its run had
//! (`replay/changes.rs`). The run after an edit then depends only on the edit and the state
//! it was made at, so a replay of an edited run steps to the same bits.

use std::sync::Arc;

use super::{Simulation, TooMuchWork};
use crate::compile::{ParamValues, Program};
use crate::{BindError, Scene, Turning, VehicleParams, World};

impl Simulation {
    /// Whether the running world differs from `scene` in what an edit puts into it without a
    /// reset ([`Simulation::follow_scene`]): bounds, obstacles, walls, passable walls, paths,
    /// gaps, jump links, and targets but the cursor (moved with [`Simulation::move_target`]).
    pub fn differs_from(&self, scene: &Scene) -> bool {
        differs(self.world(), scene)
    }

    /// Puts into the running world what `scene` changes that needs no reset: its bounds,
    /// obstacles, walls, passable walls, paths, gaps, jump links and targets (but the cursor).
    /// Walls, gaps and links rebuild the navigation meshes as they are set; bounds and
    /// obstacles rebuild them here. Paths and links are set by name: a name added or gone
    /// needs a reset, as do the scene's groups, seed and flow fields (whose painted data an
    /// editor puts in through [`Simulation::world_mut`]). Counted as one world edit.
    pub fn follow_scene(&mut self, scene: &Scene) {
        let world = self.world_mut();
        let moved = world.bounds != scene.bounds || world.obstacles != scene.obstacles;
        world.bounds = scene.bounds;
        world.obstacles.clone_from(&scene.obstacles);
        if moved {
            // A level that can no longer have a mesh drops it: its agents' routes say so
            // ("no navigation mesh for this radius").
            let _ = world.rebuild_navigation();
        }
        if world.walls() != scene.walls.as_slice() {
            // Rebuilds the wall index (and the navigation meshes), so only when the walls
            // changed.
            world.set_walls(scene.walls.clone());
        }
        world.set_passable_walls(scene.passable_walls);
        for (name, path) in &scene.paths {
            world.set_path(name, path.clone());
        }
        if world.gaps() != scene.gaps.as_slice() {
            world.set_gaps(scene.gaps.clone());
        }
        for (name, link) in &scene.jump_links {
            world.set_jump_link(name, *link);
        }
        for (name, position) in &scene.targets {
            if name != "cursor" {
                world.set_target(name, *position);
            }
        }
    }

    /// Swaps `program` with `params` in for group `group` (a graph edited while the scene
    /// runs), its agents kept where they are and given `vehicle`'s limits and `turning`
    /// (switching independent facing on starts the facing along the heading). Refused, with
    /// nothing changed, as [`Simulation::set_program`] refuses; otherwise the names the
    /// program reads that the world lacks.
    pub fn swap_program(
        &mut self,
        group: usize,
        (program, params): (Arc<Program>, ParamValues),
        (vehicle, turning): (VehicleParams, Turning),
    ) -> Result<Vec<BindError>, TooMuchWork> {
        let errors = self.set_program(group, program, params)?;
        let agents = self.groups().get(group).map(|g| g.agents.clone());
        for agent in agents
            .and_then(|a| self.vehicles_mut().get_mut(a))
            .into_iter()
            .flatten()
        {
            agent.mass = vehicle.mass;
            agent.max_force = vehicle.max_force;
            agent.max_speed = vehicle.max_speed;
            agent.radius = vehicle.radius;
            if turning != agent.turning {
                let facing = agent.facing();
                agent.turning = turning;
                agent.orientation = facing;
                if !turning.independent_facing {
                    agent.angular_velocity = 0.0;
                }
            }
        }
        Ok(errors)
    }
}

/// Whether `world` differs from `scene` in what [`Simulation::follow_scene`] puts into it.
fn differs(world: &World, scene: &Scene) -> bool {
    world.bounds != scene.bounds
        || world.obstacles != scene.obstacles
        || world.walls() != scene.walls.as_slice()
        || world.passable_walls() != scene.passable_walls
        || world.gaps() != scene.gaps.as_slice()
        || (scene.paths.iter()).any(|(name, path)| world.path(name) != Some(path))
        || (scene.jump_links.iter()).any(|(name, link)| world.jump_link(name) != Some(link))
        || (scene.targets.iter())
            .any(|(name, at)| name != "cursor" && world.target(name) != Some(*at))
}
