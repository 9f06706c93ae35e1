//! Scenes: the test world a graph runs in, as stored in `.scene.ron` files.

mod assets;
mod document;

pub use assets::{SceneAssets, SceneError};
pub use document::{AgentGroup, AgentSpawn, Area, FlowFieldSource, Scene, Spawn};
