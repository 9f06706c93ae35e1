//! The arrival metrics: which agents have a goal, when a share of them had reached it, and how
//! a sweep reduces a run to them (numbers worked out from constant-speed motion).

mod levels;

use graph_runtime::sweep::{Metric, SweepControl, SweepSpec, sweep};
use graph_runtime::{MetricsTracker, SceneAssets, Simulation};

/// Seek a scene target at full speed: the first tick's force (4, the desired velocity) on a
/// mass of 0.01 gives 400 u/s², past the top speed (4 u/s) within the tick, so the agent
/// moves 4/60 units per tick from the first.
const SEEK: &str = r#"(format: "steergraph.graph", version: 1,
    parameters: {"speed": 4.0},
    vehicle: (mass: 0.01, max_force: 1000.0, max_speed: "speed", radius: 0.5),
    nodes: {1: Seek(target: Named("goal")), 2: Output(input: 1)})"#;

/// Wander has no goal.
const WANDER: &str = r#"(format: "steergraph.graph", version: 1,
    nodes: {1: Wander(distance: 2.0, radius: 1.0, jitter: 0.5), 2: Output(input: 1)})"#;

/// Two agents 5.2 units from the goal, two 13.2 units from it.
const SCENE: &str = r#"(format: "steergraph.scene", version: 1,
    bounds: (min: (-30.0, -30.0), max: (30.0, 30.0)), seed: 3,
    targets: {"goal": (0.0, 0.0)},
    groups: [(name: "walkers", graph: "walk.graph.ron",
              spawn: Agents([(position: (5.2, 0.0)), (position: (-5.2, 0.0)),
                             (position: (0.0, 13.2)), (position: (0.0, -13.2))]))])"#;

fn assets(graph: &str) -> SceneAssets {
    levels::assets(SCENE, "walk.scene.ron", &[("walk.graph.ron", graph)])
}

/// An agent has arrived within 2 radii (1 unit) of its goal. From 5.2 away that takes
/// `4.2 / (4 / 60)` = 63 ticks, so the sample every 6 ticks first sees it at tick 66, 1.1 s:
/// half the agents. From 13.2 away, 183 ticks, seen at tick 186: 3.1 s, everyone (so 95 %).
#[test]
fn shares_arrive_when_constant_speed_brings_them() {
    let mut simulation = Simulation::new(&assets(SEEK)).expect("runs");
    let mut tracker = MetricsTracker::default();
    let first = tracker.observe(&simulation, 0.0);
    assert_eq!(first.arrived, Some(0.0));
    let mut samples = Vec::new();
    for tick in 1..=240_u32 {
        simulation.step(1.0 / 60.0);
        if tick % 6 == 0 {
            samples.push(tracker.observe(&simulation, tick as f32 / 60.0));
        }
    }
    let at = |time: f32| {
        samples
            .iter()
            .find(|s| (s.time - time).abs() < 1e-4)
            .expect("a sample at that time")
    };
    assert_eq!(at(1.0).arrived, Some(0.0));
    assert_eq!(at(1.1).arrived, Some(0.5));
    assert_eq!(at(3.0).arrived, Some(0.5));
    assert_eq!(at(3.1).arrived, Some(1.0));
    let last = samples.last().expect("samples");
    assert_eq!(last.arrived, Some(1.0), "arrived once stays arrived");
    assert!((last.arrived_at[0].expect("half") - 1.1).abs() < 1e-4);
    assert!((last.arrived_at[1].expect("95 %") - 3.1).abs() < 1e-4);
    assert_eq!(at(1.0).arrived_at, [None, None]);
}

/// The same run: each agent's first arrival is the sample that first saw it (the near pair
/// at 1.1 s, the far pair at 3.1 s). A tracker that takes over at 2 s (seeing that tick) with
/// the arrivals as they were then (the near pair, half at 1.1 s) samples the rest of the run
/// exactly as the tracker that saw it all; one that starts afresh at 2 s dates half to 2 s,
/// the first moment it saw.
#[test]
fn a_tracker_taking_over_part_way_counts_the_arrivals_as_they_were() {
    let mut simulation = Simulation::new(&assets(SEEK)).expect("runs");
    let mut whole = MetricsTracker::default();
    let (mut resumed, mut afresh) = (MetricsTracker::default(), MetricsTracker::default());
    let (mut all, mut taken_over, mut fresh) = (Vec::new(), Vec::new(), Vec::new());
    for tick in 1..=240_u32 {
        simulation.step(1.0 / 60.0);
        if tick % 6 != 0 {
            continue;
        }
        let time = tick as f32 / 60.0;
        let sample = whole.observe(&simulation, time);
        all.push(sample);
        if tick == 120 {
            let firsts = whole.first_arrivals().to_vec();
            let near = 66.0 / 60.0;
            assert_eq!(firsts, [near, near, f32::INFINITY, f32::INFINITY]);
            // Both see the tick they start at (the overlapping pairs then), as a seek does.
            resumed.observe(&simulation, time);
            afresh.observe(&simulation, time);
            resumed.resume_arrivals(firsts, sample.arrived_at);
        } else if tick > 120 {
            taken_over.push(resumed.observe(&simulation, time));
            fresh.push(afresh.observe(&simulation, time));
        }
    }
    let (near, far) = (66.0 / 60.0, 186.0 / 60.0);
    assert_eq!(whole.first_arrivals(), [near, near, far, far]);
    assert_eq!(taken_over, all[20..]);
    let last = fresh.last().expect("samples");
    assert_eq!(last.arrived_at, [Some(2.0), Some(far)]);
    assert_ne!(fresh, all[20..]);
}

#[test]
fn agents_without_a_goal_measure_no_arrival() {
    let simulation = Simulation::new(&assets(WANDER)).expect("runs");
    let sample = MetricsTracker::default().observe(&simulation, 0.0);
    assert_eq!(sample.arrived, None);
}

/// A sweep reads the arrival metrics off the whole run. In 2 s only the near pair arrives
/// (half, at 1.1 s); 95 % is never reached, so it counts as the run's 2 s plus the missing
/// 0.45 of it: 2 + 0.45 × 2 = 2.9 s. In 4 s everyone has arrived by 3.1 s.
#[test]
fn a_sweep_reduces_a_run_to_its_arrivals() {
    let run = |seconds: f32| {
        let spec = SweepSpec {
            parameter: "speed".to_owned(),
            values: vec![4.0],
            seeds: 1,
            seconds,
        };
        let result = sweep(&assets(SEEK), &spec, &SweepControl::default()).expect("runs");
        let point = result.points[0].clone();
        move |metric: Metric| point.stat(metric).mean.expect("measured")
    };
    let short = run(2.0);
    assert_eq!(short(Metric::Arrived), 0.5);
    assert!((short(Metric::Arrived50) - 1.1).abs() < 1e-4);
    assert!((short(Metric::Arrived95) - 2.9).abs() < 1e-4);
    let long = run(4.0);
    assert_eq!(long(Metric::Arrived), 1.0);
    assert!((long(Metric::Arrived95) - 3.1).abs() < 1e-4);
}
