//! Named targets as scene objects: the add-target tool, renaming, and where each target is
//! drawn (the running world's position, so a generator aims exactly at the marker).

use std::collections::BTreeMap;

use glam::Vec2;

use super::super::SceneDocument;
use super::Item;

/// The target that follows the mouse over the viewport; it cannot be added, renamed or moved.
pub const CURSOR: &str = "cursor";

/// Why `new` cannot be the name of a target renamed from `old` in a scene with `existing`
/// targets, if it cannot.
pub fn refuse_target_name<'a>(
    old: &str,
    new: &str,
    mut existing: impl Iterator<Item = &'a String>,
) -> Option<String> {
    let new = new.trim();
    if new.is_empty() {
        Some("A target needs a name.".to_owned())
    } else if new == CURSOR {
        Some("\"cursor\" is the target that follows the mouse.".to_owned())
    } else if new != old && existing.any(|name| name == new) {
        Some(format!("The scene already has a target \"{new}\"."))
    } else {
        None
    }
}

impl super::super::Preview {
    /// Adds a target "target N" at `at` and selects it.
    pub fn add_target(&mut self, document: &mut SceneDocument, at: Vec2) {
        let targets = &mut document.scene.targets;
        let name = (1..=targets.len() + 1)
            .map(|i| format!("target {i}"))
            .find(|n| !targets.contains_key(n))
            .unwrap_or_default();
        targets.insert(name.clone(), at);
        self.selected_item = Some(Item::Target(name));
    }

    /// Renames target `old` to `new` (trimmed), keeping it selected; returns why not when
    /// the name is empty, `cursor` or taken.
    pub fn rename_target(
        &mut self,
        document: &mut SceneDocument,
        old: &str,
        new: &str,
    ) -> Result<(), String> {
        let targets = &mut document.scene.targets;
        if let Some(reason) = refuse_target_name(old, new, targets.keys()) {
            return Err(reason);
        }
        let new = new.trim();
        let Some(position) = targets.remove(old) else {
            return Err(format!("The scene has no target \"{old}\"."));
        };
        targets.insert(new.to_owned(), position);
        if self.selected_item == Some(Item::Target(old.to_owned())) {
            self.selected_item = Some(Item::Target(new.to_owned()));
        }
        Ok(())
    }

    /// Every target a node or generator can aim at, where it is drawn: the running world's
    /// position (the cursor's follows the mouse), else the scene's; `cursor` is always one.
    pub fn target_positions(&self, document: &SceneDocument) -> BTreeMap<String, Vec2> {
        let mut positions: BTreeMap<String, Vec2> = document.scene.targets.clone();
        positions
            .entry(CURSOR.to_owned())
            .or_insert(self.cursor.unwrap_or(Vec2::ZERO));
        if let Some(view) = self.host.view() {
            for (name, position) in view.world.targets() {
                if let Some(stored) = positions.get_mut(name) {
                    *stored = position;
                }
            }
        }
        positions
    }
}

#[cfg(test)]
mod tests {
    use super::refuse_target_name;

    #[test]
    fn a_target_name_must_be_new_and_not_the_cursor() {
        let existing = ["goal".to_owned(), "exit".to_owned()];
        assert_eq!(
            refuse_target_name("goal", "exit", existing.iter()).as_deref(),
            Some("The scene already has a target \"exit\".")
        );
        assert!(refuse_target_name("goal", " goal ", existing.iter()).is_none());
        assert!(refuse_target_name("goal", "door", existing.iter()).is_none());
        assert!(refuse_target_name("goal", "cursor", existing.iter()).is_some());
        assert!(refuse_target_name("goal", "  ", existing.iter()).is_some());
    }
}
