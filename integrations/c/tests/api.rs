//! The C interface called as C calls it (the same `extern "C"` functions), held against the
//! Rust API: the same numbers bit for bit, hot reload through a watcher, calls from several
//! threads, and the rule that every entry point runs inside the panic guard.
#![expect(
    unsafe_code,
    reason = "calls the library's extern \"C\" functions exactly as a C program does"
)]

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use graph_runtime::{Crowd, FlowField, Rect, SceneAssets, Simulation, Vehicle, World};
use steergraph::*;

fn presets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../presets")
}

fn c(text: impl AsRef<str>) -> CString {
    CString::new(text.as_ref()).expect("no NUL")
}

fn c_path(path: &Path) -> CString {
    c(path.to_str().expect("UTF-8 path"))
}

fn last_error() -> String {
    let mut buffer = vec![0_u8; 4096];
    let mut length = 0;
    // SAFETY: a buffer of its stated size and a length to write.
    let status =
        unsafe { sg_last_error(buffer.as_mut_ptr().cast(), buffer.len(), &raw mut length) };
    assert_eq!(status, SgStatus::Ok);
    String::from_utf8_lossy(&buffer[..length]).into_owned()
}

#[track_caller]
fn ok(status: SgStatus) {
    assert_eq!(status, SgStatus::Ok, "{}", last_error());
}

#[test]
fn a_simulation_through_c_matches_the_rust_api_bit_for_bit() {
    let file = presets().join("swap_circle.scene.ron");
    let mut scene = SgScene::default();
    let mut simulation = SgSimulation::default();
    let seed = 11_u64;
    // SAFETY: valid strings and outputs.
    unsafe {
        ok(sg_scene_load(c_path(&file).as_ptr(), &raw mut scene));
        ok(sg_simulation_create(
            scene,
            &raw const seed,
            &raw mut simulation,
        ));
    }
    ok(sg_scene_free(scene));
    let mut assets = SceneAssets::load(&file).expect("preset loads");
    assets.scene.seed = seed;
    let mut rust = Simulation::new(&assets).expect("preset runs");

    let mut count = 0;
    // SAFETY: a valid output.
    ok(unsafe { sg_simulation_agent_count(simulation, &raw mut count) });
    assert_eq!(count, 200, "the swap circle has 200 agents");
    let mut position = vec![0.0_f32; 2 * count];
    let mut velocity = vec![0.0_f32; 2 * count];
    let mut group = vec![7_u32; count];
    let arrays = SgAgentArrays {
        capacity: count,
        position: position.as_mut_ptr(),
        velocity: velocity.as_mut_ptr(),
        angle: std::ptr::null_mut(),
        angular_velocity: std::ptr::null_mut(),
        height: std::ptr::null_mut(),
        airborne: std::ptr::null_mut(),
        tags: std::ptr::null_mut(),
        group: group.as_mut_ptr(),
    };
    for _ in 0..120 {
        ok(sg_simulation_step(simulation, 1.0 / 60.0));
        rust.step(1.0 / 60.0);
        // SAFETY: arrays with room for `count` agents.
        ok(unsafe { sg_simulation_read(simulation, &raw const arrays) });
        for (i, vehicle) in rust.vehicles().iter().enumerate() {
            assert_eq!(position[2 * i].to_bits(), vehicle.position.x.to_bits());
            assert_eq!(position[2 * i + 1].to_bits(), vehicle.position.y.to_bits());
            assert_eq!(velocity[2 * i].to_bits(), vehicle.velocity.x.to_bits());
            assert_eq!(velocity[2 * i + 1].to_bits(), vehicle.velocity.y.to_bits());
        }
    }
    assert!(group.iter().all(|&g| g == 0), "one group, index 0");
    ok(sg_simulation_free(simulation));
}

