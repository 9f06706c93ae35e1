//! Reciprocal's queries cut to where last tick's nearest can be now (`spatial/bounds.rs`):
//! they look at fewer agents, and every agent moves as when they look as far as the radius,
//! in a scene's simulation and in a game's crowd.

use std::collections::BTreeMap;
use std::path::Path;

use glam::Vec2;

use crate::{
    AgentGroup, AgentSpawn, Graph, Link, Node, OwnPoints, Rect, Scene, SceneAssets, Simulation,
    Spawn, Target,
};

fn bits(simulation: &Simulation) -> Vec<[u32; 4]> {
    super::vehicle_bits(simulation.vehicles())
}

/// A graph of `input` into a Reciprocal node keeping `most` neighbors within `radius` (2 s
/// ahead of agents, `obstacle_horizon` of walls, `clearance`, no keep-right) into the output.
fn reciprocal_over(
    input: Node,
    (radius, most): (f32, f32),
    obstacle_horizon: f32,
    clearance: f32,
) -> Graph {
    let mut graph = Graph::default();
    let input = graph.add(input);
    let reciprocal = graph.add(Node::Reciprocal {
        input: Link(Some(input)),
        time_horizon: 2.0.into(),
        obstacle_time_horizon: obstacle_horizon.into(),
        neighbor_radius: radius.into(),
        max_neighbors: most.into(),
        clearance: clearance.into(),
        keep_right: 0.0.into(),
    });
    graph.add(Node::Output {
        input: Link(Some(reciprocal)),
    });
    graph
}

/// Every preset with Reciprocal agents (the swap circle, the four-way crossing, the teams
/// and the VIP's escort), 600 ticks (10 s) as they run, and again with the grid made to
/// forget its notes before each tick, so every query looks as far as its radius: every
/// position and velocity the same at every tick, and at 10 s, when the swap circle's crowd
/// fills its middle, the notes cut the queries of most of its agents.
#[test]
fn reciprocal_crowds_move_the_same_with_their_queries_cut() {
    let presets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
    for scene in [
        "swap_circle.scene.ron",
        "four_way.scene.ron",
        "teams.scene.ron",
        "vip.scene.ron",
    ] {
        let assets = SceneAssets::load(&presets.join(scene)).expect("a preset");
        let mut cut = Simulation::new(&assets).expect("builds");
        let mut whole = cut.clone();
        for tick in 0..600 {
            cut.step(1.0 / 60.0);
            whole.grid.forget_neighbor_notes();
            whole.step(1.0 / 60.0);
            assert!(bits(&cut) == bits(&whole), "{scene}: tick {tick} differs");
        }
        if scene == "swap_circle.scene.ron" {
            // The swap circle's agents keep 10 neighbors within 5 units (`orca_crowd.graph`).
            let vehicles = cut.vehicles();
            let shorter = (0..vehicles.len())
                .filter(|&agent| {
                    let p = vehicles[agent].position;
                    cut.grid.neighbor_reach(agent, p, 10, 5.0) < 5.0
                })
                .count();
            assert!(
                shorter * 2 > vehicles.len(),
                "{shorter} of {} cut",
                vehicles.len()
            );
        }
    }
}

