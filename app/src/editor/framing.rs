//! Where the canvas looks: framing a graph as it opens, Frame all, framing chosen nodes, and
//! the wheel zoom; [`ViewChange`] carries them to the node widget's transform. Pure functions of the nodes' rectangles (graph space, as last drawn) and
//! the canvas's screen rectangle, so tests can check them without a window.

use egui::emath::TSTransform;
use egui::{Pos2, Rect, Vec2};
use graph_runtime::NodeId;

/// Smallest zoom at which node text stays readable (about 9 px).
pub const READABLE_SCALE: f32 = 0.72;
/// Zoom range of the canvas.
pub const SCALE_RANGE: (f32, f32) = (0.2, 2.0);
/// Largest zoom framing picks: a small graph is not blown up.
const LARGEST_FRAMED: f32 = 1.0;
/// Room left around framed nodes (graph units).
const MARGIN: f32 = 30.0;
/// How far under its smallest zoom a framing goes to show the nodes whole rather than cut.
const SQUEEZE: f32 = 0.9;

/// What to frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameRequest {
    /// A graph that just opened: everything if it fits at a readable zoom, else the densest
    /// readable view that shows the Output (where the graph's result is).
    Open,
    /// Frame all (Home, F with nothing selected): everything, however small.
    All,
    /// These nodes (F with a selection, a problem clicked, a node found): at a readable zoom.
    Nodes(Vec<NodeId>),
}

/// The transform (graph to screen) that frames `request` in `screen`, given each node's
/// rectangle and the comment frames' (framed with everything); `None` when there is nothing
/// to frame.
pub fn framed(
    request: &FrameRequest,
    rects: &[(NodeId, Rect)],
    comments: &[Rect],
    output: Option<NodeId>,
    screen: Rect,
) -> Option<TSTransform> {
    let chosen = |keep: &dyn Fn(NodeId) -> bool| {
        rects
            .iter()
            .filter(|(id, _)| keep(*id))
            .map(|(_, r)| *r)
            .reduce(Rect::union)
            .map(|r| r.expand(MARGIN))
    };
    let everything = || {
        let nodes = chosen(&|_| true)?;
        Some(
            comments
                .iter()
                .fold(nodes, |all, c| all.union(c.expand(MARGIN))),
        )
    };
    let (bounds, smallest) = match request {
        FrameRequest::Nodes(nodes) if !nodes.is_empty() => {
            (chosen(&|id| nodes.contains(&id))?, READABLE_SCALE)
        }
        FrameRequest::Nodes(_) | FrameRequest::All => (everything()?, SCALE_RANGE.0),
        FrameRequest::Open => (everything()?, READABLE_SCALE),
    };
    let fit_of = |rect: Rect| (screen.size() / rect.size().max(Vec2::splat(1.0))).min_elem();
    let fit = fit_of(bounds);
    // The margin is room, not content, and the smallest zoom a judgement: nodes that fit with
    // less room round them, at a zoom at most a tenth under the smallest, are shown whole and
    // centred rather than cut at one side (under Xvfb at 1280 × 720 the four-way's three
    // nodes, 0.716 to fit against 0.72, opened with the first one cut by 40 points).
    let tight = fit_of(bounds.shrink(MARGIN));
    let (scale, whole) = if fit >= smallest {
        (fit.min(LARGEST_FRAMED), true)
    } else if tight >= smallest * SQUEEZE {
        // Never under the canvas's own smallest zoom (Frame all's smallest is that already).
        (tight.min(smallest).max(SCALE_RANGE.0), true)
    } else {
        (smallest, false)
    };
    let focus = if whole {
        bounds.center()
    } else {
        // Too big to show whole at a readable zoom: look at the Output (or the middle),
        // with the view kept inside the graph so as many nodes as fit are in it.
        let anchor = match request {
            FrameRequest::Open => output
                .and_then(|o| rects.iter().find(|(id, _)| *id == o))
                .map_or(bounds.center(), |(_, r)| r.center()),
            _ => bounds.center(),
        };
        let half = screen.size() / scale * 0.5;
        Pos2::new(
            keep_inside(anchor.x, half.x, bounds.x_range()),
            keep_inside(anchor.y, half.y, bounds.y_range()),
        )
    };
    Some(TSTransform::new(
        screen.center().to_vec2() - focus.to_vec2() * scale,
        scale,
    ))
}

