//! The plugin's systems, one job per file.

mod adopt;
mod report;
mod steer;
mod step_buffers;
mod transform;

pub(crate) use adopt::adopt_programs;
pub(crate) use report::report_failed_graphs;
pub(crate) use steer::steer_agents;
pub(crate) use transform::write_transforms;
