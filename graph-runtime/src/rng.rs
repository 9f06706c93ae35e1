//! Per-agent random numbers: the only source Wander and Dither draw from.

/// A seeded PRNG owned by one agent.
///
/// The stream is part of the format (`BEHAVIORS.md`, "Randomness"): xoshiro128++ seeded through `SplitMix64` from
/// `scene_seed ^ (agent_index · 0x9E37_79B9_7F4A_7C15)`; a uniform `f32` in `[0, 1)` takes the top
/// 24 bits of the next `u32`. Changing any of this changes every trajectory, so it is a format
/// change.
///
/// The generator is written here (it is eight lines) rather than taken from `rand_xoshiro`, so
/// that its four words can be read and carried on by another backend ([`AgentRng::words`],
/// the GPU crate); a test holds it to `rand_xoshiro`'s stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentRng([u32; 4]);

impl AgentRng {
    /// The generator of agent `agent_index` in a world seeded with `scene_seed`.
    pub fn new(scene_seed: u64, agent_index: u64) -> Self {
        let mut x = scene_seed ^ agent_index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let [a, b] = split_mix(&mut x);
        let [c, d] = split_mix(&mut x);
        Self([a, b, c, d])
    }

    /// The generator whose state is `words` (`s0..s3` of xoshiro128++), as
    /// [`AgentRng::words`] gave them.
    pub fn from_words(words: [u32; 4]) -> Self {
        Self(words)
    }

    /// The four words of the state (`s0..s3`): the next draws follow from them alone.
    pub fn words(&self) -> [u32; 4] {
        self.0
    }

    /// The next `u32` of xoshiro128++.
    #[inline]
    fn next_u32(&mut self) -> u32 {
        let s = &mut self.0;
        let result = s[0].wrapping_add(s[3]).rotate_left(7).wrapping_add(s[0]);
        let t = s[1] << 9;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(11);
        result
    }

    /// Uniform in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// Uniform in `[-1, 1)`.
    #[inline]
    pub fn signed_unit(&mut self) -> f32 {
        self.unit() * 2.0 - 1.0
    }
}

/// One output of `SplitMix64` from `x` (advanced), as its low and high 32 bits.
fn split_mix(x: &mut u64) -> [u32; 2] {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    [z as u32, (z >> 32) as u32]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro128PlusPlus;

    /// The stream written here is `rand_xoshiro`'s (the one every trajectory before it was
    /// made with), seeds and draws alike, over seeds near zero, near the top and scattered.
    #[test]
    fn the_stream_is_rand_xoshiros() {
        let seeds = (0..64u64).chain([u64::MAX, u64::MAX - 1, 0x5EED_5A17_0000_0000, 42, 7]);
        for seed in seeds {
            for index in [0u64, 1, 2, 399, 10_000, 999_999, u64::MAX] {
                let mut ours = AgentRng::new(seed, index);
                let mixed = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let mut theirs = Xoshiro128PlusPlus::seed_from_u64(mixed);
                for _ in 0..50 {
                    assert_eq!(
                        ours.next_u32(),
                        theirs.next_u32(),
                        "seed {seed}, agent {index}"
                    );
                }
            }
        }
    }

    /// A generator rebuilt from its words goes on with the same draws.
    #[test]
    fn words_carry_the_stream_on() {
        let mut a = AgentRng::new(3, 17);
        a.unit();
        let mut b = AgentRng::from_words(a.words());
        let xs: Vec<f32> = (0..8).map(|_| a.unit()).collect();
        let ys: Vec<f32> = (0..8).map(|_| b.unit()).collect();
        assert_eq!(xs, ys);
    }

    #[test]
    fn same_seed_and_index_give_the_same_stream() {
        let mut a = AgentRng::new(7, 3);
        let mut b = AgentRng::new(7, 3);
        let mut c = AgentRng::new(7, 4);
        let xs: Vec<f32> = (0..8).map(|_| a.unit()).collect();
        let ys: Vec<f32> = (0..8).map(|_| b.unit()).collect();
        let zs: Vec<f32> = (0..8).map(|_| c.unit()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
    }
}
