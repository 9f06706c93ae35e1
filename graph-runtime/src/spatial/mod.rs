//! Neighbor queries: a uniform grid rebuilt every tick.

use glam::Vec2;

use crate::Vehicle;
use crate::pool::Warm;

mod answers;
mod blocks;
mod bounds;
mod build;
mod cells;
mod nearest;
mod network;

pub use answers::{Candidate, Candidates, Near, Run};
pub(crate) use bounds::{RebuiltAt, farther};
pub(crate) use build::Extent;
pub(crate) use cells::Body;
pub(crate) use nearest::{Accept, InView, agent_of, keep_nearest, key};
pub(crate) use network::{NETWORK_SORT_MAX, sort_few, sort_first};

/// Largest number of cells per agent the grid allocates; beyond it the cells grow instead,
/// so agents scattered far apart cannot make the grid huge.
const MAX_CELLS_PER_AGENT: usize = 4;

/// A uniform grid over the agents' positions, answering "who is within r of this point".
///
/// Built by counting sort (in parallel from 8,192 agents, `spatial/build.rs`), so building and
/// querying are deterministic for any thread count and, once warm, free of
/// allocation. Query results are sorted by agent index, so they do not depend on the cell size.
/// The runs a query visits ([`SpatialGrid::runs`]) list the cells row by row, and each
/// cell's agents in ascending index: an order set by the positions, the cell size and the
/// agent indices, never by the order the vehicles were given in.
#[derive(Clone, Debug)]
pub struct SpatialGrid {
    preferred_cell_size: f32,
    cell_size: f32,
    origin: Vec2,
    columns: usize,
    rows: usize,
    cell_start: Vec<u32>,
    entries: Vec<u32>,
    cell_of: Vec<u32>,
    /// The lowest and highest cell of each block of [`blocks::BLOCK`] agents and how many have
    /// one (`blocks.rs`): a part of a parallel rebuild passes over the blocks that hold none
    /// of its cells.
    block_cells: Vec<blocks::BlockCells>,
    cursor: Vec<build::Cursor>,
    /// Per slot, the index in the slice the grid was rebuilt from.
    sources: Vec<u32>,
    /// Positions and velocities of the agents in `entries`, in the same (cell) order: a
    /// query reads one contiguous run of them per row of cells.
    positions: Vec<Vec2>,
    velocities: Vec<Vec2>,
    max_speed: f32,
    max_radius: f32,
    /// Per part of the scatter, its cells that need sorting and room for sorting one
    /// (`build.rs`); keeps its capacity, so a warm rebuild allocates nothing.
    spares: Vec<build::PartSpare>,
    /// The k-d tree of this tick's agents, built by the first crowded query
    /// ([`SpatialGrid::nearest`]); a tick without one never builds it.
    tree: std::sync::OnceLock<nearest::Tree>,
    /// The tree of an earlier tick, whose buffers the next one is built in.
    spare_tree: nearest::SpareTree,
    /// Whether a query asked this tick's tree for neighbors.
    tree_used: Flag,
    /// Whether last tick's did: this tick's tree is then built before the tick, on every
    /// thread ([`SpatialGrid::prepare_tree`]).
    tree_wanted: bool,
    /// Most agents in a leaf of the tree ([`SpatialGrid::expect_neighbors`]).
    tree_leaf: usize,
    /// Each agent's avoidance layers, by agent index (empty while every agent has the
    /// default's): the tree skips the subtrees with none of a query's mask
    /// ([`SpatialGrid::set_layers`]).
    layers: Vec<u32>,
    /// How far each agent's nearest neighbors were at its last query (`bounds.rs`).
    bounds: bounds::NeighborBounds,
}

/// A flag any thread may set, cloned with its value.
#[derive(Debug, Default)]
struct Flag(std::sync::atomic::AtomicBool);

impl Clone for Flag {
    fn clone(&self) -> Self {
        Self(self.0.load(std::sync::atomic::Ordering::Relaxed).into())
    }
}

