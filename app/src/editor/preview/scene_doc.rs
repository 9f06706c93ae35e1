//! The preview's scene as a document: the scene, working copies of its flow fields, where it
//! is saved, its undo history, and the files a save must write so the scene works outside the
//! editor too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use graph_runtime::{
    FileAccess, FlowField, FlowFieldSource, Graph, Scene, SceneAssets, load_subgraphs,
};

use super::super::field_files::free_field_file;
use super::super::history::History;
use super::super::presets;
use super::OpenGraph;

mod fields;

/// What one undo step of the scene restores: the scene and the working copies of its fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    scene: Scene,
    fields: BTreeMap<String, FlowField>,
}

/// The scene open in the preview.
pub struct SceneDocument {
    /// The scene being edited and run.
    pub scene: Scene,
    /// Working copies of the scene's flow fields (painted live, saved with the scene).
    pub fields: BTreeMap<String, FlowField>,
    /// Where the scene is saved, if anywhere.
    pub path: Option<PathBuf>,
    /// Shown when the scene has no path (a preset's file name, or "untitled").
    pub label: String,
    /// The embedded preset scene it was opened from (its file name), if any.
    pub preset: Option<String>,
    /// Flow fields that could not be loaded (with places).
    pub problems: Vec<String>,
    history: History<Snapshot>,
    fields_revision: u64,
}

impl SceneDocument {
    /// `scene`, saved at `path` (or labelled `label`), with its flow fields loaded.
    pub fn new(scene: Scene, path: Option<PathBuf>, label: String) -> Self {
        let mut document = Self {
            scene,
            fields: BTreeMap::new(),
            path,
            label,
            preset: None,
            problems: Vec::new(),
            history: History::new(Snapshot::default()),
            fields_revision: 1,
        };
        document.load_fields();
        document.history = History::new(document.snapshot());
        document
    }

