//! The draw-wall tool: each click adds a corner to the wall being drawn (a wall enters the
//! scene with its second corner, so the scene never holds a one-point wall); a click on the
//! first corner of a wall of three or more corners closes it into a polygon; Enter, Escape or
//! another tool finishes it.

use glam::Vec2;
use graph_runtime::Wall;

use super::super::SceneDocument;
use super::super::SceneEdit;
use super::Item;
use super::select::PICK_DISTANCE;

/// The wall being drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WallDraft {
    /// Its first corner, not in the scene until the second click.
    Start(Vec2),
    /// The wall at this index of the scene's walls.
    Wall(usize),
}

impl super::super::Preview {
    /// The wall being drawn, if it is still there to draw (an undo or a delete may have
    /// taken it away, or closed it).
    pub fn wall_draft(&self, document: &SceneDocument) -> Option<WallDraft> {
        match self.gestures.wall_draft? {
            WallDraft::Wall(index) => document
                .scene
                .walls
                .get(index)
                .filter(|wall| !wall.closed && wall.points.len() >= 2)
                .map(|_| WallDraft::Wall(index)),
            start @ WallDraft::Start(_) => Some(start),
        }
    }

    /// The edit a click of the wall tool at world point `at` asks for: close the wall when
    /// the click is on the first corner of a wall of three or more, else add a corner.
    pub fn wall_click(&self, document: &SceneDocument, at: Vec2) -> SceneEdit {
        let reach = PICK_DISTANCE / self.view.zoom;
        if let Some(WallDraft::Wall(index)) = self.wall_draft(document)
            && let Some(wall) = document.scene.walls.get(index)
            && wall.points.len() >= 3
            && wall
                .points
                .first()
                .is_some_and(|first| first.distance(at) <= reach)
        {
            return SceneEdit::CloseWall;
        }
        SceneEdit::AddWallPoint(at)
    }

    /// Adds corner `at` to the wall being drawn, or starts a new wall there.
    pub fn add_wall_point(&mut self, document: &mut SceneDocument, at: Vec2) {
        let draft = self.wall_draft(document);
        let walls = &mut document.scene.walls;
        match draft {
            Some(WallDraft::Wall(index)) => {
                if let Some(wall) = walls.get_mut(index) {
                    wall.points.push(at);
                    self.selected_item = Some(Item::Wall(index, Some(wall.points.len() - 1)));
                }
            }
            Some(WallDraft::Start(first)) => {
                walls.push(Wall::polyline(vec![first, at]));
                let index = walls.len() - 1;
                self.gestures.wall_draft = Some(WallDraft::Wall(index));
                self.selected_item = Some(Item::Wall(index, Some(1)));
            }
            None => {
                self.gestures.wall_draft = Some(WallDraft::Start(at));
                self.selected_item = None;
            }
        }
    }

    /// Closes the wall being drawn into a polygon (three corners or more) and finishes it.
    pub fn close_wall(&mut self, document: &mut SceneDocument) {
        if let Some(WallDraft::Wall(index)) = self.wall_draft(document)
            && let Some(wall) = document.scene.walls.get_mut(index)
            && wall.points.len() >= 3
        {
            wall.closed = true;
            self.selected_item = Some(Item::Wall(index, None));
            self.gestures.wall_draft = None;
        }
    }

    /// Finishes the wall being drawn as it is (a lone first corner is dropped).
    pub fn finish_wall(&mut self) {
        self.gestures.wall_draft = None;
    }

    /// The last corner of the wall being drawn, for the rubber band to the pointer.
    pub fn wall_draft_end(&self, document: &SceneDocument) -> Option<Vec2> {
        match self.wall_draft(document)? {
            WallDraft::Start(first) => Some(first),
            WallDraft::Wall(index) => document
                .scene
                .walls
                .get(index)
                .and_then(|w| w.points.last().copied()),
        }
    }

    /// The wall being drawn: its lone first corner, and a rubber band from its last corner
    /// to the pointer.
    pub(in super::super) fn paint_wall_draft(
        &self,
        document: &SceneDocument,
        painter: &egui::Painter,
        screen: egui::Rect,
        response: &egui::Response,
    ) {
        if self.tool != super::Tool::DrawWall {
            return;
        }
        let Some(end) = self.wall_draft_end(document) else {
            return;
        };
        let color = egui::Color32::from_rgb(200, 190, 170);
        let end = self.view.to_screen(screen, end);
        painter.circle_filled(end, 3.0, color);
        if let Some(hover) = response.hover_pos() {
            painter.line_segment([end, hover], egui::Stroke::new(1.0, color));
        }
    }
}
