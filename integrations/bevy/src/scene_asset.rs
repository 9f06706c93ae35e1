//! `.scene.ron` files as Bevy assets: the scene with its graphs and flow fields, ready to spawn.

use std::collections::BTreeMap;

use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, Handle, LoadContext};
use bevy_reflect::TypePath;
use graph_runtime::{
    FlowField, FlowFieldSource, Graph, Scene, SceneAssets, SceneError, Simulation,
    check_inside_scene_folder,
};

use crate::read::{read_file, read_text};
use crate::{SteerAssetError, SteerGraph};

/// A scene, checked the way `steergraph simulate` checks it: every graph it names compiles and
/// binds, every flow field loads. Spawn its agents with [`crate::spawn_scene`].
#[derive(Asset, TypePath, Debug, Clone)]
pub struct SteerScene {
    /// The scene with every graph and flow field it names, as the runtime loads them.
    pub assets: SceneAssets,
    /// The scene at tick 0: the world and every agent spawned, exactly as
    /// [`Simulation::new`] places them for `steergraph simulate`.
    pub start: Simulation,
    /// The graph asset each group runs, by group index; saving one of these files hot-swaps
    /// the program of the agents spawned from this scene.
    #[dependency]
    pub group_graphs: Vec<Handle<SteerGraph>>,
}

/// Loads `.scene.ron` files into [`SteerScene`]s. Graph and flow-field files are read
/// relative to the scene and must stay inside its folder (the runtime's
/// [`graph_runtime::FileAccess::SceneFolder`] rule); every problem is reported, each with its
/// file and place.
#[derive(Default, TypePath)]
pub struct SceneLoader;

impl AssetLoader for SceneLoader {
    type Asset = SteerScene;
    type Settings = ();
    type Error = SteerAssetError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<SteerScene, SteerAssetError> {
        let origin = load_context.path().to_string();
        let text = read_text(reader, &origin).await?;
        let scene = Scene::from_ron(&text, &origin)?;
        let mut errors = Vec::new();
        let mut graphs = BTreeMap::new();
        let mut group_graphs = Vec::new();
        for (index, group) in scene.groups.iter().enumerate() {
            let place = format!("groups[{index}] (\"{}\").graph", group.name);
            let Some(path) = resolve(load_context, &origin, &place, &group.graph, &mut errors)
            else {
                continue;
            };
            group_graphs.push(load_context.load::<SteerGraph>(path.clone()));
            if graphs.contains_key(&group.graph) {
                continue;
            }
            match read_file(load_context, &path).await {
                Ok(text) => match Graph::from_ron(&text, &path) {
                    Ok(graph) => {
                        graphs.insert(group.graph.clone(), graph);
                    }
                    Err(error) => errors.push(error.into()),
                },
                Err(error) => errors.push(error),
            }
        }
        errors.extend(crate::subgraphs::read_subgraphs(load_context, &mut graphs).await);
        let mut flow_fields = BTreeMap::new();
        for (name, source) in &scene.flow_fields {
            let file = match source {
                FlowFieldSource::Inline(field) => {
                    flow_fields.insert(name.clone(), field.clone());
                    continue;
                }
                FlowFieldSource::File(file) => file,
            };
            let place = format!("flow_fields[\"{name}\"]");
            let Some(path) = resolve(load_context, &origin, &place, file, &mut errors) else {
                continue;
            };
            match read_file(load_context, &path).await {
                Ok(text) => match FlowField::from_ron(&text, &path) {
                    Ok(field) => {
                        flow_fields.insert(name.clone(), field);
                    }
                    Err(error) => errors.push(error.into()),
                },
                Err(error) => errors.push(error),
            }
        }
        if !errors.is_empty() {
            return Err(SteerAssetError::Scene { errors });
        }
        let assets = SceneAssets {
            scene,
            origin,
            graphs,
            flow_fields,
        };
        let start = Simulation::new(&assets).map_err(|errors| SteerAssetError::Scene { errors })?;
        Ok(SteerScene {
            assets,
            start,
            group_graphs,
        })
    }

    fn extensions(&self) -> &[&str] {
        &["scene.ron"]
    }
}

/// The asset path of `file`, named by the scene at `place`, relative to the scene's folder;
/// `None` (with the reason pushed to `errors`) when it would leave the folder.
fn resolve(
    load_context: &LoadContext<'_>,
    origin: &str,
    place: &str,
    file: &str,
    errors: &mut Vec<SceneError>,
) -> Option<String> {
    let refused = |why: String| SceneError::Invalid {
        origin: origin.to_owned(),
        message: format!("{place}: \"{file}\" {why}"),
    };
    if let Err(why) = check_inside_scene_folder(file) {
        errors.push(refused(why));
        return None;
    }
    match load_context.path().resolve_embed_str(file) {
        Ok(path) => Some(path.to_string()),
        Err(error) => {
            errors.push(refused(format!("is not a valid asset path: {error}")));
            None
        }
    }
}
