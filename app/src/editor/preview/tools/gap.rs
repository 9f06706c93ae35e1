//! The draw-gap tool: clicks place a gap's corners (held by the tool until the gap is closed,
//! so the scene never holds a gap of fewer than three corners); a click on the first corner,
//! or Enter, closes it into the scene as one edit; Escape or another tool drops the draft.

use glam::Vec2;
use graph_runtime::Gap;

use super::super::SceneDocument;
use super::Item;
use super::select::PICK_DISTANCE;

impl super::super::Preview {
    /// The edit a click of the gap tool at world point `at` asks for: close the gap when the
    /// click is on the first corner of three or more, else add a corner.
    pub fn gap_click(&self, at: Vec2) -> super::super::SceneEdit {
        let reach = PICK_DISTANCE / self.view.zoom;
        if self.gestures.gap_draft.len() >= 3
            && self
                .gestures
                .gap_draft
                .first()
                .is_some_and(|first| first.distance(at) <= reach)
        {
            return super::super::SceneEdit::CloseGap;
        }
        super::super::SceneEdit::AddGapPoint(at)
    }

    /// Adds corner `at` to the gap being drawn.
    pub fn add_gap_point(&mut self, at: Vec2) {
        self.gestures.gap_draft.push(at);
        self.selected_item = None;
    }

    /// Puts the gap being drawn into the scene (three corners or more), selected; a draft of
    /// fewer corners is dropped, and the error says why.
    pub fn close_gap(&mut self, document: &mut SceneDocument) -> Result<(), String> {
        let corners = std::mem::take(&mut self.gestures.gap_draft);
        if corners.len() < 3 {
            return Err("A gap needs at least three corners.".to_owned());
        }
        let gaps = &mut document.scene.gaps;
        gaps.push(Gap::new(corners));
        self.selected_item = Some(Item::Gap(gaps.len() - 1, None));
        Ok(())
    }

    /// Drops the gap being drawn.
    pub fn drop_gap_draft(&mut self) {
        self.gestures.gap_draft.clear();
    }

    /// The corners of the gap being drawn, for the viewport.
    pub fn gap_draft(&self) -> &[Vec2] {
        &self.gestures.gap_draft
    }
}
