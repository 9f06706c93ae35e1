//! Every driver of the tick core run on a preset scene from its start, each reduced to one
//! trajectory hash: `Simulation`, a game's `Crowd` stepping the scene's agents
//! (`Crowd::step`) and the C interface's crowd (`sg_crowd_step`, called as C calls it). The
//! Bevy plugin's tests add the fourth (`integrations/bevy/tests/plugin/drivers_agree.rs`).
#![expect(
    unsafe_code,
    reason = "the C driver calls the interface's extern \"C\" functions exactly as a C program does"
)]

use std::ffi::CString;
use std::hash::{DefaultHasher, Hash as _, Hasher as _};

use graph_runtime::{Crowd, SceneAssets, Simulation, TagTable, Vehicle, World, compile_with};
use steergraph::{
    SgCrowd, SgParameter, SgProgram, SgStatus, SgVehicle, SgWorld, sg_crowd_create, sg_crowd_free,
    sg_crowd_set_avoidance, sg_crowd_set_goal, sg_crowd_set_group, sg_crowd_step, sg_last_error,
    sg_program_free, sg_program_load, sg_world_free, sg_world_from_scene,
};

use crate::{presets_dir, run_preset};

/// The tick of the editor and `steergraph simulate`.
pub const DT: f32 = 1.0 / 60.0;

/// A hash of every tick's vehicles: positions, velocities, facings and turn rates, bit for
/// bit, in agent order.
#[derive(Debug, Default)]
pub struct Trajectory(DefaultHasher);

impl Trajectory {
    /// Adds one tick's vehicles.
    pub fn tick(&mut self, vehicles: impl IntoIterator<Item = Vehicle>) {
        self.tick_parts(vehicles.into_iter().map(|vehicle| {
            let [px, py] = vehicle.position.to_array();
            let [vx, vy] = vehicle.velocity.to_array();
            [
                px,
                py,
                vx,
                vy,
                vehicle.orientation,
                vehicle.angular_velocity,
            ]
        }));
    }

    /// Adds one tick's vehicles given as `[x, y, vx, vy, orientation, angular velocity]`.
    pub fn tick_parts(&mut self, vehicles: impl IntoIterator<Item = [f32; 6]>) {
        for parts in vehicles {
            for value in parts {
                value.to_bits().hash(&mut self.0);
            }
        }
    }

    /// The hash of the ticks so far.
    pub fn finish(&self) -> u64 {
        self.0.finish()
    }
}

/// The tag table a scene's simulation builds: its groups' tags registered in group order.
fn tag_table(assets: &SceneAssets) -> TagTable {
    let mut tags = TagTable::default();
    for group in &assets.scene.groups {
        tags.mask(&group.tags).expect("the preset's tags fit");
    }
    tags
}

/// A crowd running `simulation`'s scene as it stands (its start): the scene's programs as its
/// groups, every agent in its group with its own goals, and the world and vehicles to step.
///
/// # Panics
///
/// When the scene's graphs do not compile or bind.
pub fn crowd_of(assets: &SceneAssets, simulation: &Simulation) -> (Crowd, World, Vec<Vehicle>) {
    let scene = &assets.scene;
    let mut world = World::from_scene(scene, &assets.flow_fields);
    assets
        .build_navigation(&mut world)
        .expect("the preset's navigation builds");
    let tags = tag_table(assets);
    let program = |index: usize| {
        let group = &scene.groups[index];
        let graph = &assets.graphs[&group.graph];
        compile_with(graph, &group.graph, &assets.graphs).expect("the preset compiles")
    };
    let first = &scene.groups[0];
    let mut crowd = Crowd::with_tags(program(0), &world, &tags, scene.seed, &first.parameters)
        .expect("the crowd binds");
    for (index, group) in scene.groups.iter().enumerate().skip(1) {
        let added = crowd
            .add_program(program(index), &world, &group.parameters)
            .expect("the group binds");
        assert_eq!(added, index);
    }
    for agent in 0..simulation.vehicles().len() {
        let group = simulation.group_of(agent).expect("every agent has a group");
        assert!(crowd.set_group(agent, group));
        let avoidance = simulation.avoidance(agent);
        if avoidance != graph_runtime::Avoidance::default() {
            crowd
                .set_avoidance(agent, avoidance)
                .expect("a scene's avoidance is valid");
        }
        let own = simulation.own(agent).expect("every agent has a state");
        for (name, point) in own.goals() {
            crowd
                .set_goal(agent, name, point)
                .expect("a scene's goal is valid");
        }
    }
    (crowd, world, simulation.vehicles().to_vec())
}

/// Gives the C crowd `crowd` what `simulation`'s agent `agent` starts with: its group, its
/// avoidance and its own goals.
fn give_agent(crowd: SgCrowd, simulation: &Simulation, agent: usize) {
    let group = simulation.group_of(agent).expect("every agent has a group");
    ok(sg_crowd_set_group(crowd, agent, group));
    let avoidance = simulation.avoidance(agent);
    if avoidance != graph_runtime::Avoidance::default() {
        let graph_runtime::Avoidance {
            priority,
            layers,
            mask,
        } = avoidance;
        ok(sg_crowd_set_avoidance(crowd, agent, priority, layers, mask));
    }
    let own = simulation.own(agent).expect("every agent has a state");
    for (name, point) in own.goals() {
        let name = c(name);
        // SAFETY: a NUL-terminated name.
        ok(unsafe { sg_crowd_set_goal(crowd, agent, name.as_ptr(), point.x, point.y) });
    }
}

