//! Regression tests for issue 10's hostile inputs, each named after its input. Inputs too large
//! to commit are generated here; the small ones also live in `tests/fixtures/hostile/`.

#[expect(dead_code, reason = "each test file uses the workloads it checks")]
mod workloads;

use std::fmt::Write as _;

use glam::Vec2;
use graph_runtime::limits::{MAX_FILE_BYTES, MAX_NAMES};
use graph_runtime::{
    AgentState, BindError, Bindings, CompileError, FileAccess, FlowField, Graph, LoadError, Scene,
    SceneAssets, SceneError, Scratch, SpatialGrid, Spawn, TagTable, Vehicle, World, compile,
};
use workloads::many_targets_graph;

fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile")
        .join(name)
}

/// The largest single allocation made while running `work`, in bytes.
fn peak_bytes(work: impl FnOnce()) -> u64 {
    allocation_counter::measure(work).bytes_max
}

const MIB: u64 = 1024 * 1024;

fn scene_errors(result: Result<SceneAssets, Vec<SceneError>>) -> String {
    result
        .expect_err("the scene is refused")
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

// ---- Allocation aborts ----

#[test]
fn a_flow_field_4294967295_cells_wide_is_refused_before_allocating() {
    let text = std::fs::read_to_string(fixture("width_4294967295.flow.ron")).expect("fixture");
    let mut result = None;
    let peak = peak_bytes(|| result = Some(FlowField::from_ron(&text, "wide.flow.ron")));
    let error = result.expect("ran").expect_err("refused");
    assert!(
        error
            .to_string()
            .starts_with("wide.flow.ron: a 4294967295x2 field has 8589934590 cells"),
        "{error}"
    );
    assert!(peak < MIB, "peak allocation {peak} bytes");
}

#[test]
fn a_50000_by_50000_flow_field_with_short_rows_is_refused_before_allocating() {
    let text =
        std::fs::read_to_string(fixture("short_rows_50000x50000.flow.ron")).expect("fixture");
    let mut result = None;
    let peak = peak_bytes(|| result = Some(FlowField::from_ron(&text, "short.flow.ron")));
    let error = result.expect("ran").expect_err("refused");
    assert!(
        error.to_string().contains("the limit is 16777216"),
        "{error}"
    );
    assert!(peak < MIB, "peak allocation {peak} bytes");
}

#[test]
fn a_4096_square_flow_field_with_one_short_row_allocates_only_what_the_rows_hold() {
    // Within the cell limit, but the rows do not hold the cells the header claims.
    let rows = vec!["AACAPwAAAAA=".to_owned(); 4096];
    let text = format!(
        "(format: \"steergraph.flow\", version: 1, origin: (0.0, 0.0), cell_size: 1.0, \
         width: 4096, height: 4096, packed_rows: {rows:?})"
    );
    let mut result = None;
    let peak = peak_bytes(|| result = Some(FlowField::from_ron(&text, "short.flow.ron")));
    let error = result.expect("ran").expect_err("refused");
    assert!(
        error.to_string().contains("packed_rows[0] holds 1 vectors"),
        "{error}"
    );
    // 4096 * 4096 cells would be 128 MiB; the text itself is well under 1 MiB.
    assert!(peak < 4 * MIB, "peak allocation {peak} bytes");
}

#[test]
fn a_spawn_count_of_4294967295_is_refused_by_check_and_simulation_before_allocating() {
    let path = fixture("spawn_count_4294967295.scene.ron");
    let mut message = String::new();
    let peak = peak_bytes(|| message = scene_errors(SceneAssets::load(&path)));
    assert!(
        message.contains("groups: the scene spawns 4294967295 agents; the limit is 1000000"),
        "{message}"
    );
    assert!(peak < MIB, "peak allocation {peak} bytes");

    // A scene built in code skips `SceneAssets::load`; `Simulation::new` checks it too.
    let mut assets = SceneAssets::load(&fixture("tag_nobody_carries.scene.ron")).expect("loads");
    assets.scene.groups[0].spawn = Spawn::Random {
        count: u32::MAX,
        area: graph_runtime::Area::Circle {
            center: Vec2::ZERO,
            radius: 1.0,
        },
        speed: 0.0,
    };
    let mut errors = Vec::new();
    let peak = peak_bytes(|| {
        errors = graph_runtime::Simulation::new(&assets).expect_err("refused");
    });
    assert!(
        errors[0].to_string().contains("limit is 1000000"),
        "{errors:?}"
    );
    assert!(peak < MIB, "peak allocation {peak} bytes");
}

#[test]
fn a_file_over_64_mib_is_refused_before_it_is_read() {
    let directory = tempfile::tempdir().expect("a temporary directory");
    let path = directory.path().join("huge.graph.ron");
    let file = std::fs::File::create(&path).expect("create");
    file.set_len(MAX_FILE_BYTES + 1).expect("a sparse file");
    let mut result = None;
    let peak = peak_bytes(|| result = Some(Graph::load(&path)));
    let error = result.expect("ran").expect_err("refused");
    assert!(
        matches!(&error, LoadError::Invalid { message, .. } if message.contains("67108865 bytes")),
        "{error}"
    );
    assert!(peak < MIB, "peak allocation {peak} bytes");
}

// ---- Numbers validated where they are read ----

#[test]
fn a_nan_spawn_position_is_refused_at_load_naming_group_and_agent() {
    let error = Scene::load(&fixture("spawn_position_nan.scene.ron")).expect_err("refused");
    assert!(
        error.to_string().ends_with(
            "spawn_position_nan.scene.ron: groups[0] (\"lost\").spawn.agents[0].position: (NaN, 0) is not a finite point"
        ),
        "{error}"
    );
}

#[test]
fn a_1e39_spawn_velocity_is_refused_at_load() {
    let error = Scene::load(&fixture("spawn_velocity_1e39.scene.ron")).expect_err("refused");
    assert!(
        error.to_string().contains(
            "groups[0] (\"fast\").spawn.agents[0].velocity: (inf, 0) is not a finite point"
        ),
        "{error}"
    );
}

#[test]
fn spawn_area_corners_whose_difference_overflows_are_refused() {
    let message = scene_errors(SceneAssets::load(&fixture(
        "spawn_area_overflowing_corners.scene.ron",
    )));
    assert!(
        message.contains("groups[0] (\"wide\").spawn.area.min: (-3e38, -3e38) is out of range"),
        "{message}"
    );
    assert!(message.contains("spawn.area.max"), "{message}");
}

#[test]
fn a_nan_path_point_is_refused_at_load_naming_path_and_point() {
    let error = Scene::load(&fixture("path_point_nan.scene.ron")).expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("paths[\"route\"].points[1]: (NaN, 5) is not a finite point"),
        "{error}"
    );
}

