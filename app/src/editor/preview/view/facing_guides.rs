//! The selected agent's guides of the angular layer and jumps: the arc from its facing to the
//! angle a facing node turns to (with the tolerance and slowing zone around it), the velocity
//! `MatchVelocity` matches, and a jump's take-off window and flight velocity.

use egui::{Color32, Painter, Pos2, Shape, Stroke, vec2};
use glam::Vec2;
use graph_runtime::{Guide, Vehicle};

use super::View;

/// Paints `guide` (an orientation, a matched velocity or a jump) in `color`.
pub(super) fn paint(
    painter: &Painter,
    s: &impl Fn(Vec2) -> Pos2,
    view: &View,
    vehicle: &Vehicle,
    guide: Guide,
    color: Color32,
) {
    let p = vehicle.position;
    match guide {
        Guide::Orientation {
            target,
            facing,
            tolerance,
            deceleration_radius,
        } => {
            let centre = s(p);
            let radius = (vehicle.radius * view.zoom).max(4.0) * 3.0;
            paint_arc(
                painter,
                centre,
                radius,
                facing,
                target,
                Stroke::new(1.5, color),
            );
            // The slowing zone and the tolerance around the target angle.
            for (half, alpha) in [(deceleration_radius, 0.35), (tolerance, 0.9)] {
                paint_arc(
                    painter,
                    centre,
                    radius + 4.0,
                    target - half,
                    target + half,
                    Stroke::new(1.0, color.gamma_multiply(alpha)),
                );
            }
            let tip = centre + screen_direction(target) * (radius + 8.0);
            painter.line_segment([centre, tip], Stroke::new(1.0, color));
            painter.circle_filled(tip, 3.0, color);
        }
        Guide::Velocity(velocity) => {
            painter.arrow(
                s(p),
                s(p + velocity * 0.5) - s(p),
                Stroke::new(1.5, color.gamma_multiply(0.8)),
            );
        }
        Guide::Jump {
            from,
            to,
            window,
            velocity,
            achievable,
        } => {
            let stroke = Stroke::new(1.5, color);
            painter.circle_stroke(s(from), (window * view.zoom).max(3.0), stroke);
            if achievable {
                painter.arrow(s(from), s(from + velocity * 0.5) - s(from), stroke);
            } else {
                painter.line_segment(
                    [s(from), s(to)],
                    Stroke::new(1.0, color.gamma_multiply(0.5)),
                );
                painter.text(
                    s(from),
                    egui::Align2::CENTER_BOTTOM,
                    "not achievable",
                    egui::FontId::proportional(11.0),
                    color,
                );
            }
        }
        _ => {}
    }
}

/// The screen direction of world angle `angle` (y down on screen).
fn screen_direction(angle: f32) -> egui::Vec2 {
    vec2(angle.cos(), -angle.sin())
}

/// An arc of `radius` around `centre` from world angle `from` to `to`, the short way round.
fn paint_arc(painter: &Painter, centre: Pos2, radius: f32, from: f32, to: f32, stroke: Stroke) {
    let sweep = graph_runtime::math::wrap(to - from);
    let segments = ((sweep.abs() / 0.1).ceil() as usize).clamp(2, 64);
    let points: Vec<Pos2> = (0..=segments)
        .map(|i| centre + screen_direction(from + sweep * i as f32 / segments as f32) * radius)
        .collect();
    painter.add(Shape::line(points, stroke));
}
