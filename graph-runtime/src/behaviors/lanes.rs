//! [`NeighborSums`] gathered in SIMD registers: one candidate's components four floats at a
//! time ([`NeighborLanes::add_within`]), and on x86-64 four candidates at a time over a run of
//! slots ([`NeighborLanes::add_slots`]). Every path does, on each float, exactly the operations
//! [`NeighborSums::add_if`] does, in the same order, so all give the same sums to the bit.

use glam::{BVec4A, Vec2, Vec4, Vec4Swizzles};

use super::NeighborSums;
use crate::math::TINY_SQUARED;

/// [`NeighborSums`] gathered four floats at a time: the separation in two lanes of one
/// register, the positions and velocities side by side in another, so each candidate costs one
/// subtraction, one multiplication, one division and two masked additions for all of its
/// components (SSE2 on x86-64, NEON on ARM, through `glam`'s `Vec4`). Each lane does exactly
/// the operations [`NeighborSums::add_if`] does on its component, in the same order, so
/// [`NeighborLanes::sums`] equals those sums to the bit (tested).
#[derive(Clone, Copy, Debug, Default)]
pub struct NeighborLanes {
    /// `Σ (p - q.p) / |p - q.p|²` in lanes 0 and 1 (2 and 3 are unused).
    separation: Vec4,
    /// `Σ q.p` in lanes 0 and 1, `Σ q.v` in lanes 2 and 3.
    sums: Vec4,
    /// How many neighbors were added.
    count: u32,
}

impl NeighborLanes {
    /// [`NeighborSums::add_if`] on the lanes, with a full circle's neighborhood test folded in:
    /// adds the candidate `(position, velocity)` when it is strictly within `radius_squared`
    /// (`radius * radius`) of `me` and `keep`, as `add_if(me, p, v, in_neighborhood(..) & keep)`
    /// with a full-circle view does (`p - me` and `me - p` square to the same bits, so the
    /// distance is computed once for the test and the sums).
    #[inline]
    pub fn add_within(
        &mut self,
        me: Vec2,
        (other_position, other_velocity): (Vec2, Vec2),
        radius_squared: f32,
        keep: bool,
    ) {
        let other = Vec4::new(
            other_position.x,
            other_position.y,
            other_velocity.x,
            other_velocity.y,
        );
        // Lanes 0 and 1: `me - q.p`; 2 and 3 are never kept.
        let away = Vec4::new(me.x, me.y, me.x, me.y) - other;
        let square = away * away;
        // `away.x * away.x + away.y * away.y` in every lane, as `Vec2::length_squared` adds.
        let distance_squared = square.xxxx() + square.yyyy();
        let counts = distance_squared.cmplt(Vec4::splat(radius_squared)) & BVec4A::splat(keep);
        // `|away| >= TINY`, without the square root (`TINY_SQUARED`).
        let repels = counts & distance_squared.cmpge(Vec4::splat(TINY_SQUARED));
        // Lanes 2 and 3 gather `(me - q.v) / |p - q.p|²`, which nothing reads: masking them
        // out cost an instruction per candidate.
        self.separation += Vec4::select(repels, away / distance_squared, Vec4::ZERO);
        self.sums += Vec4::select(counts, other, Vec4::ZERO);
        self.count += counts.bitmask() & 1;
    }

