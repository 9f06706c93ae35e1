//! `.graph.ron` files as Bevy assets: the graph and its compiled program.

use std::sync::Arc;

use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, LoadContext};
use bevy_reflect::TypePath;
use std::collections::BTreeMap;

use graph_runtime::{Graph, Program, compile_with};

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

/// Loads `.graph.ron` files into [`SteerGraph`]s, with the subgraph files they use (from the
/// graph's folder; saving one reloads the graph); a graph that does not compile fails to load
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
        let graph = Graph::from_ron(&text, &path)?;
        let key = load_context
            .path()
            .path()
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut library = BTreeMap::from([(key.clone(), graph.clone())]);
        let problems = crate::subgraphs::read_subgraphs(load_context, &mut library).await;
        library.remove(&key);
        match compile_with(&graph, &key, &library) {
            Ok(program) => Ok(SteerGraph {
                graph,
                program: Arc::new(program),
            }),
            // A subgraph file that did not load says why (with its file:line:col).
            Err(_) if !problems.is_empty() => Err(SteerAssetError::Scene { errors: problems }),
            Err(errors) => Err(SteerAssetError::Compile { path, errors }),
        }
    }

    fn extensions(&self) -> &[&str] {
        &["graph.ron"]
    }
}
