//! Parameter sweeps: a known answer (more separation, more room between agents), the same
//! result on any number of threads, and clear errors.

use std::sync::atomic::Ordering;

use graph_runtime::Graph;
use graph_runtime::sweep::{Metric, SweepControl, SweepError, SweepSpec, sweep, values_between};

mod gather;

/// Arrive at one shared point, blended with Separation weighted by the parameter `push`
/// within `reach`.
fn assets() -> graph_runtime::SceneAssets {
    gather::assets(include_str!("fixtures/gather/gather.graph.ron"))
}

fn spec(parameter: &str, values: Vec<f32>, seeds: u32) -> SweepSpec {
    SweepSpec {
        parameter: parameter.to_owned(),
        values,
        seeds,
        seconds: 8.0,
    }
}

fn on_threads(threads: usize, spec: &SweepSpec) -> graph_runtime::sweep::SweepResult {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    pool.install(|| sweep(&assets(), spec, &SweepControl::default()))
        .expect("the sweep runs")
}

/// Every agent arrives at the same point. Without separation (`push` 0) nothing keeps them
/// apart: they end up on top of each other and the smallest spacing falls far below one
/// agent diameter (1 unit). Separation pushes each agent away from its neighbors with a force
/// growing as `1 / distance`; the crowd settles where that push balances arrival's pull, and
/// a larger weight balances at a larger distance. So min spacing rises with `push`.
#[test]
fn min_spacing_rises_with_the_separation_weight() {
    let values = values_between(0.0, 8.0, 5);
    assert_eq!(values, vec![0.0, 2.0, 4.0, 6.0, 8.0]);
    let result = on_threads(2, &spec("push", values, 2));
    let spacing: Vec<f64> = result
        .points
        .iter()
        .map(|p| {
            p.stat(Metric::MinSpacing)
                .mean
                .expect("agents are close enough to measure")
        })
        .collect();
    eprintln!("min spacing by push 0, 2, 4, 6, 8: {spacing:?}");
    assert!(
        spacing.windows(2).all(|w| w[1] > w[0]),
        "rising: {spacing:?}"
    );
    assert!(spacing[0] < 0.5, "piled up without separation: {spacing:?}");
    assert!(
        spacing[4] > 2.0 * spacing[0] + 0.5,
        "clearly apart: {spacing:?}"
    );
    for point in &result.points {
        let stat = point.stat(Metric::MinSpacing);
        assert!(stat.spread.is_some_and(|s| s >= 0.0 && s.is_finite()));
        assert_eq!(
            point.stat(Metric::PathDistance).mean,
            None,
            "no path in the scene"
        );
    }
}

#[test]
fn a_sweep_is_identical_on_one_and_three_threads() {
    let spec = spec("push", values_between(0.5, 3.0, 4), 3);
    let one = on_threads(1, &spec);
    let three = on_threads(3, &spec);
    assert_eq!(one, three);
    assert_eq!(one.to_csv(), three.to_csv());
    let csv = one.to_csv();
    let header = csv.lines().next().expect("header");
    assert!(header.starts_with("value,mean_speed_mean,mean_speed_spread,min_spacing_mean,"));
    assert_eq!(header.split(',').count(), 1 + 2 * Metric::ALL.len());
    assert_eq!(csv.lines().count(), 1 + 4);
}

#[test]
fn an_unknown_parameter_names_the_declared_ones() {
    let error = sweep(
        &assets(),
        &spec("shove", vec![1.0], 1),
        &SweepControl::default(),
    )
    .expect_err("no graph declares shove");
    assert!(matches!(error, SweepError::UnknownParameter { .. }));
    assert_eq!(
        error.to_string(),
        "no graph in the scene declares a parameter \"shove\" (declared: push, reach)"
    );
}

#[test]
fn a_value_a_field_refuses_is_reported_before_anything_runs() {
    let control = SweepControl::default();
    // `reach` is Separation's radius, which must not be negative.
    let error = sweep(&assets(), &spec("reach", vec![2.0, -1.0], 1), &control)
        .expect_err("a negative radius is refused");
    let message = error.to_string();
    assert!(
        message.starts_with("reach = -1: group \"crowd\": "),
        "{message}"
    );
    assert!(message.contains("radius"), "{message}");
    assert_eq!(control.ticks_done.load(Ordering::Relaxed), 0, "nothing ran");
    let error =
        sweep(&assets(), &spec("push", vec![f32::NAN], 1), &control).expect_err("NaN is refused");
    assert_eq!(error.to_string(), "push = NaN is not a finite number");
}

#[test]
fn a_cancelled_sweep_stops_and_says_so() {
    let control = SweepControl::default();
    control.cancel();
    let error =
        sweep(&assets(), &spec("push", vec![1.0, 2.0], 1), &control).expect_err("cancelled");
    assert!(matches!(error, SweepError::Cancelled));
    assert_eq!(control.ticks_done.load(Ordering::Relaxed), 0);
}

#[test]
fn progress_counts_every_tick_of_every_run() {
    let spec = spec("push", vec![1.0, 2.0], 2);
    let control = SweepControl::default();
    sweep(&assets(), &spec, &control).expect("runs");
    // 8 s at 60 Hz is 480 ticks; 2 values × 2 seeds.
    assert_eq!(spec.total_ticks(), 4 * 480);
    assert_eq!(control.ticks_done.load(Ordering::Relaxed), 4 * 480);
    assert_eq!(control.progress(&spec), 1.0);
}

/// The gather graph with its Separation in a subgraph file whose radius the user's `reach`
/// feeds: values reach the subgraph's fields, and are checked there before anything runs.
#[test]
fn a_parameter_feeding_a_subgraph_is_swept_and_checked_through_it() {
    const SEPARATE: &str = include_str!("fixtures/gather/separate.graph.ron");
    const USER: &str = include_str!("fixtures/gather/through_subgraph.graph.ron");
    let mut assets = assets();
    for (file, text) in [("gather.graph.ron", USER), ("separate.graph.ron", SEPARATE)] {
        let graph = Graph::from_ron(text, file).expect("graph parses");
        assets.graphs.insert(file.to_owned(), graph);
    }
    let control = SweepControl::default();
    let error = sweep(&assets, &spec("reach", vec![2.0, -1.0], 1), &control)
        .expect_err("a negative radius is refused inside the subgraph");
    assert!(
        error
            .to_string()
            .starts_with("reach = -1: group \"crowd\": "),
        "{error}"
    );
    assert_eq!(control.ticks_done.load(Ordering::Relaxed), 0, "nothing ran");
    // A Separation that reaches no neighbor lets the crowd pile up; one reaching far keeps
    // it apart.
    let result = sweep(
        &assets,
        &spec("reach", vec![0.1, 3.0], 1),
        &SweepControl::default(),
    )
    .expect("runs");
    let spacing: Vec<f64> = result
        .points
        .iter()
        .map(|p| p.stat(Metric::MinSpacing).mean.expect("measured"))
        .collect();
    assert!(spacing[1] > spacing[0] + 0.5, "{spacing:?}");
}
