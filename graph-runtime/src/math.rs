//! The contract's vector conventions, written once.
//!
//! World space is 2D with y pointing up. `forward` is a unit vector and
//! `side = forward.perp()` points to the left of it.

use glam::Vec2;

/// Vectors shorter than this are treated as zero by [`normalize`] and as "no motion" elsewhere.
pub const TINY: f32 = 1e-6;

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
#[inline]
pub fn truncate(v: Vec2, max: f32) -> Vec2 {
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
    // `|v|²` or the scale factor under- or overflows f32 (a tiny or huge `v`, a tiny `max`),
    // which would keep a tiny vector above `max` or drop a huge one to zero. f64 holds the
    // square of any f32, so measure and scale there.
    let wide = v.as_dvec2();
    let length = wide.length();
    let max = f64::from(max);
    if length <= max {
        v
    } else {
        (wide * (max / length)).as_vec2()
    }
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

/// The contract's `sign`: `+1` for zero and positive values, `-1` for negative ones.
#[inline]
pub fn sign(x: f32) -> f32 {
    if x < 0.0 { -1.0 } else { 1.0 }
}

/// Rotates the unit vector `direction` counter-clockwise by `angle` radians.
#[inline]
pub fn rotate(direction: Vec2, angle: f32) -> Vec2 {
    Vec2::from_angle(angle).rotate(direction)
}

#[cfg(test)]
mod tests {
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
}
