//! What handing work to the thread pool costs on this machine (issue 47): the time of one
//! parallel pass over 10,000 `u32`s in two halves, right after another and after the calling
//! thread has worked alone for 5 µs to 1 ms, against the same pass on the calling thread.
//! A pool's worker that finds no work spins a little, then sleeps; a pass after a longer
//! serial stretch waits for it to wake. This is why the tick's grid and re-sort are built
//! from as few parallel passes as possible (`spatial/build.rs`, `simulation/layout.rs`).
//!
//! Then what starting a warm tick costs the thread that ticks (`pool/warm.rs`): its own CPU
//! time to send every thread of a pool that has gone to sleep a job, by a broadcast it sends
//! itself (rayon wakes each sleeping thread in turn, a system call each) against one job
//! that wakes one thread, which sends the broadcast (what `Warm` does), in turn. Its CPU
//! time, not the wall clock: with more threads than cores the woken threads take the
//! sender's core, where on a machine with a core each they would not.
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

/// Starts of a warm tick timed, each way.
const STARTS: usize = 400;
/// How long the pool is left idle before each start: long enough for every thread to sleep.
const ASLEEP: Duration = Duration::from_millis(2);

/// The CPU time the calling thread has run (`CLOCK_THREAD_CPUTIME_ID`), where there is such
/// a clock (Unix).
#[cfg(unix)]
#[expect(
    unsafe_code,
    reason = "the thread's CPU clock is libc's `clock_gettime`, which the standard library \
              does not wrap"
)]
fn thread_cpu() -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through a valid pointer to one.
    let failed = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut now) } != 0;
    if failed {
        return None;
    }
    Some(Duration::new(
        u64::try_from(now.tv_sec).unwrap_or(0),
        u32::try_from(now.tv_nsec).unwrap_or(0),
    ))
}

/// No per-thread CPU clock here: the section is not measured.
#[cfg(not(unix))]
fn thread_cpu() -> Option<Duration> {
    None
}

/// The median of `times`, in µs.
fn median_us(times: &mut [Duration]) -> f64 {
    times.sort_unstable();
    times
        .get(times.len() / 2)
        .map_or(0.0, Duration::as_secs_f64)
        * 1e6
}

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
        // Starting a warm tick on a pool asleep: the sender's CPU time, each way in turn.
        if thread_cpu().is_none() {
            println!("waking a sleeping pool: not measured (no per-thread CPU clock here)");
            return;
        }
        let elapsed = |before: Option<Duration>| {
            thread_cpu()
                .zip(before)
                .map_or(Duration::ZERO, |(now, before)| now.saturating_sub(before))
        };
        let (mut itself, mut delegated) = (Vec::new(), Vec::new());
        for start in 0..2 * STARTS {
            std::thread::sleep(ASLEEP);
            let before = thread_cpu();
            if start % 2 == 0 {
                rayon::spawn_broadcast(|context| {
                    black_box(context.index());
                });
                itself.push(elapsed(before));
            } else {
                rayon::spawn(|| {
                    rayon::spawn_broadcast(|context| {
                        black_box(context.index());
                    });
                });
                delegated.push(elapsed(before));
            }
        }
        println!(
            "waking a sleeping pool of {threads} for a tick, the ticking thread's CPU time (median \
             of {STARTS}): broadcast sent itself {:.1} µs, one job that sends it {:.1} µs",
            median_us(&mut itself),
            median_us(&mut delegated)
        );
    });
    black_box(&values);
}
