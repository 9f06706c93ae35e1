//! Steergraph's desktop editor and headless command line. The binary `steergraph` is a thin
//! wrapper around [`cli`] and [`editor`]; every steering formula lives in `graph-runtime`.

pub mod cli;
pub mod editor;
