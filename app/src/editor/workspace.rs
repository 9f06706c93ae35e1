//! What undo and `apply` work on: the open graph, its selection, the graphs above it when a
//! subgraph is open in context, and the order of the undo steps. The scene document is the
//! preview's (`preview/scene_doc.rs`), since its simulation is rebuilt from it every edit.

use super::command::Then;
use super::context::Context;
use super::document::Document;
use super::history::Timeline;
use super::selection::Selection;

/// The graph being edited and everything an edit of it changes.
pub struct Workspace {
    /// The open graph.
    pub document: Document,
    /// The selected nodes: what the side panel shows and every command acts on.
    pub selection: Selection,
    /// The graphs above the open subgraph, when one is open in context.
    pub context: Context,
    /// The order of the graph's and the scene's undo steps.
    pub(super) timeline: Timeline,
    /// The embedded preset the graph came from, while it has no file.
    pub(super) preset_name: Option<String>,
    /// Levels still to go up (a breadcrumb clicked further up, or before New or Open).
    pub(super) pending_up: usize,
    /// What to do once back at the top graph.
    pub(super) after_up: Option<Then>,
}

impl Workspace {
    /// A workspace on `document`, from the preset `preset_name` when it has no file.
    pub(super) fn new(document: Document, preset_name: Option<String>) -> Self {
        Self {
            document,
            selection: Selection::default(),
            context: Context::default(),
            timeline: Timeline::default(),
            preset_name,
            pending_up: 0,
            after_up: None,
        }
    }
}