impl Flag {
    fn set(&self) {
        use std::sync::atomic::Ordering::Relaxed;
        // Read first: every query writing the flag would pass its cache line between cores.
        if !self.0.load(Relaxed) {
            self.0.store(true, Relaxed);
        }
    }

    /// The flag's value, cleared.
    fn take(&mut self) -> bool {
        std::mem::take(self.0.get_mut())
    }
}

impl SpatialGrid {
    /// An empty grid whose cells are about `cell_size` units wide (typically the largest
    /// neighborhood radius).
    pub fn new(cell_size: f32) -> Self {
        let cell_size = if cell_size.is_finite() && cell_size > 0.0 {
            cell_size
        } else {
            1.0
        };
        Self {
            preferred_cell_size: cell_size,
            cell_size,
            origin: Vec2::ZERO,
            columns: 0,
            rows: 0,
            cell_start: Vec::new(),
            entries: Vec::new(),
            cell_of: Vec::new(),
            block_cells: Vec::new(),
            cursor: Vec::new(),
            sources: Vec::new(),
            positions: Vec::new(),
            velocities: Vec::new(),
            max_speed: 0.0,
            max_radius: 0.0,
            spares: Vec::new(),
            tree: std::sync::OnceLock::new(),
            spare_tree: nearest::SpareTree::default(),
            tree_used: Flag::default(),
            tree_wanted: false,
            tree_leaf: nearest::SMALLEST_LEAF,
            layers: Vec::new(),
            bounds: bounds::NeighborBounds::default(),
        }
    }

    /// Tells the grid each agent's avoidance layers (`avoidance` by agent index, as the grid's
    /// agents are numbered; empty while every agent has the default), so that a k-d tree
    /// query for the agents of a mask skips the subtrees with none on its layers: an agent
    /// that avoids only a few of a stacked crowd looks at about those few, not the crowd.
    /// Takes effect at the next tree built; a tree already built is dropped.
    pub(crate) fn set_layers(&mut self, avoidance: &[crate::Avoidance]) {
        if avoidance.is_empty() && self.layers.is_empty() {
            return;
        }
        self.layers.clear();
        self.layers.extend(avoidance.iter().map(|a| a.layers));
        if let Some(tree) = self.tree.take() {
            self.spare_tree.keep(tree);
        }
    }

    /// Sizes the leaves of the k-d tree crowded queries use for queries of about `most`
    /// neighbors (the largest neighbor count summed: a Flocking node's 64 by default): leaves
    /// of `most` agents, from 32 to 64. Leaves of 64 made 100,000 stacked flockers (64
    /// neighbors) a fifth faster than leaves of 32, and Reciprocal's 10-neighbor queries a
    /// seventh slower (issue 28). Answers are the same whatever the size.
    pub(crate) fn expect_neighbors(&mut self, most: usize) {
        self.tree_leaf = most.clamp(nearest::SMALLEST_LEAF, nearest::LARGEST_LEAF);
    }

    /// Changes the preferred cell size; takes effect at the next [`SpatialGrid::rebuild`].
    pub fn set_cell_size(&mut self, cell_size: f32) {
        if cell_size.is_finite() && cell_size > 0.0 {
            self.preferred_cell_size = cell_size;
        }
    }

    /// The fastest agent's speed at the last rebuild (units / s).
    pub fn max_speed(&self) -> f32 {
        self.max_speed
    }

    /// The width of the cells at the last rebuild (units).
    #[cfg(test)]
    pub(crate) fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// The largest agent radius at the last rebuild (units).
    pub fn max_radius(&self) -> f32 {
        self.max_radius
    }

    /// Re-sorts the agents into cells. Agents with non-finite positions are left out.
    pub fn rebuild(&mut self, vehicles: &[Vehicle]) {
        self.rebuild_with(vehicles, |index| index as u32);
    }

