//! What agents move in: bounds, obstacles, walls, paths, flow fields and named targets.

mod flow_edit;
mod flow_field;
mod jump;
mod named;
mod obstacle;
mod path;
mod rect;
mod segment;
mod solid;
mod surroundings;
mod wall;
mod wall_grid;
mod wall_index;

pub use flow_edit::{Brush, StrokeKind};
pub use flow_field::FlowField;
pub(crate) use flow_field::FlowFieldData;
pub(crate) use jump::GapIndex;
pub use jump::{Gap, JumpLink};
pub use obstacle::Obstacle;
pub use path::{Path, Projection};
pub use rect::Rect;
pub(crate) use segment::{
    EdgeTurns, SegmentTurns, facing_normal, has_direction, nearest_on_segment,
};
pub use solid::WALL_SKIN;
pub use surroundings::World;
pub use wall::Wall;
pub use wall_index::{WallHit, WallIndex, WallPoint};
