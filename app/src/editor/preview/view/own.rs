//! The selected agent's own points and routes (a scene group's `goals`, or what a game set):
//! each point as a diamond with its name and a faint line from the agent, each route as a
//! dashed line through its points; and the routes its Navigate nodes planned, as a line
//! through their corners from the agent on, ending in a ring (a cross when unreachable);
//! every other agent's planned routes, faint, when asked for; and the world's navigation
//! meshes.

use egui::{Color32, Painter, Pos2, Rect, Shape, Stroke, vec2};
use glam::Vec2;
use graph_runtime::{OwnGoals, RouteSlot, RouteStatus};

use super::View;
use crate::editor::preview::route_lines::{RouteLines, ahead};

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

/// The color of planned routes.
const ROUTE: Color32 = Color32::from_rgb(255, 200, 90);

/// Paints the planned routes of the agent at `from`: from the agent through the corners it
/// has still to pass to the end.
pub fn paint_routes(
    painter: &Painter,
    screen: Rect,
    view: &View,
    from: Vec2,
    routes: &[RouteSlot],
) {
    let s = |p: Vec2| view.to_screen(screen, p);
    for slot in routes {
        let line: Vec<Pos2> = std::iter::once(from)
            .chain(ahead(slot).iter().copied())
            .map(s)
            .collect();
        let stroke = Stroke::new(2.0, ROUTE);
        painter.add(Shape::line(line.clone(), stroke));
        // The corners between the agent and the end (none while the route has no points
        // left: a route not planned yet, or no navigation for the agent's radius).
        let corners = line
            .get(1..line.len().saturating_sub(1))
            .unwrap_or_default();
        for corner in corners {
            painter.circle_filled(*corner, 3.0, ROUTE);
        }
        if let Some(&end) = line.last().filter(|_| line.len() > 1) {
            if slot.status() == RouteStatus::Unreachable {
                let r = 6.0;
                painter.line_segment([end + vec2(-r, -r), end + vec2(r, r)], stroke);
                painter.line_segment([end + vec2(-r, r), end + vec2(r, -r)], stroke);
            } else {
                painter.circle_stroke(end, 6.0, stroke);
            }
        }
    }
}

/// Paints every route of `lines` but those of agent `except` (the selected agent's, drawn
/// bold by [`paint_routes`]): a faint line from its agent through the corners ahead, and a
/// small ring at its end (a cross when unreachable).
pub fn paint_all_routes(
    painter: &Painter,
    screen: Rect,
    view: &View,
    lines: &RouteLines,
    except: Option<usize>,
) {
    let s = |p: Vec2| view.to_screen(screen, p);
    let stroke = Stroke::new(1.0, ROUTE.gamma_multiply(0.45));
    for (line, points) in lines.iter() {
        if Some(line.agent) == except {
            continue;
        }
        let screen_points: Vec<Pos2> = points.iter().copied().map(s).collect();
        let Some(&end) = screen_points.last() else {
            continue;
        };
        painter.add(Shape::line(screen_points, stroke));
        if line.unreachable {
            let r = 3.0;
            painter.line_segment([end + vec2(-r, -r), end + vec2(r, r)], stroke);
            painter.line_segment([end + vec2(-r, r), end + vec2(r, -r)], stroke);
        } else {
            painter.circle_stroke(end, 3.0, stroke);
        }
    }
}

/// Paints the world's navigation meshes (one per agent radius routed on): each triangle's
/// edges, faint, so the walkable area and its doors show.
pub fn paint_navigation(
    painter: &Painter,
    screen: Rect,
    view: &View,
    world: &graph_runtime::World,
) {
    let s = |p: Vec2| view.to_screen(screen, p);
    let stroke = Stroke::new(1.0, ROUTE.gamma_multiply(0.25));
    for mesh in world.navigation_meshes() {
        for corners in mesh.triangles() {
            let points: Vec<Pos2> = corners.iter().map(|&p| s(p)).collect();
            painter.add(Shape::closed_line(points, stroke));
        }
    }
}
