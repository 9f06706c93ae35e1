//! The subgraph files the open graph uses: read from beside its file, read again when the
//! graph names other files, when its file moves, or when one of them changes on disk; and what
//! the node viewer shows of them.

use std::path::PathBuf;

use graph_runtime::{Graph, Subgraphs, subgraph_key};

use super::Document;

impl Document {
    /// Reads the subgraph files `graph` uses, unless the ones read are those it names from
    /// where it is saved. Reading anew forces the next compile.
    pub(super) fn find_subgraphs(&mut self, graph: &Graph) {
        let current = &self.subgraphs;
        let stale = match &self.path {
            Some(path) => {
                let folder = path.parent().map(PathBuf::from).unwrap_or_default();
                let key = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                current.key != key || current.folder != folder || !current.covers(graph)
            }
            None => !current.library.is_empty() || !current.missing.is_empty(),
        };
        if stale {
            self.subgraphs = match &self.path {
                Some(path) => Subgraphs::load(graph, path),
                None => Subgraphs::default(),
            };
            self.compiled_graph = None;
        }
    }

    /// Reads every subgraph file again (one changed on disk) and recompiles: the preview runs
    /// the new program at once.
    pub fn reload_subgraphs(&mut self) {
        if let Some(path) = &self.path {
            self.subgraphs = Subgraphs::load(self.history.current(), path);
        }
        self.compiled_graph = None;
        self.recompile();
    }

    /// Shows `graph` in place of what is open (record before and after, so it is one undo
    /// step): a cut into a subgraph.
    pub fn replace_graph(&mut self, graph: &Graph) {
        self.show(graph);
    }

    /// The subgraph files the graph uses, as read.
    pub fn subgraphs(&self) -> &Subgraphs {
        &self.subgraphs
    }

    /// The subgraph files the graph uses, loaded or not (the files to watch).
    pub fn subgraph_files(&self) -> Vec<PathBuf> {
        self.subgraphs.files()
    }

    /// The node widget's data to draw, and the subgraph files its Subgraph nodes show.
    pub fn snarl_and_subgraphs(
        &mut self,
    ) -> (&mut egui_snarl::Snarl<super::EditorNode>, SubgraphView<'_>) {
        let view = SubgraphView {
            subgraphs: &self.subgraphs,
            saved: self.path.is_some(),
        };
        (&mut self.snarl, view)
    }

    /// What the node viewer shows of the subgraph files.
    pub fn subgraph_view(&self) -> SubgraphView<'_> {
        SubgraphView {
            subgraphs: &self.subgraphs,
            saved: self.path.is_some(),
        }
    }
}

/// The subgraph files of the open graph, as the node viewer shows them.
#[derive(Clone, Copy)]
pub struct SubgraphView<'a> {
    subgraphs: &'a Subgraphs,
    saved: bool,
}

impl SubgraphView<'_> {
    /// Where the file that a Subgraph node names is on disk (`None` while the graph is
    /// unsaved: files are named relative to it).
    pub fn path(&self, file: &str) -> Option<PathBuf> {
        self.saved.then(|| {
            self.subgraphs
                .folder
                .join(subgraph_key(&self.subgraphs.key, file))
        })
    }

    /// The file a Subgraph node names, when it was read.
    pub fn graph(&self, file: &str) -> Option<&Graph> {
        self.subgraphs
            .library
            .get(&subgraph_key(&self.subgraphs.key, file))
    }

    /// Why the file a Subgraph node names is not there.
    pub fn problem(&self, file: &str) -> String {
        if !self.saved {
            return "Save this graph first: a subgraph file is named from its folder.".to_owned();
        }
        let key = subgraph_key(&self.subgraphs.key, file);
        self.subgraphs
            .problems
            .iter()
            .map(ToString::to_string)
            .find(|problem| problem.contains(&key))
            .unwrap_or_else(|| format!("{key} is not loaded."))
    }
}