    /// [`SpatialGrid::rebuild`] during a tick that keeps the pool `warm`: the rebuild's count
    /// and scatter end without a thread asleep at their end ([`crate::pool::run_tasks`]). The
    /// same grid.
    pub(crate) fn rebuild_on(&mut self, vehicles: &[Vehicle], warm: &Warm) {
        self.rebuild_known(vehicles, |index| index as u32, None, warm);
    }

    /// Per slot (cell order), the index of its vehicle in the slice the grid was last rebuilt
    /// from; only the vehicles with a finite position have a slot.
    pub(crate) fn sources(&self) -> &[u32] {
        &self.sources
    }

    /// The agents of the k-d tree the tick before the last rebuild built (for a crowded
    /// query), in the tree's order, which keeps agents near in space near in the list, within
    /// crowded cells too; `None` if that tick built none.
    pub(crate) fn last_tree_order(&mut self) -> Option<&[u32]> {
        self.tree_wanted.then(|| self.spare_tree.agents()).flatten()
    }

    /// Forgets that this tick's tree answered queries: the next tick builds its tree on the
    /// first crowded query and walks the grid's order (a test compares the two ways).
    #[cfg(test)]
    pub(crate) fn forget_tree_use(&mut self) {
        self.tree_used.take();
    }

    /// Builds this tick's k-d tree now if last tick's answered a query (a crowd stays a crowd
    /// from one tick to the next), in parallel on the current rayon pool; otherwise the first
    /// crowded query builds it, on its own thread while the others wait.
    pub(crate) fn prepare_tree(&self) {
        if self.tree_wanted {
            self.tree();
        }
    }

    /// The agents' positions at the last rebuild, in cell order ([`Candidate::slot`]).
    pub fn positions(&self) -> &[Vec2] {
        &self.positions
    }

    /// The agents' velocities at the last rebuild, in cell order ([`Candidate::slot`]).
    pub fn velocities(&self) -> &[Vec2] {
        &self.velocities
    }

    /// Puts in `out` the index of every agent other than `exclude` whose position (at the
    /// last rebuild) is closer than `radius` to `center`, sorted by index. `vehicles` is not
    /// read: the grid answers from its own copies.
    pub fn query(
        &self,
        _vehicles: &[Vehicle],
        center: Vec2,
        radius: f32,
        exclude: usize,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        out.extend(
            self.within(center, radius)
                .filter(|&agent| agent as usize != exclude),
        );
        out.sort_unstable();
    }

