//! A scene with the graphs, subgraphs and flow fields it names, loaded from inside its
//! folder, and the errors that name where a file went wrong.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use super::{FlowFieldSource, Scene};
use crate::compile::{BindError, CompileError};
use crate::format::LoadError;
use crate::{FlowField, Graph};

/// A scene with every graph and flow-field file it refers to, loaded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SceneAssets {
    /// The scene.
    pub scene: Scene,
    /// Name of the scene in errors (its path).
    pub origin: String,
    /// Graphs by the path written in the scene's groups, and the subgraph files they use by
    /// their path from the scene's folder ([`crate::subgraph_key`]).
    pub graphs: BTreeMap<String, Graph>,
    /// Every flow field of the scene by name, inline or loaded from its file.
    pub flow_fields: BTreeMap<String, FlowField>,
}

/// A problem with a scene or with the assets it uses, naming where.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// A file could not be read or parsed.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A number or shape in the scene is invalid.
    #[error("{origin}: {message}")]
    Invalid {
        /// The scene file.
        origin: String,
        /// What and where (`groups[1].vehicle.mass: …`).
        message: String,
    },
    /// A group's graph does not compile.
    #[error("{graph}: {error}")]
    Compile {
        /// The graph file.
        graph: String,
        /// The problem.
        error: CompileError,
    },
    /// A group's parameter overrides do not fit its graph.
    #[error("{origin}: group \"{group}\": {error}")]
    Parameters {
        /// The scene file.
        origin: String,
        /// The group.
        group: String,
        /// The problem.
        error: CompileError,
    },
    /// A group's graph refers to something the scene does not have.
    #[error("{origin}: group \"{group}\" ({graph}): {error}")]
    Bind {
        /// The scene file.
        origin: String,
        /// The group.
        group: String,
        /// Its graph file.
        graph: String,
        /// The missing thing.
        error: BindError,
    },
    /// A group navigates (its graph has a Navigate node), and the scene's navigation mesh
    /// for its agents' radius cannot be built.
    #[error(
        "{origin}: group \"{group}\" navigates, but the level's navigation mesh cannot be built: {error}"
    )]
    Navigation {
        /// The scene file.
        origin: String,
        /// The group.
        group: String,
        /// Why.
        error: crate::NavError,
    },
    /// The scene uses more than 64 distinct tags.
    #[error("{origin}: more than 64 distinct tags")]
    TooManyTags {
        /// The scene file.
        origin: String,
    },
}

/// Where the graph and flow-field files a scene names may be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FileAccess {
    /// Only inside the scene's folder and its subfolders: an absolute path, a `..` that leaves
    /// the folder, or a symbolic link that leads out of it is refused. The default, right for
    /// assets from modders or downloads: a scene cannot make a game read `/etc/passwd`.
    #[default]
    SceneFolder,
    /// Anywhere the process may read. For trusted assets laid out across folders.
    Anywhere,
}

impl SceneAssets {
    /// Loads the scene at `path` and every graph and flow-field file it names, reporting every
    /// problem found (not only the first). Named files must lie inside the scene's folder
    /// ([`FileAccess::SceneFolder`]).
    pub fn load(path: &Path) -> Result<Self, Vec<SceneError>> {
        Self::load_with(path, FileAccess::SceneFolder)
    }

    /// [`SceneAssets::load`] with a choice of where named files may be.
    pub fn load_with(path: &Path, access: FileAccess) -> Result<Self, Vec<SceneError>> {
        let scene = Scene::load(path).map_err(|e| vec![SceneError::Load(e)])?;
        let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Self::resolve_with(scene, &path.display().to_string(), &directory, access)
    }

    /// Loads the files `scene` refers to, relative to `directory` and inside it
    /// ([`FileAccess::SceneFolder`]).
    pub fn resolve(scene: Scene, origin: &str, directory: &Path) -> Result<Self, Vec<SceneError>> {
        Self::resolve_with(scene, origin, directory, FileAccess::SceneFolder)
    }