    /// The embedded preset scene `file`, unsaved.
    pub fn from_preset(scene: Scene, file: &str) -> Self {
        let mut document = Self::new(scene, None, file.to_owned());
        document.preset = Some(file.to_owned());
        document
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            scene: self.scene.clone(),
            fields: self.fields.clone(),
        }
    }

    /// The name shown for the scene: its file name, else its label.
    pub fn name(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or_else(|| self.label.clone(), |n| n.to_string_lossy().into_owned())
    }

    /// Changes whenever a field's data changes (to push fields into the running world).
    pub fn fields_revision(&self) -> u64 {
        self.fields_revision
    }

    /// Call after changing a working field.
    pub fn fields_changed(&mut self) {
        self.fields_revision += 1;
    }

    /// The folder the scene's files are resolved in.
    pub fn directory(&self) -> Option<PathBuf> {
        self.path
            .as_ref()
            .and_then(|p| p.parent())
            .map(Path::to_path_buf)
    }

    /// What the preview runs (and a sweep sweeps): the scene with the graph of every group
    /// (the open graph as it is now, saved or not, for groups running `open.name`), the
    /// subgraph files they use, and the working flow fields; the target `cursor` is added at
    /// the origin when the scene has none. Each graph that cannot be loaded is a problem
    /// naming its group (a subgraph file, naming the node that uses it).
    pub fn assets(&self, open: &OpenGraph<'_>) -> Result<SceneAssets, Vec<String>> {
        let mut scene = self.scene.clone();
        scene
            .targets
            .entry("cursor".to_owned())
            .or_insert(glam::Vec2::ZERO);
        let mut graphs = BTreeMap::new();
        let mut problems = Vec::new();
        for group in &scene.groups {
            if graphs.contains_key(&group.graph) {
                continue;
            }
            let graph = if group.graph == open.name {
                Ok(open.graph.clone())
            } else {
                self.load_graph(&group.graph)
            };
            match graph {
                Ok(graph) => {
                    graphs.insert(group.graph.clone(), graph);
                }
                Err(problem) => problems.push(format!("group \"{}\": {problem}", group.name)),
            }
        }
        // The subgraph files those graphs use, as `SceneAssets::load` reads them for games.
        if let Some(folder) = self.subgraph_folder(open) {
            let errors = load_subgraphs(&mut graphs, &folder, FileAccess::SceneFolder);
            problems.extend(errors.iter().map(ToString::to_string));
        }
        // A subgraph open in the editor runs as it is there, saved or not.
        for (key, graph) in open.subgraph_overrides.into_iter().flatten() {
            if let Some(loaded) = graphs.get_mut(key) {
                loaded.clone_from(graph);
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(SceneAssets {
            scene,
            origin: self.origin(),
            graphs,
            flow_fields: self.fields.clone(),
        })
    }

    /// How messages about the scene name it: its path, else its label.
    pub fn origin(&self) -> String {
        self.path
            .as_ref()
            .map_or_else(|| self.label.clone(), |p| p.display().to_string())
    }

    /// The folder subgraph files are read from: the scene's, or, for a scene not saved yet,
    /// the open graph's.
    pub fn subgraph_folder(&self, open: &OpenGraph<'_>) -> Option<PathBuf> {
        self.directory()
            .or_else(|| open.path.and_then(Path::parent).map(Path::to_path_buf))
    }

    /// Loads graph file `name` of a group: beside the scene, else an embedded preset.
    pub fn load_graph(&self, name: &str) -> Result<Graph, String> {
        if name.trim().is_empty() {
            return Err(
                "its graph file is named \"\" (no file): choose one in the Scene panel".to_owned(),
            );
        }
        if let Some(path) = self.directory().map(|d| d.join(name))
            && path.exists()
        {
            return Graph::load(&path).map_err(|e| e.to_string());
        }
        presets::GRAPHS.iter().find(|p| p.file == name).map_or_else(
            || Err(format!("graph file \"{name}\" not found beside the scene")),
            |p| Graph::from_ron(p.text, p.file).map_err(|e| e.to_string()),
        )
    }

    /// Whether the scene differs from what was opened or saved.
    pub fn is_dirty(&self) -> bool {
        self.history.is_dirty()
    }

    /// Marks the scene as saved at `path`.
    pub fn mark_saved(&mut self, path: PathBuf) {
        self.record();
        self.path = Some(path);
        self.history.mark_saved();
    }

    /// Marks the scene as differing from disk whatever it holds (recovered work).
    pub fn mark_unsaved(&mut self) {
        self.history.mark_unsaved();
    }

    /// Records a finished change as one undo step; returns whether there was one.
    pub fn record(&mut self) -> bool {
        self.history.record(&self.snapshot())
    }

    /// Steps back one change.
    pub fn undo(&mut self) -> bool {
        self.record();
        let Some(snapshot) = self.history.undo().cloned() else {
            return false;
        };
        self.restore(snapshot);
        true
    }

    /// Steps forward one undone change.
    pub fn redo(&mut self) -> bool {
        self.record();
        let Some(snapshot) = self.history.redo().cloned() else {
            return false;
        };
        self.restore(snapshot);
        true
    }

    fn restore(&mut self, snapshot: Snapshot) {
        self.scene = snapshot.scene;
        self.fields = snapshot.fields;
        self.fields_changed();
    }

    /// The groups running graph file `old` run `new` instead: the open graph was saved under
    /// a new name. Not an edit of the user's, so it is not an undo step and marks nothing.
    pub fn rename_graph(&mut self, old: &str, new: &str) {
        let rename = |scene: &mut Scene| {
            for group in &mut scene.groups {
                if group.graph == old {
                    new.clone_into(&mut group.graph);
                }
            }
        };
        rename(&mut self.scene);
        self.history.rewrite(|snapshot| rename(&mut snapshot.scene));
    }

    /// Every file saving the scene at `path` writes, in the order to write them (flow fields
    /// and graphs first, the scene last), so that the saved scene runs outside the editor.
    /// Refuses, naming the file, when the scene needs a graph that cannot be found.
    pub fn bundle(&self, path: &Path, open: &OpenGraph<'_>) -> Result<Bundle, String> {
        let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut bundle = Bundle::default();
        let mut scene = self.scene.clone();
        // A field painted or made here is saved as `<name>.flow.ron` beside the scene, as a
        // game loads it, not inline in the scene; never over a file the scene does not name.
        let mut named: BTreeSet<String> = scene
            .flow_fields
            .values()
            .filter_map(|source| match source {
                FlowFieldSource::File(file) => Some(file.clone()),
                FlowFieldSource::Inline(_) => None,
            })
            .collect();
        for (name, source) in &mut scene.flow_fields {
            if matches!(source, FlowFieldSource::Inline(_)) && self.fields.contains_key(name) {
                let file =
                    free_field_file(name, |f| named.contains(f) || directory.join(f).exists());
                named.insert(file.clone());
                bundle.field_files.insert(name.clone(), file.clone());
                *source = FlowFieldSource::File(file);
            }
            let (Some(field), FlowFieldSource::File(file)) = (self.fields.get(name), &*source)
            else {
                continue;
            };
            let text = field
                .to_ron()
                .map_err(|e| format!("flow field \"{name}\": {e}"))?;
            bundle.files.push((directory.join(file), text));
        }
        let mut graphs: Vec<&str> = scene.groups.iter().map(|g| g.graph.as_str()).collect();
        graphs.sort_unstable();
        graphs.dedup();
        for name in graphs {
            if let Err(reason) = graph_runtime::check_inside_scene_folder(name) {
                return Err(format!(
                    "the scene runs \"{name}\", which is not in the scene's folder: it {reason}"
                ));
            }
            let target = directory.join(name);
            if name == open.name {
                if open.path != Some(target.as_path()) {
                    let text = open.graph.to_ron().map_err(|e| e.to_string())?;
                    bundle.files.push((target.clone(), text));
                    bundle.open_graph = Some(target);
                }
            } else if !target.exists() {
                let text = self.graph_text(name).ok_or_else(|| {
                    format!(
                        "the scene runs \"{name}\", which is neither beside the scene, in the folder it was opened from, nor a preset: put it there or change the group's graph"
                    )
                })?;
                bundle.files.push((target, text));
            }
        }
        bundle.files.push((
            path.to_path_buf(),
            scene.to_ron().map_err(|e| e.to_string())?,
        ));
        Ok(bundle)
    }

    /// The text of graph file `name` from the scene's old folder or the presets.
    fn graph_text(&self, name: &str) -> Option<String> {
        if let Some(path) = self.directory().map(|d| d.join(name))
            && let Ok(text) = std::fs::read_to_string(path)
        {
            return Some(text);
        }
        presets::GRAPHS
            .iter()
            .find(|p| p.file == name)
            .map(|p| p.text.to_owned())
    }
}

/// The files one scene save writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bundle {
    /// Each file and its text, the scene last.
    pub files: Vec<(PathBuf, String)>,
    /// Where the open graph is written, when the bundle writes it.
    pub open_graph: Option<PathBuf>,
    /// The fields that were inline in the scene and are now files beside it (name, file).
    pub field_files: BTreeMap<String, String>,
}
