//! Building the grid: a counting sort of the agents into cells, in parallel where it pays.
//!
//! Four passes: the agents' extent (a parallel reduction of minima and maxima, exact in any
//! order), each agent's cell (parallel, one per agent), the count of each cell's agents and
//! their running total (parallel, in parts of the cells: each part reads every agent's cell),
//! and the scatter into cells. The scatter runs in parts, each a contiguous range of cells and
//! therefore of the output: every part reads all agents in order and places those of its
//! cells, so a cell's agents arrive in the same order whatever the number of parts, and the
//! grid is the same for any thread count.
//! Each part then puts its cells' agents in ascending index. Where the blocks' notes tell how
//! many agents lie below each part's cells (agents in cell order, as a simulation keeps them:
//! `cut_by_notes`), each part of the scatter counts its own cells first, in the same task,
//! and the count's pass is not run: one hand-over to the pool's threads fewer.
//!
//! "Every agent" is read block by block: a part passes over the blocks of agents that hold
//! none of its cells (`blocks.rs`), the same agents in the same order.

use glam::Vec2;
use rayon::prelude::*;

use super::blocks::{
    BLOCK, BlockCells, blocks_meeting, cells_of_block, cut_by_notes, placed_below,
};
use super::cells::{Body, Cells, Placed};
use super::{MAX_CELLS_PER_AGENT, SpatialGrid, sort_few};
use crate::Vehicle;
use crate::pool::{Warm, run_tasks, split_threads};

/// Most parts a scatter and a count run in: two a thread of a 16-thread pool. (With 8, a
/// pool of 16 ran them on 8 threads: at 1,000,000 flockers the grid is a tenth of a
/// one-thread tick, and could not take less than an eighth of its time.)
const MAX_PARTS: usize = 32;
/// Parts a scatter and a count may run in whatever the crowd (two a thread, up to 4 threads).
const FEW_PARTS: usize = 8;
/// Fewest agents of each part beyond [`FEW_PARTS`]: some 80 µs of scattering on this
/// project's machines, many times a hand-over, and the agents of the blocks a part shares with
/// its neighbors (up to one at each end) 3 % of its reads. A crowd of fewer than 147,456 agents
/// runs in at most 8 parts, as before there were more: with 16 workers on 2 cores, 9 parts of
/// 10,000 flockers took the grid's rebuild from 71–79 µs to 93–101 (2026-12-06).
const MIN_AGENTS_PER_EXTRA_PART: usize = 64 * BLOCK;
/// Below this many agents the scatter is one part and the passes run on the calling thread:
/// handing work to other threads would cost more than it saves.
const PARALLEL_MIN_AGENTS: usize = 8_192;
/// Fewest agents per parallel task of the extent's pass.
const MIN_AGENTS_PER_TASK: usize = 4_096;
/// Tasks per thread of the pass that locates each agent's cell.
const LOCATE_SPLIT: usize = 4;
/// Fewest agents per task of that pass (four blocks).
const MIN_AGENTS_PER_LOCATE: usize = 1_024;

/// A cursor's last agent once its cell is noted out of index order: every agent placed after
/// it follows a higher one, and none notes the cell again.
const NOTED: u32 = u32::MAX;

/// One agent of a cell being put in index order: its source, position and velocity.
type Entry = (u32, Vec2, Vec2);

impl SpatialGrid {
    /// Like [`SpatialGrid::rebuild`], for vehicles given in another order than their agent
    /// index: `vehicles[i]` is agent `agent_of(i)`. The cells, their order and the order
    /// inside each cell (ascending agent index) are the same, so every query answers the
    /// same; only the slots' sources differ. A simulation that keeps its agents in last
    /// tick's cell order re-sorts them this way almost in place. [`SpatialGrid::sources`]
    /// tells where each slot came from.
    pub(crate) fn rebuild_with(
        &mut self,
        vehicles: &[Vehicle],
        agent_of: impl Fn(usize) -> u32 + Sync,
    ) {
        self.rebuild_known(vehicles, agent_of, None, &Warm::cold());
    }

