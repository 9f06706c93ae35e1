//! The scene's other graphs follow their subgraph files: when one changes on disk, every
//! group whose graph uses it gets its recompiled program where its agents stand (the open
//! graph's groups follow the document, which recompiles itself).

use std::path::PathBuf;
use std::sync::Arc;

use graph_runtime::SceneAssets;

use super::Host;
use crate::editor::preview::OpenGraph;
use crate::editor::preview::scene_doc::SceneDocument;

/// The subgraph files `assets` holds besides the groups' own graphs, on disk.
pub(super) fn files(
    assets: &SceneAssets,
    document: &SceneDocument,
    open: &OpenGraph<'_>,
) -> Vec<PathBuf> {
    let Some(folder) = document.subgraph_folder(open) else {
        return Vec::new();
    };
    let groups: Vec<&String> = assets.scene.groups.iter().map(|g| &g.graph).collect();
    assets
        .graphs
        .keys()
        .filter(|key| !groups.contains(key))
        .map(|key| folder.join(key))
        .collect()
}

impl Host {
    /// The subgraph files the scene's graphs used at the last reset.
    pub fn subgraph_files(&self) -> &[PathBuf] {
        &self.subgraph_files
    }

    /// A subgraph file changed: reads the scene's files again and gives every group that does
    /// not run the open graph its recompiled program, agents kept where they are. A graph
    /// that no longer compiles keeps its last program, and the problem is listed.
    pub fn subgraphs_changed(&mut self, document: &SceneDocument, open: &OpenGraph<'_>) {
        let assets = match document.assets(open) {
            Ok(assets) => assets,
            Err(problems) => return self.problems.extend(problems),
        };
        self.subgraph_files = files(&assets, document, open);
        let Some(simulation) = self.simulation.as_mut() else {
            return;
        };
        for (index, group) in assets.scene.groups.iter().enumerate() {
            let Some(graph) = assets.graphs.get(&group.graph) else {
                continue;
            };
            if group.graph == open.name {
                continue;
            }
            let problem =
                |error: &dyn std::fmt::Display| format!("group \"{}\": {error}", group.name);
            let program =
                match graph_runtime::compile_keeping_source(graph, &group.graph, &assets.graphs) {
                    Ok(program) => Arc::new(program),
                    Err(errors) => {
                        self.problems.extend(errors.iter().map(|e| problem(e)));
                        continue;
                    }
                };
            match program.parameters(&group.parameters) {
                Ok(params) => match simulation.set_program(index, program, params) {
                    Ok(errors) => self.problems.extend(errors.iter().map(|e| problem(e))),
                    Err(error) => self
                        .problems
                        .push(problem(&format!("this edit is not run: {error}"))),
                },
                Err(errors) => self.problems.extend(errors.iter().map(|e| problem(e))),
            }
        }
    }
}
