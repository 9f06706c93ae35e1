//! The grid's rebuild tested: read block by block, counted in parts, each cell put in agent
//! order whatever order the agents came in.

use super::*;
use crate::VehicleParams;
use crate::spatial::blocks::tests::blocks;

#[test]
fn a_grid_read_block_by_block_is_the_grid_read_whole() {
    // 300,000 agents and 9,001 (not a whole number of blocks), row by row over 1-unit
    // cells 280 wide (cell order, as a simulation keeps them), every 97th thrown far
    // across it (out of order) or none: built on 1 thread (one part, no blocks) and on 2,
    // 3, 8 and 16 (4, 6, 16 and 18 parts of 300,000 agents; 4, 6, 8 and 8 of 9,001), whose
    // locating tasks note the blocks (as a tick builds it, on a pool kept warm where the
    // machine has the cores: the count and scatter in bands). Agents in cell order are cut
    // by the notes, each part counting its own cells; those thrown across make blocks that
    // reach across every cut, and the cells are counted in a pass of their own.
    for (agents, thrown) in [(300_000_u32, 97), (9_001, 97), (300_000, 0), (9_001, 0)] {
        let vehicles: Vec<Vehicle> = (0..agents)
            .map(|i| {
                let (x, y) = ((i % 280) as f32 + 0.5, (i / 280) as f32 + 0.5);
                let at = if thrown > 0 && i % thrown == 0 {
                    Vec2::new(279.0 - x, y / 3.0)
                } else {
                    Vec2::new(x, y)
                };
                Vehicle::new(at, Vec2::new(1.0, 0.0), VehicleParams::default())
            })
            .collect();
        let built = |threads: usize, parts: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool");
            pool.install(|| {
                let mut grid = SpatialGrid::new(1.0);
                grid.rebuild_on(&vehicles, &Warm::for_tasks_of(1_000_000, 1));
                let at = format!("{agents} agents, {threads} threads");
                assert_eq!(grid.spares.len(), parts, "{at}");
                if threads == 1 {
                    assert!(grid.block_cells.is_empty());
                } else {
                    // Each block's noted cells are its agents' lowest and highest.
                    let each: Vec<BlockCells> =
                        grid.cell_of.chunks(BLOCK).map(cells_of_block).collect();
                    assert_eq!(grid.block_cells, each, "{at}");
                    let mut cuts = vec![(0, 0); parts + 1];
                    let cells = grid.columns * grid.rows;
                    let noted = (&grid.cell_of[..], &grid.block_cells[..]);
                    assert_eq!(cut_by_notes(noted, cells, &mut cuts), thrown == 0, "{at}");
                }
                (grid.cell_start, grid.entries, grid.sources, grid.positions)
            })
        };
        let whole = built(1, 1);
        assert_eq!(whole.1.len(), agents as usize);
        // Two parts a thread, at most 32; more than 8 only of 16,384 agents each.
        let parts = if agents == 9_001 {
            [4, 6, 8, 8]
        } else {
            [4, 6, 16, 18]
        };
        for (threads, parts) in [2, 3, 8, 16].into_iter().zip(parts) {
            assert!(
                built(threads, parts) == whole,
                "{agents} agents, {threads} threads"
            );
        }
    }
}

#[test]
fn only_a_cell_whose_agent_follows_a_higher_one_of_its_own_cell_is_sorted() {
    // Three 1-unit cells in a row, given as a re-sorted simulation keeps its slots: cell
    // 0 holds agents 4 and 5, cell 1 agents 0 and 1 (its first follows agent 5 of the
    // cell before, which is no reason to sort it), cell 2 agents 3 and 2 (out of order).
    let slots = [(0.5, 4), (0.5, 5), (1.5, 0), (1.5, 1), (2.5, 3), (2.5, 2)];
    let vehicles: Vec<Vehicle> = slots
        .iter()
        .map(|&(x, _)| Vehicle::new(Vec2::new(x, 0.0), Vec2::ZERO, VehicleParams::default()))
        .collect();
    let mut grid = SpatialGrid::new(1.0);
    grid.rebuild_with(&vehicles, |slot| slots[slot].1);
    assert_eq!(grid.cell_start, [0, 2, 4, 6]);
    assert_eq!(grid.entries, [4, 5, 0, 1, 2, 3]);
    assert_eq!(grid.sources, [0, 1, 2, 3, 5, 4]);
    assert_eq!(grid.cells_checked(), 1);
}

/// Counts and totals `cell_of` into `counts` in `parts` parts, on a pool kept warm where
/// the machine has a core for each of its threads ([`run_tasks`]' banded passes), as a
/// simulation's tick counts them.
fn counted(cell_of: &[u32], noted: &[BlockCells], counts: &mut [u32], parts: usize) {
    let warm = Warm::for_tasks_of(1_000_000, 1);
    count_and_total((cell_of, noted), counts, (parts, &warm));
}

