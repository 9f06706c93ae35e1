//! The agents' random streams and random spawns, as `BEHAVIORS.md` states them.

use super::{PARAMS, one, point, says, v2};
use glam::Vec2;
use graph_runtime::{AgentGroup, AgentRng, Area, Node, Scene, SceneAssets, Simulation, Spawn};

// ---------------------------------------------------------------------------------------------
// Randomness
// ---------------------------------------------------------------------------------------------

/// The documented stream, written from `BEHAVIORS.md` alone.
struct DocumentedRng([u32; 4]);

impl DocumentedRng {
    fn new(seed: u64, index: u64) -> Self {
        let mut x = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut splitmix = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let (first, second) = (splitmix(), splitmix());
        #[expect(
            clippy::cast_possible_truncation,
            reason = "the low and high halves of the 64-bit outputs"
        )]
        let words = [
            first as u32,
            (first >> 32) as u32,
            second as u32,
            (second >> 32) as u32,
        ];
        Self(words)
    }

    fn next_u32(&mut self) -> u32 {
        let [s0, s1, s2, s3] = &mut self.0;
        let result = s0.wrapping_add(*s3).rotate_left(7).wrapping_add(*s0);
        let t = *s1 << 9;
        *s2 ^= *s0;
        *s3 ^= *s1;
        *s1 ^= *s2;
        *s0 ^= *s3;
        *s2 ^= t;
        *s3 = s3.rotate_left(11);
        result
    }

    fn unit(&mut self) -> f32 {
        #[expect(clippy::cast_precision_loss, reason = "24 bits fit an f32 exactly")]
        let top = (self.next_u32() >> 8) as f32;
        top * (1.0 / 16_777_216.0)
    }
}

#[test]
fn the_agent_rng_stream_is_the_documented_xoshiro128_plus_plus() {
    says(
        "Seeding: `x = seed ^ (index * 0x9E3779B97F4A7C15)` (wrapping multiplication), then two outputs of SplitMix64 started at `x` give the state: `s0, s1` are the low and high 32 bits of the first, `s2, s3` of the second.",
    );
    says(
        "xoshiro128++ step: `result = rotl(s0 + s3, 7) + s0`; `t = s1 << 9; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11)` (wrapping additions).",
    );
    says(
        "`unit() = (next_u32 >> 8) * 2^-24`, uniform in `[0, 1)`; `signed_unit() = unit() * 2 - 1`, in `[-1, 1)`.",
    );
    for (seed, index) in [
        (0, 0),
        (1, 0),
        (7, 3),
        (u64::MAX, 12_345),
        (0x5EED, 1 << 40),
    ] {
        let mut documented = DocumentedRng::new(seed, index);
        let mut runtime = AgentRng::new(seed, index);
        for draw in 0..64 {
            let expected = documented.unit();
            if draw % 2 == 0 {
                assert_eq!(
                    runtime.unit(),
                    expected,
                    "seed {seed} index {index} draw {draw}"
                );
            } else {
                assert_eq!(runtime.signed_unit(), expected * 2.0 - 1.0);
            }
        }
    }
}

#[test]
fn a_random_rectangle_spawn_draws_positions_then_the_heading() {
    says("`AgentRng(seed ^ 0x5EED5A1700000000, group_index)`");
    says(
        "Rectangle: `position = min + (max - min) * (u1, u2)`, drawing `u1 = unit()` then `u2 = unit()`.",
    );
    says(
        "Then one more draw `u3` for the heading: `velocity = (cos(u3 * 2π), sin(u3 * 2π)) * speed`.",
    );
    let graph = one(Node::Seek {
        target: point(0.0, 0.0),
    });
    let group = |name: &str, count| AgentGroup {
        vehicle: Some(PARAMS),
        ..AgentGroup::new(
            name,
            "idle.graph.ron",
            Spawn::Random {
                count,
                area: Area::Rect {
                    min: v2(-10.0, 0.0),
                    max: v2(30.0, 20.0),
                },
                speed: 2.0,
            },
        )
    };
    let seed = 77;
    let assets = SceneAssets {
        scene: Scene {
            seed,
            groups: vec![group("first", 3), group("second", 2)],
            ..Scene::default()
        },
        origin: "doc".to_owned(),
        graphs: [("idle.graph.ron".to_owned(), graph)].into(),
        flow_fields: std::collections::BTreeMap::new(),
    };
    let Ok(simulation) = Simulation::new(&assets) else {
        panic!("the scene builds")
    };
    let mut expected = Vec::new();
    for (group_index, count) in [(0u64, 3), (1, 2)] {
        let mut rng = DocumentedRng::new(seed ^ 0x5EED_5A17_0000_0000, group_index);
        for _ in 0..count {
            let (u1, u2) = (rng.unit(), rng.unit());
            let position = v2(-10.0, 0.0) + v2(40.0, 20.0) * v2(u1, u2);
            let heading = Vec2::from_angle(rng.unit() * std::f32::consts::TAU);
            expected.push((position, heading * 2.0));
        }
    }
    let spawned: Vec<(Vec2, Vec2)> = simulation
        .vehicles()
        .iter()
        .map(|v| (v.position, v.velocity))
        .collect();
    assert_eq!(spawned, expected);
}
