//! A crowd held to the limits on work that grows as a product of inputs (issue 46), as a
//! scene is before its first tick (`simulation/work.rs`): every tick checks them first, in
//! time that grows with the groups, not the agents, unless the crowd is near a limit, and a
//! tick over them is refused (nothing moves; [`Crowd::refusal`] says why).

use super::Crowd;
use crate::simulation::work::{Running, check_running, surely_within};
use crate::{TooMuchWork, World};

impl Crowd {
    /// Whether a tick of `agents` agents (a game's vehicles `0..agents`, each in its group)
    /// in `world` stays within the limits on work that grows as a product of inputs, as a
    /// scene's does before its first tick ([`crate::limits::MAX_NEIGHBOR_WORK`], paths'
    /// segments, gaps' corners): the refusal names each group (by its number), its agents and
    /// the work of one. [`Crowd::step`], [`Crowd::steering`] and [`Crowd::steer`] check it
    /// themselves and refuse such a tick; a game may call it first (when its agent count,
    /// the groups or a program change) to say why before it steps. A crowd whose agents all
    /// doing the most work any group asks stay within the limits is answered without
    /// counting them (the answer is the same).
    pub fn check_work(&self, world: &World, agents: usize) -> Result<(), TooMuchWork> {
        let programs = (self.groups.iter()).map(|group| (&*group.program, &group.params));
        if surely_within(agents as u64, programs, self.own_route_points, world) {
            return Ok(());
        }
        let mut counts = vec![0_u64; self.groups.len()];
        for agent in 0..agents {
            // A held agent (beyond every group) is not steered.
            if let Some(count) = counts.get_mut(self.group_of(agent)) {
                *count += 1;
            }
        }
        let running: Vec<Running<'_>> = (self.groups.iter())
            .zip(counts)
            .enumerate()
            .map(|(index, (group, agents))| {
                (index.to_string(), agents, &*group.program, &group.params)
            })
            .collect();
        check_running(&running, self.own_route_points, world)
    }

    /// Why the last tick asked of the crowd was refused: its agents would do more work than
    /// the limits allow ([`Crowd::check_work`]); `None` when it ran.
    pub fn refusal(&self) -> Option<&TooMuchWork> {
        self.refused.as_ref()
    }

    /// Checks a tick of `agents` agents, noting the refusal: whether it may run.
    pub(super) fn may_run(&mut self, world: &World, agents: usize) -> bool {
        self.refused = self.check_work(world, agents).err();
        self.refused.is_none()
    }
}
