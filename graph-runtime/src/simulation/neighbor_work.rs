//! The limit on the neighbors a tick keeps ([`MAX_NEIGHBOR_WORK`]): each group's agents × the
//! most neighbors its graph's neighborhood and Reciprocal nodes keep, summed over the groups;
//! checked before a scene's first tick and before a group's program is swapped.

use std::fmt;

use super::GroupRuntime;
use crate::Program;
use crate::compile::ParamValues;
use crate::limits::MAX_NEIGHBOR_WORK;

/// The agents would keep more neighbors a tick than [`MAX_NEIGHBOR_WORK`]: the work such a tick
/// takes is linear in it (20,000 stacked agents keeping 4,096 neighbors took 2.9 s a tick).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooManyNeighbors {
    /// The neighbors kept a tick, all groups together.
    pub total: u64,
    /// Each group's share: its name, its agents and the most neighbors one of them keeps.
    pub groups: Vec<(String, u64, u64)>,
}

impl fmt::Display for TooManyNeighbors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let each: Vec<String> = (self.groups.iter())
            .map(|(name, agents, work)| format!("group \"{name}\": {agents} agents × {work}"))
            .collect();
        write!(
            f,
            "groups: the agents would keep up to {} neighbors a tick ({}; agents × the most neighbors of each neighborhood and Reciprocal node of their graph); the limit is {MAX_NEIGHBOR_WORK}: lower max_neighbors or the agent count",
            self.total,
            each.join(", ")
        )
    }
}

impl std::error::Error for TooManyNeighbors {}

/// The groups' shares of neighbor work, with group `swapped` running `program` with `params`
/// instead of its own (`None`: every group as it is); refused past [`MAX_NEIGHBOR_WORK`].
pub(super) fn check(
    groups: &[GroupRuntime],
    swapped: Option<(usize, &Program, &ParamValues)>,
) -> Result<(), TooManyNeighbors> {
    let shares: Vec<(String, u64, u64)> = (groups.iter().enumerate())
        .map(|(index, g)| {
            let work = match swapped {
                Some((group, program, params)) if group == index => program.neighbor_work(params),
                _ => g.program.neighbor_work(&g.params),
            };
            (g.name.clone(), g.agents.len() as u64, work)
        })
        .filter(|&(_, agents, work)| agents > 0 && work > 0)
        .collect();
    let total = (shares.iter())
        .map(|&(_, agents, work)| agents.saturating_mul(work))
        .fold(0_u64, u64::saturating_add);
    if total > MAX_NEIGHBOR_WORK {
        Err(TooManyNeighbors {
            total,
            groups: shares,
        })
    } else {
        Ok(())
    }
}
