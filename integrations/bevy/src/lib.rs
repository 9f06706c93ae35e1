//! Steergraph in Bevy: the editor's `.graph.ron`, `.scene.ron` and `.flow.ron` files as Bevy
//! assets, and entities steered by them in `FixedUpdate`, bit for bit as in the editor.
//!
//! - **Assets**: [`SteerGraph`] (the graph and its compiled program), [`SteerScene`] (a scene
//!   with its graphs and flow fields, checked as `steergraph simulate` checks it) and
//!   [`SteerFlowField`]. Load errors keep the runtime's places (`file:line:col`, node ids).
//! - **Agents**: put a [`SteerAgent`] on an entity (or [`spawn_scene`] a whole scene); the
//!   plugin steps it every fixed tick and writes its `Transform` in the [`Plane`] you chose.
//!   A [`SteerGoals`] beside it holds the agent's own goals and routes, which the game's
//!   pathfinder hands over.
//! - **Hot reload**: with the `file_watcher` feature (on by default), saving a graph swaps the
//!   program of every agent running it at the next tick, where it stands; a save that does not
//!   load or compile is logged and the last good program keeps running.
//!
//! Coordinates are the runtime's: 2D, y up, world units and seconds ([`Plane`] maps them onto
//! Bevy's space).
//!
//! # Examples
//!
//! ```no_run
//! use bevy_app::{App, Startup, TaskPoolPlugin, Update};
//! use bevy_asset::{AssetPlugin, AssetServer, Assets, Handle};
//! use bevy_ecs::prelude::*;
//! use bevy_steergraph::{spawn_scene, Plane, SteerScene, SteergraphPlugin};
//! use bevy_time::TimePlugin;
//!
//! #[derive(Resource)]
//! struct Level(Handle<SteerScene>, bool);
//!
//! App::new()
//!     .add_plugins((TaskPoolPlugin::default(), TimePlugin, AssetPlugin::default()))
//!     .add_plugins(SteergraphPlugin { plane: Plane::XZ, ..Default::default() })
//!     .add_systems(Startup, |mut commands: Commands, server: Res<AssetServer>| {
//!         commands.insert_resource(Level(server.load("boids.scene.ron"), false));
//!     })
//!     .add_systems(Update, |mut commands: Commands, mut level: ResMut<Level>, scenes: Res<Assets<SteerScene>>| {
//!         if let (false, Some(scene)) = (level.1, scenes.get(&level.0)) {
//!             spawn_scene(&mut commands, scene); // one entity per agent, with a Transform
//!             level.1 = true;
//!         }
//!     })
//!     .run();
//! ```

mod agent;
mod brain;
mod error;
mod flow_asset;
mod goals;
mod graph_asset;
mod jumps;
mod plane;
mod plugin;
mod read;
mod scene_asset;
mod settings;
mod spawn;
mod steer_world;
mod subgraphs;
mod systems;

pub use agent::SteerAgent;
pub use brain::AgentBrain;
pub use error::SteerAssetError;
pub use flow_asset::{FlowFieldLoader, SteerFlowField};
pub use goals::SteerGoals;
pub use graph_asset::{GraphLoader, SteerGraph};
pub use jumps::SteerJumps;
pub use plane::Plane;
pub use plugin::{SteerSystems, SteergraphPlugin};
pub use scene_asset::{SceneLoader, SteerScene};
pub use settings::{SteerClock, SteerSettings};
pub use spawn::spawn_scene;
pub use steer_world::SteerWorld;