    /// Every agent whose position (at the last rebuild) is closer than `radius` to `center`,
    /// in the grid's order (not by index): for a caller that ranks them itself.
    pub(crate) fn within(&self, center: Vec2, radius: f32) -> impl Iterator<Item = u32> + '_ {
        let radius_squared = radius * radius;
        self.runs(center, radius).flat_map(move |run| {
            run.positions
                .iter()
                .zip(run.agents)
                .filter(move |&(position, _)| position.distance_squared(center) < radius_squared)
                .map(|(_, &agent)| agent)
        })
    }

    /// Puts in `out` every agent other than `exclude` whose position (at the last rebuild) is
    /// closer than `radius` to `center`, sorted by agent index, with its slot in the
    /// cell-ordered copies. Allocates nothing once `out` has grown to fit.
    pub fn candidates(&self, center: Vec2, radius: f32, exclude: usize, out: &mut Candidates) {
        out.clear();
        let radius_squared = radius * radius;
        for run in self.runs(center, radius) {
            out.make_room(run.agents.len());
            for (offset, (position, &agent)) in run.positions.iter().zip(run.agents).enumerate() {
                let inside =
                    position.distance_squared(center) < radius_squared && agent as usize != exclude;
                out.push_if(agent, run.first_slot + offset, inside);
            }
        }
        out.sort();
    }

    /// Puts in `out` the position and velocity of every agent other than `exclude` whose
    /// position (at the last rebuild) is closer than `radius` to `center`, in the grid's order
    /// (rows, cells, agent index within a cell; see [`SpatialGrid::runs`]). Allocates nothing
    /// once `out` has grown to fit.
    pub fn near(&self, center: Vec2, radius: f32, exclude: usize, out: &mut Near) {
        self.near_within(center, radius, exclude, usize::MAX, out);
    }

    /// Whether the cells a query of `radius` around `center` visits hold more than `limit`
    /// agents in all: counted per row of cells, without looking at the agents.
    pub(crate) fn crowded(&self, center: Vec2, radius: f32, limit: usize) -> bool {
        // No more agents in all than the limit: no cells hold more, and neither the block nor
        // its rows need working out (a flock of at most 256, a Reciprocal crowd of at most 8
        // × its neighbors).
        self.entries.len() > limit && self.holds_more(&self.block(center, radius), limit)
    }

    /// Whether the cells of `block` hold more than `limit` agents in all ([`Self::crowded`]
    /// for a block the caller goes on to scan).
    pub(crate) fn holds_more(&self, block: &Block, limit: usize) -> bool {
        if self.entries.len() <= limit {
            return false;
        }
        // The rows' slot ranges alone: the runs' three slices were looked up for nothing
        // (174 instructions an agent on RVO2's Circle 1,000, issue 47).
        let mut total = 0;
        for row in block.rows.clone() {
            total += self.row_slots(block, row).map_or(0, |slots| slots.len());
            if total > limit {
                return true;
            }
        }
        false
    }

    /// The at most `k` agents other than `exclude` strictly within `radius` of `center` whose
    /// position `accept` takes, the nearest (the lower agent index on a tie), into `out` as
    /// keys (squared distance and agent, [`agent_of`] reads the agent) in no particular order,
    /// from a k-d tree of the agents built on the first call after a rebuild: a query looks at
    /// about `k log n` agents however crowded the cells are (`nearest.rs`).
    pub(crate) fn nearest(
        &self,
        center: Vec2,
        radius: f32,
        k: usize,
        exclude: usize,
        accept: impl nearest::Accept,
        out: &mut Vec<u64>,
    ) {
        self.tree_used.set();
        self.tree().nearest(center, radius, k, exclude, accept, out);
    }

    /// Calls `f` with the position and velocity of each agent of `keys` (an answer of
    /// [`SpatialGrid::nearest`], sorted in the process) in the grid's order, the order a scan
    /// of the cells adds them in.
    pub(crate) fn nearest_in_grid_order(&self, keys: &mut [u64], f: impl FnMut(Vec2, Vec2)) {
        self.tree().in_grid_order(keys, f);
    }

    /// The levels of splits of this rebuild's k-d tree (built or not): about how far a crowded
    /// query's search walks down before its first leaf ([`nearest::depth`]).
    pub(crate) fn tree_depth(&self) -> usize {
        nearest::depth(self.entries.len(), self.tree_leaf)
    }

    /// This tick's k-d tree, built on first use.
    fn tree(&self) -> &nearest::Tree {
        self.tree.get_or_init(|| {
            self.spare_tree.take().rebuilt(
                (&self.positions, &self.velocities, &self.entries),
                self.tree_leaf,
                &self.layers,
            )
        })
    }

    /// [`SpatialGrid::near`], unless the cells it visits hold more than `limit` agents: then
    /// it gives up (after scanning at most `limit` of them) and returns false.
    #[expect(
        clippy::needless_bitwise_bool,
        reason = "`&` keeps the scan free of branches; both sides are plain comparisons"
    )]
    pub(crate) fn near_within(
        &self,
        center: Vec2,
        radius: f32,
        exclude: usize,
        limit: usize,
        out: &mut Near,
    ) -> bool {
        out.len = 0;
        let radius_squared = radius * radius;
        let mut seen = 0;
        for run in self.runs(center, radius) {
            seen += run.agents.len();
            if seen > limit {
                return false;
            }
            if out.buffer.len() < out.len + run.agents.len() {
                out.buffer
                    .resize(out.len + run.agents.len(), (Vec2::ZERO, Vec2::ZERO));
            }
            let others = run.positions.iter().zip(run.velocities).zip(run.agents);
            for ((&position, &velocity), &agent) in others {
                let inside = (position.distance_squared(center) < radius_squared)
                    & (agent as usize != exclude);
                if let Some(entry) = out.buffer.get_mut(out.len) {
                    *entry = (position, velocity);
                }
                out.len += usize::from(inside);
            }
        }
        true
    }

    /// One run per row of cells that the square around the circle of `radius` at `center`
    /// covers, bottom row first. Each row is one contiguous run of the cell-ordered copies, so
    /// a scan over it reads memory in order. The runs hold every agent of those cells: the
    /// caller tests the distance.
    #[inline]
    pub fn runs(&self, center: Vec2, radius: f32) -> impl Iterator<Item = Run<'_>> {
        self.runs_of(self.block(center, radius))
    }

    /// [`SpatialGrid::runs`] of a block worked out already.
    #[inline]
    pub(crate) fn runs_of(&self, block: Block) -> impl Iterator<Item = Run<'_>> {
        block.rows.clone().filter_map(move |row| {
            let slots = self.row_slots(&block, row)?;
            Some(Run {
                row,
                first_slot: slots.start,
                agents: self.entries.get(slots.clone())?,
                positions: self.positions.get(slots.clone())?,
                velocities: self.velocities.get(slots)?,
            })
        })
    }

    /// The cells a query of `radius` around `center` visits: those of the square around its
    /// circle, as rows of cells ([`SpatialGrid::runs`] lists their agents).
    #[inline]
    pub(crate) fn block(&self, center: Vec2, radius: f32) -> Block {
        let mut block = Block {
            rows: 0..0,
            first_cell: 0,
            width: 0,
            columns: self.columns,
        };
        if !radius.is_nan() && radius > 0.0 && center.is_finite() && self.columns > 0 {
            // Cell coordinates as in `Cells::index` (`cells.rs`): truncation is the floor of what is not
            // negative.
            let low = ((center - radius - self.origin) / self.cell_size).max(Vec2::ZERO);
            let high = (center + radius - self.origin) / self.cell_size;
            if high.x >= 0.0 && high.y >= 0.0 {
                let (low, high) = (low.as_uvec2(), high.as_uvec2());
                let first_column = low.x as usize;
                let last_column = (high.x as usize).min(self.columns - 1);
                if first_column <= last_column {
                    block.rows = low.y as usize..(high.y as usize).min(self.rows - 1) + 1;
                    block.first_cell = first_column;
                    block.width = last_column + 1 - first_column;
                }
            }
        }
        block
    }

    /// The slots of the agents in row `row` of `block`: consecutive in the cell-ordered
    /// copies, cell after cell from left to right. `None` for a row the grid does not have.
    #[inline]
    pub(crate) fn row_slots(&self, block: &Block, row: usize) -> Option<std::ops::Range<usize>> {
        let first_cell = row * block.columns + block.first_cell;
        let start = *self.cell_start.get(first_cell)? as usize;
        let end = *self.cell_start.get(first_cell + block.width)? as usize;
        Some(start..end)
    }

    /// The cell-ordered copies the runs are slices of: positions, velocities and agent
    /// indices, slot by slot, all of one length.
    #[inline]
    pub(crate) fn slots(&self) -> (&[Vec2], &[Vec2], &[u32]) {
        let n = self.entries.len();
        (
            self.positions.get(..n).unwrap_or(&[]),
            self.velocities.get(..n).unwrap_or(&[]),
            &self.entries,
        )
    }
}

