//! Stuck agents (`BEHAVIORS.md`, "Stuck agents"): plain ORCA stops an agent heading straight at
//! a rock's centre, and the simulation says so after 2 s; Reciprocal's keep-right turn slides
//! the same agent round the rock, and it never counts as stuck. Forces that cancel far from the
//! goal are never stuck, and the metrics count the agent stalled after 5 s.

use std::collections::BTreeMap;

use glam::Vec2;
use graph_runtime::{
    AgentGroup, AgentSpawn, Graph, Link, MetricsTracker, Node, Obstacle, OwnPoints, Rect,
    STALLED_SECONDS, STUCK_SECONDS, Scene, SceneAssets, Simulation, Spawn, Target, VehicleSpec,
    WeightedInput,
};

const DT: f32 = 1.0 / 60.0;

const DOC: &str = include_str!("../BEHAVIORS.md");

#[test]
fn behaviors_md_writes_down_the_stuck_clock_these_tests_run() {
    for quote in [
        "s = s + dt    if |v_pref| > 0.01 * max_speed and |v'| < 0.05 * |v_pref|",
        "s = 0         otherwise",
        "The agent is **stuck** while\n`s >= 2` s.",
    ] {
        assert!(DOC.contains(quote), "BEHAVIORS.md no longer says: {quote}");
    }
    assert_eq!(graph_runtime::STUCK_SPEED_FRACTION, 0.05);
    assert_eq!(graph_runtime::RESTING_FRACTION, 0.01);
    assert_eq!(STUCK_SECONDS, 2.0);
    // Stalled: the thresholds the tracker runs.
    assert!(DOC.contains("has come no closer than `d_near - r` for `5` s"));
    assert_eq!(STALLED_SECONDS, 5.0);
    assert_eq!(graph_runtime::CLOSER_RADII, 1.0);
    assert_eq!(graph_runtime::ARRIVAL_RADII, 2.0);
}

/// `Reciprocal(Arrival(Own goal))` with `keep_right` degrees, top speed 4, radius 0.5.
fn graph(keep_right: f32) -> Graph {
    let mut graph = Graph {
        vehicle: VehicleSpec {
            mass: 1.0.into(),
            max_force: 240.0.into(),
            max_speed: 4.0.into(),
            radius: 0.5.into(),
        },
        ..Graph::default()
    };
    let arrive = graph.add(Node::Arrival {
        target: Target::Own("goal".to_owned()),
        slowing_distance: 4.0.into(),
    });
    let reciprocal = graph.add(Node::Reciprocal {
        input: Link(Some(arrive)),
        time_horizon: 2.0.into(),
        obstacle_time_horizon: 1.0.into(),
        neighbor_radius: 5.0.into(),
        max_neighbors: 10.0.into(),
        clearance: 0.0.into(),
        keep_right: keep_right.into(),
    });
    graph.add(Node::Output {
        input: Link(Some(reciprocal)),
    });
    graph
}

/// One agent at rest at (-5, 0) whose own goal is (5, 0), a rock of radius 1 at the origin.
fn rock(keep_right: f32) -> Simulation {
    let rock = Obstacle {
        center: Vec2::ZERO,
        radius: 1.0,
    };
    let goal = (
        "goal".to_owned(),
        OwnPoints::Each(vec![Vec2::new(5.0, 0.0)]),
    );
    one_agent(graph(keep_right), vec![rock], [goal].into())
}

/// One agent at rest at (-5, 0) in a 20 × 20 level with `obstacles`, running `graph` with
/// its own points `goals`.
fn one_agent(
    graph: Graph,
    obstacles: Vec<Obstacle>,
    goals: BTreeMap<String, OwnPoints>,
) -> Simulation {
    let spawn = Spawn::Agents(vec![AgentSpawn {
        position: Vec2::new(-5.0, 0.0),
        velocity: Vec2::ZERO,
    }]);
    let scene = Scene {
        bounds: Rect::new(Vec2::splat(-10.0), Vec2::splat(10.0)),
        obstacles,
        groups: vec![AgentGroup {
            goals,
            ..AgentGroup::new("agent", "agent.graph.ron", spawn)
        }],
        ..Scene::default()
    };
    let assets = SceneAssets {
        scene,
        origin: "one.scene.ron".to_owned(),
        graphs: [("agent.graph.ron".to_owned(), graph)].into(),
        flow_fields: BTreeMap::new(),
    };
    Simulation::new(&assets).expect("a valid scene")
}

