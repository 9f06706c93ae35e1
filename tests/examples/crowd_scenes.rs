//! Writes the crowd presets of issue 13, `presets/swap_circle.scene.ron`,
//! `presets/four_way.scene.ron` and `presets/swap_circle_separation.scene.ron` (the circle with
//! the separation graph, to compare), and issue 44's `presets/vip.scene.ron` (a VIP of high
//! priority crossing a standing crowd) and `presets/teams.scene.ron` (two teams on masks that
//! ignore each other): their agents are placed by formula (a circle, blocks, a lattice), so
//! this program, not a hand, writes them. Run it from the workspace root:
//! `cargo run -p tests --example crowd_scenes`.

use std::f32::consts::TAU;

use glam::Vec2;
use graph_runtime::{AgentGroup, AgentSpawn, AvoidanceSettings, OwnPoints, Rect, Scene, Spawn};

const GRAPH: &str = "orca_crowd.graph.ron";
const COMPARISON: &str = "separation_crowd.graph.ron";

fn group(name: &str, graph: &str, starts: &[Vec2], goals: Vec<Vec2>) -> AgentGroup {
    AgentGroup {
        goals: [("goal".to_owned(), OwnPoints::Each(goals))].into(),
        ..AgentGroup::new(
            name,
            graph,
            Spawn::Agents(
                starts
                    .iter()
                    .map(|&position| AgentSpawn {
                        position,
                        velocity: Vec2::ZERO,
                    })
                    .collect(),
            ),
        )
    }
}

fn scene(description: &str, half_size: f32, groups: Vec<AgentGroup>) -> Scene {
    Scene {
        description: description.to_owned(),
        bounds: Rect::new(Vec2::splat(-half_size), Vec2::splat(half_size)),
        seed: 13,
        groups,
        ..Scene::default()
    }
}

/// 200 agents evenly on a circle of radius 40, each going to the point opposite.
fn swap_circle(graph: &str, description: &str) -> Scene {
    let starts: Vec<Vec2> = (0..200)
        .map(|i| Vec2::from_angle(TAU * i as f32 / 200.0) * 40.0)
        .collect();
    let goals = starts.iter().map(|&p| -p).collect();
    scene(
        description,
        50.0,
        vec![group("circle", graph, &starts, goals)],
    )
}

/// Four blocks of 10 × 10 agents centred 40 from the middle on each axis, each crossing to
/// the mirror image of its block. The agents stand 2.5 apart: wide enough (more than twice a
/// diameter plus the clearance) for an agent to pass between two that have arrived, so that
/// the far rows of a block can still be reached once the near rows are filled.
fn four_way() -> Scene {
    let block: Vec<Vec2> = (0..100)
        .map(|i| Vec2::new((i % 10) as f32 - 4.5, (i / 10) as f32 - 4.5) * 2.5)
        .collect();
    let mut groups = Vec::new();
    for (name, centre) in [
        ("west", Vec2::new(-40.0, 0.0)),
        ("east", Vec2::new(40.0, 0.0)),
        ("south", Vec2::new(0.0, -40.0)),
        ("north", Vec2::new(0.0, 40.0)),
    ] {
        let starts: Vec<Vec2> = block.iter().map(|&offset| centre + offset).collect();
        // Mirrored across the middle line the group crosses.
        let goals = starts
            .iter()
            .map(|&p| {
                if centre.x == 0.0 {
                    Vec2::new(p.x, -p.y)
                } else {
                    Vec2::new(-p.x, p.y)
                }
            })
            .collect();
        groups.push(group(name, GRAPH, &starts, goals));
    }
    scene(
        "Four-way crossing: four blocks of 100 agents cross to the far side at once, each arriving at its mirror point; Reciprocal keeps them apart and its keep-right turn breaks the jam in the middle.",
        60.0,
        groups,
    )
}

/// A VIP (priority 100) crossing from (-40, 0) to (40, 0) through 300 agents standing on a
/// 20 × 15 lattice 2 apart across its way, each holding its spot (its goal is where it
/// stands) at priority 1.
fn vip() -> Scene {
    let spots: Vec<Vec2> = (0..300)
        .map(|i| Vec2::new(-19.0 + (i % 20) as f32 * 2.0, -14.0 + (i / 20) as f32 * 2.0))
        .collect();
    let vip = AgentGroup {
        avoidance: Some(AvoidanceSettings {
            priority: 100.0,
            ..AvoidanceSettings::default()
        }),
        ..group(
            "vip",
            GRAPH,
            &[Vec2::new(-40.0, 0.0)],
            vec![Vec2::new(40.0, 0.0)],
        )
    };
    let crowd = AgentGroup {
        parameters: [("speed".to_owned(), 2.0)].into(),
        ..group("crowd", GRAPH, &spots, spots.clone())
    };
    scene(
        "A VIP crosses a standing crowd: one agent of avoidance priority 100 walks from west to east through 300 agents of priority 1 holding their spots. Reciprocal shares each avoidance by priority, so the crowd steps aside (taking 100/101 of it) and the VIP walks almost straight, about as fast as alone. Set the VIP group's priority to 1 to compare.",
        50.0,
        vec![vip, crowd],
    )
}

/// Two teams of 100 crossing at right angles, team A on layer 1 avoiding layer 1 and team B on
/// layer 2 avoiding layer 2: each avoids its own team and walks through the other.
fn teams() -> Scene {
    let block: Vec<Vec2> = (0..100)
        .map(|i| Vec2::new((i % 10) as f32 - 4.5, (i / 10) as f32 - 4.5) * 2.5)
        .collect();
    let team = |name: &str, centre: Vec2, layer: u8| {
        let starts: Vec<Vec2> = block.iter().map(|&offset| centre + offset).collect();
        let goals = starts.iter().map(|&p| -p).collect();
        AgentGroup {
            avoidance: Some(AvoidanceSettings {
                layers: vec![layer],
                mask: vec![layer],
                ..AvoidanceSettings::default()
            }),
            ..group(name, GRAPH, &starts, goals)
        }
    };
    scene(
        "Two teams on masks that ignore each other: team A (layer 1, avoiding layer 1) crosses from west to east, team B (layer 2, avoiding layer 2) from south to north. Reciprocal keeps each team's agents apart but lets the teams pass through each other (their overlaps show in the plot).",
        50.0,
        vec![
            team("team a", Vec2::new(-30.0, 0.0), 1),
            team("team b", Vec2::new(0.0, -30.0), 2),
        ],
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let presets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
    let circle = swap_circle(
        GRAPH,
        "Antipodal circle: 200 agents swap sides through the centre, each arriving at the point opposite its start; Reciprocal keeps them apart. Select an agent to see its half-planes.",
    );
    let comparison = swap_circle(
        COMPARISON,
        "The antipodal circle with the classic stack (unaligned collision avoidance, separation and arrival), to compare with swap_circle: watch the agent overlaps plot.",
    );
    for (file, scene) in [
        ("swap_circle.scene.ron", circle),
        ("four_way.scene.ron", four_way()),
        ("swap_circle_separation.scene.ron", comparison),
        ("vip.scene.ron", vip()),
        ("teams.scene.ron", teams()),
    ] {
        std::fs::write(presets.join(file), scene.to_ron()?)?;
        println!("wrote presets/{file}");
    }
    Ok(())
}