    /// [`SpatialGrid::rebuild_with`], given the vehicles' [`Extent`] and their [`Body`]s (in
    /// the same order) when the caller knows them already: a simulation folds the extent and
    /// writes the bodies while stepping the agents, which saves a pass over the vehicles and
    /// lets the placing passes read 16 bytes per agent instead of a whole vehicle (each part
    /// of the scatter reads every agent). The grid is the same either way: an extent is exact
    /// in any order, and a body holds the very position and velocity. During a tick that
    /// keeps the pool `warm`, the count and the scatter run as [`run_tasks`] runs a pass, no
    /// thread asleep at its end (their parts are uneven: at 10,000 flockers on 2 threads, in
    /// rayon's halves, the scatter ended 0.6 to 24 µs after its last part, the means of
    /// rounds of 1,000 ticks, 8 and 24 µs in loud ones, a thread having gone to sleep in
    /// rayon's join; in bands, 0.6 µs).
    pub(crate) fn rebuild_known(
        &mut self,
        vehicles: &[Vehicle],
        agent_of: impl Fn(usize) -> u32 + Sync,
        known: Option<(Extent, &[Body])>,
        warm: &Warm,
    ) {
        // Last tick's tree answers for last tick's positions; its buffers are kept for the
        // next one.
        if let Some(tree) = self.tree.take() {
            self.spare_tree.keep(tree);
        }
        self.tree_wanted = self.tree_used.take();
        self.bounds_rebuilt(vehicles.len());
        let parallel = vehicles.len() >= PARALLEL_MIN_AGENTS;
        if let Some((extent, bodies)) = known
            && bodies.len() == vehicles.len()
        {
            self.place(bodies, &agent_of, extent, warm);
            return;
        }
        let extent = if parallel {
            // Whole chunks folded by a plain loop: rayon's `fold` asks between agents whether
            // it may stop early, 20 more instructions per agent (cachegrind, issue 25).
            vehicles
                .par_chunks(MIN_AGENTS_PER_TASK)
                .map(|chunk| chunk.iter().fold(Extent::EMPTY, Extent::add))
                .reduce(|| Extent::EMPTY, Extent::join)
        } else {
            vehicles.iter().fold(Extent::EMPTY, Extent::add)
        };
        self.place(vehicles, &agent_of, extent, warm);
    }

