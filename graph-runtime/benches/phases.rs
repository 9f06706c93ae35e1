//! Where a tick's time goes, phase by phase (issue 47): each phase of `Simulation::step`
//! (`TickPhase`) timed with `Simulation::step_observed` on the Flock and Boids workloads of
//! `versus_fast_loop`, on 1 thread and on each other thread count asked for. Prints, per
//! workload, agent count and thread count, each phase's median milliseconds and its share of
//! the tick; on more threads, each phase's speedup over one thread; and the CPU time a tick
//! takes on all threads (Linux), with, above 2 threads, its excess over 2 workers' (run 16
//! workers on 2 cores to see what the finer split alone costs). The phases other than
//! Steer are the ones the issue asks about: on one thread their share is the most a perfect
//! split of Steer could leave (Amdahl's serial part, if none of them were parallel), and their
//! speedup says how much of them is. `scripts/serial_share.sh` measures the serial part itself
//! (the time outside every parallel pass) from this bench's call stacks.
//!
//! Run with `cargo bench -p graph-runtime --bench phases`. `STEERGRAPH_BENCH_AGENTS`
//! (comma-separated; 1,000, 10,000 and 1,000,000 by default), `STEERGRAPH_BENCH_THREADS`
//! (`1,2` by default; `1,2,4,8,16` on a bigger machine), `STEERGRAPH_BENCH_WORKLOAD` (`flock`
//! or `boids`) narrow it. `STEERGRAPH_BENCH_CUT_FOR=16` also gives, for each count of
//! threads between 1 and 16, what cutting the tick's work for 16 threads costs that many warm
//! workers against their own cut (`cut_finer`): the finer cut's cost, without the wake-ups of
//! more threads than cores that 16 workers on 2 cores add. `STEERGRAPH_BENCH_READ` (set)
//! follows each tick with the first read of `Simulation::vehicles`, as a game that reads its
//! agents every frame makes it, and prints its mean (agent order written back, not part of
//! the tick's phases).

#[path = "fast_loop.rs"]
#[expect(
    dead_code,
    reason = "the fast loop itself is versus_fast_loop's; this uses its workloads"
)]
mod fast_loop;

use std::time::Instant;

use fast_loop::{DT, Workload};
use graph_runtime::TickPhase;

/// Agent counts when none are asked for: the issue's.
const AGENT_COUNTS: [usize; 3] = [1_000, 10_000, 1_000_000];
/// Ticks before measuring (the flock forms, the buffers warm, the first re-sorts happen).
const WARM_UP_TICKS: usize = 16;
/// About this many agent-ticks are measured per configuration (at least 16 ticks, a
/// multiple of the re-sort interval of 8 ticks so the Resort phase counts in full).
const AGENT_TICKS: usize = 20_000_000;

/// Each phase's times (seconds), one per measured tick, in [`TickPhase::ALL`]'s order.
type PhaseTimes = [Vec<f64>; TickPhase::ALL.len()];

/// The CPU time all threads of this process have run so far, in seconds: the sum of each
/// thread's `/proc/self/task/*/schedstat` (nanoseconds on the CPU). `None` where there is no
/// such file (not Linux). A pool's worker that spins waiting for work counts: that is part of
/// what a finer split costs.
fn process_cpu_seconds() -> Option<f64> {
    let mut nanos = 0_u64;
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let text = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
        nanos += text.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(nanos as f64 * 1e-9)
}

