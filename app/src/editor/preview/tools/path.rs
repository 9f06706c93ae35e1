//! The draw-path tool: a click appends a point to the selected path, or starts a new one.

use glam::Vec2;
use graph_runtime::Path as WorldPath;

use super::super::SceneDocument;
use super::Item;

/// Radius of a new path (units).
const NEW_RADIUS: f32 = 2.0;

impl super::super::Preview {
    /// Appends `at` to the selected path, or to a new path "path N".
    pub fn add_path_point(&mut self, document: &mut SceneDocument, at: Vec2) {
        let paths = &mut document.scene.paths;
        let name = match &self.selected_item {
            Some(Item::Path(name, _)) if paths.contains_key(name) => name.clone(),
            _ => {
                let name = (1..=paths.len() + 1)
                    .map(|i| format!("path {i}"))
                    .find(|n| !paths.contains_key(n))
                    .unwrap_or_default();
                paths.insert(
                    name.clone(),
                    WorldPath {
                        points: Vec::new(),
                        radius: NEW_RADIUS,
                        closed: false,
                    },
                );
                name
            }
        };
        if let Some(path) = paths.get_mut(&name) {
            path.points.push(at);
            self.selected_item = Some(Item::Path(name, Some(path.points.len() - 1)));
        }
    }
}
