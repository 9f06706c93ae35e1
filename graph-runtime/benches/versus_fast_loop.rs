//! The compiled graph (`Simulation::step`) against the fastest hand-written loop we could write
//! (`fast_loop.rs`), alternating one tick of each in one process so both see the same machine
//! load. Prints, per workload, agent count and thread count, the minimum and median tick of
//! each, the median of 8-tick means (which counts in full the work the simulation does once
//! every 8 ticks, its re-sort), and their ratios; then the slope of log(time) against
//! log(agents) and the speedup of each thread count over one, of the 8-tick means and of the
//! minimums (on a shared machine the minimum is what a quiet core gives, the others move with
//! the neighbors' load).
//!
//! Run with `cargo bench -p graph-runtime --bench versus_fast_loop`. Environment variables
//! narrow it: `STEERGRAPH_BENCH_AGENTS` (agent counts, comma-separated),
//! `STEERGRAPH_BENCH_WORKLOAD` (`flock` or `boids`), `STEERGRAPH_BENCH_THREADS` (thread
//! counts, comma-separated, `1,2` by default: `1,2,4,8,16` on a bigger machine, issue 47),
//! `STEERGRAPH_BENCH_TICKS` (measured ticks per evaluator, for a profiler),
//! `STEERGRAPH_BENCH_ONLY` (`graph` or `fast`: tick only that one, for a profiler),
//! `STEERGRAPH_BENCH_READ` (set: each graph tick includes reading the vehicles back in agent
//! order, as a game that reads them every frame pays), `STEERGRAPH_BENCH_GAP_US` (before each
//! tick of either, the calling thread stays busy this many microseconds, untimed, while the
//! pool's other threads have nothing to do, as a game that ticks once a frame leaves them: they
//! go to sleep, and each tick pays for waking them).

#[path = "fast_loop.rs"]
mod fast_loop;

use std::time::{Duration, Instant};

use fast_loop::{DT, FastFlock, Workload};

/// Agent counts of the scaling table.
const AGENT_COUNTS: [usize; 5] = [1_000, 4_000, 16_000, 64_000, 256_000];
/// Ticks before measuring, for the flock to form and the buffers to warm.
const WARM_UP_TICKS: usize = 20;
/// About this many agent-ticks are measured per evaluator and configuration.
const AGENT_TICKS: usize = 4_000_000;

/// One configuration's result (seconds per tick).
struct Row {
    graph_min: f64,
    graph_median: f64,
    fast_min: f64,
    fast_median: f64,
    /// The median over runs of [`WINDOW`] consecutive ticks of their mean tick: work done
    /// once every few ticks (the simulation re-sorts its agents every 8) counts in full.
    graph_window: f64,
    fast_window: f64,
}

/// Consecutive ticks whose mean is one sample of [`Row::graph_window`]; a multiple of the
/// simulation's re-sort interval.
const WINDOW: usize = 8;

/// The median over non-overlapping runs of `WINDOW` ticks (in the order measured) of their
/// mean.
fn window_median(times: &[Duration]) -> f64 {
    let mut means: Vec<f64> = times
        .chunks_exact(WINDOW)
        .map(|run| run.iter().map(Duration::as_secs_f64).sum::<f64>() / WINDOW as f64)
        .collect();
    if means.is_empty() {
        return f64::NAN;
    }
    means.sort_unstable_by(f64::total_cmp);
    means[means.len() / 2]
}

fn measure(workload: Workload, agents: usize, threads: usize, ticks: Option<usize>) -> Row {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let mut simulation = workload.simulation(agents);
        let mut fast = FastFlock::new(workload, &simulation);
        for _ in 0..WARM_UP_TICKS {
            simulation.step(DT);
            fast.tick();
        }
        // An honest baseline moves the agents as the graph does (`tests/fast_loop.rs` holds
        // it to 1e-3 units after 30 ticks); a baseline that drifted would time other work.
        let gap = simulation
            .vehicles()
            .iter()
            .zip(fast.positions())
            .map(|(vehicle, position)| vehicle.position.distance(position))
            .fold(0.0, f32::max);
        assert!(
            gap < 1e-3,
            "{workload:?}: the fast loop left the graph's motion by {gap} units"
        );
        let ticks = ticks.unwrap_or((AGENT_TICKS / agents).clamp(3 * WINDOW, 3_000));
        let only = std::env::var("STEERGRAPH_BENCH_ONLY").unwrap_or_default();
        // A game reads its agents every frame: with this set, each graph tick includes the
        // first read of `Simulation::vehicles` after it (agent order written back).
        let read = std::env::var_os("STEERGRAPH_BENCH_READ").is_some();
        let mut graph_tick = || {
            simulation.step(DT);
            if read {
                std::hint::black_box(simulation.vehicles().first());
            }
        };
        let (run_graph, run_fast) = (only != "fast", only != "graph");
        let gap = std::env::var("STEERGRAPH_BENCH_GAP_US")
            .ok()
            .and_then(|micros| micros.parse().ok())
            .map(Duration::from_micros);
        let mut graph_times = Vec::with_capacity(ticks);
        let mut fast_times = Vec::with_capacity(ticks);
        let time = |run: bool, tick: &mut dyn FnMut()| {
            if let Some(gap) = gap.filter(|_| run) {
                // The game's own work on its main thread, arithmetic (a wait on `spin_loop`'s
                // pause instruction is what a hypervisor takes for a spinning lock); the pool
                // idles.
                let (busy, mut work) = (Instant::now(), 1_u64);
                while busy.elapsed() < gap {
                    for _ in 0..100 {
                        work = std::hint::black_box(
                            work.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1),
                        );
                    }
                }
            }
            let start = Instant::now();
            if run {
                tick();
            }
            start.elapsed()
        };
        for round in 0..ticks {
            // Alternate which goes first, so neither always follows the other's cache state.
            if round % 2 == 0 {
                graph_times.push(time(run_graph, &mut graph_tick));
                fast_times.push(time(run_fast, &mut || fast.tick()));
            } else {
                fast_times.push(time(run_fast, &mut || fast.tick()));
                graph_times.push(time(run_graph, &mut graph_tick));
            }
        }
        let (graph_window, fast_window) = (window_median(&graph_times), window_median(&fast_times));
        graph_times.sort_unstable();
        fast_times.sort_unstable();
        let median = |times: &[Duration]| times[times.len() / 2].as_secs_f64();
        Row {
            graph_min: graph_times[0].as_secs_f64(),
            graph_median: median(&graph_times),
            fast_min: fast_times[0].as_secs_f64(),
            fast_median: median(&fast_times),
            graph_window,
            fast_window,
        }
    })
}

