//! The preview's metrics along the timeline (issue 45), driven headless: going back and on
//! again shows the plots as they were, a fork without an edit samples exactly what the run
//! sampled (arrivals counted from the run's, not from the moment it forked), and **Original
//! run** puts back the samples and events the run had after the fork.

use crate::common::EditorHarness;

use egui_kittest::kittest::Queryable as _;
use graph_runtime::Sample;

type App = egui_kittest::Harness<'static, app::editor::EditorApp>;

/// The samples the plots show now.
fn shown(harness: &App) -> Vec<Sample> {
    harness
        .state()
        .preview
        .host
        .shown_samples()
        .copied()
        .collect()
}

/// The tick the preview shows.
fn tick(harness: &App) -> u64 {
    (harness.state().preview.host.tick()).expect("the preview runs")
}

/// Every event of the run up to tick `end`.
fn events(harness: &App, end: u64) -> Vec<app::editor::Event> {
    let host = &harness.state().preview.host;
    (0..=end).flat_map(|t| host.events_at(t).copied()).collect()
}

/// Fails, naming the first sample that differs, unless `host` keeps exactly the samples `run`.
fn assert_samples(harness: &App, run: &[Sample], what: &str) {
    let kept = &harness.state().preview.host.samples;
    if let Some((i, (a, b))) = kept.iter().zip(run).enumerate().find(|(_, (a, b))| a != b) {
        panic!("{what}: sample {i} differs:\n{a:?}\nagainst\n{b:?}");
    }
    assert_eq!(kept.len(), run.len(), "{what}: how many samples");
}

/// The tick a sample was taken after (ticks of 1/60 s).
fn tick_of(sample: &Sample) -> u64 {
    (sample.time * 60.0).round() as u64
}

/// Runs the preview until `since` (a moment of the run, once there is one) lies `then` s
/// before its last sample (at most 3,000 frames), pauses it, and returns every sample and
/// the moment.
fn run_until(
    harness: &mut App,
    since: impl Fn(&App) -> Option<f32>,
    then: f32,
) -> (Vec<Sample>, f32) {
    let ran_to = |harness: &App| (harness.state().preview.host.samples.back()).map(|s| s.time);
    for _ in 0..3_000 {
        if since(harness)
            .zip(ran_to(harness))
            .is_some_and(|(moment, t)| t >= moment + then)
        {
            break;
        }
        harness.run_steps(1);
    }
    harness.state_mut().preview.host.running = false;
    harness.run_steps(1);
    let moment = since(harness).expect("the moment came");
    let run = harness
        .state()
        .preview
        .host
        .samples
        .iter()
        .copied()
        .collect();
    (run, moment)
}

/// Goes back to sample `at`, plays `frames` frames from there (a fork without an edit) and
/// pauses: the last sample the plots show.
fn fork_from(harness: &mut App, at: &Sample, frames: usize) -> Sample {
    harness.state_mut().preview.host.seek(tick_of(at));
    harness.run_steps(1);
    harness.state_mut().preview.host.running = true;
    harness.run_steps(frames);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(1);
    shown(harness).last().copied().expect("samples")
}

/// The samples of `run` up to the time of `last`.
fn up_to(run: &[Sample], last: &Sample) -> Vec<Sample> {
    (run.iter())
        .filter(|s| s.time <= last.time + 1e-4)
        .copied()
        .collect()
}

