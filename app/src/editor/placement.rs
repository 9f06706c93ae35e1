//! Where a new node goes: about how much room it takes before it is drawn, and the nearest
//! spot clear of the other nodes inside the visible canvas. Pure functions of rectangles
//! (graph space), so tests check them without a window.

use egui::{Pos2, Rect, Vec2};

use super::arrange::GAP;

/// About how much room `node` takes when drawn (graph units), before it has been: a title,
/// then a row per field and input.
pub fn estimated_size(node: &graph_runtime::Node) -> Vec2 {
    let rows = node.numbers().len() + node.inputs().len() + node.targets().len();
    Vec2::new(240.0, 44.0 + 26.0 * rows as f32)
}

/// Where a node of `size` goes when asked for at `wanted` (graph space): there if it overlaps
/// no node in `taken` (kept `GAP / 2` clear) and lies inside `visible`; else the nearest such
/// spot on a grid around it, searched ring by ring; else `wanted` moved inside `visible`.
pub fn clear_spot(wanted: Pos2, size: Vec2, taken: &[Rect], visible: Rect) -> Pos2 {
    let inside = |at: Pos2| {
        let max = (visible.max - size).max(visible.min);
        at.clamp(visible.min, max)
    };
    let free = |at: Pos2| {
        let rect = Rect::from_min_size(at, size).expand(GAP / 2.0);
        visible.contains_rect(Rect::from_min_size(at, size))
            && !taken.iter().any(|t| t.intersects(rect))
    };
    let start = inside(wanted);
    if free(start) {
        return start;
    }
    let step = GAP;
    // Rings out to the far side of the view: at most (2r + 1)² spots, r ≤ 60.
    let reach = ((visible.width().max(visible.height()) / step).ceil() as i32).clamp(1, 60);
    for ring in 1..=reach {
        let mut best: Option<(f32, Pos2)> = None;
        for dx in -ring..=ring {
            for dy in -ring..=ring {
                if dx.abs() != ring && dy.abs() != ring {
                    continue;
                }
                let at = start + Vec2::new(dx as f32, dy as f32) * step;
                if free(at) {
                    let distance = at.distance_sq(wanted);
                    if best.is_none_or(|(d, _)| distance < d) {
                        best = Some((distance, at));
                    }
                }
            }
        }
        if let Some((_, at)) = best {
            return at;
        }
    }
    start
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_node_goes_to_the_nearest_clear_spot_inside_the_view() {
        let visible = Rect::from_min_max(Pos2::ZERO, Pos2::new(1000.0, 800.0));
        let size = Vec2::new(200.0, 100.0);
        // Free: where asked.
        assert_eq!(
            clear_spot(Pos2::new(100.0, 100.0), size, &[], visible),
            Pos2::new(100.0, 100.0)
        );
        // Past the right edge: moved in, wholly visible.
        assert_eq!(
            clear_spot(Pos2::new(950.0, 100.0), size, &[], visible),
            Pos2::new(800.0, 100.0)
        );
        // On a node: the nearest grid spot clear of it by GAP / 2.
        let taken = [Rect::from_min_size(Pos2::new(100.0, 100.0), size)];
        let at = clear_spot(Pos2::new(100.0, 100.0), size, &taken, visible);
        let placed = Rect::from_min_size(at, size);
        assert!(
            !placed.intersects(taken[0].expand(GAP / 2.0 - 0.01)),
            "{at:?}"
        );
        assert!(visible.contains_rect(placed));
        // Straight below it is nearest: clear by GAP / 2 from y = 200 + 40, and the grid of
        // 40 from y = 100 steps to 260 (220 would touch; above, y = -60 is out of view).
        assert_eq!(at, Pos2::new(100.0, 260.0));
    }
}