/// A square of 24 × 24 agents one unit apart, at rest with nowhere to go, each keeping its 4
/// nearest within 8 units. The grid's cells are 8 units (the radius), 3 × 3 of them over the
/// square's 23 units. Agent 275 stands at (11, 11), inside the middle cell (8 to 16 each
/// way): its 4 nearest are 1 unit away, and no agent moves, so from its second tick on its
/// query looks 1 unit and slack (1 / 64, 23 / 65,536 for a position 11 + 11 from the origin,
/// and the least, 0.001), which stays in the middle cell's 8 × 8 = 64 agents instead of all
/// 576.
#[test]
fn a_query_looks_no_farther_than_its_nearest_were() {
    // Each agent's own goal is where it stands.
    let home = Node::Arrival {
        target: Target::Own("home".to_owned()),
        slowing_distance: 4.0.into(),
    };
    let graph = reciprocal_over(home, (8.0, 4.0), 0.0, 0.0);
    let places: Vec<Vec2> = (0..24 * 24)
        .map(|i| Vec2::new((i % 24) as f32, (i / 24) as f32))
        .collect();
    let agents = (places.iter())
        .map(|&position| AgentSpawn {
            position,
            velocity: Vec2::ZERO,
        })
        .collect();
    let assets = SceneAssets {
        scene: Scene {
            bounds: Rect::new(Vec2::splat(-10.0), Vec2::splat(40.0)),
            groups: vec![AgentGroup {
                goals: [("home".to_owned(), OwnPoints::Each(places))].into(),
                ..AgentGroup::new("square", "g.graph.ron", Spawn::Agents(agents))
            }],
            ..Scene::default()
        },
        origin: "square.scene.ron".to_owned(),
        graphs: [("g.graph.ron".to_owned(), graph)].into(),
        flow_fields: BTreeMap::new(),
    };
    let mut simulation = Simulation::new(&assets).expect("builds");
    let at_start = bits(&simulation);
    let p = Vec2::new(11.0, 11.0);
    assert_eq!(simulation.vehicles()[275].position, p);
    // The first tick's queries find no note and look as far as the radius; they leave one.
    assert_eq!(simulation.grid.neighbor_reach(275, p, 4, 8.0), 8.0);
    simulation.step(1.0 / 60.0);
    assert_eq!(simulation.grid.cell_size(), 8.0);
    for _ in 0..3 {
        simulation.step(1.0 / 60.0);
        let reach = simulation.grid.neighbor_reach(275, p, 4, 8.0);
        assert_eq!(reach, 1.0 + (1.0 / 64.0 + 23.0 / 65_536.0 + 0.001));
        let looked_at = |radius| -> usize {
            let runs = simulation.grid.runs(p, radius);
            runs.map(|run| run.agents.len()).sum()
        };
        assert_eq!((looked_at(reach), looked_at(8.0)), (64, 576));
    }
    assert!(bits(&simulation) == at_start, "the square stays at rest");
}

/// A game's crowd of 300 agents on a ring of 30 units, each seeking the centre through
/// Reciprocal (10 neighbors within 10 units), moved by the crowd 400 ticks; and the same crowd
/// with its grid made to forget its notes before each tick: every position and velocity the
/// same at every tick. At the end, crowded at the centre, most agents' queries are cut.
#[test]
fn a_games_crowd_moves_the_same_with_its_queries_cut() {
    use crate::{Crowd, Vehicle, VehicleParams, World};

    let centre = Node::Seek {
        target: Target::Point(0.0.into(), 0.0.into()),
    };
    let graph = reciprocal_over(centre, (10.0, 10.0), 1.0, 0.1);
    let world = World::default();
    let crowd = || {
        let program = crate::compile(&graph).expect("compiles");
        Crowd::new(program, &world, 1, &BTreeMap::new()).expect("binds")
    };
    let (mut cut, mut whole) = (crowd(), crowd());
    let params = VehicleParams::default();
    let ring: Vec<Vehicle> = (0..300)
        .map(|i| {
            let angle = i as f32 * std::f32::consts::TAU / 300.0;
            Vehicle::new(Vec2::from_angle(angle) * 30.0, Vec2::ZERO, params)
        })
        .collect();
    let (mut a, mut b) = (ring.clone(), ring);
    for tick in 0..400 {
        cut.step(&world, &mut a, &[], 1.0 / 60.0);
        whole.grid_mut().forget_neighbor_notes();
        whole.step(&world, &mut b, &[], 1.0 / 60.0);
        assert!(
            super::vehicle_bits(&a) == super::vehicle_bits(&b),
            "tick {tick} differs"
        );
    }
    let shorter = (0..a.len())
        .filter(|&agent| {
            let p = a[agent].position;
            cut.grid_mut().neighbor_reach(agent, p, 10, 10.0) < 10.0
        })
        .count();
    assert!(shorter * 2 > a.len(), "{shorter} of {} cut", a.len());
}
