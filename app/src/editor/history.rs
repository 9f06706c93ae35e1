//! One undo history type for every document the editor keeps (the graph, the scene).
//!
//! A `History` holds the last recorded state, the steps before and after it, and which state
//! the file on disk holds. Callers edit their live data freely and call [`History::record`]
//! when no gesture is in progress, so a drag or a brush stroke is one step.

use std::collections::VecDeque;

/// Most undo steps kept per document.
pub const HISTORY_LIMIT: usize = 200;

/// Undo and redo over snapshots of `T`, with a limit and a saved marker.
#[derive(Clone, Debug)]
pub struct History<T> {
    current: T,
    undo: VecDeque<T>,
    redo: Vec<T>,
    saved: Option<T>,
    limit: usize,
}

impl<T: Clone + PartialEq> History<T> {
    /// A history starting at `state`, which is also what the file holds.
    pub fn new(state: T) -> Self {
        Self {
            saved: Some(state.clone()),
            current: state,
            undo: VecDeque::new(),
            redo: Vec::new(),
            limit: HISTORY_LIMIT,
        }
    }

    /// The same, keeping at most `limit` undo steps.
    #[must_use]
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit.max(1);
        self
    }

    /// The last recorded state.
    pub fn current(&self) -> &T {
        &self.current
    }

    /// Records `state` as one step if it differs from the last one; returns whether it did.
    /// The oldest step is dropped past the limit; redo is cleared.
    pub fn record(&mut self, state: &T) -> bool {
        if *state == self.current {
            return false;
        }
        let previous = std::mem::replace(&mut self.current, state.clone());
        self.undo.push_back(previous);
        while self.undo.len() > self.limit {
            self.undo.pop_front();
        }
        self.redo.clear();
        true
    }

    /// Steps back: the state to restore, or `None` when there is nothing to undo.
    pub fn undo(&mut self) -> Option<&T> {
        let previous = self.undo.pop_back()?;
        self.redo
            .push(std::mem::replace(&mut self.current, previous));
        Some(&self.current)
    }

    /// Steps forward again: the state to restore, or `None` when there is nothing to redo.
    pub fn redo(&mut self) -> Option<&T> {
        let next = self.redo.pop()?;
        self.undo
            .push_back(std::mem::replace(&mut self.current, next));
        Some(&self.current)
    }

    /// Changes every kept state alike (the current one, undo and redo steps, the saved
    /// marker): for a change that is not the user's, such as following a renamed file.
    pub fn rewrite(&mut self, mut change: impl FnMut(&mut T)) {
        change(&mut self.current);
        self.undo.iter_mut().for_each(&mut change);
        self.redo.iter_mut().for_each(&mut change);
        if let Some(saved) = &mut self.saved {
            change(saved);
        }
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is a step to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Number of undo steps kept.
    pub fn undo_steps(&self) -> usize {
        self.undo.len()
    }

    /// Marks the last recorded state as what the file holds.
    pub fn mark_saved(&mut self) {
        self.saved = Some(self.current.clone());
    }

    /// Marks the document as differing from disk whatever it holds (recovered work).
    pub fn mark_unsaved(&mut self) {
        self.saved = None;
    }

    /// Whether the last recorded state differs from what the file holds.
    pub fn is_dirty(&self) -> bool {
        self.saved.as_ref() != Some(&self.current)
    }
}

/// Which document an undo step belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doc {
    /// The open graph.
    Graph,
    /// The preview's scene.
    Scene,
}

/// The order in which the documents' steps were made, so one undo takes back the latest
/// change whichever document it was in. Each document keeps its own [`History`].
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    undo: VecDeque<Doc>,
    redo: Vec<Doc>,
}

impl Timeline {
    /// How many steps there are to undo.
    pub fn depth(&self) -> usize {
        self.undo.len()
    }

    /// A step was recorded in `doc`.
    pub fn record(&mut self, doc: Doc) {
        self.undo.push_back(doc);
        // Both documents keep at most HISTORY_LIMIT steps each.
        while self.undo.len() > 2 * HISTORY_LIMIT {
            self.undo.pop_front();
        }
        self.redo.clear();
    }

    /// The document whose step to undo.
    pub fn undo(&mut self) -> Option<Doc> {
        let doc = self.undo.pop_back()?;
        self.redo.push(doc);
        Some(doc)
    }

    /// The document whose step to redo.
    pub fn redo(&mut self) -> Option<Doc> {
        let doc = self.redo.pop()?;
        self.undo.push_back(doc);
        Some(doc)
    }

    /// Takes the scene steps of `later`, made after every step here, as the newest steps
    /// (coming back from a subgraph: its graph steps leave with it).
    pub fn take_scene_steps(&mut self, later: &Self) {
        for doc in later.undo.iter().filter(|d| **d == Doc::Scene) {
            self.record(*doc);
        }
    }

    /// Forgets the steps of `doc` (it was replaced by another file).
    pub fn forget(&mut self, doc: Doc) {
        self.undo.retain(|d| *d != doc);
        self.redo.retain(|d| *d != doc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_redo_walk_the_recorded_states() {
        let mut history = History::new(1);
        assert!(history.record(&2));
        assert!(!history.record(&2), "an unchanged state is no step");
        assert!(history.record(&3));
        assert_eq!(history.undo(), Some(&2));
        assert_eq!(history.undo(), Some(&1));
        assert_eq!(history.undo(), None);
        assert_eq!(history.redo(), Some(&2));
        assert!(history.record(&5), "a new step after undo");
        assert_eq!(history.redo(), None, "clears redo");
        assert_eq!(history.current(), &5);
    }

    #[test]
    fn the_saved_marker_follows_undo() {
        let mut history = History::new("a");
        assert!(!history.is_dirty());
        history.record(&"b");
        assert!(history.is_dirty());
        history.mark_saved();
        assert!(!history.is_dirty());
        history.undo();
        assert!(
            history.is_dirty(),
            "undoing past the save differs from disk"
        );
        history.redo();
        assert!(!history.is_dirty());
        history.mark_unsaved();
        assert!(history.is_dirty());
    }

    #[test]
    fn the_limit_drops_the_oldest_steps() {
        let mut history = History::new(0).with_limit(3);
        for state in 1..=10 {
            history.record(&state);
        }
        assert_eq!(history.undo_steps(), 3);
        assert_eq!(history.undo(), Some(&9));
        assert_eq!(history.undo(), Some(&8));
        assert_eq!(history.undo(), Some(&7));
        assert_eq!(history.undo(), None);
    }
}
