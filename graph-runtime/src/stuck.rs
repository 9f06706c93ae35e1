//! Stuck agents: those that want to move but hardly do, the deadlocks of crowd avoidance made
//! visible (`BEHAVIORS.md`, "Stuck agents").

use glam::Vec2;

/// An agent is stuck after this long (s) without progress.
pub const STUCK_SECONDS: f32 = 2.0;

/// Without progress: speed below this fraction of the preferred speed.
pub const STUCK_SPEED_FRACTION: f32 = 0.05;

/// A preferred velocity counts as zero below this fraction of the agent's `max_speed` (an agent
/// resting on its goal keeps a tiny preferred velocity that is no wish to move).
pub const RESTING_FRACTION: f32 = 0.01;

/// How long (s) an agent has been without progress after a tick of `dt`, given the clock
/// before it: `clock + dt` while the preferred velocity is not zero (longer than
/// `RESTING_FRACTION * max_speed`) and the speed is under `STUCK_SPEED_FRACTION` of the
/// preferred speed, else `0`. A tick with `dt <= 0` (or not finite) leaves the clock alone.
pub fn stuck_clock(clock: f32, preferred: Vec2, velocity: Vec2, max_speed: f32, dt: f32) -> f32 {
    if !(dt > 0.0 && dt.is_finite()) {
        return clock;
    }
    let wanted = preferred.length();
    if wanted > RESTING_FRACTION * max_speed && velocity.length() < STUCK_SPEED_FRACTION * wanted {
        clock + dt
    } else {
        0.0
    }
}

/// Whether a clock of [`stuck_clock`] says stuck.
pub fn is_stuck(clock: f32) -> bool {
    clock >= STUCK_SECONDS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_runs_only_while_a_wish_to_move_meets_no_progress() {
        let dt = 0.5;
        // Wants 2 u/s, moves at 0.09 < 5 % of 2 = 0.1: stuck time grows.
        let clock = stuck_clock(1.0, Vec2::new(2.0, 0.0), Vec2::new(0.09, 0.0), 4.0, dt);
        assert_eq!(clock, 1.5);
        // Moves at 0.11 > 0.1: progress, the clock resets.
        assert_eq!(
            stuck_clock(1.5, Vec2::new(2.0, 0.0), Vec2::new(0.0, 0.11), 4.0, dt),
            0.0
        );
        // Wants 0.03 < 1 % of 4 = 0.04: resting, not stuck, even at speed zero.
        assert_eq!(
            stuck_clock(1.5, Vec2::new(0.03, 0.0), Vec2::ZERO, 4.0, dt),
            0.0
        );
        // No tick: unchanged.
        assert_eq!(
            stuck_clock(1.5, Vec2::new(2.0, 0.0), Vec2::ZERO, 4.0, 0.0),
            1.5
        );
        assert!(!is_stuck(1.99) && is_stuck(2.0));
    }
}
