//! The selected agent's debug guides: which to draw, and their geometry from the trace, each
//! node's in its color.

use egui::{Color32, Painter, Pos2, Rect, Shape, Stroke, vec2};
use glam::Vec2;
use graph_runtime::{Guide, NodeId, NodeValue, Trace, Vehicle};

use super::{View, node_color};

/// Which guides to draw for the selected agent.
#[expect(
    clippy::struct_excessive_bools,
    reason = "one independent toggle per guide, as in the Guides menu"
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Guides {
    /// Velocity.
    pub velocity: bool,
    /// The final steering force.
    pub steering: bool,
    /// Each node's force, in the node's color.
    pub node_forces: bool,
    /// Neighborhood radius and field of view; Reciprocal's velocity-space inset.
    pub neighborhood: bool,
    /// Obstacle-avoidance detection corridor, wall feelers and nearest wall points.
    pub corridor: bool,
    /// Wander circle and aim.
    pub wander: bool,
    /// Path projection and aim point.
    pub path: bool,
    /// Flow-field sample.
    pub flow: bool,
    /// Aim points of seek-like nodes.
    pub aims: bool,
    /// The angle a facing node turns to, the velocity `MatchVelocity` matches, a jump's
    /// take-off window and flight.
    pub facing: bool,
    /// The navigation meshes Navigate nodes route on (off by default: they cover the level).
    pub navigation: bool,
    /// Every agent's planned routes, not only the selected agent's (off by default: in a
    /// crowd they cover the level).
    pub routes: bool,
}

impl Default for Guides {
    fn default() -> Self {
        Self {
            velocity: true,
            steering: true,
            node_forces: true,
            neighborhood: true,
            corridor: true,
            wander: true,
            path: true,
            flow: true,
            aims: true,
            facing: true,
            navigation: false,
            routes: false,
        }
    }
}

/// Paints the selected agent's guides from its trace. Forces are drawn at `force_scale`
/// seconds (a force F is drawn as `F * force_scale / mass` units).
pub fn paint_guides(
    painter: &Painter,
    screen: Rect,
    view: &View,
    vehicle: &Vehicle,
    trace: &Trace,
    root: Option<NodeId>,
    guides: &Guides,
) {
    let s = |p: Vec2| view.to_screen(screen, p);
    let p = vehicle.position;
    let force_scale = 0.25 / vehicle.mass;
    if guides.velocity {
        painter.arrow(
            s(p),
            s(p + vehicle.velocity * 0.5) - s(p),
            Stroke::new(2.0, Color32::from_rgb(120, 230, 120)),
        );
    }
    for entry in &trace.entries {
        let color = node_color(entry.node);
        let force = match entry.value {
            NodeValue::Force(force) => Some(force),
            NodeValue::Steering(steering) => Some(steering.force),
            NodeValue::Scalar(_) | NodeValue::Condition(_) => None,
        };
        if let Some(force) = force {
            let is_root = Some(entry.node) == root;
            if (is_root && guides.steering)
                || (!is_root && guides.node_forces && force.length() > 1e-4)
            {
                let stroke = if is_root {
                    Stroke::new(2.5, Color32::from_rgb(255, 80, 80))
                } else {
                    Stroke::new(1.5, color)
                };
                painter.arrow(s(p), s(p + force * force_scale) - s(p), stroke);
            }
        }
        paint_guide(
            painter,
            &s,
            view,
            vehicle,
            entry.guide,
            node_color(entry.node),
            guides,
        );
    }
}

