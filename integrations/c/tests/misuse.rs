//! Misuse of the C interface refused by name, not followed silently (issue 46): a crowd
//! steered in a world other than its own, a graph compiled without its folder, a misspelt own
//! goal, missing tags, the header's status list against what the code returns, and a hot
//! reload's new limits reaching the game's vehicles.
#![expect(
    unsafe_code,
    reason = "calls the library's extern \"C\" functions exactly as a C program does"
)]

mod common;

use std::path::Path;

use common::{c, c_path, last_error, ok};
use steergraph::*;

/// A graph compiled from bytes without a path has no folder to read its subgraphs from: a
/// Subgraph node is refused by node and file (issue 46: the file was read from the process's
/// current folder), while with the path of a folder holding the file it compiles.
#[test]
fn a_graph_from_bytes_without_a_path_reads_no_subgraph_from_the_current_folder() {
    let folder = std::env::temp_dir().join(format!("sg-c-subgraph-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a folder");
    let seek = r#"(format: "steergraph.graph", version: 1,
        nodes: {1: Seek(target: Point(10.0, 0.0)), 2: Output(input: 1)})"#;
    std::fs::write(folder.join("legs.graph.ron"), seek).expect("a subgraph file");
    // The current folder holds the file too: it must still not be read.
    let here = std::env::current_dir().expect("a current folder");
    std::env::set_current_dir(&folder).expect("moved");
    let main = c(r#"(format: "steergraph.graph", version: 1,
        nodes: {4: Subgraph(file: "legs.graph.ron"), 2: Output(input: 4)})"#);
    let mut graph = SgGraph::default();
    // SAFETY: the bytes and their length, a name, an out-pointer.
    ok(unsafe {
        sg_graph_from_bytes(
            main.as_ptr().cast(),
            main.as_bytes().len(),
            c("main.graph.ron").as_ptr(),
            &raw mut graph,
        )
    });
    let mut program = SgProgram::default();
    // SAFETY: a NULL path (allowed), an out-pointer.
    let status = unsafe { sg_program_compile(graph, std::ptr::null(), &raw mut program) };
    let message = last_error();
    std::env::set_current_dir(here).expect("moved back");
    assert_eq!(status, SgStatus::Compile);
    assert_eq!(program.id, 0);
    assert!(
        message.contains("node #4") && message.contains("legs.graph.ron"),
        "{message}"
    );
    assert!(message.contains("pass that file's path"), "{message}");
    // With the path of its file, the subgraph is read from that folder.
    let path = c_path(&folder.join("main.graph.ron"));
    // SAFETY: a path, an out-pointer.
    ok(unsafe { sg_program_compile(graph, path.as_ptr(), &raw mut program) });
    assert_ne!(program.id, 0);
    ok(sg_program_free(program));
    ok(sg_graph_free(graph));
    let _ = std::fs::remove_dir_all(&folder);
}

