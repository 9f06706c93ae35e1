//! An agent's neighbors, computed at most once per agent and tick, on first use: the sums of
//! every neighbor pass the compiler planned (Separation, Cohesion, Alignment and Flocking
//! nodes with the same radius and field of view share one pass), and, for the nodes that need
//! the neighbors one by one (Unaligned collision avoidance, Neighbor count, Reciprocal), the
//! candidates within the query radius in ascending agent index.

use super::{Evaluator, Recorder};
use crate::Vehicle;
use crate::behaviors::{self, FieldOfView, NeighborLanes, NeighborSums};
use crate::compile::program::{Fov, NO_PASS, Num};
use crate::compile::{ParamValues, Program, Scratch};
use crate::spatial::{Accept, Candidate, InView, Near, SpatialGrid};
use wide::f32x4;

impl<R: Recorder, V: super::value::Value> Evaluator<'_, '_, '_, R, V> {
    /// The neighbor candidates of this agent: the other agents strictly within the query
    /// radius, in ascending agent index. Queries the grid on first use.
    pub(super) fn neighbors(&mut self) -> &[Candidate] {
        if !self.scratch.neighbors_ready {
            self.scratch.neighbors_ready = true;
            let radius = self.program.query_radius(self.me, &self.context);
            let (grid, me) = (self.context.grid, self.me);
            grid.candidates(me.position, radius, self.agent, &mut self.scratch.neighbors);
            if let Some(mine) = self.avoidance() {
                let mask = OnMask {
                    mine,
                    all: self.context.avoidance,
                };
                self.scratch
                    .neighbors
                    .retain(|c| mask.takes_index(c.agent()));
            }
        }
        self.scratch.neighbors.as_slice()
    }

    /// This agent's avoidance when some agent's differs from the default (then its mask
    /// decides who its neighbors are); `None` in the usual tick, where everyone avoids
    /// everyone.
    #[inline]
    pub(super) fn avoidance(&self) -> Option<crate::Avoidance> {
        let all = self.context.avoidance;
        (!all.is_empty()).then(|| all.get(self.agent).copied().unwrap_or_default())
    }

    /// When the cells a query of `radius` around this agent visits are crowded (more than
    /// [`crowd_limit`]`(most)` agents), its `most` nearest neighbors (of its mask, with
    /// avoidance layers) from the tick's k-d tree (keys of squared distance and agent, in no
    /// order); `None` otherwise, when a scan of the cells costs less. Give the list back with [`Evaluator::return_nearest`].
    pub(super) fn crowded_nearest(&mut self, radius: f32, most: usize) -> Option<Vec<u64>> {
        self.nearest_beyond(radius, most, crowd_limit(most))
    }

    /// The agents this agent avoids, when some agent's avoidance differs from the default
    /// (`None` when everyone avoids everyone).
    #[inline]
    pub(super) fn mask(&self) -> Option<OnMask<'_>> {
        let all = self.context.avoidance;
        self.avoidance().map(|mine| OnMask { mine, all })
    }

    /// [`Evaluator::crowded_nearest`] with its own limit: the k-d tree answers once the cells
    /// hold more than `limit` agents (of its mask's agents, with avoidance layers: the tree
    /// tests each agent's layers as it tests its distance).
    pub(super) fn nearest_beyond(
        &mut self,
        radius: f32,
        most: usize,
        limit: usize,
    ) -> Option<Vec<u64>> {
        if !self.context.grid.crowded(self.me.position, radius, limit) {
            return None;
        }
        Some(self.tree_nearest(radius, most))
    }

    /// This agent's `most` nearest neighbors within `radius` (of its mask, with avoidance
    /// layers) from the tick's k-d tree, crowded or not: keys of squared distance and agent, in
    /// no order. Give the list back with [`Evaluator::return_nearest`].
    pub(super) fn tree_nearest(&mut self, radius: f32, most: usize) -> Vec<u64> {
        let (grid, me, agent) = (self.context.grid, self.me, self.agent);
        let mut nearest = std::mem::take(&mut self.scratch.nearest);
        match self.mask() {
            Some(mask) => grid.nearest(me.position, radius, most, agent, mask, &mut nearest),
            None => grid.nearest(me.position, radius, most, agent, |_| true, &mut nearest),
        }
        nearest
    }

    /// Keeps the list [`Evaluator::crowded_nearest`] lent, for its room.
    pub(super) fn return_nearest(&mut self, nearest: Vec<u64>) {
        self.scratch.nearest = nearest;
    }

    /// The neighbor sums of group op `index` (Separation, Cohesion, Alignment, Flocking). The
    /// first group op of an agent's evaluation takes every pass's sums
    /// ([`take_sums`]); the others read them. A reference, so each formula loads only
    /// the fields it needs.
    ///
    /// Listing first sums over the circle instead of the square of cells around it: on a
    /// sparse flock as fast as summing straight from the cells, 5 % faster with a field of
    /// view, and a third of the time on a dense crowd with three neighborhoods (issue 15,
    /// `BENCHMARKS.md`).
    pub(super) fn group_sums(&mut self, index: u32) -> &NeighborSums {
        if !self.scratch.sums_ready
            && let Some(mine) = self.avoidance()
        {
            self.scratch.sums_ready = true;
            let Scratch {
                neighborhoods,
                found,
                nearest,
                sums,
                ..
            } = &mut *self.scratch;
            let (grid, me) = (self.context.grid, (self.agent, self.me));
            let (params, all) = (self.context.params, self.context.avoidance);
            let mask = OnMask { mine, all };
            self.program
                .with_neighborhoods(params, neighborhoods, |passes, _| {
                    sums.clear();
                    sums.extend(passes.iter().map(|&pass| {
                        nearest_sums(grid, me, pass, Some(mask), (&mut *found, &mut *nearest))
                    }));
                });
        }
        if !self.scratch.sums_ready {
            self.scratch.sums_ready = true;
            let Scratch {
                neighborhoods,
                near,
                found,
                nearest,
                sums,
                ..
            } = &mut *self.scratch;
            let (grid, me) = (self.context.grid, (self.agent, self.me));
            let params = self.context.params;
            self.program
                .with_neighborhoods(params, neighborhoods, |passes, widest| {
                    take_sums(grid, me, (passes, widest), (near, found, nearest), sums);
                });
        }
        let pass = self
            .program
            .pass_of
            .get(index as usize)
            .copied()
            .unwrap_or(NO_PASS);
        self.scratch
            .sums
            .get(pass as usize)
            .unwrap_or(&NO_NEIGHBORS)
    }
}

