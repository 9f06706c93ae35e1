//! The select tool: pick agents and scene items, drag targets, obstacles, path points, wall
//! and gap corners, jump-link ends, and whole walls, gaps and links; delete the selected item.

use egui::{Pos2, Rect};
use glam::Vec2;
use graph_runtime::WallIndex;

use super::super::SceneDocument;
use super::{Item, LinkEnd};

/// Screen points within which a click picks an item.
pub(super) const PICK_DISTANCE: f32 = 8.0;

impl super::super::Preview {
    /// The scene item under screen point `at` (targets, then path points, wall corners,
    /// obstacles, and last wall segments).
    pub fn pick_item(&self, document: &SceneDocument, screen: Rect, at: Pos2) -> Option<Item> {
        let scene = &document.scene;
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
        for (index, wall) in scene.walls.iter().enumerate() {
            if let Some(corner) = wall.points.iter().position(|p| near(*p)) {
                return Some(Item::Wall(index, Some(corner)));
            }
        }
        for (name, link) in &scene.jump_links {
            for (end, point) in [(LinkEnd::TakeOff, link.from), (LinkEnd::Landing, link.to)] {
                if near(point) {
                    return Some(Item::JumpLink(name.clone(), Some(end)));
                }
            }
        }
        for (index, gap) in scene.gaps.iter().enumerate() {
            if let Some(corner) = gap.points.iter().position(|p| near(*p)) {
                return Some(Item::Gap(index, Some(corner)));
            }
        }
        let reach = PICK_DISTANCE / self.view.zoom;
        if let Some((name, _)) = scene.jump_links.iter().find(|(_, link)| {
            graph_runtime::WallIndex::new(&[graph_runtime::Wall::polyline(vec![
                link.from, link.to,
            ])])
            .nearest(world, reach)
            .is_some()
        }) {
            return Some(Item::JumpLink(name.clone(), None));
        }
        if let Some(index) = scene
            .obstacles
            .iter()
            .position(|o| o.center.distance(world) <= o.radius.max(reach))
        {
            return Some(Item::Obstacle(index));
        }
        if let Some(index) = scene.walls.iter().position(|w| {
            WallIndex::new(std::slice::from_ref(w))
                .nearest(world, reach)
                .is_some()
        }) {
            return Some(Item::Wall(index, None));
        }
        scene
            .gaps
            .iter()
            .position(|gap| gap.contains(world))
            .map(|index| Item::Gap(index, None))
    }

    /// The agent drawn under screen point `at`, the nearest if several: an agent in the air
    /// where it is drawn, lifted above its shadow.
    /// None while the GPU runs the agents: the CPU's are not where they are drawn.
    pub fn pick_agent(&self, screen: Rect, at: Pos2) -> Option<usize> {
        if self.gpu.is_on() {
            return None;
        }
        let scene = self.host.view()?;
        let lift = |agent: usize| {
            scene
                .airborne
                .iter()
                .find(|(a, _)| *a == agent)
                .map_or(egui::Vec2::ZERO, |(_, height)| {
                    super::super::view::lifted(&self.view, *height)
                })
        };
        scene
            .vehicles
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let drawn = self.view.to_screen(screen, v.position) + lift(i);
                (i, drawn.distance(at), v.radius * self.view.zoom)
            })
            .filter(|(_, distance, radius)| *distance <= radius.max(4.0) + 4.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _, _)| i)
    }

    /// A click of the select tool: an agent, else an item, else nothing.
    pub fn select_at(&mut self, document: &mut SceneDocument, screen: Rect, at: Pos2) {
        if let Some(agent) = self.pick_agent(screen, at) {
            self.host.selected_agent = Some(agent);
        } else if let Some(item) = self.pick_item(document, screen, at) {
            self.selected_item = Some(item);
        } else {
            self.host.selected_agent = None;
            self.selected_item = None;
        }
    }

    /// Moves `item` to world point `to`.
    pub fn move_item(&mut self, document: &mut SceneDocument, item: &Item, to: Vec2) {
        let scene = &mut document.scene;
        let point = match item {
            Item::Target(name) => scene.targets.get_mut(name),
            Item::Obstacle(index) => scene.obstacles.get_mut(*index).map(|o| &mut o.center),
            Item::Path(name, Some(point)) => scene
                .paths
                .get_mut(name)
                .and_then(|p| p.points.get_mut(*point)),
            Item::Wall(index, Some(corner)) => scene
                .walls
                .get_mut(*index)
                .and_then(|w| w.points.get_mut(*corner)),
            Item::Gap(index, Some(corner)) => scene
                .gaps
                .get_mut(*index)
                .and_then(|g| g.points.get_mut(*corner)),
            Item::JumpLink(name, Some(end)) => scene
                .jump_links
                .get_mut(name)
                .map(|link| end.point_mut(link)),
            Item::Path(_, None)
            | Item::Wall(_, None)
            | Item::Gap(_, None)
            | Item::JumpLink(_, None) => None,
        };
        if let Some(point) = point {
            *point = to;
        }
    }

    /// Moves every point of a whole path or wall (`item` without a point) by `by`.
    pub fn shift_item(&mut self, document: &mut SceneDocument, item: &Item, by: Vec2) {
        let scene = &mut document.scene;
        if let Item::JumpLink(name, None) = item
            && let Some(link) = scene.jump_links.get_mut(name)
        {
            link.from += by;
            link.to += by;
            return;
        }
        let points = match item {
            Item::Path(name, None) => scene.paths.get_mut(name).map(|p| &mut p.points),
            Item::Wall(index, None) => scene.walls.get_mut(*index).map(|w| &mut w.points),
            Item::Gap(index, None) => scene.gaps.get_mut(*index).map(|g| &mut g.points),
            _ => None,
        };
        for point in points.into_iter().flatten() {
            *point += by;
        }
    }

    /// Deletes the selected item (an obstacle, a path point, a wall or gap corner, a wall, a
    /// gap, a jump link, a target); a wall left with fewer than two corners goes too, and a
    /// gap left with fewer than three.
    pub fn delete_selected(&mut self, document: &mut SceneDocument) {
        let scene = &mut document.scene;
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
            Some(Item::Wall(index, corner)) => {
                let Some(wall) = scene.walls.get_mut(index) else {
                    return;
                };
                if let Some(corner) = corner.filter(|c| *c < wall.points.len()) {
                    wall.points.remove(corner);
                }
                if corner.is_none() || wall.points.len() < 2 {
                    scene.walls.remove(index);
                    // Later walls move down one place: the drawn one is finished.
                    self.gestures.wall_draft = None;
                }
            }
            Some(Item::Gap(index, corner)) => {
                let Some(gap) = scene.gaps.get_mut(index) else {
                    return;
                };
                if let Some(corner) = corner.filter(|c| *c < gap.points.len()) {
                    gap.points.remove(corner);
                }
                if corner.is_none() || gap.points.len() < 3 {
                    scene.gaps.remove(index);
                }
            }
            Some(Item::JumpLink(name, _)) => {
                scene.jump_links.remove(&name);
            }
            Some(Item::Target(name)) => {
                scene.targets.remove(&name);
            }
            _ => {}
        }
    }
}