    /// Sizes the cells for `extent` and places `agents` (the agents `agent_of(i)`, whose
    /// positions span `extent`) in them.
    fn place<T: Placed>(
        &mut self,
        agents: &[T],
        agent_of: &(impl Fn(usize) -> u32 + Sync),
        extent: Extent,
        warm: &Warm,
    ) {
        let parallel = agents.len() >= PARALLEL_MIN_AGENTS;
        // The largest square root is the root of the largest square (the root is correctly
        // rounded and never decreasing): one root per rebuild, not per agent.
        self.max_speed = extent.max_speed_squared.sqrt();
        self.max_radius = extent.max_radius;
        self.fit_cells(agents.len(), extent.min, extent.max);

        // Sized, not cleared: every entry is written below.
        self.cell_of.resize(agents.len(), u32::MAX);
        let cells = Cells::of(self);
        // Two parts a thread where there are several (more than 8 only for large crowds): a
        // worker asleep after the tick's last pass wakes while the calling thread fills the
        // first part, and takes what is left rather than half of it (at 10,000 flockers on 2
        // threads the grid's rebuild went from 70-76 µs to 53-58 with these parts and the
        // finer locating tasks below, 2026-12-05).
        let threads = split_threads();
        let parts = if parallel && threads > 1 {
            (threads * 2)
                .min(MAX_PARTS)
                .min((agents.len() / MIN_AGENTS_PER_EXTRA_PART).max(FEW_PARTS))
        } else {
            1
        };
        if parts > 1 {
            // Tasks of whole blocks: each notes its blocks' cells while they are in its
            // cache, so the parts below read only the blocks that meet their cells. Four
            // tasks a thread, each its own job: a worker that went to sleep in the tick's
            // last pass wakes too late to take half of two tasks (the calling thread ran
            // both, 86 % of this pass at 10,000 agents on 2 threads), but takes a share of
            // what is left of eight.
            let per = (agents.len().div_ceil(threads * LOCATE_SPLIT))
                .max(MIN_AGENTS_PER_LOCATE)
                .next_multiple_of(BLOCK);
            self.block_cells
                .resize(agents.len().div_ceil(BLOCK), (u32::MAX, 0, 0));
            let outs = self.cell_of.par_chunks_mut(per);
            let blocks = self.block_cells.par_chunks_mut(per / BLOCK);
            // Rayon's halves, not the bands the count and scatter run in: tasks this even
            // end within 0.3 µs of each other, where the bands' ending took 1 µs (10,000
            // flockers on 2 threads, 2026-12-06).
            outs.zip(agents.par_chunks(per))
                .zip(blocks)
                .with_max_len(1)
                .for_each(|((out, agents), blocks)| {
                    cells.locate_all(agents, out);
                    for (noted, block) in blocks.iter_mut().zip(out.chunks(BLOCK)) {
                        *noted = cells_of_block(block);
                    }
                });
        } else {
            // One part reads every agent anyway.
            cells.locate_all(agents, &mut self.cell_of);
            self.block_cells.clear();
        }
        let cell_count = self.columns * self.rows;
        // Sized, not cleared: each part of the count zeroes its own cells, on its own thread
        // (a fill on the calling thread was 140 µs of serial time a tick at 1,000,000
        // flockers, 2026-12-06).
        self.cell_start.resize(cell_count + 1, 0);
        // Each part's first cell and how many agents the cells before it hold. Cut from the
        // blocks' notes where they tell that (agents in cell order), each part counts its own
        // cells as it places their agents; otherwise the cells are counted in a pass of their
        // own and cut by the count.
        let mut cuts = [(0, 0); MAX_PARTS + 1];
        let cuts = cuts.get_mut(..=parts).unwrap_or_default();
        let cut = cut_by_notes((&self.cell_of, &self.block_cells), cell_count, cuts);
        // Each cell's first entry: how many agents the cells before it hold.
        if let Some((first, counts)) = self.cell_start.split_first_mut() {
            *first = 0;
            if !cut {
                count_and_total((&self.cell_of, &self.block_cells), counts, (parts, warm));
                cut_by_count(&self.cell_start, cuts);
            }
        }
        self.scatter(agents, agent_of, (cuts, !cut), warm);
    }

    /// Chooses the origin, cell size (the preferred one, larger when the agents spread so far
    /// that the cells would outnumber them by more than `MAX_CELLS_PER_AGENT`) and the number
    /// of columns and rows for `agents` agents between `min` and `max`.
    fn fit_cells(&mut self, agents: usize, mut min: Vec2, mut max: Vec2) {
        if min.x > max.x {
            min = Vec2::ZERO;
            max = Vec2::ZERO;
        }
        let extent = (max - min).max(Vec2::splat(1e-3));
        let cap = (agents * MAX_CELLS_PER_AGENT).max(16) as f32;
        let mut cell_size = self.preferred_cell_size;
        let cells_at =
            |size: f32| ((extent.x / size).floor() + 1.0) * ((extent.y / size).floor() + 1.0);
        if cells_at(cell_size) > cap {
            cell_size = (extent.x * extent.y / cap).sqrt().max(cell_size);
            while cells_at(cell_size) > cap {
                cell_size *= 1.5;
            }
        }
        self.cell_size = cell_size;
        self.origin = min;
        self.columns = (extent.x / cell_size) as usize + 1;
        self.rows = (extent.y / cell_size) as usize + 1;
    }