/// `steergraph simulate`'s run of preset `scene`, `ticks` ticks.
pub fn simulation_hash(scene: &str, ticks: u32) -> u64 {
    let (_, mut simulation) = run_preset(scene);
    let mut trajectory = Trajectory::default();
    for _ in 0..ticks {
        simulation.step(DT);
        trajectory.tick(simulation.vehicles().iter().copied());
    }
    trajectory.finish()
}

/// A game's crowd stepping preset `scene`'s agents (`Crowd::step`), `ticks` ticks.
pub fn crowd_hash(scene: &str, ticks: u32) -> u64 {
    let (assets, simulation) = run_preset(scene);
    let (mut crowd, world, mut vehicles) = crowd_of(&assets, &simulation);
    let tags = simulation.tags().to_vec();
    let mut trajectory = Trajectory::default();
    for _ in 0..ticks {
        crowd.step(&world, &mut vehicles, &tags, DT);
        trajectory.tick(vehicles.iter().copied());
    }
    trajectory.finish()
}

fn c(text: &str) -> CString {
    CString::new(text).expect("no NUL")
}

#[track_caller]
fn ok(status: SgStatus) {
    if status != SgStatus::Ok {
        let mut buffer = vec![0_u8; 4096];
        let mut length = 0;
        // SAFETY: a buffer of its stated size and a length to write.
        unsafe { sg_last_error(buffer.as_mut_ptr().cast(), buffer.len(), &raw mut length) };
        panic!(
            "{status:?}: {}",
            String::from_utf8_lossy(&buffer[..length.min(buffer.len())])
        );
    }
}

/// A C program's crowd stepping preset `scene`'s agents (`sg_crowd_step`), `ticks` ticks: the
/// world from the scene file, one program per group loaded from its graph file, the agents
/// placed where the scene starts them, with their groups, tags and own goals.
///
/// # Panics
///
/// When a call fails, with the interface's error.
pub fn c_hash(scene: &str, ticks: u32) -> u64 {
    let (assets, simulation) = run_preset(scene);
    let tags = tag_table(&assets);
    let tag_names: Vec<CString> = tags.names().iter().map(|name| c(name)).collect();
    let tag_pointers: Vec<_> = tag_names.iter().map(|name| name.as_ptr()).collect();
    let file = c(&presets_dir().join(scene).display().to_string());
    let mut loaded = steergraph::SgScene::default();
    let mut world = SgWorld::default();
    let mut crowd = SgCrowd::default();
    let mut programs = Vec::new();
    // SAFETY: valid strings, arrays of their stated lengths and outputs, as a C program passes.
    unsafe {
        ok(steergraph::sg_scene_load(file.as_ptr(), &raw mut loaded));
        ok(sg_world_from_scene(loaded, &raw mut world));
        ok(steergraph::sg_scene_free(loaded));
        for (index, group) in assets.scene.groups.iter().enumerate() {
            let path = c(&presets_dir().join(&group.graph).display().to_string());
            let mut program = SgProgram::default();
            ok(sg_program_load(path.as_ptr(), &raw mut program));
            let names: Vec<CString> = group.parameters.keys().map(|name| c(name)).collect();
            let overrides: Vec<SgParameter> = names
                .iter()
                .zip(group.parameters.values())
                .map(|(name, &value)| SgParameter {
                    name: name.as_ptr(),
                    value,
                })
                .collect();
            if index == 0 {
                ok(sg_crowd_create(
                    program,
                    world,
                    assets.scene.seed,
                    overrides.as_ptr(),
                    overrides.len(),
                    tag_pointers.as_ptr(),
                    tag_pointers.len(),
                    &raw mut crowd,
                ));
            } else {
                let mut added = 0;
                ok(steergraph::sg_crowd_add_program(
                    crowd,
                    program,
                    world,
                    overrides.as_ptr(),
                    overrides.len(),
                    &raw mut added,
                ));
                assert_eq!(added, index);
            }
            programs.push(program);
        }
        for agent in 0..simulation.vehicles().len() {
            give_agent(crowd, &simulation, agent);
        }
    }
    let mut vehicles: Vec<SgVehicle> = simulation.vehicles().iter().map(SgVehicle::from).collect();
    let masks = simulation.tags().to_vec();
    let mut trajectory = Trajectory::default();
    for _ in 0..ticks {
        // SAFETY: arrays of `vehicles.len()` vehicles and masks.
        ok(unsafe {
            sg_crowd_step(
                crowd,
                world,
                vehicles.as_mut_ptr(),
                masks.as_ptr(),
                vehicles.len(),
                DT,
            )
        });
        trajectory.tick_parts(vehicles.iter().map(|v| {
            let [px, py] = v.position;
            let [vx, vy] = v.velocity;
            [px, py, vx, vy, v.orientation, v.angular_velocity]
        }));
    }
    ok(sg_crowd_free(crowd));
    ok(sg_world_free(world));
    for program in programs {
        ok(sg_program_free(program));
    }
    trajectory.finish()
}

/// The bits of a vehicle that motion changes: position, velocity, heading, facing and its
/// angular velocity.
#[must_use]
pub fn motion_bits(vehicle: &graph_runtime::Vehicle) -> [u32; 8] {
    let [px, py] = vehicle.position.to_array();
    let [vx, vy] = vehicle.velocity.to_array();
    let [fx, fy] = vehicle.forward.to_array();
    [
        px,
        py,
        vx,
        vy,
        fx,
        fy,
        vehicle.orientation,
        vehicle.angular_velocity,
    ]
    .map(f32::to_bits)
}