/// A rayon pool of `threads` threads.
fn pool_of(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// Times `ticks` ticks of `workload` with `agents` agents on a pool of `threads`: each
/// phase's times, and the CPU seconds per tick of all threads (see [`process_cpu_seconds`]);
/// with `reads`, each tick followed by the first read of the vehicles, timed into it.
fn measure(
    workload: Workload,
    agents: usize,
    threads: usize,
    mut reads: Option<&mut Vec<f64>>,
) -> (PhaseTimes, Option<f64>) {
    pool_of(threads).install(|| {
        let mut simulation = workload.simulation(agents);
        for _ in 0..WARM_UP_TICKS {
            simulation.step(DT);
        }
        let ticks = (AGENT_TICKS / agents).clamp(16, 2_000) / 8 * 8;
        let mut times: PhaseTimes = Default::default();
        let cpu_before = process_cpu_seconds();
        for _ in 0..ticks {
            let mut last = Instant::now();
            simulation.step_observed(DT, |phase| {
                let now = Instant::now();
                let index = TickPhase::ALL.iter().position(|&p| p == phase);
                if let Some(list) = index.and_then(|i| times.get_mut(i)) {
                    list.push((now - last).as_secs_f64());
                }
                last = now;
            });
            if let Some(reads) = reads.as_deref_mut() {
                let start = Instant::now();
                std::hint::black_box(simulation.vehicles().first());
                reads.push(start.elapsed().as_secs_f64());
            }
        }
        let cpu = process_cpu_seconds()
            .zip(cpu_before)
            .map(|(after, before)| (after - before) / ticks as f64);
        (times, cpu)
    })
}

/// Ticks in each turn of [`cut_finer`]: whole re-sort intervals, so each turn re-sorts once.
const TURN_TICKS: usize = 8;

/// What cutting a tick's work for `cut` threads costs `threads` warm workers, against cutting
/// it for themselves: two simulations of `workload` with `agents` agents on two pools of
/// `threads`, stepped in turns of [`TURN_TICKS`] ticks, one cut for the pool, the other for
/// `cut` threads (`graph_runtime::split_work_as_for`), each first in every other round, so
/// that both see the same load of the machine's other tenants. Per round (a turn of each), the CPU time a tick of the finer cut
/// over the pool's own cut, and the same for the wall time; returns both, one per round.
fn cut_finer(
    workload: Workload,
    agents: usize,
    threads: usize,
    cut: usize,
) -> (Vec<f64>, Vec<f64>) {
    let sides = [(pool_of(threads), None), (pool_of(threads), Some(cut))];
    let mut simulations: Vec<_> = (sides.iter())
        .map(|(pool, cut)| {
            graph_runtime::split_work_as_for(*cut);
            pool.install(|| {
                let mut simulation = workload.simulation(agents);
                for _ in 0..WARM_UP_TICKS {
                    simulation.step(DT);
                }
                simulation
            })
        })
        .collect();
    let rounds = (AGENT_TICKS / agents / TURN_TICKS / 2).clamp(16, 200);
    let (mut cpu_ratios, mut wall_ratios) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let mut turn = [(0.0, 0.0); 2];
        let mut order: Vec<_> = sides
            .iter()
            .zip(simulations.iter_mut().zip(&mut turn))
            .collect();
        // Each side goes first in every other round.
        if round % 2 == 1 {
            order.reverse();
        }
        for ((pool, cut), (simulation, took)) in order {
            graph_runtime::split_work_as_for(*cut);
            let cpu_before = process_cpu_seconds();
            let start = Instant::now();
            pool.install(|| {
                for _ in 0..TURN_TICKS {
                    simulation.step(DT);
                }
            });
            let wall = start.elapsed().as_secs_f64();
            let cpu = process_cpu_seconds()
                .zip(cpu_before)
                .map_or(f64::NAN, |(after, before)| after - before);
            *took = (cpu, wall);
        }
        let [(own_cpu, own_wall), (finer_cpu, finer_wall)] = turn;
        cpu_ratios.push(finer_cpu / own_cpu);
        wall_ratios.push(finer_wall / own_wall);
    }
    graph_runtime::split_work_as_for(None);
    (cpu_ratios, wall_ratios)
}

/// The median of `values` (NaN for none), and their least and greatest.
fn median_and_range(values: &mut [f64]) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let at = |i: usize| values.get(i).copied().unwrap_or(f64::NAN);
    let n = values.len();
    let median = if n % 2 == 1 {
        at(n / 2)
    } else {
        0.5 * (at(n / 2 - 1) + at(n / 2))
    };
    (median, at(0), at(n.wrapping_sub(1)))
}