/// A neighbor pass resolved for an agent: radius, field of view, most neighbors.
pub(super) type Neighborhood = (f32, FieldOfView, usize);

impl Program {
    /// Calls `f` with the neighborhood (radius, field of view, most neighbors) of every
    /// neighbor pass for `params`, and the widest radius. `scratch` holds them when there are
    /// several; one (the usual case) stays on the stack: building the list per agent cost 4 %
    /// of a flocking tick.
    pub(super) fn with_neighborhoods<T>(
        &self,
        params: &ParamValues,
        scratch: &mut Vec<Neighborhood>,
        f: impl FnOnce(&[Neighborhood], f32) -> T,
    ) -> T {
        // A whole number from 1 to 4,096 (checked by the compiler and by overrides).
        let resolve = |&(radius, fov, most): &(Num, Fov, Num)| {
            (
                radius.get(params),
                fov.get(params),
                most.get(params) as usize,
            )
        };
        let one;
        let neighborhoods: &[Neighborhood] = match &self.passes[..] {
            [pass] => {
                one = [resolve(pass)];
                &one
            }
            passes => {
                scratch.clear();
                scratch.extend(passes.iter().map(resolve));
                scratch
            }
        };
        let widest = neighborhoods.iter().fold(0.0, |r: f32, n| r.max(n.0));
        f(neighborhoods, widest)
    }
}

/// Above this many agents in the cells a neighborhood's query visits (or four times its most
/// neighbors, if more), its nearest neighbors come from the grid's k-d tree instead of a scan
/// of the cells: a scan would cost each agent of a stacked crowd the whole crowd.
pub(super) fn crowd_limit(most: usize) -> usize {
    most.saturating_mul(4).max(256)
}

