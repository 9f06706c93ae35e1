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
        Self::with(wgpu::InstanceDescriptor::new_without_display_handle_from_env())
    }

    /// The best adapter among `backends` only (`WGPU_ADAPTER_NAME` still chooses among them).
    pub fn on_backends(backends: wgpu::Backends) -> Result<Self, GpuError> {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
        descriptor.backends = backends;
        Self::with(descriptor)
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

    /// Whether the adapter is a CPU's software device (lavapipe, WARP, SwiftShader).
    pub fn is_software(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }
}