/// The mean of `values`: a phase run every few ticks (the re-sort) counts in full.
fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn main() {
    let only = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let list = |name: &str, default: &[usize]| {
        only(name).map_or(default.to_vec(), |v| {
            v.split(',').filter_map(|n| n.trim().parse().ok()).collect()
        })
    };
    let counts = list("STEERGRAPH_BENCH_AGENTS", &AGENT_COUNTS);
    let thread_counts = list("STEERGRAPH_BENCH_THREADS", &[1, 2]);
    // Each count of threads above 1 and below this one also runs [`cut_finer`].
    let cut_for = only("STEERGRAPH_BENCH_CUT_FOR").and_then(|v| v.trim().parse::<usize>().ok());
    let workload_filter = only("STEERGRAPH_BENCH_WORKLOAD");
    let read = std::env::var_os("STEERGRAPH_BENCH_READ").is_some();
    for workload in [Workload::Flock, Workload::Boids] {
        if workload_filter
            .as_ref()
            .is_some_and(|w| !format!("{workload:?}").eq_ignore_ascii_case(w))
        {
            continue;
        }
        for &agents in &counts {
            println!(
                "\n{workload:?}, {agents} agents: mean ms per tick of each phase (share of the tick)"
            );
            let mut single: Option<Vec<f64>> = None;
            let mut two_cpu: Option<f64> = None;
            for &threads in &thread_counts {
                let mut reads = Vec::new();
                let (times, cpu) = measure(workload, agents, threads, read.then_some(&mut reads));
                let means: Vec<f64> = times.iter().map(|t| mean(t)).collect();
                let tick: f64 = means.iter().sum();
                let outside: f64 = (TickPhase::ALL.iter().zip(&means))
                    .filter(|(phase, _)| **phase != TickPhase::Steer)
                    .map(|(_, ms)| ms)
                    .sum();
                let cells: Vec<String> = (TickPhase::ALL.iter().zip(&means))
                    .map(|(phase, seconds)| {
                        let speedup = single
                            .as_ref()
                            .zip(TickPhase::ALL.iter().position(|p| p == phase))
                            .and_then(|(one, i)| one.get(i))
                            .map_or(String::new(), |one| {
                                format!(", {:.2}x", one / seconds.max(f64::MIN_POSITIVE))
                            });
                        format!(
                            "{phase:?} {:.4} ({:.1} %{speedup})",
                            seconds * 1e3,
                            100.0 * seconds / tick
                        )
                    })
                    .collect();
                // The CPU time a tick takes, and on more than 2 workers its excess over 2
                // workers' (the measure of what a finer split costs).
                let cpu_text = cpu.map_or(String::new(), |cpu| {
                    let over_two = two_cpu
                        .filter(|_| threads > 2)
                        .map_or(String::new(), |two| {
                            format!(", {:+.1} % over 2 workers'", 100.0 * (cpu / two - 1.0))
                        });
                    format!("; CPU {:.4} ms a tick{over_two}", cpu * 1e3)
                });
                let read_text = if read {
                    format!("; then the read back {:.4} ms", mean(&reads) * 1e3)
                } else {
                    String::new()
                };
                // Every tick stepped, warm-up included (`scripts/serial_share.sh` divides its
                // samples by them).
                let stepped = times.first().map_or(0, Vec::len) + WARM_UP_TICKS;
                println!(
                    "{threads} thread(s): tick {:.4} ms{cpu_text}{read_text}; {stepped} ticks stepped; outside Steer {:.4} ms = {:.1} %; {}",
                    tick * 1e3,
                    outside * 1e3,
                    100.0 * outside / tick,
                    cells.join(", ")
                );
                if threads == 2 {
                    two_cpu = cpu;
                }
                if let Some(cut) = cut_for.filter(|&cut| threads > 1 && cut > threads) {
                    let (mut cpu, mut wall) = cut_finer(workload, agents, threads, cut);
                    let rounds = cpu.len();
                    let percent = |(median, low, high): (f64, f64, f64)| {
                        let p = |ratio: f64| 100.0 * (ratio - 1.0);
                        format!("{:+.1} % ({:+.1} to {:+.1})", p(median), p(low), p(high))
                    };
                    println!(
                        "{threads} thread(s), cut for {cut} against cut for {threads}, {rounds} rounds of {TURN_TICKS} ticks each in turn: CPU a tick {}, tick {} (medians of the rounds' ratios)",
                        percent(median_and_range(&mut cpu)),
                        percent(median_and_range(&mut wall)),
                    );
                }
                if threads == 1 {
                    single = Some(means);
                }
            }
        }
    }
}
