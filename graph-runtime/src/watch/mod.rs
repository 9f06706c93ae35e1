//! Hot reload: noticing that asset files changed on disk (the `watch` feature).

mod assets;
mod files;

pub use assets::{AssetWatcher, ReloadError};
pub use files::{FileWatcher, WATCH_DEBOUNCE, WatchError};
