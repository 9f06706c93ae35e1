//! The "Sweep…" window, driven headless through `egui_kittest`: opened from a graph
//! parameter's right-click menu, run to the end on a scene whose answer is known, and
//! cancelled half-way.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use app::editor::{Command, EditorApp, SweepState, SweepWindow};
use common::GATHER_SCENE;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::sweep::Metric;

/// Arrive at one shared point, blended with Separation weighted by the parameter `push`.
const GRAPH: &str = r#"(format: "steergraph.graph", version: 1,
    parameters: {"push": 1.0},
    vehicle: (mass: 1.0, max_force: 10.0, max_speed: 4.0, radius: 0.5),
    nodes: {
        1: Arrival(target: Named("goal"), slowing_distance: 3.0),
        2: Separation(radius: 3.0, fov: 360.0),
        3: Blend(inputs: [(node: 1, weight: 1.0), (node: 2, weight: "push")]),
        4: Output(input: 3),
    })"#;

/// The editor on the gather graph and scene, paused, with the sweep window of `push` opened
/// from the parameter's right-click menu in the side panel.
fn sweep_window_of_push(dir: &Path, scene_text: &str) -> Harness<'static, EditorApp> {
    let mut harness = common::editor_on_gather(dir, GRAPH, scene_text);
    common::open_parameter_menu(&mut harness, "push");
    harness.get_by_label("Sweep…").click();
    harness.run_steps(2);
    harness
}

/// Steps frames until no sweep runs, for at most `limit`.
fn run_until_finished(harness: &mut Harness<'static, EditorApp>, limit: Duration) {
    common::run_while(harness, limit, "the sweep", |app| {
        app.view.sweep.as_ref().is_some_and(SweepWindow::is_running)
    });
}

/// Without Separation (`push` 0) the twelve agents pile up on the goal; Separation's push
/// grows as neighbours come closer, so a larger weight settles them further apart.
#[test]
fn a_sweep_from_the_parameter_menu_plots_min_spacing_rising_with_the_weight() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = sweep_window_of_push(dir.path(), GATHER_SCENE);
    let window = harness
        .state()
        .view
        .sweep
        .as_ref()
        .expect("the window opened");
    assert_eq!(window.parameter, "push");
    assert_eq!(window.current, Some(1.0));
    // Defaults around the current value 1: from a quarter of it to twice it.
    assert_eq!((window.form.from, window.form.to), (0.25, 2.0));
    assert!(matches!(window.state, SweepState::Ready));
    let form = &mut harness.state_mut().view.sweep.as_mut().expect("open").form;
    (form.from, form.to, form.steps, form.seconds, form.seeds) = (0.0, 8.0, 3, 8.0, 2);
    harness.run_steps(1);
    harness.get_by_label("Run").click();
    harness.run_steps(1);
    run_until_finished(&mut harness, Duration::from_secs(120));

    let window = harness.state().view.sweep.as_ref().expect("still open");
    let plot = window.plot().expect("a result to plot");
    assert_eq!(plot.metric, Metric::MinSpacing);
    assert_eq!(plot.values, [0.0, 4.0, 8.0]);
    assert_eq!(plot.current, Some(1.0), "the line marks the graph's value");
    assert!(
        plot.means.windows(2).all(|w| w[1] > w[0]),
        "min spacing rises with push: {:?}",
        plot.means
    );
    // Piled up without Separation, more than a body apart with it.
    assert!(
        plot.means[0] < 0.5 && plot.means[2] > 1.0,
        "{:?}",
        plot.means
    );
    for ((mean, lower), upper) in plot.means.iter().zip(&plot.lower).zip(&plot.upper) {
        assert!(lower <= mean && mean <= upper && (mean - lower - (upper - mean)).abs() < 1e-9);
    }
    assert!(harness.query_by_label("Copy CSV").is_some());

    // Another metric is plotted from the same result, without running again.
    harness
        .state_mut()
        .view
        .sweep
        .as_mut()
        .expect("open")
        .form
        .metric = Metric::MeanSpeed;
    harness.run_steps(1);
    let window = harness.state().view.sweep.as_ref().expect("open");
    assert_eq!(window.plot().expect("plot").metric, Metric::MeanSpeed);
    // The marker follows the graph: a new default moves it.
    harness
        .state_mut()
        .apply(Command::SetParameter("push".to_owned(), Some(2.5)));
    harness.run_steps(1);
    let window = harness.state().view.sweep.as_ref().expect("open");
    assert_eq!(window.plot().expect("plot").current, Some(2.5));
}