/// Every neighbor pass's sums for agent `agent` (`me`), into `sums` (one per pass, for
/// `neighborhoods`, the widest `widest`).
///
/// One full-circle neighborhood (the usual flock) is summed straight from the cells around the
/// agent, every agent of them tested and added or not without a branch: nothing is written
/// per candidate. Otherwise the agents within `widest` are listed first in the grid's order
/// (a distance test each) into `near`, and each pass sums over that list
/// ([`behaviors::neighbor_sums_each`]), so the field-of-view test runs on the few within the
/// radius. Both visit the same agents in the same order and add the same ones, so the sums
/// are the same to the bit (`BENCHMARKS.md`, issue 15, has the timings of both).
///
/// A neighborhood holding more agents than its most neighbors keeps the nearest, the lower
/// agent index on a tie, summed in the grid's order ([`nearest_sums`]); so does every
/// neighborhood whose cells are crowded, which is the same when it holds no more than its most.
#[inline]
pub(super) fn take_sums(
    grid: &SpatialGrid,
    (agent, me): (usize, &Vehicle),
    (neighborhoods, widest): (&[Neighborhood], f32),
    (near, found, nearest): (&mut Near, &mut Vec<(u64, u32)>, &mut Vec<u64>),
    sums: &mut [NeighborSums],
) {
    if let ([neighborhood], [only]) = (neighborhoods, &mut *sums)
        && neighborhood.1.is_full_circle()
    {
        *only = full_circle_pass(grid, (agent, me), *neighborhood, (found, nearest));
        return;
    }
    // The scan below gives up once the cells it visits hold more agents than this, after at
    // most this many: then every pass takes its nearest from the k-d tree.
    let most = neighborhoods.iter().map(|n| n.2).max().unwrap_or(0);
    let limit = crowd_limit(most);
    let scanned = if grid.near_within(me.position, widest, agent, limit, near) {
        behaviors::neighbor_sums_each(me, near.as_slice(), neighborhoods, sums);
        true
    } else {
        false
    };
    for (pass, &neighborhood) in sums.iter_mut().zip(neighborhoods) {
        if !scanned || pass.count as usize > neighborhood.2 {
            *pass = nearest_sums(grid, (agent, me), neighborhood, None, (found, nearest));
        }
    }
}

/// [`take_sums`] of a program whose one neighborhood is a full circle (the usual flock):
/// summed straight from the cells ([`full_circle_sums`]), or from the nearest when they hold
/// more than its most neighbors or are crowded.
#[inline]
pub(super) fn full_circle_pass(
    grid: &SpatialGrid,
    me: (usize, &Vehicle),
    neighborhood: Neighborhood,
    scratch: (&mut Vec<(u64, u32)>, &mut Vec<u64>),
) -> NeighborSums {
    let circle = FullCircle::new(neighborhood);
    let mut sums = NeighborSums::default();
    let scanned = full_circle_sums(
        grid,
        (me.0, me.1.position),
        circle.radius,
        circle.limit,
        &mut sums,
    );
    circle.or_nearest(scanned, grid, me, scratch, &mut sums);
    sums
}

/// A full-circle neighborhood resolved once for a batch, with its crowd limit: batches of a
/// program whose one neighborhood it is take each agent's sums through it directly (its
/// limit worked out, and the neighborhood unpacked, once per batch instead of per agent).
#[derive(Clone, Copy, Debug)]
pub(super) struct FullCircle {
    radius: f32,
    fov: FieldOfView,
    most: usize,
    limit: usize,
}

impl FullCircle {
    /// The full circle of `neighborhood` (whose field of view the caller found full).
    pub(super) fn new((radius, fov, most): Neighborhood) -> Self {
        Self {
            radius,
            fov,
            most,
            limit: crowd_limit(most),
        }
    }

    /// The sums of a batch's agents at positions `list` that have none yet (`ready`, counted
    /// in `taken`), into `sums` (one per agent). The scan is inlined here, where only this
    /// loop surrounds it: the batch's values (the grid's arrays, the squared radius) are then
    /// read once per batch, and no call is made per agent.
    #[inline(never)]
    pub(super) fn batch(
        self,
        grid: &SpatialGrid,
        (agents, vehicles, ready, taken): (&[u32], &[Vehicle], &mut [bool], &mut usize),
        list: impl Iterator<Item = usize>,
        (found, nearest): (&mut Vec<(u64, u32)>, &mut Vec<u64>),
        sums: &mut [NeighborSums],
    ) {
        for i in list {
            let (Some(ready), Some(&agent), Some(me), Some(out)) = (
                ready.get_mut(i),
                agents.get(i),
                vehicles.get(i),
                sums.get_mut(i),
            ) else {
                continue;
            };
            if *ready {
                continue;
            }
            *ready = true;
            *taken += 1;
            let agent = agent as usize;
            let scanned =
                scan_full_circle(grid, (agent, me.position), self.radius, self.limit, out);
            self.or_nearest(
                scanned,
                grid,
                (agent, me),
                (&mut *found, &mut *nearest),
                out,
            );
        }
    }