#[test]
fn a_1e39_path_point_is_refused_at_load_naming_path_and_point() {
    let error = Scene::load(&fixture("path_point_1e39.scene.ron")).expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("paths[\"route\"].points[2]: (inf, 0) is not a finite point"),
        "{error}"
    );
}

#[test]
fn nan_targets_infinite_obstacles_and_huge_bounds_are_refused_with_their_place() {
    for (file, place) in [
        ("target_nan.scene.ron", "targets[\"goal\"]: (NaN, NaN)"),
        ("obstacle_radius_inf.scene.ron", "obstacles[0].radius: inf"),
        (
            "vehicle_mass_nan.scene.ron",
            "groups[0] (\"heavy\").vehicle.mass: NaN",
        ),
    ] {
        let error = Scene::load(&fixture(file)).expect_err(file);
        assert!(error.to_string().contains(place), "{file}: {error}");
    }
    let message = scene_errors(SceneAssets::load(&fixture("bounds_3e38.scene.ron")));
    assert!(
        message.contains("bounds.min: (-3e38, -3e38) is out of range"),
        "{message}"
    );
}

#[test]
fn a_graph_number_beyond_1e9_or_a_mass_below_1e_6_is_a_compile_error() {
    let graph = Graph::load(&fixture("point_target_3e38.graph.ron")).expect("loads");
    let errors = compile(&graph).expect_err("refused");
    assert!(
        matches!(&errors[0], CompileError::InvalidNumber { value, .. } if *value == 3e38),
        "{errors:?}"
    );
    let graph = Graph::load(&fixture("mass_1e-45.graph.ron")).expect("loads");
    let errors = compile(&graph).expect_err("refused");
    assert_eq!(
        errors[0].to_string(),
        "vehicle field `mass`: 0.000000000000000000000000000000000000000000001 must be a finite number >= 1e-6 and at most 1e9"
    );
}

// ---- Read as something else ----

fn parameters_graph(count: usize) -> String {
    let mut text = String::from("(format: \"steergraph.graph\", version: 1, parameters: {");
    for index in 0..count {
        let _ = write!(text, "\"p{index}\": 1.0, ");
    }
    text.push_str("}, nodes: {1: Seek(target: Named(\"goal\")), 2: Output(input: 1)})");
    text
}