#[test]
fn cells_are_counted_and_totalled_alike_in_any_number_of_parts() {
    // Agents in cells 2, 0, 2, none and 1 of 4: counts 1, 1, 2, 0; totals 1, 2, 4, 4, over
    // counts that held 9 each (a grid sized, not cleared).
    let cell_of = [2, 0, 2, u32::MAX, 1];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool");
    for parts in 1..=MAX_PARTS {
        for noted in [blocks(&cell_of), Vec::new()] {
            let mut counts = [9; 4];
            pool.install(|| counted(&cell_of, &noted, &mut counts, parts));
            assert_eq!(counts, [1, 2, 4, 4], "{parts} parts");
        }
    }
    // 10,000 agents in 1,001 cells (a prime: parts of unequal length), one in seven in
    // none: every split gives the one-part totals, blocks noted or not; and the same
    // agents in cell order, whose blocks each meet one or two parts.
    let scattered: Vec<u32> = (0..10_000_u32)
        .map(|i| {
            if i % 7 == 0 {
                u32::MAX
            } else {
                i * 7_919 % 1_001
            }
        })
        .collect();
    let mut in_order = scattered.clone();
    in_order.sort_unstable();
    for cell_of in [scattered, in_order] {
        let mut alone = vec![9; 1_001];
        count_and_total((&cell_of, &[]), &mut alone, (1, &Warm::cold()));
        assert_eq!(alone.last(), Some(&(10_000 - 1_429)));
        for parts in 2..=MAX_PARTS {
            for noted in [blocks(&cell_of), Vec::new()] {
                let mut counts = vec![9; 1_001];
                pool.install(|| counted(&cell_of, &noted, &mut counts, parts));
                assert_eq!(counts, alone, "{parts} parts");
            }
        }
    }
}

/// Cells of every size from 1 to 40 agents (820 in all), given cell by cell backwards,
/// the agents of every odd cell in descending index: the network sorts those of up to 16,
/// the standard library's sort the larger. Every array of the grid equals the grid built
/// in agent order, each agent with its own position, velocity and slot, and only the 20
/// odd cells were sorted (cell 1 holds 2 agents, cell 39 holds 40).
#[test]
fn cells_of_any_size_out_of_order_come_out_as_in_agent_order() {
    let sizes: Vec<u32> = (1..=40).collect();
    let first: Vec<u32> = sizes
        .iter()
        .scan(0, |next, &size| {
            let first = *next;
            *next += size;
            Some(first)
        })
        .collect();
    let total: u32 = sizes.iter().sum();
    assert_eq!(total, 820);
    // Agent `a` of cell `k`: at x = k + 0.5 in 1-unit cells, y and velocity its index.
    let vehicle = |cell: usize, agent: u32| {
        let position = Vec2::new(cell as f32 + 0.5, agent as f32 * 1e-3);
        Vehicle::new(
            position,
            Vec2::new(agent as f32, 1.0),
            VehicleParams::default(),
        )
    };
    let mut slots: Vec<(usize, u32)> = Vec::new();
    for cell in (0..sizes.len()).rev() {
        let agents = first[cell]..first[cell] + sizes[cell];
        if cell % 2 == 1 {
            slots.extend(agents.rev().map(|agent| (cell, agent)));
        } else {
            slots.extend(agents.map(|agent| (cell, agent)));
        }
    }
    let given: Vec<Vehicle> = slots
        .iter()
        .map(|&(cell, agent)| vehicle(cell, agent))
        .collect();
    let mut scrambled = SpatialGrid::new(1.0);
    scrambled.rebuild_with(&given, |slot| slots[slot].1);
    let mut by_agent: Vec<(usize, u32)> = slots.clone();
    by_agent.sort_by_key(|&(_, agent)| agent);
    let in_order: Vec<Vehicle> = by_agent
        .iter()
        .map(|&(cell, agent)| vehicle(cell, agent))
        .collect();
    let mut expected = SpatialGrid::new(1.0);
    expected.rebuild(&in_order);
    assert!(scrambled.entries.iter().copied().eq(0..820));
    assert_eq!(scrambled.entries, expected.entries);
    assert_eq!(scrambled.cell_start, expected.cell_start);
    assert_eq!(scrambled.positions, expected.positions);
    assert_eq!(scrambled.velocities, expected.velocities);
    for (&agent, &source) in scrambled.entries.iter().zip(&scrambled.sources) {
        assert_eq!(slots[source as usize].1, agent);
    }
    assert_eq!(scrambled.cells_checked(), 20);
    assert_eq!(expected.cells_checked(), 0);
}
