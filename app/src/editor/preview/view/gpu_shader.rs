//! The GL side of the preview's GPU agents (`gpu_agents.rs`): the shader that makes each
//! agent's triangle (and facing line and dot) from its instance, its vertex array and instance
//! buffer, the upload and the instanced draws.
#![expect(
    unsafe_code,
    reason = "glow's OpenGL calls are unsafe; each here uses objects this module made on the \
              context eframe paints with, while eframe has it current"
)]

use eframe::egui_glow;
use eframe::glow::{self, HasContext as _};

use super::instances::AgentInstance;

/// Attribute names, in location order, with their size, type, whether normalized, and offset.
const ATTRIBUTES: [(&str, i32, u32, bool, usize); 6] = [
    (
        "a_position",
        2,
        glow::FLOAT,
        false,
        std::mem::offset_of!(AgentInstance, position),
    ),
    (
        "a_forward",
        2,
        glow::FLOAT,
        false,
        std::mem::offset_of!(AgentInstance, forward),
    ),
    (
        "a_facing",
        2,
        glow::FLOAT,
        false,
        std::mem::offset_of!(AgentInstance, facing),
    ),
    (
        "a_radius",
        1,
        glow::FLOAT,
        false,
        std::mem::offset_of!(AgentInstance, radius),
    ),
    (
        "a_lift",
        1,
        glow::FLOAT,
        false,
        std::mem::offset_of!(AgentInstance, lift),
    ),
    (
        "a_color",
        4,
        glow::UNSIGNED_BYTE,
        true,
        std::mem::offset_of!(AgentInstance, color),
    ),
];

/// Makes an agent's triangle (pass 0: the shape of `agent_mesh`) or its facing line and dot
/// (pass 1: two quads, collapsed to a point without a facing), in points from the
/// viewport's centre, y down, as `View::to_screen` places them.
const VERTEX: &str = r"
in vec2 a_position;
in vec2 a_forward;
in vec2 a_facing;
in float a_radius;
in float a_lift;
in vec4 a_color;
uniform vec2 u_center;
uniform float u_zoom;
uniform vec2 u_half;
uniform int u_pass;
out vec4 v_color;
void main() {
    vec2 offset = (a_position - u_center) * u_zoom;
    vec2 centre = vec2(offset.x, -offset.y - a_lift);
    float size = max(a_radius * u_zoom, 3.0);
    vec2 p = centre;
    if (u_pass == 0) {
        vec2 f = vec2(a_forward.x, -a_forward.y);
        vec2 side = vec2(-f.y, f.x);
        if (gl_VertexID == 0) {
            p = centre + f * (size * 1.6);
        } else if (gl_VertexID == 1) {
            p = centre - f * size + side * (size * 0.9);
        } else {
            p = centre - f * size - side * (size * 0.9);
        }
        v_color = a_color;
    } else {
        vec2 g = vec2(a_facing.x, -a_facing.y);
        vec2 n = vec2(-g.y, g.x);
        vec2 quad[6] = vec2[6](vec2(0.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0),
                               vec2(0.0, -1.0), vec2(1.0, 1.0), vec2(0.0, 1.0));
        vec2 corner = quad[gl_VertexID - (gl_VertexID / 6) * 6];
        float length = size * 1.8;
        if (gl_VertexID < 6) {
            p = centre + g * (corner.x * length) + n * (corner.y * 0.6);
        } else {
            p = centre + g * (length + (corner.x * 2.0 - 1.0) * 1.75) + n * (corner.y * 1.75);
        }
        // Thin and translucent white (premultiplied), so a crowd's marks stay readable.
        v_color = vec4(0.6, 0.6, 0.6, 0.6);
    }
    gl_Position = vec4(p.x / u_half.x, -p.y / u_half.y, 0.0, 1.0);
}
";

const FRAGMENT: &str = r"
in vec4 v_color;
out vec4 f_color;
void main() {
    f_color = v_color;
}
";

/// The shader program, its vertex array and instance buffer.
#[derive(Debug)]
pub(super) struct AgentShader {
    program: glow::Program,
    vertex_array: glow::VertexArray,
    buffer: glow::Buffer,
    /// Bytes the buffer holds.
    capacity: usize,
    center: Option<glow::UniformLocation>,
    zoom: Option<glow::UniformLocation>,
    half: Option<glow::UniformLocation>,
    pass: Option<glow::UniformLocation>,
}

