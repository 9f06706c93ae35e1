//! The preview's timeline (issue 45), driven headless: going back a tick and on again shows
//! the run exactly as it was, dragging the timeline to its start shows the start, and
//! stepping from a past tick forks the run there. And stuck as a designer means it: an agent
//! whose forces cancel far from its goal is shown stalled (inspector, ring), never stuck.

use crate::common::{self, EditorHarness};

use egui_kittest::kittest::Queryable as _;
use graph_runtime::Vehicle;

/// The preview's vehicles and tick now.
fn shown(harness: &egui_kittest::Harness<'static, app::editor::EditorApp>) -> (u64, Vec<Vehicle>) {
    let simulation = (harness.state().preview.host.simulation.as_ref()).expect("the preview runs");
    (simulation.tick(), simulation.vehicles().to_vec())
}

#[test]
fn the_timeline_goes_back_and_on_through_the_run_and_stepping_from_the_past_forks_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The boids preset running a tick a frame.
    let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
    harness.run_steps(40);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(1);
    let (last, at_last) = shown(&harness);
    assert!(last >= 40, "{last}");
    assert_eq!(harness.state().preview.host.recorded(), Some((0, last)));
    // Back one tick, then back again, then Forward: the tick before the last, exactly.
    harness.get_by_label("Back").click();
    harness.run_steps(1);
    let (tick, before_last) = shown(&harness);
    assert_eq!(tick, last - 1);
    assert_ne!(before_last, at_last, "the flock moved in a tick");
    harness.get_by_label("Back").click();
    harness.run_steps(1);
    assert_eq!(shown(&harness).0, last - 2);
    harness.get_by_label("Forward").click();
    harness.run_steps(1);
    assert_eq!(shown(&harness), (last - 1, before_last.clone()));
    // Live: the last tick as it was.
    harness.get_by_label("Live").click();
    harness.run_steps(1);
    assert_eq!(shown(&harness), (last, at_last.clone()));
    // Paused at the end, Forward steps a new tick.
    harness.get_by_label("Forward").click();
    harness.run_steps(1);
    assert_eq!(shown(&harness).0, last + 1);
    assert_eq!(harness.state().preview.host.recorded(), Some((0, last + 1)));
    // Back twice to the old last tick, then Step: a fork from there, the tick after it
    // dropped and stepped again (the same tick, as nothing was edited).
    for _ in 0..2 {
        harness.get_by_label("Back").click();
        harness.run_steps(1);
    }
    assert_eq!(shown(&harness), (last - 1, before_last));
    harness.get_by_label("Step").click();
    harness.run_steps(1);
    assert_eq!(shown(&harness), (last, at_last));
    assert_eq!(harness.state().preview.host.recorded(), Some((0, last)));
    // The timeline dragged to its left end: the start of the run.
    let slider = harness.get_by_role(egui::accesskit::Role::Slider);
    let rect = slider.rect();
    common::drag(
        &mut harness,
        rect.center(),
        egui::pos2(rect.left() - 40.0, rect.center().y),
        6,
    );
    harness.run_steps(1);
    assert_eq!(shown(&harness).0, 0, "slider at {rect:?}");
    assert!(!harness.state().preview.host.running, "going back pauses");
}

/// Seek to (8, 0) and Flee from (2, 0), equally weighted: forces that cancel.
const TUG_GRAPH: &str = r#"(
    format: "steergraph.graph",
    version: 1,
    vehicle: (mass: 1.0, max_force: 20.0, max_speed: 4.0, radius: 0.5),
    nodes: {
        1: Seek(target: Point(8.0, 0.0)),
        2: Flee(target: Point(2.0, 0.0), panic_distance: None),
        3: Blend(inputs: [(node: 1, weight: 1.0), (node: 2, weight: 1.0)]),
        4: Output(input: 3),
    },
)"#;

/// One agent at rest at (-5, 0) running the tug.
const TUG_SCENE: &str = r#"(
    format: "steergraph.scene",
    version: 1,
    bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
    groups: [
        (
            name: "tugged",
            graph: "tug.graph.ron",
            spawn: Agents([(position: (-5.0, 0.0), velocity: (0.0, 0.0))]),
        ),
    ],
)"#;

/// The editor on the tug of war, a tick a frame, its agent selected, run `seconds`.
pub fn tug(
    dir: &std::path::Path,
    seconds: u32,
) -> egui_kittest::Harness<'static, app::editor::EditorApp> {
    let graph = dir.join("tug.graph.ron");
    std::fs::write(&graph, TUG_GRAPH).expect("writes");
    std::fs::write(dir.join("tug.scene.ron"), TUG_SCENE).expect("writes");
    let mut harness = EditorHarness::opening(&dir.join("autosave"), graph)
        .sixtieth()
        .build();
    harness.state_mut().preview.host.selected_agent = Some(0);
    harness.run_steps(60 * seconds as usize);
    harness
}

#[test]
fn an_agent_whose_forces_cancel_far_from_its_goal_is_shown_stalled_not_stuck() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 4 s: not yet (the count needs 5 s).
    let mut harness = tug(dir.path(), 4);
    assert_eq!(harness.state().preview.host.stalled_for(0), None);
    assert!(harness.query_by_label("stalled").is_none());
    // 7 s: stalled in the inspector, never stuck.
    harness.run_steps(180);
    let host = &harness.state().preview.host;
    let simulation = host.simulation.as_ref().expect("the preview runs");
    assert_eq!(
        simulation.vehicles()[0].position,
        glam::Vec2::new(-5.0, 0.0)
    );
    assert_eq!(simulation.stuck_count(), 0);
    assert!(
        host.stalled_for(0).is_some_and(|s| s >= 1.5),
        "{:?}",
        host.stalled_for(0)
    );
    assert!(harness.query_by_label("stalled").is_some());
    assert_eq!(host.view().expect("a view").stuck, [0], "ringed");
}

