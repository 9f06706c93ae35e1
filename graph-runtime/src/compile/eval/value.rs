//! What the evaluator carries from node to node ([`Value`]): a `Vec2` for a program that only
//! moves (a force, or a sensor's reading in `x`), a `Vec3` for one that also turns the facing
//! (the force in `x, y`, the angular acceleration in `z`). Each program runs with the one it
//! needs, so a program without angular nodes computes exactly what it did before they existed.

use glam::{Vec2, Vec3};

use crate::Steering;
use crate::compile::program::{Frame, Scratch};
use crate::math::truncate;

/// A value the evaluator carries: forces, readings and answers alike.
pub(crate) trait Value:
    Copy + std::fmt::Debug + std::ops::Add<Output = Self> + std::ops::AddAssign
{
    /// Whether the value has an angular part.
    const TURNS: bool;
    /// Zero: no force, no turn, reading `0`, answer false.
    const ZERO: Self;
    /// A linear force alone.
    fn force(force: Vec2) -> Self;
    /// A steering (its angular part dropped by a value that has none).
    fn steering(steering: Steering) -> Self;
    /// A sensor's reading (or a condition's `1` / `0`).
    fn scalar(x: f32) -> Self;
    /// The reading a sensor left (`x`).
    fn reading(self) -> f32;
    /// `w · self`, both parts.
    fn scaled(self, w: f32) -> Self;
    /// What Priority and Dither compare with epsilon: `sqrt(|F|² + τ²)`.
    fn magnitude(self) -> f32;
    /// What Budget spends: `|F|`.
    fn linear_length(self) -> f32;
    /// Truncate: the force truncated to `max`, the angular part unchanged.
    fn truncated(self, max: f32) -> Self;
    /// Whether every part is finite.
    fn finite(self) -> bool;
    /// As a steering.
    fn to_steering(self) -> Steering;
    /// The memo of shared ops for values of this type.
    fn memo(scratch: &mut Scratch) -> &mut Vec<(u32, Self)>;
    /// The evaluator's stack for values of this type.
    fn frames(scratch: &mut Scratch) -> &mut Vec<Frame<Self>>;
    /// The batch's columns for values of this type.
    fn batch_values(scratch: &mut Scratch) -> &mut Vec<Self>;
}

impl Value for Vec2 {
    const TURNS: bool = false;
    const ZERO: Self = Vec2::ZERO;

    #[inline]
    fn force(force: Vec2) -> Self {
        force
    }

    #[inline]
    fn steering(steering: Steering) -> Self {
        steering.force
    }

    #[inline]
    fn scalar(x: f32) -> Self {
        Vec2::new(x, 0.0)
    }

    #[inline]
    fn reading(self) -> f32 {
        self.x
    }

    #[inline]
    fn scaled(self, w: f32) -> Self {
        w * self
    }

    #[inline]
    fn magnitude(self) -> f32 {
        self.length()
    }

    #[inline]
    fn linear_length(self) -> f32 {
        self.length()
    }

    #[inline]
    fn truncated(self, max: f32) -> Self {
        truncate(self, max)
    }

    #[inline]
    fn finite(self) -> bool {
        self.is_finite()
    }

    #[inline]
    fn to_steering(self) -> Steering {
        Steering::force(self)
    }

    #[inline]
    fn memo(scratch: &mut Scratch) -> &mut Vec<(u32, Self)> {
        &mut scratch.memo
    }

    #[inline]
    fn frames(scratch: &mut Scratch) -> &mut Vec<Frame<Self>> {
        &mut scratch.frames
    }

    #[inline]
    fn batch_values(scratch: &mut Scratch) -> &mut Vec<Self> {
        &mut scratch.batch_values
    }
}

impl Value for Vec3 {
    const TURNS: bool = true;
    const ZERO: Self = Vec3::ZERO;

    #[inline]
    fn force(force: Vec2) -> Self {
        force.extend(0.0)
    }

    #[inline]
    fn steering(steering: Steering) -> Self {
        steering.force.extend(steering.angular)
    }

    #[inline]
    fn scalar(x: f32) -> Self {
        Vec3::new(x, 0.0, 0.0)
    }

    #[inline]
    fn reading(self) -> f32 {
        self.x
    }

    #[inline]
    fn scaled(self, w: f32) -> Self {
        w * self
    }

    #[inline]
    fn magnitude(self) -> f32 {
        self.to_steering().magnitude()
    }

    #[inline]
    fn linear_length(self) -> f32 {
        self.truncate().length()
    }

    #[inline]
    fn truncated(self, max: f32) -> Self {
        truncate(self.truncate(), max).extend(self.z)
    }

    #[inline]
    fn finite(self) -> bool {
        self.is_finite()
    }

    #[inline]
    fn to_steering(self) -> Steering {
        Steering {
            force: self.truncate(),
            angular: self.z,
        }
    }

    #[inline]
    fn memo(scratch: &mut Scratch) -> &mut Vec<(u32, Self)> {
        &mut scratch.turning.memo
    }

    #[inline]
    fn frames(scratch: &mut Scratch) -> &mut Vec<Frame<Self>> {
        &mut scratch.turning.frames
    }

    #[inline]
    fn batch_values(scratch: &mut Scratch) -> &mut Vec<Self> {
        &mut scratch.turning.batch_values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_without_a_turn_measures_as_its_force() {
        let force = Vec2::new(3.0, 4.0);
        let turning = <Vec3 as Value>::force(force);
        assert_eq!(turning.magnitude(), force.magnitude());
        assert_eq!(turning.magnitude(), 5.0);
        assert_eq!(turning.linear_length(), 5.0);
    }

    #[test]
    fn priority_counts_the_turn_and_budget_does_not() {
        // F = (3, 0), τ = 4: magnitude 5, linear length 3.
        let value = <Vec3 as Value>::steering(Steering {
            force: Vec2::new(3.0, 0.0),
            angular: 4.0,
        });
        assert_eq!(value.magnitude(), 5.0);
        assert_eq!(value.linear_length(), 3.0);
        // Truncate limits the force and keeps the turn.
        assert_eq!(value.truncated(1.5), Vec3::new(1.5, 0.0, 4.0));
        assert_eq!(value.scaled(2.0), Vec3::new(6.0, 0.0, 8.0));
    }
}
