//! The scene tools of the preview, one file each: select (pick and drag), add target, add
//! obstacle, draw path, draw wall, draw gap, add jump link and paint field. Each changes only
//! the scene document; the host applies the change to the running world once per frame.

use super::super::SceneDocument;
use glam::Vec2;

mod gap;
mod jump_link;
mod obstacle;
mod paint;
mod path;
mod select;
mod target;
mod wall;

pub use jump_link::LinkEnd;
pub use paint::PaintSettings;
pub use target::CURSOR;
pub use wall::WallDraft;

/// What the pointer is in the middle of in the viewport, kept between frames until the
/// gesture ends (a release, a closing click, Enter or Escape, another tool): none of it is in
/// the scene until then.
#[derive(Debug, Default)]
pub(super) struct Gestures {
    /// The scene item being dragged.
    pub dragging: Option<Item>,
    /// Where the drag grabbed the item, relative to it (world).
    pub drag_anchor: Option<Vec2>,
    /// The wall being drawn.
    pub wall_draft: Option<WallDraft>,
    /// The corners of the gap being drawn.
    pub gap_draft: Vec<Vec2>,
    /// The take-off point of the jump link being placed.
    pub link_draft: Option<Vec2>,
    /// The end of the paint stroke so far (world).
    pub last_stroke: Option<Vec2>,
    /// Where the viewport's context menu was opened (world) and the item there.
    pub context: Option<(Vec2, Option<Item>)>,
}

/// What the scene tools do on a click in the viewport.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Select agents and scene items, drag targets, obstacles, path points and wall corners.
    #[default]
    Select,
    /// Click to add a named target.
    AddTarget,
    /// Click to add an obstacle.
    AddObstacle,
    /// Click to add points to the selected path (or a new one).
    DrawPath,
    /// Click to add corners to a new wall; click its first corner to close it.
    DrawWall,
    /// Click to add corners to a new gap; click its first corner (or Enter) to close it.
    DrawGap,
    /// Click the take-off point, then the landing point, of a new jump link.
    AddJumpLink,
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
    /// A gap by index (and one of its corners).
    Gap(usize, Option<usize>),
    /// A jump link by name (and one of its ends).
    JumpLink(String, Option<LinkEnd>),
}

impl Tool {
    /// What the tool does, in one line (shown while nothing is selected).
    pub fn hint(self) -> &'static str {
        match self {
            Self::Select => {
                "Click an agent or a scene item; drag to move; right-click to add a target"
            }
            Self::AddTarget => "Click to add a named target",
            Self::AddObstacle => "Click to add an obstacle",
            Self::DrawPath => "Click to add points to a new path",
            Self::DrawWall => "Click to add corners; click the first to close; Enter or Esc ends",
            Self::DrawGap => {
                "Click to add the gap's corners; click the first or press Enter to close; Esc drops it"
            }
            Self::AddJumpLink => "Click the take-off point, then the landing point",
            Self::PaintField => "Drag to paint the field with the brush",
        }
    }
}

impl Item {
    /// Whether the item (and its point, corner or end) is in `scene`: an undo, a reload or
    /// another panel may have taken it away.
    pub fn is_in(&self, scene: &graph_runtime::Scene) -> bool {
        let has = |points: &[Vec2], point: &Option<usize>| point.is_none_or(|p| p < points.len());
        match self {
            Self::Target(name) => scene.targets.contains_key(name),
            Self::Obstacle(index) => *index < scene.obstacles.len(),
            Self::Path(name, point) => scene.paths.get(name).is_some_and(|p| has(&p.points, point)),
            Self::Wall(index, corner) => scene
                .walls
                .get(*index)
                .is_some_and(|w| has(&w.points, corner)),
            Self::Gap(index, corner) => scene
                .gaps
                .get(*index)
                .is_some_and(|g| has(&g.points, corner)),
            Self::JumpLink(name, _) => scene.jump_links.contains_key(name),
        }
    }

    /// The item in words, for menus and tooltips: `target "goal"`, `obstacle 2`.
    pub fn describe(&self) -> String {
        match self {
            Self::Target(name) => format!("target \"{name}\""),
            Self::Obstacle(index) => format!("obstacle {}", index + 1),
            Self::Path(name, Some(point)) => format!("point {} of path \"{name}\"", point + 1),
            Self::Path(name, None) => format!("path \"{name}\""),
            Self::Wall(index, Some(corner)) => {
                format!("corner {} of wall {}", corner + 1, index + 1)
            }
            Self::Wall(index, None) => format!("wall {}", index + 1),
            Self::Gap(index, Some(corner)) => {
                format!("corner {} of gap {}", corner + 1, index + 1)
            }
            Self::Gap(index, None) => format!("gap {}", index + 1),
            Self::JumpLink(name, Some(end)) => {
                format!("{} point of jump link \"{name}\"", end.describe())
            }
            Self::JumpLink(name, None) => format!("jump link \"{name}\""),
        }
    }
}

impl super::Preview {
    /// A click of the current tool at world point `at`: asks for its edit.
    pub fn click_tool(&mut self, document: &mut SceneDocument, at: glam::Vec2) {
        match self.tool {
            Tool::AddTarget => self.push_edit(super::SceneEdit::AddTarget(at)),
            Tool::AddObstacle => self.push_edit(super::SceneEdit::AddObstacle(at)),
            Tool::DrawPath => self.push_edit(super::SceneEdit::AddPathPoint(at)),
            Tool::DrawWall => self.push_edit(self.wall_click(document, at)),
            Tool::DrawGap => self.push_edit(self.gap_click(at)),
            Tool::AddJumpLink => self.link_click(at),
            Tool::Select | Tool::PaintField => {}
        }
    }
}