/// The cells a query visits ([`SpatialGrid::block`]): in each row of `rows`, the `width`
/// cells from column `first_cell` on.
#[derive(Clone, Debug)]
pub(crate) struct Block {
    /// The rows of cells, bottom first.
    pub rows: std::ops::Range<usize>,
    /// The first cell's column.
    pub first_cell: usize,
    /// How many cells of each row.
    pub width: usize,
    /// The grid's columns.
    columns: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VehicleParams;

    #[test]
    fn a_query_is_crowded_when_its_cells_hold_more_than_the_limit() {
        // Cells of 1 from the lowest agent (0.5, 0.5): three agents in cell (0, 0), two in
        // (1, 0), four in (5, 5).
        let at = [(0.5, 0.5); 3]
            .into_iter()
            .chain([(1.5, 0.5); 2])
            .chain([(5.5, 5.5); 4]);
        let vehicles: Vec<Vehicle> = at
            .map(|(x, y)| Vehicle::new(Vec2::new(x, y), Vec2::ZERO, VehicleParams::default()))
            .collect();
        let mut grid = SpatialGrid::new(1.0);
        grid.rebuild(&vehicles);
        // Around (1, 1) within 0.9: columns and rows 0 and 1 of the cells, five agents.
        let center = Vec2::ONE;
        assert!(grid.crowded(center, 0.9, 4));
        assert!(!grid.crowded(center, 0.9, 5));
        // Around (5.5, 5.5) within 0.4: cells 4 and 5 each way, four agents.
        let center = Vec2::splat(5.5);
        assert!(grid.crowded(center, 0.4, 3));
        assert!(!grid.crowded(center, 0.4, 4));
        // Within 10 of the middle: every cell, nine agents.
        assert!(grid.crowded(Vec2::splat(3.0), 10.0, 8));
        assert!(!grid.crowded(Vec2::splat(3.0), 10.0, 9));
    }

