//! The "Tune…" window, driven headless through `egui_kittest`: opened from a graph
//! parameter's right-click menu, a goal the graph misses met by a search in the background,
//! Apply to the graph's defaults or to the scene's overrides as one undo step, and Cancel.

use crate::common;

use std::path::Path;
use std::time::Duration;

use app::editor::{ApplyTo, Command, EditorApp, TuneState, TuneWindow};
use common::GATHER_SCENE;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::sweep::Metric;
use graph_runtime::tune::{Comparison, Goal};

/// Arrive at one shared point, blended with Separation weighted by `push` within `reach`.
const GRAPH: &str = include_str!("../../../graph-runtime/tests/fixtures/gather/gather.graph.ron");

/// The editor on the gather graph and scene, paused, with the tune window opened from
/// `push`'s right-click menu.
fn tune_window(dir: &Path) -> Harness<'static, EditorApp> {
    let mut harness = common::editor_on_gather(dir, GRAPH, GATHER_SCENE);
    common::open_parameter_menu(&mut harness, "push");
    // The menu's entry; the side panel's own "Tune…" button comes first.
    harness
        .get_all_by_label("Tune…")
        .last()
        .expect("the menu's Tune…")
        .click();
    harness.run_steps(2);
    harness
}

/// Agents at least 1.2 apart once settled (the graph's push 1 and reach 3 pile them closer),
/// searching push (0 to 8) and reach (1 to 6).
fn ask_for_room(harness: &mut Harness<'static, EditorApp>, budget: usize, seconds: f32) {
    let window = harness
        .state_mut()
        .view
        .tune
        .as_mut()
        .expect("the window opened");
    for row in &mut window.rows {
        row.ticked = true;
        (row.from, row.to) = if row.name == "push" {
            (0.0, 8.0)
        } else {
            (1.0, 6.0)
        };
    }
    window.goals = vec![Goal {
        metric: Metric::MinSpacing,
        comparison: Comparison::AtLeast,
        target: 1.2,
    }];
    (window.budget, window.seeds, window.seconds) = (budget, 2, seconds);
    harness.run_steps(1);
}

/// Steps frames until no search runs, for at most `limit`.
fn run_until_finished(harness: &mut Harness<'static, EditorApp>, limit: Duration) {
    common::run_while(harness, limit, "the search", |app| {
        app.view.tune.as_ref().is_some_and(TuneWindow::is_running)
    });
}

#[test]
fn a_search_meets_the_goal_and_apply_sets_the_defaults_in_one_undo_step() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = tune_window(dir.path());
    let window = harness
        .state()
        .view
        .tune
        .as_ref()
        .expect("the window opened");
    let names: Vec<(&str, bool)> = window
        .rows
        .iter()
        .map(|row| (row.name.as_str(), row.ticked))
        .collect();
    assert_eq!(names, [("push", true), ("reach", false)], "opened on push");
    // Ranges from half to twice the value run now.
    assert_eq!((window.rows[0].from, window.rows[0].to), (0.5, 2.0));
    ask_for_room(&mut harness, 30, 8.0);
    harness.get_by_label("Run").click();
    harness.run_steps(1);
    assert!(
        harness
            .state()
            .view
            .tune
            .as_ref()
            .is_some_and(TuneWindow::is_running)
    );
    harness.step();
    assert!(
        harness.query_by_label("Cancel").is_some() || harness.query_by_label("Copy CSV").is_some(),
        "Cancel while it runs"
    );
    run_until_finished(&mut harness, Duration::from_secs(180));

    let result = harness
        .state()
        .view
        .tune
        .as_ref()
        .and_then(TuneWindow::result)
        .expect("a result")
        .clone();
    assert!(result.met(), "{:?}", result.best());
    let best = result.best().expect("a best run").clone();
    harness.get_by_label_contains("): every goal met");
    harness.get_by_label_contains(": met");
    assert!(harness.query_by_label("Copy CSV").is_some());

    harness.get_by_label("Apply").click();
    harness.run_steps(2);
    let parameters = &crate::common::document(&harness).parameters;
    assert_eq!(parameters.get("push"), Some(&best.values[0]));
    assert_eq!(parameters.get("reach"), Some(&best.values[1]));
    harness.state_mut().apply(Command::Undo);
    harness.run_steps(2);
    let parameters = &crate::common::document(&harness).parameters;
    assert_eq!(
        (parameters.get("push"), parameters.get("reach")),
        (Some(&1.0), Some(&3.0)),
        "one undo takes both back"
    );
}

