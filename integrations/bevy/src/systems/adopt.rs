//! Giving each agent the current program of its graph: at first load and after every save.

use std::collections::HashSet;
use std::sync::Arc;

use bevy_asset::Assets;
use bevy_ecs::entity::Entity;
use bevy_ecs::system::{Commands, Local, Query, Res};
use graph_runtime::{AgentState, CrowdAgent, Program};

use crate::{AgentBrain, SteerAgent, SteerGoals, SteerGraph};

/// For every agent whose graph asset holds a program other than the one it runs: a new agent
/// gets a fresh [`AgentBrain`] (its random stream `(seed, stream)`); a running one keeps its
/// state, fitted to the new program as `Simulation::set_program` does, and its vehicle, so
/// it goes on from where it is. Parameter overrides that no longer fit the graph are logged
/// once and the agent keeps its last program.
pub(crate) fn adopt_programs(
    mut commands: Commands,
    graphs: Res<Assets<SteerGraph>>,
    mut agents: Query<(
        Entity,
        &SteerAgent,
        Option<&mut AgentBrain>,
        Option<&SteerGoals>,
    )>,
    mut refused: Local<HashSet<(Entity, usize)>>,
) {
    for (entity, agent, brain, goals) in &mut agents {
        let Some(graph) = graphs.get(&agent.graph) else {
            continue;
        };
        let program = &graph.program;
        if brain
            .as_ref()
            .is_some_and(|brain| Arc::ptr_eq(&brain.program, program))
        {
            continue;
        }
        let key = (entity, Arc::as_ptr(program) as usize);
        if refused.contains(&key) {
            continue;
        }
        let params = match program.parameters(&agent.parameters) {
            Ok(params) => params,
            Err(errors) => {
                for error in errors {
                    tracing::error!(
                        "agent {entity} (stream {}): parameter overrides do not fit its graph: {error}; it keeps its last program",
                        agent.stream
                    );
                }
                refused.insert(key);
                continue;
            }
        };
        let radius = program.neighborhood_radius(&params);
        if let Some(mut brain) = brain {
            let brain = &mut *brain;
            brain.memory.state.fit(program);
            brain.program = Arc::clone(program);
            brain.params = params;
            brain.radius = radius;
        } else {
            // A new brain starts with the goals the agent already has; later changes are
            // handed over by the steering system.
            let mut state = AgentState::new(program, agent.seed, agent.stream);
            if let Some(goals) = goals {
                state.own.clone_from(&goals.0);
            }
            commands.entity(entity).insert(AgentBrain {
                memory: CrowdAgent::new(state),
                program: Arc::<Program>::clone(program),
                params,
                radius,
            });
        }
    }
    // Forget refusals of agents that are gone or whose graph changed since.
    refused.retain(|(entity, program)| {
        agents.get(*entity).is_ok_and(|(_, agent, _, _)| {
            graphs
                .get(&agent.graph)
                .is_some_and(|graph| Arc::as_ptr(&graph.program) as usize == *program)
        })
    });
}
