//! Saving a graph while the game runs: a broken save keeps the last good program (and says
//! where the problem is), a good save takes over where the agent stands.

use std::path::Path;
use std::sync::Arc;

use bevy_app::{App, Update};
use bevy_asset::{AssetLoadFailedEvent, AssetServer, Assets, Handle};
use bevy_ecs::entity::Entity;
use bevy_ecs::message::MessageReader;
use bevy_ecs::resource::Resource;
use bevy_ecs::system::ResMut;
use bevy_steergraph::{AgentBrain, SteerAgent, SteerGraph};
use glam::Vec2;
use graph_runtime::{Program, Vehicle, write_atomically};

use crate::common::{headless_app, run_ticks, update_until, wait_for_load};

const GRAPH: &str = "walker.graph.ron";
/// The walker's top speed (units/s). Seek steers by `desired - velocity` (mass 1, under
/// the 8 units/s² limit), so each tick takes `DT` of the gap to the desired velocity
/// `±MAX_SPEED`: after `n` ticks the gap is the first gap times `(1 - DT)^n`.
const MAX_SPEED: f32 = 4.0;
const DT: f32 = 1.0 / 60.0;

/// Velocity along x after `ticks` ticks of seeking `desired` from velocity `from`.
fn seek_velocity(from: f32, desired: f32, ticks: i32) -> f32 {
    desired + (from - desired) * (1.0 - DT).powi(ticks)
}

/// A graph seeking a far point on the x axis (`x` = +100 or -100).
fn seek_graph(x: f32) -> String {
    format!(
        r#"(
    format: "steergraph.graph",
    version: 1,
    vehicle: (mass: 1.0, max_force: 8.0, max_speed: {MAX_SPEED:.1}, radius: 0.5),
    nodes: {{1: Seek(target: Point({x:.1}, 0.0)), 2: Output(input: 1)}},
)
"#
    )
}

/// A save with a typo in a node's name (line 5).
const TYPO: &str = r#"(
    format: "steergraph.graph",
    version: 1,
    vehicle: (mass: 1.0, max_force: 8.0, max_speed: 4.0, radius: 0.5),
    nodes: {1: Sek(target: Point(-100.0, 0.0)), 2: Output(input: 1)},
)
"#;

/// A save that parses but does not compile: the Output is linked to a node that is not there.
const DANGLING: &str = r#"(
    format: "steergraph.graph",
    version: 1,
    nodes: {1: Seek(target: Point(-100.0, 0.0)), 2: Output(input: 7)},
)
"#;

/// Every failed graph load the app reported, as Bevy's error text.
#[derive(Resource, Default)]
struct Failures(Vec<String>);

fn record_failures(
    mut failures: MessageReader<AssetLoadFailedEvent<SteerGraph>>,
    mut seen: ResMut<Failures>,
) {
    seen.0
        .extend(failures.read().map(|failure| failure.error.to_string()));
}

fn agent(app: &App, entity: Entity) -> (Vehicle, Arc<Program>) {
    let world = app.world();
    let vehicle = world.get::<SteerAgent>(entity).expect("agent").vehicle;
    let program = world
        .get::<AgentBrain>(entity)
        .expect("brain")
        .program()
        .clone();
    (vehicle, program)
}

/// Saves `text` as the editor does (temporary file, rename) and waits until the app has
/// reported a failed load whose error contains `expected`. (The file
/// watcher may report one save more than once, so the error of the previous save can still
/// arrive after this one is written: it is skipped, not taken for this one's.)
fn save_broken(app: &mut App, file: &Path, text: &str, expected: &str) {
    let before = app.world().resource::<Failures>().0.len();
    write_atomically(file, text).expect("write");
    let found = |app: &App| {
        app.world().resource::<Failures>().0[before..]
            .iter()
            .any(|error| error.contains(expected))
    };
    update_until(app, "the broken save's error", |app| found(app));
}

