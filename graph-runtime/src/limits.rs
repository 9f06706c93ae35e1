//! The largest inputs the runtime accepts, so that no asset can exhaust memory or time.
//!
//! Each limit is checked where the input is read, before anything of that size is allocated,
//! and a file over a limit is refused with an error naming the limit. The limits are generous:
//! ten to a hundred times the largest asset the editor is meant for. `FORMAT.md` lists them.

/// Largest asset file read, in bytes (64 MiB). Larger files are refused before reading.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Most nodes in one graph.
pub const MAX_NODES: usize = 100_000;

/// Deepest nesting of subgraphs (a subgraph using a subgraph using …), so that a chain of
/// files cannot exhaust the stack.
pub const MAX_SUBGRAPH_DEPTH: usize = 32;

/// Most problems reported from inside one use of a subgraph (the rest are left out, so that
/// files using each other many times cannot multiply them without end).
pub const MAX_SUBGRAPH_ERRORS: usize = 8;

/// Most distinct names in one table: graph parameters, and the paths, flow fields, named
/// targets and tags one graph refers to; also a scene's targets, paths and flow fields. A
/// compiled program addresses each table with 16 bits, so this is the most it can hold.
pub const MAX_NAMES: usize = 65_536;

/// Most agents in one scene, all groups together.
pub const MAX_AGENTS: usize = 1_000_000;

/// Most cells (`width * height`) in one flow field (16 Mi cells, 128 MiB of vectors).
pub const MAX_FLOW_FIELD_CELLS: u64 = 16 * 1024 * 1024;

/// Most points in one path.
pub const MAX_PATH_POINTS: usize = 1_000_000;

/// Most wall points in one scene, all walls together (the wall index holds one segment per
/// point at most).
pub const MAX_WALL_POINTS: usize = 1_000_000;

/// Largest magnitude of a coordinate or size in a scene (positions, velocities, targets,
/// obstacles, bounds, path points, flow-field origins and extents), in world units or units per
/// second. Differences and squared distances of numbers this large stay finite in `f32`.
pub const MAX_COORDINATE: f32 = 1.0e9;

/// Most jump links in one scene: each agent remembers the links it has made in one 32-bit
/// word of its state.
pub const MAX_JUMP_LINKS: usize = 32;

/// Most corners of all the gaps of one scene together.
pub const MAX_GAP_POINTS: usize = 1_000_000;

/// Most wall segments, gap edges and obstacles together a navigation mesh is built over
/// ([`crate::NavMesh::build`]): a level of rooms has hundreds to thousands; a mesh over more
/// is refused rather than built slowly.
pub const MAX_NAV_SEGMENTS: usize = 100_000;

/// Most own goals a scene gives its agents, all groups together (each group's agents × its
/// goal names): every one is a point in an agent's table, about 40 bytes.
pub const MAX_OWN_GOALS: u64 = 4_000_000;

/// Most neighbors a scene's agents may keep in one tick, all groups together: each group's
/// agents × the most neighbors of each of its graph's neighborhoods (Separation, Cohesion,
/// Alignment and Flocking passes) and Reciprocal nodes, summed. A crowd stacked on one point
/// keeps every one of them, at tens of nanoseconds each: 20,000 agents keeping 4,096 took
/// 2.9 s a tick, and the other limits allowed about three minutes. This is a million agents
/// with two neighborhoods of the default 64 (a stacked crowd at the limit: about 4.5 s a tick
/// on one core).
pub const MAX_NEIGHBOR_WORK: u64 = 128_000_000;

/// Most path segments a scene's agents may project themselves onto in one tick, all groups
/// together: each group's agents × the segments of the scene paths its graph follows, summed.
/// A `PathFollowing` agent finds its nearest point on every segment of its path each tick, so
/// a path at its point limit followed by a crowd at its agent limit would be 10^12 projections
/// a tick. This is a million agents on paths of 128 points, or a thousand on one of 128,000.
pub const MAX_PATH_WORK: u64 = 128_000_000;

/// Most gap corners a scene's agents could test in one tick: every agent × the corners of the
/// level's gaps, summed. A walking agent inside a gap's box tests every corner of that gap
/// each tick (the even-odd rule), so a gap at its corner limit under a crowd at its agent limit
/// would be 10^12 tests a tick. An upper bound (agents outside every box test none): a
/// thousand agents by gaps of 128,000 corners in all.
pub const MAX_GAP_WORK: u64 = 128_000_000;

/// Most runs in one sweep (values × seeds): each run is a whole simulation.
pub const MAX_SWEEP_RUNS: usize = 100_000;

/// Longest run of a sweep, in simulated seconds (one hour).
pub const MAX_SWEEP_SECONDS: f32 = 3_600.0;

/// Most agent-ticks one command may ask for (a sweep's runs × ticks × agents, a benchmark's
/// ticks × agents): about a quarter of an hour at the runtime's usual 10 M agent-ticks per
/// second on 2 cores. A request beyond it is refused up front rather than left running.
pub const MAX_AGENT_TICKS: u64 = 10_000_000_000;

/// Most ticks a replay file may hold: over four and a half hours at 60 ticks a second, in
/// a file of about 21 MB (one digest of 16 digits a tick).
pub const MAX_REPLAY_TICKS: u64 = 1_000_000;

/// Whether both coordinates of `point` are finite and within [`MAX_COORDINATE`].
pub fn point_in_range(point: glam::Vec2) -> bool {
    point.is_finite() && point.abs().max_element() <= MAX_COORDINATE
}

/// Smallest vehicle mass, so that `max_force / mass` stays finite for any force within
/// [`MAX_COORDINATE`].
pub const MIN_MASS: f32 = 1.0e-6;
