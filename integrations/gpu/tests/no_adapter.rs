//! A machine without a GPU: asking for one is an error that says so, never a panic.

use steergraph_gpu::{Gpu, GpuError, wgpu};

/// With only OpenGL asked for, which this crate never uses, there is no adapter: as on a
/// machine with no GPU and no software Vulkan device.
#[test]
fn no_adapter_is_a_clear_error() {
    match Gpu::on_backends(wgpu::Backends::GL) {
        Err(error @ GpuError::NoAdapter(_)) => {
            let words = error.to_string();
            assert!(words.starts_with("no GPU adapter found: "), "{words}");
        }
        Err(other) => panic!("another error: {other}"),
        Ok(gpu) => panic!("an adapter: {}", gpu.describe()),
    }
}
