//! Painting the angular layer and jumps: gaps (hatched, so a chasm reads as a hole), jump
//! links (an arc from the take-off pad to the landing pad), agents in the air (lifted by their
//! height over a shadow), agents that fell, and each agent's facing where it differs from its
//! heading.

use egui::{Color32, Painter, Pos2, Rect, Shape, Stroke, vec2};
use glam::Vec2;
use graph_runtime::{Gap, JumpLink, Vehicle, World};

use super::View;

/// The color of gaps.
pub const GAP_COLOR: Color32 = Color32::from_rgb(120, 150, 215);
/// The color of jump links.
pub const LINK_COLOR: Color32 = Color32::from_rgb(240, 200, 90);
/// The color of fallen agents' marks.
pub const FALL_COLOR: Color32 = Color32::from_rgb(235, 90, 80);
/// The color of the facing mark: translucent white, thin, so a crowd's marks stay readable.
pub const FACING_COLOR: Color32 = Color32::from_rgba_premultiplied(150, 150, 150, 150);

/// Screen points between the hatch lines of a gap.
const HATCH: f32 = 7.0;
/// How much of a unit of height lifts an agent on screen (the view looks down at a slant).
const LIFT: f32 = 0.7;

/// Every gap of `world`, hatched and outlined, and every jump link.
pub fn paint_jumps(painter: &Painter, screen: Rect, view: &View, world: &World) {
    for gap in world.gaps() {
        paint_gap(painter, screen, view, gap, Stroke::new(1.5, GAP_COLOR));
    }
    for (name, link) in world.jump_links() {
        paint_link(painter, screen, view, name, link);
    }
}

/// One gap: diagonal-free horizontal hatching inside (even-odd, so any polygon works) and
/// its outline in `outline`.
pub fn paint_gap(painter: &Painter, screen: Rect, view: &View, gap: &Gap, outline: Stroke) {
    let points: Vec<Pos2> = gap
        .points
        .iter()
        .map(|p| view.to_screen(screen, *p))
        .collect();
    if points.len() < 3 {
        return;
    }
    let (top, bottom) = points
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(top, bottom), p| {
            (top.min(p.y), bottom.max(p.y))
        });
    let top = top.max(screen.top());
    let bottom = bottom.min(screen.bottom());
    let fill = Stroke::new(1.0, GAP_COLOR.gamma_multiply(0.35));
    let mut y = (top / HATCH).ceil() * HATCH;
    let mut crossings = Vec::new();
    while y <= bottom {
        crossings.clear();
        for (i, a) in points.iter().enumerate() {
            let b = points[(i + 1) % points.len()];
            if (a.y > y) != (b.y > y) {
                crossings.push(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x));
            }
        }
        crossings.sort_by(f32::total_cmp);
        for pair in crossings.chunks_exact(2) {
            painter.line_segment([Pos2::new(pair[0], y), Pos2::new(pair[1], y)], fill);
        }
        y += HATCH;
    }
    let mut outline_points = points.clone();
    outline_points.push(points[0]);
    painter.add(Shape::line(outline_points, outline));
}

/// One jump link: a pad at each end, an arc between them bowed to the left of the jump (a
/// flight seen from above at a slant), an arrowhead at the landing and the name.
fn paint_link(painter: &Painter, screen: Rect, view: &View, name: &str, link: &JumpLink) {
    let s = |p: Vec2| view.to_screen(screen, p);
    let (from, to) = (s(link.from), s(link.to));
    let stroke = Stroke::new(1.5, LINK_COLOR);
    painter.circle_stroke(from, 5.0, stroke);
    painter.circle_filled(to, 4.0, LINK_COLOR);
    let arc = arc_points(from, to);
    if let [.., before, last] = arc[..] {
        let direction = (last - before).normalized();
        let side = vec2(-direction.y, direction.x);
        for wing in [side, -side] {
            painter.line_segment([last, last - direction * 8.0 + wing * 4.0], stroke);
        }
    }
    painter.add(Shape::dashed_line(&arc, stroke, 6.0, 4.0));
    let middle = arc[arc.len() / 2];
    painter.text(
        middle + vec2(0.0, -6.0),
        egui::Align2::CENTER_BOTTOM,
        name,
        egui::FontId::proportional(12.0),
        LINK_COLOR,
    );
}

/// Points of the link's arc on screen: a parabola through both ends, bowed up the screen by a
/// quarter of its length.
fn arc_points(from: Pos2, to: Pos2) -> Vec<Pos2> {
    let rise = from.distance(to) * 0.25;
    (0..=16)
        .map(|i| {
            let t = i as f32 / 16.0;
            from.lerp(to, t) - vec2(0.0, rise * 4.0 * t * (1.0 - t))
        })
        .collect()
}

/// The selected gap or jump link, highlighted, with its corners or ends (`marked` the one
/// picked, drawn larger).
pub fn paint_selected_gap(
    painter: &Painter,
    screen: Rect,
    view: &View,
    gap: &Gap,
    marked: Option<usize>,
    highlight: Stroke,
) {
    paint_gap(painter, screen, view, gap, highlight);
    for (i, p) in gap.points.iter().enumerate() {
        let radius = if Some(i) == marked { 6.0 } else { 4.0 };
        painter.circle_stroke(view.to_screen(screen, *p), radius, highlight);
    }
}

