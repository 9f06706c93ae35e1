//! The vector conventions of `BEHAVIORS.md` ("Conventions"), written once.
//!
//! World space is 2D with y pointing up. `forward` is a unit vector and
//! `side = forward.perp()` points to the left of it.

use glam::Vec2;

/// Vectors shorter than this are treated as zero by [`normalize`] and as "no motion" elsewhere.
pub const TINY: f32 = 1e-6;

/// The smallest `f32` whose square root is at least [`TINY`] (one step below `TINY * TINY`):
/// `x.sqrt() >= TINY` exactly when `x >= TINY_SQUARED`, NaN included (both false), since the
/// square root is correctly rounded and never decreasing. A length compared with `TINY`
/// through its square skips the root: the neighbor sums test it for every candidate.
pub const TINY_SQUARED: f32 = f32::from_bits(0x2b8c_bccb);

/// Unit vector along `v`, or exactly [`Vec2::ZERO`] when `|v| < 1e-6` (never NaN).
#[inline]
pub fn normalize(v: Vec2) -> Vec2 {
    let length = v.length();
    if length < TINY {
        Vec2::ZERO
    } else {
        v / length
    }
}

/// `v` itself if `|v| <= max`, else `v` scaled down to length `max`.
///
/// Finite for any finite `v` and `max`, whatever their size (lengths are measured in `f64`
/// when `|v|²` under- or overflows `f32`). A `max` that is negative or NaN counts as `0`. A
/// non-finite `v` is neutralised: with a NaN component it gives zero, otherwise its infinite
/// components give the direction (`truncate((inf, 0), 5) = (5, 0)`).
#[inline]
pub fn truncate(v: Vec2, max: f32) -> Vec2 {
    let max = if max >= 0.0 { max } else { 0.0 };
    let length_squared = v.length_squared();
    if length_squared.is_normal() {
        if length_squared <= max * max {
            return v;
        }
        let factor = max / length_squared.sqrt();
        if factor.is_normal() || max == 0.0 {
            return v * factor;
        }
    } else if v == Vec2::ZERO {
        return v;
    }
    truncate_wide(v, max)
}

/// [`truncate`] where `|v|²` or the scale factor under- or overflows `f32` (a tiny or huge
/// `v`, a tiny `max`), which would keep a tiny vector above `max` or drop a huge one to zero,
/// and where `v` is not finite. `max` is `>= 0` here.
#[cold]
fn truncate_wide(v: Vec2, max: f32) -> Vec2 {
    if v.is_nan() {
        return Vec2::ZERO;
    }
    if !v.is_finite() {
        // Only the infinite components count: (inf, 3) points along +x.
        let direction = Vec2::new(infinite_sign(v.x), infinite_sign(v.y)).normalize_or_zero();
        return if max.is_finite() { direction * max } else { v };
    }
    // f64 holds the square of any f32, so measure and scale there.
    let wide = v.as_dvec2();
    let length = wide.length();
    let max = f64::from(max);
    if length <= max {
        v
    } else {
        (wide * (max / length)).as_vec2()
    }
}

/// `±1` for an infinite value, `0` for a finite one.
fn infinite_sign(x: f32) -> f32 {
    if x.is_infinite() { x.signum() } else { 0.0 }
}

/// The left-pointing unit vector of a `forward` direction: `(-f.y, f.x)`.
#[inline]
pub fn side(forward: Vec2) -> Vec2 {
    forward.perp()
}

/// `v` in the local frame of `forward`: `(v · forward, v · side)`.
#[inline]
pub fn local(v: Vec2, forward: Vec2) -> Vec2 {
    Vec2::new(v.dot(forward), v.dot(side(forward)))
}

/// `sign` (`BEHAVIORS.md`, "Conventions"): `+1` for zero and positive values, `-1` for negative ones.
#[inline]
pub fn sign(x: f32) -> f32 {
    if x < 0.0 { -1.0 } else { 1.0 }
}

/// Rotates the unit vector `direction` counter-clockwise by `angle` radians.
#[inline]
pub fn rotate(direction: Vec2, angle: f32) -> Vec2 {
    Vec2::from_angle(angle).rotate(direction)
}

/// Coefficients of `atan(a) / a` as a polynomial in `a²` on `0 <= a <= 1`, lowest first
/// (`BEHAVIORS.md`, "Angles"): a least-squares fit on Chebyshev nodes whose `f32` evaluation is
/// within `1.8e-7` radians of `atan` on `[0, 1]`.
const ATAN: [f32; 8] = [
    0.999_999_94,
    -0.333_323_03,
    0.199_736_76,
    -0.140_401_02,
    0.099_678_14,
    -0.060_217_477,
    0.024_755_564,
    -0.004_830_817,
];

