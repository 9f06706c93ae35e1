//! The last of the three step systems: every stepped agent's vehicle and memory moved back to
//! its entity, and the tick's jump events named by entity.

use bevy_ecs::system::ResMut;

use super::crowd_run::CrowdRun;
use super::sync_in::Agents;
use crate::SteerJumps;

/// Writes each running agent's vehicle back to its [`crate::SteerAgent`] and moves its memory
/// (program state, stuck clock, jump) back into its [`crate::AgentBrain`]; held agents are
/// left as they were. The crowd's jump events go to [`SteerJumps`], by entity.
pub(crate) fn sync_out(
    mut run: ResMut<CrowdRun>,
    mut jumps: ResMut<SteerJumps>,
    mut agents: Agents,
) {
    jumps.events.clear();
    let run = &mut *run;
    if let Some(crowd) = &mut run.crowd {
        for (slot, &(_, entity)) in run.order.iter().enumerate() {
            if !run.runs.get(slot).copied().unwrap_or(false) {
                continue;
            }
            let Ok((_, mut agent, Some(mut brain), _)) = agents.get_mut(entity) else {
                continue;
            };
            if let Some(vehicle) = run.vehicles.get(slot) {
                agent.vehicle = *vehicle;
            }
            crowd.swap_agent(slot, &mut brain.memory);
        }
        jumps
            .events
            .extend(crowd.jump_events().iter().filter_map(|event| {
                let (_, entity) = run.order.get(event.agent)?;
                Some((*entity, event.clone()))
            }));
    }
    run.end_tick();
}
