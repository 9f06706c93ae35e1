//! Undo returns to the original run (issue 45): the edits made back in the preview's past
//! fork the run when it steps on; undoing them (back to the undo depth the preview had when it
//! went into the past) puts the run as it was back, with its later ticks.

use super::EditorApp;

impl EditorApp {
    /// Once a frame, after the undo steps are recorded: notes the undo depth when the preview
    /// goes into its past, and keeps it as the fork's mark once stepping from there forks.
    pub(super) fn follow_fork(&mut self) {
        let depth = self.workspace.timeline.depth();
        let host = &self.preview.host;
        let (past, fork) = &mut self.workspace.fork_marks;
        if host.forked_at().is_some() {
            if fork.is_none() {
                *fork = past.or(Some(depth));
            }
            return;
        }
        *fork = None;
        let in_past = (host.tick())
            .zip(host.recorded())
            .is_some_and(|(tick, (_, last))| tick < last);
        *past = if in_past { past.or(Some(depth)) } else { None };
    }

    /// After an undo: back at or below the fork's mark, the edits that made the fork are all
    /// undone, so the run as it was comes back.
    pub(super) fn undo_fork(&mut self) {
        let Some(mark) = self.workspace.fork_marks.1 else {
            return;
        };
        if self.workspace.timeline.depth() <= mark && self.preview.host.forked_at().is_some() {
            self.preview.host.back_to_original();
            self.workspace.fork_marks = (Some(mark), None);
            self.status
                .set("Undone: the run as it was, before the fork");
        }
    }
}
