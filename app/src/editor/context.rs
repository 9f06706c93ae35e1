//! Subgraphs in context: opening a Subgraph node's file keeps the graph it came from (and its
//! view, selection and undo) on a stack, so one click on the breadcrumb, or U, returns to it.
//! Meanwhile the preview keeps running the top graph's scene, with the subgraph being edited
//! swapped in as it is now, saved or not.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use egui::emath::TSTransform;
use graph_runtime::{CompileError, Graph, NodeId, Program, Subgraphs, subgraph_key};

use super::command::Then;
use super::document::Document;
use super::history::{Doc, Timeline};
use super::{EditorApp, Selection};

/// A graph the designer went into a subgraph from, kept whole to come back to.
pub struct Parent {
    /// The graph.
    pub document: Document,
    preset_name: Option<String>,
    selection: Selection,
    timeline: Timeline,
    transform: TSTransform,
    /// The Subgraph node that was opened.
    pub node: NodeId,
    /// The opened file's key: its path from the top graph's folder.
    pub child_key: String,
}

/// The stack of parents and the top graph's program with the open subgraphs swapped in.
#[derive(Default)]
pub struct Context {
    /// The graphs above the open one, the top graph first.
    pub parents: Vec<Parent>,
    compiled: Option<Swapped>,
    revisions: u64,
}

/// The top graph compiled with the open subgraphs as they are now.
struct Swapped {
    /// The revisions of every document on the stack when it was compiled.
    from: Vec<u64>,
    program: Result<Arc<Program>, Vec<CompileError>>,
    graph: Graph,
    overrides: BTreeMap<String, Graph>,
    revision: u64,
}

/// What the preview runs while a subgraph is open: the top graph, its program with the open
/// subgraphs swapped in, and those subgraphs by key.
pub struct InContext<'a> {
    /// The top graph (as it is now, with its layout).
    pub graph: &'a Graph,
    /// Its program, when it compiles.
    pub program: Option<Arc<Program>>,
    /// The open subgraphs' graphs by key (path from the top graph's folder).
    pub overrides: &'a BTreeMap<String, Graph>,
    /// Changes whenever any graph on the stack is recompiled.
    pub revision: u64,
    /// Where the top graph is saved.
    pub path: Option<&'a Path>,
}

impl Context {
    /// Whether a subgraph is open in context.
    pub fn is_open(&self) -> bool {
        !self.parents.is_empty()
    }

    /// The preview's view of the stack, recompiled when any document on it changed.
    pub fn in_context(&mut self, open: &Document) -> Option<InContext<'_>> {
        let top = self.parents.first()?;
        let from: Vec<u64> = self
            .parents
            .iter()
            .map(|p| p.document.revision())
            .chain(std::iter::once(open.revision()))
            .collect();
        if self.compiled.as_ref().is_none_or(|c| c.from != from) {
            let graph = top.document.to_graph();
            let mut overrides = BTreeMap::new();
            // Each open level's graph as it is now, under its key from the top's folder.
            let levels = self
                .parents
                .iter()
                .skip(1)
                .map(|p| &p.document)
                .chain([open]);
            for (parent, document) in self.parents.iter().zip(levels) {
                overrides.insert(
                    parent.child_key.clone(),
                    document.to_graph().without_editor(),
                );
            }
            let loaded = top.document.subgraphs();
            let mut library = loaded.library.clone();
            library.extend(overrides.clone());
            let subgraphs = Subgraphs {
                key: loaded.key.clone(),
                folder: loaded.folder.clone(),
                library,
                problems: Vec::new(),
                missing: loaded.missing.clone(),
            };
            self.revisions += 1;
            self.compiled = Some(Swapped {
                from,
                program: subgraphs.compile(&graph).map(Arc::new),
                graph,
                overrides,
                revision: self.revisions,
            });
        }
        let compiled = self.compiled.as_ref()?;
        Some(InContext {
            graph: &compiled.graph,
            program: compiled.program.as_ref().ok().cloned(),
            overrides: &compiled.overrides,
            // Far from the open document's own revisions, so a swap is never missed.
            revision: u64::MAX / 2 + compiled.revision,
            path: self
                .parents
                .first()
                .and_then(|p| p.document.path.as_deref()),
        })
    }

    /// The titles on the breadcrumb: the parents' and the open graph's.
    pub fn crumbs(&self, open: &Document) -> Vec<String> {
        self.parents
            .iter()
            .map(|p| p.document.title())
            .chain(std::iter::once(open.title()))
            .collect()
    }
}