    /// [`SceneAssets::resolve`] with a choice of where named files may be.
    pub fn resolve_with(
        scene: Scene,
        origin: &str,
        directory: &Path,
        access: FileAccess,
    ) -> Result<Self, Vec<SceneError>> {
        let refused = |place: String, file: &str, why: String| SceneError::Invalid {
            origin: origin.to_owned(),
            message: format!("{place}: \"{file}\" {why}"),
        };
        let mut errors: Vec<SceneError> = scene
            .validate()
            .into_iter()
            .map(|message| SceneError::Invalid {
                origin: origin.to_owned(),
                message,
            })
            .collect();
        let mut graphs = BTreeMap::new();
        for (index, group) in scene.groups.iter().enumerate() {
            if graphs.contains_key(&group.graph) {
                continue;
            }
            let file = match locate(directory, &group.graph, access) {
                Ok(file) => file,
                Err(why) => {
                    let place = format!("groups[{index}] (\"{}\").graph", group.name);
                    errors.push(refused(place, &group.graph, why));
                    continue;
                }
            };
            match Graph::load(&file) {
                Ok(graph) => {
                    graphs.insert(group.graph.clone(), graph);
                }
                Err(error) => {
                    let place = format!("groups[{index}] (\"{}\").graph", group.name);
                    errors.push(unloadable(origin, &place, &group.graph, error));
                }
            }
        }
        errors.extend(super::load_subgraphs(&mut graphs, directory, access));
        let mut flow_fields = BTreeMap::new();
        for (name, source) in &scene.flow_fields {
            match source {
                FlowFieldSource::Inline(field) => {
                    flow_fields.insert(name.clone(), field.clone());
                }
                FlowFieldSource::File(file) => {
                    let place = || format!("flow_fields[\"{name}\"]");
                    let loaded = locate(directory, file, access)
                        .map_err(|why| refused(place(), file, why))
                        .and_then(|path| {
                            FlowField::load(&path)
                                .map_err(|error| unloadable(origin, &place(), file, error))
                        });
                    match loaded {
                        Ok(field) => {
                            flow_fields.insert(name.clone(), field);
                        }
                        Err(error) => errors.push(error),
                    }
                }
            }
        }
        if errors.is_empty() {
            Ok(Self {
                scene,
                origin: origin.to_owned(),
                graphs,
                flow_fields,
            })
        } else {
            Err(errors)
        }
    }
}

/// Whether `file`, as a scene names it, stays inside the scene's folder: relative, and never
/// climbing above it with `..` (`sub/../x` stays inside). The reason when it does not. This is
/// the rule [`SceneAssets::load`] applies under [`FileAccess::SceneFolder`]; the editor checks
/// names with it before saving a scene.
pub fn check_inside_scene_folder(file: &str) -> Result<(), String> {
    let relative = Path::new(file);
    let mut depth = 0usize;
    for component in relative.components() {
        match component {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth = depth.checked_sub(1).ok_or_else(|| {
                    "leaves the scene's folder (`..`); referenced files must be inside it"
                        .to_owned()
                })?;
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(
                    "is an absolute path; referenced files must be inside the scene's folder"
                        .to_owned(),
                );
            }
        }
    }
    Ok(())
}

/// Why `file`, named at `place` of the file `origin` (a scene's group or flow field, a graph's
/// Subgraph node), could not be loaded. A file that cannot be read (missing, say) is named from
/// the file that refers to it; a file that reads but does not parse keeps its own error, which
/// points into it (`file:line:col`).
pub(super) fn unloadable(origin: &str, place: &str, file: &str, error: LoadError) -> SceneError {
    match error {
        LoadError::Io { source, .. } => SceneError::Invalid {
            origin: origin.to_owned(),
            message: format!("{place}: \"{file}\" cannot be read: {source}"),
        },
        other => SceneError::Load(other),
    }
}

/// The path of `file`, named in a scene, relative to the scene's `directory`; under
/// [`FileAccess::SceneFolder`] refused (with the reason) unless it stays inside `directory`.
pub(crate) fn locate(directory: &Path, file: &str, access: FileAccess) -> Result<PathBuf, String> {
    if file.trim().is_empty() {
        return Err("names no file; name the file to load".to_owned());
    }
    let relative = Path::new(file);
    if access == FileAccess::Anywhere {
        return Ok(if relative.is_absolute() {
            relative.to_path_buf()
        } else {
            directory.join(relative)
        });
    }
    check_inside_scene_folder(file)?;
    let path = directory.join(relative);
    if leads_out(directory, &path) {
        return Err(
            "is a symbolic link leading out of the scene's folder; referenced files must be inside it"
                .to_owned(),
        );
    }
    Ok(path)
}

/// Whether `path`, inside `directory` by its name, leads out of it through a symbolic link. A
/// file that does not exist does not (it is left for the loader to report).
pub(crate) fn leads_out(directory: &Path, path: &Path) -> bool {
    let base = if directory.as_os_str().is_empty() {
        Path::new(".")
    } else {
        directory
    };
    matches!(
        (base.canonicalize(), path.canonicalize()),
        (Ok(real_base), Ok(real_path)) if !real_path.starts_with(&real_base)
    )
}