#[test]
fn a_graph_file_with_65537_parameters_is_refused_not_wrapped() {
    let error =
        Graph::from_ron(&parameters_graph(MAX_NAMES + 1), "many.graph.ron").expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("more than 65536 names in this map (the limit)"),
        "{error}"
    );
    let at_limit = Graph::from_ron(&parameters_graph(MAX_NAMES), "many.graph.ron");
    assert_eq!(at_limit.expect("65536 load").parameters.len(), MAX_NAMES);
}

#[test]
fn a_graph_built_with_65537_parameters_is_a_compile_error() {
    let mut graph = Graph::from_ron(&parameters_graph(0), "few.graph.ron").expect("loads");
    for index in 0..=MAX_NAMES {
        graph.parameters.insert(format!("p{index}"), 1.0);
    }
    let errors = compile(&graph).expect_err("refused");
    assert_eq!(
        errors,
        vec![CompileError::TooMany {
            what: "graph parameters",
            count: MAX_NAMES + 1,
            limit: MAX_NAMES
        }]
    );
}

#[test]
fn a_graph_naming_65537_targets_is_refused_not_wrapped() {
    let errors = compile(&many_targets_graph(MAX_NAMES + 1)).expect_err("refused");
    assert_eq!(
        errors,
        vec![CompileError::TooMany {
            what: "target names",
            count: MAX_NAMES + 1,
            limit: MAX_NAMES
        }]
    );
}

#[test]
fn the_65536th_named_target_is_the_one_sought() {
    // At the limit every name still gets its own slot: the last Seek aims at the last target,
    // not at the first one (a 16-bit slot wrapping would read `t0`).
    let program = compile(&many_targets_graph(MAX_NAMES)).expect("compiles");
    let mut world = World::default();
    for index in 0..MAX_NAMES {
        // Every target to the left, except the last, to the right.
        let x = if index + 1 == MAX_NAMES { 10.0 } else { -10.0 };
        world.set_target(&format!("t{index}"), Vec2::new(x, 0.0));
    }
    let (bindings, errors) = Bindings::new(&program, &world, &TagTable::default());
    assert!(errors.is_empty());
    let params = program.default_parameters();
    let vehicles = vec![Vehicle::new(
        Vec2::ZERO,
        Vec2::ZERO,
        program.vehicle(&params),
    )];
    let grid = SpatialGrid::new(1.0);
    let context =
        graph_runtime::Context::new(&world, &vehicles, &grid, &bindings, &params, 1.0 / 60.0);
    let mut state = AgentState::new(&program, 1, 0);
    let force = program.steer(&context, 0, &mut state, &mut Scratch::default());
    assert!(force.x > 0.0 && force.y == 0.0, "{force}");
}

#[test]
fn a_duplicated_node_id_is_an_error_at_the_duplicate() {
    let error = Graph::load(&fixture("duplicate_node_id.graph.ron")).expect_err("refused");
    let LoadError::Syntax {
        position, message, ..
    } = &error
    else {
        panic!("expected a syntax error, got {error:?}");
    };
    assert_eq!(position.line, 7, "{error}");
    assert_eq!(
        message,
        "the key `#1` appears twice in this map; each key may be written once"
    );
}

#[test]
fn duplicated_parameters_targets_paths_fields_and_overrides_are_errors_with_a_line() {
    for (file, line, key) in [
        ("duplicate_parameter.graph.ron", 6, "`speed`"),
        ("duplicate_target.scene.ron", 7, "`goal`"),
        ("duplicate_path.scene.ron", 7, "`route`"),
        ("duplicate_flow_field.scene.ron", 7, "`wind`"),
        ("duplicate_override.scene.ron", 6, "`a`"),
    ] {
        let path = fixture(file);
        let error = if file.ends_with(".graph.ron") {
            Graph::load(&path).map(|_| ()).expect_err(file)
        } else {
            Scene::load(&path).map(|_| ()).expect_err(file)
        };
        let LoadError::Syntax {
            position, message, ..
        } = &error
        else {
            panic!("{file}: expected a syntax error, got {error:?}");
        };
        assert_eq!(position.line, line, "{file}: {error}");
        assert!(message.contains(key), "{file}: {error}");
    }
}

#[test]
fn a_duplicated_group_name_is_refused() {
    let message = scene_errors(SceneAssets::load(&fixture(
        "duplicate_group_name.scene.ron",
    )));
    assert!(
        message.ends_with(
            "groups[1] (\"seekers\"): the name is already used by groups[0]; group names must be unique"
        ),
        "{message}"
    );
}