    /// Places every agent with a cell into its cell's entries, in the parts `cuts` gives (each
    /// part's first cell and how many agents the cells before it hold; the last, one past the
    /// last cell and every agent placed); each part first counts its cells into `cell_start`
    /// unless they are `counted` already (see the module's documentation).
    fn scatter<T: Placed>(
        &mut self,
        agents: &[T],
        agent_of: &(impl Fn(usize) -> u32 + Sync),
        (cuts, counted): (&[(u32, u32)], bool),
        warm: &Warm,
    ) {
        let parts = cuts.len().saturating_sub(1);
        let placed = cuts.last().map_or(0, |&(_, below)| below) as usize;
        // Sized, not cleared: the scatter writes every entry below `placed` exactly once, so
        // zeroing them first (20 bytes per agent and tick) bought nothing.
        self.entries.resize(placed, 0);
        self.sources.resize(placed, 0);
        self.positions.resize(placed, Vec2::ZERO);
        self.velocities.resize(placed, Vec2::ZERO);
        // Sized, not filled: each part starts its cells' cursors at their first entries in
        // its own task (a serial copy of every cell's start was 4 bytes a cell between the
        // count's pass and the scatter's).
        self.cursor.resize(self.cell_start.len(), Cursor::default());
        if self.spares.len() < parts {
            self.spares.resize_with(parts, PartSpare::default);
        }
        let cell_count = self.cell_start.len().saturating_sub(1);
        let mut ends = self.cell_start.get_mut(1..).unwrap_or_default();
        let mut entries = &mut self.entries[..];
        let mut sources = &mut self.sources[..];
        let mut positions = &mut self.positions[..];
        let mut velocities = &mut self.velocities[..];
        let mut cursor = &mut self.cursor[..cell_count];
        let mut split: [Option<Part<'_>>; MAX_PARTS] = Default::default();
        for ((part, spare), cut) in (split.iter_mut().zip(&mut self.spares)).zip(cuts.windows(2)) {
            let &[(first, offset), (last, next)] = cut else {
                continue;
            };
            let (cells, len) = ((last - first) as usize, (next - offset) as usize);
            let (e, s, p, v);
            (e, entries) = std::mem::take(&mut entries).split_at_mut(len);
            (s, sources) = std::mem::take(&mut sources).split_at_mut(len);
            (p, positions) = std::mem::take(&mut positions).split_at_mut(len);
            (v, velocities) = std::mem::take(&mut velocities).split_at_mut(len);
            let (c, n);
            (c, cursor) = std::mem::take(&mut cursor).split_at_mut(cells);
            (n, ends) = std::mem::take(&mut ends).split_at_mut(cells);
            *part = Some(Part {
                first_cell: first,
                offset,
                ends: n,
                counted,
                cursor: c,
                entries: e,
                sources: s,
                positions: p,
                velocities: v,
                spare,
            });
        }
        let cell_of = (&self.cell_of[..], &self.block_cells[..]);
        let fill = |part: &mut Option<Part<'_>>| {
            if let Some(part) = part {
                part.fill(cell_of, agents, agent_of);
                part.order_cells_by_agent();
            }
        };
        // Only the parts made: the rest of the array is empty.
        let split = split.get_mut(..parts).unwrap_or_default();
        if parts > 1 {
            let parts = split.par_iter_mut().with_max_len(1);
            run_tasks(warm, parts, fill, ((), |(), ()| ()));
        } else {
            split.iter_mut().for_each(fill);
        }
    }
}

