//! The plugin's tests in one binary (each Bevy test binary links most of Bevy): the loaders,
//! the simulate parity, the drivers that must agree, and hot reload through Bevy's file
//! watcher.

mod common;
mod drivers_agree;
#[cfg(feature = "file_watcher")]
mod hot_reload;
mod loaders;
mod simulate_parity;
mod work_limits;
