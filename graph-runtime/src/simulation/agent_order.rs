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
/// Tasks of whole chunks of agents, each a plain loop over its agents' slots: rayon's `map`
/// and `unzip_into_vecs` over single agents took 61 instructions an agent and, in RVO2's
/// Circle of 10,000 (Reciprocal reads this copy every tick), 181–202 µs a write-back on one
/// thread and 94–115 on two; these loops 38 instructions, 77–157 and 49–67 µs (medians of
/// 1,000 steps, a loud stretch on the AMD machine, 2026-12-07).
fn write_back(copy: &mut Ordered, working: &[Vehicle], slot_forces: &[Steering], layout: &Layout) {
    // Never used: the layout has a slot for every agent.
    let lost = Vehicle::new(Vec2::ZERO, Vec2::ZERO, crate::VehicleParams::default());
    let agents = working.len();
    // Sized, not cleared: every entry is written below.
    copy.vehicles.resize(agents, lost);
    copy.forces.resize(agents, Vec2::ZERO);
    let slots = layout.slots();
    (copy.vehicles.par_chunks_mut(MIN_AGENTS_PER_TASK))
        .zip(copy.forces.par_chunks_mut(MIN_AGENTS_PER_TASK))
        .enumerate()
        .for_each(|(chunk, (vehicles, forces))| {
            let first = chunk * MIN_AGENTS_PER_TASK;
            let slots = slots.get(first..first + vehicles.len()).unwrap_or_default();
            for (at, (vehicle, force)) in vehicles.iter_mut().zip(forces).enumerate() {
                let slot = slots.get(at).map_or(usize::MAX, |&slot| slot as usize);
                *vehicle = working.get(slot).copied().unwrap_or(lost);
                *force = slot_forces.get(slot).map_or(Vec2::ZERO, |s| s.force);
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `agents` agents re-sorted (rotated by 77, then reversed), each vehicle at `x = agent`
    /// and each force `(2 · agent, −agent)`, in slot order, with their layout.
    fn resorted(agents: usize) -> (Vec<Vehicle>, Vec<Steering>, Layout) {
        let mut layout = Layout::identity(agents);
        let at = |agent: usize| {
            let x = agent as f32;
            Vehicle::new(
                Vec2::new(x, 0.0),
                Vec2::ZERO,
                crate::VehicleParams::default(),
            )
        };
        let mut working: Vec<Vehicle> = (0..agents).map(at).collect();
        let mut clocks = vec![0.0; agents];
        let (mut states, mut spare) = (vec![0_u32; agents], Vec::new());
        let n = agents as u32;
        let sources: Vec<u32> = (0..n).map(|slot| (n - 1 - slot + 77) % n).collect();
        layout.resort(
            &sources,
            &mut working,
            &mut clocks,
            (&mut states, &mut spare),
        );
        let forces = (0..agents)
            .map(|slot| {
                let agent = layout.agent(slot) as f32;
                Steering {
                    force: Vec2::new(2.0 * agent, -agent),
                    angular: 0.0,
                }
            })
            .collect();
        (working, forces, layout)
    }

    /// Every agent's vehicle and force come back at its index, whatever the copy's buffers
    /// held before (more agents, or fewer) and whether the last task is whole (384 agents:
    /// three of 128) or not (1,000).
    #[test]
    fn written_back_in_agent_order_over_buffers_of_any_length() {
        for agents in [1_000, 3 * MIN_AGENTS_PER_TASK] {
            let (working, forces, layout) = resorted(agents);
            assert_ne!(layout.slot(0), Some(0), "the agents were moved");
            for before in [1_500, 10] {
                let mut order = AgentOrder::new(resorted(before).0);
                order.outdate();
                let copy = order.get(&working, &forces, &layout);
                assert_eq!(copy.vehicles.len(), agents);
                assert_eq!(copy.forces.len(), agents);
                for (agent, (vehicle, force)) in copy.vehicles.iter().zip(&copy.forces).enumerate()
                {
                    let a = agent as f32;
                    assert_eq!(vehicle.position.x, a, "{agents} agents, {before} before");
                    assert_eq!(*force, Vec2::new(2.0 * a, -a), "{agents} agents");
                }
            }
        }
    }
}