/// The C twin of `graph-runtime/examples/game_loop.rs`, compiled with the system C compiler
/// against the static library, prints the same fish positions as the Rust API computes here.
#[test]
fn the_c_game_loop_steers_its_fish_exactly_as_the_rust_api() {
    // The test runs from target/<profile>/deps/, where `cargo test` leaves the crate's
    // libraries (`cargo build` also copies them up to target/<profile>/).
    let deps = std::env::current_exe()
        .expect("test path")
        .parent()
        .expect("deps folder")
        .to_path_buf();
    let library = [
        deps.join("libsteergraph.a"),
        deps.join("../libsteergraph.a"),
    ]
    .into_iter()
    .find(|candidate| candidate.exists())
    .expect("libsteergraph.a is built with the crate's tests");
    let dir = tempfile::tempdir().expect("temp dir");
    let program = dir.path().join("game_loop");
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let compiled = std::process::Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir.join("include"))
        .arg(crate_dir.join("examples/game_loop.c"))
        .arg(&library)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&program)
        .status()
        .expect("the system C compiler runs");
    assert!(compiled.success());
    let output = std::process::Command::new(&program)
        .arg(presets())
        .output()
        .expect("runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed = String::from_utf8(output.stdout).expect("UTF-8");

    // The same loop through the Rust API.
    let graph_file = presets().join("river.graph.ron");
    let graph = graph_runtime::Graph::load(&graph_file).expect("loads");
    let program = graph_runtime::Subgraphs::load(&graph, &graph_file)
        .compile(&graph)
        .expect("compiles");
    let mut world = World::new(Rect::new(
        glam::Vec2::new(-60.0, -20.0),
        glam::Vec2::new(60.0, 20.0),
    ));
    world.set_flow_field(
        "river",
        FlowField::load(&presets().join("river.flow.ron")).expect("loads"),
    );
    let mut crowd =
        Crowd::new(program, &world, 3, &std::collections::BTreeMap::default()).expect("binds");
    let mut fish: Vec<Vehicle> = (0..8)
        .map(|i| {
            Vehicle::new(
                glam::Vec2::new(-55.0, -15.0 + i as f32 * 4.0),
                glam::Vec2::ZERO,
                crowd.vehicle_params(),
            )
            .with_turning(crowd.turning())
        })
        .collect();
    let mut forces = Vec::new();
    for _ in 0..600 {
        crowd.steer(&world, &fish, &[], 1.0 / 60.0, &mut forces);
        for (body, force) in fish.iter_mut().zip(&forces) {
            body.step(*force, 1.0 / 60.0);
        }
    }
    for (i, (line, body)) in printed.lines().zip(&fish).enumerate() {
        let expected = format!(
            "fish {i} is at ({}, {}) moving ({}, {})",
            body.position.x, body.position.y, body.velocity.x, body.velocity.y
        );
        assert!(
            line.starts_with(&expected),
            "C printed {line:?}, Rust computed {expected:?}"
        );
    }
    assert_eq!(printed.lines().count(), 8);
}

