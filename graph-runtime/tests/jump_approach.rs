//! Issue 46: a jumper reaches its take-off from any angle (or says it gave up).

use glam::Vec2;
use graph_runtime::{
    AgentGroup, AgentSpawn, Gap, Graph, JumpEventKind, JumpLink, Link, Node, Rect, Scene,
    SceneAssets, Simulation, Spawn,
};

fn assets(start: Vec2) -> SceneAssets {
    let mut graph = Graph {
        vehicle: graph_runtime::VehicleSpec {
            mass: 1.0.into(),
            max_force: 16.0.into(),
            max_speed: 8.0.into(),
            radius: 0.5.into(),
        },
        ..Graph::default()
    };
    let jump = graph.add(Node::Jump {
        link: "north".to_owned(),
        gravity: 10.0.into(),
        max_vertical_velocity: 9.0.into(),
        position_tolerance: 0.6.into(),
        velocity_tolerance: 1.0.into(),
        run_up: 6.0.into(),
        time_to_target: 0.1.into(),
    });
    graph.add(Node::Output {
        input: Link(Some(jump)),
    });
    let scene = Scene {
        bounds: Rect::new(Vec2::new(-40.0, -25.0), Vec2::new(40.0, 25.0)),
        gaps: vec![Gap::new(vec![
            Vec2::new(-3.0, -25.0),
            Vec2::new(3.0, -25.0),
            Vec2::new(3.0, 12.0),
            Vec2::new(-3.0, 12.0),
        ])],
        jump_links: [(
            "north".to_owned(),
            JumpLink::new(Vec2::new(-7.0, 6.0), Vec2::new(7.0, 6.0)),
        )]
        .into(),
        groups: vec![AgentGroup::new(
            "jumper",
            "jump.graph.ron",
            Spawn::Agents(vec![AgentSpawn {
                position: start,
                velocity: Vec2::ZERO,
            }]),
        )],
        ..Scene::default()
    };
    SceneAssets {
        scene,
        origin: "approach.scene.ron".to_owned(),
        graphs: [("jump.graph.ron".to_owned(), graph)].into(),
        flow_fields: std::collections::BTreeMap::new(),
    }
}

/// Starts all around the take-off point (-7, 6) on its side of the chasm: 24 directions at 2,
/// 6, 12 and 20 units, those inside the level and off the chasm's edge by a unit.
fn starts() -> Vec<Vec2> {
    let take_off = Vec2::new(-7.0, 6.0);
    let mut starts = Vec::new();
    for radius in [2.0_f32, 6.0, 12.0, 20.0] {
        for step in 0..24 {
            let p =
                take_off + Vec2::from_angle(step as f32 * std::f32::consts::TAU / 24.0) * radius;
            if p.x < -4.0 && p.x > -39.0 && p.y.abs() < 24.0 {
                starts.push(p);
            }
        }
    }
    starts
}

/// The case (from (-20, -12), below and behind the take-off) and every start around
/// it: the agent takes off within 12 s and lands on the far side. (Before: the agent reached
/// the line of the jump too close to the take-off to build the take-off speed, ran past by the
/// tolerance, turned back and hovered there; 6 of 8 such starts never took off in 30 s.)
#[test]
fn a_jumper_reaches_its_take_off_from_any_angle() {
    let mut starts = starts();
    starts.push(Vec2::new(-20.0, -12.0));
    let mut slowest = 0;
    for start in starts {
        let mut simulation = Simulation::new(&assets(start)).expect("builds");
        let (mut take_off, mut landed) = (None, None);
        for tick in 0..60 * 15 {
            simulation.step(1.0 / 60.0);
            for event in simulation.jump_events() {
                match &event.kind {
                    JumpEventKind::TakeOff { .. } => take_off = Some(tick),
                    JumpEventKind::Landed { completed, .. } => landed = Some(*completed),
                    JumpEventKind::Fell => panic!("from {start}: fell at tick {tick}"),
                }
            }
            if landed.is_some() {
                break;
            }
        }
        let tick = take_off.unwrap_or_else(|| {
            panic!(
                "from {start}: no take-off in 15 s; at {} going {}",
                simulation.vehicles()[0].position,
                simulation.vehicles()[0].velocity
            )
        });
        assert!(tick < 60 * 12, "from {start}: took off only at tick {tick}");
        assert_eq!(landed, Some(true), "from {start}: the landing");
        assert_eq!(simulation.vehicles()[0].position, Vec2::new(7.0, 6.0));
        slowest = slowest.max(tick);
    }
    eprintln!("slowest take-off: tick {slowest}");
}
