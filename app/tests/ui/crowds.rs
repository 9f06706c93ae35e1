//! Crowd avoidance in the preview, driven headless through `egui_kittest`: Reciprocal's
//! half-planes in the inspector, and stuck agents marked, counted and explained.

use crate::common;

use std::path::Path;

use app::editor::{Command, EditorApp};
use common::{click_at, harness};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

/// The editor with `scene` (and its `graph` as `crowd.graph.ron`) open from `dir`, paused.
fn open(dir: &Path, graph: &str, scene: &str) -> Harness<'static, EditorApp> {
    std::fs::write(dir.join("crowd.graph.ron"), graph).expect("write the graph");
    let scene_path = dir.join("crowd.scene.ron");
    std::fs::write(&scene_path, scene).expect("write the scene");
    let mut harness = harness(dir);
    harness
        .state_mut()
        .apply(Command::OpenScenePath(scene_path));
    // Paused before the first frame builds it: the scene is as spawned.
    harness.state_mut().preview.host.running = false;
    harness.run_steps(4);
    assert_eq!(
        harness.state().workspace.open_graph_name(),
        "crowd.graph.ron",
        "its graph opened too"
    );
    harness
}

/// The agent inspector's line `label` (the canvas shows the open graph's node titles too).
fn in_the_inspector(harness: &Harness<'static, EditorApp>, label: &str) {
    let side = harness.state().view.canvas.rect().min.x;
    assert!(
        harness
            .query_all_by_label(label)
            .any(|node| node.rect().max.x <= side),
        "{label} is not in the side panel"
    );
}

#[test]
fn a_reciprocal_agent_shows_its_half_planes_in_the_inspector() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Two agents 3 units apart, each going to where the other stands: each is the other's
    // one neighbor, so each has one half-plane.
    let scene = r#"(format: "steergraph.scene", version: 1,
        bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
        groups: [(name: "pair", graph: "crowd.graph.ron",
                  spawn: Agents([(position: (-1.5, 0.0)), (position: (1.5, 0.0))]),
                  goals: {"goal": Each([(1.5, 0.0), (-1.5, 0.0)])})])"#;
    let mut harness = open(dir.path(), PLAIN_ORCA, scene);
    let preview = &harness.state().preview;
    let simulation = preview.host.simulation.as_ref().expect("the pair runs");
    let rect = preview.rect().expect("viewport");
    let at = preview
        .view
        .to_screen(rect, simulation.vehicles()[0].position);
    click_at(&mut harness, at);
    assert_eq!(harness.state().preview.host.selected_agent, Some(0));
    in_the_inspector(&harness, "Reciprocal #2");
    harness.get_by_label("1 half-plane");
}

