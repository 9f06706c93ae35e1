//! A crowd on the GPU in the preview: started from the CPU simulation, stepped by the
//! preview's clock, read back for drawing only when it runs on a device of its own, and
//! carried back to the CPU simulation when an edit comes or the switch goes off.

use std::time::{Duration, Instant};

use eframe::egui_wgpu::RenderState;
use egui::{Painter, Rect};
use glam::Vec2;
use graph_runtime::{Simulation, Vehicle};
use steergraph_gpu::{Gpu, GpuAgent, GpuCrowd};

use super::super::View;
use super::super::host::{Host, MAX_TICKS_PER_FRAME, Motion, Pacing};
use super::super::view::GpuAgents;

/// A batch of ticks that took longer than this (from queued to seen finished) makes the
/// next batches one tick each.
const SLOW_BATCH: Duration = Duration::from_millis(50);

/// The crowd and how it reaches the screen.
pub(super) struct Run {
    crowd: GpuCrowd,
    /// The adapter, as `Gpu::describe` says it, and its name alone.
    adapter: (String, String),
    /// Seconds of simulated time due and not yet run.
    accumulator: f32,
    /// Ticks run since the crowd started from the CPU simulation.
    pub ticks: u64,
    /// The crowd runs on the device the window paints with: drawn from its own buffer.
    shared: bool,
    /// How its agents reach the screen, as the toolbar says it.
    how: &'static str,
    /// When the batch of ticks running now was queued.
    queued: Option<Instant>,
    /// How long the last finished batch took, from queued to seen finished.
    last_batch: Duration,
    /// On a device of its own: the agents read back this frame, as vehicles to draw (their
    /// other numbers from the simulation the crowd started from), and their groups.
    shown: Vec<Vehicle>,
    groups: Vec<usize>,
}

impl Run {
    /// A crowd of the host's simulation as it is: on the window's device when the window
    /// paints with wgpu (`renderer`) on a real GPU (or a software one, `share_software`),
    /// drawn from its buffers; else on the best adapter of its own, read back. A software
    /// device's ticks run on the CPU's cores and may take seconds for a dense crowd: on a
    /// device of its own they never hold up the window's drawing.
    pub fn start(
        renderer: Option<&RenderState>,
        share_software: bool,
        host: &mut Host,
    ) -> Result<Self, String> {
        // A large crowd's ticks run on the worker one after another: wait for the one under
        // way (at most a tick) rather than refuse.
        host.settle();
        let software = |state: &RenderState| {
            state.adapter.get_info().device_type == eframe::egui_wgpu::wgpu::DeviceType::Cpu
        };
        let (gpu, how) = match renderer {
            Some(state) if share_software || !software(state) => {
                super::paint::install(state);
                let gpu = Gpu::from_device(
                    state.adapter.get_info(),
                    state.device.clone(),
                    state.queue.clone(),
                );
                (gpu, DRAWN)
            }
            Some(_) => (
                own()?,
                "read back: a software device, apart from the window's",
            ),
            None => (own()?, "read back: the window paints with OpenGL"),
        };
        Self::on(gpu, how, host)
    }

    fn on(gpu: Gpu, how: &'static str, host: &Host) -> Result<Self, String> {
        let shared = how == DRAWN;
        let simulation = running(host)?;
        let adapter = (gpu.describe(), gpu.name().to_owned());
        let crowd = GpuCrowd::new(gpu, simulation).map_err(|e| e.to_string())?;
        let mut run = Self {
            crowd,
            adapter,
            accumulator: 0.0,
            ticks: 0,
            shared,
            how,
            queued: None,
            // Unmeasured: one tick until a batch shows the device is fast.
            last_batch: Duration::MAX,
            shown: Vec::new(),
            groups: Vec::new(),
        };
        if !shared {
            run.shown = simulation.vehicles().to_vec();
            run.groups = (0..run.shown.len())
                .map(|agent| simulation.group_of(agent).unwrap_or(0))
                .collect();
        }
        Ok(run)
    }

    /// What the toolbar's tooltip says while on: the adapter in full and how the agents
    /// reach the screen.
    pub fn status(&self) -> String {
        format!("on the GPU: {} ({})", self.adapter.0, self.how)
    }

    /// What the toolbar says while on, in one short line.
    pub fn summary(&self) -> String {
        let how = if self.shared {
            "drawn from its buffers"
        } else {
            "read back"
        };
        format!("on the GPU: {}, {how}", self.adapter.1)
    }

    /// Moves the target `name`, for graphs that read it.
    pub fn move_target(&mut self, name: &str, to: Vec2) {
        self.crowd.move_target(name, to);
    }

