//! Reading an asset's text from Bevy's reader under the runtime's limits.

use bevy_asset::io::Reader;
use futures_lite::AsyncReadExt;
use graph_runtime::LoadError;
use graph_runtime::limits::MAX_FILE_BYTES;

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

/// Checks size and encoding of bytes already read (a file a scene names).
pub(crate) fn text_from_bytes(bytes: Vec<u8>, path: &str) -> Result<String, LoadError> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(LoadError::Invalid {
            path: path.to_owned(),
            message: format!(
                "the file is larger than {MAX_FILE_BYTES} bytes (64 MiB), the largest asset read"
            ),
        });
    }
    String::from_utf8(bytes).map_err(|error| LoadError::Invalid {
        path: path.to_owned(),
        message: format!(
            "not UTF-8 text (invalid byte at offset {})",
            error.utf8_error().valid_up_to()
        ),
    })
}
