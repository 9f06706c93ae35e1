//! Steergraph's desktop editor and headless command line. The binary `steergraph` is a thin
//! wrapper around [`cli`] and [`editor`]; every steering formula lives in `graph-runtime`.

// The app's only unsafe code is its GL drawing of the preview's agents: each block says why it
// is sound.
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod cli;
pub mod editor;
