//! The selected agent's own points and routes (a scene group's `goals`, or what a game set):
//! each point as a diamond with its name and a faint line from the agent, each route as a
//! dashed line through its points.

use egui::{Color32, Painter, Pos2, Rect, Shape, Stroke, vec2};
use glam::Vec2;
use graph_runtime::OwnGoals;

use super::View;

/// The color of own points and routes: the agent's, not the world's.
const OWN: Color32 = Color32::from_rgb(120, 230, 200);

/// Paints the own points and routes of the agent at `from`.
pub fn paint_own(painter: &Painter, screen: Rect, view: &View, from: Vec2, own: &OwnGoals) {
    let s = |p: Vec2| view.to_screen(screen, p);
    let faint = Stroke::new(1.0, OWN.gamma_multiply(0.5));
    for (name, route) in own.routes() {
        let points: Vec<Pos2> = route.points.iter().map(|p| s(*p)).collect();
        painter.extend(Shape::dashed_line(&points, Stroke::new(1.5, OWN), 6.0, 4.0));
        if let Some(first) = points.first() {
            painter.text(
                *first + vec2(6.0, 6.0),
                egui::Align2::LEFT_TOP,
                name,
                egui::FontId::proportional(11.0),
                OWN,
            );
        }
    }
    for (name, point) in own.goals() {
        let at = s(point);
        painter.line_segment([s(from), at], faint);
        let r = 6.0;
        painter.add(Shape::convex_polygon(
            vec![
                at + vec2(0.0, -r),
                at + vec2(r, 0.0),
                at + vec2(0.0, r),
                at + vec2(-r, 0.0),
            ],
            OWN.gamma_multiply(0.3),
            Stroke::new(1.5, OWN),
        ));
        painter.text(
            at + vec2(8.0, -8.0),
            egui::Align2::LEFT_BOTTOM,
            name,
            egui::FontId::proportional(12.0),
            OWN,
        );
    }
}
