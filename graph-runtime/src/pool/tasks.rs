//! A parallel pass over a tick's tasks whose threads wait for its last task awake (issue 47).
//!
//! A rayon parallel iterator splits its tasks in halves (`join`), and a thread whose half is
//! done while another thread still runs the other waits like an idle worker: a few dozen
//! yields, then sleep. At 10,000 flockers on 2 threads the steering's calling thread
//! finished its share first in about 4 ticks of 10, and in 1 tick of 4 or 5 the pass ended 10
//! to over 100 µs after its last task (a sleeping thread on a halted virtual CPU wakes
//! slowly): 8 to 14 µs a tick on average, 1–2 % of the 2-thread tick
//! (`docs/benchmarks-history.md`, "The steering pass in bands").
//!
//! Here the tasks are dealt in contiguous bands, one per thread of the pool, the same band
//! to the same thread every tick (counted from the thread running the tick), so that a
//! thread steers the agents whose state it wrote last tick, as rayon's halves mostly did
//! (a shared queue that handed tasks to whichever thread was free made the fastest
//! 2-thread ticks 9 % slower). A thread runs its band from the front, then takes from the
//! back of the band with the most left, and once none is left spins until the last task
//! taken is done: no thread sleeps between the tasks' end and the pass's.
//!
//! Only on a warm pool ([`Warm`]: each of the pool's threads has a core of its own), from a
//! thread of the pool; elsewhere (a pool with more threads than cores, where a spinning
//! thread would take a core from one with work; a tick from outside the pool) the tasks run
//! as a rayon parallel iterator. Which thread runs which task never changes a result: each
//! task writes only its own agents, and the results are folded by an operation whose result
//! depends neither on their grouping nor on their order (sums of whole numbers, minima,
//! maxima).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::iter::plumbing::{Producer, ProducerCallback};
use rayon::prelude::*;

use super::Warm;

/// Most bands a pass deals; a pool with more threads gives the rest none, and they take from
/// the others' bands.
const MOST_BANDS: usize = 16;

/// How many times a thread out of tasks looks at the count of tasks done between two looks for
/// the pool's work (`rayon::yield_now`, which tries to steal from the other threads' queues
/// while they work). With one look at each: the grid's count and scatter in bands took 2 %
/// longer, the 10,000-flocker tick on 2 threads 0.8 % (25 rounds in turn, median of the
/// paired ratios, 2026-12-06); 8 or 128 looks measured no better than one.
const SPINS: usize = 32;

/// Runs `work` on every task of `tasks` on the current rayon pool and folds the results with
/// `join` from `empty` (see the module's documentation: the fold's result must depend
/// neither on grouping nor on order).
pub(crate) fn run_tasks<I, R>(
    warm: &Warm,
    tasks: I,
    work: impl Fn(I::Item) -> R + Sync + Send,
    (empty, join): (R, impl Fn(R, R) -> R + Sync + Send),
) -> R
where
    I: IndexedParallelIterator,
    R: Send + Sync + Copy,
{
    let threads = rayon::current_num_threads();
    let first = rayon::current_thread_index().filter(|_| warm.is_warm() && threads > 1);
    let Some(first) = first else {
        return tasks.map(work).reduce(|| empty, join);
    };
    let len = tasks.len();
    tasks.with_producer(Banded {
        first,
        threads,
        len,
        work: &work,
        fold: (empty, &join),
    })
}

/// The pass, given the tasks as a rayon producer (which splits them without copying).
struct Banded<'f, W, J, R> {
    /// The pool's thread running the tick: it takes band 0.
    first: usize,
    threads: usize,
    len: usize,
    work: &'f W,
    fold: (R, &'f J),
}

/// One band's tasks not taken yet, on cache lines of its own: two threads taking tasks from
/// neighboring bands would otherwise pass a line back and forth at every task.
#[repr(align(128))]
struct Band<P>(Mutex<Left<P>>);

/// A band's tasks not taken yet, and how many.
struct Left<P> {
    tasks: Option<P>,
    left: usize,
}

