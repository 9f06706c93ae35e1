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
    use super::*;

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