#[test]
fn a_saved_graph_takes_over_where_the_agent_stands_and_a_broken_one_does_not() {
    let folder = tempfile::tempdir().expect("temp dir");
    let file = folder.path().join(GRAPH);
    write_atomically(&file, seek_graph(100.0)).expect("write");

    let mut app = headless_app(folder.path());
    app.init_resource::<Failures>()
        .add_systems(Update, record_failures);
    let handle: Handle<SteerGraph> = app.world().resource::<AssetServer>().load(GRAPH);
    wait_for_load(&mut app, &handle);
    let params = {
        let graphs = app.world().resource::<Assets<SteerGraph>>();
        let program = &graphs.get(&handle).expect("loaded").program;
        program.vehicle(&program.default_parameters())
    };
    let entity = app
        .world_mut()
        .spawn(SteerAgent::new(
            handle.clone(),
            Vehicle::new(Vec2::ZERO, Vec2::ZERO, params),
            1,
            0,
        ))
        .id();

    // 1 s toward +x from rest: 4 (1 - (59/60)^60) = 2.5408 units/s.
    run_ticks(&mut app, 60);
    let (walker, first) = agent(&app, entity);
    let expected = seek_velocity(0.0, MAX_SPEED, 60);
    assert!(
        (walker.velocity.x - expected).abs() < 1e-3,
        "{walker:?}, expected {expected}"
    );
    assert!((expected - 2.5408).abs() < 1e-4);

    // A typo, then a dangling link: each logged with its place, while the agent keeps
    // walking right on the first program.
    // (`save_broken` waits for the error that names the place, and fails the test if it
    // never comes.)
    save_broken(&mut app, &file, TYPO, &format!("{GRAPH}:5:"));
    let dangling =
        format!("{GRAPH}: node #2 port `input`: linked to node #7, which does not exist");
    save_broken(&mut app, &file, DANGLING, &dangling);
    run_ticks(&mut app, 150);
    let (kept, program) = agent(&app, entity);
    assert!(
        Arc::ptr_eq(&program, &first),
        "a broken save replaced the program"
    );
    // 2.5 s of the same seek, uninterrupted: 4 (1 - (59/60)^150) = 3.678 units/s.
    let expected = seek_velocity(0.0, MAX_SPEED, 150);
    assert!(
        (kept.velocity.x - expected).abs() < 1e-3,
        "{kept:?}, expected {expected}"
    );

    // A good save seeking -x: wait (without ticking) until the asset holds the new program.
    write_atomically(&file, seek_graph(-100.0)).expect("write");
    update_until(&mut app, "the good save to load", |app| {
        let graphs = app.world().resource::<Assets<SteerGraph>>();
        graphs
            .get(&handle)
            .is_some_and(|graph| !Arc::ptr_eq(&graph.program, &first))
    });
    let (before_swap, _) = agent(&app, entity);
    assert_eq!(
        before_swap.position, kept.position,
        "the agent moved while no tick ran"
    );
    // One tick: the agent adopts the new program where it stands, with the velocity it had,
    // and starts braking: 3.678 + (-4 - 3.678) / 60 = 3.550 units/s.
    run_ticks(&mut app, 151);
    let (swapped, program) = agent(&app, entity);
    assert!(
        !Arc::ptr_eq(&program, &first),
        "the new program did not take over"
    );
    let expected = seek_velocity(kept.velocity.x, -MAX_SPEED, 1);
    assert!(
        (swapped.velocity.x - expected).abs() < 1e-5,
        "{swapped:?}, expected {expected}"
    );
    assert!(
        (swapped.position.x - (kept.position.x + swapped.velocity.x * DT)).abs() < 1e-5,
        "the swap moved the agent: {kept:?} -> {swapped:?}"
    );
    // 2 s later it walks left: -4 + 7.550 (59/60)^120 = -2.995 units/s.
    run_ticks(&mut app, 271);
    let (turned, _) = agent(&app, entity);
    let expected = seek_velocity(swapped.velocity.x, -MAX_SPEED, 120);
    assert!(
        (turned.velocity.x - expected).abs() < 1e-3,
        "{turned:?}, expected {expected}"
    );
    assert!(expected < -2.9);
}

#[test]
fn saving_a_subgraph_reloads_the_graph_that_uses_it() {
    let folder = tempfile::tempdir().expect("temp dir");
    let part = folder.path().join("seek_part.graph.ron");
    write_atomically(&part, seek_graph(100.0)).expect("write");
    write_atomically(
        &folder.path().join(GRAPH),
        "(format: \"steergraph.graph\", version: 1,\n nodes: {1: Subgraph(file: \"seek_part.graph.ron\"), 2: Output(input: 1)})\n",
    )
    .expect("write");
    let mut app = headless_app(folder.path());
    let handle: Handle<SteerGraph> = app.world().resource::<AssetServer>().load(GRAPH);
    wait_for_load(&mut app, &handle);
    let first = {
        let graphs = app.world().resource::<Assets<SteerGraph>>();
        Arc::clone(&graphs.get(&handle).expect("loaded").program)
    };
    // Only the subgraph's file is saved again: the user's graph reloads with it.
    write_atomically(&part, seek_graph(-100.0)).expect("write");
    update_until(&mut app, "the graph using the subgraph to reload", |app| {
        let graphs = app.world().resource::<Assets<SteerGraph>>();
        graphs
            .get(&handle)
            .is_some_and(|graph| !Arc::ptr_eq(&graph.program, &first))
    });
    let graphs = app.world().resource::<Assets<SteerGraph>>();
    let program = &graphs.get(&handle).expect("loaded").program;
    let world = graph_runtime::World::default();
    let mut crowd = graph_runtime::Crowd::new(
        (**program).clone(),
        &world,
        1,
        &std::collections::BTreeMap::new(),
    )
    .expect("binds");
    let body = Vehicle::new(Vec2::ZERO, Vec2::ZERO, crowd.vehicle_params());
    let mut forces = Vec::new();
    crowd.steer(&world, &[body], &[], DT, &mut forces);
    assert!(forces[0].x < 0.0, "the new subgraph seeks left: {forces:?}");
}
