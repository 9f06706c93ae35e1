//! Avoidance priority and layers: who an agent avoids, and how much of each avoidance it takes
//! (`BEHAVIORS.md`, "Avoidance priority and layers"), as Godot's and Unity's navigation agents
//! set them. An agent's neighbors are the agents whose layers meet its mask; Reciprocal shares
//! each avoidance by priority, a higher-priority agent giving way less.

use serde::{Deserialize, Serialize};

/// The most layers (numbered 1 to 32).
pub const LAYERS: u8 = 32;

/// The largest priority (and the smallest is its inverse): a priority far outside these is a
/// mistake, and their ratio keeps every share representable.
pub const MAX_PRIORITY: f32 = 1.0e6;

/// One agent's avoidance settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Avoidance {
    /// Its weight in each avoidance with another agent (`> 0`, 1 by default): of an avoidance
    /// between agents of priorities `a` (this one) and `b`, this one takes the share
    /// `b / (a + b)`, so equal priorities share it half and half (plain ORCA), and an agent of
    /// priority 9 crossing agents of priority 1 takes a tenth of each.
    pub priority: f32,
    /// The layers it is on: bit `i` for layer `i + 1` (layer 1 by default).
    pub layers: u32,
    /// The layers it avoids: bit `i` for layer `i + 1` (layer 1 by default). It avoids (and
    /// counts as neighbors) only the agents on a layer of its mask.
    pub mask: u32,
}

impl Default for Avoidance {
    fn default() -> Self {
        Self {
            priority: 1.0,
            layers: 1,
            mask: 1,
        }
    }
}

impl Avoidance {
    /// Whether this agent avoids (and counts as a neighbor) an agent on `layers`.
    #[inline]
    pub fn avoids(self, layers: u32) -> bool {
        self.mask & layers != 0
    }

    /// This agent's share of an avoidance with an agent of priority `other`: `other / (own +
    /// other)`; 0.5 between equal priorities.
    #[inline]
    pub fn share_against(self, other: f32) -> f32 {
        other / (self.priority + other)
    }

    /// Whether `priority` is one: finite, from [`MAX_PRIORITY`]'s inverse to [`MAX_PRIORITY`].
    pub fn is_priority(priority: f32) -> bool {
        (1.0 / MAX_PRIORITY..=MAX_PRIORITY).contains(&priority)
    }

    /// The settings a scene group writes (`AvoidanceSettings`), or why they are not settings.
    pub fn from_settings(settings: &AvoidanceSettings) -> Result<Self, String> {
        let priority = settings.priority;
        if !Self::is_priority(priority) {
            return Err(format!(
                "priority {priority} is not within {} to {MAX_PRIORITY}",
                1.0 / MAX_PRIORITY
            ));
        }
        let bits = |layers: &[u8], what: &str| {
            layers.iter().try_fold(0_u32, |bits, &layer| {
                if (1..=LAYERS).contains(&layer) {
                    Ok(bits | 1 << (layer - 1))
                } else {
                    Err(format!("{what}: layer {layer} is not one of 1 to {LAYERS}"))
                }
            })
        };
        Ok(Self {
            priority,
            layers: bits(&settings.layers, "layers")?,
            mask: bits(&settings.mask, "mask")?,
        })
    }
}

/// A scene group's avoidance, as its file writes it: a priority and the layers by number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AvoidanceSettings {
    /// The agents' priority (`Avoidance::priority`; 1 when left out).
    #[serde(default = "one")]
    pub priority: f32,
    /// The layers the agents are on, by number (1 to 32; `[1]` when left out).
    #[serde(default = "layer_one")]
    pub layers: Vec<u8>,
    /// The layers they avoid, by number (1 to 32; `[1]` when left out; `[]`: nobody).
    #[serde(default = "layer_one")]
    pub mask: Vec<u8>,
}

impl Default for AvoidanceSettings {
    fn default() -> Self {
        Self {
            priority: 1.0,
            layers: layer_one(),
            mask: layer_one(),
        }
    }
}

fn one() -> f32 {
    1.0
}

fn layer_one() -> Vec<u8> {
    vec![1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_masks_work_out_by_hand() {
        let plain = Avoidance::default();
        assert_eq!(plain.share_against(1.0), 0.5);
        let vip = Avoidance {
            priority: 9.0,
            ..plain
        };
        assert_eq!(vip.share_against(1.0), 0.1);
        assert_eq!(plain.share_against(9.0), 0.9);
        let settings = AvoidanceSettings {
            priority: 2.0,
            layers: vec![2],
            mask: vec![1, 3],
        };
        let team = Avoidance::from_settings(&settings).expect("settings");
        assert_eq!((team.layers, team.mask), (0b10, 0b101));
        assert!(team.avoids(0b1) && !team.avoids(0b10));
        let bad = AvoidanceSettings {
            layers: vec![33],
            ..settings.clone()
        };
        assert_eq!(
            Avoidance::from_settings(&bad),
            Err("layers: layer 33 is not one of 1 to 32".to_owned())
        );
        let bad = AvoidanceSettings {
            priority: 0.0,
            ..settings
        };
        assert!(Avoidance::from_settings(&bad).is_err());
    }
}
