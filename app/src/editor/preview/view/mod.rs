//! The viewport's camera (world units to screen points, y up) and the painting of the world,
//! agents and debug guides.

mod blocked;
mod facing_guides;
mod ghosts;
mod gpu_agents;
mod gpu_shader;
mod guides;
mod instances;
mod jumps;
mod own;
mod reciprocal;
#[cfg(feature = "gpu")]
mod wgpu_agents;
#[cfg(feature = "gpu")]
pub(super) use wgpu_agents::pipeline;

pub use blocked::BlockedCells;
pub use ghosts::paint_ghosts;
pub use gpu_agents::GpuAgents;
pub use guides::{Guides, paint_guides};
pub use instances::{AgentInstance, agent_instances};
pub use jumps::{
    lifted, paint_facings, paint_falls, paint_flights, paint_gap_draft, paint_jumps,
    paint_link_draft, paint_selected_gap, paint_selected_link,
};
pub use own::{paint_all_routes, paint_navigation, paint_own, paint_routes};
pub use reciprocal::label_lines as reciprocal_label;

use egui::{Color32, Mesh, Painter, Pos2, Rect, Shape, Stroke, vec2};
use glam::Vec2;
use graph_runtime::{FlowField, NodeId, Rect as WorldRect, Vehicle, World};

/// Colors of agent groups, by group index.
const GROUP_COLORS: [Color32; 6] = [
    Color32::from_rgb(120, 190, 255),
    Color32::from_rgb(255, 150, 90),
    Color32::from_rgb(150, 230, 120),
    Color32::from_rgb(230, 120, 220),
    Color32::from_rgb(255, 220, 100),
    Color32::from_rgb(120, 230, 220),
];

/// The color of group `index`.
pub fn group_color(index: usize) -> Color32 {
    GROUP_COLORS[index % GROUP_COLORS.len()]
}

/// The color that marks node `id` in guides and on its header.
pub fn node_color(id: NodeId) -> Color32 {
    let hue = (id.0 as f32 * 0.618_034).fract();
    egui::ecolor::Hsva::new(hue, 0.75, 1.0, 1.0).into()
}

/// Where the camera looks and how close.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// World point at the centre of the viewport.
    pub center: Vec2,
    /// Screen points per world unit.
    pub zoom: f32,
}

impl Default for View {
    fn default() -> Self {
        Self {
            center: Vec2::ZERO,
            zoom: 5.0,
        }
    }
}

impl View {
    /// A view showing all of `bounds` inside `screen`, with a margin.
    pub fn fit(bounds: WorldRect, screen: Rect) -> Self {
        let size = bounds.size().max(Vec2::splat(1.0));
        let zoom = (screen.width() / size.x).min(screen.height() / size.y) * 0.92;
        Self {
            center: (bounds.min + bounds.max) * 0.5,
            zoom: zoom.max(0.01),
        }
    }

    /// World to screen.
    pub fn to_screen(self, screen: Rect, p: Vec2) -> Pos2 {
        let offset = (p - self.center) * self.zoom;
        screen.center() + vec2(offset.x, -offset.y)
    }

    /// Screen to world.
    pub fn to_world(self, screen: Rect, p: Pos2) -> Vec2 {
        let offset = p - screen.center();
        self.center + Vec2::new(offset.x, -offset.y) / self.zoom
    }

    /// Zooms by `factor` keeping the world point under `anchor` still.
    pub fn zoom_around(&mut self, screen: Rect, anchor: Pos2, factor: f32) {
        let before = self.to_world(screen, anchor);
        self.zoom = (self.zoom * factor).clamp(0.05, 400.0);
        let after = self.to_world(screen, anchor);
        self.center += before - after;
    }

    /// Moves the view by a screen-space drag.
    pub fn pan(&mut self, delta: egui::Vec2) {
        self.center -= Vec2::new(delta.x, -delta.y) / self.zoom;
    }
}

/// Paints bounds, obstacles, paths, named targets, flow fields and the cells walls block in
/// them (kept in `blocked` between frames).
pub fn paint_world(
    painter: &Painter,
    screen: Rect,
    view: &View,
    world: &World,
    arrows_colored: bool,
    blocked: &mut BlockedCells,
) {
    let s = |p: Vec2| view.to_screen(screen, p);
    let bounds = Rect::from_two_pos(s(world.bounds.min), s(world.bounds.max));
    painter.rect_stroke(
        bounds,
        0.0,
        Stroke::new(1.0, Color32::from_gray(110)),
        egui::StrokeKind::Middle,
    );
    for (_, field) in world.flow_fields() {
        paint_flow_field(painter, screen, view, field, arrows_colored);
    }
    blocked.paint(painter, screen, view, world);
    let wall = Stroke::new(3.0, Color32::from_rgb(200, 190, 170));
    for (from, to) in world.walls().iter().flat_map(graph_runtime::Wall::segments) {
        painter.line_segment([s(from), s(to)], wall);
    }
    for (_, path) in world.paths() {
        let mut points: Vec<Pos2> = path.points.iter().map(|p| s(*p)).collect();
        if path.closed
            && let Some(first) = points.first().copied()
        {
            points.push(first);
        }
        let width = (path.radius * 2.0 * view.zoom).max(1.0);
        painter.add(Shape::line(
            points.clone(),
            Stroke::new(width, Color32::from_rgba_unmultiplied(90, 160, 110, 40)),
        ));
        painter.add(Shape::line(
            points.clone(),
            Stroke::new(1.5, Color32::from_rgb(90, 190, 120)),
        ));
        for point in points {
            painter.circle_filled(point, 3.0, Color32::from_rgb(90, 190, 120));
        }
    }
    for obstacle in &world.obstacles {
        painter.circle(
            s(obstacle.center),
            obstacle.radius * view.zoom,
            Color32::from_rgb(70, 64, 60),
            Stroke::new(1.5, Color32::from_rgb(150, 130, 110)),
        );
    }
    for (name, position) in world.targets() {
        let p = s(position);
        let color = Color32::from_rgb(255, 230, 120);
        painter.line_segment(
            [p - vec2(7.0, 0.0), p + vec2(7.0, 0.0)],
            Stroke::new(1.5, color),
        );
        painter.line_segment(
            [p - vec2(0.0, 7.0), p + vec2(0.0, 7.0)],
            Stroke::new(1.5, color),
        );
        painter.text(
            p + vec2(8.0, -8.0),
            egui::Align2::LEFT_BOTTOM,
            name,
            egui::FontId::proportional(12.0),
            color,
        );
    }
}

