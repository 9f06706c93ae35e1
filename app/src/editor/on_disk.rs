//! The open graph or scene changed on disk (a text editor or a second Steergraph saved it):
//! what has no unsaved changes is reloaded, with a status message; what has is kept, and a
//! bar under the menu asks whether to reload it (`dialogs.rs`). The editor's own saves are
//! announced to the watcher so they are never taken for someone else's. The watcher is the
//! runtime's [`FileWatcher`].

use std::path::{Path, PathBuf};

use graph_runtime::{FileWatcher, Graph};

use super::EditorApp;
use super::command::Command;
use super::history::Doc;

/// Watches the files of the open graph and scene.
#[derive(Debug, Default)]
pub struct DiskWatch {
    /// `None` until there is a file to watch (it is made in a frame: it needs the context to
    /// wake the window), or when the system gives no watcher (changes then go unnoticed).
    watcher: Option<FileWatcher>,
    /// Whether making the watcher failed (not tried again).
    unavailable: bool,
    graph: Option<PathBuf>,
    scene: Option<PathBuf>,
    /// The subgraph files the open graph uses: a change recompiles it, nothing to ask.
    subgraphs: Vec<PathBuf>,
    /// Documents whose file changed while they had unsaved changes: the bar's question.
    asking: Vec<Doc>,
}

impl DiskWatch {
    /// Watches `graph` and `scene` (the open documents' files) from now on; a document that
    /// now has another file (or none) is no longer asked about.
    fn follow(&mut self, ctx: &egui::Context, graph: Option<&Path>, scene: Option<&Path>) {
        let nothing_to_watch = graph.is_none() && scene.is_none();
        if self.watcher.is_none() && !self.unavailable && !nothing_to_watch {
            let ctx = ctx.clone();
            match FileWatcher::with_wake(move || ctx.request_repaint()) {
                Ok(watcher) => self.watcher = Some(watcher),
                Err(_) => self.unavailable = true,
            }
        }
        let Some(watcher) = &mut self.watcher else {
            return;
        };
        for (doc, now, watched) in [
            (Doc::Graph, graph, &mut self.graph),
            (Doc::Scene, scene, &mut self.scene),
        ] {
            if watched.as_deref() == now {
                continue;
            }
            if let Some(old) = watched.take() {
                watcher.unwatch(&old);
            }
            self.asking.retain(|d| *d != doc);
            if let Some(now) = now {
                // A file in a folder that cannot be watched is simply not watched.
                let _ = watcher.watch(now);
            }
            *watched = now.map(Path::to_path_buf);
        }
    }

    /// Watches exactly `files`, the open graph's subgraph files, besides the documents.
    fn follow_subgraphs(&mut self, files: Vec<PathBuf>) {
        if files == self.subgraphs {
            return;
        }
        let Some(watcher) = &mut self.watcher else {
            return;
        };
        let documents = [self.graph.as_deref(), self.scene.as_deref()];
        for old in &self.subgraphs {
            if !files.contains(old) && !documents.contains(&Some(old.as_path())) {
                watcher.unwatch(old);
            }
        }
        for new in &files {
            // A file in a folder that cannot be watched is simply not watched.
            let _ = watcher.watch(new);
        }
        self.subgraphs = files;
    }

    /// Files whose content changed (by another hand) since the last call.
    fn poll(&mut self) -> Vec<PathBuf> {
        self.watcher
            .as_mut()
            .map(FileWatcher::poll)
            .unwrap_or_default()
    }

    /// The editor itself wrote `file`: its content now is not a change.
    pub(super) fn saved(&mut self, file: &Path) {
        if let Some(watcher) = &mut self.watcher {
            watcher.refresh(file);
        }
    }

    /// The editor saved `doc`: nothing to ask about it any more.
    pub(super) fn answered(&mut self, doc: Doc) {
        self.asking.retain(|d| *d != doc);
    }

    /// Documents changed on disk while they had unsaved changes.
    pub fn asking(&self) -> &[Doc] {
        &self.asking
    }

    /// How many settled changes of the watched files were compared with what was last seen
    /// ([`FileWatcher::checked`]; 0 without a watcher).
    fn checked(&self) -> u64 {
        self.watcher.as_ref().map_or(0, FileWatcher::checked)
    }
}

