//! "Export for game": a self-contained folder a game (or `steergraph check` and
//! `steergraph simulate`) loads as it is. The graph without its editor section, the subgraph
//! files it uses at the same paths from it, every flow field as its own `.flow.ron`, and,
//! when the preview's scene runs the graph, that scene (`<graph>.scene.ron`) with the other
//! graphs its groups run. Names inside the files match the files written: the scene's groups
//! name the exported graph, its flow fields name their files, and the graph keeps naming its
//! fields by the scene's names. Everything is written at once or not at all.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use graph_runtime::{FlowField, FlowFieldSource, Graph, NameKind, Node, SceneAssets, Subgraphs};

use super::field_files::field_files;

/// What an export writes from.
pub struct Export<'a> {
    /// The open graph, layout and all.
    pub graph: &'a Graph,
    /// The subgraph files the open graph uses (read from beside it).
    pub subgraphs: &'a Subgraphs,
    /// The preview's working flow fields by name.
    pub fields: &'a BTreeMap<String, FlowField>,
    /// The preview's scene with its graphs, when one of its groups runs the open graph under
    /// the name `bound`.
    pub scene: Option<(SceneAssets, &'a str)>,
    /// Files the export must not replace (the open graph's and scene's own files).
    pub keep: Vec<PathBuf>,
}

/// The files written and the scene among them, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exported {
    /// Every file written, the graph first.
    pub files: Vec<PathBuf>,
    /// The exported scene, when one was written.
    pub scene: Option<PathBuf>,
}

/// Exports `export` with its graph at `path`; returns the files written, or why nothing was.
pub fn export_for_game(export: &Export<'_>, path: &Path) -> Result<Exported, String> {
    let subgraphs = export.subgraphs;
    if !subgraphs.missing.is_empty() {
        let missing: Vec<&str> = subgraphs.missing.iter().map(String::as_str).collect();
        return Err(format!(
            "the graph uses subgraph files that are not there: {}",
            missing.join(", ")
        ));
    }
    let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let graph_file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{} is not a file name", path.display()))?;
    let mut plan = Plan::default();
    let graphs = plan.graphs(export, path, &directory)?;
    let files = plan.fields(export, &graphs, &directory)?;
    let scene = match &export.scene {
        Some((assets, bound)) => {
            Some(plan.scene(assets, bound, &graph_file, &files, &directory)?)
        }
        None => None,
    };
    if let Some(kept) = plan
        .files
        .iter()
        .map(|(p, _)| p)
        .find(|p| export.keep.iter().any(|k| same_file(k, p)))
    {
        return Err(format!(
            "exporting there would replace {} with a copy without its editor layout: choose another folder (an \"export\" folder beside it, say) or another name",
            kept.display()
        ));
    }
    for (file, _) in &plan.files {
        if let Some(folder) = file.parent() {
            std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        }
    }
    graph_runtime::write_all_atomically(&plan.files).map_err(|e| e.to_string())?;
    Ok(Exported {
        files: plan.files.into_iter().map(|(p, _)| p).collect(),
        scene,
    })
}

/// The files an export will write, in order.
#[derive(Default)]
struct Plan {
    files: Vec<(PathBuf, String)>,
}

