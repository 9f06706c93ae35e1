//! Avoidance priority and layers of a game's own agents.

use graph_runtime::{Avoidance, Crowd};

use crate::handles::with;
use crate::kinds::SgCrowd;
use crate::status::{Failure, SgStatus, guard};

/// Sets agent `agent`'s avoidance (`BEHAVIORS.md`, "Avoidance priority and layers"):
/// `priority` (1e-6 to 1e6; 1 by default) is its weight in each avoidance (of two agents of
/// priorities `p` and `q`, the first takes `q / (p + q)`), `layers` the layers it is on and
/// `mask` the layers it avoids, bit `i` for layer `i + 1` (both 1, layer 1, by default): it
/// avoids and counts as neighbors only the agents on a layer of its mask.
#[unsafe(no_mangle)]
pub extern "C" fn sg_crowd_set_avoidance(
    crowd: SgCrowd,
    agent: usize,
    priority: f32,
    layers: u32,
    mask: u32,
) -> SgStatus {
    guard(|| {
        let avoidance = Avoidance {
            priority,
            layers,
            mask,
        };
        with::<Crowd, _>(crowd.id, "crowd", |crowd| {
            crowd
                .set_avoidance(agent, avoidance)
                .map_err(|e| Failure::invalid(e.to_string()))
        })
    })
}
