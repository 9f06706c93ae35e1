//! The handle types C sees, one per kind of object, and the Rust object each names.
//!
//! The structs are written out (not made by a macro) so that cbindgen, which does not expand
//! macros, puts them in the header.

use std::sync::Arc;

use graph_runtime::{
    AssetWatcher, Crowd, FlowField, Graph, Program, SceneAssets, Simulation, World,
};

/// A graph file loaded (`sg_graph_load`): nodes, parameters and vehicle, not yet compiled.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgGraph {
    /// The handle's number; zero is no object.
    pub id: u64,
}

/// A scene loaded with every graph, subgraph and flow field it names (`sg_scene_load`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgScene {
    /// The handle's number; zero is no object.
    pub id: u64,
}

/// A flow field loaded (`sg_field_load`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgField {
    /// The handle's number; zero is no object.
    pub id: u64,
}

/// A compiled graph, ready to steer (`sg_program_load`, `sg_program_compile`). Crowds made
/// with it keep it alive after its handle is freed.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgProgram {
    /// The handle's number; zero is no object.
    pub id: u64,
}

/// A world built by hand or from a scene (`sg_world_create`, `sg_world_from_scene`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgWorld {
    /// The handle's number; zero is no object.
    pub id: u64,
}

/// A whole scene running (`sg_simulation_create`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgSimulation {
    /// The handle's number; zero is no object.
    pub id: u64,
}

/// The game's own agents steered by one program (`sg_crowd_create`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgCrowd {
    /// The handle's number; zero is no object.
    pub id: u64,
}

/// A replay file loaded (`sg_replay_load`): a recorded run to play back.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgReplay {
    /// The handle's number; zero is no object.
    pub id: u64,
}

/// A graph file watched for hot reload (`sg_watcher_create`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SgWatcher {
    /// The handle's number; zero is no object.
    pub id: u64,
}

/// A kind of object C can hold a handle to (`handles.rs` keeps them).
pub(crate) trait Kind: Send + 'static {
    /// Its tag in the handle's top byte (non-zero, unique).
    const TAG: u8;
    /// Its name in messages ("graph", "simulation").
    const NAME: &'static str;
}

/// The Rust object behind each handle type, its tag and its name in messages.
macro_rules! kinds {
    ($($object:ty => $tag:literal, $name:literal;)*) => {
        $(
            impl Kind for $object {
                const TAG: u8 = $tag;
                const NAME: &'static str = $name;
            }
        )*

        /// The name of the kind with `tag`.
        pub(crate) fn name_of(tag: u8) -> Option<&'static str> {
            match tag {
                $($tag => Some($name),)*
                _ => None,
            }
        }
    };
}

kinds! {
    Graph => 1, "graph";
    SceneAssets => 2, "scene";
    FlowField => 3, "flow field";
    Arc<Program> => 4, "program";
    World => 5, "world";
    Simulation => 6, "simulation";
    Crowd => 7, "crowd";
    AssetWatcher => 8, "watcher";
    crate::replay::LoadedReplay => 9, "replay";
}