/// An agent whose path clears the end of a wall by 2 units walks past it at full speed, and the
/// inspector lists the wall's half-plane. The half-plane is the wall edge's velocity obstacle
/// (`BEHAVIORS.md`, "Reciprocal"): moving (4, 0) along y = 2, the agent passes the end (0, 0)
/// 2 units off, more than its radius 0.5, so (4, 0) is permitted. (A half-plane across the
/// nearest wall point, n = normalize(p - (0, 0)), asked v · n >= (0.5 - |p|) / 1: at (-2, 2),
/// v.x <= 3.3; at (-1, 2), v.x <= 3.9. It slowed agents passing corners; Xvfb showed a crowd
/// rounding a block.)
#[test]
fn an_agent_passing_the_end_of_a_wall_keeps_its_speed_and_shows_the_walls_half_plane() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scene = r#"(format: "steergraph.scene", version: 1,
        bounds: (min: (-20.0, -20.0), max: (20.0, 20.0)),
        walls: [(points: [(0.0, 0.0), (0.0, -10.0)])],
        groups: [(name: "walker", graph: "crowd.graph.ron",
                  spawn: Agents([(position: (-12.0, 2.0))]),
                  goals: {"goal": Each([(19.0, 2.0)])})])"#;
    let mut harness = open(dir.path(), PLAIN_ORCA, scene);
    let walker = |harness: &Harness<'static, EditorApp>| {
        let host = &harness.state().preview.host;
        host.simulation
            .as_ref()
            .expect("the walker runs")
            .vehicles()[0]
    };
    // The wall's end is within the obstacle reach (1 s * 4 u/s + 0.5) once |x| < 4: every tick
    // there, full speed (Arrival turns it a thousandth towards y = 2 at most).
    let mut selected = false;
    for _ in 0..600 {
        harness.state_mut().preview.host.step_once();
        let me = walker(&harness);
        if me.position.x > 1.0 {
            break;
        }
        if me.position.x > -4.0 {
            assert!(
                me.velocity.x > 3.99,
                "slowed to {} at {}",
                me.velocity,
                me.position
            );
        }
        if me.position.x > -2.0 && !selected {
            // Two frames: the metrics panel grows once it has samples, and the viewport
            // settles below it.
            harness.run_steps(2);
            let preview = &harness.state().preview;
            let at = preview
                .view
                .to_screen(preview.rect().expect("viewport"), me.position);
            click_at(&mut harness, at);
            assert_eq!(harness.state().preview.host.selected_agent, Some(0));
            in_the_inspector(&harness, "Reciprocal #2");
            harness.get_by_label("1 half-plane");
            selected = true;
        }
    }
    assert!(
        selected,
        "never reached x = -2: at {}",
        walker(&harness).position
    );
    assert!(walker(&harness).position.x > 1.0, "did not pass the wall");
}

/// 4,000 flockers spawned on one point, opened in the editor: the preview steps them and its
/// metrics sample the stack in bounded work (each listed every overlapping pair, 8 million
/// of them here, and 20,000 stacked agents hung the editor's preview under Xvfb), the
/// smallest spacing exact and the overlaps a lower bound shown as usual.
#[test]
fn a_crowd_stacked_on_one_point_steps_and_samples_in_the_preview() {
    let dir = tempfile::tempdir().expect("temp dir");
    let graph = r#"(format: "steergraph.graph", version: 1,
        nodes: {
            1: Flocking(separation_weight: 1.5, cohesion_weight: 1.0, alignment_weight: 1.0,
                        radius: 5.0, fov: 270.0, max_neighbors: 64),
            2: Output(input: 1),
        })"#;
    let scene = r#"(format: "steergraph.scene", version: 1,
        bounds: (min: (-50.0, -50.0), max: (50.0, 50.0)),
        groups: [(name: "stack", graph: "crowd.graph.ron",
                  spawn: Random(count: 4000, area: Circle(center: (3.0, -2.0), radius: 0.0),
                                speed: 1.0))])"#;
    let mut harness = open(dir.path(), graph, scene);
    // Bounded work per tick and sample is the runtime's to show (`dense_crowds.rs`, and the
    // time bounds run in release); here, that the preview steps and samples the stack.
    for _ in 0..3 {
        harness.state_mut().preview.host.step_once();
    }
    harness.run_steps(2);
    let host = &harness.state().preview.host;
    let sample = host.samples.back().expect("a sample");
    assert_eq!(
        sample.min_spacing,
        Some(0.0),
        "the first sample sees the stack"
    );
    // Each agent counts its 16 nearest: between 4,000 x 16 / 2 and 4,000 x 16 pairs.
    assert!(
        (32_000..=64_000).contains(&sample.agent_overlaps),
        "{} pairs",
        sample.agent_overlaps
    );
    harness.get_by_label_contains(&format!("{} agent pairs", sample.agent_overlaps));
}

/// `Reciprocal(Arrival(Own goal))` with keep right 0: plain ORCA, which stops an agent heading
/// straight at a rock's centre (`BEHAVIORS.md`, "What it does not do").
const PLAIN_ORCA: &str = r#"(format: "steergraph.graph", version: 1,
    vehicle: (mass: 1.0, max_force: 240.0, max_speed: 4.0, radius: 0.5),
    nodes: {
        1: Arrival(target: Own("goal"), slowing_distance: 4.0),
        2: Reciprocal(input: 1, time_horizon: 2.0, obstacle_time_horizon: 1.0,
                      neighbor_radius: 5.0, max_neighbors: 10, clearance: 0.0, keep_right: 0.0),
        3: Output(input: 2),
    })"#;

