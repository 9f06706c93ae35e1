//! Scenes: the test world a graph runs in, as stored in `.scene.ron` files.

mod assets;
mod document;
mod navigation;
mod subgraphs;
mod validate;
mod warning;

#[cfg(feature = "tune")]
pub(crate) use assets::leads_out;
pub(crate) use assets::locate;
pub use assets::{FileAccess, SceneAssets, SceneError, check_inside_scene_folder};
pub use document::{AgentGroup, AgentSpawn, Area, FlowFieldSource, OwnPoints, Scene, Spawn};
pub use subgraphs::{SubgraphWalk, Subgraphs, WantedSubgraph, load_subgraphs, subgraph_uses};
pub(crate) use validate::limits_problems;
pub use warning::SceneWarning;