// ---- Referenced files ----

/// A folder with `scene.scene.ron` naming `graph` as its group's graph, and a valid
/// `outside.graph.ron` one level up.
fn scene_naming(graph: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let root = tempfile::tempdir().expect("a temporary directory");
    let folder = root.path().join("mod");
    std::fs::create_dir(&folder).expect("folder");
    std::fs::copy(
        fixture("seek.graph.ron"),
        root.path().join("outside.graph.ron"),
    )
    .expect("copy");
    std::fs::copy(fixture("seek.graph.ron"), folder.join("seek.graph.ron")).expect("copy");
    let text = std::fs::read_to_string(fixture("tag_nobody_carries.scene.ron"))
        .expect("fixture")
        .replace("hunt_tagged.graph.ron", graph);
    let scene = folder.join("scene.scene.ron");
    std::fs::write(&scene, text).expect("write");
    (root, scene)
}

#[test]
fn a_scene_naming_a_parent_folder_file_is_refused_unless_the_caller_opts_in() {
    let (_root, scene) = scene_naming("../outside.graph.ron");
    let message = scene_errors(SceneAssets::load(&scene));
    assert!(
        message.contains("\"../outside.graph.ron\" leaves the scene's folder"),
        "{message}"
    );
    let assets = SceneAssets::load_with(&scene, FileAccess::Anywhere).expect("opted in");
    assert_eq!(assets.graphs.len(), 1);
    // `..` that stays inside the folder is fine.
    let (_root, scene) = scene_naming("sub/../seek.graph.ron");
    std::fs::create_dir(scene.with_file_name("sub")).expect("folder");
    SceneAssets::load(&scene).expect("inside the folder");
}

#[test]
fn a_scene_naming_an_absolute_path_is_refused_without_reading_it() {
    let (_root, scene) = scene_naming("/etc/passwd");
    let message = scene_errors(SceneAssets::load(&scene));
    assert!(
        message.contains("\"/etc/passwd\" is an absolute path"),
        "{message}"
    );
    assert!(!message.contains("root"), "{message}");
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_out_of_the_scene_folder_is_refused() {
    let (_root, scene) = scene_naming("link.graph.ron");
    let folder = scene.parent().expect("folder");
    std::os::unix::fs::symlink("../outside.graph.ron", folder.join("link.graph.ron"))
        .expect("symlink");
    let message = scene_errors(SceneAssets::load(&scene));
    assert!(
        message.contains("symbolic link leading out of the scene's folder"),
        "{message}"
    );
}

#[cfg(unix)]
#[test]
fn a_device_or_fifo_is_never_read() {
    // /dev/zero would be read until memory runs out; a FIFO would block forever.
    let error = Graph::load(std::path::Path::new("/dev/zero")).expect_err("refused");
    assert!(error.to_string().contains("not a regular file"), "{error}");
    let directory = tempfile::tempdir().expect("a temporary directory");
    let fifo = directory.path().join("pipe.graph.ron");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|status| status.success()) {
        let error = Graph::load(&fifo).expect_err("refused");
        assert!(error.to_string().contains("not a regular file"), "{error}");
    }
    // Even through the opt-in: a link inside the folder to a device is not read.
    let (_root, scene) = scene_naming("zero.graph.ron");
    std::os::unix::fs::symlink("/dev/zero", scene.with_file_name("zero.graph.ron"))
        .expect("symlink");
    let errors = SceneAssets::load_with(&scene, FileAccess::Anywhere).expect_err("refused");
    assert!(
        errors[0].to_string().contains("not a regular file"),
        "{errors:?}"
    );
}

#[test]
fn an_error_about_a_foreign_file_does_not_echo_its_content() {
    let error = Graph::load(&fixture("passwd_lookalike.graph.ron")).expect_err("refused");
    let message = error.to_string();
    assert!(message.contains("not a Steergraph graph file"), "{message}");
    for private in ["root", "C0FFEE", "bash"] {
        assert!(!message.contains(private), "{message}");
    }
}

// ---- Tags ----

