//! Parallel passes on the rayon pool a tick runs on (issue 47): [`Warm`] keeps the pool's
//! other threads taking work for the length of a tick, and [`run_tasks`] runs a pass's tasks on
//! such a warm pool so that no thread sleeps between the pass's last task and its end. The
//! tick's drivers use both for their steering, the neighbor grid for its rebuild's passes;
//! both cut their work for [`split_threads`] threads. [`Slots`] is room such passes scatter
//! into.

mod slots;
mod split;
mod tasks;
mod warm;

pub(crate) use slots::Slots;
pub use split::split_work_as_for;
pub(crate) use split::{items_per_task, split_threads};
pub(crate) use tasks::run_tasks;
pub(crate) use warm::Warm;
