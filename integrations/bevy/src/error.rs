//! Why a Steergraph asset could not be loaded into Bevy.

use graph_runtime::{CompileError, LoadError, SceneError};

/// Why a `.graph.ron`, `.scene.ron` or `.flow.ron` asset did not load.
///
/// The runtime's own errors are kept whole, so their places survive: a [`LoadError`] names
/// `file:line:col`, a [`CompileError`] names the node id and port, a [`SceneError`] the group
/// and field. Bevy shows this error's text when it logs the failed load.
#[derive(Debug, thiserror::Error)]
pub enum SteerAssetError {
    /// Bevy's asset reader could not deliver the file's bytes.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// The asset path.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The text is not a valid asset of the expected kind (RON syntax, unknown field, newer
    /// format version, too large, not UTF-8); the error carries `file:line:col` where there is one.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The graph parsed but does not compile; every problem, each naming its node and port.
    #[error("{}", compile_list(path, errors))]
    Compile {
        /// The graph's asset path.
        path: String,
        /// Every problem the compiler found.
        errors: Vec<CompileError>,
    },
    /// The scene, or a graph or flow field it names, does not load, compile or bind.
    #[error("{}", scene_list(errors))]
    Scene {
        /// Every problem found, each with its file and place.
        errors: Vec<SceneError>,
    },
}

/// One line per compile error, each prefixed with the graph's path as the runtime's
/// `SceneError::Compile` does.
fn compile_list(path: &str, errors: &[CompileError]) -> String {
    errors
        .iter()
        .map(|error| format!("{path}: {error}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line per scene error.
fn scene_list(errors: &[SceneError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}