impl AgentShader {
    pub(super) fn new(gl: &glow::Context) -> Result<Self, String> {
        let version = gl.version();
        let instanced = if version.is_embedded {
            version.major >= 3
        } else {
            (version.major, version.minor) >= (3, 3)
        };
        let shading = egui_glow::ShaderVersion::get(gl);
        if !instanced || !shading.is_new_shader_interface() {
            return Err(format!(
                "OpenGL {}.{} has no instanced drawing (3.3 or ES 3.0 needed)",
                version.major, version.minor
            ));
        }
        let program = link(gl, shading)?;
        // SAFETY: called from eframe's paint callback, where `gl` is current on this thread;
        // the program was just linked on it, and the vertex array and buffer are made and
        // bound here, their attribute layout read from `ATTRIBUTES` (offsets inside
        // `AgentInstance`, a `#[repr(C)]` plain-old-data type).
        unsafe {
            let (vertex_array, buffer) = match (gl.create_vertex_array(), gl.create_buffer()) {
                (Ok(vertex_array), Ok(buffer)) => (vertex_array, buffer),
                (vertex_array, buffer) => {
                    gl.delete_program(program);
                    return Err(format!(
                        "no vertex array or buffer for the agents: {:?} {:?}",
                        vertex_array.err(),
                        buffer.err()
                    ));
                }
            };
            gl.bind_vertex_array(Some(vertex_array));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
            let stride = std::mem::size_of::<AgentInstance>() as i32;
            for (location, (_, size, kind, normalized, offset)) in (0_u32..).zip(ATTRIBUTES) {
                gl.enable_vertex_attrib_array(location);
                gl.vertex_attrib_pointer_f32(
                    location,
                    size,
                    kind,
                    normalized,
                    stride,
                    offset as i32,
                );
                gl.vertex_attrib_divisor(location, 1);
            }
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            Ok(Self {
                program,
                vertex_array,
                buffer,
                capacity: 0,
                center: gl.get_uniform_location(program, "u_center"),
                zoom: gl.get_uniform_location(program, "u_zoom"),
                half: gl.get_uniform_location(program, "u_half"),
                pass: gl.get_uniform_location(program, "u_pass"),
            })
        }
    }

    /// Uploads `instances` and draws their triangles, then the facing lines if `facings`.
    pub(super) fn draw(
        &mut self,
        gl: &glow::Context,
        instances: &[AgentInstance],
        facings: usize,
        half: egui::Vec2,
        (center, zoom): (glam::Vec2, f32),
    ) {
        let Ok(count) = i32::try_from(instances.len()) else {
            return;
        };
        if count == 0 || !(half.x > 0.0 && half.y > 0.0) {
            return;
        }
        let bytes: &[u8] = bytemuck::cast_slice(instances);
        // SAFETY: called from eframe's paint callback with `gl` current; program, vertex array
        // and buffer are this module's, made on the same context; the buffer is resized to at
        // least `bytes.len()` before `bytes` is written at offset 0, and the draws read
        // `count` instances, all of them in it.
        unsafe {
            gl.use_program(Some(self.program));
            gl.uniform_2_f32(self.center.as_ref(), center.x, center.y);
            gl.uniform_1_f32(self.zoom.as_ref(), zoom);
            gl.uniform_2_f32(self.half.as_ref(), half.x, half.y);
            gl.bind_vertex_array(Some(self.vertex_array));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.buffer));
            // A fresh store each frame (the driver need not wait for last frame's draw), grown
            // to a power of two so that a changing count rarely changes its size.
            self.capacity = self.capacity.max(bytes.len().next_power_of_two());
            gl.buffer_data_size(
                glow::ARRAY_BUFFER,
                i32::try_from(self.capacity).unwrap_or(i32::MAX),
                glow::STREAM_DRAW,
            );
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, bytes);
            gl.uniform_1_i32(self.pass.as_ref(), 0);
            gl.draw_arrays_instanced(glow::TRIANGLES, 0, 3, count);
            if facings > 0 {
                gl.uniform_1_i32(self.pass.as_ref(), 1);
                gl.draw_arrays_instanced(glow::TRIANGLES, 0, 12, count);
            }
            gl.bind_vertex_array(None);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
        }
    }

    pub(super) fn destroy(self, gl: &glow::Context) {
        // SAFETY: eframe's exit hook calls this with the context the objects were made on
        // current, once (`self` is consumed): nothing uses them after.
        unsafe {
            gl.delete_program(self.program);
            gl.delete_vertex_array(self.vertex_array);
            gl.delete_buffer(self.buffer);
        }
    }
}

/// The agents' shader program, compiled and linked for `shading`, attributes at their
/// locations in [`ATTRIBUTES`].
fn link(gl: &glow::Context, shading: egui_glow::ShaderVersion) -> Result<glow::Program, String> {
    let precision = if shading.is_embedded() {
        "precision highp float;\nprecision highp int;\n"
    } else {
        ""
    };
    // SAFETY: called with `gl` current (from `new`, inside the paint callback); every object
    // is made here on that context and deleted on each failure path before returning.
    unsafe {
        let program = gl.create_program()?;
        let mut shaders = Vec::new();
        for (kind, source) in [
            (glow::VERTEX_SHADER, VERTEX),
            (glow::FRAGMENT_SHADER, FRAGMENT),
        ] {
            let shader = gl.create_shader(kind)?;
            let declaration = shading.version_declaration();
            gl.shader_source(shader, &format!("{declaration}{precision}{source}"));
            gl.compile_shader(shader);
            if !gl.get_shader_compile_status(shader) {
                let log = gl.get_shader_info_log(shader);
                gl.delete_shader(shader);
                for shader in shaders {
                    gl.delete_shader(shader);
                }
                gl.delete_program(program);
                return Err(format!("the agents' shader does not compile: {log}"));
            }
            gl.attach_shader(program, shader);
            shaders.push(shader);
        }
        for (location, (name, ..)) in (0_u32..).zip(ATTRIBUTES) {
            gl.bind_attrib_location(program, location, name);
        }
        gl.link_program(program);
        for shader in shaders {
            gl.detach_shader(program, shader);
            gl.delete_shader(shader);
        }
        if !gl.get_program_link_status(program) {
            let log = gl.get_program_info_log(program);
            gl.delete_program(program);
            return Err(format!("the agents' shader does not link: {log}"));
        }
        Ok(program)
    }
}
