//! Buffers the step keeps between ticks, so that a warm tick reuses its allocations.

use std::sync::Arc;

use bevy_ecs::entity::Entity;
use graph_runtime::{
    Bindings, Program, Scratch, SpatialGrid, Steering, TagMask, TagTable, Vehicle, World,
};

/// The agents of one tick in stream order, and the runtime's per-tick inputs built from them.
#[derive(Debug)]
pub(crate) struct StepBuffers {
    /// `(stream, entity)` of every agent, sorted: slot `i` is agent `i` for the runtime.
    pub(crate) order: Vec<(u64, Entity)>,
    /// The vehicles, by slot.
    pub(crate) vehicles: Vec<Vehicle>,
    /// The tag masks, by slot.
    pub(crate) tags: Vec<TagMask>,
    /// This tick's steering, by slot; `None` for an agent whose graph has not loaded.
    pub(crate) forces: Vec<Option<Steering>>,
    /// Neighbor queries over `vehicles`.
    pub(crate) grid: SpatialGrid,
    /// Evaluation scratch space.
    pub(crate) scratch: Scratch,
    /// Each program's names resolved against the world, with a mark for "used this tick".
    pub(crate) bindings: Vec<(Arc<Program>, Bindings, bool)>,
}

impl Default for StepBuffers {
    fn default() -> Self {
        Self {
            order: Vec::new(),
            vehicles: Vec::new(),
            tags: Vec::new(),
            forces: Vec::new(),
            // The runtime's cell size when no graph asks for neighbors.
            grid: SpatialGrid::new(graph_runtime::tick::DEFAULT_CELL_SIZE),
            scratch: Scratch::default(),
            bindings: Vec::new(),
        }
    }
}

impl StepBuffers {
    /// The index in `bindings` of `program`'s bindings, made (and their problems logged) the
    /// first time the program is seen.
    pub(crate) fn bind(&mut self, program: &Arc<Program>, world: &World, tags: &TagTable) -> usize {
        if let Some(index) = self
            .bindings
            .iter()
            .position(|(bound, _, _)| Arc::ptr_eq(bound, program))
        {
            if let Some(entry) = self.bindings.get_mut(index) {
                entry.2 = true;
            }
            return index;
        }
        let (bindings, errors) = Bindings::new(program, world, tags);
        for error in errors {
            if error.is_warning() {
                tracing::warn!("a steering graph: {error}");
            } else {
                tracing::error!("a steering graph: {error} in the world");
            }
        }
        self.bindings.push((Arc::clone(program), bindings, true));
        self.bindings.len() - 1
    }

    /// Re-resolves every program's names (the world changed); problems were logged already.
    pub(crate) fn rebind(&mut self, world: &World, tags: &TagTable) {
        for (program, bindings, _) in &mut self.bindings {
            *bindings = Bindings::new(program, world, tags).0;
        }
    }

    /// Drops the bindings of programs no agent ran this tick (an old save), and clears the marks.
    pub(crate) fn forget_unused(&mut self) {
        self.bindings.retain(|(_, _, used)| *used);
        for entry in &mut self.bindings {
            entry.2 = false;
        }
    }
}
