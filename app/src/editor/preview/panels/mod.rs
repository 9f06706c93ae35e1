//! The preview's panels: the toolbar, the flow-field panel, the scene panel with its group
//! editor, and the agent inspector.

mod agent;
mod field;
mod group;
mod scene;
mod toolbar;

pub use group::MAX_PREVIEW_AGENTS;