/// Least-squares slope of `ln(y)` against `ln(x)`, over `(x, y, _)`.
fn slope(points: &[(f64, f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (lx, ly): (Vec<f64>, Vec<f64>) = points.iter().map(|&(x, y, _)| (x.ln(), y.ln())).unzip();
    let (mx, my) = (lx.iter().sum::<f64>() / n, ly.iter().sum::<f64>() / n);
    let covariance: f64 = lx.iter().zip(&ly).map(|(x, y)| (x - mx) * (y - my)).sum();
    let variance: f64 = lx.iter().map(|x| (x - mx) * (x - mx)).sum();
    covariance / variance
}

/// One agent count's figures on one thread count: (agents, 8-tick mean, minimum).
type Point = (f64, f64, f64);

fn main() {
    let only = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let counts: Vec<usize> = only("STEERGRAPH_BENCH_AGENTS").map_or(AGENT_COUNTS.to_vec(), |v| {
        v.split(',').filter_map(|n| n.trim().parse().ok()).collect()
    });
    let ticks = only("STEERGRAPH_BENCH_TICKS").and_then(|v| v.parse().ok());
    let workload_filter = only("STEERGRAPH_BENCH_WORKLOAD");
    let thread_counts: Vec<usize> = only("STEERGRAPH_BENCH_THREADS").map_or(vec![1, 2], |v| {
        v.split(',').filter_map(|n| n.trim().parse().ok()).collect()
    });
    let ms = |seconds: f64| seconds * 1e3;
    for workload in [Workload::Flock, Workload::Boids] {
        if workload_filter
            .as_ref()
            .is_some_and(|w| !format!("{workload:?}").eq_ignore_ascii_case(w))
        {
            continue;
        }
        println!(
            "\n{workload:?}: ms per tick, min (median) [median of {WINDOW}-tick means]; \
             ratio of minimums (of medians) [of {WINDOW}-tick means]"
        );
        println!("| agents | threads | compiled graph | fast loop | ratio | agent-ticks/s |");
        println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
        // Per thread count, its points.
        let mut by_threads: Vec<(usize, Vec<Point>)> =
            thread_counts.iter().map(|&t| (t, Vec::new())).collect();
        for &agents in &counts {
            for (threads, points) in &mut by_threads {
                let threads = *threads;
                let row = measure(workload, agents, threads, ticks);
                println!(
                    "| {agents} | {threads} | {:.3} ({:.3}) [{:.3}] | {:.3} ({:.3}) [{:.3}] | \
                     {:.2}x ({:.2}x) [{:.2}x] | {:.2} M |",
                    ms(row.graph_min),
                    ms(row.graph_median),
                    ms(row.graph_window),
                    ms(row.fast_min),
                    ms(row.fast_median),
                    ms(row.fast_window),
                    row.graph_min / row.fast_min,
                    row.graph_median / row.fast_median,
                    row.graph_window / row.fast_window,
                    agents as f64 / row.graph_window / 1e6,
                );
                points.push((agents as f64, row.graph_window, row.graph_min));
            }
        }
        for (threads, points) in &by_threads {
            if points.len() > 1 {
                println!(
                    "slope of ln(time) against ln(agents), compiled graph, {threads} thread(s): {:.3}",
                    slope(points)
                );
            }
        }
        let one = by_threads.iter().find(|(t, _)| *t == 1).map(|(_, p)| p);
        for (threads, points) in by_threads.iter().filter(|(t, _)| *t > 1) {
            for (single, many) in one.into_iter().flatten().zip(points) {
                println!(
                    "{threads}-thread speedup at {} agents: {:.2}x ({WINDOW}-tick means), {:.2}x (minimums)",
                    single.0,
                    single.1 / many.1,
                    single.2 / many.2
                );
            }
        }
    }
}