impl EditorApp {
    /// Opens the file of Subgraph node `node` (at `path`) in place of the open graph, keeping
    /// the open graph to return to; the preview runs on.
    pub fn open_subgraph(&mut self, node: NodeId, path: &Path) {
        self.record_changes();
        let graph = match Graph::load(path) {
            Ok(graph) => graph,
            Err(error) => return self.error("Could not open the subgraph.", &error.to_string()),
        };
        let Some(graph_runtime::Node::Subgraph { file, .. }) = self.workspace.document.node(node)
        else {
            return;
        };
        let parent_key = self.workspace.context.parents.last().map_or_else(
            || self.workspace.document.subgraphs().key.clone(),
            |p| p.child_key.clone(),
        );
        let child_key = subgraph_key(&parent_key, file);
        let document = std::mem::replace(
            &mut self.workspace.document,
            Document::new(&graph, Some(path.to_path_buf())),
        );
        self.workspace.context.parents.push(Parent {
            document,
            preset_name: self.workspace.preset_name.take(),
            selection: std::mem::take(&mut self.workspace.selection),
            timeline: std::mem::take(&mut self.workspace.timeline),
            transform: self.view.canvas.transform(),
            node,
            child_key,
        });
        self.view.canvas.new_document();
        self.settings.remember(path);
        self.status.set(format!(
            "Editing {} inside {}: the preview runs it there; U or the path above goes back",
            self.workspace.document.title(),
            self.workspace
                .context
                .crumbs(&self.workspace.document)
                .first()
                .cloned()
                .unwrap_or_default()
        ));
    }

    /// Returns to the graph the open subgraph was opened from (asking about its unsaved
    /// changes first), or, `levels` up, further.
    pub fn go_up(&mut self, levels: usize) {
        if levels == 0 || !self.workspace.context.is_open() {
            return;
        }
        self.workspace.pending_up = levels;
        self.guard(Then::Up);
    }

    /// Goes up one level now (the open subgraph's changes were saved or dropped).
    pub(super) fn up_one_level(&mut self) {
        let Some(parent) = self.workspace.context.parents.pop() else {
            return;
        };
        let child = std::mem::replace(&mut self.workspace.document, parent.document);
        let child_timeline = std::mem::replace(&mut self.workspace.timeline, parent.timeline);
        self.workspace.timeline.take_scene_steps(&child_timeline);
        self.workspace.preset_name = parent.preset_name;
        self.workspace.selection = parent.selection;
        self.workspace
            .selection
            .retain(|id| self.workspace.document.contains(id));
        self.view.canvas.restore_view(parent.transform);
        // The subgraph file may have been saved: the parent reads its files again.
        self.workspace.document.reload_subgraphs();
        self.services.autosave.clear();
        self.status.set(format!(
            "Back in {} from {}",
            self.workspace.document.title(),
            child.title()
        ));
        self.workspace.pending_up = self.workspace.pending_up.saturating_sub(1);
        if self.workspace.pending_up > 0 {
            self.go_up(self.workspace.pending_up);
        } else if let Some(then) = self.workspace.after_up.take() {
            self.guard(then);
        }
    }

    /// The path from the top graph to the open subgraph; a click on a graph above goes back
    /// to it.
    pub(super) fn breadcrumb(&mut self, ui: &mut egui::Ui) {
        let crumbs = self.workspace.context.crumbs(&self.workspace.document);
        let last = crumbs.len() - 1;
        ui.horizontal(|ui| {
            if ui
                .button("⏶ Up")
                .on_hover_text("Back to the graph this subgraph was opened from (U)")
                .clicked()
            {
                self.push(super::Command::GoUp(1));
            }
            for (index, title) in crumbs.iter().enumerate() {
                if index > 0 {
                    ui.weak("›");
                }
                if index == last {
                    let dirty = if self.workspace.document.is_dirty() {
                        " •"
                    } else {
                        ""
                    };
                    ui.strong(format!("{title}{dirty}"));
                } else if ui.link(title).on_hover_text("Back to this graph").clicked() {
                    self.push(super::Command::GoUp(last - index));
                }
            }
            ui.weak("· the preview runs this subgraph inside the top graph's scene");
        });
    }

    /// Whether `doc`'s unsaved state should hold up `then`: going up asks about the open
    /// subgraph only, not the scene.
    pub(super) fn asks_about(&self, doc: Doc, then: &Then) -> bool {
        match doc {
            Doc::Graph => match then {
                Then::Scene { replaces_graph, .. } => {
                    *replaces_graph && self.workspace.document.is_dirty()
                }
                _ => self.workspace.document.is_dirty(),
            },
            Doc::Scene => {
                !matches!(then, Then::Up | Then::GroupGraph(_)) && self.workspace.scene.is_dirty()
            }
        }
    }
}
