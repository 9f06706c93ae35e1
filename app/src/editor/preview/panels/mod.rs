//! The preview's panels: the toolbar and its timeline, the selected item's settings, the
//! flow-field panel, the scene panel with its group editor, the agent inspector and the stuck
//! panel.

mod agent;
mod avoidance;
mod field;
mod group;
mod scene;
mod selected;
mod stuck;
mod timeline;
mod toolbar;

pub use group::MAX_PREVIEW_AGENTS;
pub use timeline::TimelineState;
