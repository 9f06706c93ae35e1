//! Limits on work that grows as a product of inputs, each within its own limit (issue 46),
//! checked before a scene's first tick and before a group's program is swapped:
//!
//! - [`MAX_NEIGHBOR_WORK`]: each group's agents × the most neighbors its graph's neighborhood
//!   and Reciprocal nodes keep, summed over the groups;
//! - [`MAX_PATH_WORK`]: each group's agents × the segments of the scene paths its graph
//!   follows (a `PathFollowing` agent projects itself onto every segment of its path each
//!   tick), summed over the groups;
//! - [`MAX_GAP_WORK`]: every agent × the corners of the level's gaps (a walking agent inside a
//!   gap's box tests every corner of that gap each tick): an upper bound, as agents outside
//!   the boxes test none.

use std::fmt;

use super::GroupRuntime;
use crate::compile::ParamValues;
use crate::limits::{MAX_GAP_WORK, MAX_NEIGHBOR_WORK, MAX_PATH_WORK};
use crate::{Program, World};

/// What a tick would do too much of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Neighbors kept ([`MAX_NEIGHBOR_WORK`]).
    Neighbors,
    /// Path segments projected onto ([`MAX_PATH_WORK`]).
    PathSegments,
    /// Gap corners tested ([`MAX_GAP_WORK`]).
    GapCorners,
}

/// A tick would do more of `work` than its limit allows: the time it takes is linear in it
/// (20,000 stacked agents keeping 4,096 neighbors took 2.9 s a tick; 1,000 agents following a
/// path of 1,000,000 points project onto a billion segments a tick).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooMuchWork {
    /// What.
    pub work: Work,
    /// How much a tick, all groups together.
    pub total: u64,
    /// Each group's share: its name, its agents and the work of one of them.
    pub groups: Vec<(String, u64, u64)>,
    /// The points of the agents' own routes, all together, counted in the path segments'
    /// total (a game's crowd's; 0 for a scene's agents, which start without routes).
    pub own_route_points: u64,
}

impl fmt::Display for TooMuchWork {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let each: Vec<String> = (self.groups.iter())
            .map(|(name, agents, work)| format!("group \"{name}\": {agents} agents × {work}"))
            .collect();
        let (each, total) = (each.join(", "), self.total);
        match self.work {
            Work::Neighbors => write!(
                f,
                "groups: the agents would keep up to {total} neighbors a tick ({each}; agents × the most neighbors of each neighborhood and Reciprocal node of their graph); the limit is {MAX_NEIGHBOR_WORK}: lower max_neighbors or the agent count"
            ),
            Work::PathSegments => {
                let (own, plus) = match self.own_route_points {
                    0 => (String::new(), ""),
                    points => (
                        format!(", and their own routes' {points} points"),
                        ", plus the points of their own routes",
                    ),
                };
                write!(
                    f,
                    "groups: the agents would project themselves onto {total} path segments a tick ({each}{own}; agents × the segments of the paths their graph follows{plus}); the limit is {MAX_PATH_WORK}: follow paths of fewer points, or with fewer agents"
                )
            }
            Work::GapCorners => write!(
                f,
                "groups: the agents could test up to {total} gap corners a tick ({each}; agents × the corners of the level's gaps, which a walking agent inside a gap's box tests); the limit is {MAX_GAP_WORK}: draw the gaps with fewer corners, or run fewer agents"
            ),
        }
    }
}

impl std::error::Error for TooMuchWork {}

/// The three limits for `groups` in `world`, with group `swapped` running `program` with `params`
/// instead of its own (`None`: every group as it is).
pub(super) fn check(
    groups: &[GroupRuntime],
    world: &World,
    swapped: Option<(usize, &Program, &ParamValues)>,
) -> Result<(), TooMuchWork> {
    let running: Vec<Running<'_>> = (groups.iter().enumerate())
        .map(|(index, group)| {
            let (program, params) = match swapped {
                Some((at, program, params)) if at == index => (program, params),
                _ => (&*group.program, &group.params),
            };
            (
                group.name.clone(),
                group.agents.len() as u64,
                program,
                params,
            )
        })
        .collect();
    check_running(&running, 0, world)
}

/// A group as the limits see it: its name, its agents, and the program it runs with its
/// parameter values.
pub(crate) type Running<'a> = (String, u64, &'a Program, &'a ParamValues);

/// The three limits for the groups `running` in `world` (a simulation's, or a game's crowd's:
/// [`crate::Crowd::check_work`]), the agents' own routes having `own_route_points` points
/// together.
pub(crate) fn check_running(
    running: &[Running<'_>],
    own_route_points: u64,
    world: &World,
) -> Result<(), TooMuchWork> {
    let shares = |each: &dyn Fn(&Program, &ParamValues) -> u64| -> Vec<(String, u64, u64)> {
        (running.iter())
            .map(|(name, agents, program, params)| (name.clone(), *agents, each(program, params)))
            .filter(|&(_, agents, work)| agents > 0 && work > 0)
            .collect()
    };
    within(
        Work::Neighbors,
        MAX_NEIGHBOR_WORK,
        shares(&|program, params| program.neighbor_work(params)),
        0,
    )?;
    within(
        Work::PathSegments,
        MAX_PATH_WORK,
        shares(&|program, _| path_work(program, world)),
        own_route_points,
    )?;
    let corners = gap_corners(world);
    within(Work::GapCorners, MAX_GAP_WORK, shares(&|_, _| corners), 0)
}

/// Whether `agents` agents stay within all three limits whatever groups they are in, each
/// taken to do the most work any of `programs` asks: an upper bound on [`check_running`]'s
/// totals, worked out without counting each group's agents and without allocating, so a
/// driver can check every tick and count only near the limits.
pub(crate) fn surely_within<'a>(
    agents: u64,
    programs: impl IntoIterator<Item = (&'a Program, &'a ParamValues)>,
    own_route_points: u64,
    world: &World,
) -> bool {
    let (neighbors, segments) = (programs.into_iter()).fold((0, 0), |(n, s), (program, params)| {
        let here = (program.neighbor_work(params), path_work(program, world));
        (n.max(here.0), s.max(here.1))
    });
    agents.saturating_mul(neighbors) <= MAX_NEIGHBOR_WORK
        && (agents.saturating_mul(segments)).saturating_add(own_route_points) <= MAX_PATH_WORK
        && agents.saturating_mul(gap_corners(world)) <= MAX_GAP_WORK
}

/// The path segments one agent running `program` projects itself onto each tick in `world`.
fn path_work(program: &Program, world: &World) -> u64 {
    (program.path_names().iter())
        .filter_map(|name| world.path(name))
        .map(|path| path.segment_count() as u64)
        .fold(0_u64, u64::saturating_add)
}

/// The corners of `world`'s gaps, all together.
fn gap_corners(world: &World) -> u64 {
    (world.gaps().iter())
        .map(|gap| gap.points.len() as u64)
        .fold(0_u64, u64::saturating_add)
}

/// Refused when the groups' agents × their work (`shares`: name, agents, the work of one)
/// summed, with the own routes' `own_route_points`, pass `limit`.
fn within(
    work: Work,
    limit: u64,
    shares: Vec<(String, u64, u64)>,
    own_route_points: u64,
) -> Result<(), TooMuchWork> {
    let total = (shares.iter())
        .map(|&(_, agents, work)| agents.saturating_mul(work))
        .fold(own_route_points, u64::saturating_add);
    if total > limit {
        Err(TooMuchWork {
            work,
            total,
            groups: shares,
            own_route_points,
        })
    } else {
        Ok(())
    }
}
