//! Finding an adapter and opening its device, with what to say when there is none.

use crate::GpuError;

/// An opened GPU: the adapter's description, its device and queue.
pub struct Gpu {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    pub(crate) limits: wgpu::Limits,
}

impl Gpu {
    /// The best adapter of this machine (a discrete GPU first), with its device opened at the
    /// adapter's own limits. `WGPU_ADAPTER_NAME` and `WGPU_BACKEND` choose another, as wgpu
    /// reads them.
    pub fn new() -> Result<Self, GpuError> {
        Self::with(Self::descriptor())
    }

    /// The instance the backend looks for adapters with: the environment's, never OpenGL.
    /// wgpu's OpenGL backend computes with less than this crate needs, and in a program that
    /// paints with OpenGL itself (the editor with eframe's glow), its EGL set-up on the
    /// painting thread panics inside wgpu (`BadAccess` in wgpu-hal's `egl.rs`); the other
    /// backends leave that thread's context alone.
    fn descriptor() -> wgpu::InstanceDescriptor {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        descriptor.backends =
            wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY) & !wgpu::Backends::GL;
        descriptor
    }

    /// The best adapter among `backends` only (`WGPU_ADAPTER_NAME` still chooses among them),
    /// OpenGL never (see [`Gpu::new`]'s reason).
    pub fn on_backends(backends: wgpu::Backends) -> Result<Self, GpuError> {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
        descriptor.backends = backends & !wgpu::Backends::GL;
        Self::with(descriptor)
    }

    /// A device another part of the program opened (the editor's window paints with it), so
    /// that a crowd stepped here can be drawn from its own buffers. A crowd larger than the
    /// device's limits allow is refused as on any other device.
    pub fn from_device(info: wgpu::AdapterInfo, device: wgpu::Device, queue: wgpu::Queue) -> Self {
        let limits = device.limits();
        Self {
            device,
            queue,
            info,
            limits,
        }
    }

    /// Whether [`Gpu::new`] would find an adapter (the environment's `WGPU_BACKEND`
    /// included), without opening a device.
    pub fn adapter_exists() -> bool {
        let descriptor = Self::descriptor();
        let backends = descriptor.backends;
        let instance = wgpu::Instance::new(descriptor);
        !pollster::block_on(instance.enumerate_adapters(backends)).is_empty()
    }

    /// The opened device and its queue (to draw what a crowd holds, on the same device).
    pub fn device(&self) -> (&wgpu::Device, &wgpu::Queue) {
        (&self.device, &self.queue)
    }

    fn with(descriptor: wgpu::InstanceDescriptor) -> Result<Self, GpuError> {
        let instance = wgpu::Instance::new(descriptor);
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            apply_limit_buckets: false,
        }))
        .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("steergraph"),
            required_features: wgpu::Features::empty(),
            required_limits: limits.clone(),
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .map_err(|e| GpuError::NoDevice {
            adapter: info.name.clone(),
            reason: e.to_string(),
        })?;
        Ok(Self {
            device,
            queue,
            info,
            limits,
        })
    }

    /// The adapter's name, backend and kind, as the benchmark prints it first.
    pub fn describe(&self) -> String {
        format!(
            "{} ({:?}, {:?}, driver {} {})",
            self.info.name,
            self.info.backend,
            self.info.device_type,
            self.info.driver,
            self.info.driver_info
        )
    }

    /// The adapter's name alone (`llvmpipe (LLVM 15.0.6, 256 bits)`, `NVIDIA H200`).
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// Whether the adapter is a CPU's software device (lavapipe, WARP, SwiftShader).
    pub fn is_software(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }
}
