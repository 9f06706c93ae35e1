//! How a tick's steering is split into parallel tasks: by the work an agent's evaluation
//! costs and the threads there are (issue 47: `docs/benchmarks-history.md`, "Issue 47, the
//! rounds of 2026-12-02 to 2026-12-04"). Both drivers split alike
//! ([`crate::Simulation`] in slot order, [`crate::Crowd`] in the game's order); the split never
//! changes a result, as each agent's force reads only the state at the start of the tick.

use crate::compile::Program;
use crate::pool::split_threads;

/// A tick's steering runs in at most this many parallel tasks on a pool of up to 4 threads
/// ([`TASKS_PER_THREAD`] a thread on a wider one), each with its own long-lived scratch
/// buffers, so a warm tick's steering allocates nothing (on several threads the tick allocates
/// only the warm pool's job, `pool/warm.rs`).
pub(crate) const MAX_TASKS: usize = 64;

/// At most this many tasks a thread on a pool wider than 4 threads. A thread that runs out of
/// tasks waits for the others' last, on average about half a task (at 10,000 flockers on 2
/// threads, tasks of some 18 µs, the two threads' last tasks ended 6.5–14.7 µs apart): with
/// the 64 tasks of a large crowd on 16 threads, 4 a thread, each thread would wait about an
/// eighth of its share; with 16 a thread, a thirty-second.
const TASKS_PER_THREAD: usize = 16;

/// Fewest agents in a parallel task when their evaluation costs about a tenth of a
/// microsecond (a flock's: 128 of them are about 13 µs of work), and in the integration and
/// writing back: a task of a few agents costs more to hand over than to run.
pub(crate) const MIN_AGENTS_PER_TASK: usize = 128;

/// Fewest agents in a parallel task of a tick's steering when an agent's evaluation costs about
/// a microsecond (Reciprocal, Unaligned collision avoidance: [`crate::Program`]'s
/// `costly_per_agent`): 24 such agents are some 10 to 40 µs of work, as 128 flocking agents
/// are. With 128, 1,000 Reciprocal agents made 8 tasks, so 16 threads could speed them up 8
/// times at most, and RVO2's 100-agent Blocks scene ran on one thread of two.
pub(crate) const MIN_COSTLY_AGENTS_PER_TASK: usize = 24;

/// [`steer_chunk`] for `agents` agents running `programs`, cut for the current rayon pool
/// (or the pool a benchmark asked for: [`split_threads`]).
pub(crate) fn steer_chunk_for<'a>(
    agents: usize,
    mut programs: impl Iterator<Item = &'a Program>,
) -> usize {
    let costly = programs.any(Program::costly_per_agent);
    steer_chunk(agents, split_threads(), costly)
}

/// Agents per parallel task of a tick's steering, for `agents` agents on a pool of `threads`
/// (`costly`: some group's evaluation costs about a microsecond an agent). One task on one
/// thread (a split there only switches scratch buffers). Otherwise tasks of at least the
/// minimum ([`MIN_AGENTS_PER_TASK`], [`MIN_COSTLY_AGENTS_PER_TASK`]), at most [`MAX_TASKS`]
/// of them, or [`TASKS_PER_THREAD`] a thread on a pool of more than 4; when there are at
/// least as many as threads, their number is made a multiple of the threads, so that the
/// tasks come out even (100 Reciprocal agents made 5 tasks of 24 on 2 threads, one thread
/// taking 3 of them). A crowd too small to keep every thread busy leaves the rest asleep
/// rather than hand them tasks that cost more to hand over than to run.
pub(crate) fn steer_chunk(agents: usize, threads: usize, costly: bool) -> usize {
    if threads <= 1 {
        return agents.max(1);
    }
    let least = if costly {
        MIN_COSTLY_AGENTS_PER_TASK
    } else {
        MIN_AGENTS_PER_TASK
    };
    let most = (threads * TASKS_PER_THREAD).max(MAX_TASKS);
    let chunk = agents.div_ceil(most).max(least);
    let tasks = agents.div_ceil(chunk);
    if tasks < threads || tasks.is_multiple_of(threads) {
        return chunk;
    }
    let even = tasks.next_multiple_of(threads).min(most);
    agents.div_ceil(even).max(1)
}

#[cfg(test)]
mod tests {
    use super::steer_chunk;

    #[test]
    fn a_ticks_steering_is_split_by_the_work_and_the_threads() {
        let tasks = |agents: usize, threads, costly| {
            let chunk = steer_chunk(agents, threads, costly);
            (chunk, agents.div_ceil(chunk))
        };
        // One thread: one task, whatever the crowd.
        assert_eq!(tasks(20_000, 1, false), (20_000, 1));
        assert_eq!(tasks(1_000, 1, true), (1_000, 1));
        // 1,000 flockers: tasks of 128, 8 of them (the last 104), on 2 threads or 16 (8 of
        // the 16 then have none); on 3 threads 9, of 112 (the last 104).
        assert_eq!(tasks(1_000, 2, false), (128, 8));
        assert_eq!(tasks(1_000, 16, false), (128, 8));
        assert_eq!(tasks(1_000, 3, false), (112, 9));
        // 1,000 Reciprocal agents: tasks of 24, 42 of them (the last 16), even on 2 threads;
        // on 16, 48 tasks (3 each) of 21 (1,000 / 48 rounded up; the last 13).
        assert_eq!(tasks(1_000, 2, true), (24, 42));
        assert_eq!(tasks(1_000, 16, true), (21, 48));
        // RVO2's Blocks, 100 agents: 5 tasks of 24, made 6 of 17 for 2 threads.
        assert_eq!(tasks(100, 2, true), (17, 6));
        // Fewer agents than a task's minimum: one task.
        assert_eq!(tasks(100, 2, false), (128, 1));
        assert_eq!(tasks(10, 16, true), (24, 1));
        // 100,000: 64 tasks of 1,563 (the last 1,531); on 3 threads 64 is no multiple of 3,
        // and more than 64 tasks are never made.
        assert_eq!(tasks(100_000, 2, false), (1_563, 64));
        assert_eq!(tasks(100_000, 3, false), (1_563, 64));
        // On 16 threads up to 16 tasks a thread: 100,000 Reciprocal agents in 256 tasks of
        // 391 (the last 295), 1,000,000 flockers in 256 of 3,907; 10,000 Reciprocal agents in
        // 250 of 40 (10,000 / 256 rounded up: 250 tasks, no multiple of 16 to be had), 10,000
        // flockers in 80 of 125 (79 of 128, made 80, 5 a thread).
        assert_eq!(tasks(100_000, 16, true), (391, 256));
        assert_eq!(tasks(1_000_000, 16, false), (3_907, 256));
        assert_eq!(tasks(10_000, 16, true), (40, 250));
        assert_eq!(tasks(10_000, 16, false), (125, 80));
        // 8 threads: 128 tasks at most; 4 or fewer: 64.
        assert_eq!(tasks(100_000, 8, false), (782, 128));
        assert_eq!(tasks(100_000, 4, false), (1_563, 64));
        // No agents: no task (a chunk of one or more, so that the split is defined).
        assert_eq!(tasks(0, 2, true), (24, 0));
        assert_eq!(tasks(0, 1, true), (1, 0));
    }
}
