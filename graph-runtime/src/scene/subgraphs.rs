//! Finding and loading the graph files that Subgraph nodes name, for a scene's graphs or for
//! one graph file on its own. Compiling then inlines them ([`crate::inline_subgraphs`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::assets::{locate, unloadable};
use super::{FileAccess, SceneError};
use crate::compile::{CompileError, Program, subgraph_key};
use crate::{Graph, Node, NodeId};

/// Loads into `graphs` every graph file that the graphs in it use as subgraphs, and the ones
/// those use, each once, keyed by its path from `directory` ([`crate::subgraph_key`]), under
/// the same rules as a scene's own files. A file that cannot be loaded is reported here;
/// compiling then names the Subgraph node that wanted it.
pub fn load_subgraphs(
    graphs: &mut BTreeMap<String, Graph>,
    directory: &Path,
    access: FileAccess,
) -> Vec<SceneError> {
    load_into(graphs, directory, access)
        .into_iter()
        .map(|(_, error)| error)
        .collect()
}

/// [`load_subgraphs`], each error with the key of the file it is about.
fn load_into(
    graphs: &mut BTreeMap<String, Graph>,
    directory: &Path,
    access: FileAccess,
) -> Vec<(String, SceneError)> {
    let mut errors = Vec::new();
    let mut walk = SubgraphWalk::new(graphs);
    while let Some(wanted) = walk.next(graphs) {
        let loaded = locate(directory, &wanted.file, access)
            .map_err(|why| SceneError::Invalid {
                origin: wanted.parent.clone(),
                message: format!("node {}: subgraph \"{}\" {why}", wanted.node, wanted.file),
            })
            .and_then(|path| {
                Graph::load(&path).map_err(|error| {
                    let place = format!("node {}", wanted.node);
                    unloadable(&wanted.parent, &place, &wanted.file, error)
                })
            });
        match loaded {
            Ok(sub) => walk.loaded(graphs, wanted, sub),
            Err(error) => errors.push((wanted.file, error)),
        }
    }
    errors
}

/// A subgraph file a walk wants next: named by node `node` of the graph keyed `parent`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WantedSubgraph {
    /// The key of the graph that names it.
    pub parent: String,
    /// The Subgraph node that names it.
    pub node: NodeId,
    /// Its key ([`crate::subgraph_key`]).
    pub file: String,
}

/// The walk over the subgraph files some graphs use, and the ones those use, each wanted
/// once, in the same order for every reader (the runtime's from disk, a game engine's through
/// its own asset reader, which may await between steps): [`SubgraphWalk::next`] names the
/// next file to read, [`SubgraphWalk::loaded`] hands it in (a file that could not be read is
/// simply not handed in).
#[derive(Clone, Debug, Default)]
pub struct SubgraphWalk {
    tried: BTreeSet<String>,
    pending: Vec<String>,
    /// The graph whose uses are being gone through, and the uses left.
    current: Option<(String, std::vec::IntoIter<(NodeId, String)>)>,
}

impl SubgraphWalk {
    /// A walk from every graph of `graphs` (by key).
    pub fn new(graphs: &BTreeMap<String, Graph>) -> Self {
        Self {
            tried: BTreeSet::new(),
            pending: graphs.keys().cloned().collect(),
            current: None,
        }
    }

    /// The next file to read, or `None` when every file used has been wanted once.
    pub fn next(&mut self, graphs: &BTreeMap<String, Graph>) -> Option<WantedSubgraph> {
        loop {
            if let Some((parent, uses)) = &mut self.current {
                for (node, file) in uses.by_ref() {
                    if graphs.contains_key(&file) || !self.tried.insert(file.clone()) {
                        continue;
                    }
                    return Some(WantedSubgraph {
                        parent: parent.clone(),
                        node,
                        file,
                    });
                }
            }
            let key = self.pending.pop()?;
            let uses = graphs
                .get(&key)
                .map(|graph| subgraph_uses(graph, &key))
                .unwrap_or_default();
            self.current = Some((key, uses.into_iter()));
        }
    }

