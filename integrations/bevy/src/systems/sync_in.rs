//! The first of the three step systems: every agent's vehicle, tags and memory moved into the
//! crowd, in stream order.

use bevy_ecs::change_detection::DetectChanges as _;
use bevy_ecs::entity::Entity;
use bevy_ecs::system::{Query, Res, ResMut};
use bevy_ecs::world::Ref;
use graph_runtime::OwnGoals;

use super::crowd_run::CrowdRun;
use crate::{AgentBrain, SteerAgent, SteerGoals, SteerWorld};

/// Every agent, its program (once its graph has loaded) and its own goals (if it has any).
pub(crate) type Agents<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static mut SteerAgent,
        Option<&'static mut AgentBrain>,
        Option<Ref<'static, SteerGoals>>,
    ),
>;

/// Lists the agents in stream order (then entity), hands the crowd their vehicles and tags,
/// puts each in the group of its program and parameters, and moves its memory
/// ([`graph_runtime::CrowdAgent`]: program state with the game's latest own goals, stuck
/// clock, jump) into its slot. An agent whose graph has not loaded is held still: the others
/// see it, it does not move.
pub(crate) fn sync_in(steer_world: Res<SteerWorld>, mut run: ResMut<CrowdRun>, mut agents: Agents) {
    let SteerWorld { world, tags } = &*steer_world;
    if steer_world.is_changed() {
        run.forget_crowd();
    }
    let run = &mut *run;
    run.order.clear();
    run.order.extend(
        agents
            .iter()
            .map(|(entity, agent, _, _)| (agent.stream, entity)),
    );
    run.order.sort_unstable();
    run.vehicles.clear();
    run.tags.clear();
    run.runs.clear();
    for slot in 0..run.order.len() {
        let entity = run.order[slot].1;
        let Ok((_, agent, brain, goals)) = agents.get_mut(entity) else {
            continue;
        };
        run.vehicles.push(agent.vehicle);
        run.tags.push(agent.tags);
        let avoidance = agent.avoidance;
        let Some(mut brain) = brain else {
            if let Some(crowd) = &mut run.crowd {
                crowd.hold(slot);
            }
            run.runs.push(false);
            continue;
        };
        let brain = &mut *brain;
        // The agent's own goals when the game changed them (a new brain got them when it was
        // made, in `adopt_programs`); an agent whose goals were taken away has none.
        let own = &mut brain.memory.state.own;
        match goals {
            Some(goals) if goals.is_changed() => own.clone_from(&goals.0),
            None if *own != OwnGoals::default() => *own = OwnGoals::default(),
            _ => {}
        }
        let group = run.group(&brain.program, &brain.params, world, tags);
        let Some(crowd) = &mut run.crowd else {
            run.runs.push(false);
            continue;
        };
        if crowd.group_of(slot) != group || crowd.is_held(slot) {
            crowd.set_group(slot, group);
        }
        // An avoidance out of range keeps the agent's last (the runtime refuses it).
        if crowd.avoidance(slot) != avoidance {
            let _ = crowd.set_avoidance(slot, avoidance);
        }
        let moved = crowd.swap_agent(slot, &mut brain.memory);
        run.runs.push(moved);
    }
    // Agents listed before the first program loaded were not held: hold them now.
    if let Some(crowd) = &mut run.crowd {
        for (slot, &runs) in run.runs.iter().enumerate() {
            if !runs {
                crowd.hold(slot);
            }
        }
    }
}
