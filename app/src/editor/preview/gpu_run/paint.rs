//! The GPU crowd drawn from its own buffer on the window's wgpu device: one triangle per
//! agent, made in a vertex shader that reads the agent (`steergraph_gpu::GpuAgent`) from the
//! crowd's storage buffer, in one instanced draw through an egui paint callback. The shape is
//! the CPU's (`view::agent_mesh`): 1.6 radii ahead, 1 behind, 0.9 to each side, at least 3
//! points across; colored by group as the CPU colors them.

use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, RenderState, wgpu};
use egui::{Painter, Rect};
use steergraph_gpu::GpuCrowd;

use super::super::View;
use super::super::view::{group_color, pipeline};

/// Group colors the shader holds (groups beyond take them again, as `group_color` does).
const COLORS: usize = 16;

const SHADER: &str = r"
struct Agent {
    position: vec2<f32>,
    velocity: vec2<f32>,
    forward: vec2<f32>,
    mass: f32,
    max_force: f32,
    max_speed: f32,
    radius: f32,
    group: u32,
    pad: u32,
}

struct Camera {
    center: vec2<f32>,
    half: vec2<f32>,
    zoom: f32,
    colors: u32,
    pad: vec2<f32>,
    color: array<vec4<f32>, 16>,
}

@group(0) @binding(0) var<storage, read> agents: array<Agent>;
@group(0) @binding(1) var<uniform> camera: Camera;

struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
}

@vertex
fn vs(@builtin(vertex_index) corner: u32, @builtin(instance_index) index: u32) -> Out {
    let agent = agents[index];
    let offset = (agent.position - camera.center) * camera.zoom;
    let centre = vec2<f32>(offset.x, -offset.y);
    let size = max(agent.radius * camera.zoom, 3.0);
    let f = vec2<f32>(agent.forward.x, -agent.forward.y);
    let side = vec2<f32>(-f.y, f.x);
    var p = centre + f * (size * 1.6);
    if corner == 1u {
        p = centre - f * size + side * (size * 0.9);
    } else if corner == 2u {
        p = centre - f * size - side * (size * 0.9);
    }
    var out: Out;
    out.position = vec4<f32>(p.x / camera.half.x, -p.y / camera.half.y, 0.0, 1.0);
    out.color = camera.color[agent.group % camera.colors];
    return out;
}

@fragment
fn paint(in: Out) -> @location(0) vec4<f32> {
    return in.color;
}
";

/// The camera and group colors, as the shader's `Camera`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Camera {
    center: [f32; 2],
    half: [f32; 2],
    zoom: f32,
    colors: u32,
    pad: [f32; 2],
    color: [[f32; 4]; COLORS],
}

/// The pipeline, kept in the renderer's callback resources, with this frame's bind group.
struct Resources {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    camera: wgpu::Buffer,
    bound: Option<(wgpu::BindGroup, u32)>,
}

/// Makes the pipeline for the window's target format, once.
pub(super) fn install(state: &RenderState) {
    let mut renderer = state.renderer.write();
    if renderer.callback_resources.contains::<Resources>() {
        return;
    }
    let device = &state.device;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("preview crowd"),
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    });
    let entry = |binding, visibility, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty,
        count: None,
    };
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("preview crowd"),
        entries: &[
            entry(
                0,
                wgpu::ShaderStages::VERTEX,
                wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: true },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
            ),
            entry(
                1,
                wgpu::ShaderStages::VERTEX,
                wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
            ),
        ],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("preview crowd"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipeline = pipeline(
        device,
        &pipeline_layout,
        (&module, "vs", &[]),
        state.target_format,
    );
    let camera = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("preview crowd camera"),
        size: std::mem::size_of::<Camera>() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    renderer.callback_resources.insert(Resources {
        pipeline,
        layout,
        camera,
        bound: None,
    });
}

/// One frame's draw: the crowd's present buffer and the camera.
struct Draw {
    agents: wgpu::Buffer,
    count: u32,
    camera: Camera,
}

/// Adds the crowd's agents to `painter` over `screen`, as `view` sees them.
pub(super) fn add(painter: &Painter, screen: Rect, view: &View, crowd: &GpuCrowd) {
    let mut color = [[0.0; 4]; COLORS];
    for (group, slot) in color.iter_mut().enumerate() {
        let [r, g, b, a] = group_color(group).to_array();
        *slot = [r, g, b, a].map(|c| f32::from(c) / 255.0);
    }
    let half = screen.size() * 0.5;
    let draw = Draw {
        agents: crowd.agent_buffer().clone(),
        count: crowd.len() as u32,
        camera: Camera {
            center: view.center.to_array(),
            half: [half.x, half.y],
            zoom: view.zoom,
            colors: COLORS as u32,
            pad: [0.0; 2],
            color,
        },
    };
    painter.add(egui_wgpu::Callback::new_paint_callback(screen, draw));
}

impl CallbackTrait for Draw {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(pipeline) = resources.get_mut::<Resources>() else {
            return Vec::new();
        };
        queue.write_buffer(&pipeline.camera, 0, bytemuck::bytes_of(&self.camera));
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("preview crowd"),
            layout: &pipeline.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.agents.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: pipeline.camera.as_entire_binding(),
                },
            ],
        });
        pipeline.bound = Some((group, self.count));
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        let Some(pipeline) = resources.get::<Resources>() else {
            return;
        };
        let Some((group, count)) = &pipeline.bound else {
            return;
        };
        pass.set_pipeline(&pipeline.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..*count);
    }
}
