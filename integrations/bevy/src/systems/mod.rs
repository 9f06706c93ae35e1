//! The plugin's systems, one job per file. A fixed tick is three systems over the runtime's
//! `Crowd` (`crowd_run.rs`), as `bevy_landmass` syncs its agents: `sync_in` moves every
//! agent into the crowd, `step_crowd` runs `Crowd::step`, `sync_out` moves them back.

mod adopt;
mod crowd_run;
mod report;
mod step;
mod sync_in;
mod sync_out;
mod transform;

pub(crate) use adopt::adopt_programs;
pub(crate) use crowd_run::CrowdRun;
pub(crate) use report::report_failed_graphs;
pub(crate) use step::step_crowd;
pub(crate) use sync_in::sync_in;
pub(crate) use sync_out::sync_out;
pub(crate) use transform::write_transforms;
