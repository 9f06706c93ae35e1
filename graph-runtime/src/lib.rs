//! Steergraph's runtime: steering-behavior graphs stored as RON, compiled into evaluators
//! that drive vehicles deterministically.
//!
//! Games depend on this crate alone (no editor, no GUI). The pieces:
//!
//! - **Data**: [`Graph`] (nodes, parameters, vehicle), [`Scene`] (world and agent groups) and
//!   [`FlowField`], each loaded from and saved to RON (format version [`FORMAT_VERSION`];
//!   see `FORMAT.md`).
//! - **Pipeline**: [`compile`] checks a graph and returns a [`Program`] or every
//!   [`CompileError`].
//! - **Evaluation**: [`Program::steer`] gives one agent's steering force from a [`Context`];
//!   [`Vehicle::step`] integrates it.
//! - **Simulation**: [`Simulation`] runs a whole scene, in parallel and bit-identically whatever
//!   the thread count.
//! - **Sweeps**: [`sweep::sweep`] runs a scene once per value of a graph parameter and
//!   reduces each run to the preview's metrics.
//! - **Hot reload** (feature `watch`): `AssetWatcher` hands back a freshly compiled
//!   `Program` when a graph file changes on disk; `FileWatcher` notices changes to any file.
//!
//! Conventions (`BEHAVIORS.md`, "Conventions", where every node's formula is written down): 2D, y up, world units and seconds; angles are degrees
//! in assets and radians inside; `side = forward.perp()` points left.
//!
//! # Examples
//!
//! Loading a graph and steering one vehicle towards a point:
//!
//! ```
//! use graph_runtime::*;
//!
//! let graph = Graph::from_ron(r#"(
//!     format: "steergraph.graph",
//!     version: 1,
//!     vehicle: (mass: 1.0, max_force: 8.0, max_speed: 4.0, radius: 0.5),
//!     nodes: {
//!         1: Arrival(target: Point(10.0, 0.0), slowing_distance: 3.0),
//!         2: Output(input: 1),
//!     },
//! )"#, "arrive.graph.ron")?;
//! let program = compile(&graph).expect("valid graph");
//! let params = program.default_parameters();
//! let world = World::default();
//! let (bindings, _) = Bindings::new(&program, &world, &TagTable::default());
//!
//! let mut vehicles = vec![Vehicle::new(glam::Vec2::ZERO, glam::Vec2::ZERO, program.vehicle(&params))];
//! let mut state = AgentState::new(&program, 1, 0);
//! let mut scratch = Scratch::default();
//! let grid = SpatialGrid::new(1.0);
//! for _ in 0..600 {
//!     let context = Context {
//!         world: &world, vehicles: &vehicles, tags: &[], avoidance: &[], grid: &grid,
//!         bindings: &bindings, params: &params, dt: 1.0 / 60.0,
//!     };
//!     let force = program.steer(&context, 0, &mut state, &mut scratch);
//!     vehicles[0].step(force, 1.0 / 60.0);
//! }
//! assert!((vehicles[0].position.x - 10.0).abs() < 0.1);
//! # Ok::<(), LoadError>(())
//! ```

mod avoidance;
pub mod behaviors;
mod compile;
mod crowd;
pub mod diagnose;
mod format;
mod graph;
mod jumping;
pub mod limits;
pub mod math;
mod metrics;
pub mod navigation;
mod own;
mod pool;
pub mod replay;
pub mod rewind;
mod rng;
mod save;
mod scene;
mod simulation;
mod spatial;
mod stuck;
pub mod sweep;
pub mod tick;
#[cfg(feature = "tune")]
pub mod tune;
mod unique;
mod vehicle;
#[cfg(feature = "watch")]
mod watch;
mod world;

pub use avoidance::{Avoidance, AvoidanceSettings, LAYERS, MAX_PRIORITY};
pub use compile::{
    AgentState, BindError, Bindings, CompileError, CompileWarning, Context, GUIDE_ORCA_LINES,
    Guide, NodeValue, ParamValues, Portable, PortableNeighborhood, PortableOp, PortableTarget,
    Program, RouteSlot, RouteStatus, Scratch, TagMask, TagTable, TakeOff, Trace, TraceEntry,
    Unsupported, compile, compile_keeping_source, compile_with, inline_subgraphs, subgraph_key,
    warnings,
};
pub use crowd::{Crowd, CrowdAgent, CrowdError, CrowdProgram};
pub use format::{
    AssetKind, FORMAT_VERSION, LoadError, SaveError, TextPosition, read_asset_text, sniff_kind,
    text_from_bytes,
};
pub use graph::{
    Category, ChanceInput, Choice, Comment, Comparison, Constraint, EditorSection, Graph, Heading,
    InputList, InputPort, Link, NameField, NameKind, Node, NodeId, NodeKind, Number, NumberField,
    PathDirection, PortType, Reads, Region, Slot, Target, TurningSpec, Unit, VehicleSpec,
    VelocitySource, WallSide, WeightedInput,
};
pub use jumping::{Flight, JumpEvent, JumpEventKind, Motion};
pub use metrics::{
    ARRIVAL_RADII, ARRIVAL_SHARES, CLOSER_RADII, MetricsTracker, RouteArrival, STALLED_SECONDS,
    Sample, StallProgress,
};
pub use navigation::{NavError, NavMesh, Reach, Route, RouteSearch};
pub use own::OwnGoals;
#[doc(hidden)]
pub use pool::split_work_as_for;
pub use rng::AgentRng;
pub use save::{
    STALE_TEMPORARY_AGE, write_all_atomically, write_atomically, write_atomically_with,
};
pub use scene::{
    AgentGroup, AgentSpawn, Area, FileAccess, FlowFieldSource, OwnPoints, Scene, SceneAssets,
    SceneError, SceneWarning, Spawn, SubgraphWalk, Subgraphs, WantedSubgraph,
    check_inside_scene_folder, load_subgraphs, subgraph_uses,
};
pub use simulation::{
    GroupRuntime, Keyframe, RestoreError, Simulation, TickPhase, TooMuchWork, Work,
};
pub use spatial::{Candidate, Candidates, Near, Run, SpatialGrid};
pub use stuck::{RESTING_FRACTION, STUCK_SECONDS, STUCK_SPEED_FRACTION, is_stuck, stuck_clock};
pub use vehicle::{Steering, Turning, TurningParams, Vehicle, VehicleParams};
#[cfg(feature = "watch")]
pub use watch::{AssetWatcher, FileWatcher, ReloadError, WATCH_DEBOUNCE, WatchError};
pub use world::{
    Brush, FlowField, Gap, JumpLink, Obstacle, Path, Projection, Rect, StrokeKind, WALL_SKIN, Wall,
    WallHit, WallIndex, WallPoint, World,
};