    /// [`NeighborLanes::add_within`] over the candidates in `slots` of the arrays `positions`,
    /// `velocities` and `agents` (one entry a slot, all of one length), keeping each whose
    /// agent is not `me_agent`: the same sums, to the bit, as calling it slot by slot in
    /// ascending order.
    ///
    /// On x86-64 four candidates are tested at once, one per lane, and then added to the
    /// sums one after the other, masked, in slot order: the same additions in the same order.
    /// A group may read up to three slots past the end of `slots` (never added); where a
    /// group would run past the end of the arrays, the last candidates are added one by one.
    #[inline]
    pub fn add_slots(
        &mut self,
        me: Vec2,
        arrays: (&[Vec2], &[Vec2], &[u32]),
        slots: std::ops::Range<usize>,
        me_agent: u32,
        radius_squared: f32,
    ) {
        #[cfg(target_arch = "x86_64")]
        let rest = self.add_groups(me, arrays, slots.clone(), me_agent, radius_squared);
        #[cfg(not(target_arch = "x86_64"))]
        let rest = slots.start;
        let (positions, velocities, agents) = arrays;
        for slot in rest..slots.end {
            if let (Some(&position), Some(&velocity), Some(&agent)) =
                (positions.get(slot), velocities.get(slot), agents.get(slot))
            {
                self.add_within(me, (position, velocity), radius_squared, agent != me_agent);
            }
        }
    }

    /// [`NeighborLanes::add_slots`]'s groups of four, in SSE2: returns the first slot it did
    /// not add (`slots.end` or past it when it added them all; otherwise a slot less than four
    /// before the arrays' end).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn add_groups(
        &mut self,
        me: Vec2,
        (positions, velocities, agents): (&[Vec2], &[Vec2], &[u32]),
        slots: std::ops::Range<usize>,
        me_agent: u32,
        radius_squared: f32,
    ) -> usize {
        use safe_arch::{
            add_m128, bitand_m128, bitandnot_m128i, cast_to_m128_from_m128i,
            cast_to_m128i_from_m128, cmp_eq_mask_i32_m128i, cmp_ge_mask_m128, cmp_lt_mask_m128,
            div_m128, load_unaligned_m128, m128, m128i, move_high_low_m128, move_low_high_m128,
            move_mask_m128, mul_m128, set_splat_i32_m128i, set_splat_m128,
            shuffle_abi_f32_all_m128, shuffle_ai_f32_all_m128i, sub_m128, unpack_high_m128,
            unpack_low_m128,
        };
        // Two points to a register: `(x, y)` of slot `s` at floats `2s` and `2s + 1`.
        let (position_floats, velocity_floats): (&[f32], &[f32]) = (
            bytemuck::cast_slice(positions),
            bytemuck::cast_slice(velocities),
        );
        let (me_x, me_y) = (set_splat_m128(me.x), set_splat_m128(me.y));
        let radius_squared = set_splat_m128(radius_squared);
        let tiny_squared = set_splat_m128(TINY_SQUARED);
        let me_agent = set_splat_i32_m128i(me_agent as i32);
        let mut separation = m128(self.separation.into());
        let mut sums = m128(self.sums.into());
        let mut base = slots.start;
        while base < slots.end {
            let floats = 2 * base..2 * base + 8;
            let (Some(p), Some(v), Some(a)) = (
                position_floats.get(floats.clone()),
                velocity_floats.get(floats),
                agents.get(base..base + 4),
            ) else {
                break;
            };
            let (Ok(p), Ok(v), Ok(a)) = (
                <&[f32; 8]>::try_from(p),
                <&[f32; 8]>::try_from(v),
                <&[u32; 4]>::try_from(a),
            ) else {
                break;
            };
            let (Some(p01), Some(p23), Some(v01), Some(v23)) = (
                p.first_chunk::<4>(),
                p.last_chunk::<4>(),
                v.first_chunk::<4>(),
                v.last_chunk::<4>(),
            ) else {
                break;
            };
            let (p01, p23) = (load_unaligned_m128(p01), load_unaligned_m128(p23));
            let (v01, v23) = (load_unaligned_m128(v01), load_unaligned_m128(v23));
            // Lane i holds slot base + i: `me - q.p` and `|me - q.p|²`, as `add_within`
            // computes them (`x * x + y * y`, x first).
            let dx = sub_m128(me_x, shuffle_abi_f32_all_m128::<0b10_00_10_00>(p01, p23));
            let dy = sub_m128(me_y, shuffle_abi_f32_all_m128::<0b11_01_11_01>(p01, p23));
            let distance_squared = add_m128(mul_m128(dx, dx), mul_m128(dy, dy));
            // Kept: in `slots` and not the agent itself.
            let itself = cmp_eq_mask_i32_m128i(m128i::from(a.map(|a| a as i32)), me_agent);
            let ours = m128i::from(OURS[(slots.end - base).min(4)]);
            let keep = cast_to_m128_from_m128i(bitandnot_m128i(itself, ours));
            let counts = bitand_m128(cmp_lt_mask_m128(distance_squared, radius_squared), keep);
            // `|away| >= TINY`, without the square root.
            let repels = bitand_m128(counts, cmp_ge_mask_m128(distance_squared, tiny_squared));
            let term_x = bitand_m128(repels, div_m128(dx, distance_squared));
            let term_y = bitand_m128(repels, div_m128(dy, distance_squared));
            // Candidate i's terms in lanes 0 and 1 (the others' lanes 2 and 3 are unused).
            let terms01 = unpack_low_m128(term_x, term_y);
            let terms23 = unpack_high_m128(term_x, term_y);
            let terms = [
                terms01,
                move_high_low_m128(terms01, terms01),
                terms23,
                move_high_low_m128(terms23, terms23),
            ];
            // Candidate i as `(q.p.x, q.p.y, q.v.x, q.v.y)`.
            let candidates = [
                move_low_high_m128(p01, v01),
                move_high_low_m128(v01, p01),
                move_low_high_m128(p23, v23),
                move_high_low_m128(v23, p23),
            ];
            let lanes = cast_to_m128i_from_m128(counts);
            let masks = [
                shuffle_ai_f32_all_m128i::<0b00_00_00_00>(lanes),
                shuffle_ai_f32_all_m128i::<0b01_01_01_01>(lanes),
                shuffle_ai_f32_all_m128i::<0b10_10_10_10>(lanes),
                shuffle_ai_f32_all_m128i::<0b11_11_11_11>(lanes),
            ];
            for ((term, candidate), mask) in terms.into_iter().zip(candidates).zip(masks) {
                separation = add_m128(separation, term);
                sums = add_m128(sums, bitand_m128(cast_to_m128_from_m128i(mask), candidate));
            }
            self.count += LANES_SET[(move_mask_m128(counts) & 15) as usize];
            base += 4;
        }
        self.separation = separation.0.into();
        self.sums = sums.0.into();
        base
    }

    /// The sums gathered so far.
    #[inline]
    pub fn sums(&self) -> NeighborSums {
        NeighborSums {
            separation: self.separation.xy(),
            position: self.sums.xy(),
            velocity: self.sums.zw(),
            count: self.count,
        }
    }
}