/// One agent at (-5, 0) going to (5, 0) through a rock of radius 1 at the origin.
const ROCK: &str = r#"(format: "steergraph.scene", version: 1,
    bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
    obstacles: [(center: (0.0, 0.0), radius: 1.0)],
    groups: [(name: "walker", graph: "crowd.graph.ron",
              spawn: Agents([(position: (-5.0, 0.0))]),
              goals: {"goal": Each([(5.0, 0.0)])})])"#;

#[test]
fn an_agent_held_in_front_of_a_rock_is_marked_stuck_counted_and_explained() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = open(dir.path(), PLAIN_ORCA, ROCK);
    // The rock's half-plane lets the agent close the gap d - R (R = 0.5 + 1 = 1.5) at most at
    // (d - R) / 1 s, so it slows as e^-t once within 4 units: under 5 % of its preferred 4 u/s
    // (0.2 u/s) when d - R < 0.2, about 3 s in; 2 s later it counts as stuck.
    for _ in 0..60 {
        harness.state_mut().preview.host.step_once();
    }
    harness.run_steps(2);
    assert_eq!(
        harness.state().preview.host.view().expect("runs").stuck,
        Vec::<usize>::new()
    );
    for _ in 0..300 {
        harness.state_mut().preview.host.step_once();
    }
    harness.run_steps(2);
    let preview = &harness.state().preview;
    let simulation = preview.host.simulation.as_ref().expect("runs");
    let x = simulation.vehicles()[0].position.x;
    assert!(
        (-1.6..=-1.5).contains(&x),
        "stopped in front of the rock, at x = {x}"
    );
    assert_eq!(preview.host.view().expect("runs").stuck, vec![0]);
    assert_eq!(preview.host.samples.back().map(|s| s.stuck_agents), Some(1));
    assert!(
        harness.query_by_label_contains("· 1 stuck, ").is_some(),
        "the metrics line counts the stuck agent"
    );
    let rect = harness.state().preview.rect().expect("viewport");
    let at = harness
        .state()
        .preview
        .view
        .to_screen(rect, glam::Vec2::new(x, 0.0));
    click_at(&mut harness, at);
    assert_eq!(harness.state().preview.host.selected_agent, Some(0));
    harness.get_by_label("stuck");
    assert!(
        harness
            .query_by_label_contains("wants to move, under 5 % of the speed it wants")
            .is_some()
    );
}

/// The metrics line reports arrivals: one agent starts on its own goal, the other 18 units
/// from its goal (at most 4 u/s, so more than 4 s away). After a second, half the agents have
/// arrived, the first sample saw it, and 95 % has not been reached.
#[test]
fn the_metrics_line_says_how_many_arrived_and_when() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scene = r#"(format: "steergraph.scene", version: 1,
        bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
        groups: [(name: "pair", graph: "crowd.graph.ron",
                  spawn: Agents([(position: (5.0, 5.0)), (position: (-9.0, -5.0))]),
                  goals: {"goal": Each([(5.0, 5.0), (9.0, -5.0)])})])"#;
    let mut harness = open(dir.path(), PLAIN_ORCA, scene);
    for _ in 0..60 {
        harness.state_mut().preview.host.step_once();
    }
    harness.run_steps(2);
    let samples = &harness.state().preview.host.samples;
    let first = samples.front().expect("sampled").time;
    let last = samples.back().expect("sampled");
    assert_eq!(last.arrived, Some(0.5));
    assert_eq!(last.arrived_at, [Some(first), None]);
    let line = format!("arrived 50 % (half at {first:.1} s, 95 % at –)");
    assert!(
        harness.query_by_label_contains(&line).is_some(),
        "the metrics line says {line}"
    );
}
