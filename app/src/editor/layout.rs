//! The window's layout: the side panel, the graph canvas and the preview side by side, sized
//! from the window so the canvas keeps its share, each side panel collapsible to a strip with
//! a button (and N, P, Ctrl+Space).

use egui::{Rangef, Ui, Vec2};

/// The share of the window's width the canvas always keeps while both panels are open.
pub const CANVAS_SHARE: f32 = 0.4;
/// Width of a collapsed panel's strip (points).
const STRIP: f32 = 24.0;

/// Which panels are open (view state: not saved in any file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The side panel (node, agent, parameters, vehicle, scene).
    pub side: bool,
    /// The live preview.
    pub preview: bool,
}

impl Default for Layout {
    fn default() -> Self {
        Self {
            side: true,
            preview: true,
        }
    }
}

impl Layout {
    /// Hides both panels, or shows both again when both are hidden (Ctrl+Space).
    pub fn toggle_canvas_only(&mut self) {
        let open = !self.side && !self.preview;
        self.side = open;
        self.preview = open;
    }
}

/// How wide each panel starts and how far it can be dragged, for a window of some size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelSizes {
    /// The side panel's first width and its range.
    pub side: (f32, Rangef),
    /// The preview's first width and its range.
    pub preview: (f32, Rangef),
    /// The problems list's first height and its range.
    pub problems: (f32, Rangef),
}

impl PanelSizes {
    /// Sizes for a window of `size` points: the side panel about a fifth of the width
    /// (240–320), the preview about a third (280–560), neither allowed past a quarter and
    /// 35 % of the width, so the canvas keeps at least 40 %; the problems list at most a
    /// fifth of the height.
    pub fn for_window(size: Vec2) -> Self {
        let width = size.x.max(1.0);
        let range = |least: f32, most: f32, share: f32| {
            let max = (width * share).min(most).max(STRIP * 4.0);
            Rangef::new(least.min(max), max)
        };
        let side = range(200.0, 420.0, 0.25);
        let preview = range(240.0, 900.0, 1.0 - CANVAS_SHARE - 0.25);
        let height = size.y.max(1.0);
        let problems = Rangef::new(40.0_f32.min(height * 0.2), (height * 0.2).max(40.0));
        Self {
            side: (side.clamp((width * 0.18).clamp(240.0, 320.0)), side),
            preview: (preview.clamp((width * 0.3).clamp(280.0, 560.0)), preview),
            problems: (problems.clamp(110.0), problems),
        }
    }
}

/// A collapsed panel's strip: one button that opens it again.
pub fn strip(ui: &mut Ui, label: &str, hover: &str) -> bool {
    ui.add_space(4.0);
    ui.vertical_centered(|ui| ui.small_button(label).on_hover_text(hover).clicked())
        .inner
}

/// The strip's width.
pub const fn strip_width() -> f32 {
    STRIP
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_canvas_keeps_its_share_at_every_window_size() {
        for (width, height) in [
            (800.0, 500.0),
            (1024.0, 640.0),
            (1560.0, 960.0),
            (2560.0, 1440.0),
        ] {
            let sizes = PanelSizes::for_window(Vec2::new(width, height));
            let widest_panels = sizes.side.1.max + sizes.preview.1.max;
            assert!(
                width - widest_panels >= width * CANVAS_SHARE - 0.5,
                "{width}: {sizes:?}"
            );
            assert!(
                sizes.side.1.contains(sizes.side.0) && sizes.preview.1.contains(sizes.preview.0)
            );
        }
        // At 1024 × 640 the panels start at 240 (a quarter is 256) and 307 (0.3 × 1024), and
        // the canvas gets the other 477 points.
        let sizes = PanelSizes::for_window(Vec2::new(1024.0, 640.0));
        assert_eq!(sizes.side.0, 240.0);
        assert!((sizes.preview.0 - 307.2).abs() < 1e-3);
        assert_eq!(sizes.problems.1.max, 128.0);
    }

    #[test]
    fn canvas_only_hides_both_panels_and_brings_both_back() {
        let mut layout = Layout::default();
        layout.toggle_canvas_only();
        assert_eq!(
            layout,
            Layout {
                side: false,
                preview: false
            }
        );
        layout.toggle_canvas_only();
        assert_eq!(layout, Layout::default());
        layout.preview = false;
        layout.toggle_canvas_only();
        assert_eq!(
            layout,
            Layout {
                side: false,
                preview: false
            }
        );
    }
}
