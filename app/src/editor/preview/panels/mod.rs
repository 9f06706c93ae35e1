//! The preview's panels: the toolbar and its timeline, the selected item's settings, the
//! flow-field panel, the scene panel with its group editor, and the agent inspector.

mod agent;
mod avoidance;
mod field;
mod group;
mod scene;
mod selected;
mod timeline;
mod toolbar;

pub use group::MAX_PREVIEW_AGENTS;
