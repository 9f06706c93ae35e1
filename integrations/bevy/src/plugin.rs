//! The Bevy plugin: assets, resources and systems.

use bevy_app::{App, FixedUpdate, Plugin, PostUpdate, Update};
use bevy_asset::AssetApp as _;
use bevy_ecs::schedule::{IntoScheduleConfigs as _, SystemSet};
use bevy_time::{Fixed, Time};
use bevy_transform::TransformSystems;

use crate::systems::{
    CrowdRun, adopt_programs, report_failed_graphs, step_crowd, sync_in, sync_out, write_transforms,
};
use crate::{
    FlowFieldLoader, GraphLoader, Plane, SceneLoader, SteerClock, SteerFlowField, SteerGraph,
    SteerJumps, SteerScene, SteerSettings, SteerWorld,
};

/// Loads Steergraph assets and steers every [`crate::SteerAgent`] in `FixedUpdate`.
///
/// Add it after Bevy's `AssetPlugin` (and `TimePlugin`). It sets the fixed timestep to
/// [`SteergraphPlugin::hz`] (60 Hz by default, where Bevy's own default is 64 Hz), so one
/// `FixedUpdate` is one tick of the editor's preview and of `steergraph simulate`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SteergraphPlugin {
    /// The plane agents' `Transform`s are written in.
    pub plane: Plane,
    /// Fixed ticks per second (> 0); 60 reproduces the editor.
    pub hz: f64,
}

impl Default for SteergraphPlugin {
    fn default() -> Self {
        Self {
            plane: Plane::XY,
            hz: 60.0,
        }
    }
}

/// The plugin's systems, for ordering a game's own systems around them. In `FixedUpdate` a
/// tick is `SyncIn`, `Step`, `SyncOut`, chained: a game that moves agents or changes their
/// goals does it before `SyncIn`, and one that reads where they went, after `SyncOut`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SteerSystems {
    /// In `FixedUpdate`: adopt newly loaded or saved programs, then move every agent (vehicle,
    /// tags, memory) into the runtime's crowd, in stream order.
    SyncIn,
    /// In `FixedUpdate`: `Crowd::step`, the tick of `steergraph simulate`.
    Step,
    /// In `FixedUpdate`: every stepped agent's vehicle and memory back to its entity, the
    /// tick's jump events into [`SteerJumps`].
    SyncOut,
    /// In `PostUpdate`, before transform propagation: write moved agents' `Transform`s.
    WriteTransforms,
}

impl Plugin for SteergraphPlugin {
    fn build(&self, app: &mut App) {
        let hz = if self.hz.is_finite() && self.hz > 0.0 {
            self.hz
        } else {
            tracing::error!(
                "SteergraphPlugin::hz must be a finite number > 0, found {}; using 60",
                self.hz
            );
            60.0
        };
        app.init_asset::<SteerGraph>()
            .init_asset::<SteerScene>()
            .init_asset::<SteerFlowField>()
            .register_asset_loader(GraphLoader)
            .register_asset_loader(SceneLoader)
            .register_asset_loader(FlowFieldLoader)
            .insert_resource(Time::<Fixed>::from_hz(hz))
            .insert_resource(SteerSettings {
                plane: self.plane,
                dt: tick_seconds(hz),
            })
            .init_resource::<SteerWorld>()
            .init_resource::<SteerClock>()
            .init_resource::<SteerJumps>()
            .init_resource::<CrowdRun>()
            .configure_sets(
                FixedUpdate,
                (
                    SteerSystems::SyncIn,
                    SteerSystems::Step,
                    SteerSystems::SyncOut,
                )
                    .chain(),
            )
            .add_systems(
                FixedUpdate,
                (
                    (adopt_programs, sync_in)
                        .chain()
                        .in_set(SteerSystems::SyncIn),
                    step_crowd.in_set(SteerSystems::Step),
                    sync_out.in_set(SteerSystems::SyncOut),
                ),
            )
            .add_systems(
                PostUpdate,
                write_transforms
                    .in_set(SteerSystems::WriteTransforms)
                    .before(TransformSystems::Propagate),
            )
            .add_systems(Update, report_failed_graphs);
    }
}

/// The tick length in seconds for `hz` ticks per second, rounded once to `f32`.
fn tick_seconds(hz: f64) -> f32 {
    (1.0 / hz) as f32
}

#[cfg(test)]
mod tests {
    use super::tick_seconds;

    #[test]
    fn sixty_hertz_is_the_simulate_default_bit_for_bit() {
        // `steergraph simulate`'s default `--dt` is `1.0_f32 / 60.0` = 0.016666668.
        assert_eq!(tick_seconds(60.0).to_bits(), (1.0_f32 / 60.0).to_bits());
        assert_eq!(tick_seconds(60.0), 0.016_666_668);
    }
}
