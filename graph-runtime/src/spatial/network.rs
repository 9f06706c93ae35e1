//! Sorting a handful of keys (a query's candidates, Reciprocal's nearest neighbors) by a
//! sorting network: a fixed list of compare-exchanges, each a comparison and two conditional
//! moves, so nothing branches on the keys. A neighborhood usually holds a handful of keys in
//! an order a branchy sort mispredicts at every step (an insertion sort, the standard
//! library's up to 20 keys, ends each key's loop wherever the key belongs).
//!
//! The keys are copied into 4, 8, 12 or 16 slots, the slots past them filled with the greatest
//! key there is. Those sort last, so the first slots hold the keys in order; a key equal to
//! the filler is the same value as it, so the order is right for any keys. Batcher's
//! odd–even merge sort gives the networks: 5, 19, 42 and 63 compare-exchanges.

use super::answers::Candidate;

/// Up to this many keys are sorted by a network ([`sort_few`]); more by the standard
/// library's sort.
pub(crate) const NETWORK_SORT_MAX: usize = 16;

/// A key a network sorts: ordered, and with a greatest value to fill the slots past the keys.
pub(crate) trait NetworkKey: Copy + Ord {
    /// No key is greater.
    const GREATEST: Self;
}

impl NetworkKey for u64 {
    const GREATEST: Self = u64::MAX;
}

impl NetworkKey for Candidate {
    const GREATEST: Self = Candidate::GREATEST;
}

/// Puts the smaller of slots `i` and `j` in `i`, the greater in `j`: a comparison and two
/// conditional moves.
#[inline]
fn exchange<T: NetworkKey, const N: usize>(slots: &mut [T; N], i: usize, j: usize) {
    if let (Some(&a), Some(&b)) = (slots.get(i), slots.get(j)) {
        if let Some(low) = slots.get_mut(i) {
            *low = a.min(b);
        }
        if let Some(high) = slots.get_mut(j) {
            *high = a.max(b);
        }
    }
}

/// Writes the compare-exchanges of a network one after another: a loop over a table of them
/// was left a loop, with its slots in memory.
macro_rules! network {
    ($slots:expr; $(($i:literal, $j:literal)),+ $(,)?) => {{
        let slots = $slots;
        $(exchange(slots, $i, $j);)+
    }};
}

/// Batcher's network for 4 keys (5 compare-exchanges).
#[inline]
fn four<T: NetworkKey>(slots: &mut [T; 4]) {
    network!(slots;
        (0, 1), (2, 3), (0, 2), (1, 3), (1, 2),
    );
}

/// Batcher's network for 8 keys (19 compare-exchanges, the fewest for 8).
#[inline]
fn eight<T: NetworkKey>(slots: &mut [T; 8]) {
    network!(slots;
        (0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3),
        (4, 6), (5, 7), (1, 2), (5, 6), (0, 4), (1, 5),
        (2, 6), (3, 7), (2, 4), (3, 5), (1, 2), (3, 4),
        (5, 6),
    );
}

/// Batcher's network for 12 keys (42 compare-exchanges): RVO2's ten neighbors are most often
/// gathered from 10 to 12 candidates.
#[inline]
fn twelve<T: NetworkKey>(slots: &mut [T; 12]) {
    network!(slots;
        (0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11),
        (0, 2), (1, 3), (4, 6), (5, 7), (8, 10), (9, 11),
        (1, 2), (5, 6), (9, 10), (0, 4), (1, 5), (2, 6),
        (3, 7), (2, 4), (3, 5), (1, 2), (3, 4), (5, 6),
        (9, 10), (0, 8), (1, 9), (2, 10), (3, 11), (4, 8),
        (5, 9), (6, 10), (7, 11), (2, 4), (3, 5), (6, 8),
        (7, 9), (1, 2), (3, 4), (5, 6), (7, 8), (9, 10),
    );
}

/// Batcher's network for 16 keys (63 compare-exchanges).
#[inline]
fn sixteen<T: NetworkKey>(slots: &mut [T; 16]) {
    network!(slots;
        (0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11),
        (12, 13), (14, 15), (0, 2), (1, 3), (4, 6), (5, 7),
        (8, 10), (9, 11), (12, 14), (13, 15), (1, 2), (5, 6),
        (9, 10), (13, 14), (0, 4), (1, 5), (2, 6), (3, 7),
        (8, 12), (9, 13), (10, 14), (11, 15), (2, 4), (3, 5),
        (10, 12), (11, 13), (1, 2), (3, 4), (5, 6), (9, 10),
        (11, 12), (13, 14), (0, 8), (1, 9), (2, 10), (3, 11),
        (4, 12), (5, 13), (6, 14), (7, 15), (4, 8), (5, 9),
        (6, 10), (7, 11), (2, 4), (3, 5), (6, 8), (7, 9),
        (10, 12), (11, 13), (1, 2), (3, 4), (5, 6), (7, 8),
        (9, 10), (11, 12), (13, 14),
    );
}