#[test]
fn plain_orca_stops_in_front_of_the_rock_and_counts_as_stuck_after_two_seconds() {
    let mut simulation = rock(0.0);
    // The rock's half-plane allows closing the gap d - R (R = 1.5) at (d - R) / 1 s at most:
    // the agent slows as e^-t and never gets round (nothing sideways in its velocity).
    // Its preferred velocity stays Arrival's 4 u/s along +x (6.5 units from its goal, beyond
    // the slowing distance 4), so it is stuck from 2 s after its speed falls under 0.2 u/s.
    let mut became_slow = None;
    let mut became_stuck = None;
    for tick in 1..=600u32 {
        simulation.step(DT);
        let time = tick as f32 * DT;
        let speed = simulation.vehicles()[0].velocity.length();
        if became_slow.is_none() && speed < 0.2 {
            became_slow = Some(time);
        }
        if became_stuck.is_none() && simulation.stuck_count() == 1 {
            became_stuck = Some(time);
        }
    }
    let slow = became_slow.expect("the agent slows down in front of the rock");
    let stuck = became_stuck.expect("and is counted stuck");
    // The clock starts on the first tick under 5 % and needs 2 s of ticks: 120 ticks of dt,
    // summed in f32 (119 or 120 ticks after the first slow one).
    assert!(
        (stuck - slow - STUCK_SECONDS).abs() <= 1.5 * DT,
        "slow at {slow} s, stuck at {stuck} s"
    );
    let position = simulation.vehicles()[0].position;
    assert!(
        (-1.6..=-1.5).contains(&position.x) && position.y.abs() < 1e-3,
        "held in front of the rock at {position}"
    );
    assert_eq!(simulation.stuck_agents().collect::<Vec<_>>(), [0]);
    assert!(simulation.stuck_for(0) > 5.0);
}

#[test]
fn keeping_right_slides_round_the_rock_and_never_counts_as_stuck() {
    let mut simulation = rock(10.0);
    let mut passed_below = false;
    for _ in 0..600 {
        simulation.step(DT);
        assert_eq!(simulation.stuck_count(), 0);
        let position = simulation.vehicles()[0].position;
        // Turning right of +x is towards -y: the rock stays on the agent's left.
        passed_below |= position.x.abs() < 0.5 && position.y < -1.4;
    }
    assert!(passed_below, "went round below the rock");
    let position = simulation.vehicles()[0].position;
    assert!(
        position.distance(Vec2::new(5.0, 0.0)) < 0.2,
        "arrived at its goal, at {position}"
    );
}

/// One agent at rest at (-5, 0) pulled to (8, 0) by Seek and pushed toward (-8, 0) by Flee
/// from (2, 0), with the weights `seek` and `flee`, top speed 4, radius 0.5.
fn tug_of_war(seek: f32, flee: f32) -> Simulation {
    let mut graph = Graph {
        vehicle: VehicleSpec {
            mass: 1.0.into(),
            max_force: 20.0.into(),
            max_speed: 4.0.into(),
            radius: 0.5.into(),
        },
        ..Graph::default()
    };
    let toward = graph.add(Node::Seek {
        target: Target::Point(8.0.into(), 0.0.into()),
    });
    let away = graph.add(Node::Flee {
        target: Target::Point(2.0.into(), 0.0.into()),
        panic_distance: None,
    });
    let inputs = [(toward, seek), (away, flee)].map(|(node, weight)| WeightedInput {
        node: Link(Some(node)),
        weight: weight.into(),
    });
    let blend = graph.add(Node::Blend {
        inputs: inputs.into(),
    });
    graph.add(Node::Output {
        input: Link(Some(blend)),
    });
    one_agent(graph, Vec::new(), BTreeMap::new())
}