    /// `wanted` was read as `graph`: it joins `graphs`, and the files it uses are wanted in
    /// turn.
    pub fn loaded(
        &mut self,
        graphs: &mut BTreeMap<String, Graph>,
        wanted: WantedSubgraph,
        graph: Graph,
    ) {
        graphs.insert(wanted.file.clone(), graph);
        self.pending.push(wanted.file);
    }
}

/// The Subgraph nodes of `graph` (saved as `key`) and the keys of the files they name
/// ([`crate::subgraph_key`]), in node order: what a loader of subgraph files reads next.
pub fn subgraph_uses(graph: &Graph, key: &str) -> Vec<(NodeId, String)> {
    graph
        .nodes
        .iter()
        .filter_map(|(id, node)| match node {
            // A node that names no file yet has nothing to load (compiling says so).
            Node::Subgraph { file, .. } if !file.trim().is_empty() => {
                Some((*id, subgraph_key(key, file)))
            }
            _ => None,
        })
        .collect()
}

/// The subgraph files that one graph file uses, loaded from the graph's folder (and only from
/// inside it, as a scene's files are): what [`Subgraphs::compile`] needs to compile the graph.
#[derive(Debug, Default)]
pub struct Subgraphs {
    /// The graph's own key: its file name.
    pub key: String,
    /// The graph's folder.
    pub folder: PathBuf,
    /// The subgraph files loaded, by key (path from the folder).
    pub library: BTreeMap<String, Graph>,
    /// The files that could not be loaded, and why.
    pub problems: Vec<SceneError>,
    /// The keys of those files.
    pub missing: BTreeSet<String>,
}

impl Subgraphs {
    /// The subgraphs of `graph`, saved (or to be saved) at `path`, read from disk now.
    pub fn load(graph: &Graph, path: &Path) -> Self {
        let key = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut library = BTreeMap::from([(key.clone(), graph.clone())]);
        let (missing, problems) = load_into(&mut library, &folder, FileAccess::SceneFolder)
            .into_iter()
            .unzip();
        library.remove(&key);
        Self {
            key,
            folder,
            library,
            problems,
            missing,
        }
    }

    /// `graph` compiled with these subgraphs written out.
    ///
    /// # Errors
    ///
    /// As [`crate::compile_with`].
    pub fn compile(&self, graph: &Graph) -> Result<Program, Vec<CompileError>> {
        crate::compile_keeping_source(graph, &self.key, &self.library)
    }

    /// `errors` of [`Subgraphs::compile`] as lines to show, `origin` naming the graph: first why
    /// each subgraph file could not be loaded (a symbolic link leading out, `..`, an absolute
    /// path, the wrong kind of file, `file:line:col`), then the compiler's errors, without the
    /// generic "not loaded" of a file whose reason is already said.
    pub fn messages(&self, origin: &str, errors: &[CompileError]) -> Vec<String> {
        let explained: BTreeSet<&str> = self.missing.iter().map(String::as_str).collect();
        self.problems
            .iter()
            .map(ToString::to_string)
            .chain(
                errors
                    .iter()
                    .filter(|error| {
                        !matches!(error, CompileError::SubgraphMissing { file, .. } if explained.contains(file.as_str()))
                    })
                    .map(|error| format!("{origin}: {error}")),
            )
            .collect()
    }

    /// The subgraph files named, loaded or not, in key order: the files to watch.
    pub fn files(&self) -> Vec<PathBuf> {
        let keys: BTreeSet<&String> = self.library.keys().chain(&self.missing).collect();
        keys.into_iter().map(|key| self.folder.join(key)).collect()
    }

    /// Whether `graph` names exactly the files loaded (directly or through them), so nothing
    /// needs reading again.
    pub fn covers(&self, graph: &Graph) -> bool {
        let mut wanted = BTreeSet::new();
        let mut pending = vec![(self.key.clone(), graph)];
        while let Some((key, graph)) = pending.pop() {
            for (_, file) in subgraph_uses(graph, &key) {
                if wanted.insert(file.clone()) {
                    match self.library.get(&file) {
                        Some(sub) => pending.push((file, sub)),
                        None if self.missing.contains(&file) => {}
                        None => return false,
                    }
                }
            }
        }
        wanted.len() == self.library.len() + self.missing.len()
    }
}
