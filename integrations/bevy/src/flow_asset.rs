//! `.flow.ron` files as Bevy assets.

use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, LoadContext};
use bevy_reflect::TypePath;
use graph_runtime::FlowField;

use crate::SteerAssetError;
use crate::read::read_text;

/// A flow field painted or generated in the editor. Put it into the world with
/// `SteerWorld::world.set_flow_field(name, field.field.clone())`.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct SteerFlowField {
    /// The field: origin, cell size in world units, and one vector per cell.
    pub field: FlowField,
}

/// Loads `.flow.ron` files into [`SteerFlowField`]s.
#[derive(Default, TypePath)]
pub struct FlowFieldLoader;

impl AssetLoader for FlowFieldLoader {
    type Asset = SteerFlowField;
    type Settings = ();
    type Error = SteerAssetError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<SteerFlowField, SteerAssetError> {
        let path = load_context.path().to_string();
        let text = read_text(reader, &path).await?;
        Ok(SteerFlowField {
            field: FlowField::from_ron(&text, &path)?,
        })
    }

    fn extensions(&self) -> &[&str] {
        &["flow.ron"]
    }
}
