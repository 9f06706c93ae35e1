//! The second of the three step systems: the runtime's `Crowd::step`, the tick core every
//! driver shares.

use bevy_ecs::system::{Res, ResMut};

use super::crowd_run::CrowdRun;
use crate::{SteerClock, SteerSettings, SteerWorld};

/// Steps every agent by one tick of [`SteerSettings::dt`] with `Crowd::step`: every force
/// from the vehicles at the start of the tick, in stream order, then each vehicle advanced
/// with solid walls, its stuck clock, and jumps and falls in a world with gaps or jump links.
/// This is `Simulation::step` (same inputs, same order, same neighbor grid), so a scene's
/// agents move bit for bit as in `steergraph simulate`. A tick whose work grows past a
/// scene's limits (agents × neighbors kept, `Crowd::refusal`) is not stepped: the agents
/// stand, and the reason is logged as an error once (a scene over them does not load).
pub(crate) fn step_crowd(
    steer_world: Res<SteerWorld>,
    settings: Res<SteerSettings>,
    mut clock: ResMut<SteerClock>,
    mut run: ResMut<CrowdRun>,
) {
    let CrowdRun {
        crowd,
        vehicles,
        tags,
        refused,
        ..
    } = &mut *run;
    if let Some(crowd) = crowd {
        // A tick over the work limits is refused by the crowd before any work.
        crowd.step(&steer_world.world, vehicles, tags, settings.dt);
        match crowd.refusal() {
            None => *refused = None,
            Some(error) => {
                let why = error.to_string();
                if refused.as_ref() != Some(&why) {
                    tracing::error!("steering not stepped: {why}");
                    *refused = Some(why);
                }
            }
        }
    }
    clock.ticks += 1;
}
