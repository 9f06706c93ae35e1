//! The navigation a scene needs: a mesh for the radius of each group whose graph navigates (has
//! a Navigate node), built into a world, the same whichever driver runs the scene.

use super::{SceneAssets, SceneError};
use crate::World;

impl SceneAssets {
    /// The agent radii of the groups whose graphs navigate, ascending and each once, with the
    /// first such group of each (groups whose graph does not compile are left out: running
    /// the scene reports them).
    pub fn navigation_radii(&self) -> Vec<(f32, usize)> {
        let mut radii = Vec::new();
        for (index, group) in self.scene.groups.iter().enumerate() {
            let Some(graph) = self.graphs.get(&group.graph) else {
                continue;
            };
            let Ok(program) = crate::compile_with(graph, &group.graph, &self.graphs) else {
                continue;
            };
            if !program.navigates() {
                continue;
            }
            let radius = match group.vehicle {
                Some(vehicle) => vehicle.radius,
                None => match program.parameters(&group.parameters) {
                    Ok(params) => program.vehicle(&params).radius,
                    Err(_) => continue,
                },
            };
            radii.push((radius, index));
        }
        radii.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        radii.dedup_by(|a, b| a.0 == b.0);
        radii
    }

    /// Builds into `world` (the scene's, [`World::from_scene`]) the navigation mesh of each
    /// radius [`SceneAssets::navigation_radii`] lists: what a [`crate::Simulation`] of the
    /// scene builds, for a game that runs the scene's agents itself ([`crate::Crowd`], the C
    /// interface, the Bevy plugin).
    pub fn build_navigation(&self, world: &mut World) -> Result<(), SceneError> {
        for (radius, index) in self.navigation_radii() {
            world
                .build_navigation(radius)
                .map_err(|error| SceneError::Navigation {
                    origin: self.origin.clone(),
                    group: self.scene.groups[index].name.clone(),
                    error,
                })?;
        }
        Ok(())
    }
}
