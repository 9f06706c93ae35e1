//! The plugin's tests in one binary (each Bevy test binary links most of Bevy): the loaders,
//! the simulate parity, and hot reload through Bevy's file watcher.

mod common;
#[cfg(feature = "file_watcher")]
mod hot_reload;
mod loaders;
mod simulate_parity;