/// Counts the agents of each cell (`cell_of`: each agent's cell, `u32::MAX` for none, with
/// its blocks' lowest and highest cells and how many have one) into `counts` (one per cell,
/// whatever they held: each part zeroes its own first),
/// then makes each the running total up to and including its cell. In `parts` parts of about
/// as many cells, in one parallel pass (in bands on a `warm` pool): each part reads the cells
/// of the agents in the blocks that meet its own cells and counts those of its own, then
/// totals its cells from the number of agents before them (`placed_below`: mostly read from
/// the blocks' notes). The
/// sums are of whole numbers: the same for any number of parts. (The parts' totals used to be
/// added in a second pass, one more hand-over to the pool's threads.)
fn count_and_total(
    cell_of: (&[u32], &[BlockCells]),
    counts: &mut [u32],
    (parts, warm): (usize, &Warm),
) {
    // Those before a part's cells counted apart: a test for them in the count made the count
    // of 1,000,000 agents 0.5 ms slower on one thread, where none is ever before.
    let count = |first: usize, cells: &mut [u32]| {
        count_cells(cell_of, first, cells, placed_below(cell_of, first));
    };
    if parts <= 1 || counts.is_empty() {
        count(0, counts);
        return;
    }
    let per = counts.len().div_ceil(parts);
    let tasks = counts.par_chunks_mut(per).enumerate();
    run_tasks(
        warm,
        tasks,
        |(k, cells)| count(k * per, cells),
        ((), |(), ()| ()),
    );
}

/// Counts the agents of the cells from `first` on (`cell_of` as for [`count_and_total`]) into
/// `cells` (whatever they held), then makes each the running total from `below` (the agents
/// in the cells before) up to and including its cell.
fn count_cells(cell_of: (&[u32], &[BlockCells]), first: usize, cells: &mut [u32], below: u32) {
    cells.fill(0);
    for (_, block) in blocks_meeting(cell_of, first, cells.len()) {
        for &cell in block {
            // A cell before `first` wraps past the part's cells; `u32::MAX` (no cell) is past
            // them.
            if let Some(count) = cells.get_mut((cell as usize).wrapping_sub(first)) {
                *count += 1;
            }
        }
    }
    // The running total in a register: reading back the entry just written made each step
    // wait on the last (1.9 ms for 1,000,000 cells, 2026-11-27's machine).
    let mut total = below;
    for count in cells {
        total += *count;
        *count = total;
    }
}

/// Cuts the cells counted into `cell_start` (each cell's first entry, then one past the last)
/// into `cuts.len() - 1` parts of about the same number of entries, as [`cut_by_notes`] gives
/// them: each part's first cell and its first entry, then one past the last cell and entry.
fn cut_by_count(cell_start: &[u32], cuts: &mut [(u32, u32)]) {
    let parts = cuts.len().saturating_sub(1);
    let cells = cell_start.len().saturating_sub(1);
    let placed = cell_start.last().copied().unwrap_or(0);
    let mut first = 0;
    for (k, cut) in cuts.iter_mut().enumerate() {
        if k > 0 {
            first = if k == parts {
                cells
            } else {
                let target = (u64::from(placed) * k as u64 / parts as u64) as u32;
                (cell_start.partition_point(|&start| start < target)).clamp(first, cells)
            };
        }
        *cut = (
            first as u32,
            cell_start.get(first).copied().unwrap_or(placed),
        );
    }
}

/// The agents' bounding box (finite positions only), largest squared speed and largest radius.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Extent {
    min: Vec2,
    max: Vec2,
    max_speed_squared: f32,
    max_radius: f32,
}

impl Extent {
    /// No agent.
    pub(crate) const EMPTY: Self = Self {
        min: Vec2::splat(f32::INFINITY),
        max: Vec2::splat(f32::NEG_INFINITY),
        max_speed_squared: 0.0,
        max_radius: 0.0,
    };

    /// With `vehicle`.
    #[inline]
    pub(crate) fn add(mut self, vehicle: &Vehicle) -> Self {
        if vehicle.position.is_finite() {
            self.min = self.min.min(vehicle.position);
            self.max = self.max.max(vehicle.position);
        }
        self.max_speed_squared = self
            .max_speed_squared
            .max(vehicle.velocity.length_squared());
        self.max_radius = self.max_radius.max(vehicle.radius);
        self
    }

    /// Both extents together. Minima and maxima are exact in any grouping (the sign of a zero
    /// may differ, which changes no cell), so the parallel reduction gives the grid one answer.
    pub(crate) fn join(self, other: Self) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
            max_speed_squared: self.max_speed_squared.max(other.max_speed_squared),
            max_radius: self.max_radius.max(other.max_radius),
        }
    }
}