/// Paints one node's guide geometry in its color, if that kind of guide is switched on.
fn paint_guide(
    painter: &Painter,
    s: &impl Fn(Vec2) -> Pos2,
    view: &View,
    vehicle: &Vehicle,
    guide: Guide,
    color: Color32,
    guides: &Guides,
) {
    let p = vehicle.position;
    let thin = Stroke::new(1.0, color);
    match guide {
        Guide::Aim(aim) if guides.aims => {
            painter.circle_stroke(s(aim), 4.0, thin);
            painter.line_segment([s(p), s(aim)], Stroke::new(0.5, color.gamma_multiply(0.6)));
        }
        Guide::Wander {
            center,
            radius,
            aim,
        } if guides.wander => {
            painter.circle_stroke(s(center), radius * view.zoom, thin);
            painter.circle_filled(s(aim), 3.0, color);
        }
        Guide::Neighborhood { radius, fov } if guides.neighborhood => {
            paint_sector(
                painter,
                s(p),
                radius * view.zoom,
                vehicle.forward,
                fov,
                thin,
            );
        }
        Guide::Corridor { length, half_width } if guides.corridor => {
            paint_corridor(painter, s, vehicle, length, half_width, thin);
        }
        Guide::Path {
            predicted,
            projection,
            aim,
        } if guides.path => {
            painter.circle_stroke(s(predicted), 3.0, thin);
            painter.line_segment([s(predicted), s(projection)], thin);
            painter.circle_filled(s(projection), 3.0, color);
            if let Some(aim) = aim {
                painter.circle_stroke(s(aim), 5.0, Stroke::new(1.5, color));
            }
        }
        Guide::Route { corner, end, aim } if guides.path => {
            painter.line_segment([s(p), s(corner)], thin);
            painter.circle_stroke(s(end), 4.0, thin);
            if let Some(aim) = aim {
                painter.circle_stroke(s(aim), 5.0, Stroke::new(1.5, color));
            }
        }
        Guide::Feelers { .. } | Guide::WallFollow { .. } if guides.corridor => {
            paint_wall_guide(painter, s, p, guide, color);
        }
        Guide::Reciprocal {
            preferred,
            chosen,
            lines,
            count,
            total,
            fallback,
        } if guides.neighborhood => {
            let inset = super::reciprocal::Inset {
                preferred,
                chosen,
                lines: lines.get(..usize::from(count)).unwrap_or(&[]),
                total,
                fallback,
            };
            super::reciprocal::paint_inset(painter, s(p), vehicle.max_speed, &inset, color);
        }
        Guide::Orientation { .. } | Guide::Velocity(_) | Guide::Jump { .. } if guides.facing => {
            super::facing_guides::paint(painter, s, view, vehicle, guide, color);
        }
        Guide::FlowSample { point, vector } if guides.flow => {
            painter.circle_stroke(s(point), 3.0, thin);
            painter.arrow(
                s(point),
                s(point + vector * 3.0) - s(point),
                Stroke::new(1.5, color),
            );
        }
        _ => {}
    }
}

/// Obstacle avoidance's detection corridor ahead of the agent.
fn paint_corridor(
    painter: &Painter,
    s: &impl Fn(Vec2) -> Pos2,
    vehicle: &Vehicle,
    length: f32,
    half_width: f32,
    stroke: Stroke,
) {
    let (p, f) = (vehicle.position, vehicle.forward);
    let side = f.perp() * half_width;
    let corners = [
        p + side,
        p + side + f * length,
        p - side + f * length,
        p - side,
    ];
    let mut points: Vec<Pos2> = corners.iter().map(|c| s(*c)).collect();
    points.push(s(corners[0]));
    painter.add(Shape::line(points, stroke));
}

/// Wall avoidance's feelers and where they meet walls, and the nearest wall point (with wall
/// following's aim).
fn paint_wall_guide(
    painter: &Painter,
    s: &impl Fn(Vec2) -> Pos2,
    p: Vec2,
    guide: Guide,
    color: Color32,
) {
    let thin = Stroke::new(1.0, color);
    let (nearest, aim) = match guide {
        Guide::Feelers {
            tips,
            hits,
            nearest,
        } => {
            for (tip, hit) in tips.iter().zip(hits) {
                painter.line_segment([s(p), s(*tip)], thin);
                if let Some(hit) = hit {
                    painter.circle_filled(s(hit), 3.0, color);
                }
            }
            (nearest, None)
        }
        Guide::WallFollow { nearest, aim } => (Some(nearest), Some(aim)),
        _ => (None, None),
    };
    if let Some(nearest) = nearest {
        let faint = Stroke::new(1.0, color.gamma_multiply(0.6));
        painter.line_segment([s(p), s(nearest)], faint);
        painter.circle_stroke(s(nearest), 4.0, thin);
    }
    if let Some(aim) = aim {
        painter.circle_stroke(s(aim), 5.0, Stroke::new(1.5, color));
    }
}

fn paint_sector(
    painter: &Painter,
    centre: Pos2,
    radius: f32,
    forward: Vec2,
    fov_degrees: f32,
    stroke: Stroke,
) {
    if fov_degrees >= 360.0 {
        painter.circle_stroke(centre, radius, stroke);
        return;
    }
    let heading = (-forward.y).atan2(forward.x);
    let half = fov_degrees.to_radians() * 0.5;
    let segments = 32;
    let mut points = vec![centre];
    for i in 0..=segments {
        let angle = heading - half + (2.0 * half) * i as f32 / segments as f32;
        points.push(centre + vec2(angle.cos(), angle.sin()) * radius);
    }
    points.push(centre);
    painter.add(Shape::line(points, stroke));
}
