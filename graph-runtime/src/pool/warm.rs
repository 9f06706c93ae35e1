//! Keeps the pool's other threads taking work for the length of a tick (issue 47).
//!
//! A tick is a few parallel passes (the steering, the grid's three, the re-sort's) with a
//! little serial work between them. A rayon worker that finds no work yields a few dozen
//! times and then sleeps, and waking it costs 9–16 µs on this project's machines
//! (`benches/handover.rs`): a worker that finished its share of one pass a little early, or
//! waited out a few microseconds of serial work, came late to the next, and the pass ran
//! mostly on the calling thread. OpenMP's threads spin at the end of a parallel region for
//! the same reason. [`Warm`] sends each of the pool's other threads a job that takes the
//! pool's work as it comes ([`rayon::yield_now`]) until the tick ends, or until it has found
//! none for [`IDLE_MOST`]: a worker between two of the tick's passes is awake when the next
//! begins (`docs/benchmarks-history.md`, "A warm pool": the 10,000-flocker tick on 2 threads 2-3 %
//! faster, the 1,000-flocker tick 10-15 %, RVO2's Blocks 4 %).
//!
//! Only where each of the pool's threads has a core of its own (no more threads than
//! [`std::thread::available_parallelism`]): on a pool with more threads than cores a thread
//! that keeps looking takes a core from one with work. Which thread runs which task never
//! changes a result, so this changes only when the work is done. A warm tick allocates two
//! small blocks on the ticking thread (the flags the threads share, the job that sends the
//! broadcast) and rayon's broadcast job on the thread that sends it: the tick's only
//! allocations on several threads (`tests/no_alloc.rs`); one thread allocates nothing.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// A thread that has found no work for this long leaves (rayon puts it to sleep as usual):
/// a tick whose serial stretch is longer than this pays for one wake-up, not for a core
/// held the whole stretch.
const IDLE_MOST: Duration = Duration::from_micros(200);

/// The cores this process may run on.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
}

/// While alive, the current pool's other threads take its work as it comes instead of
/// sleeping (see the module's documentation); dropped at the tick's end, they leave.
#[must_use = "the pool stays warm only while this is alive"]
pub(crate) struct Warm {
    shared: Option<Arc<Shared>>,
}

/// What the tick and the pool's threads share: whether the tick has ended, and how many
/// threads are taking work for it now and have in all (for the tests).
#[derive(Default)]
struct Shared {
    ended: AtomicBool,
    inside: AtomicUsize,
    entered: AtomicUsize,
}

impl Warm {
    /// Keeps the current pool warm for a tick of `agents` agents whose steering runs in
    /// tasks of `chunk` agents ([`crate::tick::steer_chunk_for`], worked out once a tick by the
    /// driver, which splits its steering by it), if that is more than one task and every
    /// thread of the pool has a core. A tick steered in one task (up to 128 flockers, 24
    /// Reciprocal agents) has no parallel pass at all (the grid's start at 8,192 agents):
    /// waking the pool's threads for it (a system call each) would cost more than it saves.
    pub(crate) fn for_tasks_of(agents: usize, chunk: usize) -> Self {
        let threads = rayon::current_num_threads();
        if chunk >= agents || threads <= 1 || threads > cores() {
            return Self::cold();
        }
        let shared = Arc::new(Shared::default());
        let theirs = Arc::clone(&shared);
        // The thread running the tick does its own work: a thread of the pool runs its copy
        // of the job only while it waits on a pass, and leaves it at once. A tick run from
        // outside the pool (the editor's preview, from its window's thread) leaves the pool's
        // first thread cold instead, so that the threads looking for work and the thread
        // ticking never outnumber the pool's threads, nor the cores.
        let cold = rayon::current_thread_index().unwrap_or(0);
        // One thread is woken here and sends the job to every thread: rayon wakes each
        // sleeping thread of a broadcast in turn, one system call each, so the thread that
        // sends it spends that long before the tick's first pass (a 16-thread pool asleep:
        // 26-39 µs of the sender's CPU time against 5.6-8.9 µs for one wake, 2026-12-07 on
        // the 2-core AMD machine, `benches/handover.rs`); on a machine with many cores the
        // ticking thread starts the first pass while the woken one wakes the rest.
        rayon::spawn(move || {
            rayon::spawn_broadcast(move |context| {
                if context.index() != cold {
                    theirs.keep_taking_work();
                }
            });
        });
        Self {
            shared: Some(shared),
        }
    }

