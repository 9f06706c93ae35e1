//! A headless Bevy app for the tests: Bevy's minimal plugins from the sub-crates, no window.

use std::path::Path;
use std::time::{Duration, Instant};

use bevy_app::{App, TaskPoolPlugin};
use bevy_asset::{AssetPlugin, AssetServer, Assets, Handle, LoadState};
use bevy_ecs::entity::Entity;
use bevy_steergraph::{SteerScene, SteergraphPlugin, spawn_scene};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};

/// Longest a test waits for the asset server or the file watcher, on a loaded 2-core machine.
pub const PATIENCE: Duration = Duration::from_mins(1);

/// An app with the task pools, time, assets read from `asset_root`, and the plugin; time
/// stands still until [`run_ticks`] advances it.
pub fn headless_app(asset_root: &Path) -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        AssetPlugin {
            file_path: asset_root.display().to_string(),
            ..Default::default()
        },
        SteergraphPlugin::default(),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    app
}

/// Updates the app until `done` holds, sleeping a little between updates; panics after
/// [`PATIENCE`] with `what`.
pub fn update_until(app: &mut App, what: &str, mut done: impl FnMut(&mut App) -> bool) {
    let start = Instant::now();
    loop {
        app.update();
        if done(app) {
            return;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "gave up after {PATIENCE:?} waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Updates until the asset and everything it depends on has loaded; panics with the loader's
/// error if it failed.
pub fn wait_for_load<A: bevy_asset::Asset>(app: &mut App, handle: &Handle<A>) {
    update_until(app, "the asset to load", |app| {
        let server = app.world().resource::<AssetServer>();
        if let LoadState::Failed(error) = server.load_state(handle) {
            panic!("{error}");
        }
        server.is_loaded_with_dependencies(handle)
    });
}

/// Advances time by exactly one fixed timestep per update, so each update runs exactly one
/// `FixedUpdate`, until the plugin has stepped `ticks` ticks in all.
pub fn run_ticks(app: &mut App, ticks: u64) {
    let timestep = app.world().resource::<Time<Fixed>>().timestep();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(timestep));
    let mut updates = 0;
    while app.world().resource::<bevy_steergraph::SteerClock>().ticks < ticks {
        app.update();
        updates += 1;
        assert!(updates <= 2 * ticks + 10, "the fixed schedule does not run");
    }
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
}

/// The scene file `scene` of `root` loaded and spawned in a headless app: the app and the
/// agents' entities in agent order.
pub fn spawn(root: &Path, scene: &str) -> (App, Vec<Entity>) {
    let mut app = headless_app(root);
    let handle: Handle<SteerScene> = app.world().resource::<AssetServer>().load(scene.to_owned());
    wait_for_load(&mut app, &handle);
    let scene = app
        .world()
        .resource::<Assets<SteerScene>>()
        .get(&handle)
        .cloned()
        .expect("loaded");
    let entities = {
        let mut commands = app.world_mut().commands();
        spawn_scene(&mut commands, &scene)
    };
    app.world_mut().flush();
    (app, entities)
}
