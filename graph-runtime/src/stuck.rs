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

/// Below this `max_speed` (units / s), `max_speed²` is finite and normal-range enough for
/// [`crate::math::truncate`] to bound a length by `max_speed` within a few ulps.
const SHORTCUT_MAX_SPEED: f32 = 1e18;

/// [`stuck_clock`] for a vehicle that just stepped to `velocity` and whose preferred velocity
/// is `preferred()`, a velocity truncated to `max_speed`: the same number, but an agent moving
/// at 5 % of its top speed or more (the usual agent) is known not to be stuck without
/// computing the preferred velocity, since it moves faster than 5 % of anything it can
/// prefer. That saves three square roots per agent and tick.
///
/// The margin (0.1 %) covers the rounding of the truncation and of the squares (a few ulps),
/// so the shortcut never answers differently from [`stuck_clock`] (a property test checks
/// it).
#[inline]
pub(crate) fn stuck_clock_after_step(
    clock: f32,
    preferred: impl FnOnce() -> Vec2,
    velocity: Vec2,
    max_speed: f32,
    dt: f32,
) -> f32 {
    let valid_tick = dt > 0.0 && dt.is_finite();
    // Squared, without a square root: the margin also covers the rounding of the squares.
    let moving = STUCK_SPEED_FRACTION * 1.001 * max_speed;
    if valid_tick && max_speed < SHORTCUT_MAX_SPEED && velocity.length_squared() >= moving * moving
    {
        return 0.0;
    }
    stuck_clock(clock, preferred(), velocity, max_speed, dt)
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

    #[test]
    fn the_shortcut_skips_the_preferred_velocity_of_a_moving_agent_only() {
        let dt = 0.5;
        let never = || -> Vec2 { unreachable!("a moving agent needs no preferred velocity") };
        // Top speed 4: moving at 0.21 >= 5.005 % of 4 = 0.2002 cannot be stuck.
        let clock = stuck_clock_after_step(1.0, never, Vec2::new(0.21, 0.0), 4.0, dt);
        assert_eq!(clock, 0.0);
        // At 0.2, inside the margin, it computes the preferred velocity: wanting 4 it is not
        // stuck (0.2 is not under 5 % of 4); at 0.19 it is.
        let asked =
            stuck_clock_after_step(1.0, || Vec2::new(4.0, 0.0), Vec2::new(0.2, 0.0), 4.0, dt);
        assert_eq!(asked, 0.0);
        let slow =
            stuck_clock_after_step(1.0, || Vec2::new(4.0, 0.0), Vec2::new(0.19, 0.0), 4.0, dt);
        assert_eq!(slow, 1.5);
        // No tick: the clock stands, even for a moving agent.
        let held = stuck_clock_after_step(1.0, || Vec2::X, Vec2::new(3.0, 0.0), 4.0, 0.0);
        assert_eq!(held, 1.0);
    }

    proptest::proptest! {
        /// For any vehicle and force, the shortcut gives what the full clock gives with the
        /// preferred velocity the simulation computes.
        #[test]
        fn the_shortcut_answers_as_the_full_clock(
            clock in 0.0_f32..5.0,
            (vx, vy) in (-50.0_f32..50.0, -50.0_f32..50.0),
            (fx, fy) in (-1e4_f32..1e4, -1e4_f32..1e4),
            (ax, ay) in (-50.0_f32..50.0, -50.0_f32..50.0),
            max_speed in proptest::prop_oneof![0.0_f32..0.01, 0.0_f32..60.0, 1e3_f32..1e20],
            max_force in 0.0_f32..100.0,
            mass in 0.01_f32..10.0,
            dt in proptest::prop_oneof![0.001_f32..0.1, -1.0_f32..0.0],
            k in 0.9_f32..1.1,
        ) {
            let before = crate::Vehicle {
                position: Vec2::ZERO,
                velocity: Vec2::new(vx, vy),
                forward: Vec2::X,
                mass,
                max_force,
                max_speed,
                radius: 0.5,
                orientation: 0.0,
                angular_velocity: 0.0,
                turning: crate::Turning::DEFAULT,
            };
            let force = Vec2::new(fx, fy);
            let preferred = crate::behaviors::preferred_velocity(&before, force);
            // The stepped velocity, an arbitrary one, and one within 10 % of the 5 % line.
            let mut after = before;
            after.step(force, dt.max(0.0));
            let direction = Vec2::new(ax, ay).normalize_or(Vec2::X);
            let near_line = direction * STUCK_SPEED_FRACTION * preferred.length() * k;
            for velocity in [after.velocity, Vec2::new(ax, ay), near_line] {
                let full = stuck_clock(clock, preferred, velocity, max_speed, dt);
                let short = stuck_clock_after_step(clock, || preferred, velocity, max_speed, dt);
                proptest::prop_assert_eq!(full.to_bits(), short.to_bits());
            }
        }
    }
}
