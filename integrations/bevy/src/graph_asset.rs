//! `.graph.ron` files as Bevy assets: the graph and its compiled program.

use std::sync::Arc;

use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, LoadContext};
use bevy_reflect::TypePath;
use graph_runtime::{Graph, Program, compile};

use crate::SteerAssetError;
use crate::read::read_text;

/// A behavior graph, loaded and compiled.
///
/// Agents hold a `Handle<SteerGraph>`; when the file is saved again (with Bevy's
/// `file_watcher`), the asset is replaced and every agent running it switches to the new
/// [`Program`] at its next tick, where it stands. A save that does not load or compile leaves
/// this asset, and so the running program, as it was.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct SteerGraph {
    /// The graph as written in the file (with the editor's layout, if any).
    pub graph: Graph,
    /// The compiled graph, shared by every agent running it.
    pub program: Arc<Program>,
}

/// Loads `.graph.ron` files into [`SteerGraph`]s; a graph that does not compile fails to load
/// with every [`graph_runtime::CompileError`], each naming its node.
#[derive(Default, TypePath)]
pub struct GraphLoader;

impl AssetLoader for GraphLoader {
    type Asset = SteerGraph;
    type Settings = ();
    type Error = SteerAssetError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<SteerGraph, SteerAssetError> {
        let path = load_context.path().to_string();
        let text = read_text(reader, &path).await?;
        compile_graph(&text, &path)
    }

    fn extensions(&self) -> &[&str] {
        &["graph.ron"]
    }
}

/// Parses and compiles a graph's text; `path` names it in errors.
pub(crate) fn compile_graph(text: &str, path: &str) -> Result<SteerGraph, SteerAssetError> {
    let graph = Graph::from_ron(text, path)?;
    let program = compile(&graph).map_err(|errors| SteerAssetError::Compile {
        path: path.to_owned(),
        errors,
    })?;
    Ok(SteerGraph {
        graph,
        program: Arc::new(program),
    })
}
