//! What undo and `apply` work on: the open graph, its selection, the graphs above it when a
//! subgraph is open in context, the scene the preview runs, and the order of the undo steps
//! over the two documents.

use super::clipboard;
use super::command::Then;
use super::context::Context;
use super::document::Document;
use super::history::Timeline;
use super::preview::SceneDocument;
use super::selection::Selection;
use super::session::UNTITLED;

use std::path::Path;

/// The graph being edited and everything an edit of it changes.
pub struct Workspace {
    /// The open graph.
    pub document: Document,
    /// The selected nodes: what the side panel shows and every command acts on.
    pub selection: Selection,
    /// The graphs above the open subgraph, when one is open in context.
    pub context: Context,
    /// The scene the preview runs the graph in: its own document, with its own undo history.
    pub scene: SceneDocument,
    /// The order of the graph's and the scene's undo steps.
    pub(super) timeline: Timeline,
    /// The embedded preset the graph came from, while it has no file.
    pub(super) preset_name: Option<String>,
    /// Levels still to go up (a breadcrumb clicked further up, or before New or Open).
    pub(super) pending_up: usize,
    /// What to do once back at the top graph.
    pub(super) after_up: Option<Then>,
    /// The undo depth when the preview was last sent into its past, and the depth a fork of
    /// the run began after (`fork_undo.rs`): undoing below it returns to the original run.
    pub(super) fork_marks: (Option<usize>, Option<usize>),
}

impl Workspace {
    /// A workspace on `document`, from the preset `preset_name` when it has no file, run in
    /// the scene `scene`.
    pub(super) fn new(
        document: Document,
        preset_name: Option<String>,
        scene: SceneDocument,
    ) -> Self {
        Self {
            document,
            selection: Selection::default(),
            context: Context::default(),
            scene,
            timeline: Timeline::default(),
            preset_name,
            pending_up: 0,
            after_up: None,
            fork_marks: (None, None),
        }
    }

    /// The window title: the file name, with a dot when there are unsaved changes.
    pub fn title(&self) -> String {
        let name = match (&self.document.path, &self.preset_name) {
            (None, Some(preset)) => format!("{preset} (preset)"),
            _ if self.context.is_open() => self.context.crumbs(&self.document).join(" › "),
            _ => self.document.title(),
        };
        let dirty = if self.document.is_dirty() { " •" } else { "" };
        format!("{name}{dirty} — Steergraph")
    }

    /// The file name scene groups use for the open graph.
    pub fn open_graph_name(&self) -> String {
        match (&self.document.path, &self.preset_name) {
            (Some(path), _) => path
                .file_name()
                .map_or_else(|| UNTITLED.to_owned(), |n| n.to_string_lossy().into_owned()),
            (None, Some(preset)) => preset.clone(),
            (None, None) => UNTITLED.to_owned(),
        }
    }

    /// The open graph as prompts name it: its file name (a preset's too), or "new graph".
    pub fn graph_label(&self) -> String {
        if self.context.is_open() || self.document.path.is_some() {
            self.document.title()
        } else {
            self.preset_name
                .clone()
                .unwrap_or_else(|| "new graph (never saved)".to_owned())
        }
    }

    /// The selected nodes as graph RON text.
    pub fn copy_text(&self) -> Option<String> {
        clipboard::copy(&self.document, self.selection.nodes())
    }

    /// Whether `file` is the open graph's file.
    pub(super) fn is_open_graph(&self, file: &Path) -> bool {
        let same = |a: &Path, b: &Path| {
            a == b
                || std::fs::canonicalize(a)
                    .ok()
                    .zip(std::fs::canonicalize(b).ok())
                    .is_some_and(|(a, b)| a == b)
        };
        !self.context.is_open() && self.document.path.as_deref().is_some_and(|p| same(p, file))
    }
}
