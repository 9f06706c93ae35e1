//! A crowd on the GPU: its buffers (agents twice, for the state at the start of the tick and
//! the state after it; the grid's order, runs and counters; the agents' streams; what the
//! graphs read of the world), its ticks queued, and the agents read back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bytemuck::Zeroable as _;
use glam::Vec2;
use graph_runtime::{Simulation, TagMask};
use wgpu::util::DeviceExt as _;

use crate::kernels::{Bound, Kernels};
use crate::layout::{GpuAgent, NewAgent, Tick, agent_states, check_scene, grid};
use crate::lower::{Source, lower};
use crate::{Gpu, GpuError};

/// A scene's agents stepped on the GPU.
pub struct GpuCrowd {
    gpu: Gpu,
    agents: u32,
    tick: Tick,
    tick_buffer: wgpu::Buffer,
    agent_buffers: [wgpu::Buffer; 2],
    world: wgpu::Buffer,
    targets: Vec<(String, usize)>,
    /// Which agent buffer holds the present state.
    current: usize,
    bind_groups: [wgpu::BindGroup; 2],
    kernels: Kernels,
    /// Made on the first read-back: a crowd that is only stepped and drawn never holds a copy
    /// of its agents for the CPU.
    readback: std::sync::OnceLock<wgpu::Buffer>,
    /// Set once the ticks queued last have run ([`GpuCrowd::is_idle`]).
    done: Arc<AtomicBool>,
}

impl GpuCrowd {
    /// `simulation`'s agents and world on `gpu`, every group's graph lowered into one shader,
    /// carrying the run on from where it is (the agents' streams and wander angles included).
    /// Refused, saying why, when a node is outside the family, when the world has walls or
    /// jump links, or when an agent turns with a limit or faces on its own.
    pub fn new(gpu: Gpu, simulation: &Simulation) -> Result<Self, GpuError> {
        let source = Source::of(simulation);
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
        let state_words = states(lowered.wander_slots);
        let limit = gpu
            .limits
            .max_storage_buffer_binding_size
            .min(gpu.limits.max_buffer_size);
        // The grid's cells: at most max(4 * agents, 65,536) (`layout::grid`).
        let cells = count.saturating_mul(4).max(65_536);
        let bytes = [
            // The grid's counters: two a cell, two an agent, one a block of 256 cells.
            (cells * 2 + cells.div_ceil(256) + count * 2) * 4,
            count * std::mem::size_of::<GpuAgent>(),
            state_words.len() * 4,
            // The grid's runs.
            cells * 8,
            // What the graphs read of the world (flow fields may be large).
            lowered.world.len() * 4,
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
        let tick = grid(source.world, &lowered, count as u32);
        let cells = tick.columns * tick.rows;
        let device = &gpu.device;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let kernels = Kernels::new(device, &lowered.source);
        let init = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let empty = |label, bytes: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.max(16),
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
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
        let order = empty("order", count as u64 * 4);
        let runs = empty("cell runs", u64::from(cells) * 8);
        let grid_words = 2 * u64::from(cells) + 2 * count as u64 + u64::from(tick.blocks);
        let grid_buffer = empty("grid", grid_words * 4);
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
        let bind_group = |agents_in, agents_out| {
            kernels.bind(
                device,
                &Bound {
                    tick: &tick_buffer,
                    agents_in,
                    agents_out,
                    order: &order,
                    runs: &runs,
                    state: &state,
                    world: &world,
                    grid: &grid_buffer,
                },
            )
        };
        let bind_groups = [
            bind_group(&agent_buffers[0], &agent_buffers[1]),
            bind_group(&agent_buffers[1], &agent_buffers[0]),
        ];
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Device(error.to_string()));
        }
        Ok(Self {
            agents: count as u32,
            tick,
            tick_buffer,
            agent_buffers,
            world,
            targets: lowered.targets.clone(),
            current: 0,
            bind_groups,
            kernels,
            readback: std::sync::OnceLock::new(),
            done: Arc::new(AtomicBool::new(true)),
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

    /// The buffer that holds the agents as they are after the ticks queued so far: an array of
    /// [`GpuAgent`] (48 bytes each, in agent order), usable as a read-only storage buffer on
    /// this crowd's device. It changes with every tick (two buffers take turns), so read it
    /// again after [`step`](Self::step).
    pub fn agent_buffer(&self) -> &wgpu::Buffer {
        &self.agent_buffers[self.current]
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
            for _ in 0..ticks {
                self.kernels
                    .tick(&mut pass, &self.bind_groups[self.current], &self.tick);
                self.current = 1 - self.current;
            }
        }
        self.gpu.queue.submit([encoder.finish()]);
        let done = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&done);
        self.gpu.queue.on_submitted_work_done(move || {
            flag.store(true, Ordering::Release);
        });
        self.done = done;
    }

    /// Whether the ticks queued so far have run, without waiting: a caller that paces itself
    /// (the editor's frame) queues more only then, so a slow device never gathers a backlog.
    /// A device that failed counts as idle (the next read-back says why).
    pub fn is_idle(&self) -> bool {
        if self.gpu.device.poll(wgpu::PollType::Poll).is_err() {
            return true;
        }
        self.done.load(Ordering::Acquire)
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
        let readback = self.readback.get_or_init(|| {
            self.gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("read back"),
                size,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        });
        encoder.copy_buffer_to_buffer(&self.agent_buffers[self.current], 0, readback, 0, size);
        self.gpu.queue.submit([encoder.finish()]);
        let slice = readback.slice(..size);
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
        readback.unmap();
        Ok(agents)
    }
}
