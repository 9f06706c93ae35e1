//! The scene tools of the preview, one file each: select (pick and drag), add obstacle, draw
//! path, draw wall and paint field. Each changes only the scene document; the host applies the change
//! to the running world once per frame.

mod obstacle;
mod paint;
mod path;
mod select;
mod wall;

pub use paint::PaintSettings;
pub use wall::WallDraft;

/// What the scene tools do on a click in the viewport.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Select agents and scene items, drag targets, obstacles, path points and wall corners.
    #[default]
    Select,
    /// Click to add an obstacle.
    AddObstacle,
    /// Click to add points to the selected path (or a new one).
    DrawPath,
    /// Click to add corners to a new wall; click its first corner to close it.
    DrawWall,
    /// Paint, erase or smooth the selected flow field with the brush.
    PaintField,
}

/// A selected or dragged scene item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A named target.
    Target(String),
    /// An obstacle by index.
    Obstacle(usize),
    /// A path (and one of its points).
    Path(String, Option<usize>),
    /// A wall by index (and one of its corners).
    Wall(usize, Option<usize>),
}

impl super::Preview {
    /// A click of the current tool at world point `at`: asks for its edit.
    pub fn click_tool(&mut self, at: glam::Vec2) {
        match self.tool {
            Tool::AddObstacle => self.push_edit(super::SceneEdit::AddObstacle(at)),
            Tool::DrawPath => self.push_edit(super::SceneEdit::AddPathPoint(at)),
            Tool::DrawWall => self.push_edit(self.wall_click(at)),
            Tool::Select | Tool::PaintField => {}
        }
    }
}