#[cfg(test)]
impl SpatialGrid {
    /// How many cells the last rebuild of a grid rebuilt once checked for index order: each
    /// cell noted once however often it was noted (the work of `order_cells_by_agent`,
    /// counted for the tests; a grid rebuilt again keeps spares of parts no longer used).
    pub(super) fn cells_checked(&self) -> usize {
        self.spares.iter().map(|spare| spare.unordered.len()).sum()
    }
}

/// What a part of the scatter keeps between rebuilds: the cells it found out of index order,
/// and room for sorting one.
#[derive(Clone, Debug, Default)]
pub(super) struct PartSpare {
    unordered: Vec<u32>,
    cell: Vec<Entry>,
    /// The cell's agents as sort keys: each agent's index above its place in the cell.
    keys: Vec<u64>,
}

/// Where a cell of a scatter's part stands: the entry its next agent goes to (in the whole
/// grid) and the agent placed last (0 before any), or [`NOTED`] once the cell is noted out of
/// index order.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Cursor {
    next: u32,
    last: u32,
}

/// One part of a scatter: the cells from `first_cell` on, and their entries.
struct Part<'g> {
    first_cell: u32,
    /// Index of the part's first entry in the whole grid: how many agents the cells before
    /// its own hold.
    offset: u32,
    /// The grid's `cell_start` one past each of the part's cells: the entry after its last,
    /// the running total of the agents up to and including it.
    ends: &'g mut [u32],
    /// Whether `ends` is counted already; if not, the part counts it first.
    counted: bool,
    /// Per cell of the part, its next free entry and the agent last placed in it.
    cursor: &'g mut [Cursor],
    entries: &'g mut [u32],
    sources: &'g mut [u32],
    positions: &'g mut [Vec2],
    velocities: &'g mut [Vec2],
    /// The part's unordered cells and room for sorting one; keeps its capacity, so a warm
    /// rebuild allocates nothing.
    spare: &'g mut PartSpare,
}