/// The selected jump link: its line and ends, the picked end (0 the take-off) larger.
pub fn paint_selected_link(
    painter: &Painter,
    screen: Rect,
    view: &View,
    link: &JumpLink,
    marked: Option<usize>,
    highlight: Stroke,
) {
    let (from, to) = (
        view.to_screen(screen, link.from),
        view.to_screen(screen, link.to),
    );
    painter.add(Shape::line(arc_points(from, to), highlight));
    for (i, p) in [from, to].into_iter().enumerate() {
        let radius = if Some(i) == marked { 8.0 } else { 6.0 };
        painter.circle_stroke(p, radius, highlight);
    }
}

/// The gap being drawn: its corners and edges so far, and a rubber band to the pointer.
pub fn paint_gap_draft(
    painter: &Painter,
    screen: Rect,
    view: &View,
    corners: &[Vec2],
    pointer: Option<Pos2>,
) {
    let stroke = Stroke::new(1.5, GAP_COLOR);
    let points: Vec<Pos2> = corners.iter().map(|p| view.to_screen(screen, *p)).collect();
    for pair in points.windows(2) {
        painter.line_segment([pair[0], pair[1]], stroke);
    }
    for (i, point) in points.iter().enumerate() {
        // The first corner is where a click closes the gap.
        let radius = if i == 0 && points.len() >= 3 {
            6.0
        } else {
            3.0
        };
        painter.circle_stroke(*point, radius, stroke);
    }
    if let (Some(last), Some(pointer)) = (points.last(), pointer) {
        painter.line_segment([*last, pointer], Stroke::new(1.0, GAP_COLOR));
    }
}

/// The half-placed jump link: its take-off pad and a rubber band to the pointer.
pub fn paint_link_draft(
    painter: &Painter,
    screen: Rect,
    view: &View,
    from: Vec2,
    pointer: Option<Pos2>,
) {
    let from = view.to_screen(screen, from);
    painter.circle_stroke(from, 5.0, Stroke::new(1.5, LINK_COLOR));
    if let Some(pointer) = pointer {
        painter.add(Shape::dashed_line(
            &arc_points(from, pointer),
            Stroke::new(1.0, LINK_COLOR),
            6.0,
            4.0,
        ));
    }
}

/// Where an agent in the air is drawn: lifted up the screen by its height.
pub fn lifted(view: &View, height: f32) -> egui::Vec2 {
    vec2(0.0, -height.max(0.0) * view.zoom * LIFT)
}

/// The shadow of every agent in the air (where it is over the ground) and a thin line up to
/// where it is drawn.
pub fn paint_flights(
    painter: &Painter,
    screen: Rect,
    view: &View,
    vehicles: &[Vehicle],
    airborne: &[(usize, f32)],
) {
    for &(agent, height) in airborne {
        let Some(vehicle) = vehicles.get(agent) else {
            continue;
        };
        let ground = view.to_screen(screen, vehicle.position);
        let size = (vehicle.radius * view.zoom).max(3.0);
        let shrink = 1.0 / (1.0 + height.max(0.0) * 0.2);
        painter.add(Shape::ellipse_filled(
            ground,
            vec2(size * 1.3 * shrink, size * 0.7 * shrink),
            Color32::from_black_alpha(150),
        ));
        painter.line_segment(
            [ground, ground + lifted(view, height)],
            Stroke::new(1.0, Color32::from_white_alpha(60)),
        );
    }
}

/// A cross over every agent that fell into a gap.
pub fn paint_falls(
    painter: &Painter,
    screen: Rect,
    view: &View,
    vehicles: &[Vehicle],
    fallen: &[usize],
) {
    let stroke = Stroke::new(2.5, FALL_COLOR);
    for vehicle in fallen.iter().filter_map(|&agent| vehicles.get(agent)) {
        let centre = view.to_screen(screen, vehicle.position);
        let size = (vehicle.radius * view.zoom).max(3.0) + 2.0;
        painter.line_segment(
            [centre - vec2(size, size), centre + vec2(size, size)],
            stroke,
        );
        painter.line_segment(
            [centre - vec2(size, -size), centre + vec2(size, -size)],
            stroke,
        );
    }
}

/// The facing drawn for `vehicle` as a line: its own facing when it has one and it turned
/// more than 3° away from the heading (closer, the line would hide in the triangle's tip).
pub fn shown_facing(vehicle: &Vehicle) -> Option<Vec2> {
    if !vehicle.turning.independent_facing {
        return None;
    }
    let facing = vehicle.facing_direction();
    (facing.dot(vehicle.forward) <= 3f32.to_radians().cos()).then_some(facing)
}

/// For every agent with independent facing whose facing differs from its heading by more
/// than 3°, a white line from its centre along the facing with a dot at the end (the triangle
/// itself points along the heading, where it moves).
pub fn paint_facings(
    painter: &Painter,
    screen: Rect,
    view: &View,
    vehicles: &[Vehicle],
    airborne: &[(usize, f32)],
) {
    let visible = screen.expand(20.0);
    for (agent, vehicle) in vehicles.iter().enumerate() {
        let Some(facing) = shown_facing(vehicle) else {
            continue;
        };
        let lift = airborne
            .iter()
            .find(|(a, _)| *a == agent)
            .map_or(egui::Vec2::ZERO, |(_, height)| lifted(view, *height));
        let centre = view.to_screen(screen, vehicle.position) + lift;
        if !visible.contains(centre) {
            continue;
        }
        let length = (vehicle.radius * view.zoom).max(3.0) * 1.8;
        let tip = centre + vec2(facing.x, -facing.y) * length;
        painter.line_segment([centre, tip], Stroke::new(1.2, FACING_COLOR));
        painter.circle_filled(tip, 1.75, FACING_COLOR);
    }
}
