//! The add-obstacle tool: a click adds a circle obstacle there and selects it.

use glam::Vec2;
use graph_runtime::Obstacle;

use super::super::SceneDocument;
use super::Item;

/// Radius of a new obstacle (units).
const NEW_RADIUS: f32 = 3.0;

impl super::super::Preview {
    /// Adds an obstacle centred on `at` and selects it.
    pub fn add_obstacle(&mut self, document: &mut SceneDocument, at: Vec2) {
        let obstacles = &mut document.scene.obstacles;
        obstacles.push(Obstacle {
            center: at,
            radius: NEW_RADIUS,
        });
        self.selected_item = Some(Item::Obstacle(obstacles.len() - 1));
    }
}
