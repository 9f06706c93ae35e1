//! Which agents each part of a parallel grid rebuild reads (`build.rs`): the lowest and
//! highest cell of each block of [`BLOCK`] agents, noted as the agents' cells are worked out
//! (by the same task, while they are in its cache: whenever the rebuild runs in parts), and
//! the runs of blocks that may hold a part's cells. A simulation keeps its agents in
//! cell order, so a part reads about its own share of them; agents in no order make every
//! block meet every part, and each part reads all of them, as it did before blocks.

/// Agents per block whose lowest and highest cell are noted (see the module's documentation).
pub(super) const BLOCK: usize = 256;
/// The lowest and highest cell of the agents of a block ((`u32::MAX`, 0) when none has one)
/// and how many of its agents have a cell.
pub(super) type BlockCells = (u32, u32, u32);

/// The lowest and highest cell of `cells` (one block's agents' cells), leaving out `u32::MAX`
/// (no cell), and how many are not `u32::MAX`.
pub(super) fn cells_of_block(cells: &[u32]) -> BlockCells {
    (cells.iter()).fold((u32::MAX, 0, 0), |(low, high, placed), &cell| {
        if cell == u32::MAX {
            (low, high, placed)
        } else {
            (low.min(cell), high.max(cell), placed + 1)
        }
    })
}

/// How many agents have a cell below `first` (`cell_of`: each agent's cell, `u32::MAX` for
/// none): what a part whose cells start at `first` counts before its own. A block wholly
/// below gives its noted number, one that reaches below and into the part (which the part
/// reads anyway) is counted agent by agent, one wholly above gives none; every agent is read
/// when the blocks are not noted.
pub(super) fn placed_below((cell_of, blocks): (&[u32], &[BlockCells]), first: usize) -> u32 {
    // `u32::MAX` (no cell) is above every cell.
    let below = |cells: &[u32]| {
        cells
            .iter()
            .filter(|&&cell| (cell as usize) < first)
            .count()
    };
    if first == 0 {
        return 0;
    }
    if blocks.is_empty() {
        return below(cell_of) as u32;
    }
    (blocks.iter().zip(cell_of.chunks(BLOCK)))
        .map(|(&(low, high, placed), cells)| {
            if (high as usize) < first {
                placed
            } else if (low as usize) < first {
                below(cells) as u32
            } else {
                0
            }
        })
        .sum()
}

