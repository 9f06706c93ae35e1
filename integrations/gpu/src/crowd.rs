//! A crowd on the GPU: its buffers (agents twice, for the state at the start of the tick and
//! the state after it; the grid's pairs and cell runs; targets; flow fields), its pipelines,
//! and the commands of one tick.

use bytemuck::Zeroable as _;
use glam::Vec2;
use graph_runtime::{Simulation, TagMask};
use wgpu::util::DeviceExt as _;

use crate::layout::{GpuAgent, NewAgent, Tick, agent_states, check_scene, grid, network};
use crate::lower::{Source, lower};
use crate::{Gpu, GpuError};

/// Where each step of the bitonic network's uniforms lies: the device's offset alignment.
const NETWORK_STRIDE: u64 = 256;
/// Threads in a workgroup of every entry point.
const WORKGROUP: u32 = 64;

/// A scene's agents stepped on the GPU.
pub struct GpuCrowd {
    gpu: Gpu,
    agents: u32,
    padded: u32,
    tick: Tick,
    tick_buffer: wgpu::Buffer,
    agent_buffers: [wgpu::Buffer; 2],
    world: wgpu::Buffer,
    targets: Vec<(String, usize)>,
    /// Which agent buffer holds the present state.
    current: usize,
    bind_groups: [wgpu::BindGroup; 2],
    network_group: wgpu::BindGroup,
    network_steps: u32,
    cells: u32,
    pipelines: Pipelines,
    readback: wgpu::Buffer,
}

struct Pipelines {
    cells: wgpu::ComputePipeline,
    sort: wgpu::ComputePipeline,
    clear: wgpu::ComputePipeline,
    runs: wgpu::ComputePipeline,
    step: wgpu::ComputePipeline,
}

impl GpuCrowd {
    /// `simulation`'s agents and world on `gpu`, every group's graph lowered into one shader,
    /// carrying the run on from where it is (the agents' streams and wander angles included).
    /// Refused, saying why, when a node is outside the family, when the world has walls or
    /// jump links, or when an agent turns with a limit or faces on its own.
    pub fn new(gpu: Gpu, simulation: &Simulation) -> Result<Self, GpuError> {
        let source = Source {
            world: simulation.world(),
            groups: simulation.groups(),
            tags: simulation.tags(),
        };
        let agents = simulation
            .vehicles()
            .iter()
            .enumerate()
            .map(|(i, v)| GpuAgent::of(v, simulation.group_of(i).map_or(u32::MAX, |g| g as u32)))
            .collect();
        Self::build(gpu, source, simulation.vehicles().iter(), agents, |slots| {
            agent_states(simulation, slots)
        })
    }

    /// `agents` in `template`'s world with its groups' graphs: a crowd beyond a scene's agent
    /// limit, or one a game places itself. Each agent's wander angles start at zero.
    pub fn with_agents(
        gpu: Gpu,
        template: &Simulation,
        agents: &[NewAgent],
    ) -> Result<Self, GpuError> {
        let tags: Vec<TagMask> = agents.iter().map(|a| a.tags).collect();
        let source = Source {
            world: template.world(),
            groups: template.groups(),
            tags: &tags,
        };
        let groups = template.groups().len();
        if let Some(i) = agents.iter().position(|a| a.group >= groups) {
            return Err(GpuError::SceneUnsupported(format!(
                "agent {i} is of group {}; the template has {groups}",
                agents[i].group
            )));
        }
        let gpu_agents = agents
            .iter()
            .map(|a| GpuAgent::of(&a.vehicle, a.group as u32))
            .collect();
        Self::build(
            gpu,
            source,
            agents.iter().map(|a| &a.vehicle),
            gpu_agents,
            |slots| {
                let stride = 4 + slots as usize;
                let mut words = Vec::with_capacity(agents.len() * stride + 1);
                for a in agents {
                    words.extend(a.rng.words());
                    words.extend(std::iter::repeat_n(0, slots as usize));
                }
                words.push(0);
                words
            },
        )
    }

