//! Steergraph's GPU backend (issue 48): a scene whose graphs are all of the flocking family,
//! compiled to WGSL compute shaders and stepped on wgpu (Vulkan, Metal, DX12; Mesa's lavapipe
//! in tests), equal to graph-runtime's CPU tick within a stated tolerance.
//!
//! - [`Gpu`] finds an adapter and opens its device; no adapter is an error, never a panic.
//! - [`GpuCrowd::new`] lowers every group's program ([`graph_runtime::Program::portable`]) into
//!   one shader (`lower.rs`, `shader/step.wgsl`) and uploads the simulation's agents; a node
//!   outside the family refuses the scene, naming the node, its id and its group.
//! - [`GpuCrowd::step`] runs one tick: the grid (each cell's agents counted, the counts scanned
//!   into runs, the agents scattered and placed by index), then every agent's neighbor sums,
//!   force and vehicle step (`kernels.rs`).
//!
//! What is bit-exact and what is equal within a tolerance is in graph-runtime's
//! `BEHAVIORS.md`, "On the GPU".

mod crowd;
mod device;
mod kernels;
mod layout;
mod lower;

pub use crowd::GpuCrowd;
pub use device::Gpu;
pub use layout::{GpuAgent, NewAgent};
pub use lower::MAX_GPU_OPS;
/// The wgpu this crate runs on (to name backends for [`Gpu::on_backends`]).
pub use wgpu;

/// The WGSL module a crowd of `simulation` would run: `shader/step.wgsl` with every group's
/// graph written as functions. No device is needed: a node outside the family is refused
/// here as [`GpuCrowd::new`] refuses it.
pub fn shader_source(simulation: &graph_runtime::Simulation) -> Result<String, GpuError> {
    lower::lower(lower::Source::of(simulation)).map(|lowered| lowered.source)
}

/// Why a crowd cannot run on the GPU.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter (no GPU, no driver, no software Vulkan device).
    #[error("no GPU adapter found: {0}")]
    NoAdapter(String),
    /// The adapter would not open a device.
    #[error("the GPU adapter \"{adapter}\" would not open a device: {reason}")]
    NoDevice {
        /// The adapter's name.
        adapter: String,
        /// What wgpu said.
        reason: String,
    },
    /// Nodes outside the GPU's family, each as `group "name": Kind (node #id)`.
    #[error("not supported on the GPU (run this scene on the CPU): {}", .0.join("; "))]
    Unsupported(Vec<String>),
    /// Something of the scene the GPU tick does not simulate (walls, jumps, turning limits).
    #[error("not supported on the GPU (run this scene on the CPU): {0}")]
    SceneUnsupported(String),
    /// A group's program has more ops than [`MAX_GPU_OPS`].
    #[error("group \"{group}\" has {ops} ops; the GPU takes at most {max}", max = MAX_GPU_OPS)]
    TooLarge {
        /// The group's name.
        group: String,
        /// Its program's ops.
        ops: usize,
    },
    /// A crowd whose largest buffer (its agents, its grid, or what its graphs read of the
    /// world) is larger than the device allows.
    #[error(
        "a crowd of {agents} agents needs {bytes} bytes in one buffer; this device allows {limit}"
    )]
    TooManyAgents {
        /// The agents asked for.
        agents: usize,
        /// The largest buffer it needs.
        bytes: u64,
        /// The device's limit.
        limit: u64,
    },
    /// The device failed while running (lost, out of memory, a shader the driver refused).
    #[error("the GPU failed: {0}")]
    Device(String),
}
