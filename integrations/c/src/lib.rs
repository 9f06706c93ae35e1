//! Steergraph's C interface: the runtime's graphs, scenes, flow fields, simulations and crowds
//! for any language that calls C (C, C++, C# through `P/Invoke`, Godot's `GDExtension`, Python's
//! ctypes, Lua, Zig).
//!
//! The header is `include/steergraph.h`, generated from these declarations by cbindgen
//! (`tests/header.rs` fails when the two drift apart); its top states the rules a C
//! programmer relies on. Each file here is one family of entry points; every entry point runs
//! its body through `status::guard`, so no panic unwinds into C, and reaches the caller's
//! memory only through `ptr.rs`.
#![expect(
    unsafe_code,
    reason = "the C boundary: exported `#[no_mangle]` functions and the caller's raw pointers, each dereference in `ptr.rs` behind a NULL and alignment check"
)]

mod assets;
mod avoidance;
mod crowd;
mod crowd_step;
mod handles;
mod jumps;
mod kinds;
mod program;
mod ptr;
mod replay;
mod routes;
mod simulation;
mod status;
mod vehicle;
mod version;
mod watch;
mod world;

pub use assets::*;
pub use avoidance::*;
pub use crowd::*;
pub use crowd_step::*;
pub use handles::sg_live_objects;
pub use jumps::*;
pub use kinds::*;
pub use program::*;
pub use replay::*;
pub use routes::*;
pub use simulation::*;
pub use status::SgStatus;
pub use vehicle::*;
pub use version::*;
pub use watch::*;
pub use world::*;