#[test]
fn apply_to_the_scene_sets_the_groups_overrides_in_one_undo_step() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = tune_window(dir.path());
    ask_for_room(&mut harness, 12, 8.0);
    harness.state_mut().apply(Command::RunTune);
    harness.run_steps(1);
    run_until_finished(&mut harness, Duration::from_secs(180));
    let best = harness
        .state()
        .view
        .tune
        .as_ref()
        .and_then(TuneWindow::result)
        .and_then(|r| r.best().cloned())
        .expect("a best run");
    harness
        .state_mut()
        .view
        .tune
        .as_mut()
        .expect("open")
        .apply_to = ApplyTo::SceneOverrides;
    harness.state_mut().apply(Command::ApplyTune);
    harness.run_steps(3);
    let overrides = &crate::common::scene(&harness).scene.groups[0].parameters;
    assert_eq!(overrides.get("push"), Some(&best.values[0]));
    assert_eq!(overrides.get("reach"), Some(&best.values[1]));
    assert_eq!(
        crate::common::document(&harness).parameters.get("push"),
        Some(&1.0),
        "the graph's default stays"
    );
    harness.state_mut().apply(Command::Undo);
    harness.run_steps(3);
    assert!(
        crate::common::scene(&harness).scene.groups[0]
            .parameters
            .is_empty()
    );
}

#[test]
fn cancel_stops_a_long_search_and_run_is_offered_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = tune_window(dir.path());
    ask_for_room(&mut harness, 2_000, 600.0);
    harness.state_mut().apply(Command::RunTune);
    harness.run_steps(2);
    harness.get_by_label("Cancel").click();
    harness.run_steps(1);
    run_until_finished(&mut harness, Duration::from_secs(60));
    let window = harness.state().view.tune.as_ref().expect("open");
    assert!(matches!(window.state, TuneState::Cancelled));
    harness.get_by_label("Cancelled.");
    assert!(harness.query_by_label("Run").is_some());
    harness.state_mut().apply(Command::CloseTune);
    harness.run_steps(1);
    assert!(harness.state().view.tune.is_none());
}

/// At 1024 × 640 the search's progress shows as the distance of the best so far on a log
/// scale and each goal's value against its target, and Apply stays in view under the
/// window's scrolling part (it was below the fold).
#[test]
fn at_1024_by_640_the_progress_plots_show_and_apply_stays_in_view() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("gather.graph.ron"), GRAPH).expect("write the graph");
    let scene = dir.path().join("gather.scene.ron");
    std::fs::write(&scene, GATHER_SCENE).expect("write the scene");
    let size = egui::vec2(1024.0, 640.0);
    let mut harness = common::EditorHarness::new(&dir.path().join("a"))
        .size(size)
        .build();
    harness.state_mut().open_scene_with_its_graph(&scene);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(3);
    harness
        .state_mut()
        .apply(Command::OpenTune(Some("push".to_owned())));
    harness.run_steps(2);
    ask_for_room(&mut harness, 12, 8.0);
    harness.state_mut().apply(Command::RunTune);
    harness.run_steps(1);
    run_until_finished(&mut harness, Duration::from_secs(180));
    harness.get_by_label_contains("Distance to the goals of the best so far (log scale");
    harness.get_by_label_contains("Each goal's value of the best so far, as a share of its target");
    let result = harness
        .state()
        .view
        .tune
        .as_ref()
        .and_then(TuneWindow::result)
        .expect("a result")
        .clone();
    // One point a run, each the best so far: the distance never grows.
    let best = result.best_so_far();
    assert_eq!(best.len(), result.runs.len());
    assert!(
        best.windows(2)
            .all(|w| result.runs[w[1]].distance <= result.runs[w[0]].distance)
    );
    let apply = harness.get_by_label("Apply").rect();
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, size);
    assert!(window.contains_rect(apply), "Apply at {apply:?}");
    harness.get_by_label("Apply").click();
    harness.run_steps(2);
    let best = result.best().expect("a best run");
    assert_eq!(
        crate::common::document(&harness).parameters.get("push"),
        Some(&best.values[0])
    );
}

/// A goal the graph's values already meet: the window says there is nothing to change after
/// one run (seen under Xvfb on the boids: "Best of 98 runs (run 98): every goal met … It
/// changes 0 of 8 parameters", a minute later).
#[test]
fn values_that_already_meet_the_goal_are_said_to_need_no_change_after_one_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = tune_window(dir.path());
    ask_for_room(&mut harness, 30, 8.0);
    // Half a diameter apart: the graph's push 1 and reach 3 keep them that far.
    let window = harness.state_mut().view.tune.as_mut().expect("the window");
    window.goals[0].target = 0.5;
    harness.run_steps(1);
    harness.get_by_label("Run").click();
    harness.run_steps(1);
    run_until_finished(&mut harness, Duration::from_secs(120));
    let result = (harness.state().view.tune.as_ref())
        .and_then(TuneWindow::result)
        .expect("a result")
        .clone();
    assert_eq!(result.runs.len(), 1);
    assert_eq!(
        result.best().map(|best| best.values.clone()),
        Some(result.current)
    );
    harness.get_by_label("The values as they are meet every goal: nothing to change.");
    assert!(harness.query_by_label_contains("Best of").is_none());
    // One point is no curve: the progress plots are left out.
    assert!(
        harness
            .query_by_label_contains("Distance to the goals")
            .is_none()
    );
    harness.get_by_label_contains(": met");
}