#[test]
fn cancel_stops_a_long_sweep_and_run_is_offered_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = sweep_window_of_push(dir.path(), GATHER_SCENE);
    let form = &mut harness.state_mut().view.sweep.as_mut().expect("open").form;
    // 9 values × 8 seeds × 10 minutes: far longer than the test waits.
    (form.steps, form.seconds, form.seeds) = (9, 600.0, 8);
    harness.run_steps(1);
    harness.get_by_label("Run").click();
    // The click is seen in one frame, and the window shows the running sweep in the next.
    harness.run_steps(2);
    let started = Instant::now();
    loop {
        let window = harness.state().view.sweep.as_ref().expect("open");
        let SweepState::Running(job) = &window.state else {
            panic!("the sweep runs");
        };
        if job.progress() > 0.0 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(20));
        harness.step();
    }
    harness.get_by_label("Cancel").click();
    harness.run_steps(1);
    run_until_finished(&mut harness, Duration::from_secs(60));
    let window = harness.state().view.sweep.as_ref().expect("open");
    assert!(matches!(window.state, SweepState::Cancelled));
    assert!(window.plot().is_none());
    assert!(harness.query_by_label("Cancelled.").is_some());
    assert!(harness.query_by_label("Run").is_some());
    // Closing the window leaves no sweep behind.
    harness.state_mut().apply(Command::CloseSweep);
    harness.run_steps(1);
    assert!(harness.state().view.sweep.is_none());
}

/// A scene group may run the graph with its own value of the parameter; that is the value
/// the preview runs, so it is the one marked and the defaults go around.
#[test]
fn the_marked_value_is_the_scene_groups_override_when_it_has_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scene = GATHER_SCENE.replace(
        "spawn: Random(",
        "parameters: {\"push\": 4.0}, spawn: Random(",
    );
    let harness = sweep_window_of_push(dir.path(), &scene);
    let window = harness
        .state()
        .view
        .sweep
        .as_ref()
        .expect("the window opened");
    assert_eq!(window.current, Some(4.0));
    assert_eq!((window.form.from, window.form.to), (1.0, 8.0));
}

/// The gather graph with its Separation in a subgraph file beside it, its radius fed by the
/// user's parameter `reach`: the preview runs it, and a sweep of `reach` runs it too.
#[test]
fn a_graph_using_a_subgraph_file_is_swept_through_it() {
    const SEPARATE: &str =
        include_str!("../../../graph-runtime/tests/fixtures/gather/separate.graph.ron");
    const USER: &str =
        include_str!("../../../graph-runtime/tests/fixtures/gather/through_subgraph.graph.ron");
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("separate.graph.ron"), SEPARATE).expect("write");
    let mut harness = sweep_window_of_push(dir.path(), GATHER_SCENE);
    // Make the gather graph the one using the subgraph, as if edited elsewhere, and open it
    // again with its scene.
    std::fs::write(dir.path().join("gather.graph.ron"), USER).expect("write");
    let scene = dir.path().join("gather.scene.ron");
    harness.state_mut().apply(Command::CloseSweep);
    harness.state_mut().open_scene_with_its_graph(&scene);
    harness.run_steps(4);
    let preview = &harness.state().preview;
    assert!(
        preview.host.simulation.is_some(),
        "the preview runs it: {:?}",
        preview.host.problems
    );
    harness
        .state_mut()
        .apply(Command::OpenSweep("reach".to_owned()));
    let form = &mut harness.state_mut().view.sweep.as_mut().expect("open").form;
    (form.from, form.to, form.steps, form.seconds, form.seeds) = (0.125, 3.0, 2, 8.0, 1);
    harness.state_mut().apply(Command::RunSweep);
    harness.run_steps(1);
    run_until_finished(&mut harness, Duration::from_secs(120));
    let window = harness.state().view.sweep.as_ref().expect("open");
    let failed = match &window.state {
        SweepState::Failed(message) => message.clone(),
        _ => String::new(),
    };
    let plot = window.plot().expect(&failed);
    assert_eq!(plot.values, [0.125, 3.0]);
    assert!(plot.means[1] > plot.means[0] + 0.5, "{:?}", plot.means);
}