#[test]
fn going_back_forking_and_taking_the_original_run_again_keep_the_metrics_as_they_were() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Twelve agents arriving at the cursor; run until 95 % arrived and 10 s more.
    let mut harness = EditorHarness::new(dir.path())
        .preset("arrival.graph.ron")
        .build();
    let all_at =
        |harness: &App| (harness.state().preview.host.samples.back()).and_then(|s| s.arrived_at[1]);
    let (run, _) = run_until(&mut harness, all_at, 10.0);
    let last = run.last().copied().expect("samples");
    let [Some(half), Some(most)] = last.arrived_at else {
        panic!("half and 95 % arrived: {:?}", last.arrived_at);
    };
    println!(
        "half at {half} s, 95 % at {most} s, {} samples to {} s",
        run.len(),
        last.time
    );
    let end = tick(&harness);
    assert_eq!(shown(&harness).last(), Some(&last));
    let run_events = events(&harness, end);
    assert!(!run_events.is_empty(), "the crowd overlaps at the cursor");

    // Back to a sampled tick more than the 5.5 s a seek sees again after 95 % had arrived:
    // the plots end there, the summary says when half and 95 % arrived.
    let at = (run.iter())
        .find(|s| s.time >= most + 6.0)
        .copied()
        .expect("a sample 6 s after 95 % arrived");
    harness.state_mut().preview.host.seek(tick_of(&at));
    harness.run_steps(1);
    assert_eq!(shown(&harness).last(), Some(&at));
    harness.get_by_label_contains(&format!("(half at {half:.1} s, 95 % at {most:.1} s)"));
    // On to the end again: every sample as it was, none lost.
    harness.state_mut().preview.host.seek(end);
    harness.run_steps(1);
    assert_samples(&harness, &run, "on to the end");

    // Back to that tick and on for 3 s without an edit: a fork that samples exactly what the
    // run sampled, the arrivals counted from the run's (half and 95 % at the run's times, not
    // at the first tick the seek saw again).
    let fork_last = fork_from(&mut harness, &at, 30);
    assert!(
        fork_last.time >= at.time + 2.9,
        "{} after {}",
        fork_last.time,
        at.time
    );
    let same_span = up_to(&run, &fork_last);
    assert_samples(&harness, &same_span, "the fork");
    assert_eq!(fork_last.arrived_at, [Some(half), Some(most)]);

    // Original run: the run's samples and events after the fork are back, to its end.
    harness.get_by_label("Original run").click();
    harness.run_steps(1);
    assert_samples(&harness, &run, "the original run");
    assert_eq!(events(&harness, end), run_events);
    harness.state_mut().preview.host.seek(end);
    harness.run_steps(1);
    assert_eq!(shown(&harness).last(), Some(&last));
}

/// The same for routed agents' walks (the halls preset: 60 agents, each two rooms from its
/// goal): going back to a moment 6 s after the last of them arrived and forking without an
/// edit samples exactly what the run sampled, the walked-over-shortest figure included. The
/// tracker made at the seek sees only the last 5.5 s again; without the run's finished walks
/// it counted each as a straight line from its route's start (found after driving the fork
/// under Xvfb, 1.07 against the run's 1.27, in the last stop).
#[test]
fn a_fork_without_an_edit_keeps_the_routed_walks_as_the_run_had_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = EditorHarness::new(dir.path())
        .preset("navigator.graph.ron")
        .build();
    // Until every walk has ended (the figure stays) and 7 s more.
    let ended = |harness: &App| {
        let arrivals = harness.state().preview.host.route_arrivals();
        (arrivals.len() == 60 && arrivals.iter().all(Option::is_some)).then(|| {
            arrivals
                .iter()
                .flatten()
                .map(|a| a.time)
                .fold(0.0, f32::max)
        })
    };
    let (run, last_arrival) = run_until(&mut harness, ended, 7.0);
    let efficiency = (run.last())
        .and_then(|s| s.route_efficiency)
        .expect("walks");
    println!("last walk ended at {last_arrival} s; walked over shortest {efficiency}");
    assert!(efficiency > 1.0, "{efficiency}");
    let at = (run.iter())
        .find(|s| s.time >= last_arrival + 6.0)
        .copied()
        .expect("a sample 6 s after the last walk ended");
    let fork_last = fork_from(&mut harness, &at, 10);
    assert!(
        fork_last.time > at.time,
        "{} after {}",
        fork_last.time,
        at.time
    );
    let same_span = up_to(&run, &fork_last);
    assert_samples(&harness, &same_span, "the fork");
    assert_eq!(fork_last.route_efficiency, Some(efficiency));
}