/// The agents' cells (`cell_of`) in the blocks that may hold a cell of `first..first + len`,
/// each run of such blocks in a row as one slice with its first agent's index: every agent
/// in one run when `blocks` is empty (not noted: a rebuild on one thread).
pub(super) fn blocks_meeting<'c>(
    (cell_of, blocks): (&'c [u32], &'c [BlockCells]),
    first: usize,
    len: usize,
) -> impl Iterator<Item = (usize, &'c [u32])> + 'c {
    let meets = move |b: usize| {
        blocks.get(b).is_none_or(|&(low, high, _)| {
            (high as usize) >= first && (low as usize) < first.saturating_add(len)
        })
    };
    // Not noted: the agents as one block.
    let (count, block) = if blocks.is_empty() {
        (usize::from(!cell_of.is_empty()), cell_of.len())
    } else {
        (cell_of.len().div_ceil(BLOCK), BLOCK)
    };
    let mut b = 0;
    std::iter::from_fn(move || {
        while b < count && !meets(b) {
            b += 1;
        }
        let start = b;
        while b < count && meets(b) {
            b += 1;
        }
        let run = cell_of.get(start * block..(b * block).min(cell_of.len()))?;
        (start < b).then_some((start * block, run))
    })
}

/// Most blocks per cut that [`cut_by_notes`] counts agent by agent (blocks whose agents lie on
/// both sides of a cut) before it gives up: agents in cell order leave one or two such blocks
/// at each cut; agents in no order leave every block across every cut, which the parts count
/// in parallel instead.
const MOST_BLOCKS_ACROSS_A_CUT: usize = 4;

/// A part of [`cut_by_notes`] may hold up to this fraction more than an even share
/// (`1 / MOST_OVER_EVEN`); agents in cell order stay within a block of it.
const MOST_OVER_EVEN: u64 = 4;

/// Cuts `cells` cells into `cuts.len() - 1` parts of about as many agents, from the blocks'
/// notes: `cuts[k]` is part `k`'s first cell and how many agents have a cell below it (the
/// last entry: `cells` and every agent with a cell), so that each part can count its own cells
/// and place their agents without waiting for the others' counts. The cuts fall at the
/// lowest cell of the blocks at even shares of the agents, which splits agents in cell
/// order (as a simulation keeps them) evenly. Returns whether it cut: not when the blocks
/// are not noted, nor when the agents are too far out of cell order for the number below a
/// cut to be read off the notes cheaply ([`MOST_BLOCKS_ACROSS_A_CUT`]) or for the parts to
/// come out about even ([`MOST_OVER_EVEN`]).
pub(super) fn cut_by_notes(
    (cell_of, blocks): (&[u32], &[BlockCells]),
    cells: usize,
    cuts: &mut [(u32, u32)],
) -> bool {
    let parts = cuts.len().saturating_sub(1);
    let Ok(cells) = u32::try_from(cells) else {
        return false;
    };
    if parts < 2 || blocks.is_empty() {
        return false;
    }
    let placed: u64 = blocks.iter().map(|&(_, _, placed)| u64::from(placed)).sum();
    // Each cut at the lowest cell of the first block from which an even share of the agents
    // on is noted, never below the cut before it; the cuts no block reaches at the end.
    cuts.fill((cells, 0));
    let mut floor = 0;
    if let Some(first) = cuts.first_mut() {
        *first = (floor, 0);
    }
    let mut part = 1;
    let mut before = 0_u64;
    for &(low, _, count) in blocks.iter().filter(|&&(_, _, count)| count > 0) {
        while part < parts && before * parts as u64 >= placed * part as u64 {
            floor = low.clamp(floor, cells);
            if let Some((first, _)) = cuts.get_mut(part) {
                *first = floor;
            }
            part += 1;
        }
        before += u64::from(count);
    }
    // How many agents lie below each cut, kept as what each cut adds to itself and every cut
    // after it (a running total below makes them counts; wrapping, as a count taken back
    // from the next cut may come before what it was taken from): a block wholly below a cut
    // gives its noted number to that cut and every one after it; a block across cuts is
    // counted agent by agent for each of them, once few enough blocks are across to be worth it.
    let mut across = 0;
    for (b, &(low, high, count)) in blocks.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let first_across = cuts.partition_point(|&(first, _)| first <= low);
        let wholly_below_from = cuts.partition_point(|&(first, _)| first <= high);
        if let Some((_, below)) = cuts.get_mut(wholly_below_from) {
            *below = below.wrapping_add(count);
        }
        across += wholly_below_from.saturating_sub(first_across);
        if across > MOST_BLOCKS_ACROSS_A_CUT * parts {
            return false;
        }
        let agents = cell_of.get(b * BLOCK..).unwrap_or_default();
        let agents = agents.get(..BLOCK).unwrap_or(agents);
        for k in first_across..wholly_below_from {
            let Some(&(first, _)) = cuts.get(k) else {
                continue;
            };
            let lower = agents.iter().filter(|&&cell| cell < first).count() as u32;
            if let Some((_, below)) = cuts.get_mut(k) {
                *below = below.wrapping_add(lower);
            }
            if let Some((_, below)) = cuts.get_mut(k + 1) {
                *below = below.wrapping_sub(lower);
            }
        }
    }
    let mut total = 0_u32;
    for (_, below) in cuts.iter_mut() {
        total = total.wrapping_add(*below);
        *below = total;
    }
    // Agents far out of order may cross few cuts and still leave them uneven (every block
    // reaching from about the first cell to the last puts every cut near the first).
    let even = placed.div_ceil(parts as u64);
    (cuts.windows(2)).all(|pair| match pair {
        &[(_, below), (_, next)] => u64::from(next - below) <= even + even / MOST_OVER_EVEN,
        _ => true,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Each block's lowest and highest cell, as a parallel rebuild notes them.
    pub(in crate::spatial) fn blocks(cell_of: &[u32]) -> Vec<BlockCells> {
        cell_of.chunks(BLOCK).map(cells_of_block).collect()
    }

    #[test]
    fn a_blocks_note_is_its_lowest_and_highest_cell_and_how_many_have_one() {
        let none = u32::MAX;
        assert_eq!(cells_of_block(&[5, none, 2, 9]), (2, 9, 3));
        assert_eq!(cells_of_block(&[0]), (0, 0, 1));
        assert_eq!(cells_of_block(&[none, none]), (none, 0, 0));
        assert_eq!(cells_of_block(&[]), (none, 0, 0));
        // The largest cell a grid can have, beside none.
        assert_eq!(cells_of_block(&[none - 1, none, 7]), (7, none - 1, 2));
    }

    /// The cells of `agents` agents in cell order, four a cell, every 1,000th in none.
    fn in_cell_order(agents: u32) -> Vec<u32> {
        (0..agents)
            .map(|i| if i % 1_000 == 999 { u32::MAX } else { i / 4 })
            .collect()
    }

    #[test]
    fn parts_of_agents_in_cell_order_read_each_agent_about_once_in_all() {
        // 100,000 agents in cell order over 25,000 cells (four a cell, some in none), split
        // as a count splits them: in 8 parts of 3,125 cells. Each part reads the runs of
        // blocks meeting its cells: its own agents and at most a block more at each end, so
        // 100,000 reads and at most 2 × 8 blocks more in all (8 × 100,000 without the blocks).
        let cell_of = in_cell_order(100_000);
        let noted = blocks(&cell_of);
        let (cells, parts) = (25_000, 8);
        let per = cells / parts;
        let read: usize = (0..parts)
            .flat_map(|k| blocks_meeting((&cell_of, &noted), k * per, per))
            .map(|(_, run)| run.len())
            .sum();
        assert!(read <= 100_000 + 2 * parts * BLOCK, "{read}");
        // Agents in no order (here every block spans almost every cell): each part reads all.
        let scattered: Vec<u32> = (0..100_000_u32).map(|i| i * 7_919 % 25_000).collect();
        let noted = blocks(&scattered);
        let read: usize = (0..parts)
            .flat_map(|k| blocks_meeting((&scattered, &noted), k * per, per))
            .map(|(_, run)| run.len())
            .sum();
        assert_eq!(read, parts * 100_000);
    }

    #[test]
    fn cuts_from_the_notes_of_agents_in_cell_order_are_even_and_count_exactly() {
        // 10,000 agents in cell order over 2,500 cells, four a cell, every 1,000th in none
        // (9,990 placed). Block b holds agents 256b to 256b + 255, cells 64b to 64b + 63. The
        // cut into 4 falls at the first block from which a quarter, a half and three
        // quarters of 9,990 are noted: after 10 blocks (2,560 agents, 2 in no cell: 2,558 of
        // 2,497.5), 20 (5,115 of 4,995) and 30 (7,673 of 7,492.5), so at cells 640, 1,280 and
        // 1,920, below which lie those 2,558, 5,115 and 7,673 agents.
        let cell_of = in_cell_order(10_000);
        let noted = blocks(&cell_of);
        let mut cuts = [(0, 0); 5];
        assert!(cut_by_notes((&cell_of, &noted), 2_500, &mut cuts));
        assert_eq!(
            cuts,
            [
                (0, 0),
                (640, 2_558),
                (1_280, 5_115),
                (1_920, 7_673),
                (2_500, 9_990)
            ]
        );
        // Agents moved a little since they were put in cell order (every 128th 50 cells on):
        // blocks reach across the cuts, and those are counted agent by agent.
        let moved: Vec<u32> = (cell_of.iter().enumerate())
            .map(|(i, &cell)| match cell {
                u32::MAX => cell,
                _ if i % 128 == 5 => (cell + 50).min(2_499),
                _ => cell,
            })
            .collect();
        let noted = blocks(&moved);
        assert!(cut_by_notes((&moved, &noted), 2_500, &mut cuts));
        for &(first, below) in &cuts {
            assert_eq!(
                below,
                placed_below((&moved, &[]), first as usize),
                "{first}"
            );
        }
        assert_eq!(cuts.last(), Some(&(2_500, 9_990)));
        // Agents in no order (each block across every cut), blocks not noted, one part: no
        // cut.
        let scattered: Vec<u32> = (0..10_000_u32).map(|i| i * 7_919 % 2_500).collect();
        assert!(!cut_by_notes(
            (&scattered, &blocks(&scattered)),
            2_500,
            &mut cuts
        ));
        assert!(!cut_by_notes((&cell_of, &[]), 2_500, &mut cuts));
        assert!(!cut_by_notes(
            (&cell_of, &blocks(&cell_of)),
            2_500,
            &mut cuts[..2]
        ));
    }

    #[test]
    fn a_part_reads_only_the_blocks_that_may_hold_its_cells() {
        // Three blocks: cells 0 to 9, none at all, then 20 to 29.
        let mut cell_of = vec![0_u32; 3 * BLOCK];
        for (i, cell) in cell_of.iter_mut().enumerate() {
            *cell = match i / BLOCK {
                0 => (i % 10) as u32,
                1 => u32::MAX,
                _ => 20 + (i % 10) as u32,
            };
        }
        let noted = blocks(&cell_of);
        assert_eq!(noted, [(0, 9, 256), (u32::MAX, 0, 0), (20, 29, 256)]);
        // Before cell 20: the first block's agents (noted, or counted when not noted); before
        // cell 5, those of its cells 0 to 4, counted one by one (a block reaching into the
        // part); before 30 all but the middle block's, which have no cell.
        for noted in [&noted[..], &[]] {
            let below = |first| placed_below((&cell_of, noted), first);
            assert_eq!(below(20), 256);
            assert_eq!(below(10), 256);
            assert_eq!(below(5), (0..BLOCK).filter(|i| i % 10 < 5).count() as u32);
            assert_eq!(below(0), 0);
            assert_eq!(below(30), 512);
        }
        let runs = |noted: &[BlockCells], first, len| -> Vec<(usize, usize)> {
            blocks_meeting((&cell_of, noted), first, len)
                .map(|(at, run)| (at, run.len()))
                .collect()
        };
        // Cells 10 to 19 meet no block; 5 to 14 the first; 9 to 20 the first and the last,
        // two runs; 0 to 29 all three, in one run.
        assert!(runs(&noted, 10, 10).is_empty());
        assert_eq!(runs(&noted, 5, 10), [(0, BLOCK)]);
        assert_eq!(runs(&noted, 9, 12), [(0, BLOCK), (2 * BLOCK, BLOCK)]);
        assert_eq!(
            runs(&[(0, 9, 1), (0, 40, 1), (20, 29, 1)], 0, 30),
            [(0, 3 * BLOCK)]
        );
        // Not noted (one part): every agent, in one run.
        assert_eq!(runs(&[], 10, 10), [(0, 3 * BLOCK)]);
    }
}