    #[test]
    fn query_matches_brute_force() {
        let vehicles: Vec<Vehicle> = (0..200)
            .map(|i| {
                let x = ((i * 37) % 101) as f32 * 0.7 - 30.0;
                let y = ((i * 53) % 97) as f32 * 0.6 - 25.0;
                Vehicle::new(Vec2::new(x, y), Vec2::ZERO, VehicleParams::default())
            })
            .collect();
        for cell_size in [0.5, 3.0, 40.0] {
            let mut grid = SpatialGrid::new(cell_size);
            grid.rebuild(&vehicles);
            let mut found = Vec::new();
            for (i, v) in vehicles.iter().enumerate() {
                grid.query(&vehicles, v.position, 6.0, i, &mut found);
                let expected: Vec<u32> = (0..vehicles.len() as u32)
                    .filter(|&j| {
                        j as usize != i && vehicles[j as usize].position.distance(v.position) < 6.0
                    })
                    .collect();
                assert_eq!(found, expected, "agent {i}, cell size {cell_size}");
            }
        }
    }

    #[test]
    fn within_a_cell_agents_are_listed_by_index_whatever_their_slots() {
        // Four agents in one cell, handed over in the order 3, 1, 2, 0 (as a re-sorted
        // simulation might): the run lists them 0, 1, 2, 3, with their own positions.
        let at = |x: f32| Vehicle::new(Vec2::new(x, 0.5), Vec2::ZERO, VehicleParams::default());
        let vehicles = [at(0.4), at(0.1), at(0.2), at(0.3)];
        let agents = [3, 1, 2, 0];
        let mut grid = SpatialGrid::new(10.0);
        grid.rebuild_with(&vehicles, |slot| agents[slot]);
        let runs: Vec<Run<'_>> = grid.runs(Vec2::new(0.2, 0.5), 1.0).collect();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].agents, [0, 1, 2, 3]);
        assert_eq!(
            runs[0].positions,
            [0.3, 0.1, 0.2, 0.4].map(|x| Vec2::new(x, 0.5))
        );
        assert_eq!(grid.sources(), [3, 1, 2, 0]);
        // Given in agent order, the same grid.
        let mut in_order = SpatialGrid::new(10.0);
        let by_agent = [at(0.3), at(0.1), at(0.2), at(0.4)];
        in_order.rebuild(&by_agent);
        let run = in_order
            .runs(Vec2::new(0.2, 0.5), 1.0)
            .next()
            .expect("one run");
        assert_eq!(
            (run.agents, run.positions),
            (runs[0].agents, runs[0].positions)
        );
    }