fn paint_flow_field(
    painter: &Painter,
    screen: Rect,
    view: &View,
    field: &FlowField,
    colored: bool,
) {
    let s = |p: Vec2| view.to_screen(screen, p);
    let cell_pixels = field.cell_size * view.zoom;
    // Thin the arrows when zoomed out: at least ~14 points between arrows.
    let step = ((14.0 / cell_pixels.max(0.01)).ceil() as u32).max(1);
    let grid_max =
        field.origin + Vec2::new(field.width as f32, field.height as f32) * field.cell_size;
    painter.rect_stroke(
        Rect::from_two_pos(s(field.origin), s(grid_max)),
        0.0,
        Stroke::new(1.0, Color32::from_rgba_unmultiplied(120, 140, 200, 90)),
        egui::StrokeKind::Middle,
    );
    let visible = screen.expand(20.0);
    for row in (0..field.height).step_by(step as usize) {
        for column in (0..field.width).step_by(step as usize) {
            let Some(vector) = field.cell(column, row) else {
                continue;
            };
            let centre = field.cell_center(column, row);
            let from = s(centre);
            if !visible.contains(from) || vector.length() < 1e-4 {
                continue;
            }
            let length = field.cell_size * step as f32 * 0.45;
            let to = s(centre + vector * length);
            let color = if colored {
                let hue = (vector.y.atan2(vector.x) / std::f32::consts::TAU).rem_euclid(1.0);
                egui::ecolor::Hsva::new(hue, 0.6, 0.9, 0.8).into()
            } else {
                Color32::from_rgba_unmultiplied(140, 160, 220, 150)
            };
            painter.arrow(from, to - from, Stroke::new(1.0, color));
        }
    }
}

/// Every visible agent as a triangle pointing along its heading, in one mesh (one draw call
/// however many agents); an agent in the air (`airborne`, ascending by agent, with heights) is
/// lifted by its height.
pub fn agent_mesh(
    screen: Rect,
    view: &View,
    vehicles: &[Vehicle],
    airborne: &[(usize, f32)],
    group_of: impl Fn(usize) -> usize,
) -> Mesh {
    let mut mesh = Mesh::default();
    mesh.reserve_triangles(vehicles.len());
    mesh.reserve_vertices(vehicles.len() * 3);
    let visible = screen.expand(10.0);
    for (index, vehicle) in vehicles.iter().enumerate() {
        let mut centre = view.to_screen(screen, vehicle.position);
        if !airborne.is_empty()
            && let Ok(found) = airborne.binary_search_by_key(&index, |(agent, _)| *agent)
        {
            centre += lifted(view, airborne[found].1);
        }
        if !visible.contains(centre) {
            continue;
        }
        let size = (vehicle.radius * view.zoom).max(3.0);
        let forward = vec2(vehicle.forward.x, -vehicle.forward.y);
        let side = vec2(-forward.y, forward.x);
        let tip = centre + forward * size * 1.6;
        let left = centre - forward * size + side * size * 0.9;
        let right = centre - forward * size - side * size * 0.9;
        let color = group_color(group_of(index));
        let base = mesh.vertices.len() as u32;
        for point in [tip, left, right] {
            mesh.colored_vertex(point, color);
        }
        mesh.add_triangle(base, base + 1, base + 2);
    }
    mesh
}

/// The color that marks stuck agents.
pub const STUCK_COLOR: Color32 = Color32::from_rgb(255, 140, 40);

/// A thick orange ring with a gap at the top, around every visible stuck agent: the deadlocks
/// a designer should see rather than guess.
pub fn paint_stuck_agents(
    painter: &Painter,
    screen: Rect,
    view: &View,
    vehicles: &[Vehicle],
    stuck: &[usize],
) {
    let visible = screen.expand(20.0);
    for vehicle in stuck.iter().filter_map(|&agent| vehicles.get(agent)) {
        let centre = view.to_screen(screen, vehicle.position);
        if visible.contains(centre) {
            let radius = (vehicle.radius * view.zoom).max(3.0) + 3.0;
            painter.circle_stroke(centre, radius, Stroke::new(2.5, STUCK_COLOR));
        }
    }
}

/// The ring around the selected agent.
pub fn paint_selected_agent(painter: &Painter, screen: Rect, view: &View, vehicle: &Vehicle) {
    let centre = view.to_screen(screen, vehicle.position);
    painter.circle_stroke(
        centre,
        (vehicle.radius * view.zoom).max(3.0) + 5.0,
        Stroke::new(1.5, Color32::WHITE),
    );
}