impl Part<'_> {
    /// Places the agents of the part's cells, in the order `vehicles` gives them, and notes
    /// each cell where an agent follows one of higher index.
    fn fill<T: Placed>(
        &mut self,
        cell_of: (&[u32], &[BlockCells]),
        agents: &[T],
        agent_of: &impl Fn(usize) -> u32,
    ) {
        self.spare.unordered.clear();
        if !self.counted {
            let first = self.first_cell as usize;
            count_cells(cell_of, first, self.ends, self.offset);
        }
        debug_assert_eq!(
            self.ends.last().map_or(0, |&end| end - self.offset) as usize,
            self.entries.len(),
            "the part's cells hold as many agents as it has entries"
        );
        // Each cell's next free entry starts at its first, after no agent (0: no agent is
        // placed after a lower index than none).
        let starts = std::iter::once(&self.offset).chain(&*self.ends);
        for (cursor, &first) in self.cursor.iter_mut().zip(starts) {
            *cursor = Cursor {
                next: first,
                last: 0,
            };
        }
        // The four copies cut to one length: one check of an entry's place covers all four
        // writes.
        let len = self
            .entries
            .len()
            .min(self.sources.len())
            .min(self.positions.len())
            .min(self.velocities.len());
        let (entries, sources) = (&mut self.entries[..len], &mut self.sources[..len]);
        let (positions, velocities) = (&mut self.positions[..len], &mut self.velocities[..len]);
        let cells = self.cursor.len();
        let blocks = blocks_meeting(cell_of, self.first_cell as usize, cells);
        for (start, run) in blocks {
            let Some(agents) = agents.get(start..start + run.len()) else {
                continue;
            };
            for (offset, (&cell, placed)) in run.iter().zip(agents).enumerate() {
                let index = start + offset;
                let Some(local) = cell.checked_sub(self.first_cell) else {
                    continue;
                };
                let Some(cursor) = self.cursor.get_mut(local as usize) else {
                    continue;
                };
                let agent = agent_of(index);
                let Cursor { next, last } = *cursor;
                // The agent placed before it in its cell, kept beside the cursor: reading the
                // entry before instead needed a test of whether it is the cell's first, which
                // follows no pattern a branch predictor learns (a cell holds a few agents; 0.4
                // mispredicts per agent in a 10,000-flocker tick under cachegrind). A cell is
                // noted once (a crowd walked in its k-d tree's order places some 2.7 agents out
                // of order in each of its crowded cells).
                let out_of_order = last > agent;
                if out_of_order && last != NOTED {
                    self.spare.unordered.push(local);
                }
                *cursor = Cursor {
                    next: next + 1,
                    last: if out_of_order { NOTED } else { agent },
                };
                let at = (next - self.offset) as usize;
                if at >= len {
                    continue;
                }
                entries[at] = agent;
                sources[at] = index as u32;
                let body = placed.body();
                positions[at] = body.position;
                velocities[at] = body.velocity;
            }
        }
    }

    /// Puts the agents of each cell in ascending index. The scatter keeps the order of the
    /// slice the grid was rebuilt from, which is agent order for [`SpatialGrid::rebuild`] but
    /// last tick's cell order for a re-sorted simulation; after this, the order of the runs a
    /// query visits depends on the positions alone, so neighbor sums taken in it
    /// ([`crate::behaviors::neighbor_sums_each`]) do not depend on how the caller keeps its
    /// agents. Only the cells the scatter noted are visited (a cell is in order exactly when
    /// each agent placed in it followed a lower index): a few per tick, where checking every
    /// cell was 2 % of a flocking tick. A cell out of order is sorted whole, so a crowded cell
    /// costs `k log k`, never `k²`.
    fn order_cells_by_agent(&mut self) {
        let PartSpare {
            unordered,
            cell,
            keys,
        } = &mut *self.spare;
        // Each cell is noted once (see `fill`; once per agent out of order made a check of the
        // whole cell per note, and a crowd handed over backwards quadratic), and visited in
        // order.
        unordered.sort_unstable();
        for &local in &*unordered {
            let local = local as usize;
            let start = match local.checked_sub(1) {
                Some(before) => self.ends.get(before).copied(),
                None => Some(self.offset),
            };
            let (Some(start), Some(&end)) = (start, self.ends.get(local)) else {
                continue;
            };
            let [start, end] = [start, end].map(|at| (at - self.offset) as usize);
            // Noted, so out of order: an agent followed a higher one.
            let Some(agents) = self.entries.get(start..end) else {
                continue;
            };
            // Agent indices are distinct: sorted by index, the keys give the one order. Each
            // key is the agent's index above its place in the cell, 8 bytes where the entries
            // are 24, and a cell of up to 16 agents (a crowd walked in its k-d tree's order
            // leaves most of its crowded cells out of index order every tick) sorts by a
            // network that does not branch on them; a crowd of a cell is sorted on every
            // thread.
            keys.clear();
            keys.extend(
                (agents.iter().zip(0_u32..))
                    .map(|(&agent, place)| (u64::from(agent) << 32) | u64::from(place)),
            );
            if keys.len() >= PARALLEL_MIN_AGENTS {
                keys.par_sort_unstable();
            } else {
                sort_few(keys);
            }
            cell.clear();
            for at in start..end {
                if let (Some(&source), Some(&position), Some(&velocity)) = (
                    self.sources.get(at),
                    self.positions.get(at),
                    self.velocities.get(at),
                ) {
                    cell.push((source, position, velocity));
                }
            }
            for (at, &key) in (start..end).zip(&*keys) {
                let (agent, place) = ((key >> 32) as u32, key as u32 as usize);
                if let (Some(&(source, position, velocity)), Some(e), Some(s), Some(p), Some(v)) = (
                    cell.get(place),
                    self.entries.get_mut(at),
                    self.sources.get_mut(at),
                    self.positions.get_mut(at),
                    self.velocities.get_mut(at),
                ) {
                    (*e, *s, *p, *v) = (agent, source, position, velocity);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