impl EditorApp {
    /// Once a frame: follows the open files and queues [`Command::ChangedOnDisk`] for each
    /// that changed.
    pub(super) fn check_disk(&mut self, ctx: &egui::Context) {
        let graph = self.workspace.document.path.clone();
        let scene = self.workspace.scene.path.clone();
        self.services
            .disk
            .follow(ctx, graph.as_deref(), scene.as_deref());
        let mut subgraphs = self.workspace.document.subgraph_files();
        for file in self.preview.host.subgraph_files() {
            if !subgraphs.contains(file) {
                subgraphs.push(file.clone());
            }
        }
        self.services.disk.follow_subgraphs(subgraphs);
        for file in self.services.disk.poll() {
            self.push(Command::ChangedOnDisk(file));
        }
        if let Some(wait) = self
            .services
            .disk
            .watcher
            .as_ref()
            .and_then(FileWatcher::settling)
        {
            ctx.request_repaint_after(wait);
        }
    }

    /// Documents changed on disk while they had unsaved changes (the bar shows them).
    pub fn changed_on_disk(&self) -> &[Doc] {
        self.services.disk.asking()
    }

    /// How many times a watched file's events settled and its content was compared, taken for
    /// a change or not: a test waits for it to move to show a save was looked at and let be.
    pub fn disk_checks(&self) -> u64 {
        self.services.disk.checked()
    }

    /// `file` changed on disk: reloads the document it holds, or asks when that document has
    /// unsaved changes.
    pub(super) fn file_changed(&mut self, file: &Path) {
        self.record_changes();
        if self.services.disk.subgraphs.iter().any(|f| f == file) {
            self.workspace.document.reload_subgraphs();
            if self.preview.host.subgraph_files().iter().any(|f| f == file) {
                self.with_open_graph(|app, open| {
                    (app.preview.host).subgraphs_changed(&app.workspace.scene, open);
                });
            }
            self.status.set(format!(
                "{} changed on disk: the graph that uses it is recompiled",
                file.display()
            ));
        }
        if self.workspace.document.path.as_deref() == Some(file) {
            self.reload_or_ask(Doc::Graph, self.workspace.document.is_dirty());
        }
        if self.workspace.scene.path.as_deref() == Some(file) {
            self.reload_or_ask(Doc::Scene, self.workspace.scene.is_dirty());
        }
    }

    fn reload_or_ask(&mut self, doc: Doc, dirty: bool) {
        if !dirty {
            self.reload(doc);
        } else if !self.services.disk.asking.contains(&doc) {
            self.services.disk.asking.push(doc);
        }
    }

    /// Replaces `doc` with what its file holds now. The graph's reload is one undo step; a
    /// file that does not load is named in the status line and the document stays.
    pub(super) fn reload(&mut self, doc: Doc) {
        self.services.disk.answered(doc);
        match doc {
            Doc::Graph => self.reload_graph(),
            Doc::Scene => {
                let Some(path) = self.workspace.scene.path.clone() else {
                    return;
                };
                if let Err(error) = graph_runtime::Scene::load(&path) {
                    self.status.set(format!(
                        "The scene changed on disk but does not load; kept the open one. {error}"
                    ));
                    return;
                }
                self.open_scene(&path);
                self.status.set(format!(
                    "Reloaded the scene {}: it changed on disk",
                    path.display()
                ));
            }
        }
    }

    fn reload_graph(&mut self) {
        let Some(path) = self.workspace.document.path.clone() else {
            return;
        };
        match Graph::load(&path) {
            Ok(graph) => {
                if self.workspace.document.reload(&graph) {
                    self.workspace.timeline.record(Doc::Graph);
                }
                self.after_structure_change();
                self.services.autosave.clear();
                self.status.set(format!(
                    "Reloaded {}: it changed on disk (undo takes the reload back)",
                    path.display()
                ));
            }
            Err(error) => self.status.set(format!(
                "The graph changed on disk but does not load; kept the open one. {error}"
            )),
        }
    }

    /// Keeps the open `doc` as it is; saving it will overwrite the file.
    pub(super) fn keep_mine(&mut self, doc: Doc) {
        self.services.disk.answered(doc);
        let name = match doc {
            Doc::Graph => self.workspace.document.title(),
            Doc::Scene => self.workspace.scene.name(),
        };
        self.status.set(format!(
            "Kept your changes; saving will overwrite {name} on disk"
        ));
    }
}