/// A crowd made in one world and steered in another (issue 46): names were bound to places
/// at creation, so `Seek(Target("cursor"))` steered toward whatever stood first in the other
/// world ("decoy") and answered OK. Now the crowd binds its names again by name in the world
/// it is steered in, and a world without "cursor" is refused, naming it.
#[test]
fn a_crowd_steered_in_a_second_world_follows_names_not_places() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("cursor.graph.ron");
    std::fs::write(
        &file,
        r#"(format: "steergraph.graph", version: 1, nodes: {1: Seek(target: Named("cursor")), 2: Output(input: 1)})"#,
    )
    .expect("written");
    let (mut program, mut crowd) = (SgProgram::default(), SgCrowd::default());
    let mut worlds = [SgWorld::default(); 3];
    let steer = |crowd: SgCrowd, world: SgWorld| -> (SgStatus, [f32; 2]) {
        let mut vehicle = std::mem::MaybeUninit::<SgVehicle>::uninit();
        let mut steering = [SgSteering::default()];
        // SAFETY: valid outputs and arrays of one element.
        let status = unsafe {
            ok(sg_crowd_vehicle(
                crowd,
                0.0,
                0.0,
                0.0,
                0.0,
                vehicle.as_mut_ptr(),
            ));
            let vehicle = vehicle.assume_init();
            sg_crowd_steer(
                crowd,
                world,
                &raw const vehicle,
                std::ptr::null(),
                1,
                0.1,
                steering.as_mut_ptr(),
            )
        };
        (status, steering[0].force)
    };
    // SAFETY: valid strings and outputs.
    unsafe {
        ok(sg_program_load(c_path(&file).as_ptr(), &raw mut program));
        for world in &mut worlds {
            ok(sg_world_create(-50.0, -50.0, 50.0, 50.0, world));
        }
        // The first world: the cursor at (10, 0).
        ok(sg_world_set_target(
            worlds[0],
            c("cursor").as_ptr(),
            10.0,
            0.0,
        ));
        // The second: a decoy first, then the cursor behind the agent at (-10, 0).
        ok(sg_world_set_target(
            worlds[1],
            c("decoy").as_ptr(),
            0.0,
            10.0,
        ));
        ok(sg_world_set_target(
            worlds[1],
            c("cursor").as_ptr(),
            -10.0,
            0.0,
        ));
        // The third: only the decoy.
        ok(sg_world_set_target(
            worlds[2],
            c("decoy").as_ptr(),
            0.0,
            10.0,
        ));
        ok(sg_crowd_create(
            program,
            worlds[0],
            1,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            &raw mut crowd,
        ));
    }
    // Seek at the default top speed 5 from rest: the force is the desired velocity.
    assert_eq!(steer(crowd, worlds[0]), (SgStatus::Ok, [5.0, 0.0]));
    // In the second world the cursor is the second name: the crowd seeks it, not the decoy.
    assert_eq!(steer(crowd, worlds[1]), (SgStatus::Ok, [-5.0, 0.0]));
    // The third has no cursor: refused, and the message names it.
    let (status, _) = steer(crowd, worlds[2]);
    assert_eq!(status, SgStatus::Setup);
    let message = last_error();
    assert!(message.contains("cursor"), "{message}");
    // Back in the first world, it seeks the first world's cursor again.
    assert_eq!(steer(crowd, worlds[0]), (SgStatus::Ok, [5.0, 0.0]));
    ok(sg_crowd_free(crowd));
    for world in worlds {
        ok(sg_world_free(world));
    }
    ok(sg_program_free(program));
}

/// A program compiled from graph `text`, through a file in `dir` as a game loads one.
fn program_from(dir: &Path, text: &str) -> SgProgram {
    let file = dir.join("g.graph.ron");
    std::fs::write(&file, text).expect("written");
    let mut program = SgProgram::default();
    // SAFETY: a valid string and output.
    ok(unsafe { sg_program_load(c_path(&file).as_ptr(), &raw mut program) });
    program
}

/// A crowd of `program` in `world`, tags registered as `tag_names`.
fn crowd_of(program: SgProgram, world: SgWorld, tag_names: &[*const std::ffi::c_char]) -> SgCrowd {
    let mut crowd = SgCrowd::default();
    // SAFETY: an array of `tag_names.len()` strings and an output.
    ok(unsafe {
        sg_crowd_create(
            program,
            world,
            1,
            std::ptr::null(),
            0,
            tag_names.as_ptr(),
            tag_names.len(),
            &raw mut crowd,
        )
    });
    crowd
}

fn a_world() -> SgWorld {
    let mut world = SgWorld::default();
    // SAFETY: an output.
    ok(unsafe { sg_world_create(-50.0, -50.0, 50.0, 50.0, &raw mut world) });
    world
}

/// An own goal no graph of the crowd reads (a misspelling) is refused, naming those read
/// (issue 46: it was kept and never used).
#[test]
fn a_misspelt_goal_is_refused_naming_the_goals_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = program_from(
        dir.path(),
        r#"(format: "steergraph.graph", version: 1, nodes: {1: Seek(target: Own("goal")), 2: Output(input: 1)})"#,
    );
    let world = a_world();
    let crowd = crowd_of(program, world, &[]);
    // SAFETY: valid strings.
    unsafe {
        ok(sg_crowd_set_goal(crowd, 0, c("goal").as_ptr(), 3.0, 4.0));
        let status = sg_crowd_set_goal(crowd, 0, c("gaol").as_ptr(), 3.0, 4.0);
        assert_eq!(status, SgStatus::InvalidArgument);
    }
    assert_eq!(
        last_error(),
        r#"agent 0's own goal "gaol": no graph of this crowd reads it (they read: "goal"); a graph that reads it must run first"#
    );
    for status in [
        sg_crowd_free(crowd),
        sg_world_free(world),
        sg_program_free(program),
    ] {
        ok(status);
    }
}

