//! Agents drawn on the GPU: one instance per agent ([`AgentInstance`], 36 bytes) uploaded each
//! frame, and a vertex shader that makes each agent's triangle (and its facing line and dot)
//! from it, in one instanced draw through an egui paint callback on eframe's glow context.
//! The CPU's share of drawing 100,000 agents is then a copy of 3.6 MB, where building egui
//! shapes for them took a mesh of 300,000 vertices (`BENCHMARKS.md`, "Preview drawing").
//!
//! A `gpu` build whose window paints with wgpu draws the same instances with wgpu
//! (`wgpu_agents.rs`). Without either (tests), with OpenGL older than 3.3 (or ES 3.0),
//! a shader the driver refuses, or `STEERGRAPH_CPU_AGENTS=1` in the environment, the viewport
//! paints the same triangles as an egui mesh ([`agent_mesh`](super::agent_mesh)). The GL side
//! (shader, buffers, draw calls) is `gpu_shader.rs`.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use eframe::egui_glow;
use eframe::glow;
use egui::{Painter, Rect};
use graph_runtime::Vehicle;

use super::View;
use super::gpu_shader::AgentShader;
use super::instances::{AgentInstance, agent_instances};

/// Agents on the GPU, shared between the frame that fills their instances and the paint
/// callback that draws them.
#[derive(Debug)]
pub struct GpuAgents {
    shared: Arc<Mutex<Shared>>,
    /// Whether eframe paints with wgpu (a `gpu` build), the pipelines made on its device.
    #[cfg(feature = "gpu")]
    wgpu: bool,
    /// Whether eframe paints with glow (set every frame).
    available: bool,
    /// `STEERGRAPH_CPU_AGENTS` is set.
    refused: bool,
}

impl Default for GpuAgents {
    fn default() -> Self {
        Self {
            shared: Arc::default(),
            #[cfg(feature = "gpu")]
            wgpu: false,
            available: false,
            refused: std::env::var_os("STEERGRAPH_CPU_AGENTS").is_some(),
        }
    }
}

/// What the frame and the paint callback share.
#[derive(Debug, Default)]
struct Shared {
    instances: Vec<AgentInstance>,
    /// How many instances have a facing line.
    facings: usize,
    shader: Option<AgentShader>,
    /// Why the GPU cannot draw agents, once it was found out.
    failed: Option<String>,
    /// CPU time of the last draw (upload and draw calls), milliseconds.
    draw_ms: Option<f32>,
    /// The instances handed to wgpu last frame, taken back for this one once it drew them.
    #[cfg(feature = "gpu")]
    wgpu_instances: Option<Arc<Vec<AgentInstance>>>,
}

impl GpuAgents {
    /// Tells whether eframe paints with glow this frame (`eframe::Frame::gl`).
    pub fn set_available(&mut self, available: bool) {
        self.available = available;
    }

    /// Tells which wgpu device eframe paints with (`eframe::Frame::wgpu_render_state`): the
    /// agents are drawn by it where glow does not paint.
    #[cfg(feature = "gpu")]
    pub fn set_wgpu(&mut self, state: Option<&eframe::egui_wgpu::RenderState>) {
        if !self.wgpu
            && let Some(state) = state
        {
            super::wgpu_agents::install(state);
            self.wgpu = true;
        }
    }

    /// Whether agents go to the GPU: glow paints, the variable does not refuse it and the
    /// GPU did not fail.
    pub fn usable(&self) -> bool {
        self.available && !self.refused && self.lock().failed.is_none()
    }

    /// How many agents the last frame handed to the GPU (with how many facing lines).
    pub fn instance_count(&self) -> (usize, usize) {
        let shared = self.lock();
        (shared.instances.len(), shared.facings)
    }

    /// CPU time of the last GPU draw of the agents (upload and draw calls), milliseconds.
    pub fn last_draw_ms(&self) -> Option<f32> {
        self.lock().draw_ms
    }

    /// Adds the agents to `painter` as one paint callback over `screen`, if the GPU can draw
    /// them; false when it cannot (the caller paints a mesh).
    pub fn paint(
        &self,
        painter: &Painter,
        screen: Rect,
        view: &View,
        vehicles: &[Vehicle],
        airborne: &[(usize, f32)],
        group_of: impl Fn(usize) -> usize,
    ) -> bool {
        #[cfg(feature = "gpu")]
        if !self.usable() && !self.refused && self.wgpu {
            self.paint_wgpu(painter, screen, view, vehicles, airborne, group_of);
            return true;
        }
        if !self.usable() {
            return false;
        }
        {
            let mut shared = self.lock();
            let Shared {
                instances, facings, ..
            } = &mut *shared;
            *facings = agent_instances(view, vehicles, airborne, group_of, instances);
        }
        let shared = Arc::clone(&self.shared);
        let camera = (view.center, view.zoom);
        let callback = egui_glow::CallbackFn::new(move |info, painter| {
            let mut shared = shared.lock().unwrap_or_else(PoisonError::into_inner);
            shared.draw(painter.gl(), info.viewport.size() * 0.5, camera);
        });
        painter.add(egui::PaintCallback {
            rect: screen,
            callback: Arc::new(callback),
        });
        true
    }

    /// The agents as one wgpu paint callback (`wgpu_agents.rs`).
    #[cfg(feature = "gpu")]
    fn paint_wgpu(
        &self,
        painter: &Painter,
        screen: Rect,
        view: &View,
        vehicles: &[Vehicle],
        airborne: &[(usize, f32)],
        group_of: impl Fn(usize) -> usize,
    ) {
        let started = Instant::now();
        let mut shared = self.lock();
        let mut instances = (shared.wgpu_instances.take())
            .and_then(|last| Arc::try_unwrap(last).ok())
            .unwrap_or_default();
        let facings = agent_instances(view, vehicles, airborne, group_of, &mut instances);
        let instances = Arc::new(instances);
        shared.wgpu_instances = Some(Arc::clone(&instances));
        shared.facings = facings;
        shared.draw_ms = Some(started.elapsed().as_secs_f32() * 1e3);
        drop(shared);
        let camera = (view.center, view.zoom);
        super::wgpu_agents::add(painter, screen, instances, facings, camera);
    }

    /// Frees the GPU objects (when the window closes).
    pub fn destroy(&self, gl: &glow::Context) {
        if let Some(shader) = self.lock().shader.take() {
            shader.destroy(gl);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Shared {
    /// Draws the instances over a viewport `half` its size (points) around the camera
    /// `(centre, zoom)`; makes the program on first use.
    fn draw(&mut self, gl: &glow::Context, half: egui::Vec2, camera: (glam::Vec2, f32)) {
        let started = Instant::now();
        if self.shader.is_none() && self.failed.is_none() {
            match AgentShader::new(gl) {
                Ok(shader) => self.shader = Some(shader),
                Err(why) => {
                    eprintln!("steergraph: agents are drawn without the GPU: {why}");
                    self.failed = Some(why);
                }
            }
        }
        if let Some(shader) = &mut self.shader {
            shader.draw(gl, &self.instances, self.facings, half, camera);
            self.draw_ms = Some(started.elapsed().as_secs_f32() * 1e3);
        }
    }
}
