//! The boids preset in a Bevy app: load the scene as an asset, spawn its agents, and let the
//! plugin steer them in `FixedUpdate` while the game reads their `Transform`s. Headless (it
//! prints instead of drawing) so it runs anywhere; in a game, add your sprites or meshes to
//! the entities `spawn_scene` returns. Save `presets/boids.graph.ron` from the editor while it
//! runs and the flock changes behavior where it flies.
//!
//! `cargo run --example headless_boids` (in `integrations/bevy/`).

use std::time::Duration;

use bevy_app::{App, AppExit, ScheduleRunnerPlugin, Startup, TaskPoolPlugin, Update};
use bevy_asset::{AssetPlugin, AssetServer, Assets, Handle};
use bevy_ecs::prelude::*;
use bevy_steergraph::{Plane, SteerAgent, SteerClock, SteerScene, SteergraphPlugin, spawn_scene};
use bevy_time::TimePlugin;
use bevy_transform::components::Transform;

/// The folder assets are read from, relative to this crate.
const ASSETS: &str = "../../presets";
/// The scene to run, inside [`ASSETS`].
const SCENE: &str = "boids.scene.ron";
/// How long to run, in seconds of game time.
const RUN_SECONDS: u64 = 5;
/// Frames per second of the app's loop (the plugin steps agents at 60 Hz whatever this is).
const FRAMES_PER_SECOND: f64 = 60.0;

/// The scene being loaded, and the agents once spawned.
#[derive(Resource)]
struct Level {
    scene: Handle<SteerScene>,
    agents: Vec<Entity>,
}

fn main() {
    App::new()
        .add_plugins((
            TaskPoolPlugin::default(),
            TimePlugin,
            ScheduleRunnerPlugin::run_loop(Duration::from_secs_f64(1.0 / FRAMES_PER_SECOND)),
            AssetPlugin {
                file_path: ASSETS.to_owned(),
                ..Default::default()
            },
            // A 3D game on the ground plane; `Plane::XY` for 2D.
            SteergraphPlugin {
                plane: Plane::XZ,
                ..Default::default()
            },
        ))
        .add_systems(Startup, load_level)
        .add_systems(Update, (spawn_when_loaded, report))
        .run();
}

fn load_level(mut commands: Commands, server: Res<AssetServer>) {
    commands.insert_resource(Level {
        scene: server.load(SCENE),
        agents: Vec::new(),
    });
}

/// Spawns the scene's agents once it has loaded (with its graphs and flow fields).
fn spawn_when_loaded(
    mut commands: Commands,
    mut level: ResMut<Level>,
    scenes: Res<Assets<SteerScene>>,
) {
    if !level.agents.is_empty() {
        return;
    }
    if let Some(scene) = scenes.get(&level.scene) {
        level.agents = spawn_scene(&mut commands, scene);
        println!("{SCENE}: {} agents", level.agents.len());
    }
}

/// Once a second, where the first agent is; stops after [`RUN_SECONDS`].
fn report(
    level: Res<Level>,
    clock: Res<SteerClock>,
    agents: Query<(&SteerAgent, &Transform)>,
    mut last_second: Local<u64>,
    mut exit: MessageWriter<AppExit>,
) {
    let second = clock.ticks / 60;
    if second == *last_second {
        return;
    }
    *last_second = second;
    if let Some(Ok((agent, transform))) = level.agents.first().map(|&entity| agents.get(entity)) {
        println!(
            "t = {second} s: agent 0 at {:.2} (speed {:.2} units/s)",
            transform.translation,
            agent.vehicle.velocity.length()
        );
    }
    if second >= RUN_SECONDS {
        exit.write(AppExit::Success);
    }
}
