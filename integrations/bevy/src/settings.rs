//! The plugin's settings and tick counter, as resources.

use bevy_ecs::resource::Resource;

use crate::Plane;

/// How agents are stepped and shown; set from [`crate::SteergraphPlugin`].
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct SteerSettings {
    /// The plane `Transform`s are written in.
    pub plane: Plane,
    /// The tick length handed to the runtime, in seconds (`1 / hz` rounded once to `f32`:
    /// at 60 Hz exactly `1.0_f32 / 60.0`, the default `--dt` of `steergraph simulate`).
    pub dt: f32,
}

/// Fixed ticks in which the plugin stepped agents, since the start.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SteerClock {
    /// Number of ticks stepped.
    pub ticks: u64,
}
