//! The tick's kernels: the shader module, one bind group layout for every buffer, a compute
//! pipeline per entry point of `shader/step.wgsl`, and the dispatches of one tick in order.

use crate::layout::Tick;

/// Threads in a workgroup of the entry points that take one item a thread.
const WORKGROUP: u32 = 64;
/// Cells a workgroup of the scan takes (`grid_scan_blocks`).
pub(crate) const SCAN_BLOCK: u32 = 256;

/// The buffers a tick binds, in the shader's binding order.
pub(crate) struct Bound<'a> {
    pub tick: &'a wgpu::Buffer,
    pub agents_in: &'a wgpu::Buffer,
    pub agents_out: &'a wgpu::Buffer,
    pub order: &'a wgpu::Buffer,
    pub runs: &'a wgpu::Buffer,
    pub state: &'a wgpu::Buffer,
    pub world: &'a wgpu::Buffer,
    pub grid: &'a wgpu::Buffer,
}

/// The compiled kernels of one shader.
pub(crate) struct Kernels {
    layout: wgpu::BindGroupLayout,
    clear: wgpu::ComputePipeline,
    count: wgpu::ComputePipeline,
    scan_blocks: wgpu::ComputePipeline,
    scan_totals: wgpu::ComputePipeline,
    runs: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
    place: wgpu::ComputePipeline,
    step: wgpu::ComputePipeline,
}

impl Kernels {
    /// The kernels of the WGSL module `source`.
    pub(crate) fn new(device: &wgpu::Device, source: &str) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("steergraph tick"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let buffer = |ty| wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: None,
        };
        let storage = |read_only| buffer(wgpu::BufferBindingType::Storage { read_only });
        let entries: Vec<wgpu::BindGroupLayoutEntry> = [
            buffer(wgpu::BufferBindingType::Uniform),
            storage(true),
            storage(false),
            storage(false),
            storage(false),
            storage(false),
            storage(true),
            storage(false),
        ]
        .into_iter()
        .enumerate()
        .map(|(binding, ty)| wgpu::BindGroupLayoutEntry {
            binding: binding as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty,
            count: None,
        })
        .collect();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("tick"),
            entries: &entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("tick"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |entry_point| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry_point),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry_point),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                cache: None,
            })
        };
        Self {
            clear: pipeline("grid_clear"),
            count: pipeline("grid_count"),
            scan_blocks: pipeline("grid_scan_blocks"),
            scan_totals: pipeline("grid_scan_totals"),
            runs: pipeline("grid_runs"),
            scatter: pipeline("grid_scatter"),
            place: pipeline("grid_place"),
            step: pipeline("steer_and_step"),
            layout,
        }
    }

    /// The bind group of `buffers`.
    pub(crate) fn bind(&self, device: &wgpu::Device, buffers: &Bound<'_>) -> wgpu::BindGroup {
        let all = [
            buffers.tick,
            buffers.agents_in,
            buffers.agents_out,
            buffers.order,
            buffers.runs,
            buffers.state,
            buffers.world,
            buffers.grid,
        ];
        let entries: Vec<wgpu::BindGroupEntry<'_>> = all
            .iter()
            .enumerate()
            .map(|(binding, buffer)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("tick"),
            layout: &self.layout,
            entries: &entries,
        })
    }

    /// One tick's dispatches into `pass`, with `group` bound: the grid (cleared, counted,
    /// scanned, scattered, placed), then every agent's step.
    pub(crate) fn tick(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        group: &wgpu::BindGroup,
        tick: &Tick,
    ) {
        let cells = tick.columns * tick.rows;
        pass.set_bind_group(0, group, &[]);
        let mut run = |pipeline: &wgpu::ComputePipeline, groups: u32| {
            pass.set_pipeline(pipeline);
            let x = groups.clamp(1, 65_535);
            pass.dispatch_workgroups(x, groups.div_ceil(x).max(1), 1);
        };
        run(&self.clear, cells.div_ceil(WORKGROUP));
        run(&self.count, tick.agents.div_ceil(WORKGROUP));
        run(&self.scan_blocks, cells.div_ceil(SCAN_BLOCK));
        run(&self.scan_totals, 1);
        run(&self.runs, cells.div_ceil(WORKGROUP));
        run(&self.scatter, tick.agents.div_ceil(WORKGROUP));
        run(&self.place, tick.agents.div_ceil(WORKGROUP));
        run(&self.step, tick.agents.div_ceil(WORKGROUP));
    }
}
