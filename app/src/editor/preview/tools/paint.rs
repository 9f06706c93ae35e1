//! The paint-field tool: brush strokes (paint, erase, smooth) on the selected flow field,
//! one stroke being one undo step; the settings the field panel edits.

use super::super::SceneDocument;
use glam::Vec2;
use graph_runtime::{Brush, StrokeKind};

/// Settings of the flow-field paint tool.
#[derive(Clone, Debug, PartialEq)]
pub struct PaintSettings {
    /// The brush.
    pub brush: Brush,
    /// Paint, erase or smooth.
    pub kind: StrokeKind,
    /// The field being edited.
    pub field: Option<String>,
    /// Cell size for new or resampled fields (units).
    pub cell_size: f32,
    /// Direction of Fill (degrees, 0 = +x).
    pub fill_angle: f32,
    /// Target name for the "toward target" generator.
    pub target: String,
    /// Clearance around obstacles for the generator (units).
    pub clearance: f32,
    /// Range and strength of the "away from obstacles" generator.
    pub repulsion: (f32, f32),
}

impl Default for PaintSettings {
    fn default() -> Self {
        Self {
            brush: Brush {
                radius: 3.0,
                strength: 0.6,
                softness: 0.5,
            },
            kind: StrokeKind::Paint,
            field: None,
            cell_size: 1.0,
            fill_angle: 0.0,
            target: "cursor".to_owned(),
            clearance: 0.5,
            repulsion: (2.0, 0.5),
        }
    }
}

impl super::super::Preview {
    /// One segment of a brush stroke on the selected field (live in the running world).
    pub fn stroke(&mut self, document: &mut SceneDocument, from: Vec2, to: Vec2) {
        let Some(name) = self.paint.field.clone() else {
            return;
        };
        let (kind, brush) = (self.paint.kind, self.paint.brush);
        if let Some(field) = document.fields.get_mut(&name)
            && field.stroke(kind, from, to, &brush)
        {
            document.fields_changed();
        }
    }

    /// The brush under the pointer during a drag: starts, continues or ends a stroke.
    pub fn brush_drag(&mut self, response: &egui::Response, at: Option<Vec2>) {
        if response.drag_started_by(egui::PointerButton::Primary) {
            self.gestures.last_stroke = at;
            if let Some(at) = at {
                self.push_edit(super::super::SceneEdit::Stroke(at, at));
            }
        } else if response.dragged_by(egui::PointerButton::Primary)
            && let (Some(from), Some(to)) = (self.gestures.last_stroke, at)
        {
            self.push_edit(super::super::SceneEdit::Stroke(from, to));
            self.gestures.last_stroke = Some(to);
        }
        if response.drag_stopped() {
            self.gestures.last_stroke = None;
        }
    }
}