/// `tags = NULL` for a graph that reads tags is refused (issue 46: it steered as if no agent
/// carried one); with the tags, agent 0 seeks agent 1, which carries "prey".
#[test]
fn missing_tags_are_refused_for_a_graph_that_reads_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = program_from(
        dir.path(),
        r#"(format: "steergraph.graph", version: 1, nodes: {1: Seek(target: NearestTagged("prey")), 2: Output(input: 1)})"#,
    );
    let world = a_world();
    let prey = c("prey");
    let crowd = crowd_of(program, world, &[prey.as_ptr()]);
    let mut vehicles = [std::mem::MaybeUninit::<SgVehicle>::uninit(); 2];
    let mut steering = [SgSteering::default(); 2];
    // SAFETY: valid outputs and arrays of two elements.
    unsafe {
        ok(sg_crowd_vehicle(
            crowd,
            0.0,
            0.0,
            0.0,
            0.0,
            vehicles[0].as_mut_ptr(),
        ));
        ok(sg_crowd_vehicle(
            crowd,
            5.0,
            0.0,
            0.0,
            0.0,
            vehicles[1].as_mut_ptr(),
        ));
        let vehicles = vehicles.map(|v| v.assume_init());
        let status = sg_crowd_steer(
            crowd,
            world,
            vehicles.as_ptr(),
            std::ptr::null(),
            2,
            0.1,
            steering.as_mut_ptr(),
        );
        assert_eq!(status, SgStatus::NullPointer);
        assert!(last_error().contains("tags is NULL"), "{}", last_error());
        // Agent 1 carries "prey" (bit 0): agent 0 seeks it, (5, 0) at the top speed 5.
        let tags = [0_u64, 1];
        ok(sg_crowd_steer(
            crowd,
            world,
            vehicles.as_ptr(),
            tags.as_ptr(),
            2,
            0.1,
            steering.as_mut_ptr(),
        ));
    }
    assert_eq!(steering[0].force, [5.0, 0.0]);
    for status in [
        sg_crowd_free(crowd),
        sg_world_free(world),
        sg_program_free(program),
    ] {
        ok(status);
    }
}

/// The header's comment of each status, as cbindgen writes it above `SG_STATUS_<NAME> = n`.
fn status_comment(name: &str) -> String {
    let header = include_str!("../include/steergraph.h");
    let lines: Vec<&str> = header.lines().collect();
    let at = (lines.iter())
        .position(|line| {
            line.trim_start()
                .starts_with(&format!("SG_STATUS_{name} ="))
        })
        .unwrap_or_else(|| panic!("SG_STATUS_{name} is in the header"));
    let mut comment: Vec<&str> = lines[..at]
        .iter()
        .rev()
        .map_while(|line| line.trim_start().strip_prefix("// "))
        .collect();
    comment.reverse();
    comment.join(" ")
}

/// One failure made through the C interface: what it is, the status it returned, and the
/// phrase its status's comment in the header must hold.
type Case = (&'static str, SgStatus, &'static str);

/// Failures of crowds and graphs: a name the world lacks, an override refused, a graph that
/// does not compile.
fn crowd_and_graph_cases(dir: &Path) -> Vec<Case> {
    let seek = r#"(format: "steergraph.graph", version: 1, parameters: {"speed": 3.0},
        vehicle: (mass: 1.0, max_force: 5.0, max_speed: "speed", radius: 0.5),
        nodes: {1: Seek(target: Named("cursor")), 2: Output(input: 1)})"#;
    let program = program_from(dir, seek);
    let world = a_world();
    let mut crowd = SgCrowd::default();
    let mut cases = Vec::new();
    // SAFETY: valid strings, arrays and outputs.
    unsafe {
        let status = sg_crowd_create(
            program,
            world,
            1,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            &raw mut crowd,
        );
        cases.push((
            "crowd in a world without its target",
            status,
            "a name the graph uses that the world lacks",
        ));
        ok(sg_world_set_target(world, c("cursor").as_ptr(), 1.0, 0.0));
        let speed = c("speed");
        let bad = [SgParameter {
            name: speed.as_ptr(),
            value: -1.0,
        }];
        let status = sg_crowd_create(
            program,
            world,
            1,
            bad.as_ptr(),
            1,
            std::ptr::null(),
            0,
            &raw mut crowd,
        );
        cases.push((
            "an override out of range",
            status,
            "parameter overrides the graph refuses",
        ));
        let mut graph = SgGraph::default();
        let broken = c(
            r#"(format: "steergraph.graph", version: 1, nodes: {1: Seek(target: Point(1.0, 0.0)), 2: Output(input: 7)})"#,
        );
        ok(sg_graph_from_bytes(
            broken.as_ptr().cast(),
            broken.as_bytes().len(),
            c("b.graph.ron").as_ptr(),
            &raw mut graph,
        ));
        let mut compiled = SgProgram::default();
        let status = sg_program_compile(graph, std::ptr::null(), &raw mut compiled);
        cases.push((
            "a graph that does not compile",
            status,
            "A graph that does not compile",
        ));
        ok(sg_graph_free(graph));
    }
    ok(sg_world_free(world));
    ok(sg_program_free(program));
    cases
}