/// The angle of `v` (radians, counter-clockwise from +x), in `(-π, π]`: `atan2(v.y, v.x)`
/// computed with the fixed polynomial of `BEHAVIORS.md` ("Angles"), within `2e-7` radians of
/// the exact angle and the same bits on every platform (a platform's `atan2` may differ in
/// the last bit, and costs four times as much). `angle(0, 0) = 0`; a vector with a component
/// that is not finite gets the platform's `atan2`.
#[inline]
pub fn angle(v: Vec2) -> f32 {
    use std::f32::consts::{FRAC_PI_2, PI};
    if !v.is_finite() {
        return v.y.atan2(v.x);
    }
    let (ax, ay) = (v.x.abs(), v.y.abs());
    let (low, high) = if ay > ax { (ax, ay) } else { (ay, ax) };
    if high == 0.0 {
        return 0.0;
    }
    let a = low / high;
    let s = a * a;
    let [c0, c1, c2, c3, c4, c5, c6, c7] = ATAN;
    let p = ((((((c7 * s + c6) * s + c5) * s + c4) * s + c3) * s + c2) * s + c1) * s + c0;
    let mut r = p * a;
    if ay > ax {
        r = FRAC_PI_2 - r;
    }
    if v.x < 0.0 {
        r = PI - r;
    }
    if v.y < 0.0 { -r } else { r }
}

/// The unit vector at angle `a` (radians): `(cos a, sin a)`.
#[inline]
pub fn direction(a: f32) -> Vec2 {
    let (sin, cos) = a.sin_cos();
    Vec2::new(cos, sin)
}

