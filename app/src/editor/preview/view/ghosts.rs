//! The run a fork left, drawn as ghosts (issue 45): each agent of the original run as a faint
//! hollow circle where it is at the tick shown, joined to its agent in the fork when they are
//! apart.

use egui::{Color32, Painter, Rect, Stroke};
use graph_runtime::Vehicle;

use super::super::View;

/// The ghosts' outline.
pub const GHOST_COLOR: Color32 = Color32::from_rgba_premultiplied(150, 150, 170, 150);

/// Draws `ghosts` (the original run's agents) beside `vehicles` (the fork's, in the same
/// order): a circle of each ghost's radius, and a line to its agent when that is more than a
/// tenth of a radius away.
pub fn paint_ghosts(
    painter: &Painter,
    screen: Rect,
    view: &View,
    ghosts: &[Vehicle],
    vehicles: &[Vehicle],
) {
    let visible = screen.expand(20.0);
    for (ghost, vehicle) in ghosts.iter().zip(vehicles) {
        let at = view.to_screen(screen, ghost.position);
        if !visible.contains(at) {
            continue;
        }
        let radius = (ghost.radius * view.zoom).max(2.5);
        painter.circle_stroke(at, radius, Stroke::new(1.0, GHOST_COLOR));
        if ghost.position.distance(vehicle.position) > 0.1 * ghost.radius {
            let to = view.to_screen(screen, vehicle.position);
            painter.line_segment([at, to], Stroke::new(1.0, GHOST_COLOR));
        }
    }
}
