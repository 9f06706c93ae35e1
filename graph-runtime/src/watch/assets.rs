//! A graph file reloaded and recompiled whenever it changes on disk.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::files::{FileWatcher, WatchError};
use crate::{CompileError, Graph, LoadError, Program, SceneError, Subgraphs};

/// Why a graph could not be (re)loaded.
#[derive(Debug, thiserror::Error)]
pub enum ReloadError {
    /// The file cannot be watched.
    #[error(transparent)]
    Watch(#[from] WatchError),
    /// The file cannot be read or parsed (the message has `file:line:col`).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A subgraph file the graph uses cannot be read or parsed, or is outside the graph's
    /// folder.
    #[error("{0}")]
    Subgraph(SceneError),
    /// The graph loads but does not compile.
    #[error("{path}: the graph does not compile:{}", list(errors))]
    Compile {
        /// The file.
        path: String,
        /// Every problem, with its node and port.
        errors: Vec<CompileError>,
    },
}

fn list(errors: &[CompileError]) -> String {
    let mut text = String::new();
    for error in errors {
        let _ = write!(text, "\n  {error}");
    }
    text
}

/// A graph file loaded and compiled, loaded and compiled again whenever it or one of the
/// subgraph files it uses changes on disk: hot reload for a game's own loop.
///
/// [`AssetWatcher::poll`] never blocks; call it once a frame. When the file changed it hands
/// back the new [`Program`] (give it to [`crate::Crowd::set_program`]: the agents stay where
/// they are), or, when the new file does not load or compile, the error. A broken save never
/// replaces the last good program: [`AssetWatcher::program`] stays the last one that compiled,
/// and the next good save is picked up as usual.
///
/// Needs the `watch` feature.
///
/// # Examples
///
/// ```no_run
/// use graph_runtime::{AssetWatcher, Crowd, World};
///
/// let world = World::default();
/// let mut graph = AssetWatcher::new("fish.graph.ron")?;
/// let mut crowd = Crowd::new(graph.program().clone(), &world, 7, &Default::default())
///     .expect("names resolve");
/// loop {
///     match graph.poll() {
///         Some(Ok(program)) => {
///             if let Err(errors) = crowd.set_program(program, &world, &Default::default()) {
///                 eprintln!("kept the old graph: {errors:?}");
///             }
///         }
///         Some(Err(error)) => eprintln!("kept the old graph: {error}"), // file:line:col
///         None => {}
///     }
///     // crowd.steer(...), step the agents, draw.
/// #   break;
/// }
/// # Ok::<(), graph_runtime::ReloadError>(())
/// ```
#[derive(Debug)]
pub struct AssetWatcher {
    files: FileWatcher,
    graph: PathBuf,
    /// The subgraph files being watched besides the graph.
    subgraphs: BTreeSet<PathBuf>,
    program: Arc<Program>,
}

impl AssetWatcher {
    /// Loads and compiles the graph at `graph`, and starts watching it.
    pub fn new(graph: impl AsRef<Path>) -> Result<Self, ReloadError> {
        let graph = graph.as_ref().to_path_buf();
        let mut files = FileWatcher::new()?;
        files.watch(&graph)?;
        let (used, program) = load(&graph);
        let mut watcher = Self {
            files,
            graph,
            subgraphs: BTreeSet::new(),
            program: program?,
        };
        watcher.follow(used.unwrap_or_default());
        Ok(watcher)
    }

    /// Sets how long the file must stay quiet before a change is picked up
    /// ([`crate::WATCH_DEBOUNCE`] by default).
    pub fn set_debounce(&mut self, debounce: Duration) {
        self.files.set_debounce(debounce);
    }

    /// The graph file.
    pub fn path(&self) -> &Path {
        &self.graph
    }

    /// The last program that compiled.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// `None` while the file has not changed; else the new program (now also
    /// [`AssetWatcher::program`]) or why the new file was refused (the last good program
    /// stays). Never blocks.
    pub fn poll(&mut self) -> Option<Result<Arc<Program>, ReloadError>> {
        if self.files.poll().is_empty() {
            return None;
        }
        let (used, program) = load(&self.graph);
        if let Some(used) = used {
            self.follow(used);
        }
        Some(program.inspect(|program| self.program = Arc::clone(program)))
    }

    /// Watches exactly the subgraph files `used` besides the graph (a file that cannot be
    /// watched is skipped: its changes then go unnoticed).
    fn follow(&mut self, used: BTreeSet<PathBuf>) {
        // A subgraph that names the graph itself (a loop the compiler refuses) must not
        // unwatch the graph later.
        let itself = |file: &PathBuf| {
            *file == self.graph
                || matches!(
                    (std::fs::canonicalize(file), std::fs::canonicalize(&self.graph)),
                    (Ok(a), Ok(b)) if a == b
                )
        };
        let used: BTreeSet<PathBuf> = used.into_iter().filter(|f| !itself(f)).collect();
        for gone in self.subgraphs.difference(&used) {
            self.files.unwatch(gone);
        }
        for new in used.difference(&self.subgraphs) {
            let _ = self.files.watch(new);
        }
        self.subgraphs = used;
    }
}

/// The subgraph files that the graph file at `path` names (`None` when the graph itself does
/// not load) and its program.
type Loaded = (Option<BTreeSet<PathBuf>>, Result<Arc<Program>, ReloadError>);

fn load(path: &Path) -> Loaded {
    let graph = match Graph::load(path) {
        Ok(graph) => graph,
        Err(error) => return (None, Err(error.into())),
    };
    let mut subgraphs = Subgraphs::load(&graph, path);
    let used = Some(subgraphs.files().into_iter().collect());
    let program =
        subgraphs
            .compile(&graph)
            .map(Arc::new)
            .map_err(|errors| match subgraphs.problems.pop() {
                Some(problem) => ReloadError::Subgraph(problem),
                None => ReloadError::Compile {
                    path: path.display().to_string(),
                    errors,
                },
            });
    (used, program)
}