/// The lanes of a group that hold slots of the run, by how many of its slots are left (at
/// most 4): all bits set in each lane kept.
#[cfg(target_arch = "x86_64")]
const OURS: [[i32; 4]; 5] = [
    [0, 0, 0, 0],
    [-1, 0, 0, 0],
    [-1, -1, 0, 0],
    [-1, -1, -1, 0],
    [-1, -1, -1, -1],
];

/// How many bits each four-bit mask has set.
#[cfg(target_arch = "x86_64")]
const LANES_SET: [u32; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Vehicle;
    use crate::behaviors::{FieldOfView, in_neighborhood};

    /// Summing four floats at a time with the full circle's test folded in changes no bit:
    /// candidates inside, outside and exactly on the radius, coincident, nearly coincident,
    /// kept or not.
    #[test]
    fn the_folded_full_circle_test_sums_what_add_if_sums() {
        let full = FieldOfView::from_degrees(360.0);
        for (me, radius) in [(Vec2::new(3.25, -1.5), 2.0), (Vec2::new(-70.1, 0.3), 5.0)] {
            let me_vehicle = Vehicle::new(me, Vec2::X, crate::VehicleParams::default());
            let mut expected = NeighborSums::default();
            let mut lanes = NeighborLanes::default();
            for i in 0..3_000_u32 {
                let angle = i as f32 * 0.618;
                let reach = match i % 6 {
                    0 => 0.0,
                    1 => 5e-7,
                    2 => radius,
                    3 => 1e-6,
                    _ => (i % 17) as f32 * 0.37,
                };
                let position = me + Vec2::new(angle.cos(), angle.sin()) * reach;
                let velocity = Vec2::new(angle.sin(), (i % 5) as f32 - 2.0);
                let keep = i % 9 != 0;
                lanes.add_within(me, (position, velocity), radius * radius, keep);
                let counts = in_neighborhood(&me_vehicle, position, radius, full) & keep;
                expected.add_if(me, position, velocity, counts);
                let bits = |s: &NeighborSums| {
                    [s.separation, s.position, s.velocity].map(|v| v.to_array().map(f32::to_bits))
                };
                let lanes = lanes.sums();
                assert_eq!(
                    bits(&lanes),
                    bits(&expected),
                    "candidate {i}, radius {radius}"
                );
                assert_eq!(lanes.count, expected.count);
            }
            assert!(expected.count > 100, "{} counted", expected.count);
        }
    }

    /// Testing four candidates at once and adding those inside one by one sums what adding
    /// every candidate in turn sums, to the bit: runs of every length from 0 to 13 starting
    /// at every slot (groups that end inside the run, past it, and runs whose last slots are
    /// the arrays' last, where no group of four fits), the agent itself anywhere in them or
    /// not there, coincident and nearly coincident candidates, candidates exactly on the
    /// radius, and a second agent with the same index as `me` left out too.
    #[test]
    fn four_candidates_at_once_sum_what_one_at_a_time_sums() {
        let me = Vec2::new(0.75, -2.5);
        let radius: f32 = 1.5;
        let radius_squared = radius * radius;
        let slots = 40_usize;
        let positions: Vec<Vec2> = (0..slots)
            .map(|i| match i % 7 {
                0 => me,
                1 => me + Vec2::new(5e-7, 0.0),
                2 => me + Vec2::new(0.0, radius),
                3 => me + Vec2::new(radius, 0.0).rotate(Vec2::from_angle(0.3)),
                _ => {
                    let angle = i as f32 * 2.39;
                    me + Vec2::new(angle.cos(), angle.sin()) * ((i % 11) as f32 * 0.2)
                }
            })
            .collect();
        let velocities: Vec<Vec2> = (0..slots)
            .map(|i| Vec2::new((i % 5) as f32 - 2.0, 1.0 / (1.0 + i as f32)))
            .collect();
        // Agent 17 sits at slots 9 and 30 (an agent index is never in two slots of a
        // grid, but the loops must each leave out every slot holding it).
        let agents: Vec<u32> = (0..slots as u32)
            .map(|i| if i == 30 { 17 } else { i + 8 })
            .collect();
        let mut counted = 0;
        for me_agent in [17, 1_000] {
            for start in 0..slots {
                for len in 0..=13.min(slots - start) {
                    let run = start..start + len;
                    let mut one_by_one = NeighborLanes::default();
                    for slot in run.clone() {
                        let candidate = (positions[slot], velocities[slot]);
                        let keep = agents[slot] != me_agent;
                        one_by_one.add_within(me, candidate, radius_squared, keep);
                    }
                    let mut four = NeighborLanes::default();
                    let arrays = (&positions[..], &velocities[..], &agents[..]);
                    four.add_slots(me, arrays, run.clone(), me_agent, radius_squared);
                    let bits = |s: NeighborSums| {
                        [s.separation, s.position, s.velocity]
                            .map(|v| v.to_array().map(f32::to_bits))
                    };
                    let (expected, got) = (one_by_one.sums(), four.sums());
                    assert_eq!(bits(got), bits(expected), "run {run:?}, agent {me_agent}");
                    assert_eq!(got.count, expected.count, "run {run:?}, agent {me_agent}");
                    counted += got.count;
                }
            }
        }
        assert!(counted > 1_000, "{counted} counted");
    }
}
