//! The subgraph files a graph or a scene's graphs use, read through Bevy's asset reader so
//! that saving one reloads the assets that use it (hot reload reaches through subgraphs).

use std::collections::{BTreeMap, BTreeSet};

use bevy_asset::LoadContext;
use graph_runtime::{Graph, SceneError, check_inside_scene_folder, subgraph_uses};

use crate::read::read_file;

/// Reads into `graphs` (keyed by their path from the folder of the asset being loaded) every
/// graph file they use as subgraphs, and the ones those use, each once; the same rules as the
/// runtime's `load_subgraphs`: files must stay inside that folder. A file that cannot be read
/// is reported here; compiling then names the Subgraph node that wanted it.
pub(crate) async fn read_subgraphs(
    load_context: &mut LoadContext<'_>,
    graphs: &mut BTreeMap<String, Graph>,
) -> Vec<SceneError> {
    let origin = load_context.path().to_string();
    let mut errors = Vec::new();
    let mut tried = BTreeSet::new();
    let mut pending: Vec<String> = graphs.keys().cloned().collect();
    while let Some(key) = pending.pop() {
        let Some(graph) = graphs.get(&key) else {
            continue;
        };
        for (node, file) in subgraph_uses(graph, &key) {
            if graphs.contains_key(&file) || !tried.insert(file.clone()) {
                continue;
            }
            let refused = |why: String| SceneError::Invalid {
                origin: origin.clone(),
                message: format!("{key}: node {node}: subgraph \"{file}\" {why}"),
            };
            if let Err(why) = check_inside_scene_folder(&file) {
                errors.push(refused(why));
                continue;
            }
            let path = match load_context.path().resolve_embed_str(&file) {
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
                Ok(sub) => {
                    graphs.insert(file.clone(), sub);
                    pending.push(file);
                }
                Err(error) => errors.push(error),
            }
        }
    }
    errors
}