    /// Runs the ticks due after `frame_seconds` at the host's time scale, while it runs. Paced
    /// by the budget (the window), nothing is queued while the last frame's ticks are still
    /// running: a slow device lags real time but never holds up the window or gathers a
    /// backlog. Paced exactly (tests), every tick due runs. Read back, the agents shown are
    /// those of the ticks that finished, taken before the next are queued.
    pub fn advance(
        &mut self,
        host: &Host,
        frame_seconds: f32,
        pacing: Pacing,
    ) -> Result<(), String> {
        if pacing == Pacing::Budgeted && !self.crowd.is_idle() {
            return Ok(());
        }
        if let Some(queued) = self.queued.take() {
            self.last_batch = queued.elapsed();
        }
        self.refresh()?;
        if !host.running {
            return Ok(());
        }
        let tick = host.tick_length();
        self.accumulator += frame_seconds.min(0.25) * host.time_scale;
        let due = (self.accumulator / tick).floor().max(0.0) as u32;
        // In the window, a device slower than a frame's budget takes one tick a batch, so an
        // edit or the switch waits for one tick at most.
        let most = if pacing == Pacing::Budgeted && self.last_batch > SLOW_BATCH {
            1
        } else {
            MAX_TICKS_PER_FRAME
        };
        let ticks = due.min(most);
        self.accumulator = if due > MAX_TICKS_PER_FRAME {
            // Behind real time: drop the backlog rather than chase it.
            0.0
        } else {
            self.accumulator - ticks as f32 * tick
        };
        self.crowd.step(tick, ticks);
        self.ticks += u64::from(ticks);
        if ticks > 0 {
            self.queued = Some(Instant::now());
        }
        Ok(())
    }

    /// Queues `ticks` ticks of `dt`, then reads the agents back if they are drawn that way.
    pub fn step(&mut self, dt: f32, ticks: u32) -> Result<(), String> {
        self.crowd.step(dt, ticks);
        self.ticks += u64::from(ticks);
        self.refresh()
    }

    /// On a device of its own: the agents read back for this frame's drawing.
    fn refresh(&mut self) -> Result<(), String> {
        if self.shared {
            return Ok(());
        }
        let agents = self.crowd.agents().map_err(|e| e.to_string())?;
        for (vehicle, agent) in self.shown.iter_mut().zip(&agents) {
            vehicle.position = Vec2::from(agent.position);
            vehicle.velocity = Vec2::from(agent.velocity);
            vehicle.forward = Vec2::from(agent.forward);
        }
        Ok(())
    }

    /// Carries the agents back to the host's simulation (the switch goes off).
    pub fn carry_back(self, host: &mut Host) -> Result<(), String> {
        if host.adopt_motion(&self.motion()?) {
            Ok(())
        } else {
            Err(
                "the scene changed while on the GPU; the agents stay where the CPU had them"
                    .to_owned(),
            )
        }
    }

    /// An edit: the agents carried back, `edit` applied to the host, and a crowd of what it
    /// runs then, on the same device.
    pub fn follow_edit(
        self,
        host: &mut Host,
        edit: impl FnOnce(&mut Host),
    ) -> Result<Self, String> {
        host.adopt_motion(&self.motion()?);
        self.restart(host, edit)
    }

    /// The agents as the screen shows them: read back from the window's device (waiting for
    /// the ticks queued, fast on a real GPU), or the ones read back last, without waiting for
    /// a slow device's tick under way (it is dropped).
    fn motion(&self) -> Result<Vec<Motion>, String> {
        if self.shared {
            let agents = self.crowd.agents().map_err(|e| e.to_string())?;
            return Ok(agents.iter().map(motion).collect());
        }
        Ok((self.shown.iter())
            .map(|v| Motion {
                position: v.position,
                velocity: v.velocity,
                forward: v.forward,
            })
            .collect())
    }

    /// `change` applied to the host (a reset, an edit), then a crowd of what it runs, on the
    /// same device.
    pub fn restart(self, host: &mut Host, change: impl FnOnce(&mut Host)) -> Result<Self, String> {
        change(host);
        let how = self.how;
        let gpu = self.crowd.into_gpu();
        Self::on(gpu, how, host)
    }

    /// Draws the agents: from the crowd's buffer on the window's device, else the ones read
    /// back last as `agents` draws the CPU's (instances, or a mesh where it cannot).
    pub fn paint(&self, painter: &Painter, screen: Rect, view: &View, agents: &GpuAgents) {
        if self.shared {
            super::paint::add(painter, screen, view, &self.crowd);
            return;
        }
        let group_of = |agent: usize| self.groups.get(agent).copied().unwrap_or(0);
        if !agents.paint(painter, screen, view, &self.shown, &[], group_of) {
            let mesh = super::super::view::agent_mesh(screen, view, &self.shown, &[], group_of);
            painter.add(egui::Shape::mesh(mesh));
        }
    }
}

/// What the toolbar says of a crowd drawn from its own buffers.
const DRAWN: &str = "drawn from its buffers";

/// A device of the crowd's own.
fn own() -> Result<Gpu, String> {
    Gpu::new().map_err(|e| e.to_string())
}

/// The host's simulation, when it runs (no tick under way on its worker: the caller settled
/// it) and no replay is being checked.
fn running(host: &Host) -> Result<&Simulation, String> {
    if host.replaying() {
        return Err("a replay is being checked tick by tick on the CPU".to_owned());
    }
    (host.simulation.as_ref()).ok_or_else(|| "the scene does not run (see its problems)".to_owned())
}

fn motion(agent: &GpuAgent) -> Motion {
    Motion {
        position: Vec2::from(agent.position),
        velocity: Vec2::from(agent.velocity),
        forward: Vec2::from(agent.forward),
    }
}