    /// Replaces a scan's sums in `out` with the nearest's when the scan gave up (`scanned`
    /// false) or found more than the most neighbors.
    #[inline]
    fn or_nearest(
        self,
        scanned: bool,
        grid: &SpatialGrid,
        (agent, me): (usize, &Vehicle),
        (found, nearest): (&mut Vec<(u64, u32)>, &mut Vec<u64>),
        out: &mut NeighborSums,
    ) {
        if !scanned || out.count as usize > self.most {
            let neighborhood = (self.radius, self.fov, self.most);
            *out = nearest_sums(grid, (agent, me), neighborhood, None, (found, nearest));
        }
    }
}

/// One full-circle neighborhood's sums straight from the cells around `me` (agent `agent`),
/// into `out`: their agents tested four at a time, those within the radius added in slot
/// order ([`NeighborLanes::add_slots`]). `false` when the cells hold more than `limit`
/// agents (then the scan stopped, and `out` holds what it had summed). Not inlined: the other
/// neighborhoods' path through [`take_sums`] ran 2 % slower (Boids, 16,000 agents, one
/// thread) with this loop's vector code in the same function.
#[inline(never)]
fn full_circle_sums(
    grid: &SpatialGrid,
    me: (usize, glam::Vec2),
    radius: f32,
    limit: usize,
    out: &mut NeighborSums,
) -> bool {
    scan_full_circle(grid, me, radius, limit, out)
}

/// [`full_circle_sums`], inlined where it is called.
#[expect(
    clippy::inline_always,
    reason = "with `#[inline]` the batch loop called it per agent: 21 more instructions per \
              flocking agent-tick (callgrind)"
)]
#[inline(always)]
fn scan_full_circle(
    grid: &SpatialGrid,
    (agent, me): (usize, glam::Vec2),
    radius: f32,
    limit: usize,
    out: &mut NeighborSums,
) -> bool {
    // Summed in a local: into the caller's slot the compiler stored the sums at every agent.
    let mut pass = NeighborLanes::default();
    // How many more agents the scan may look at.
    let mut budget = limit;
    let radius_squared = radius * radius;
    // The rows' slots straight from the grid's arrays, not through `runs`: the three arrays
    // are bounds-checked once per group of four (`NeighborLanes::add_slots`).
    let block = grid.block(me, radius);
    let arrays = grid.slots();
    for row in block.rows.clone() {
        let Some(slots) = grid.row_slots(&block, row) else {
            continue;
        };
        let Some(left) = budget.checked_sub(slots.len()) else {
            *out = pass.sums();
            return false;
        };
        budget = left;
        pass.add_slots(me, arrays, slots, agent as u32, radius_squared);
    }
    *out = pass.sums();
    true
}

/// The sums over the at most `most` neighbors of `me` within `radius` and `fov` nearest to
/// it (the lower agent index on a tie), of its `mask` when it has one, added in the grid's
/// order as a scan adds them: the k-d tree finds them in crowded cells, a scan of the cells
/// elsewhere (`BEHAVIORS.md`, "Neighborhoods").
fn nearest_sums(
    grid: &SpatialGrid,
    (agent, me): (usize, &Vehicle),
    (radius, fov, most): Neighborhood,
    mask: Option<OnMask<'_>>,
    (found, order): (&mut Vec<(u64, u32)>, &mut Vec<u64>),
) -> NeighborSums {
    let center = me.position;
    let mut pass = NeighborSums::default();
    if grid.crowded(center, radius, crowd_limit(most)) {
        let sees = InView {
            forward: me.forward,
            fov,
        };
        match mask {
            Some(mask) => grid.nearest(center, radius, most, agent, (sees, mask), order),
            None => grid.nearest(center, radius, most, agent, sees, order),
        }
        grid.nearest_in_grid_order(order, |position, velocity| {
            pass.add_if(center, position, velocity, true);
        });
        return pass;
    }
    let accept = |other: u32| mask.is_none_or(|mask| mask.takes(other));
    masked_sums(grid, (agent, me), (radius, fov, most), &accept, found)
}

