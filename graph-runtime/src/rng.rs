//! Per-agent random numbers: the only source Wander and Dither draw from.

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro128PlusPlus;

/// A seeded PRNG owned by one agent.
///
/// The stream is part of the format (`BEHAVIORS.md`, "Randomness"): xoshiro128++ seeded through `SplitMix64` from
/// `scene_seed ^ (agent_index · 0x9E37_79B9_7F4A_7C15)`; a uniform `f32` in `[0, 1)` takes the top
/// 24 bits of the next `u32`. Changing any of this changes every trajectory, so it is a format
/// change.
#[derive(Clone, Debug)]
pub struct AgentRng(Xoshiro128PlusPlus);

impl AgentRng {
    /// The generator of agent `agent_index` in a world seeded with `scene_seed`.
    pub fn new(scene_seed: u64, agent_index: u64) -> Self {
        let mixed = scene_seed ^ agent_index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Self(Xoshiro128PlusPlus::seed_from_u64(mixed))
    }

    /// Uniform in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f32 {
        (self.0.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// Uniform in `[-1, 1)`.
    #[inline]
    pub fn signed_unit(&mut self) -> f32 {
        self.unit() * 2.0 - 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
