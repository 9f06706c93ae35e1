//! Reading an asset's text from Bevy's reader under the runtime's limits.

use bevy_asset::LoadContext;
use bevy_asset::io::Reader;
use futures_lite::AsyncReadExt;
use graph_runtime::limits::MAX_FILE_BYTES;
use graph_runtime::{LoadError, SceneError, text_from_bytes};

use crate::SteerAssetError;

/// Reads at most [`MAX_FILE_BYTES`] from `reader` and checks that they are UTF-8, as the
/// runtime's own loaders do for files on disk: a larger file is refused without reading
/// past the limit.
pub(crate) async fn read_text(
    reader: &mut dyn Reader,
    path: &str,
) -> Result<String, SteerAssetError> {
    let mut bytes = Vec::new();
    AsyncReadExt::take(reader, MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .await
        .map_err(|source| SteerAssetError::Read {
            path: path.to_owned(),
            source,
        })?;
    Ok(text_from_bytes(bytes, path)?)
}

/// Reads a file that an asset names through Bevy's asset reader (which also makes that
/// asset reload when the file changes).
pub(crate) async fn read_file(
    load_context: &mut LoadContext<'_>,
    path: &str,
) -> Result<String, SceneError> {
    let bytes = load_context
        .read_asset_bytes(path.to_owned())
        .await
        .map_err(|error| {
            SceneError::Load(LoadError::Io {
                path: path.to_owned(),
                source: std::io::Error::other(error.to_string()),
            })
        })?;
    text_from_bytes(bytes, path).map_err(SceneError::Load)
}