/// The layers of agent `agent` among `all` (the default's, layer 1, past its end).
#[inline]
pub(super) fn layers_of(all: &[crate::Avoidance], agent: usize) -> u32 {
    all.get(agent)
        .map_or(crate::Avoidance::default().layers, |a| a.layers)
}

/// The agents one agent avoids (and counts as neighbors): those on a layer of its mask
/// (`BEHAVIORS.md`, "Avoidance priority and layers"). The k-d tree tests them four at a time
/// beside their distances, so a crowded neighborhood's nearest of a mask cost what its
/// nearest cost, not a scan of the crowd.
#[derive(Clone, Copy, Debug)]
pub(super) struct OnMask<'a> {
    /// The agent's avoidance.
    pub(super) mine: crate::Avoidance,
    /// Every agent's (the default past its end).
    pub(super) all: &'a [crate::Avoidance],
}

impl OnMask<'_> {
    /// Whether the agent avoids agent `other`.
    #[inline]
    pub(super) fn takes(self, other: u32) -> bool {
        self.takes_index(other as usize)
    }

    /// [`OnMask::takes`] for an agent index.
    #[inline]
    pub(super) fn takes_index(self, other: usize) -> bool {
        self.mine.avoids(layers_of(self.all, other))
    }
}

impl Accept for OnMask<'_> {
    #[inline]
    fn lanes(&self, _: f32x4, _: f32x4, _: f32x4, _: f32x4, agents: [u32; 4]) -> u32 {
        (agents.iter().zip(0..)).fold(0, |lanes, (&other, lane)| {
            lanes | u32::from(self.takes(other)) << lane
        })
    }

    #[inline]
    fn subtree(&self, layers: u32) -> bool {
        self.mine.avoids(layers)
    }
}

/// The sums over the agents `accept` takes (all, or those on a layer of the agent's mask)
/// by a scan of the cells: the nearest `most` of those within the neighborhood (the lower
/// agent index on a tie), summed in the grid's order.
fn masked_sums(
    grid: &SpatialGrid,
    (agent, me): (usize, &Vehicle),
    (radius, fov, most): Neighborhood,
    accept: &impl Fn(u32) -> bool,
    found: &mut Vec<(u64, u32)>,
) -> NeighborSums {
    let center = me.position;
    let mut pass = NeighborSums::default();
    found.clear();
    for run in grid.runs(center, radius) {
        let others = run.positions.iter().zip(run.agents).zip(run.first_slot..);
        for ((&position, &other), slot) in others {
            if other as usize != agent
                && accept(other)
                && behaviors::in_neighborhood(me, position, radius, fov)
            {
                let key = crate::spatial::key(position.distance_squared(center), other);
                found.push((key, slot as u32));
            }
        }
    }
    if found.len() > most && most > 0 {
        found.select_nth_unstable_by_key(most - 1, |&(key, _)| key);
        found.truncate(most);
    }
    found.sort_unstable_by_key(|&(_, slot)| slot);
    let (positions, velocities) = (grid.positions(), grid.velocities());
    for &(_, slot) in found.iter() {
        let slot = slot as usize;
        if let (Some(&position), Some(&velocity)) = (positions.get(slot), velocities.get(slot)) {
            pass.add_if(center, position, velocity, true);
        }
    }
    pass
}

/// The sums of a neighborhood without neighbors.
static NO_NEIGHBORS: NeighborSums = NeighborSums {
    separation: glam::Vec2::ZERO,
    position: glam::Vec2::ZERO,
    velocity: glam::Vec2::ZERO,
    count: 0,
};

#[cfg(test)]
mod tests {
    use glam::Vec2;

    use super::*;
    use crate::VehicleParams;

