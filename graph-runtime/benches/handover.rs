//! What handing work to the thread pool costs on this machine (issue 47): the time of one
//! parallel pass over 10,000 `u32`s in two halves, right after another and after the calling
//! thread has worked alone for 5 µs to 1 ms, against the same pass on the calling thread.
//! A pool's worker that finds no work spins a little, then sleeps; a pass after a longer
//! serial stretch waits for it to wake. This is why the tick's grid and re-sort are built
//! from as few parallel passes as possible (`spatial/build.rs`, `simulation/layout.rs`).
//!
//! Run with `cargo bench -p graph-runtime --bench handover`; `STEERGRAPH_BENCH_THREADS`
//! (2 by default) sets the pool.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rayon::prelude::*;

/// Passes timed per serial stretch.
const PASSES: u32 = 2_000;
/// The elements of a pass, and of each half.
const ELEMENTS: usize = 10_000;

/// Adds one to every element: a pass's work (about half a microsecond here on one thread).
fn add_one(values: &mut [u32]) {
    for value in values {
        *value = value.wrapping_add(1);
    }
}

fn main() {
    let threads = std::env::var("STEERGRAPH_BENCH_THREADS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(2);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut values = vec![0_u32; ELEMENTS];
    pool.install(|| {
        let serial = {
            let start = Instant::now();
            for _ in 0..PASSES {
                add_one(black_box(&mut values));
            }
            start.elapsed() / PASSES
        };
        println!(
            "{threads} threads; one pass over {ELEMENTS} values on the calling thread: {:.2} µs",
            serial.as_secs_f64() * 1e6
        );
        println!("| serial work before the pass | parallel pass (2 halves) |");
        println!("| ---: | ---: |");
        for before in [0, 5, 20, 100, 1_000] {
            let before = Duration::from_micros(before);
            let mut total = Duration::ZERO;
            for _ in 0..PASSES {
                let alone = Instant::now();
                while alone.elapsed() < before {
                    std::hint::spin_loop();
                }
                let start = Instant::now();
                values
                    .par_chunks_mut(ELEMENTS / 2)
                    .for_each(|half| add_one(black_box(half)));
                total += start.elapsed();
            }
            println!(
                "| {} µs | {:.2} µs |",
                before.as_micros(),
                (total / PASSES).as_secs_f64() * 1e6
            );
        }
    });
    black_box(&values);
}
