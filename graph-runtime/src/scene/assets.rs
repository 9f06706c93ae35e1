use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    /// Graphs by the path written in the scene's groups.
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
    /// The scene uses more than 64 distinct tags.
    #[error("{origin}: more than 64 distinct tags")]
    TooManyTags {
        /// The scene file.
        origin: String,
    },
}

impl SceneAssets {
    /// Loads the scene at `path` and every graph and flow-field file it names, reporting every
    /// problem found (not only the first).
    pub fn load(path: &Path) -> Result<Self, Vec<SceneError>> {
        let scene = Scene::load(path).map_err(|e| vec![SceneError::Load(e)])?;
        let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Self::resolve(scene, &path.display().to_string(), &directory)
    }

    /// Loads the files `scene` refers to, relative to `directory`.
    pub fn resolve(scene: Scene, origin: &str, directory: &Path) -> Result<Self, Vec<SceneError>> {
        let mut errors: Vec<SceneError> = scene
            .validate()
            .into_iter()
            .map(|message| SceneError::Invalid {
                origin: origin.to_owned(),
                message,
            })
            .collect();
        let mut graphs = BTreeMap::new();
        for group in &scene.groups {
            if graphs.contains_key(&group.graph) {
                continue;
            }
            match Graph::load(&relative(directory, &group.graph)) {
                Ok(graph) => {
                    graphs.insert(group.graph.clone(), graph);
                }
                Err(error) => errors.push(error.into()),
            }
        }
        let mut flow_fields = BTreeMap::new();
        for (name, source) in &scene.flow_fields {
            match source {
                FlowFieldSource::Inline(field) => {
                    flow_fields.insert(name.clone(), field.clone());
                }
                FlowFieldSource::File(file) => match FlowField::load(&relative(directory, file)) {
                    Ok(field) => {
                        flow_fields.insert(name.clone(), field);
                    }
                    Err(error) => errors.push(error.into()),
                },
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

fn relative(directory: &Path, file: &str) -> PathBuf {
    let file = Path::new(file);
    if file.is_absolute() {
        file.to_path_buf()
    } else {
        directory.join(file)
    }
}
