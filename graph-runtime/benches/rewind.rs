//! Benchmarks of the rewind (issue 45) on the boids workload, on a pool of 2 threads: a
//! 10,000-agent tick with and without recording it (the baseline, in the same run), the
//! memory 60 s of 10,000 agents take, going back to seeded ticks of that minute, and a fork's
//! 600 re-simulated ticks of 1,000 agents.

#[path = "boids_fixture.rs"]
#[expect(dead_code, reason = "the hand-written flock is the simulation bench's")]
mod boids_fixture;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use graph_runtime::rewind::{DEFAULT_BUDGET, Recording};
use graph_runtime::{AgentRng, Simulation};

use boids_fixture::DT;

const AGENTS: usize = 10_000;

/// The boids of `agents`, the flock formed (30 ticks).
fn boids(agents: usize) -> Simulation {
    let assets = boids_fixture::scene_assets(agents, boids_fixture::graph(), Vec::new());
    let mut simulation = Simulation::new(&assets).expect("bench scene");
    for _ in 0..30 {
        simulation.step(DT);
    }
    simulation
}

fn rewind(c: &mut Criterion) {
    // Criterion's state stays on this thread: the global pool is the 2 threads.
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build_global()
        .expect("the global pool, once");
    ticks(c);
    minute(c);
    fork(c);
}

/// A tick of 10,000 boids, then the same recorded (a keyframe every 60 ticks, amortized).
fn ticks(c: &mut Criterion) {
    let mut group = c.benchmark_group("rewind_tick_10000");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(10));
    let mut plain = boids(AGENTS);
    group.bench_function("plain", |b| b.iter(|| plain.step(black_box(DT))));
    let mut recorded = boids(AGENTS);
    let mut recording = Recording::new(&recorded, DEFAULT_BUDGET);
    group.bench_function("recorded", |b| {
        b.iter(|| {
            recording.record(&recorded, DT);
            recorded.step(black_box(DT));
        });
    });
    group.finish();
}

/// 60 s of 10,000 boids recorded: the memory it takes, then going back to seeded ticks of it.
fn minute(c: &mut Criterion) {
    let mut simulation = boids(AGENTS);
    let mut recording = Recording::new(&simulation, DEFAULT_BUDGET);
    for _ in 0..3_600 {
        recording.record(&simulation, DT);
        simulation.step(DT);
    }
    println!(
        "rewind: 60 s of {AGENTS} agents: {:.1} MiB in {} keyframes, one every {} ticks (budget {} MiB)",
        recording.bytes() as f64 / f64::from(1 << 20),
        recording.keyframe_count(),
        recording.keyframe_every(),
        DEFAULT_BUDGET >> 20,
    );
    let (first, last) = (recording.first(), recording.last());
    let mut rng = AgentRng::new(45, 0);
    let mut seeded =
        move || first + ((rng.unit() * (last - first) as f32) as u64).min(last - first);
    // The spread: 40 seeks timed one by one.
    let mut times: Vec<Duration> = (0..40)
        .map(|_| {
            let tick = seeded();
            let start = Instant::now();
            recording.seek(&mut simulation, tick).expect("recorded");
            start.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "rewind: seek in a minute of {AGENTS} agents, 40 seeded ticks: median {:.1} ms, 95th percentile {:.1} ms, most {:.1} ms",
        times[19].as_secs_f64() * 1e3,
        times[37].as_secs_f64() * 1e3,
        times[39].as_secs_f64() * 1e3,
    );
    c.bench_function("rewind_seek_10000", |b| {
        b.iter(|| recording.seek(&mut simulation, seeded()).expect("recorded"));
    });
}

/// A fork of 1,000 boids: back to the recording's start, then 600 ticks stepped and recorded.
fn fork(c: &mut Criterion) {
    let mut simulation = boids(1_000);
    let mut recording = Recording::new(&simulation, DEFAULT_BUDGET);
    for _ in 0..600 {
        recording.record(&simulation, DT);
        simulation.step(DT);
    }
    let start = recording.first();
    let mut group = c.benchmark_group("rewind_fork_1000");
    group.sample_size(10);
    group.bench_function("600_ticks", |b| {
        b.iter(|| {
            recording.seek(&mut simulation, start).expect("recorded");
            for _ in 0..600 {
                recording.record(&simulation, DT);
                simulation.step(DT);
            }
        });
    });
    group.finish();
}

criterion_group!(benches, rewind);
criterion_main!(benches);
