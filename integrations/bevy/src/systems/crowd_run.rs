//! The runtime's `Crowd` the plugin steps every fixed tick, and the agents of the tick in
//! the order it steps them: what the sync-in, step and sync-out systems share.

use std::sync::{Arc, Weak};

use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use graph_runtime::{
    Bindings, Crowd, CrowdProgram, ParamValues, Program, TagMask, TagTable, Vehicle, World,
};

/// The crowd and this tick's agents, by slot (slot `i` is agent `i` for the runtime).
#[derive(Resource, Debug, Default)]
pub(crate) struct CrowdRun {
    /// `None` until some agent's graph has loaded, and after the world changed or a program
    /// fell out of use (it is made again from the agents' programs; their memories live on
    /// their entities, so nothing is lost).
    pub(crate) crowd: Option<Crowd>,
    /// `(stream, entity)` of every agent, sorted: the order `steergraph simulate` steps a
    /// scene's agents in.
    pub(crate) order: Vec<(u64, Entity)>,
    /// The vehicles, by slot.
    pub(crate) vehicles: Vec<Vehicle>,
    /// The tag masks, by slot.
    pub(crate) tags: Vec<TagMask>,
    /// Whether the agent of a slot runs a program (its memory was moved into the crowd and
    /// its vehicle is written back); the others are held still.
    pub(crate) runs: Vec<bool>,
    /// The crowd's groups: program and parameter values, by group number.
    groups: Vec<(Arc<Program>, ParamValues)>,
    /// Whether a group ran an agent this tick.
    used: Vec<bool>,
    /// The group the last agent asked for: agents come in stream order, and neighbors in it
    /// (one spawn's) mostly run the same program, so most lookups end here.
    last: Option<usize>,
    /// Programs whose binding problems were logged, so a crowd made again does not log them
    /// twice.
    logged: Vec<Weak<Program>>,
    /// Why the last tick was refused (its work past a scene's limits), logged once until it
    /// changes.
    pub(crate) refused: Option<String>,
}

impl CrowdRun {
    /// Forgets the crowd: its names are bound again, against the world as it is now, at the
    /// next tick.
    pub(crate) fn forget_crowd(&mut self) {
        self.crowd = None;
        self.groups.clear();
        self.used.clear();
        self.last = None;
    }

    /// The group of the crowd running `program` with `params`, added (the crowd made, with
    /// it as group 0, when there is none) and its names bound to `world` the first time.
    /// Names the world lacks are logged once per program and give nothing, as before.
    pub(crate) fn group(
        &mut self,
        program: &Arc<Program>,
        params: &ParamValues,
        world: &World,
        tags: &TagTable,
    ) -> usize {
        let runs = |(p, v): &(Arc<Program>, ParamValues)| Arc::ptr_eq(p, program) && v == params;
        let found = self
            .last
            .filter(|&group| self.groups.get(group).is_some_and(runs))
            .or_else(|| self.groups.iter().position(runs));
        if let Some(group) = found {
            self.used[group] = true;
            self.last = Some(group);
            return group;
        }
        let (bindings, errors) = Bindings::new(program, world, tags);
        let logged = self.logged.iter().any(|seen| {
            seen.upgrade()
                .is_some_and(|seen| Arc::ptr_eq(&seen, program))
        });
        if !logged {
            for error in errors {
                if error.is_warning() {
                    tracing::warn!("a steering graph: {error}");
                } else {
                    tracing::error!("a steering graph: {error} in the world");
                }
            }
            self.logged.retain(|seen| seen.strong_count() > 0);
            self.logged.push(Arc::downgrade(program));
        }
        let bound = CrowdProgram::from_parts(Arc::clone(program), params.clone(), bindings);
        let group = match &mut self.crowd {
            // Every agent's random stream comes with its memory, so the crowd's seed is unused.
            None => {
                self.crowd = Some(Crowd::from_program(bound, tags, 0));
                0
            }
            Some(crowd) => crowd.add_group(bound),
        };
        debug_assert_eq!(group, self.groups.len());
        self.groups.push((Arc::clone(program), params.clone()));
        self.used.push(true);
        self.last = Some(group);
        group
    }

    /// The end of a tick: a crowd with a group no agent ran (an old save of a graph) is made
    /// again at the next tick, without it.
    pub(crate) fn end_tick(&mut self) {
        if self.used.iter().any(|used| !used) {
            self.forget_crowd();
        }
        self.used.fill(false);
    }
}