/// Runs `simulation` for 8 s, a metrics sample every 0.1 s: the times of the samples that
/// counted the agent stalled, and the most agents stuck at a sample. Checks that the agent is
/// newly stalled at the first of those samples only.
fn stalled_times(simulation: &mut Simulation) -> (Vec<f32>, usize) {
    let mut tracker = MetricsTracker::default();
    let (mut stalled, mut stuck, mut newly) = (Vec::new(), 0, Vec::new());
    for tick in 1..=480_u32 {
        simulation.step(DT);
        if tick % 6 == 0 {
            let time = tick as f32 / 60.0;
            let sample = tracker.observe(simulation, time);
            if sample.stalled_agents > 0 {
                assert_eq!(sample.stalled_agents, 1);
                assert!(tracker.stalled_for(0).is_some_and(|s| s >= STALLED_SECONDS));
                stalled.push(time);
            }
            newly.extend(tracker.newly_stalled().map(|agent| (time, agent)));
            stuck = stuck.max(sample.stuck_agents);
        }
    }
    let first = stalled.first().map(|&time| (time, 0));
    assert_eq!(newly, first.into_iter().collect::<Vec<_>>());
    (stalled, stuck)
}

#[test]
fn forces_that_cancel_far_from_the_goal_are_never_stuck_but_stalled_after_five_seconds() {
    // Seek's pull (+4 u/s wanted) and Flee's push (-4 u/s) cancel: the agent never moves, 13
    // units from its goal (8, 0), far beyond 2 radii. Its graph asks for nothing, so the stuck
    // clock never runs; the count of progress starts at the first sample (0.1 s) and says
    // stalled from 5.1 s on: the 30 samples from 5.1 to 8.0 s.
    let mut simulation = tug_of_war(1.0, 1.0);
    let (stalled, stuck) = stalled_times(&mut simulation);
    assert_eq!(simulation.vehicles()[0].position, Vec2::new(-5.0, 0.0));
    assert_eq!(stuck, 0);
    assert_eq!(stalled.len(), 30, "{stalled:?}");
    assert!((stalled[0] - 5.1).abs() < 1e-4, "{stalled:?}");
    // Seek twice as strong walks it to its goal and past: coming closer all the way, then
    // within 2 radii; never stalled.
    let mut walking = tug_of_war(2.0, 1.0);
    let (stalled, _) = stalled_times(&mut walking);
    assert_eq!(stalled, Vec::<f32>::new());
}

/// A tracker that takes over part-way (a timeline's, having seen only the last second again)
/// with the stalls the run had then counts the held agent as the run did: stalled since the
/// first sample (0.1 s), so 7.9 s at 8 s, and not newly stalled; one that only saw that
/// second counts nothing yet.
#[test]
fn a_tracker_taking_over_part_way_keeps_the_stalls_the_run_had() {
    let mut simulation = tug_of_war(1.0, 1.0);
    let mut whole = MetricsTracker::default();
    let (mut resumed, mut afresh) = (MetricsTracker::default(), MetricsTracker::default());
    for tick in 1..=480_u32 {
        simulation.step(DT);
        if tick % 6 != 0 {
            continue;
        }
        let time = tick as f32 / 60.0;
        whole.observe(&simulation, time);
        if tick >= 420 {
            resumed.observe(&simulation, time);
            afresh.observe(&simulation, time);
        }
        if tick == 420 {
            let stalls: Vec<_> = whole.stalls().collect();
            assert_eq!(stalls.len(), 1);
            assert!((stalls[0].1.since - 0.1).abs() < 1e-6, "{stalls:?}");
            resumed.resume_stalls(stalls);
        }
    }
    let for_ = |tracker: &MetricsTracker| tracker.stalled_for(0);
    assert!(for_(&whole).is_some_and(|s| (s - 7.9).abs() < 1e-4));
    assert_eq!(for_(&resumed), for_(&whole));
    assert_eq!(resumed.newly_stalled().count(), 0);
    assert_eq!(for_(&afresh), None);
}