impl Plan {
    /// The graph at `path`, its subgraph files, and the other graphs the scene's groups run;
    /// returns every graph whose flow fields must go along.
    fn graphs<'a>(
        &mut self,
        export: &'a Export<'_>,
        path: &Path,
        directory: &Path,
    ) -> Result<Vec<&'a Graph>, String> {
        let subgraphs = export.subgraphs;
        self.add(path.to_path_buf(), text(&export.graph.without_editor())?);
        // Exported beside the open graph, its subgraph files are there already, with their
        // layout: rewriting them without it would lose the designer's work.
        let beside = same_folder(directory, &subgraphs.folder);
        for (key, subgraph) in subgraphs.library.iter().filter(|_| !beside) {
            self.add(directory.join(key), text(&subgraph.without_editor())?);
        }
        let mut graphs: Vec<&Graph> = std::iter::once(export.graph)
            .chain(subgraphs.library.values())
            .collect();
        if let Some((assets, bound)) = &export.scene {
            let scene_folder = assets_folder(assets);
            for (key, graph) in assets.graphs.iter().filter(|(key, _)| key != bound) {
                graphs.push(graph);
                let target = directory.join(key);
                let source_is_target = scene_folder
                    .as_deref()
                    .is_some_and(|folder| same_file(&folder.join(key), &target));
                if !source_is_target {
                    self.add(target, text(&graph.without_editor())?);
                }
            }
        }
        Ok(graphs)
    }

    /// Every flow field `graphs` follow, and every field the scene has, each as its own file;
    /// returns each field's file name.
    fn fields(
        &mut self,
        export: &Export<'_>,
        graphs: &[&Graph],
        directory: &Path,
    ) -> Result<BTreeMap<String, String>, String> {
        let used: BTreeSet<String> = graphs
            .iter()
            .flat_map(|g| g.nodes.values())
            .flat_map(Node::names)
            .filter(|named| named.kind == NameKind::FlowField)
            .map(|named| named.name.to_owned())
            .collect();
        let missing: Vec<&str> = used
            .iter()
            .filter(|name| !export.fields.contains_key(name.as_str()))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "the graph follows flow fields the open scene does not have: {}",
                missing.join(", ")
            ));
        }
        let mut names = used;
        if let Some((assets, _)) = &export.scene {
            names.extend(assets.scene.flow_fields.keys().cloned());
        }
        let files = field_files(names.iter());
        for (name, file) in &files {
            if let Some(field) = export.fields.get(name) {
                let ron = field
                    .to_ron()
                    .map_err(|e| format!("flow field \"{name}\": {e}"))?;
                self.add(directory.join(file), ron);
            }
        }
        Ok(files)
    }

    /// The scene beside the graph (`<graph>.scene.ron`), its groups running the exported
    /// graph and its flow fields named by their files; returns its path.
    fn scene(
        &mut self,
        assets: &SceneAssets,
        bound: &str,
        graph_file: &str,
        files: &BTreeMap<String, String>,
        directory: &Path,
    ) -> Result<PathBuf, String> {
        let mut scene = assets.scene.clone();
        for group in &mut scene.groups {
            if group.graph == bound {
                graph_file.clone_into(&mut group.graph);
            }
        }
        for (name, source) in &mut scene.flow_fields {
            if let Some(file) = files.get(name) {
                *source = FlowFieldSource::File(file.clone());
            }
        }
        let stem = graph_file
            .strip_suffix(".graph.ron")
            .or_else(|| graph_file.strip_suffix(".ron"))
            .unwrap_or(graph_file);
        let file = directory.join(format!("{stem}.scene.ron"));
        self.add(file.clone(), scene.to_ron().map_err(|e| e.to_string())?);
        Ok(file)
    }

    fn add(&mut self, path: PathBuf, text: String) {
        if !self.has(&path) {
            self.files.push((path, text));
        }
    }

    fn has(&self, path: &Path) -> bool {
        self.files.iter().any(|(p, _)| p == path)
    }
}

fn text(graph: &Graph) -> Result<String, String> {
    graph.to_ron().map_err(|e| e.to_string())
}

/// The folder a scene's files were read from, when it was read from one.
fn assets_folder(assets: &SceneAssets) -> Option<PathBuf> {
    let origin = Path::new(&assets.origin);
    origin
        .is_file()
        .then(|| origin.parent().map(Path::to_path_buf))
        .flatten()
}

fn canonical(path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    })
    .ok()
}

fn same_folder(a: &Path, b: &Path) -> bool {
    matches!((canonical(a), canonical(b)), (Some(a), Some(b)) if a == b)
}

/// Whether `a` and `b` are the same file (an existing file, or the same path in the same
/// folder).
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    let folder = |p: &Path| p.parent().and_then(canonical);
    match (folder(a), folder(b)) {
        (Some(fa), Some(fb)) => fa == fb && a.file_name() == b.file_name(),
        _ => false,
    }
}