/// Fills the slots from `len` on with the greatest key, without a branch on `len`.
#[inline]
fn fill<T: NetworkKey, const N: usize>(slots: &mut [T; N], len: usize) {
    for (k, slot) in slots.iter_mut().enumerate() {
        *slot = if k < len { *slot } else { T::GREATEST };
    }
}

/// Sorts the first `len` keys of `room` ascending (`len` at most [`NETWORK_SORT_MAX`]); the
/// slots after them are overwritten. For a caller whose keys already lie in room enough for
/// the filler: no copy.
#[inline]
pub(crate) fn sort_first<T: NetworkKey>(room: &mut [T; NETWORK_SORT_MAX], len: usize) {
    // One or none keys sort as well in four slots as in none: no branch of their own.
    if len <= 4 {
        if let Some(slots) = room.first_chunk_mut::<4>() {
            fill(slots, len);
            four(slots);
        }
    } else if len <= 8 {
        if let Some(slots) = room.first_chunk_mut::<8>() {
            fill(slots, len);
            eight(slots);
        }
    } else if len <= 12 {
        if let Some(slots) = room.first_chunk_mut::<12>() {
            fill(slots, len);
            twelve(slots);
        }
    } else {
        fill(room, len);
        sixteen(room);
    }
}

/// Sorts `keys` ascending: up to [`NETWORK_SORT_MAX`] by a network, more by the standard
/// library's sort.
#[inline]
pub(crate) fn sort_few<T: NetworkKey>(keys: &mut [T]) {
    let len = keys.len();
    let mut room = [T::GREATEST; NETWORK_SORT_MAX];
    let Some(slots) = room.get_mut(..len) else {
        keys.sort_unstable();
        return;
    };
    slots.copy_from_slice(keys);
    sort_first(&mut room, len);
    if let Some(sorted) = room.get(..len) {
        keys.copy_from_slice(sorted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each network sorts every list of zeros and ones of its length, which by the zero-one
    /// principle means it sorts every list (Knuth, TAOCP 5.3.4): 16, 256, 4,096 and 65,536
    /// lists.
    #[test]
    fn each_network_sorts_every_list_of_zeros_and_ones() {
        fn sorts_all<const N: usize>(network: fn(&mut [u64; N])) {
            for bits in 0..1_u32 << N {
                let mut keys = [0_u64; N];
                for (k, key) in keys.iter_mut().enumerate() {
                    *key = u64::from((bits >> k) & 1);
                }
                let ones = bits.count_ones() as usize;
                network(&mut keys);
                assert!(keys[..N - ones].iter().all(|&k| k == 0), "{N}: {bits:b}");
                assert!(keys[N - ones..].iter().all(|&k| k == 1), "{N}: {bits:b}");
            }
        }
        sorts_all::<4>(four);
        sorts_all::<8>(eight);
        sorts_all::<12>(twelve);
        sorts_all::<16>(sixteen);
    }

    /// The slots after the keys may hold anything, smaller keys too (a scan leaves the keys
    /// it turned away there): they are overwritten, never sorted in. Three keys before
    /// zeros, then every length with the slots after it all zero.
    #[test]
    fn what_lies_after_the_keys_is_not_sorted_in() {
        let mut room = [0_u64; NETWORK_SORT_MAX];
        room[..3].copy_from_slice(&[9, 4, 7]);
        sort_first(&mut room, 3);
        assert_eq!(room[..3], [4, 7, 9]);
        for len in 0..=NETWORK_SORT_MAX {
            let mut room = [0_u64; NETWORK_SORT_MAX];
            for (k, slot) in room.iter_mut().take(len).enumerate() {
                *slot = 100 - (k as u64 * 37) % 50;
            }
            let mut expected = room[..len].to_vec();
            expected.sort_unstable();
            sort_first(&mut room, len);
            assert_eq!(room[..len], expected[..], "{len} keys");
        }
    }

    /// Every length from none to past the networks' 16, keys scrambled with repeats and the
    /// greatest key among them, comes out as the standard library's sort has it; a list
    /// worked by hand first.
    #[test]
    fn short_lists_come_out_as_a_sort_gives_them() {
        let mut keys = [7_u64, 3, 9, 3, u64::MAX, 0];
        sort_few(&mut keys);
        assert_eq!(keys, [0, 3, 3, 7, 9, u64::MAX]);
        for len in 0..=20_u64 {
            let mut keys: Vec<u64> = (0..len).map(|i| (i * 7919) % 13).collect();
            if len > 3 {
                keys[2] = u64::MAX;
            }
            let mut expected = keys.clone();
            expected.sort_unstable();
            sort_few(&mut keys);
            assert_eq!(keys, expected, "{len} keys");
        }
    }
}
