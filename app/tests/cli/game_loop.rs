//! A game that loads the assets itself and steps its own agents with `Crowd` gets exactly the
//! trajectories `steergraph simulate` writes for the same scene.

use std::fmt::Write as _;
use std::process::Command;

use glam::Vec2;
use graph_runtime::{Crowd, FlowField, Graph, Rect, Scene, Vehicle, World, compile};
use tests::presets_dir;

use crate::{steergraph, succeeds};

const TICKS: usize = 120;

#[test]
fn a_game_loop_with_crowd_matches_steergraph_simulate_bit_for_bit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let csv = dir.path().join("river.csv");
    succeeds(
        Command::new(steergraph())
            .arg("simulate")
            .arg(presets_dir().join("river.scene.ron"))
            .args(["--ticks", &TICKS.to_string(), "--out"])
            .arg(&csv),
    );
    let expected = std::fs::read_to_string(&csv).expect("csv");

    // The game side: its own loading, its own agent list, its own loop.
    let scene = Scene::load(&presets_dir().join("river.scene.ron")).expect("scene");
    let graph = Graph::load(&presets_dir().join("river.graph.ron")).expect("graph");
    let program = compile(&graph).expect("compiles");
    let mut world = World::new(Rect::new(scene.bounds.min, scene.bounds.max));
    world.set_flow_field(
        "river",
        FlowField::load(&presets_dir().join("river.flow.ron")).expect("field"),
    );
    let mut crowd = Crowd::new(
        program,
        &world,
        scene.seed,
        &std::collections::BTreeMap::new(),
    )
    .expect("binds");
    // Start where the scene spawned them (tick 0 of the CSV).
    let mut agents: Vec<Vehicle> = expected
        .lines()
        .skip(1)
        .map(|line| line.split(',').collect::<Vec<_>>())
        .take_while(|fields| fields[0] == "0")
        .map(|f| {
            let number = |i: usize| f[i].parse::<f32>().expect("float");
            Vehicle::new(
                Vec2::new(number(2), number(3)),
                Vec2::new(number(4), number(5)),
                crowd.vehicle_params(),
            )
        })
        .collect();
    assert_eq!(agents.len(), 60);

    let mut actual = String::from("tick,agent,x,y,vx,vy\n");
    let mut forces = Vec::new();
    for tick in 0..=TICKS {
        if tick > 0 {
            crowd.steer(&world, &agents, &[], 1.0 / 60.0, &mut forces);
            for (agent, force) in agents.iter_mut().zip(&forces) {
                agent.step(*force, 1.0 / 60.0);
            }
        }
        for (index, v) in agents.iter().enumerate() {
            writeln!(
                actual,
                "{tick},{index},{},{},{},{}",
                v.position.x, v.position.y, v.velocity.x, v.velocity.y
            )
            .expect("write");
        }
    }
    assert_eq!(actual, expected);
}