impl<T, R, W, J> ProducerCallback<T> for Banded<'_, W, J, R>
where
    W: Fn(T) -> R + Sync,
    J: Fn(R, R) -> R + Sync,
    R: Send + Sync + Copy,
{
    type Output = R;

    fn callback<P: Producer<Item = T>>(self, producer: P) -> R {
        let count = self.threads.min(self.len).clamp(1, MOST_BANDS);
        let mut bands: [Band<P>; MOST_BANDS] = std::array::from_fn(|_| {
            Band(Mutex::new(Left {
                tasks: None,
                left: 0,
            }))
        });
        let mut rest = Some(producer);
        let mut start = 0;
        for (b, band) in bands.iter_mut().take(count).enumerate() {
            let end = self.len * (b + 1) / count;
            let Some(tasks) = rest.take() else { break };
            let (mine, after) = tasks.split_at(end - start);
            if let Ok(band) = band.0.get_mut() {
                *band = Left {
                    tasks: Some(mine),
                    left: end - start,
                };
            }
            rest = Some(after);
            start = end;
        }
        let pass = Pass {
            bands: &bands[..count],
            done: AtomicUsize::new(0),
            failed: AtomicBool::new(false),
            len: self.len,
            first: self.first,
            threads: self.threads,
        };
        pass.join_all(self.threads, self.work, self.fold)
    }
}

/// What the threads of a pass share.
struct Pass<'b, P> {
    bands: &'b [Band<P>],
    /// Tasks done (or given up by a panic).
    done: AtomicUsize,
    /// Whether a thread's taking or a task panicked: the others stop waiting for the tasks
    /// left, and the pass passes the panic on.
    failed: AtomicBool,
    len: usize,
    first: usize,
    threads: usize,
}

impl<P: Producer> Pass<'_, P> {
    /// Runs `takers` takers ([`Pass::take_all`]), one on this thread and the rest offered to
    /// the pool's others (`rayon::join`, which allocates nothing), and folds their results.
    fn join_all<R, W, J>(&self, takers: usize, work: &W, (empty, join): (R, &J)) -> R
    where
        W: Fn(P::Item) -> R + Sync,
        J: Fn(R, R) -> R + Sync,
        R: Send + Sync + Copy,
    {
        if takers <= 1 {
            return self.take_all(work, (empty, join));
        }
        let half = takers / 2;
        let (left, right) = rayon::join(
            || self.join_all(takers - half, work, (empty, join)),
            || self.join_all(half, work, (empty, join)),
        );
        join(left, right)
    }

    /// Runs this thread's band from its front, then tasks from the back of the band with the
    /// most left, until none is left; then waits, spinning, until every task is done.
    fn take_all<R, W, J>(&self, work: &W, (empty, join): (R, &J)) -> R
    where
        W: Fn(P::Item) -> R + Sync,
        J: Fn(R, R) -> R + Sync,
        R: Copy,
    {
        let thread = rayon::current_thread_index().unwrap_or(self.first);
        let own = (thread + self.threads - self.first) % self.threads;
        let mut folded = empty;
        {
            // Told to the others once, when this thread has no task left (a shared count
            // for every task passed its cache line between the threads at each one).
            let mut finished = Finished {
                done: &self.done,
                failed: &self.failed,
                count: 0,
            };
            while let Some(task) = self.take(own) {
                // Counted before the work: a task that panics is given up, not waited for.
                finished.count += 1;
                folded = join(folded, work(task));
            }
        }
        let ended =
            || self.done.load(Ordering::Acquire) >= self.len || self.failed.load(Ordering::Acquire);
        while !ended() {
            if rayon::yield_now() == Some(rayon::Yield::Executed) {
                continue;
            }
            for _ in 0..SPINS {
                if ended() {
                    break;
                }
                std::hint::spin_loop();
            }
        }
        folded
    }

    /// The next task for the thread whose band is `own`: the front of its band, else the back
    /// of the band with the most left.
    fn take(&self, own: usize) -> Option<P::Item> {
        if let Some(task) = self.bands.get(own).and_then(|band| take_from(band, true)) {
            return Some(task);
        }
        loop {
            // A band whose lock a panic poisoned counts as empty (the pass is failing).
            let (fullest, left) = (self.bands.iter())
                .map(|band| (band, band.0.lock().map_or(0, |band| band.left)))
                .max_by_key(|&(_, left)| left)?;
            if left == 0 {
                return None;
            }
            // Another thread may take it first: then look again.
            if let Some(task) = take_from(fullest, false) {
                return Some(task);
            }
        }
    }
}

