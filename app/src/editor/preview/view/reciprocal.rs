//! Reciprocal's guide: velocity space drawn on the selected agent itself. The disc is the
//! agent's top speed around it; each half-plane (a neighbor's or a wall's limit) is a line
//! with short ticks on its forbidden side; the velocity the agent wanted is a thin arrow and
//! the one it took a thick arrow, both from the agent (velocity zero). A label under the disc
//! says in words what happened.

use egui::{Color32, Painter, Pos2, Stroke, vec2};
use glam::Vec2;
use graph_runtime::behaviors::OrcaLine;

/// The inset's radius (screen points): the agent's top speed.
const INSET_RADIUS: f32 = 55.0;
/// What the label says when no velocity met every half-plane.
pub const LEAST_BAD: &str = "no velocity satisfies every neighbor: took the least-bad one";

/// What the inset shows: Reciprocal's velocities and half-planes for one agent.
pub struct Inset<'a> {
    /// The velocity the input asked for.
    pub preferred: Vec2,
    /// The velocity chosen.
    pub chosen: Vec2,
    /// The half-planes the guide carries (the first few of `total`).
    pub lines: &'a [OrcaLine],
    /// How many half-planes there were.
    pub total: u8,
    /// Whether no velocity met them all.
    pub fallback: bool,
}

/// Paints `inset` beside the agent at screen point `agent`, scaled so that `max_speed` is the
/// inset's radius, in `color`.
pub fn paint_inset(
    painter: &Painter,
    agent: Pos2,
    max_speed: f32,
    inset: &Inset<'_>,
    color: Color32,
) {
    let centre = agent;
    let scale = INSET_RADIUS / max_speed.max(1e-3);
    // Velocity space, y up, onto the screen.
    let to_screen = |v: Vec2| centre + vec2(v.x, -v.y) * scale;
    let faint = Stroke::new(1.0, Color32::from_gray(110));
    painter.circle(centre, INSET_RADIUS, Color32::from_black_alpha(110), faint);
    let limit = max_speed.max(1e-3);
    for line in inset.lines {
        let Some((from, to)) = chord(line, limit) else {
            continue;
        };
        let stroke = Stroke::new(1.2, color);
        painter.line_segment([to_screen(from), to_screen(to)], stroke);
        // Ticks on the forbidden side (the right of the direction).
        let right = Vec2::new(line.direction.y, -line.direction.x) * (4.0 / scale);
        for k in 1..=4 {
            let at = from + (to - from) * (k as f32 / 5.0);
            painter.line_segment(
                [to_screen(at), to_screen(at + right)],
                Stroke::new(1.0, color),
            );
        }
    }
    painter.arrow(
        centre,
        to_screen(inset.preferred) - centre,
        Stroke::new(1.0, Color32::from_gray(200)),
    );
    painter.arrow(
        centre,
        to_screen(inset.chosen) - centre,
        Stroke::new(2.5, Color32::from_rgb(120, 230, 120)),
    );
    let mut below = centre + vec2(0.0, INSET_RADIUS + 4.0);
    for (index, line) in label_lines(inset.total, inset.fallback).iter().enumerate() {
        let color = if index == 0 {
            Color32::from_gray(210)
        } else {
            Color32::from_rgb(255, 170, 80)
        };
        below = label(painter, below, line, color);
    }
}

/// What the inset's label says, a line each: how many half-planes limit the velocity, in a
/// designer's words, and, when none met them all, that the least-bad velocity was taken.
pub fn label_lines(total: u8, fallback: bool) -> Vec<String> {
    let limits = match total {
        0 => "no neighbor or wall limits its velocity".to_owned(),
        1 => "1 limit from neighbors and walls".to_owned(),
        n => format!("{n} limits from neighbors and walls"),
    };
    let mut lines = vec![limits];
    if fallback {
        lines.push(LEAST_BAD.to_owned());
    }
    lines
}

/// Text centred under `top`, on a dark backing so it reads over the crowd; returns the point
/// under it.
fn label(painter: &Painter, top: Pos2, text: &str, color: Color32) -> Pos2 {
    let galley = painter.layout_no_wrap(text.to_owned(), egui::FontId::proportional(11.0), color);
    let rect = egui::Align2::CENTER_TOP.anchor_size(top, galley.size());
    painter.rect_filled(rect.expand(2.0), 3.0, Color32::from_black_alpha(170));
    painter.galley(rect.min, galley, color);
    Pos2::new(top.x, rect.max.y + 3.0)
}

/// The part of `line` inside the disc of radius `limit` about velocity zero, if any.
fn chord(line: &OrcaLine, limit: f32) -> Option<(Vec2, Vec2)> {
    // Points point + t * direction with |point + t * direction| = limit.
    let b = line.point.dot(line.direction);
    let c = line.point.length_squared() - limit * limit;
    let discriminant = b * b - c;
    if discriminant.is_nan() || discriminant <= 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    Some((
        line.point + line.direction * (-b - root),
        line.point + line.direction * (-b + root),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_through_the_disc_is_cut_at_its_rim() {
        // The line y = 3 along +x in a disc of radius 5 meets the rim at x = -4 and x = 4.
        let line = OrcaLine {
            point: Vec2::new(1.0, 3.0),
            direction: Vec2::X,
        };
        let (from, to) = chord(&line, 5.0).expect("a chord");
        assert!((from - Vec2::new(-4.0, 3.0)).length() < 1e-5, "{from}");
        assert!((to - Vec2::new(4.0, 3.0)).length() < 1e-5, "{to}");
        // y = 6 misses it.
        let outside = OrcaLine {
            point: Vec2::new(0.0, 6.0),
            direction: Vec2::X,
        };
        assert_eq!(chord(&outside, 5.0), None);
    }
}
