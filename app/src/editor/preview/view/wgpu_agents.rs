//! The preview's agents drawn by wgpu (a `gpu` build paints its window with it): the same
//! instances ([`AgentInstance`]) and the same shapes as the OpenGL shader of `gpu_shader.rs`
//! (each agent's triangle, then its facing line and dot), as a vertex buffer stepped per
//! instance, in two instanced draws through an egui paint callback.

use std::sync::Arc;

use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, RenderState, wgpu};
use egui::{Painter, Rect};

use super::instances::AgentInstance;

/// The triangle (`body`) and the facing line and dot (`facing`: two quads, collapsed to a
/// point without a facing), in points from the viewport's centre, y down, as the OpenGL
/// shader makes them.
const SHADER: &str = r"
struct Camera {
    center: vec2<f32>,
    half: vec2<f32>,
    zoom: f32,
    pad0: f32,
    pad1: f32,
    pad2: f32,
}

@group(0) @binding(0) var<uniform> camera: Camera;

struct Agent {
    @location(0) position: vec2<f32>,
    @location(1) forward: vec2<f32>,
    @location(2) facing: vec2<f32>,
    @location(3) radius: f32,
    @location(4) lift: f32,
    @location(5) color: vec4<f32>,
}

struct Out {
    @builtin(position) position: vec4<f32>,
    @location(0) color: vec4<f32>,
}

fn centre_of(agent: Agent) -> vec2<f32> {
    let offset = (agent.position - camera.center) * camera.zoom;
    return vec2<f32>(offset.x, -offset.y - agent.lift);
}

fn clip(p: vec2<f32>) -> vec4<f32> {
    return vec4<f32>(p.x / camera.half.x, -p.y / camera.half.y, 0.0, 1.0);
}

@vertex
fn body(@builtin(vertex_index) corner: u32, agent: Agent) -> Out {
    let centre = centre_of(agent);
    let size = max(agent.radius * camera.zoom, 3.0);
    let f = vec2<f32>(agent.forward.x, -agent.forward.y);
    let side = vec2<f32>(-f.y, f.x);
    var p = centre + f * (size * 1.6);
    if corner == 1u {
        p = centre - f * size + side * (size * 0.9);
    } else if corner == 2u {
        p = centre - f * size - side * (size * 0.9);
    }
    return Out(clip(p), agent.color);
}

@vertex
fn facing(@builtin(vertex_index) corner: u32, agent: Agent) -> Out {
    let centre = centre_of(agent);
    let size = max(agent.radius * camera.zoom, 3.0);
    let g = vec2<f32>(agent.facing.x, -agent.facing.y);
    let n = vec2<f32>(-g.y, g.x);
    var quad = array<vec2<f32>, 6>(vec2(0.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0),
                                   vec2(0.0, -1.0), vec2(1.0, 1.0), vec2(0.0, 1.0));
    let c = quad[corner % 6u];
    let length = size * 1.8;
    var p = centre + g * (c.x * length) + n * (c.y * 0.6);
    if corner >= 6u {
        p = centre + g * (length + (c.x * 2.0 - 1.0) * 1.75) + n * (c.y * 1.75);
    }
    // Thin and translucent white (premultiplied), so a crowd's marks stay readable.
    return Out(clip(p), vec4<f32>(0.6, 0.6, 0.6, 0.6));
}

@fragment
fn paint(in: Out) -> @location(0) vec4<f32> {
    return in.color;
}
";

/// The camera, as the shader's `Camera`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Camera {
    center: [f32; 2],
    half: [f32; 2],
    zoom: f32,
    pad: [f32; 3],
}

/// The pipelines and buffers, kept in the renderer's callback resources.
struct Resources {
    body: wgpu::RenderPipeline,
    facing: wgpu::RenderPipeline,
    camera: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    /// The instances, grown to a power of two of bytes as crowds grow.
    instances: Option<wgpu::Buffer>,
    /// Instances and facing lines this frame.
    drawn: (u32, usize),
}

/// Makes the pipelines for the window's target format, once.
pub fn install(state: &RenderState) {
    let mut renderer = state.renderer.write();
    if renderer.callback_resources.contains::<Resources>() {
        return;
    }
    let device = &state.device;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("preview agents"),
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    });
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("preview agents"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    });
    let camera = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("preview agents camera"),
        size: std::mem::size_of::<Camera>() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("preview agents"),
        layout: &layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: camera.as_entire_binding(),
        }],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("preview agents"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let attributes = wgpu::vertex_attr_array![
        0 => Float32x2, 1 => Float32x2, 2 => Float32x2, 3 => Float32, 4 => Float32, 5 => Unorm8x4
    ];
    let buffers = [Some(wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<AgentInstance>() as u64,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &attributes,
    })];
    let pipeline = |entry| {
        let vertex = (&module, entry, &buffers[..]);
        pipeline(device, &pipeline_layout, vertex, state.target_format)
    };
    let (body, facing) = (pipeline("body"), pipeline("facing"));
    renderer.callback_resources.insert(Resources {
        body,
        facing,
        camera,
        bind_group,
        instances: None,
        drawn: (0, 0),
    });
}

/// A pipeline of triangles drawn over egui's (premultiplied alpha) in `format`, from the
/// vertex entry point `(module, entry, buffers)` and the module's fragment entry `paint`.
pub fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    (module, entry, buffers): (
        &wgpu::ShaderModule,
        &str,
        &[Option<wgpu::VertexBufferLayout<'_>>],
    ),
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(entry),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            buffers,
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some("paint"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// One frame's agents.
struct Draw {
    instances: Arc<Vec<AgentInstance>>,
    facings: usize,
    camera: Camera,
}

/// Adds `instances` (with `facings` facing lines) to `painter` over `screen`, seen from the
/// camera `(centre, zoom)`.
pub fn add(
    painter: &Painter,
    screen: Rect,
    instances: Arc<Vec<AgentInstance>>,
    facings: usize,
    (center, zoom): (glam::Vec2, f32),
) {
    let half = screen.size() * 0.5;
    let draw = Draw {
        instances,
        facings,
        camera: Camera {
            center: center.to_array(),
            half: [half.x, half.y],
            zoom,
            pad: [0.0; 3],
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
        let Some(resources) = resources.get_mut::<Resources>() else {
            return Vec::new();
        };
        resources.drawn = (0, 0);
        let bytes: &[u8] = bytemuck::cast_slice(&self.instances);
        let Ok(count) = u32::try_from(self.instances.len()) else {
            return Vec::new();
        };
        if bytes.is_empty() {
            return Vec::new();
        }
        let fits = (resources.instances.as_ref()).is_some_and(|b| b.size() >= bytes.len() as u64);
        if !fits {
            resources.instances = Some(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("preview agents"),
                size: (bytes.len() as u64).next_power_of_two(),
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        if let Some(buffer) = &resources.instances {
            queue.write_buffer(buffer, 0, bytes);
            queue.write_buffer(&resources.camera, 0, bytemuck::bytes_of(&self.camera));
            resources.drawn = (count, self.facings);
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        let Some(resources) = resources.get::<Resources>() else {
            return;
        };
        let (Some(buffer), (count, facings)) = (&resources.instances, resources.drawn) else {
            return;
        };
        if count == 0 {
            return;
        }
        pass.set_bind_group(0, &resources.bind_group, &[]);
        pass.set_vertex_buffer(0, buffer.slice(..));
        pass.set_pipeline(&resources.body);
        pass.draw(0..3, 0..count);
        if facings > 0 {
            pass.set_pipeline(&resources.facing);
            pass.draw(0..12, 0..count);
        }
    }
}
