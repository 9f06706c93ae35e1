//! The digests a replay file keeps: FNV-1a (64 bits) over bytes in a fixed order, so that any
//! build on any machine, and any other tool, works out the same numbers (`FORMAT.md`, "Replay
//! files"). Not a cryptographic hash: it tells a changed run or scene from the recorded one,
//! it does not stand up to someone forging a file.

use crate::{SaveError, SceneAssets, Simulation};

/// FNV-1a's 64-bit offset basis.
const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a's 64-bit prime.
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over the bytes written to it, in order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(OFFSET)
    }
}

impl Fnv {
    /// Adds `bytes`.
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(PRIME);
        }
    }

    /// Adds a number's bits, little-endian.
    fn write_f32(&mut self, value: f32) {
        self.write(&value.to_bits().to_le_bytes());
    }

    /// The digest of everything written.
    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

/// The digest of what `steergraph simulate` writes for `simulation`'s present tick: for each
/// agent in order, the bits of its position (x, y), velocity (x, y), facing and angular
/// velocity as little-endian `f32`s, then a byte 1 and its height while it is in the air on a
/// jump, or a byte 0. Two runs whose digests agree at a tick wrote the same rows at it.
pub fn state_digest(simulation: &Simulation) -> u64 {
    let mut fnv = Fnv::default();
    for (agent, vehicle) in simulation.vehicles().iter().enumerate() {
        for value in [
            vehicle.position.x,
            vehicle.position.y,
            vehicle.velocity.x,
            vehicle.velocity.y,
            vehicle.facing(),
            vehicle.spin(),
        ] {
            fnv.write_f32(value);
        }
        match simulation.flight(agent) {
            Some(flight) => {
                fnv.write(&[1]);
                fnv.write_f32(flight.height());
            }
            None => fnv.write(&[0]),
        }
    }
    fnv.finish()
}

/// The digest of a loaded scene with what it names: its text as the runtime saves it, then
/// each graph and subgraph file by the name the scene (or a graph) gives it, in name order,
/// then each flow field by name. The saved form, not the bytes on disk: a file re-saved or
/// re-indented keeps its digest; a changed number, node or wall does not.
pub fn scene_digest(assets: &SceneAssets) -> Result<u64, SaveError> {
    let mut fnv = Fnv::default();
    let mut part = |name: &str, text: &str| {
        // Lengths first, so that no two lists of parts run together into the same bytes.
        fnv.write(&(name.len() as u64).to_le_bytes());
        fnv.write(name.as_bytes());
        fnv.write(&(text.len() as u64).to_le_bytes());
        fnv.write(text.as_bytes());
    };
    part("scene", &assets.scene.to_ron()?);
    for (name, graph) in &assets.graphs {
        part(name, &graph.to_ron()?);
    }
    for (name, field) in &assets.flow_fields {
        part(name, &field.to_ron()?);
    }
    Ok(fnv.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV-1a's published test values (Fowler, Noll and Vo's reference code): the empty input
    /// gives the offset basis, "a" 0xaf63dc4c8601ec8c, "foobar" 0x85944171f73967e8.
    #[test]
    fn fnv_matches_the_reference_values() {
        let digest = |text: &str| {
            let mut fnv = Fnv::default();
            fnv.write(text.as_bytes());
            fnv.finish()
        };
        assert_eq!(digest(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(digest("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(digest("foobar"), 0x8594_4171_f739_67e8);
    }
}