/// Failures of scenes and arguments: over the agent limit, an unknown group, a `NULL` output,
/// a handle already freed.
fn scene_and_argument_cases(dir: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    let folder = c_path(dir);
    let mut scene = SgScene::default();
    // SAFETY: valid strings and outputs.
    unsafe {
        let big = c(
            r#"(format: "steergraph.scene", version: 1, bounds: (min: (-9.0, -9.0), max: (9.0, 9.0)),
            groups: [(name: "a", graph: "g.graph.ron", spawn: Random(count: 4000000000, area: Rect(min: (0.0, 0.0), max: (1.0, 1.0))))])"#,
        );
        let status = sg_scene_from_bytes(
            big.as_ptr().cast(),
            big.as_bytes().len(),
            c("big.scene.ron").as_ptr(),
            folder.as_ptr(),
            &raw mut scene,
        );
        cases.push((
            "a scene of 4e9 agents",
            status,
            "the format's limits refuse",
        ));
        let small = c(
            r#"(format: "steergraph.scene", version: 1, bounds: (min: (-9.0, -9.0), max: (9.0, 9.0)),
            groups: [(name: "a", graph: "g.graph.ron", spawn: Agents([(position: (0.0, 0.0))]))])"#,
        );
        ok(sg_scene_from_bytes(
            small.as_ptr().cast(),
            small.as_bytes().len(),
            c("small.scene.ron").as_ptr(),
            folder.as_ptr(),
            &raw mut scene,
        ));
        let status = sg_scene_set_parameter(scene, c("b").as_ptr(), c("speed").as_ptr(), 2.0);
        cases.push((
            "an unknown scene group",
            status,
            "a name the object does not have (a scene group",
        ));
        ok(sg_scene_free(scene));
        let status = sg_world_create(-1.0, -1.0, 1.0, 1.0, std::ptr::null_mut());
        cases.push(("a NULL output", status, "was `NULL`"));
    }
    let status = sg_scene_free(scene);
    cases.push(("a handle already freed", status, "already freed"));
    cases
}

/// The header's list of statuses says what the code returns (issue 46: override errors gave
/// `SETUP` where it said `COMPILE`, an unknown scene group `INVALID_ARGUMENT` where it said
/// `SETUP`, a scene over the agent limit `LOAD` where it said nothing): each case is made,
/// and its status's comment in the header must name it.
#[test]
fn the_headers_status_list_says_what_each_failure_returns() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut cases = crowd_and_graph_cases(dir.path());
    cases.extend(scene_and_argument_cases(dir.path()));
    for (case, status, phrase) in cases {
        // `NullPointer` is `NULL_POINTER` in the header.
        let name: String = format!("{status:?}")
            .chars()
            .flat_map(|ch| {
                [
                    ch.is_ascii_uppercase().then_some('_'),
                    Some(ch.to_ascii_uppercase()),
                ]
            })
            .flatten()
            .skip(1)
            .collect();
        let comment = status_comment(&name);
        assert!(
            comment.contains(phrase),
            "{case}: returns SG_STATUS_{name}, whose comment does not say \"{phrase}\": {comment}"
        );
    }
}

