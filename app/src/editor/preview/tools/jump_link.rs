//! The jump-link tool and jump links as scene objects: the first click places the take-off
//! point, the second the landing point, and the link enters the scene named "link N" as one
//! edit; renaming and the ends' names.

use glam::Vec2;
use graph_runtime::JumpLink;

use super::super::SceneDocument;
use super::Item;

/// The end of a jump link: its take-off point or its landing point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkEnd {
    /// Where the agent takes off.
    TakeOff,
    /// Where it lands.
    Landing,
}

impl LinkEnd {
    /// The end in words.
    pub fn describe(self) -> &'static str {
        match self {
            Self::TakeOff => "take-off",
            Self::Landing => "landing",
        }
    }

    /// The end's point of `link`, for editing.
    pub fn point_mut(self, link: &mut JumpLink) -> &mut Vec2 {
        match self {
            Self::TakeOff => &mut link.from,
            Self::Landing => &mut link.to,
        }
    }
}

/// Why `new` cannot be the name of a jump link renamed from `old` in a scene with `existing`
/// links, if it cannot.
pub fn refuse_link_name<'a>(
    old: &str,
    new: &str,
    mut existing: impl Iterator<Item = &'a String>,
) -> Option<String> {
    let new = new.trim();
    if new.is_empty() {
        Some("A jump link needs a name.".to_owned())
    } else if new != old && existing.any(|name| name == new) {
        Some(format!("The scene already has a jump link \"{new}\"."))
    } else {
        None
    }
}

impl super::super::Preview {
    /// A click of the jump-link tool at `at`: the take-off point first, then the landing
    /// point, which adds the link.
    pub fn link_click(&mut self, at: Vec2) {
        match self.gestures.link_draft.take() {
            None => {
                self.gestures.link_draft = Some(at);
                self.selected_item = None;
            }
            Some(from) => self.push_edit(super::super::SceneEdit::AddJumpLink(from, at)),
        }
    }

    /// Adds a jump link "link N" from `from` to `to` and selects it.
    pub fn add_jump_link(&mut self, document: &mut SceneDocument, from: Vec2, to: Vec2) {
        let links = &mut document.scene.jump_links;
        let name = (1..=links.len() + 1)
            .map(|i| format!("link {i}"))
            .find(|n| !links.contains_key(n))
            .unwrap_or_default();
        links.insert(name.clone(), JumpLink::new(from, to));
        self.selected_item = Some(Item::JumpLink(name, None));
    }

    /// Renames jump link `old` to `new` (trimmed), keeping it selected; returns why not when
    /// the name is empty or taken. Graphs that name the link keep the old name: the scene's
    /// problems list says so until they are changed too.
    pub fn rename_jump_link(
        &mut self,
        document: &mut SceneDocument,
        old: &str,
        new: &str,
    ) -> Result<(), String> {
        let links = &mut document.scene.jump_links;
        if let Some(reason) = refuse_link_name(old, new, links.keys()) {
            return Err(reason);
        }
        let new = new.trim();
        let Some(link) = links.remove(old) else {
            return Err(format!("The scene has no jump link \"{old}\"."));
        };
        links.insert(new.to_owned(), link);
        if let Some(Item::JumpLink(name, _)) = &mut self.selected_item
            && name == old
        {
            new.clone_into(name);
        }
        Ok(())
    }

    /// The take-off point placed by the jump-link tool, waiting for its landing point.
    pub fn link_draft(&self) -> Option<Vec2> {
        self.gestures.link_draft
    }

    /// Drops the half-placed jump link.
    pub fn drop_link_draft(&mut self) {
        self.gestures.link_draft = None;
    }
}

#[cfg(test)]
mod tests {
    use super::refuse_link_name;

    #[test]
    fn a_link_name_must_be_new() {
        let existing = ["north".to_owned(), "south".to_owned()];
        assert!(refuse_link_name("north", "south", existing.iter()).is_some());
        assert!(refuse_link_name("north", " north ", existing.iter()).is_none());
        assert!(refuse_link_name("north", "ledge", existing.iter()).is_none());
        assert!(refuse_link_name("north", " ", existing.iter()).is_some());
    }
}
