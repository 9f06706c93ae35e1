//! The select tool: pick agents and scene items, drag targets, obstacles and path points,
//! delete the selected item.

use egui::{Pos2, Rect};
use glam::Vec2;

use super::Item;

/// Screen points within which a click picks an item.
const PICK_DISTANCE: f32 = 8.0;

impl super::super::Preview {
    /// The scene item under screen point `at` (targets, then path points, then obstacles).
    pub fn pick_item(&self, screen: Rect, at: Pos2) -> Option<Item> {
        let scene = &self.document.scene;
        let world = self.view.to_world(screen, at);
        let near = |p: Vec2| self.view.to_screen(screen, p).distance(at) <= PICK_DISTANCE;
        if let Some((name, _)) = scene
            .targets
            .iter()
            .find(|(name, p)| *name != "cursor" && near(**p))
        {
            return Some(Item::Target(name.clone()));
        }
        for (name, path) in &scene.paths {
            if let Some(index) = path.points.iter().position(|p| near(*p)) {
                return Some(Item::Path(name.clone(), Some(index)));
            }
        }
        scene
            .obstacles
            .iter()
            .position(|o| o.center.distance(world) <= o.radius.max(PICK_DISTANCE / self.view.zoom))
            .map(Item::Obstacle)
    }

    /// The agent under screen point `at`, the nearest if several.
    pub fn pick_agent(&self, screen: Rect, at: Pos2) -> Option<usize> {
        let scene = self.host.view()?;
        scene
            .vehicles
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let distance = self.view.to_screen(screen, v.position).distance(at);
                (i, distance, v.radius * self.view.zoom)
            })
            .filter(|(_, distance, radius)| *distance <= radius.max(4.0) + 4.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _, _)| i)
    }

    /// A click of the select tool: an agent, else an item, else nothing.
    pub fn select_at(&mut self, screen: Rect, at: Pos2) {
        if let Some(agent) = self.pick_agent(screen, at) {
            self.host.selected_agent = Some(agent);
        } else if let Some(item) = self.pick_item(screen, at) {
            self.selected_item = Some(item);
        } else {
            self.host.selected_agent = None;
            self.selected_item = None;
        }
    }

    /// Moves `item` to world point `to`.
    pub fn move_item(&mut self, item: &Item, to: Vec2) {
        let scene = &mut self.document.scene;
        let point = match item {
            Item::Target(name) => scene.targets.get_mut(name),
            Item::Obstacle(index) => scene.obstacles.get_mut(*index).map(|o| &mut o.center),
            Item::Path(name, Some(point)) => scene
                .paths
                .get_mut(name)
                .and_then(|p| p.points.get_mut(*point)),
            Item::Path(_, None) => None,
        };
        if let Some(point) = point {
            *point = to;
        }
    }

    /// Deletes the selected item (an obstacle, a path point, a target).
    pub fn delete_selected(&mut self) {
        let scene = &mut self.document.scene;
        match self.selected_item.take() {
            Some(Item::Obstacle(index)) if index < scene.obstacles.len() => {
                scene.obstacles.remove(index);
            }
            Some(Item::Path(name, point)) => {
                let Some(path) = scene.paths.get_mut(&name) else {
                    return;
                };
                if let Some(point) = point.filter(|p| *p < path.points.len()) {
                    path.points.remove(point);
                }
                if point.is_none() || path.points.is_empty() {
                    scene.paths.remove(&name);
                }
            }
            Some(Item::Target(name)) => {
                scene.targets.remove(&name);
            }
            _ => {}
        }
    }
}