/// Takes one task from `band`'s front or back, if it has any left.
fn take_from<P: Producer>(band: &Band<P>, front: bool) -> Option<P::Item> {
    let mut band = band.0.lock().ok()?;
    let left = band.left;
    let Some(tasks) = band.tasks.take().filter(|_| left > 0) else {
        band.left = 0;
        return None;
    };
    let (one, rest) = if front {
        tasks.split_at(1)
    } else {
        let (rest, one) = tasks.split_at(left - 1);
        (one, rest)
    };
    band.tasks = Some(rest);
    band.left = left - 1;
    drop(band);
    one.into_iter().next()
}

/// The tasks a thread has run, added to the pass's count of tasks done when dropped: when
/// the thread has none left, or while a panic in one unwinds, which also tells the other
/// threads to stop waiting (a task left untaken would keep them spinning; the pass passes
/// the panic on).
struct Finished<'a> {
    done: &'a AtomicUsize,
    failed: &'a AtomicBool,
    count: usize,
}

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.failed.store(true, Ordering::Release);
        }
        self.done.fetch_add(self.count, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU32;

    use super::*;
    use crate::pool::warm::tests::eventually;

    /// A pool of `threads` threads, and a warm pool's keeper for a tick of many tasks on it.
    fn on_pool<T: Send>(threads: usize, run: impl FnOnce(&Warm) -> T + Send) -> T {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        pool.install(|| run(&Warm::for_tasks_of(1_000_000, 1)))
    }

    #[test]
    fn every_task_runs_once_and_the_results_fold_alike_on_any_pool() {
        // 0 to 100 tasks (fewer tasks than threads, one, none) on pools of 1 to 5 threads,
        // warm where the machine has the cores: task k gives k + 1, so the sum is n(n+1)/2.
        for threads in 1..=5 {
            for tasks in [0_usize, 1, 2, 3, 7, 64, 100] {
                let runs: Vec<AtomicU32> = (0..tasks).map(|_| AtomicU32::new(0)).collect();
                let sum = on_pool(threads, |warm| {
                    let each = |k: usize| {
                        runs[k].fetch_add(1, Ordering::Relaxed);
                        k as u64 + 1
                    };
                    run_tasks(warm, (0..tasks).into_par_iter(), each, (0, |a, b| a + b))
                });
                assert_eq!(
                    sum,
                    (tasks * (tasks + 1) / 2) as u64,
                    "{tasks} tasks, {threads} threads"
                );
                assert!(runs.iter().all(|runs| runs.load(Ordering::Relaxed) == 1));
            }
        }
    }

    #[test]
    fn each_thread_starts_at_the_front_of_its_own_band() {
        // 64 tasks on a warm pool of 2: the thread running the tick starts at task 0, the
        // other at task 32 (the front of the second band). Task 0 waits until another task
        // has begun, so the other thread takes one before the first thread can have taken
        // its whole band.
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        if cores < 2 {
            eprintln!("one core: no pool of 2 is warm here");
            return;
        }
        let first_of = on_pool(2, |warm| {
            assert!(warm.is_warm());
            let started = AtomicUsize::new(0);
            let caller = rayon::current_thread_index();
            // The first task each thread ran, by thread (the caller's first).
            let firsts = [AtomicUsize::new(usize::MAX), AtomicUsize::new(usize::MAX)];
            let each = |k: usize| {
                let thread = rayon::current_thread_index();
                let slot = usize::from(thread != caller);
                let _ = firsts[slot].compare_exchange(
                    usize::MAX,
                    k,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
                started.fetch_add(1, Ordering::Relaxed);
                if k == 0 {
                    assert!(eventually(|| started.load(Ordering::Relaxed) >= 2));
                }
            };
            run_tasks(warm, (0..64_usize).into_par_iter(), each, ((), |(), ()| ()));
            firsts.map(|first| first.load(Ordering::Relaxed))
        });
        assert_eq!(first_of, [0, 32]);
    }

    #[test]
    fn a_panic_in_a_task_reaches_the_caller_and_no_thread_waits_for_it() {
        for threads in [1, 2, 3] {
            let caught = on_pool(threads, |warm| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let each = |k: usize| assert!(k != 40, "task 40 fails");
                    run_tasks(warm, (0..64_usize).into_par_iter(), each, ((), |(), ()| ()));
                }))
            });
            assert!(caught.is_err(), "{threads} threads");
        }
    }
}
