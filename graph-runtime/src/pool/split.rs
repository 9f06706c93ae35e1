//! The thread count a tick's parallel work is cut for (issue 47).
//!
//! The steering's tasks ([`crate::tick::steer_chunk_for`]) and the grid's parts and locating
//! tasks are sized for the current pool's threads. A benchmark may ask for the cut of a larger
//! pool on a smaller one ([`split_work_as_for`]): what cutting a tick for 16 threads costs can
//! then be measured on 2 cores with 2 warm workers, apart from what 16 threads sharing 2
//! cores cost in wake-ups. How the work is cut never changes a result (each task writes only
//! its own agents; the grid is the same for any number of parts).

use std::sync::atomic::{AtomicUsize, Ordering};

/// The thread count asked for by [`split_work_as_for`], 0 when none is.
static SPLIT_FOR: AtomicUsize = AtomicUsize::new(0);

/// The thread count to cut a tick's parallel work for: the current rayon pool's, unless a
/// benchmark asked for another ([`split_work_as_for`]).
pub(crate) fn split_threads() -> usize {
    match SPLIT_FOR.load(Ordering::Relaxed) {
        0 => rayon::current_num_threads(),
        threads => threads,
    }
}

/// Fewest items of a pass over `items` per parallel task (rayon's `with_min_len`) for passes
/// whose item costs some nanoseconds (copying a vehicle and its state, writing a slot): an
/// even share of the threads [`split_threads`] cuts for, no fewer than `least` and no more
/// than `most`. Rayon halves a pass while a half keeps at least the minimum (and its own
/// splitting allows), so with an even share a pass runs in the largest power of two no greater
/// than the threads (16 on 16, 2 on 2 or 3); `least` stops a small pass sooner, and where
/// `most` holds a large one's minimum down rayon may cut it finer. A fixed minimum of 4,096 ran
/// a re-sort of 10,000 agents in 2 tasks on any pool: on 16 threads, 14 of them waited it out.
pub(crate) fn items_per_task(items: usize, least: usize, most: usize) -> usize {
    items.div_ceil(split_threads().max(1)).min(most).max(least)
}

/// For benchmarks: cut every tick's parallel work (the steering's tasks, the neighbor grid's
/// parts) as for a pool of `threads` threads whatever pool runs it, in this whole process;
/// `None` (or 0) cuts it for the pool that runs it again. The threads that run the tasks, and
/// whether the pool is kept warm, do not change; neither does any result.
#[doc(hidden)]
pub fn split_work_as_for(threads: Option<usize>) {
    SPLIT_FOR.store(threads.unwrap_or(0), Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use rayon::prelude::*;

    use super::*;

    #[test]
    fn a_pass_is_cut_into_a_share_for_each_thread_within_bounds() {
        let on = |threads: usize, items: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            pool.install(|| {
                let least = items_per_task(items, 1_024, 4_096);
                // The tasks rayon runs the pass in: one fold per task.
                let tasks = (0..items)
                    .into_par_iter()
                    .with_min_len(least)
                    .fold(|| (), |(), _| ())
                    .count();
                (least, tasks)
            })
        };
        // 10,000 slots on 2 threads: 5,000 each, held to 4,096: halved once (2 × 5,000), as
        // before the minimum followed the threads. On 16: 625 each, raised to 1,024; halved
        // while a half keeps 1,024 (5,000, 2,500, 1,250): 8 tasks where 4,096 made 2.
        assert_eq!(on(2, 10_000), (4_096, 2));
        assert_eq!(on(16, 10_000), (1_024, 8));
        // 4 threads: 2,500 each, 4 tasks of 2,500. 100,000 on 16: 6,250 each, held to 4,096:
        // 16 tasks of 6,250 (3,125 would be fewer than 4,096), as before.
        assert_eq!(on(4, 10_000), (2_500, 4));
        assert_eq!(on(16, 100_000), (4_096, 16));
        // 32,768 on 16: 2,048 each, 16 tasks of 2,048 (4,096 made 8).
        assert_eq!(on(16, 32_768), (2_048, 16));
        // One thread: 4,096 as before; rayon halves a pass once on a pool of one (its
        // splitter's count starts at the threads), both halves on the one thread.
        assert_eq!(on(1, 10_000), (4_096, 2));
    }

    #[test]
    fn the_cut_follows_the_pool_unless_asked_for() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .expect("a thread pool");
        // Other tests in this process may run while this one asks: they cut their work
        // differently, which changes none of their results.
        pool.install(|| {
            split_work_as_for(Some(16));
            let asked = split_threads();
            split_work_as_for(None);
            assert_eq!(asked, 16);
            assert_eq!(split_threads(), 3);
        });
    }
}