#[test]
fn a_tag_no_agent_carries_yet_is_a_warning_and_its_nodes_steer_zero() {
    let assets = SceneAssets::load(&fixture("tag_nobody_carries.scene.ron")).expect("loads");
    let mut simulation = graph_runtime::Simulation::new(&assets).expect("runs");
    let warnings: Vec<String> = simulation
        .warnings()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].ends_with(
        "group \"hunters\" (hunt_tagged.graph.ron): no agent carries the tag \"prey\" yet; nodes aiming at it steer with zero"
    ));
    simulation.step(1.0 / 60.0);
    assert!(simulation.forces().iter().all(|force| *force == Vec2::ZERO));
    assert!(
        simulation
            .rebind()
            .iter()
            .all(|(_, error)| error.is_warning())
    );
    assert!(!BindError::UnknownTarget("x".into()).is_warning());
}

// ---- Many names ----

/// The allocations (count) that compiling and binding `names` distinct target names makes,
/// on one thread so that the counter (which counts its own thread's) sees them all.
fn allocations_to_compile_and_bind(names: usize) -> u64 {
    let graph = many_targets_graph(names);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    pool.install(|| {
        allocation_counter::measure(|| workloads::compile_and_bind(&graph, names)).count_total
    })
}

/// Before the fix, compiling and binding 40,000 names took 19.5 s in release for `steergraph
/// check`, quadratic in the names; `examples/time_bounds.rs` times it in release. Here the
/// work is counted: each name costs the same few allocations (its string in the program's
/// and the world's tables, its slot), and the tables grow by doubling, a handful more for each
/// doubling. So `a·n + b·log2(n) + c` allocations for `n` names: four times the names make
/// `4a·n + b·(log2(n) + 2) + c`, at most four times as many, and anything growing faster
/// than the names (a table copied per name) is caught.
#[test]
fn forty_thousand_distinct_names_compile_and_bind_with_allocations_linear_in_the_names() {
    let small = allocations_to_compile_and_bind(10_000);
    let large = allocations_to_compile_and_bind(40_000);
    assert!(
        large <= 4 * small,
        "10k names: {small} allocations, 40k names: {large}"
    );
    // And each name costs at least one (its string in the world's table).
    assert!(small >= 10_000, "{small}");
}

#[test]
fn a_scene_with_65537_targets_is_refused_and_65536_load_and_run() {
    let mut scene = workloads::many_targets_scene();
    let text = scene.to_ron().expect("serializable");
    let error = Scene::from_ron(&text, "many.scene.ron").expect_err("65,537 targets");
    assert!(
        error
            .to_string()
            .ends_with("more than 65536 names in this map (the limit)"),
        "{error}"
    );
    scene.targets.remove("t0");
    let text = scene.to_ron().expect("serializable");
    let scene = Scene::from_ron(&text, "many.scene.ron").expect("65,536 scene targets load");
    let assets = workloads::seek_the_last_target(scene);
    let mut simulation = graph_runtime::Simulation::new(&assets).expect("runs");
    simulation.step(workloads::TICK);
    // The force points at t65536 (the only target to the right), found by name among 65,536.
    let force = simulation.forces()[0];
    assert!(force.x > 0.0, "{force}");
}

/// A million-point wall that crosses itself at every point (the most points a scene's walls
/// may have), in a level whose group navigates: the navigation mesh is refused for its size
/// before any of it is built (the largest allocation of the refusal is a few bytes of
/// message, not a triangulation), naming the group and the limit.
#[test]
fn a_million_point_self_crossing_wall_in_a_navigating_level_is_refused_naming_the_limit() {
    use graph_runtime::limits::{MAX_NAV_SEGMENTS, MAX_WALL_POINTS};
    let zigzag: Vec<Vec2> = (0..MAX_WALL_POINTS)
        .map(|i| {
            Vec2::new(
                (i % 1_000) as f32 * 0.01,
                if i % 2 == 0 { -5.0 } else { 5.0 },
            )
        })
        .collect();
    let mut world = World::new(graph_runtime::Rect::new(
        Vec2::splat(-20.0),
        Vec2::splat(20.0),
    ));
    world.set_walls(vec![graph_runtime::Wall::polyline(zigzag)]);
    let mut refusal = None;
    let peak = peak_bytes(|| refusal = Some(world.build_navigation(0.5)));
    let error = refusal
        .expect("measured")
        .expect_err("too many segments for a mesh");
    assert_eq!(
        error.to_string(),
        format!(
            "the level has {} wall segments, gap edges and obstacles; navigation builds over at most {MAX_NAV_SEGMENTS}",
            MAX_WALL_POINTS - 1
        )
    );
    assert!(peak < MIB, "the refusal allocated {peak} bytes at once");
    assert_eq!(world.navigation_meshes().count(), 0, "no mesh kept");
}