/// `a` brought into `(-π, π]` (`BEHAVIORS.md`, "Angles"): an exact half turn counts as `+π`,
/// so an agent facing exactly away from its aim turns counter-clockwise. Within one turn of
/// the range (the difference of two wrapped angles always is) a single `± 2π`; further out the
/// remainder. A non-finite `a` gives `0`.
#[inline]
pub fn wrap(a: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    if a > -PI && a <= PI {
        a
    } else if a > PI && a <= 3.0 * PI {
        a - TAU
    } else if a <= -PI && a > -3.0 * PI {
        a + TAU
    } else if a.is_finite() {
        // rem_euclid gives [0, 2π); shift into (-π, π].
        let r = (a + PI).rem_euclid(TAU) - PI;
        if r <= -PI { r + TAU } else { r }
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {

    /// `TINY_SQUARED` is the boundary: its root reaches `TINY` and the float below's does not
    /// (the root never decreases, so that settles every other float), and NaN, zero, minus
    /// zero and infinity agree both ways.
    #[test]
    fn tiny_squared_splits_the_floats_whose_root_reaches_tiny() {
        assert!(TINY_SQUARED.sqrt() >= TINY);
        assert!(TINY_SQUARED.next_down().sqrt() < TINY);
        for x in [
            f32::NAN,
            0.0,
            -0.0,
            f32::INFINITY,
            1e-12,
            1.0,
            TINY_SQUARED.next_up(),
        ] {
            assert_eq!(x.sqrt() >= TINY, x >= TINY_SQUARED, "{x:e}");
        }
    }

    use super::*;

    #[test]
    fn normalize_of_tiny_vector_is_exactly_zero() {
        assert_eq!(normalize(Vec2::new(1e-7, 0.0)), Vec2::ZERO);
        assert_eq!(normalize(Vec2::ZERO), Vec2::ZERO);
        assert_eq!(normalize(Vec2::new(3.0, 4.0)), Vec2::new(0.6, 0.8));
    }

    #[test]
    fn truncate_keeps_short_vectors_and_scales_long_ones() {
        assert_eq!(truncate(Vec2::new(3.0, 4.0), 5.0), Vec2::new(3.0, 4.0));
        assert_eq!(truncate(Vec2::new(3.0, 4.0), 2.5), Vec2::new(1.5, 2.0));
        assert_eq!(truncate(Vec2::new(3.0, 4.0), 0.0), Vec2::ZERO);
    }

    #[test]
    fn local_frame_has_side_to_the_left() {
        let forward = Vec2::X;
        assert_eq!(side(forward), Vec2::Y);
        assert_eq!(local(Vec2::new(2.0, -3.0), forward), Vec2::new(2.0, -3.0));
        assert_eq!(local(Vec2::new(0.0, 5.0), Vec2::Y), Vec2::new(5.0, 0.0));
        assert_eq!(sign(0.0), 1.0);
        assert_eq!(sign(-0.5), -1.0);
    }

    #[test]
    fn truncate_of_an_infinite_vector_keeps_its_direction() {
        assert_eq!(
            truncate(Vec2::new(f32::INFINITY, 0.0), 5.0),
            Vec2::new(5.0, 0.0)
        );
        assert_eq!(
            truncate(Vec2::new(3.0, f32::NEG_INFINITY), 2.0),
            Vec2::new(0.0, -2.0)
        );
        let diagonal = truncate(Vec2::splat(f32::INFINITY), 2.0);
        assert!((diagonal - Vec2::splat(2f32.sqrt())).abs().max_element() < 1e-6);
        assert_eq!(truncate(Vec2::new(f32::NAN, 1.0), 5.0), Vec2::ZERO);
        assert_eq!(
            truncate(Vec2::new(f32::INFINITY, f32::NAN), 5.0),
            Vec2::ZERO
        );
    }

    #[test]
    fn truncate_stays_finite_for_extreme_finite_inputs() {
        // |v|² overflows f32: still scaled to the exact length.
        assert_eq!(truncate(Vec2::new(f32::MAX, 0.0), 5.0), Vec2::new(5.0, 0.0));
        let big = truncate(Vec2::splat(f32::MAX), f32::MAX);
        assert!(
            big.is_finite() && (big.as_dvec2().length() / f64::from(f32::MAX) - 1.0).abs() < 1e-6
        );
        // |v|² underflows: a tiny vector is still compared with a tinier max.
        assert_eq!(
            truncate(Vec2::new(1e-30, 0.0), 1e-31),
            Vec2::new(1e-31, 0.0)
        );
        assert_eq!(
            truncate(Vec2::new(3.0, 4.0), f32::INFINITY),
            Vec2::new(3.0, 4.0)
        );
    }

    #[test]
    fn truncate_to_a_negative_or_nan_max_gives_zero() {
        assert_eq!(truncate(Vec2::new(3.0, 4.0), -1.0), Vec2::ZERO);
        assert_eq!(truncate(Vec2::new(3.0, 4.0), f32::NAN), Vec2::ZERO);
        assert_eq!(
            truncate(Vec2::new(f32::INFINITY, 0.0), f32::NAN),
            Vec2::ZERO
        );
    }

    #[test]
    fn wrap_brings_angles_into_the_half_open_turn() {
        use std::f32::consts::PI;
        assert_eq!(wrap(0.5), 0.5);
        assert_eq!(wrap(PI), PI, "a half turn stays +π");
        assert_eq!(wrap(-PI), PI, "-π counts as +π: turn counter-clockwise");
        // 3π/2 is a quarter turn clockwise: -π/2 (within rounding of the remainder).
        assert!((wrap(1.5 * PI) + 0.5 * PI).abs() < 1e-6);
        assert!((wrap(-1.5 * PI) - 0.5 * PI).abs() < 1e-6);
        assert!((wrap(7.0 * PI) - PI).abs() < 1e-5);
        assert_eq!(wrap(f32::NAN), 0.0);
        assert_eq!(wrap(f32::INFINITY), 0.0);
    }

    #[test]
    fn angle_is_within_2e_7_of_atan2_all_round() {
        let mut worst: f64 = 0.0;
        for step in 0..100_000 {
            let turn = f64::from(step) / 100_000.0 * std::f64::consts::TAU;
            let v = Vec2::new(turn.cos() as f32, turn.sin() as f32) * 3.7;
            let exact = f64::from(v.y).atan2(f64::from(v.x));
            let mut error = (f64::from(angle(v)) - exact).abs();
            // -π and +π are the same direction.
            error = error.min((error - std::f64::consts::TAU).abs());
            worst = worst.max(error);
        }
        assert!(worst < 4e-7, "{worst}");
        assert_eq!(angle(Vec2::ZERO), 0.0);
        assert_eq!(angle(Vec2::new(-1.0, 0.0)), std::f32::consts::PI);
        assert_eq!(angle(Vec2::new(-1.0, -0.0)), std::f32::consts::PI);
        assert_eq!(angle(Vec2::Y), std::f32::consts::FRAC_PI_2);
    }

    #[test]
    fn angle_and_direction_are_inverse() {
        assert_eq!(angle(Vec2::Y), std::f32::consts::FRAC_PI_2);
        assert_eq!(angle(Vec2::NEG_X), std::f32::consts::PI);
        let d = direction(angle(Vec2::new(3.0, 4.0)));
        assert!((d - Vec2::new(0.6, 0.8)).length() < 1e-6);
    }
}
