//! Agent order for the API: the vehicles and forces of the working layout (grid-cell order)
//! written back in agent order when first read after a tick, not at the end of every tick.
//!
//! Writing back gathers every agent's vehicle from its slot, a read all over the working
//! copy: 3 % of a 16,000-agent flocking tick and 7–11 % at 64,000. A game that reads the
//! vehicles every tick pays it on that read, as before; a headless run that reads them now
//! and then, and a tick whose programs read no other agent, do not. A tick whose programs
//! read other agents by index (targets, Unaligned collision avoidance, Reciprocal) has agent
//! order written back before it starts, since its context needs it.

use std::sync::{Mutex, OnceLock, PoisonError};

use glam::Vec2;
use rayon::prelude::*;

use super::layout::Layout;
use crate::tick::MIN_AGENTS_PER_TASK;
use crate::{Steering, Vehicle};

/// The agents' vehicles and forces in agent order.
#[derive(Clone, Debug, Default)]
pub(super) struct Ordered {
    pub(super) vehicles: Vec<Vehicle>,
    pub(super) forces: Vec<Vec2>,
}

/// Agent order, written back on first read after a tick.
#[derive(Debug, Default)]
pub(super) struct AgentOrder {
    /// Up to date with the working layout once set; cleared by every tick.
    copy: OnceLock<Ordered>,
    /// The last copy's buffers, kept for the next write-back so that it allocates nothing.
    spare: Mutex<Ordered>,
}

impl Clone for AgentOrder {
    fn clone(&self) -> Self {
        Self {
            copy: self.copy.clone(),
            spare: Mutex::default(),
        }
    }
}

impl AgentOrder {
    /// Agent order as it is: `vehicles`, with zero forces.
    pub(super) fn new(vehicles: Vec<Vehicle>) -> Self {
        let forces = vec![Vec2::ZERO; vehicles.len()];
        Self {
            copy: OnceLock::from(Ordered { vehicles, forces }),
            spare: Mutex::default(),
        }
    }

    /// Agent order of `working` and `slot_forces` (by slot, placed by `layout`), written back
    /// now if this is its first read since the last tick.
    pub(super) fn get(
        &self,
        working: &[Vehicle],
        slot_forces: &[Steering],
        layout: &Layout,
    ) -> &Ordered {
        self.copy.get_or_init(|| {
            let mut copy =
                std::mem::take(&mut *self.spare.lock().unwrap_or_else(PoisonError::into_inner));
            write_back(&mut copy, working, slot_forces, layout);
            copy
        })
    }

    /// [`AgentOrder::get`], for changing: the next tick starts from what is written here.
    /// `None` only if the copy could not be kept, which does not happen.
    pub(super) fn get_mut(
        &mut self,
        working: &[Vehicle],
        slot_forces: &[Steering],
        layout: &Layout,
    ) -> Option<&mut Ordered> {
        self.get(working, slot_forces, layout);
        self.copy.get_mut()
    }

    /// The copy if it is up to date.
    pub(super) fn current(&self) -> Option<&Ordered> {
        self.copy.get()
    }

    /// After a tick: the copy is out of date; its buffers wait for the next write-back.
    pub(super) fn outdate(&mut self) {
        if let Some(copy) = self.copy.take() {
            *self.spare.get_mut().unwrap_or_else(PoisonError::into_inner) = copy;
        }
    }
}

/// Each agent's vehicle and force, from its slot, in parallel; reuses the copy's buffers.
fn write_back(copy: &mut Ordered, working: &[Vehicle], slot_forces: &[Steering], layout: &Layout) {
    // Never used: the layout has a slot for every agent.
    let lost = Vehicle::new(Vec2::ZERO, Vec2::ZERO, crate::VehicleParams::default());
    (0..working.len())
        .into_par_iter()
        .with_min_len(MIN_AGENTS_PER_TASK)
        .map(|agent| {
            let slot = layout.slot(agent).unwrap_or(usize::MAX);
            (
                working.get(slot).copied().unwrap_or(lost),
                slot_forces
                    .get(slot)
                    .map_or(Vec2::ZERO, |steering| steering.force),
            )
        })
        .unzip_into_vecs(&mut copy.vehicles, &mut copy.forces);
}