/// After a hot reload with a new top speed the game's vehicles kept their old limits, and only
/// making them again changed them (issue 46): `sg_crowd_update_limits` gives each its group's
/// limits now and keeps its position and velocity.
#[test]
fn a_hot_reload_reaches_the_games_vehicles_limits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let graph = |speed: f32, radius: f32| {
        format!(
            r#"(format: "steergraph.graph", version: 1,
                vehicle: (mass: 2.0, max_force: 7.0, max_speed: {speed:?}, radius: {radius:?}),
                nodes: {{1: Seek(target: Point(10.0, 0.0)), 2: Output(input: 1)}})"#
        )
    };
    let slow = program_from(dir.path(), &graph(3.0, 0.5));
    let world = a_world();
    let crowd = crowd_of(slow, world, &[]);
    let mut vehicles = [std::mem::MaybeUninit::<SgVehicle>::uninit(); 2];
    // SAFETY: valid outputs.
    let mut vehicles = unsafe {
        ok(sg_crowd_vehicle(
            crowd,
            1.0,
            2.0,
            0.5,
            0.0,
            vehicles[0].as_mut_ptr(),
        ));
        ok(sg_crowd_vehicle(
            crowd,
            -1.0,
            2.0,
            0.0,
            0.5,
            vehicles[1].as_mut_ptr(),
        ));
        vehicles.map(|v| v.assume_init())
    };
    assert_eq!(vehicles.map(|v| v.max_speed), [3.0, 3.0]);
    // Group 0 is reloaded with top speed 6, and agent 1 joins a second group at 9.
    let fast = program_from(dir.path(), &graph(6.0, 0.75));
    let fastest = program_from(dir.path(), &graph(9.0, 1.0));
    let mut group = 0;
    // SAFETY: valid arrays and outputs.
    unsafe {
        ok(sg_crowd_set_program(
            crowd,
            fast,
            world,
            std::ptr::null(),
            0,
        ));
        ok(sg_crowd_add_program(
            crowd,
            fastest,
            world,
            std::ptr::null(),
            0,
            &raw mut group,
        ));
        ok(sg_crowd_set_group(crowd, 1, group));
        ok(sg_crowd_update_limits(crowd, vehicles.as_mut_ptr(), 2));
    }
    assert_eq!(
        vehicles.map(|v| (v.max_speed, v.radius)),
        [(6.0, 0.75), (9.0, 1.0)]
    );
    assert_eq!(vehicles.map(|v| (v.mass, v.max_force)), [(2.0, 7.0); 2]);
    assert_eq!(vehicles.map(|v| v.position), [[1.0, 2.0], [-1.0, 2.0]]);
    assert_eq!(vehicles.map(|v| v.velocity), [[0.5, 0.0], [0.0, 0.5]]);
    for status in [
        sg_crowd_free(crowd),
        sg_world_free(world),
        sg_program_free(slow),
        sg_program_free(fast),
        sg_program_free(fastest),
    ] {
        ok(status);
    }
}

/// A crowd's tick is held to the limit on agents × neighbors kept that a scene's is (issue 46:
/// the crowd API ran any product): 31,251 agents of a graph keeping 4,096 neighbors
/// (128,004,096, over 128,000,000) are refused by `sg_crowd_step` and `sg_crowd_steer` before
/// any work, naming the numbers, and the vehicles are left as they were; 100 agents step.
#[test]
fn a_crowds_tick_over_the_work_limit_is_refused_naming_the_numbers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = program_from(
        dir.path(),
        r#"(format: "steergraph.graph", version: 1,
            nodes: {1: Separation(radius: 2.0, fov: 360.0, max_neighbors: 4096.0), 2: Output(input: 1)})"#,
    );
    let world = a_world();
    let crowd = crowd_of(program, world, &[]);
    let mut one = std::mem::MaybeUninit::<SgVehicle>::uninit();
    // SAFETY: a valid output.
    let one = unsafe {
        ok(sg_crowd_vehicle(
            crowd,
            1.0,
            2.0,
            0.0,
            0.0,
            one.as_mut_ptr(),
        ));
        one.assume_init()
    };
    let mut vehicles = vec![one; 31_251];
    let mut steering = vec![SgSteering::default(); vehicles.len()];
    // SAFETY: arrays of `vehicles.len()` vehicles and steerings.
    let (step, steer) = unsafe {
        (
            sg_crowd_step(
                crowd,
                world,
                vehicles.as_mut_ptr(),
                std::ptr::null(),
                vehicles.len(),
                0.1,
            ),
            sg_crowd_steer(
                crowd,
                world,
                vehicles.as_ptr(),
                std::ptr::null(),
                vehicles.len(),
                0.1,
                steering.as_mut_ptr(),
            ),
        )
    };
    assert_eq!([step, steer], [SgStatus::InvalidArgument; 2]);
    let error = last_error();
    assert!(
        error.contains("group \"0\": 31251 agents × 4096")
            && error.contains("128004096 neighbors")
            && error.contains("the limit is 128000000"),
        "{error}"
    );
    assert!(vehicles.iter().all(|v| v.position == [1.0, 2.0]));
    // SAFETY: an array of 100 vehicles.
    ok(unsafe {
        sg_crowd_step(
            crowd,
            world,
            vehicles.as_mut_ptr(),
            std::ptr::null(),
            100,
            0.1,
        )
    });
}