#[test]
fn a_watcher_hands_back_the_new_program_and_keeps_the_last_good_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("seek.graph.ron");
    let seek = |x: f32| {
        format!(
            r#"(format: "steergraph.graph", version: 1, nodes: {{1: Seek(target: Point({x:?}, 0.0)), 2: Output(input: 1)}})"#
        )
    };
    std::fs::write(&file, seek(10.0)).expect("written");
    let mut watcher = SgWatcher::default();
    // SAFETY: a valid string and output.
    ok(unsafe { sg_watcher_create(c_path(&file).as_ptr(), &raw mut watcher) });
    ok(sg_watcher_set_debounce(watcher, 20));
    let mut program = SgProgram { id: 99 };
    // SAFETY: a valid output.
    ok(unsafe { sg_watcher_poll(watcher, &raw mut program) });
    assert_eq!(program.id, 0, "nothing changed yet");

    // Polls until the watcher answers (file events arrive on another thread), a minute at most:
    // a wait for the watcher's thread on a busy machine, not a speed check.
    let poll_until_answer = |program: &mut SgProgram| -> SgStatus {
        let start = Instant::now();
        loop {
            // SAFETY: a valid output.
            let status = unsafe { sg_watcher_poll(watcher, program) };
            if status != SgStatus::Ok
                || program.id != 0
                || start.elapsed() > Duration::from_secs(60)
            {
                return status;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    std::fs::write(
        &file,
        "(format: \"steergraph.graph\", version: 1, nodes: {1: Seek(",
    )
    .expect("written");
    let status = poll_until_answer(&mut program);
    assert_eq!(status, SgStatus::Load, "a broken save is refused");
    assert!(
        last_error().contains("seek.graph.ron:1:"),
        "{}",
        last_error()
    );
    assert_eq!(program.id, 0);

    std::fs::write(&file, seek(-10.0)).expect("written");
    ok(poll_until_answer(&mut program));
    assert_ne!(program.id, 0, "the fixed file compiles");
    // The new program seeks (-10, 0): a crowd at the origin is pushed towards -x.
    let mut world = SgWorld::default();
    let mut crowd = SgCrowd::default();
    let mut vehicle = std::mem::MaybeUninit::<SgVehicle>::uninit();
    let mut steering = [SgSteering::default()];
    // SAFETY: valid outputs and arrays of one element.
    unsafe {
        ok(sg_world_create(-50.0, -50.0, 50.0, 50.0, &raw mut world));
        ok(sg_crowd_create(
            program,
            world,
            1,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            &raw mut crowd,
        ));
        ok(sg_crowd_vehicle(
            crowd,
            0.0,
            0.0,
            0.0,
            0.0,
            vehicle.as_mut_ptr(),
        ));
        let vehicle = vehicle.assume_init();
        ok(sg_crowd_steer(
            crowd,
            world,
            &raw const vehicle,
            std::ptr::null(),
            1,
            0.1,
            steering.as_mut_ptr(),
        ));
    }
    // Seek with max speed 5 (the default vehicle) from rest: desired (-5, 0), force = desired - v.
    assert_eq!(steering[0].force, [-5.0, 0.0]);
    for status in [
        sg_crowd_free(crowd),
        sg_world_free(world),
        sg_program_free(program),
        sg_watcher_free(watcher),
    ] {
        ok(status);
    }
}

#[test]
fn simulations_step_on_several_threads_at_once_with_the_same_results() {
    let file = c_path(&presets().join("rooms.scene.ron"));
    let run = || {
        let mut scene = SgScene::default();
        let mut simulation = SgSimulation::default();
        // SAFETY: valid strings and outputs.
        unsafe {
            ok(sg_scene_load(file.as_ptr(), &raw mut scene));
            ok(sg_simulation_create(
                scene,
                std::ptr::null(),
                &raw mut simulation,
            ));
        }
        ok(sg_scene_free(scene));
        for _ in 0..60 {
            ok(sg_simulation_step(simulation, 1.0 / 60.0));
        }
        let mut position = vec![0.0_f32; 200];
        let arrays = SgAgentArrays {
            capacity: 100,
            position: position.as_mut_ptr(),
            velocity: std::ptr::null_mut(),
            angle: std::ptr::null_mut(),
            angular_velocity: std::ptr::null_mut(),
            height: std::ptr::null_mut(),
            airborne: std::ptr::null_mut(),
            tags: std::ptr::null_mut(),
            group: std::ptr::null_mut(),
        };
        // SAFETY: room for 100 agents, the preset's count.
        ok(unsafe { sg_simulation_read(simulation, &raw const arrays) });
        ok(sg_simulation_free(simulation));
        position.iter().map(|p| p.to_bits()).collect::<Vec<_>>()
    };
    let results: Vec<Vec<u32>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..3).map(|_| scope.spawn(run)).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    assert!(results.windows(2).all(|pair| pair[0] == pair[1]));
}

/// Every exported function runs its body through `guard` (so a panic becomes
/// `SG_STATUS_PANIC`), read from the source: a new entry point without it fails here.
#[test]
fn every_entry_point_runs_inside_the_panic_guard() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut entry_points = 0;
    for entry in std::fs::read_dir(&src).expect("src") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("source");
        for (index, _) in text.match_indices("extern \"C\" fn ") {
            entry_points += 1;
            let body = &text[index..];
            let open = body.find('{').expect("a body");
            // The first statement, past comments.
            let first = body[open + 1..]
                .lines()
                .map(str::trim)
                .find(|line| !line.is_empty() && !line.starts_with("//"))
                .unwrap_or_default();
            let name = &body[14..body.find('(').expect("arguments")];
            let guarded = first.starts_with("guard(")
                || first.starts_with("crate::status::guard(")
                // sg_last_error catches panics itself: `guard` would overwrite the message.
                || (name == "sg_last_error" && body[..body.find("\n}\n").unwrap_or(body.len())].contains("catch_unwind"));
            assert!(
                guarded,
                "{}: {name} does not start with guard(",
                path.display()
            );
        }
    }
    assert!(entry_points >= 50, "found {entry_points} entry points");
}

