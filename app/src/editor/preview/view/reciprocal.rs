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
    let galleys: Vec<_> = label_lines(inset.total, inset.fallback)
        .into_iter()
        .enumerate()
        .map(|(index, line)| {
            let color = if index == 0 {
                Color32::from_gray(210)
            } else {
                Color32::from_rgb(255, 170, 80)
            };
            (
                painter.layout_no_wrap(line, egui::FontId::proportional(11.0), color),
                color,
            )
        })
        .collect();
    let size = vec2(
        galleys.iter().map(|(g, _)| g.size().x).fold(0.0, f32::max),
        galleys
            .iter()
            .map(|(g, _)| g.size().y + LABEL_GAP)
            .sum::<f32>()
            - LABEL_GAP,
    );
    let mut top = label_place(centre, size, painter.clip_rect()).min;
    for (galley, color) in galleys {
        let rect = egui::Rect::from_min_size(
            Pos2::new(top.x + (size.x - galley.size().x) / 2.0, top.y),
            galley.size(),
        );
        painter.rect_filled(rect.expand(2.0), 3.0, Color32::from_black_alpha(170));
        top.y = rect.max.y + LABEL_GAP;
        painter.galley(rect.min, galley, color);
    }
}

/// Space between the label's lines (screen points).
const LABEL_GAP: f32 = 3.0;

/// Where the label of `size` goes for an inset centred at `centre`, in `view` (the preview's
/// visible rect): centred under the disc, or over it when there is no room under it, and
/// slid sideways into the view, so an agent at the preview's edge keeps its whole label.
fn label_place(centre: Pos2, size: egui::Vec2, view: egui::Rect) -> egui::Rect {
    let margin = 2.0;
    let under = egui::Align2::CENTER_TOP.anchor_size(centre + vec2(0.0, INSET_RADIUS + 4.0), size);
    let over =
        egui::Align2::CENTER_BOTTOM.anchor_size(centre - vec2(0.0, INSET_RADIUS + 4.0), size);
    let mut rect = if under.max.y + margin > view.max.y && over.min.y - margin >= view.min.y {
        over
    } else {
        under
    };
    let right = view.max.x - margin - rect.max.x;
    if right < 0.0 {
        rect = rect.translate(vec2(right, 0.0));
    }
    let left = view.min.x + margin - rect.min.x;
    if left > 0.0 {
        rect = rect.translate(vec2(left, 0.0));
    }
    rect
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

    #[test]
    fn the_label_stays_in_the_view_at_its_edges() {
        // A 400 × 300 view, a label 180 × 30; the disc's radius is 55, the label starts 4
        // under it (59 from the centre).
        let view = egui::Rect::from_min_size(Pos2::ZERO, vec2(400.0, 300.0));
        let size = vec2(180.0, 30.0);
        let at = |x: f32, y: f32| label_place(Pos2::new(x, y), size, view);
        // Room all round: centred under the disc.
        let middle = at(200.0, 100.0);
        assert_eq!(
            (middle.min, middle.max),
            (Pos2::new(110.0, 159.0), Pos2::new(290.0, 189.0))
        );
        // At the left edge it would start at -80: slid right to 2 from the view's edge.
        assert_eq!(at(10.0, 100.0).min, Pos2::new(2.0, 159.0));
        // At the right edge it would end at 485: slid left to end 2 inside (398).
        assert_eq!(at(395.0, 100.0).max, Pos2::new(398.0, 189.0));
        // Near the bottom (under the disc it would reach 369 of 300): over the disc instead,
        // ending 59 above the centre.
        let bottom = at(200.0, 280.0);
        assert_eq!((bottom.min.y, bottom.max.y), (191.0, 221.0));
        // Wider than the view: its start is kept in view.
        assert_eq!(
            label_place(Pos2::new(200.0, 100.0), vec2(500.0, 30.0), view)
                .min
                .x,
            2.0
        );
    }
}