    /// The full-circle scan compares candidates with the agent only in the agent's own row
    /// of cells: on a lattice whose points sit on the cell borders, with two agents on every
    /// point (each the other's coincident neighbor), every agent's sums equal those of a scan
    /// of every run comparing every candidate, to the bit, and never count the agent itself.
    #[test]
    fn the_full_circle_scan_leaves_out_the_agent_itself_and_no_one_else() {
        let radius = 2.0;
        let vehicles: Vec<Vehicle> = (0..2 * 15 * 15_u32)
            .map(|i| {
                let point = i / 2;
                let position = Vec2::new((point % 15) as f32, (point / 15) as f32);
                let velocity = Vec2::new(1.0 + (i % 3) as f32, (i % 5) as f32 - 2.0);
                Vehicle::new(position, velocity, VehicleParams::default())
            })
            .collect();
        // Cells as wide as the radius: rows start at every even y.
        let mut grid = SpatialGrid::new(radius);
        grid.rebuild(&vehicles);
        let full = FieldOfView::from_degrees(360.0);
        let (mut found, mut order) = (Vec::new(), Vec::new());
        for (agent, me) in vehicles.iter().enumerate() {
            let sums = full_circle_pass(
                &grid,
                (agent, me),
                (radius, full, 64),
                (&mut found, &mut order),
            );
            let mut expected = NeighborSums::default();
            for run in grid.runs(me.position, radius) {
                let others = run.positions.iter().zip(run.velocities).zip(run.agents);
                for ((&position, &velocity), &other) in others {
                    let inside = other as usize != agent
                        && behaviors::in_neighborhood(me, position, radius, full);
                    expected.add_if(me.position, position, velocity, inside);
                }
            }
            assert_eq!(sums, expected, "agent {agent} at {}", me.position);
            // Strictly within 2 of an inner point: its own point and the 8 around it (the
            // points 2 away are not), two agents each, less the agent itself.
            if (1.0..=13.0).contains(&me.position.x) && (1.0..=13.0).contains(&me.position.y) {
                assert_eq!(sums.count, 17, "agent {agent}");
            }
        }
    }

    /// The k-d tree's answer in a crowded neighborhood sums the same agents in the same order
    /// as a scan of the cells keeping the nearest would: the crowd limit is invisible in the
    /// results, to the bit.
    #[test]
    fn a_crowded_neighborhood_sums_what_a_scan_would_to_the_bit() {
        // 1,200 agents in a 10 x 10 square, heading every way; cells 5 wide hold hundreds.
        let vehicles: Vec<Vehicle> = (0..1_200_u32)
            .map(|i| {
                let position = Vec2::new(
                    ((i * 37) % 101) as f32 * 0.1 + (i % 7) as f32 * 1e-3,
                    ((i * 53) % 97) as f32 * 0.1,
                );
                let angle = (i as f32) * 0.7;
                let velocity = Vec2::new(angle.cos(), angle.sin()) * (1.0 + (i % 5) as f32);
                Vehicle::new(position, velocity, VehicleParams::default())
            })
            .collect();
        let mut grid = SpatialGrid::new(5.0);
        grid.rebuild(&vehicles);
        let (positions, velocities) = (grid.positions(), grid.velocities());
        let (mut found, mut order) = (Vec::new(), Vec::new());
        for (radius, degrees, most) in [(5.0, 270.0, 64), (2.0, 360.0, 16), (3.0, 120.0, 1)] {
            let fov = FieldOfView::from_degrees(degrees);
            for (agent, me) in vehicles.iter().enumerate().step_by(11) {
                assert!(grid.crowded(me.position, radius, crowd_limit(most)));
                let tree = nearest_sums(
                    &grid,
                    (agent, me),
                    (radius, fov, most),
                    None,
                    (&mut found, &mut order),
                );
                // The scan: everyone in the neighborhood, the `most` nearest by (squared
                // distance, index), summed by slot.
                let mut scan: Vec<(f32, u32, usize)> = (0..positions.len())
                    .filter_map(|slot| {
                        let other = grid.sources().get(slot).copied()?;
                        let position = positions[slot];
                        (other as usize != agent
                            && behaviors::in_neighborhood(me, position, radius, fov))
                        .then(|| (position.distance_squared(me.position), other, slot))
                    })
                    .collect();
                scan.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                scan.truncate(most);
                scan.sort_by_key(|s| s.2);
                let mut expected = NeighborSums::default();
                for &(_, _, slot) in &scan {
                    expected.add_if(me.position, positions[slot], velocities[slot], true);
                }
                assert_eq!(
                    tree, expected,
                    "agent {agent}, radius {radius}, most {most}"
                );
                assert_eq!(tree.count as usize, most.min(scan.len()));
            }
        }
    }
}
