//! The compiled graph (`Simulation::step`) against the fastest hand-written loop we could write
//! (`fast_loop.rs`), alternating one tick of each in one process so both see the same machine
//! load. Every thread count has its pool and its own copy of both, and the counts take turns
//! of 8 ticks of each, round after round, so that a speedup over one thread compares ticks
//! measured moments apart (measured one count after the other, a change in the neighbors' load
//! between the two moved the 10,000-flocker speedup on 2 threads from 1.5x to 2.3x between runs
//! minutes apart). Prints, per workload, agent count and thread count, the minimum and median
//! tick of each, the median of 8-tick means (which counts in full the work the simulation does
//! once every 8 ticks, its re-sort), and their ratios; then the slope of log(time) against
//! log(agents) and the speedup of each thread count over one: the median over rounds of the
//! two counts' 8-tick means in that round, then the ratios of the 8-tick means' medians and of
//! the minimums (on a shared machine the minimum is what a quiet core gives, the others move
//! with the neighbors' load), and the fast loop's.
//!
//! Run with `cargo bench -p graph-runtime --bench versus_fast_loop`. Environment variables
//! narrow it: `STEERGRAPH_BENCH_AGENTS` (agent counts, comma-separated),
//! `STEERGRAPH_BENCH_WORKLOAD` (`flock` or `boids`), `STEERGRAPH_BENCH_THREADS` (thread
//! counts, comma-separated, `1,2` by default: `1,2,4,8,16` on a bigger machine, issue 47),
//! `STEERGRAPH_BENCH_TICKS` (measured ticks per evaluator, for a profiler; whole turns of 8),
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
use graph_runtime::Simulation;

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

/// Untimed ticks of each evaluator at the start of each turn: a pool's threads slept through
/// the other thread counts' turns, and a virtual CPU left idle runs the next ticks slower (on
/// the project's 2-core machine, after one untimed tick the first measured 2-thread tick of a
/// turn was still 6 % slower than the turn's later ones, 2026-12-06; after three, no slower).
/// A game ticking back to back keeps them awake; one ticking once a frame does not, and
/// `STEERGRAPH_BENCH_GAP_US` measures that.
const LEAD_IN: usize = 3;

/// Consecutive ticks whose mean is one sample of [`Row::graph_window`]; a multiple of the
/// simulation's re-sort interval.
const WINDOW: usize = 8;

/// The mean tick of each non-overlapping run of [`WINDOW`] ticks (each a turn), in the order
/// measured.
fn window_means(times: &[Duration]) -> Vec<f64> {
    times
        .chunks_exact(WINDOW)
        .map(|run| run.iter().map(Duration::as_secs_f64).sum::<f64>() / WINDOW as f64)
        .collect()
}

/// The median of `values` (NaN when there are none).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_unstable_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// One thread count's evaluators: the compiled graph and the fast loop of one agent count, on
/// a pool of that many threads, and the ticks measured so far.
struct Contender {
    pool: rayon::ThreadPool,
    simulation: Simulation,
    fast: FastFlock,
    graph_times: Vec<Duration>,
    fast_times: Vec<Duration>,
}

/// What every turn shares: which evaluators tick, and the gap before each tick.
struct Ticking {
    graph: bool,
    fast: bool,
    /// Each graph tick includes the first read of `Simulation::vehicles` after it.
    read: bool,
    gap: Option<Duration>,
}

impl Ticking {
    fn from_env() -> Self {
        let only = std::env::var("STEERGRAPH_BENCH_ONLY").unwrap_or_default();
        Self {
            graph: only != "fast",
            fast: only != "graph",
            // A game reads its agents every frame: with this set, each graph tick includes
            // the first read of `Simulation::vehicles` after it (agent order written back).
            read: std::env::var_os("STEERGRAPH_BENCH_READ").is_some(),
            gap: std::env::var("STEERGRAPH_BENCH_GAP_US")
                .ok()
                .and_then(|micros| micros.parse().ok())
                .map(Duration::from_micros),
        }
    }

    /// The game's own work on its main thread before a tick, arithmetic (a wait on
    /// `spin_loop`'s pause instruction is what a hypervisor takes for a spinning lock); the
    /// pool idles.
    fn frame_gap(&self) {
        let Some(gap) = self.gap else { return };
        let (busy, mut work) = (Instant::now(), 1_u64);
        while busy.elapsed() < gap {
            for _ in 0..100 {
                work = std::hint::black_box(
                    work.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1),
                );
            }
        }
    }
}

impl Contender {
    /// `agents` agents of `workload` on a pool of `threads`, warmed up, the fast loop checked
    /// against the graph's motion.
    fn new(workload: Workload, agents: usize, threads: usize, ticks: usize) -> Self {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let (simulation, fast) = pool.install(|| {
            let mut simulation = workload.simulation(agents);
            let mut fast = FastFlock::new(workload, &simulation);
            for _ in 0..WARM_UP_TICKS {
                simulation.step(DT);
                fast.tick();
            }
            (simulation, fast)
        });
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
        Self {
            pool,
            simulation,
            fast,
            graph_times: Vec::with_capacity(ticks),
            fast_times: Vec::with_capacity(ticks),
        }
    }

