//! What runs but may surprise the designer: a group whose agents face independently while
//! nothing in their graph turns the facing (issue 42: a crowd of white facing marks in the
//! preview, with no hint what would turn them).

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    AgentGroup, AgentSpawn, Graph, Link, Node, Scene, SceneAssets, SceneWarning, Simulation, Spawn,
    Target, TurningSpec,
};

fn scene_running(graph: Graph) -> SceneAssets {
    SceneAssets {
        scene: Scene {
            groups: vec![AgentGroup::new(
                "walkers",
                "walk.graph.ron",
                Spawn::Agents(vec![AgentSpawn {
                    position: Vec2::ZERO,
                    velocity: Vec2::ZERO,
                }]),
            )],
            targets: BTreeMap::from([("door".to_owned(), Vec2::new(5.0, 0.0))]),
            ..Scene::default()
        },
        origin: "walk.scene.ron".to_owned(),
        graphs: BTreeMap::from([("walk.graph.ron".to_owned(), graph)]),
        flow_fields: BTreeMap::new(),
    }
}

/// Seek the door, with independent facing; `face` adds a Face node blended in.
fn walker(face: bool) -> Graph {
    let mut graph = Graph::default();
    let seek = graph.add(Node::Seek {
        target: Target::Named("door".to_owned()),
    });
    let root = if face {
        let look = graph.add(Node::LookWhereYouAreGoing {
            align_tolerance: 1.0.into(),
            deceleration_radius: 30.0.into(),
            time_to_target: 0.1.into(),
        });
        graph.add(Node::Blend {
            inputs: [seek, look]
                .map(|node| graph_runtime::WeightedInput {
                    node: Link(Some(node)),
                    weight: 1.0.into(),
                })
                .to_vec(),
        })
    } else {
        seek
    };
    graph.add(Node::Output {
        input: Link(Some(root)),
    });
    graph.turning = TurningSpec {
        independent_facing: true,
        ..TurningSpec::default()
    };
    graph
}

#[test]
fn independent_facing_that_nothing_turns_is_a_warning_naming_what_to_add() {
    let simulation = Simulation::new(&scene_running(walker(false))).expect("it runs");
    assert_eq!(
        simulation.warnings(),
        [SceneWarning::FacingNeverTurns {
            origin: "walk.scene.ron".to_owned(),
            group: "walkers".to_owned(),
            graph: "walk.graph.ron".to_owned(),
        }]
    );
    assert_eq!(
        simulation.warnings()[0].to_string(),
        "walk.scene.ron: group \"walkers\" (walk.graph.ron): independent facing, but no node turns it, so agents keep facing where they started; add Face, LookWhereYouAreGoing or ReachOrientation"
    );
    // With a node that turns it, no warning; nor without independent facing.
    let turning = Simulation::new(&scene_running(walker(true))).expect("it runs");
    assert!(turning.warnings().is_empty());
    let mut plain = walker(false);
    plain.turning.independent_facing = false;
    let plain = Simulation::new(&scene_running(plain)).expect("it runs");
    assert!(plain.warnings().is_empty());
}