/// `centre` moved so that `centre ± half` stays within `range` where the range is wider than
/// the view (else the range's middle).
fn keep_inside(centre: f32, half: f32, range: egui::Rangef) -> f32 {
    if range.span() <= half * 2.0 {
        range.center()
    } else {
        centre.clamp(range.min + half, range.max - half)
    }
}

/// `to_global` zoomed by `factor` around screen point `anchor`, within the zoom range.
pub fn zoomed(to_global: TSTransform, factor: f32, anchor: Pos2) -> TSTransform {
    let scale = (to_global.scaling * factor).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
    let factor = scale / to_global.scaling;
    TSTransform::from_translation(anchor.to_vec2())
        * TSTransform::from_scaling(factor)
        * TSTransform::from_translation(-anchor.to_vec2())
        * to_global
}

/// How a frame request and a wheel zoom change the widget's transform.
pub struct ViewChange {
    /// The transform that frames what was asked.
    pub frame: Option<TSTransform>,
    /// Zoom by this factor around this screen point.
    pub zoom: Option<(f32, Pos2)>,
    /// Start from this transform (after the widget's state was renewed).
    pub restore: Option<TSTransform>,
}

impl ViewChange {
    /// Applies the change to the widget's transform.
    pub fn apply(&mut self, to_global: &mut TSTransform) {
        if let Some(restore) = self.restore.take() {
            *to_global = restore;
        }
        if let Some(frame) = self.frame.take() {
            *to_global = frame;
        }
        if let Some((factor, anchor)) = self.zoom.take() {
            *to_global = zoomed(*to_global, factor, anchor);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: u32, x: f32, y: f32) -> (NodeId, Rect) {
        (
            NodeId(id),
            Rect::from_min_size(Pos2::new(x, y), egui::vec2(200.0, 100.0)),
        )
    }

    #[test]
    fn a_graph_that_fits_readably_is_shown_whole_and_centred() {
        // Nodes span 0..600 × 0..300, 660 × 360 with the margin; a 1000 × 800 screen fits
        // it at min(1000/660, 800/360) = 1.52, capped at 1.0.
        let rects = [node(1, 0.0, 0.0), node(2, 400.0, 200.0)];
        let screen = Rect::from_min_size(Pos2::new(100.0, 50.0), egui::vec2(1000.0, 800.0));
        let t = framed(&FrameRequest::Open, &rects, &[], Some(NodeId(2)), screen).expect("framed");
        assert_eq!(t.scaling, 1.0);
        // The graph's centre (300, 150) lands on the screen's (600, 450).
        assert_eq!(t * Pos2::new(300.0, 150.0), Pos2::new(600.0, 450.0));
    }

    #[test]
    fn a_graph_too_wide_to_read_whole_opens_readable_on_its_output() {
        // Nodes span 0..2200 × 0..100 (2260 × 160 with the margin); a 700 × 500 screen would
        // need 0.31: below readable, so 0.72, and the view (972 graph units wide) slides to
        // the right end where the Output is: x from 2230 - 972 to 2230.
        let rects = [
            node(1, 0.0, 0.0),
            node(2, 1000.0, 0.0),
            node(3, 2000.0, 0.0),
        ];
        let screen = Rect::from_min_size(Pos2::ZERO, egui::vec2(700.0, 500.0));
        let t = framed(&FrameRequest::Open, &rects, &[], Some(NodeId(3)), screen).expect("framed");
        assert_eq!(t.scaling, READABLE_SCALE);
        let right = t.inverse() * Pos2::new(700.0, 250.0);
        assert!((right.x - 2230.0).abs() < 0.01, "{right:?}");
        // Frame all shows everything, however small: 700 / 2260.
        let all = framed(&FrameRequest::All, &rects, &[], None, screen).expect("framed");
        assert!((all.scaling - 700.0 / 2260.0).abs() < 1e-6);
        assert!(screen.contains(all * Pos2::new(-29.0, 0.0)));
        assert!(screen.contains(all * Pos2::new(2229.0, 100.0)));
    }

    #[test]
    fn nodes_that_fit_readably_without_their_margin_are_shown_whole() {
        // Nodes span 0..860 × 0..100 (920 × 160 with the margin); a 640 × 500 screen fits the
        // nodes at 640 / 860 = 0.744, over readable, but not the margin (0.696): at 0.72 the
        // view is 888.9 graph units wide, centred on x 430, from -14.4 to 874.4.
        let rects = [node(1, 0.0, 0.0), node(2, 330.0, 0.0), node(3, 660.0, 0.0)];
        let screen = Rect::from_min_size(Pos2::ZERO, egui::vec2(640.0, 500.0));
        let t = framed(&FrameRequest::Open, &rects, &[], Some(NodeId(3)), screen).expect("framed");
        assert_eq!(t.scaling, READABLE_SCALE);
        let (left, right) = (t * Pos2::new(0.0, 50.0), t * Pos2::new(860.0, 50.0));
        assert!(left.x >= 0.0 && right.x <= 640.0, "{left:?} {right:?}");
        assert!(
            (left.x - (640.0 - right.x)).abs() < 0.01,
            "centred: {left:?} {right:?}"
        );
        // On a 600 × 500 screen the nodes need 600 / 860 = 0.698, under readable by less
        // than a tenth: that zoom, the nodes edge to edge.
        let screen = Rect::from_min_size(Pos2::ZERO, egui::vec2(600.0, 500.0));
        let t = framed(&FrameRequest::Open, &rects, &[], Some(NodeId(3)), screen).expect("framed");
        assert!((t.scaling - 600.0 / 860.0).abs() < 1e-6, "{}", t.scaling);
        assert!((t * Pos2::new(0.0, 50.0)).x.abs() < 0.01);
        assert!(((t * Pos2::new(860.0, 50.0)).x - 600.0).abs() < 0.01);
        // Frame all of nodes that need 0.19 (4,500 graph units on a 855-point screen): the
        // canvas's smallest zoom, 0.2, centred, not under it.
        let far = [node(1, 0.0, 0.0), node(2, 4300.0, 0.0)];
        let wide = Rect::from_min_size(Pos2::ZERO, egui::vec2(855.0, 500.0));
        let all = framed(&FrameRequest::All, &far, &[], None, wide).expect("framed");
        assert_eq!(all.scaling, SCALE_RANGE.0);
        assert!(((all * Pos2::new(2250.0, 50.0)).x - 427.5).abs() < 0.01);
        // On a 500 × 500 one they would need 0.58: readable, on the Output, as before.
        let screen = Rect::from_min_size(Pos2::ZERO, egui::vec2(500.0, 500.0));
        let t = framed(&FrameRequest::Open, &rects, &[], Some(NodeId(3)), screen).expect("framed");
        assert_eq!(t.scaling, READABLE_SCALE);
        assert!((t * Pos2::new(0.0, 50.0)).x < 0.0);
    }

    #[test]
    fn nothing_to_frame_is_none() {
        let screen = Rect::from_min_size(Pos2::ZERO, egui::vec2(700.0, 500.0));
        assert!(framed(&FrameRequest::All, &[], &[], None, screen).is_none());
        assert!(
            framed(
                &FrameRequest::Nodes(vec![NodeId(4)]),
                &[node(1, 0.0, 0.0)],
                &[],
                None,
                screen
            )
            .is_none()
        );
    }
}
