//! The C interface called as C calls it (the same `extern "C"` functions), held against the
//! Rust API: the same numbers bit for bit, hot reload through a watcher, calls from several
//! threads, and the rule that every entry point runs inside the panic guard.
#![expect(
    unsafe_code,
    reason = "calls the library's extern \"C\" functions exactly as a C program does"
)]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{c, c_path, last_error, ok, presets};
use graph_runtime::{Crowd, FlowField, Rect, SceneAssets, Simulation, Vehicle, World};
use steergraph::*;

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