#[test]
fn the_graphs_live_values_follow_the_timeline() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
    harness.state_mut().preview.host.selected_agent = Some(7);
    harness.run_steps(30);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(1);
    // The selected agent's evaluation now, then 3 ticks on: it changed.
    let trace = |harness: &egui_kittest::Harness<'static, app::editor::EditorApp>| {
        harness.state().preview.host.trace.clone()
    };
    let (then, before) = (shown(&harness).0, trace(&harness));
    assert!(!before.entries.is_empty());
    for _ in 0..3 {
        harness.get_by_label("Step").click();
        harness.run_steps(1);
    }
    assert_ne!(trace(&harness), before);
    // 3 ticks back on the timeline: the same evaluation, node by node, as at that tick.
    for _ in 0..3 {
        harness.get_by_label("Back").click();
        harness.run_steps(1);
    }
    assert_eq!(shown(&harness).0, then);
    assert_eq!(trace(&harness), before);
}

#[test]
fn the_timeline_marks_the_moment_an_agent_stalls() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 7 s of the tug, then the stalled events of the run.
    let mut harness = tug(dir.path(), 7);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(1);
    let host = &harness.state().preview.host;
    let stalled = Some(app::editor::EventKind::Stalled);
    let at = host
        .event_tick(0, true, stalled)
        .expect("the agent stalled");
    // The first sample (tick 1) starts the count; it stalls at the sample 5 s later, tick 301
    // (or the next, tick 307, where the difference of the two times in f32 falls a hair
    // under 5 s). Once: it stays stalled.
    assert!(at == 301 || at == 307, "{at}");
    assert_eq!(host.event_tick(at, true, stalled), None);
    let here: Vec<_> = host.events_at(at).map(|e| (e.kind, e.agent)).collect();
    assert!(
        here.contains(&(app::editor::EventKind::Stalled, Some(0))),
        "{here:?}"
    );
    // The timeline's row names it there.
    harness.state_mut().preview.host.seek(at);
    harness.run_steps(1);
    harness.get_by_label("here: stalled (agent 0)");
}

/// The recording's memory budget (issue 45: "a memory budget the user can see and set"): set
/// from the timeline's right-click menu, applied to the recording at once, and kept in the
/// settings eframe saves, so the next editor starts with it.
#[test]
fn the_recording_budget_is_set_from_the_timeline_and_kept_for_the_next_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = EditorHarness::new(dir.path()).sixtieth().build();
    harness.run_steps(20);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(1);
    let mib = 1 << 20;
    assert_eq!(harness.state().preview.host.recording_budget(), 64 * mib);
    harness.get_by_label_contains("of 64 MiB").click_secondary();
    harness.run_steps(2);
    harness.get_by_label("Memory the recording may keep");
    let field = harness.get_by(|node| node.value().as_deref() == Some("64 MiB"));
    field.click();
    harness.run_steps(2);
    common::type_text(&mut harness, "8");
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    let host = &harness.state().preview.host;
    assert_eq!(host.recording_budget(), 8 * mib);
    assert_eq!(
        host.recording_bytes().map(|(_, budget)| budget),
        Some(8 * mib)
    );
    // Below the range: the least budget, 8 MiB, not 1.
    harness.state_mut().preview.host.set_recording_budget(1);
    harness.run_steps(1);
    assert_eq!(harness.state().preview.host.recording_budget(), 8 * mib);
    let settings = harness.state().settings.clone();
    assert_eq!(settings.recording_budget_mib, Some(8));
    let next = app::editor::EditorApp::new(settings, None, None);
    assert_eq!(next.preview.host.recording_budget(), 8 * mib);
    // A reset records afresh within it.
    harness.get_by_label("Reset").click();
    harness.run_steps(2);
    let budget = harness
        .state()
        .preview
        .host
        .recording_bytes()
        .map(|(_, b)| b);
    assert_eq!(budget, Some(8 * mib));
    // So does another scene's preview (found under Xvfb: a scene opened at start-up made a
    // preview of 64 MiB, and the settings then forgot the 16 set before).
    let four_way =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets/four_way.scene.ron");
    harness.state_mut().open_scene_with_its_graph(&four_way);
    harness.run_steps(3);
    assert_eq!(harness.state().preview.host.recording_budget(), 8 * mib);
    assert_eq!(harness.state().settings.recording_budget_mib, Some(8));
}

/// A fork's words and the times share no line (found under Xvfb: at the window's default
/// width, "Original run" and "30 apart" left the times and the recording's memory cut to
/// "15.3…"): the times have the timeline's third line, in full, in the default window.
#[test]
fn a_forks_times_and_memory_show_in_full_at_the_default_width() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = EditorHarness::new(dir.path()).window().sixtieth().build();
    harness.run_steps(40);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(1);
    for _ in 0..10 {
        harness.get_by_label("Back").click();
        harness.run_steps(1);
    }
    // Play from the past tick: the run forks there.
    harness.state_mut().preview.host.running = true;
    harness.run_steps(5);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(1);
    let fork = harness.get_by_label("Original run").rect();
    let live = harness.get_by_label("Live").rect();
    let times = harness.get_by_label_contains("of 64 MiB").rect();
    // Its own line, under the fork's.
    assert!(times.min.y >= fork.max.y, "{times:?} against {fork:?}");
    // Not cut: a cut label takes the whole line, to where the first line's Live ends.
    assert!(
        times.max.x < live.max.x - 40.0,
        "{times:?} against {live:?}"
    );
}
