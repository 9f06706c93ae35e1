//! The one path for changes to the scene document: the preview's tools and panels only push
//! a [`SceneEdit`]; [`Preview::apply`] makes the change, once per frame after the panels,
//! and the host carries it into the running world on the next frame (or rebuilds).

use glam::Vec2;
use graph_runtime::{FlowField, FlowFieldSource, Scene};

use super::Preview;
use super::SceneDocument;
use super::tools::Item;

/// A change to the scene the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneEdit {
    /// Add a named target here (and select it).
    AddTarget(Vec2),
    /// Rename a target (refused, changing nothing, when the new name is empty, `cursor` or
    /// taken).
    RenameTarget {
        /// Its name now.
        old: String,
        /// The new name.
        new: String,
    },
    /// Add an obstacle centred here (and select it).
    AddObstacle(Vec2),
    /// Append a point to the selected path, or start a new one.
    AddPathPoint(Vec2),
    /// Add a corner to the wall being drawn, or start a new wall (in the scene from its
    /// second corner).
    AddWallPoint(Vec2),
    /// Close the wall being drawn into a polygon (three corners or more) and finish it.
    CloseWall,
    /// Finish the wall being drawn as it is.
    FinishWall,
    /// Add a corner to the gap being drawn.
    AddGapPoint(Vec2),
    /// Put the gap being drawn into the scene (three corners or more).
    CloseGap,
    /// Add a jump link from a take-off point to a landing point (and select it).
    AddJumpLink(Vec2, Vec2),
    /// Rename a jump link (refused, changing nothing, when the new name is empty or taken).
    RenameJumpLink {
        /// Its name now.
        old: String,
        /// The new name.
        new: String,
    },
    /// Move a target, obstacle, path point or wall corner here.
    Move(Item, Vec2),
    /// Move a whole path or wall by this offset.
    Shift(Item, Vec2),
    /// Delete the selected item.
    DeleteSelected,
    /// Delete this item.
    Delete(Item),
    /// Select this item (or nothing); not a change to the scene.
    Select(Option<Item>),
    /// One segment of a brush stroke on the selected flow field.
    Stroke(Vec2, Vec2),
    /// The scene as the scene panel edited it (seed, bounds, radii, groups).
    Scene(Box<Scene>),
    /// A flow field's new data (fill, clear, resample, generators).
    Field(String, Box<FlowField>),
    /// A new inline flow field (and select it for painting).
    NewField(String, Box<FlowField>),
}

impl Preview {
    /// Asks for `edit`; it is made after this frame's panels.
    pub fn push_edit(&mut self, edit: SceneEdit) {
        self.edits.push(edit);
    }

    /// Makes `edit` now; an edit the scene refuses (a name taken, a gap of two corners)
    /// leaves it as it was, and the error says why.
    pub fn apply(&mut self, document: &mut SceneDocument, edit: SceneEdit) -> Result<(), String> {
        match edit {
            SceneEdit::AddTarget(at) => self.add_target(document, at),
            SceneEdit::RenameTarget { old, new } => {
                return self.rename_target(document, &old, &new);
            }
            SceneEdit::Select(item) => self.selected_item = item,
            SceneEdit::Delete(item) => {
                self.selected_item = Some(item);
                self.delete_selected(document);
            }
            SceneEdit::AddObstacle(at) => self.add_obstacle(document, at),
            SceneEdit::AddPathPoint(at) => self.add_path_point(document, at),
            SceneEdit::AddWallPoint(at) => self.add_wall_point(document, at),
            SceneEdit::CloseWall => self.close_wall(document),
            SceneEdit::FinishWall => self.finish_wall(),
            SceneEdit::AddGapPoint(at) => self.add_gap_point(at),
            SceneEdit::CloseGap => return self.close_gap(document),
            SceneEdit::AddJumpLink(from, to) => self.add_jump_link(document, from, to),
            SceneEdit::RenameJumpLink { old, new } => {
                return self.rename_jump_link(document, &old, &new);
            }
            SceneEdit::Move(item, to) => self.move_item(document, &item, to),
            SceneEdit::Shift(item, by) => self.shift_item(document, &item, by),
            SceneEdit::DeleteSelected => self.delete_selected(document),
            SceneEdit::Stroke(from, to) => self.stroke(document, from, to),
            SceneEdit::Scene(scene) => document.scene = *scene,
            SceneEdit::Field(name, field) => {
                if let Some(stored) = document.fields.get_mut(&name) {
                    *stored = *field;
                    document.fields_changed();
                }
            }
            SceneEdit::NewField(name, field) => {
                document
                    .scene
                    .flow_fields
                    .insert(name.clone(), FlowFieldSource::Inline((*field).clone()));
                document.fields.insert(name.clone(), *field);
                self.paint.field = Some(name);
                document.fields_changed();
            }
        }
        Ok(())
    }

    /// Makes every edit asked for this frame, in order; returns why each refused one was.
    pub(super) fn apply_edits(&mut self, document: &mut SceneDocument) -> Vec<String> {
        std::mem::take(&mut self.edits)
            .into_iter()
            .filter_map(|edit| self.apply(document, edit).err())
            .collect()
    }
}