#[test]
fn navigation_from_a_games_own_walls_and_the_route_state_match_the_rust_api() {
    // The level of `examples/navigate.c`: 40 × 20, a wall at x = 0 from y = -10 to 5.
    let mut world = SgWorld { id: 0 };
    // SAFETY: a handle to write.
    ok(unsafe { sg_world_create(-20.0, -10.0, 20.0, 10.0, &raw mut world) });
    let wall = [0.0_f32, -10.0, 0.0, 5.0];
    // SAFETY: 2 points.
    ok(unsafe { sg_world_add_wall(world, wall.as_ptr(), 2, false) });
    // A radius that is no size, and bounds too small for the radius: refused, saying why.
    assert_eq!(
        sg_world_build_navigation(world, f32::NAN),
        SgStatus::InvalidArgument
    );
    assert_eq!(sg_world_build_navigation(world, 15.0), SgStatus::Setup);
    assert!(last_error().contains("leave no room"), "{}", last_error());
    ok(sg_world_build_navigation(world, 0.5));
    let graph = presets().join("navigator.graph.ron");
    let mut program = SgProgram { id: 0 };
    // SAFETY: a NUL-terminated path and a handle to write.
    ok(unsafe { sg_program_load(c_path(&graph).as_ptr(), &raw mut program) });
    let mut crowd = SgCrowd { id: 0 };
    // SAFETY: no overrides or tags, a handle to write.
    ok(unsafe {
        sg_crowd_create(
            program,
            world,
            1,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            &raw mut crowd,
        )
    });
    let goal = c("goal");
    // SAFETY: a NUL-terminated name.
    ok(unsafe { sg_crowd_set_goal(crowd, 0, goal.as_ptr(), 12.0, -7.5) });
    let mut vehicle = std::mem::MaybeUninit::<SgVehicle>::uninit();
    // SAFETY: one vehicle to write.
    ok(unsafe { sg_crowd_vehicle(crowd, -12.0, -7.5, 0.0, 0.0, vehicle.as_mut_ptr()) });
    // SAFETY: written by the call above.
    let mut agent = [unsafe { vehicle.assume_init() }];
    let state = |crowd: SgCrowd| {
        let mut state = SgRouteState {
            status: SgRouteStatus::None,
            point_count: 0,
            leg: 0,
            plans: 0,
            reaches_goal: false,
        };
        // SAFETY: one state to write.
        ok(unsafe { sg_crowd_route_state(crowd, 0, &raw mut state) });
        state
    };
    // Before the first step: waiting for its first route; an agent the crowd has never seen
    // has none.
    assert_eq!(state(crowd).status, SgRouteStatus::Waiting);
    let mut unknown = SgRouteState {
        status: SgRouteStatus::Following,
        point_count: 9,
        leg: 9,
        plans: 9,
        reaches_goal: true,
    };
    // SAFETY: one state to write.
    ok(unsafe { sg_crowd_route_state(crowd, 5, &raw mut unknown) });
    assert_eq!(unknown.status, SgRouteStatus::None);
    let mut planned_from = agent[0].position;
    for _ in 0..2 {
        planned_from = agent[0].position;
        // SAFETY: one vehicle, no tags.
        ok(unsafe {
            sg_crowd_step(
                crowd,
                world,
                agent.as_mut_ptr(),
                std::ptr::null(),
                1,
                1.0 / 60.0,
            )
        });
    }
    // Planned on the second step: round the wall's end grown by the radius, (0, 5) + 0.5.
    let planned = state(crowd);
    assert_eq!(planned.status, SgRouteStatus::Following);
    assert_eq!(
        (planned.point_count, planned.plans, planned.reaches_goal),
        (4, 1, true)
    );
    let mut count = 0;
    // SAFETY: asking for the number only.
    ok(unsafe { sg_crowd_route_points(crowd, 0, std::ptr::null_mut(), 0, &raw mut count) });
    assert_eq!(count, 4);
    let mut xy = [0.0_f32; 6];
    // SAFETY: room for 3 points: too few, nothing written.
    let status = unsafe { sg_crowd_route_points(crowd, 0, xy.as_mut_ptr(), 3, &raw mut count) };
    assert_eq!(status, SgStatus::ArrayTooShort);
    let mut xy = [0.0_f32; 8];
    // SAFETY: room for 4 points.
    ok(unsafe { sg_crowd_route_points(crowd, 0, xy.as_mut_ptr(), 4, &raw mut count) });
    // From where the agent stood when the second step began.
    assert_eq!(xy[..2], planned_from);
    assert_eq!(xy[2..], [-0.5, 5.5, 0.5, 5.5, 12.0, -7.5]);
    ok(sg_crowd_free(crowd));
    ok(sg_program_free(program));
    ok(sg_world_free(world));
}

#[test]
fn avoidance_is_set_through_c_and_bad_priorities_are_refused() {
    let graph = presets().join("navigator.graph.ron");
    let mut program = SgProgram { id: 0 };
    let mut world = SgWorld { id: 0 };
    let mut crowd = SgCrowd { id: 0 };
    // SAFETY: valid outputs.
    unsafe {
        ok(sg_program_load(c_path(&graph).as_ptr(), &raw mut program));
        ok(sg_world_create(-10.0, -10.0, 10.0, 10.0, &raw mut world));
        ok(sg_crowd_create(
            program,
            world,
            1,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            &raw mut crowd,
        ));
    }
    ok(sg_crowd_set_avoidance(crowd, 3, 100.0, 0b10, 0b110));
    // A priority out of range is refused, saying why.
    assert_eq!(
        sg_crowd_set_avoidance(crowd, 3, 0.0, 1, 1),
        SgStatus::InvalidArgument
    );
    assert!(last_error().contains("priority 0"), "{}", last_error());
    assert_eq!(
        sg_crowd_set_avoidance(crowd, 3, f32::NAN, 1, 1),
        SgStatus::InvalidArgument
    );
    ok(sg_crowd_free(crowd));
    ok(sg_program_free(program));
    ok(sg_world_free(world));
}

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
        r#"own goal "gaol": no graph of this crowd reads it (they read: "goal")"#
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
