//! Benchmarks of the rewind (issue 45) on the boids workload, on a pool of 2 threads: a
//! 10,000-agent tick with and without recording it (the baseline, in the same run; then the
//! two timed in alternating rounds, which the machine's drift cannot favour), the
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
    interleaved();
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

/// The same two ticks timed in turn, round by round (plain then recorded, then the other way
/// round), so that what the machine does meanwhile (another process, the clock's turbo) falls
/// on both alike: criterion's two groups above run 10 s apart, and on the 2-core machine their
/// difference moved between −0.3 % and +9 % from run to run. A round is [`KEYFRAME_ROUND`]
/// ticks of each, so each recorded round takes exactly one keyframe (the default one every 60
/// ticks, the budget far off): the keyframe's copy is in every recorded round, not in some.
fn interleaved() {
    const ROUNDS: usize = 60;
    const KEYFRAME_ROUND: usize = 60;
    let mut plain = boids(AGENTS);
    let mut recorded = boids(AGENTS);
    let mut recording = Recording::new(&recorded, DEFAULT_BUDGET);
    assert_eq!(recording.keyframe_every(), KEYFRAME_ROUND as u64);
    let time_plain = |simulation: &mut Simulation| {
        let start = Instant::now();
        for _ in 0..KEYFRAME_ROUND {
            simulation.step(black_box(DT));
        }
        start.elapsed()
    };
    let mut ratios = Vec::with_capacity(ROUNDS);
    let (mut plain_total, mut recorded_total) = (Duration::ZERO, Duration::ZERO);
    for round in 0..ROUNDS + 2 {
        let mut time_recorded = |simulation: &mut Simulation| {
            let start = Instant::now();
            for _ in 0..KEYFRAME_ROUND {
                recording.record(simulation, DT);
                simulation.step(black_box(DT));
            }
            start.elapsed()
        };
        let (p, r) = if round % 2 == 0 {
            let p = time_plain(&mut plain);
            (p, time_recorded(&mut recorded))
        } else {
            let r = time_recorded(&mut recorded);
            (time_plain(&mut plain), r)
        };
        // The first two rounds warm both up.
        if round >= 2 {
            ratios.push(r.as_secs_f64() / p.as_secs_f64());
            plain_total += p;
            recorded_total += r;
        }
    }
    assert_eq!(plain.tick(), recorded.tick(), "both stepped alike");
    // What a round's keyframe costs alone: the part of the overhead that is not noise.
    let mut keyframes: Vec<f64> = (0..21)
        .map(|_| {
            let start = Instant::now();
            black_box(recorded.keyframe());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    keyframes.sort_by(f64::total_cmp);
    ratios.sort_by(f64::total_cmp);
    let at = |q: f64| (ratios[((ratios.len() - 1) as f64 * q).round() as usize] - 1.0) * 100.0;
    let per_tick = |total: Duration| total.as_secs_f64() * 1e3 / (ROUNDS * KEYFRAME_ROUND) as f64;
    println!(
        "rewind_tick_10000 interleaved: {ROUNDS} rounds of {KEYFRAME_ROUND} ticks each: plain {:.3} ms a tick, recorded {:.3} ms; recording's overhead a round: median {:+.1} %, quartiles {:+.1} % to {:+.1} %; over all rounds {:+.1} %; a keyframe alone {:.3} ms (median of 21), {:.1} % of a round's plain ticks",
        per_tick(plain_total),
        per_tick(recorded_total),
        at(0.5),
        at(0.25),
        at(0.75),
        (recorded_total.as_secs_f64() / plain_total.as_secs_f64() - 1.0) * 100.0,
        keyframes[10],
        keyframes[10] / (per_tick(plain_total) * KEYFRAME_ROUND as f64) * 100.0
    );
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
