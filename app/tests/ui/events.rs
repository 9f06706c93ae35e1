//! The timeline's events and backwards play (issue 45), driven headless on the chasm: the
//! next and previous jump are the ticks a headless run of the same scene takes off at, the
//! tick shows who jumped (on screen, first in its line), and playing backwards goes back a
//! tick a frame.

use std::path::Path;

use app::editor::EventKind;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use graph_runtime::{JumpEventKind, SceneAssets, Simulation};

use crate::common::EditorHarness;

/// The ticks of a headless run of the chasm, in its first `ticks`, at which an agent took off,
/// with the agent.
fn take_offs(ticks: u64) -> Vec<(u64, usize)> {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets/chasm.scene.ron");
    let assets = SceneAssets::load(&scene).expect("the preset loads");
    let mut simulation = Simulation::new(&assets).expect("runs");
    let mut found = Vec::new();
    for _ in 0..ticks {
        simulation.step(1.0 / 60.0);
        for event in simulation.jump_events() {
            if matches!(event.kind, JumpEventKind::TakeOff { .. }) {
                found.push((simulation.tick(), event.agent));
            }
        }
    }
    found
}

fn tick(harness: &Harness<'static, app::editor::EditorApp>) -> u64 {
    harness.state().preview.host.tick().expect("shown")
}

#[test]
fn the_timeline_jumps_between_jumps_and_plays_backwards() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = EditorHarness::new(dir.path())
        .sixtieth()
        .preset("jumper.graph.ron")
        .build();
    harness.run_steps(420);
    harness.state_mut().preview.host.running = false;
    harness.run_steps(1);
    let last = tick(&harness);
    let expected: Vec<(u64, usize)> = take_offs(last);
    assert!(expected.len() >= 2, "the chasm's agents jump: {expected:?}");
    // From the start, the next jump, then the one after, then back.
    harness.state_mut().preview.host.seek(0);
    harness.state_mut().preview.timeline.kind = Some(EventKind::Jump);
    harness.run_steps(1);
    harness.get_by_label("event ⏵").click_accesskit();
    // The click seeks in its frame; the next frame shows the tick.
    harness.run_steps(2);
    let (first, agent) = expected[0];
    assert_eq!(tick(&harness), first);
    // Every agent that took off in that tick is listed.
    let listed: Vec<String> = (expected.iter())
        .filter(|(t, _)| *t == first)
        .map(|(_, agent)| format!("jump (agent {agent})"))
        .collect();
    assert!(listed.contains(&format!("jump (agent {agent})")));
    // On screen, not cut away by the times after it: in a 1600-point window the preview is
    // narrow, and the row cuts what comes last.
    let here = format!("here: {}", listed.join(", "));
    let rect = harness.get_by_label(&here).rect();
    assert!(rect.width() >= 60.0 && rect.right() <= 1600.0, "{rect:?}");
    let second = (expected.iter())
        .find(|(t, _)| *t > first)
        .expect("a later jump")
        .0;
    harness.get_by_label("event ⏵").click_accesskit();
    harness.run_steps(1);
    assert_eq!(tick(&harness), second);
    harness.get_by_label("⏴ event").click_accesskit();
    harness.run_steps(1);
    assert_eq!(tick(&harness), first);
    // Backwards, a tick a frame, from 100 to 90; Stop leaves it there.
    harness.state_mut().preview.host.seek(100);
    harness.run_steps(1);
    harness.get_by_label("⏴⏴").click_accesskit();
    harness.run_steps(10);
    harness.get_by_label("⏸").click_accesskit();
    harness.run_steps(2);
    assert_eq!(tick(&harness), 90);
    assert!(!harness.state().preview.host.running);
}