    /// The crowd of `agents` on `gpu`, lowered against `source`; `states` gives the agents'
    /// streams and wander angles for the wander slots the graphs keep.
    fn build<'v>(
        gpu: Gpu,
        source: Source<'_>,
        vehicles: impl Iterator<Item = &'v graph_runtime::Vehicle>,
        agents: Vec<GpuAgent>,
        states: impl FnOnce(u32) -> Vec<u32>,
    ) -> Result<Self, GpuError> {
        // The nodes first: they say most about what to change.
        let lowered = lower(source)?;
        check_scene(source.world, vehicles)?;
        let count = agents.len();
        let padded = count.max(1).next_power_of_two();
        let state_words = states(lowered.wander_slots);
        let limit = gpu
            .limits
            .max_storage_buffer_binding_size
            .min(gpu.limits.max_buffer_size);
        let bytes = [
            padded * std::mem::size_of::<[u32; 2]>(),
            count * std::mem::size_of::<GpuAgent>(),
            state_words.len() * 4,
            // The grid's runs: at most max(4 * agents, 65,536) cells (`layout::grid`).
            count.saturating_mul(4).max(65_536) * 8,
        ]
        .into_iter()
        .max()
        .unwrap_or(0) as u64;
        if bytes > limit || count > (u32::MAX / 4) as usize {
            return Err(GpuError::TooManyAgents {
                agents: count,
                bytes,
                limit,
            });
        }
        let tick = grid(source.world, &lowered, count as u32, padded as u32);
        let cells = tick.columns * tick.rows;
        let device = &gpu.device;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("steergraph tick"),
            source: wgpu::ShaderSource::Wgsl(lowered.source.as_str().into()),
        });
        let storage = |read_only| wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        };
        let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty,
            count: None,
        };
        let uniform = |dynamic| wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: None,
        };
        let layout0 = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("tick"),
            entries: &[
                entry(0, uniform(false)),
                entry(1, storage(true)),
                entry(2, storage(false)),
                entry(3, storage(false)),
                entry(4, storage(false)),
                entry(5, storage(false)),
                entry(6, storage(true)),
            ],
        });
        let layout1 = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("network"),
            entries: &[entry(0, uniform(true))],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("tick"),
            bind_group_layouts: &[Some(&layout0), Some(&layout1)],
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
        let pipelines = Pipelines {
            cells: pipeline("grid_cells"),
            sort: pipeline("grid_sort"),
            clear: pipeline("grid_clear"),
            runs: pipeline("grid_runs"),
            step: pipeline("steer_and_step"),
        };
        let init = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let storage_usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST;
        let mut first = agents;
        if first.is_empty() {
            first.push(GpuAgent::zeroed());
        }
        let agent_buffers = [
            init("agents a", bytemuck::cast_slice(&first), storage_usage),
            init("agents b", bytemuck::cast_slice(&first), storage_usage),
        ];
        let tick_buffer = init(
            "tick",
            bytemuck::bytes_of(&tick),
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let pairs = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pairs"),
            size: (padded * 8) as u64,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let runs = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("cell runs"),
            size: u64::from(cells) * 8,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let mut world_data = lowered.world.clone();
        if world_data.is_empty() {
            world_data.push(0.0);
        }
        let world = init("world", bytemuck::cast_slice(&world_data), storage_usage);
        let state = init(
            "agent states",
            bytemuck::cast_slice(&state_words),
            storage_usage,
        );
        let network = network(padded as u32);
        let mut network_bytes = vec![0u8; network.len().max(1) * NETWORK_STRIDE as usize];
        for (i, &(j, k)) in network.iter().enumerate() {
            let at = i * NETWORK_STRIDE as usize;
            network_bytes[at..at + 8].copy_from_slice(bytemuck::cast_slice(&[j, k]));
        }
        let network_buffer = init("network", &network_bytes, wgpu::BufferUsages::UNIFORM);
        let bind_group = |input: &wgpu::Buffer, output: &wgpu::Buffer| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("tick"),
                layout: &layout0,
                entries: &[
                    bind(0, &tick_buffer),
                    bind(1, input),
                    bind(2, output),
                    bind(3, &pairs),
                    bind(4, &runs),
                    bind(5, &state),
                    bind(6, &world),
                ],
            })
        };
        let bind_groups = [
            bind_group(&agent_buffers[0], &agent_buffers[1]),
            bind_group(&agent_buffers[1], &agent_buffers[0]),
        ];
        let network_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("network"),
            layout: &layout1,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &network_buffer,
                    offset: 0,
                    size: wgpu::BufferSize::new(16),
                }),
            }],
        });
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read back"),
            size: (first.len() * std::mem::size_of::<GpuAgent>()) as u64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(error.to_string()));
        }
        Ok(Self {
            agents: count as u32,
            padded: padded as u32,
            tick,
            tick_buffer,
            agent_buffers,
            world,
            targets: lowered.targets.clone(),
            current: 0,
            bind_groups,
            network_group,
            network_steps: network.len() as u32,
            cells,
            pipelines,
            readback,
            gpu,
        })
    }

    /// The GPU it runs on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The GPU back, for another crowd.
    pub fn into_gpu(self) -> Gpu {
        self.gpu
    }

    /// Waits until the queued ticks have run.
    pub fn finish(&self) -> Result<(), GpuError> {
        self.gpu
            .device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| GpuError::Device(e.to_string()))
    }

    /// How many agents.
    pub fn len(&self) -> usize {
        self.agents as usize
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.agents == 0
    }

    /// Moves the world's target `name` for the ticks after this; `false` when no graph reads it.
    pub fn move_target(&mut self, name: &str, position: Vec2) -> bool {
        let Some(&(_, at)) = self.targets.iter().find(|(n, _)| n == name) else {
            return false;
        };
        self.gpu.queue.write_buffer(
            &self.world,
            (at * 4) as u64,
            bytemuck::cast_slice(&[position.x, position.y]),
        );
        true
    }

    /// Queues `ticks` ticks of `dt` seconds; the GPU runs them while the caller goes on.
    /// A `dt` that is not finite steps nothing (the CPU vehicle's rule).
    pub fn step(&mut self, dt: f32, ticks: u32) {
        if !dt.is_finite() || self.agents == 0 {
            return;
        }
        if self.tick.dt != dt {
            self.tick.dt = dt;
            self.gpu
                .queue
                .write_buffer(&self.tick_buffer, 0, bytemuck::bytes_of(&self.tick));
        }
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("ticks"),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("tick"),
                timestamp_writes: None,
            });
            pass.set_bind_group(1, &self.network_group, &[0]);
            for _ in 0..ticks {
                pass.set_bind_group(0, &self.bind_groups[self.current], &[]);
                pass.set_pipeline(&self.pipelines.cells);
                dispatch(&mut pass, self.padded);
                pass.set_pipeline(&self.pipelines.sort);
                for step in 0..self.network_steps {
                    let offset = (u64::from(step) * NETWORK_STRIDE) as u32;
                    pass.set_bind_group(1, &self.network_group, &[offset]);
                    dispatch(&mut pass, self.padded);
                }
                pass.set_pipeline(&self.pipelines.clear);
                dispatch(&mut pass, self.cells);
                pass.set_pipeline(&self.pipelines.runs);
                dispatch(&mut pass, self.agents);
                pass.set_pipeline(&self.pipelines.step);
                dispatch(&mut pass, self.agents);
                self.current = 1 - self.current;
            }
        }
        self.gpu.queue.submit([encoder.finish()]);
    }

    /// Waits for the queued ticks and reads every agent back.
    pub fn agents(&self) -> Result<Vec<GpuAgent>, GpuError> {
        if self.agents == 0 {
            return Ok(Vec::new());
        }
        let size = u64::from(self.agents) * std::mem::size_of::<GpuAgent>() as u64;
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("read"),
            });
        encoder.copy_buffer_to_buffer(
            &self.agent_buffers[self.current],
            0,
            &self.readback,
            0,
            size,
        );
        self.gpu.queue.submit([encoder.finish()]);
        let slice = self.readback.slice(..size);
        let (send, receive) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |result| {
            let _ = send.send(result);
        });
        self.gpu
            .device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Device(e.to_string()))?;
        receive
            .recv()
            .map_err(|e| GpuError::Device(e.to_string()))?
            .map_err(|e| GpuError::Device(e.to_string()))?;
        let agents = {
            let view = slice
                .get_mapped_range()
                .map_err(|e| GpuError::Device(e.to_string()))?;
            bytemuck::cast_slice::<u8, GpuAgent>(&view).to_vec()
        };
        self.readback.unmap();
        Ok(agents)
    }
}

fn bind(binding: u32, buffer: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: buffer.as_entire_binding(),
    }
}

/// Dispatches one thread per item, in rows of at most 65,535 workgroups (the shader's
/// `index_of` reads the row).
fn dispatch(pass: &mut wgpu::ComputePass<'_>, items: u32) {
    let groups = items.div_ceil(WORKGROUP).max(1);
    let x = groups.min(65_535);
    pass.dispatch_workgroups(x, groups.div_ceil(x), 1);
}