    /// Not keeping the pool warm: passes run as rayon's parallel iterators (a grid rebuilt
    /// outside a tick).
    pub(crate) fn cold() -> Self {
        Self { shared: None }
    }

    /// Whether the pool's other threads are kept taking work (see [`Warm::for_tasks_of`]).
    pub(crate) fn is_warm(&self) -> bool {
        self.shared.is_some()
    }
}

impl Drop for Warm {
    fn drop(&mut self) {
        if let Some(shared) = &self.shared {
            shared.ended.store(true, Ordering::Release);
        }
    }
}

impl Shared {
    /// Runs the pool's jobs as they come until the tick ends, or until none has come for
    /// [`IDLE_MOST`]; between looks, yields the core to any other thread that wants it.
    fn keep_taking_work(&self) {
        self.entered.fetch_add(1, Ordering::Relaxed);
        self.inside.fetch_add(1, Ordering::Relaxed);
        let mut idle_since = Instant::now();
        while !self.ended.load(Ordering::Acquire) {
            match rayon::yield_now() {
                Some(rayon::Yield::Executed) => idle_since = Instant::now(),
                Some(rayon::Yield::Idle) if idle_since.elapsed() < IDLE_MOST => {
                    std::thread::yield_now();
                }
                _ => break,
            }
        }
        self.inside.fetch_sub(1, Ordering::Release);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Waits (up to a minute, for a loaded machine) until `done`.
    pub(in crate::pool) fn eventually(done: impl Fn() -> bool) -> bool {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !done() {
            if Instant::now() > deadline {
                return false;
            }
            std::thread::yield_now();
        }
        true
    }

    /// Asserts that `others` threads take `warm`'s job, and that each leaves it once the tick
    /// has ended (`warm` dropped).
    fn taken_by_then_left(warm: Warm, others: usize) {
        let shared = Arc::clone(warm.shared.as_ref().expect("a warm pool"));
        assert!(eventually(
            || shared.entered.load(Ordering::Relaxed) == others
        ));
        drop(warm);
        assert!(eventually(|| shared.inside.load(Ordering::Acquire) == 0));
        assert_eq!(shared.entered.load(Ordering::Relaxed), others);
    }

    #[test]
    fn every_other_thread_of_the_pool_takes_work_until_the_tick_ends() {
        let threads = cores().min(4);
        if threads < 2 {
            eprintln!("one core: a pool of one thread has no other thread to keep warm");
            return;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        pool.install(|| {
            let warm = Warm::for_tasks_of(10_000, 100);
            // A pass of the tick: one task a thread, each of which waits until every task has
            // started, so it ends only if every thread of the pool takes one.
            let started = AtomicUsize::new(0);
            rayon::broadcast(|_| {
                started.fetch_add(1, Ordering::Relaxed);
                assert!(eventually(|| started.load(Ordering::Relaxed) == threads));
            });
            // The ticking thread left the job at once.
            taken_by_then_left(warm, threads - 1);
        });
    }

    #[test]
    fn a_tick_from_outside_the_pool_leaves_one_thread_cold() {
        // The global pool, as the editor's preview ticks from its window's thread.
        let threads = rayon::current_num_threads();
        let warm = Warm::for_tasks_of(10_000, 100);
        if warm.shared.is_none() {
            assert!(threads <= 1 || threads > cores());
            return;
        }
        taken_by_then_left(warm, threads - 1);
    }

    #[test]
    fn ticks_in_one_task_one_thread_and_pools_wider_than_the_machine_stay_cold() {
        let pool = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool")
        };
        let cold = |threads, agents, chunk| {
            pool(threads).install(|| Warm::for_tasks_of(agents, chunk).shared.is_none())
        };
        assert!(cold(1, 1_000_000, 100));
        assert!(cold(cores() + 1, 1_000_000, 100));
        // A tick steered in one task.
        assert!(cold(2, 100, 128));
        assert!(cold(2, 128, 128));
        assert_eq!(cold(2, 129, 128), cores() < 2);
    }
}
