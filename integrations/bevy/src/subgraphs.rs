//! The subgraph files a graph or a scene's graphs use, read through Bevy's asset reader so
//! that saving one reloads the assets that use it (hot reload reaches through subgraphs).

use std::collections::BTreeMap;

use bevy_asset::LoadContext;
use graph_runtime::{Graph, SceneError, SubgraphWalk, check_inside_scene_folder};

use crate::read::read_file;

/// Reads into `graphs` (keyed by their path from the folder of the asset being loaded) every
/// graph file they use as subgraphs, and the ones those use, each once, in the runtime's
/// walk (`SubgraphWalk`, which its `load_subgraphs` takes too) and under its rules: files must
/// stay inside that folder. A file that cannot be read
/// is reported here; compiling then names the Subgraph node that wanted it.
pub(crate) async fn read_subgraphs(
    load_context: &mut LoadContext<'_>,
    graphs: &mut BTreeMap<String, Graph>,
) -> Vec<SceneError> {
    let origin = load_context.path().to_string();
    let mut errors = Vec::new();
    let mut walk = SubgraphWalk::new(graphs);
    while let Some(wanted) = walk.next(graphs) {
        let refused = |why: String| SceneError::Invalid {
            origin: origin.clone(),
            message: format!(
                "{}: node {}: subgraph \"{}\" {why}",
                wanted.parent, wanted.node, wanted.file
            ),
        };
        if let Err(why) = check_inside_scene_folder(&wanted.file) {
            errors.push(refused(why));
            continue;
        }
        let path = match load_context.path().resolve_embed_str(&wanted.file) {
            Ok(path) => path.to_string(),
            Err(error) => {
                errors.push(refused(format!("is not a valid asset path: {error}")));
                continue;
            }
        };
        let loaded = match read_file(load_context, &path).await {
            Ok(text) => Graph::from_ron(&text, &path).map_err(SceneError::from),
            Err(error) => Err(error),
        };
        match loaded {
            Ok(sub) => walk.loaded(graphs, wanted, sub),
            Err(error) => errors.push(error),
        }
    }
    errors
}