    #[test]
    fn a_crowded_cell_handed_over_backwards_comes_out_in_index_order() {
        // 2,000 agents in one cell, in descending order.
        let vehicles: Vec<Vehicle> = (0..2_000)
            .map(|i| {
                Vehicle::new(
                    Vec2::new(i as f32 * 1e-3, 0.0),
                    Vec2::ZERO,
                    VehicleParams::default(),
                )
            })
            .collect();
        let mut grid = SpatialGrid::new(10.0);
        grid.rebuild_with(&vehicles, |slot| (1_999 - slot) as u32);
        let run = grid.runs(Vec2::ZERO, 1.0).next().expect("one run");
        assert!(run.agents.iter().copied().eq(0..2_000));
        assert_eq!(run.positions[0], vehicles[1_999].position);
    }

    /// Each agent placed after a higher index notes its cell; a cell noted many times was
    /// checked once per note (a scan of the whole cell each), so 100,000 agents handed over
    /// backwards into one cell cost 10^10 steps. Now each noted cell is checked, and sorted,
    /// once: the 99,999 notes of the one cell make one check, counted.
    #[test]
    fn a_huge_cell_handed_over_backwards_is_sorted_once() {
        let count = 100_000_u32;
        let vehicles: Vec<Vehicle> = (0..count)
            .map(|i| {
                let position = Vec2::new((i % 1_000) as f32 * 1e-4, (i / 1_000) as f32 * 1e-4);
                Vehicle::new(position, Vec2::ZERO, VehicleParams::default())
            })
            .collect();
        let mut grid = SpatialGrid::new(10.0);
        grid.rebuild_with(&vehicles, |slot| count - 1 - slot as u32);
        let run = grid.runs(Vec2::ZERO, 1.0).next().expect("one run");
        assert!(run.agents.iter().copied().eq(0..count));
        assert_eq!(grid.cells_checked(), 1);
    }

    #[test]
    fn candidates_are_the_agents_within_the_radius_in_index_order_with_their_slots() {
        let vehicles: Vec<Vehicle> = (0..300)
            .map(|i| {
                let x = ((i * 37) % 101) as f32 * 0.3 - 15.0;
                let y = ((i * 53) % 97) as f32 * 0.3 - 14.0;
                Vehicle::new(Vec2::new(x, y), Vec2::new(y, x), VehicleParams::default())
            })
            .collect();
        let mut grid = SpatialGrid::new(2.0);
        grid.rebuild(&vehicles);
        let mut found = Candidates::default();
        let mut counts = Vec::new();
        // Radii from a handful of candidates (a sorting network) to dozens (the general sort).
        for radius in [0.8, 2.0, 5.0] {
            for (i, v) in vehicles.iter().enumerate() {
                grid.candidates(v.position, radius, i, &mut found);
                let expected: Vec<usize> = (0..vehicles.len())
                    .filter(|&j| j != i && vehicles[j].position.distance(v.position) < radius)
                    .collect();
                let agents: Vec<usize> = found.as_slice().iter().map(|c| c.agent()).collect();
                assert_eq!(agents, expected, "agent {i}, radius {radius}");
                for candidate in found.as_slice() {
                    let slot = candidate.slot();
                    assert_eq!(grid.positions()[slot], vehicles[candidate.agent()].position);
                    assert_eq!(
                        grid.velocities()[slot],
                        vehicles[candidate.agent()].velocity
                    );
                }
                counts.push(expected.len());
            }
        }
        assert!(counts.iter().any(|&n| (2..=NETWORK_SORT_MAX).contains(&n)));
        assert!(counts.iter().any(|&n| n > NETWORK_SORT_MAX));
    }
}