    /// One turn: [`LEAD_IN`] untimed ticks of each, then [`WINDOW`] measured ticks of each,
    /// alternating which goes first so that neither always follows the other's cache state.
    fn turn(&mut self, ticking: &Ticking) {
        let Self {
            pool,
            simulation,
            fast,
            graph_times,
            fast_times,
        } = self;
        pool.install(|| {
            let mut graph_tick = || {
                simulation.step(DT);
                if ticking.read {
                    std::hint::black_box(simulation.vehicles().first());
                }
            };
            let time = |run: bool, tick: &mut dyn FnMut()| {
                if run {
                    ticking.frame_gap();
                }
                let start = Instant::now();
                if run {
                    tick();
                }
                start.elapsed()
            };
            for _ in 0..LEAD_IN {
                if ticking.graph {
                    graph_tick();
                }
                if ticking.fast {
                    fast.tick();
                }
            }
            for round in 0..WINDOW {
                if round % 2 == 0 {
                    graph_times.push(time(ticking.graph, &mut graph_tick));
                    fast_times.push(time(ticking.fast, &mut || fast.tick()));
                } else {
                    fast_times.push(time(ticking.fast, &mut || fast.tick()));
                    graph_times.push(time(ticking.graph, &mut graph_tick));
                }
            }
        });
    }

    /// This count's figures: each evaluator's fastest and median tick and its median turn.
    fn row(&self) -> Row {
        let seconds = |times: &[Duration]| times.iter().map(Duration::as_secs_f64).collect();
        let fastest =
            |times: &[Duration]| times.iter().min().map_or(f64::NAN, Duration::as_secs_f64);
        Row {
            graph_min: fastest(&self.graph_times),
            graph_median: median(seconds(&self.graph_times)),
            fast_min: fastest(&self.fast_times),
            fast_median: median(seconds(&self.fast_times)),
            graph_window: median(window_means(&self.graph_times)),
            fast_window: median(window_means(&self.fast_times)),
        }
    }
}

/// Measures `agents` agents of `workload` on every thread count of `thread_counts` in turn:
/// each count's pool ticks [`WINDOW`] ticks of each evaluator, then the next count's, round
/// after round, so that a change in the machine's load between rounds falls on every thread
/// count alike and a speedup compares ticks measured moments apart. Every pool ticks its own
/// simulation of the same agents, and the runtime's ticks are bit-identical on any thread
/// count, so each turn of every count times the same work. Returns the contenders, in the
/// order of `thread_counts`.
fn measure(
    workload: Workload,
    agents: usize,
    thread_counts: &[usize],
    ticks: Option<usize>,
) -> Vec<Contender> {
    let ticks = ticks.unwrap_or((AGENT_TICKS / agents).clamp(3 * WINDOW, 3_000));
    let turns = ticks.div_ceil(WINDOW);
    let ticking = Ticking::from_env();
    let mut contenders: Vec<Contender> = thread_counts
        .iter()
        .map(|&threads| Contender::new(workload, agents, threads, turns * WINDOW))
        .collect();
    for round in 0..turns {
        // Each round starts with the next count, so that none always follows the same one.
        let first = round % contenders.len();
        for index in (first..contenders.len()).chain(0..first) {
            contenders[index].turn(&ticking);
        }
    }
    contenders
}

/// The median over rounds of `single`'s mean graph tick in its turn over `many`'s in the same
/// round.
fn paired_speedup(single: &Contender, many: &Contender) -> f64 {
    let (one, other) = (
        window_means(&single.graph_times),
        window_means(&many.graph_times),
    );
    median(
        one.iter()
            .zip(other)
            .map(|(one, other)| one / other)
            .collect(),
    )
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
        let mut speedups = Vec::new();
        for &agents in &counts {
            let contenders = measure(workload, agents, &thread_counts, ticks);
            let rows: Vec<Row> = contenders.iter().map(Contender::row).collect();
            for ((threads, points), row) in by_threads.iter_mut().zip(&rows) {
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
            let single = thread_counts.iter().position(|&t| t == 1);
            for (many, &threads) in thread_counts.iter().enumerate().filter(|(_, t)| **t > 1) {
                let Some(single) = single else { break };
                let (one, other) = (&contenders[single], &contenders[many]);
                let (one_row, other_row) = (&rows[single], &rows[many]);
                speedups.push(format!(
                    "{threads}-thread speedup at {agents} agents: {:.2}x ({WINDOW}-tick means, \
                     the median over rounds of the two counts' turns in that round); \
                     {:.2}x (medians of {WINDOW}-tick means), {:.2}x (minimums); \
                     fast loop {:.2}x ({WINDOW}-tick means)",
                    paired_speedup(one, other),
                    one_row.graph_window / other_row.graph_window,
                    one_row.graph_min / other_row.graph_min,
                    one_row.fast_window / other_row.fast_window,
                ));
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
        for line in &speedups {
            println!("{line}");
        }
    }
}
