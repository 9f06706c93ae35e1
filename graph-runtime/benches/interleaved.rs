//! The compiled boids graph against the same behavior written by hand, alternating one tick of
//! each in one process: both see the same machine load, so the ratio holds on a shared machine
//! where criterion's separate runs of the two (seconds apart) do not.
//!
//! Run with `cargo bench -p graph-runtime --bench interleaved`.

#[path = "boids_fixture.rs"]
#[expect(
    dead_code,
    reason = "this benchmark runs the fixture's hand-written flock, not its scene"
)]
mod boids_fixture;

use std::time::{Duration, Instant};

/// Agents in the comparison (as in the criterion benchmark).
const AGENTS: usize = 4_000;
/// Ticks before measuring, for the flock to form.
const WARM_UP_TICKS: usize = 30;
/// Measured ticks of each evaluator.
const MEASURED_TICKS: usize = 3_000;

fn main() {
    // `cargo bench` passes `--bench`; any other argument is a filter this harness ignores.
    let mut graph = boids_fixture::Flock::new(AGENTS);
    let mut hand = boids_fixture::Flock::new(AGENTS);
    for _ in 0..WARM_UP_TICKS {
        graph.tick_graph();
        hand.tick_hand_written();
    }
    let mut graph_times = Vec::with_capacity(MEASURED_TICKS);
    let mut hand_times = Vec::with_capacity(MEASURED_TICKS);
    let time = |tick: &mut dyn FnMut()| {
        let start = Instant::now();
        tick();
        start.elapsed()
    };
    for round in 0..MEASURED_TICKS {
        // Alternate which goes first, so neither always follows the other's cache state.
        if round % 2 == 0 {
            graph_times.push(time(&mut || graph.tick_graph()));
            hand_times.push(time(&mut || hand.tick_hand_written()));
        } else {
            hand_times.push(time(&mut || hand.tick_hand_written()));
            graph_times.push(time(&mut || graph.tick_graph()));
        }
    }
    assert_eq!(
        graph.vehicles, hand.vehicles,
        "both evaluators must compute the same motion"
    );
    graph_times.sort_unstable();
    hand_times.sort_unstable();
    let at = |times: &[Duration], fraction: f64| {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss,
            reason = "an index into a few thousand sorted samples"
        )]
        let index = ((times.len() - 1) as f64 * fraction) as usize;
        times.get(index).copied().unwrap_or_default()
    };
    let ms = |duration: Duration| duration.as_secs_f64() * 1e3;
    println!("{AGENTS} agents, one thread, {MEASURED_TICKS} interleaved ticks each (ms per tick):");
    for (label, fraction) in [("min", 0.0), ("p10", 0.1), ("median", 0.5)] {
        let (g, h) = (at(&graph_times, fraction), at(&hand_times, fraction));
        println!(
            "  {label:>6}: compiled graph {:.3}, hand-written {:.3}, ratio {:.3}x",
            ms(g),
            ms(h),
            ms(g) / ms(h)
        );
    }
}
